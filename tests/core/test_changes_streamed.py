"""The Changes tab described as streamed cells (maps/changes.py's changes_cells, written by XlsxWriter as the
workbook is saved) is the tab made of openpyxl cells (fill_changes) byte for byte, its links included; saved by
openpyxl after all (streamed.materialize), it shows the same face. Real workbooks written and read back, with
the changes of every ruleset's example turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from adjudicator.engine.registry import find_ruleset
from adjudicator.outputs import streamed
from adjudicator.outputs.fast_save import atomic_save_fast
from adjudicator.outputs.maps import changes as changes_tab
from adjudicator.outputs.maps import turn as turn_pictures
from adjudicator.outputs.writing import atomic_save
from adjudicator.turn import pipeline
from tests.core.test_writer_same_outputs import workbook_face
from tests.helpers import EVERY_RULESET_SLOW_BUT_ONE


def _turn_changes(ruleset: str, root: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, str, str]]:
    """(changes, language, title) of each faction's Changes tab in the example's turn."""
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "1")  # the tabs are made in this process, where they are kept
    made: list[tuple[Any, str, str]] = []
    real = turn_pictures.write_changes
    monkeypatch.setattr(turn_pictures, "write_changes",
                        lambda wb, changes, lang, title: made.append((changes, lang, title)) or
                        real(wb, changes, lang, title))
    pipeline.new_campaign(find_ruleset(ruleset), root, example=True)
    assert pipeline.run(root).status == "resolved"
    return made


def _book(changes: Any, lang: str, title: str, stream: bool) -> Any:
    wb = openpyxl.Workbook()
    wb.active.title = "Outcome T01"  # what the causes link to
    if stream:
        streamed.stream_new_tabs(wb)
    changes_tab.write_changes(wb, changes, lang, title)
    return wb


@pytest.mark.parametrize("ruleset", EVERY_RULESET_SLOW_BUT_ONE)
def test_the_streamed_changes_tab_is_the_openpyxl_one(ruleset: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    made = _turn_changes(ruleset, tmp_path / "campaign", monkeypatch)
    assert made
    linked = 0
    for number, (changes, lang, title) in enumerate(made):
        cells_way, streamed_way, by_openpyxl = (tmp_path / f"{number}-{name}.xlsx" for name in
                                                ("cells", "streamed", "openpyxl"))
        described = _book(changes, lang, title, stream=True)
        assert streamed.tab_of(described.worksheets[1]).kind == "cells"
        assert atomic_save_fast(described, streamed_way)
        assert atomic_save_fast(_book(changes, lang, title, stream=False), cells_way)
        assert streamed_way.read_bytes() == cells_way.read_bytes(), title
        atomic_save(_book(changes, lang, title, stream=True), by_openpyxl)  # materialized: fill_changes
        face = workbook_face(streamed_way)
        assert face == workbook_face(by_openpyxl), title
        tab = face[face["sheets"][1]]
        assert len(tab["cells"]) >= 6 and tab["view"][0] == "A2"
        linked += len(tab["links"])
    assert linked or ruleset == "coordinated_orders"  # its example's turn changes nothing a link would name


@pytest.mark.parametrize("changes", [
    [],  # "(none)"
    [changes_tab.Change(changes_tab.msg("changed"), "fleets", "A1", "a before text of thirty letters", 2.5,
                        "row 2", None),  # a height the layout keeps (one line as it measures, two as _lines)
     changes_tab.Change(changes_tab.msg("lost"), "ledger", "credits", 10, None, "the turn's upkeep\nand more", None),
     changes_tab.Change(changes_tab.msg("seen"), "fleets", "B2", None, "", "x" * 300, "'Outcome T01'!A3")],
], ids=["none", "mixed"])
def test_a_written_tab_is_the_same_both_ways(changes: list[Any], tmp_path: Path) -> None:
    streamed_way, cells_way = tmp_path / "streamed.xlsx", tmp_path / "cells.xlsx"
    atomic_save_fast(_book(changes, "en", "Changes T01", stream=True), streamed_way)
    atomic_save_fast(_book(changes, "en", "Changes T01", stream=False), cells_way)
    assert streamed_way.read_bytes() == cells_way.read_bytes()
    heights = workbook_face(streamed_way)["Changes T01"]["heights"]
    assert heights.get(2) == 30 if changes else not heights  # _lines' two lines, kept by the layout


@pytest.mark.slow
@pytest.mark.filterwarnings("error")  # nothing is told on the terminal but what the project says
def test_a_link_the_writer_refuses_leaves_the_tab_to_openpyxl(tmp_path: Path) -> None:
    """Past the links one sheet holds (65,530), the save is openpyxl's (fast_save.save_workbook), with the tab's
    cells and links all there."""
    change = changes_tab.Change(changes_tab.msg("changed"), "fleets", "A1", 1, 2, "row 2", "'Outcome T01'!A2")
    wb = _book([change] * 65_531, "en", "Changes T01", stream=True)
    saved = atomic_save_fast(wb, tmp_path / "many.xlsx")
    assert not saved.by_xlsxwriter
    ws = openpyxl.load_workbook(tmp_path / "many.xlsx")["Changes T01"]
    assert ws.max_row == 65_532 and ws["F65532"].hyperlink.location == "'Outcome T01'!A2"
