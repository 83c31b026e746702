"""The checked copy's Errors tab written straight as worksheet XML (adjudicator/outputs/errors_tab.py): the composed
copy byte for byte the one composed of XlsxWriter's workbook of the tab, over the examples' problems and over the
edges of what a cell may hold; a check no longer runs XlsxWriter for a composed checked copy; any other workbook of
new tabs (results, report tabs) still goes through XlsxWriter."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from adjudicator.engine.registry import find_ruleset
from adjudicator.outputs import errors_tab, faction_workbooks, fast_save
from adjudicator.outputs.compose import COMPOSED, ComposedCopy, Mark
from adjudicator.outputs.new_tabs import NewTabs
from adjudicator.outputs.streamed import stream_new_tabs
from adjudicator.outputs.writing import write_report_sheet, write_table_sheet
from adjudicator.turn import pipeline
from tests.helpers import checked_example_with_problems

WIDTHS = [8, 10, 16, 8, 70, 60]


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    """The star_sectors example checked, and its submissions with problems."""
    root = tmp_path_factory.mktemp("errors_tab") / "campaign"
    return root, checked_example_with_problems(root)


def _tab_workbook(title: str, headers: list[Any], rows: list[list[Any]], lang: str, widths: list[int]) -> Any:
    wb = stream_new_tabs(openpyxl.Workbook())
    wb.remove(wb.active)
    write_table_sheet(wb, title, headers, rows, lang, widths=widths)
    faction_workbooks.neutral_properties(wb, "Checked orders")
    return wb


def _both_ways(player: Path, marks: list[Mark], monkeypatch: pytest.MonkeyPatch, *tab: Any) -> tuple[bytes, bytes]:
    """The composed copy with the tab written straight, and with it written by XlsxWriter (as before)."""
    copy = ComposedCopy(player, marks, lambda: None)
    assert errors_tab.direct_tab(_tab_workbook(*tab)) is not None
    direct = copy.bytes(_tab_workbook(*tab))
    with monkeypatch.context() as m:
        m.setattr(errors_tab, "direct_tab", lambda wb: None)
        through_xlsxwriter = copy.bytes(_tab_workbook(*tab))
    return direct, through_xlsxwriter


def test_the_examples_errors_tabs_are_the_bytes_xlsxwriter_wrote(checked: tuple[Path, list],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    for submission in checked[1]:
        for lang in ("en", "ru", "es"):
            rows = faction_workbooks.problem_rows(list(submission.problems), lang)
            marks = [Mark(p.sheet, p.cell, p.is_error, row[4]) for p, row in
                     zip(submission.problems, rows, strict=True) if p.sheet and p.cell]
            direct, through_xlsxwriter = _both_ways(submission.path, marks, monkeypatch, "Errors",
                                                    faction_workbooks.PROBLEM_HEADERS, rows, lang, WIDTHS)
            assert direct == through_xlsxwriter, (submission.path.name, lang)


def test_a_checked_copy_made_without_openpyxl_is_the_copy_made_with_it(checked: tuple[Path, list],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A check's checked copy holds its Errors tab in a NewTabs, not an openpyxl workbook (new_tabs.py): the
    composed bytes are those of the openpyxl placeholder, written straight or, should the tab need XlsxWriter,
    through the openpyxl workbook NewTabs makes."""
    for submission in checked[1]:
        for lang in ("en", "ru"):
            light = faction_workbooks.checked_copy(submission, lang, streamed=True)
            title = "Errors" if lang == "en" else "Ошибки"
            assert isinstance(light, NewTabs) and [sheet.title for sheet in light.worksheets] == [title]
            copy: ComposedCopy = getattr(light, COMPOSED)
            rows = faction_workbooks.problem_rows(list(submission.problems), lang)
            old = _tab_workbook(title, faction_workbooks.PROBLEM_HEADERS, rows, lang, WIDTHS)
            old.properties.title = light.properties.title
            assert copy.bytes(light) == copy.bytes(old), (submission.path.name, lang)
            with monkeypatch.context() as m:
                m.setattr(errors_tab, "direct_tab", lambda wb: None)
                assert copy.bytes(light) == copy.bytes(old), (submission.path.name, lang)


EDGES: list[list[Any]] = [
    ["E1", "error", "Orders", "B2", "a & b < c > d \"quoted\" 'single'", "  leading and trailing  "],
    ["E2", "warning", "Orders", "C3", "control \x01\x02 and _x0041_ escaped", "tab\tand\nnew line"],
    ["E3", 12, 3.5, Decimal("2.25"), -1e20, 0.1],
    ["E4", True, False, None, "", "Кириллица и длинный текст " * 30],
    ["E5", "x" * 40_000],
    ["E6", "😀" * 17_000, "narrow"],
    ["E7", 1, 2, 3, 4, 5, 6, 7],  # longer than the headers
    ["E8"],
    *[[f"R{i}", i, "word " * (i % 7)] for i in range(40)],  # several blocks of 16 rows, their spans
]


@pytest.mark.parametrize(("title", "rows", "widths"), [
    ("Errors", EDGES, WIDTHS),
    ("Ошибки 1", EDGES[:3], WIDTHS),
    ("O'Brien & Co", EDGES[6:], []),
    ("Errores", [], WIDTHS),  # headers only
    ("Narrow", [["a", 1], ["b", 2]], [8, 8, 8, 8, 8, 8]),  # portrait
])
def test_the_edges_of_a_cell_are_the_bytes_xlsxwriter_wrote(checked: tuple[Path, list], title: str,
                                                            rows: list[list[Any]], widths: list[int],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    submission = checked[1][0]
    marks = [Mark(p.sheet, p.cell, p.is_error, "marked") for p in submission.problems if p.sheet and p.cell]
    direct, through_xlsxwriter = _both_ways(submission.path, marks, monkeypatch, title,
                                            faction_workbooks.PROBLEM_HEADERS, rows, "en", widths)
    assert direct == through_xlsxwriter


def test_a_check_writes_its_composed_copies_without_xlsxwriter(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "campaign"
    pipeline.new_campaign(find_ruleset("inner_sphere"), root, example=True)
    made = []
    real_save_fast = fast_save.save_fast

    def spied(*args: Any, **kwargs: Any) -> None:
        made.append(args)
        real_save_fast(*args, **kwargs)

    monkeypatch.setattr(fast_save, "save_fast", spied)
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "1")
    outcome = pipeline.check(root)
    copies = sorted(root.glob("checks/**/*.checked.xlsx"))
    assert copies and not made
    for copy in copies:  # the Errors tab first, read back by openpyxl
        wb = openpyxl.load_workbook(copy)
        errors = wb.worksheets[0]
        assert errors.freeze_panes == "A2" and errors.max_row >= 2, copy.name
    assert outcome.submissions


def test_other_workbooks_of_new_tabs_still_go_through_xlsxwriter() -> None:
    two = _tab_workbook("Errors", ["a"], [["x"]], "en", [])
    write_table_sheet(two, "More", ["b"], [["y"]], "en")
    assert errors_tab.direct_tab(two) is None
    report = stream_new_tabs(openpyxl.Workbook())
    report.remove(report.active)
    write_report_sheet(report, "Report", [], "en")
    assert errors_tab.direct_tab(report) is None
    plain = openpyxl.Workbook()
    plain.active["A1"] = "not streamed"
    assert errors_tab.direct_tab(plain) is None
