"""The XlsxWriter save: the same bytes every time, openpyxl where a workbook holds what it does not translate,
and a number's header aligned over its numbers (real workbooks written and read back)."""

from __future__ import annotations

import time
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.formatting.rule import CellIsRule
from openpyxl.styles import PatternFill

from adjudicator.engine.ruleset import ReportTable
from adjudicator.outputs.fast_save import ZIP_DATE, atomic_save_fast, save_workbook
from adjudicator.outputs.writing import write_report_sheet, write_table_sheet


def _workbook() -> openpyxl.Workbook:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    write_table_sheet(wb, "Ledger T01", ["Account", "Change", "Cause"],
                      [["Credits", 5, "a long cause " * 6], ["Ore", -2.5, "=HYPERLINK(\"x\")"]], "en",
                      widths=[16, 30, 50])
    write_report_sheet(wb, "Report T01", [
        ReportTable("fleets", "Fleets", ["Fleet", "Ships", "Where"], [["F1", 12, "A1"], ["F2", 3, "B2"]]),
        ReportTable("notes", "Notes", ["Note", "Turn"], [["a long note that widens the first column", "T01"]]),
    ], "en")
    wb.properties.title = "Results"
    return wb


def test_two_saves_give_the_same_bytes_and_read_back_as_written(tmp_path: Path) -> None:
    first, second = tmp_path / "a.xlsx", tmp_path / "b.xlsx"
    assert atomic_save_fast(_workbook(), first)
    assert atomic_save_fast(_workbook(), second)
    assert first.read_bytes() == second.read_bytes()
    wb = openpyxl.load_workbook(first)
    ledger = wb["Ledger T01"]
    assert [c.value for c in ledger[3]] == ["Ore", -2.5, "=HYPERLINK(\"x\")"]
    assert ledger["C3"].data_type == "s"  # a player's text is never a formula
    assert ledger.column_dimensions["B"].width == 30  # the very width openpyxl stores, not XlsxWriter's pixels
    assert ledger.freeze_panes == "A2" and ledger.auto_filter.ref == "A1:C3"
    assert wb.properties.created.year == 2000


def test_a_number_column_has_its_header_aligned_like_its_numbers(tmp_path: Path) -> None:
    path = tmp_path / "report.xlsx"
    atomic_save_fast(_workbook(), path)
    wb = openpyxl.load_workbook(path)
    ledger, report = wb["Ledger T01"], wb["Report T01"]
    assert ledger["B1"].alignment.horizontal == "right"  # Change: numbers only
    assert ledger["A1"].alignment.horizontal in (None, "general") and ledger["C1"].alignment.horizontal != "right"
    assert report["B2"].value == "Ships" and report["B2"].alignment.horizontal == "right"
    assert report["A2"].alignment.horizontal != "right"  # Fleet: names
    turn, = [cell for cell in report[7] if cell.value == "Turn"]  # after the note's span (layout.stack_columns)
    assert turn.alignment.horizontal != "right"  # a text column


def test_what_is_not_translated_is_saved_by_openpyxl(tmp_path: Path) -> None:
    wb = _workbook()
    wb["Ledger T01"].conditional_formatting.add(
        "B2:B3", CellIsRule(operator="lessThan", formula=["0"], fill=PatternFill("solid", fgColor="FF0000")))
    path = tmp_path / "conditional.xlsx"
    assert not save_workbook(wb, path)
    again = openpyxl.load_workbook(path)
    assert len(again["Ledger T01"].conditional_formatting) == 1
    assert again["Ledger T01"]["B3"].value == -2.5


def _picture_size(path: Path) -> tuple[int, int, int, int]:
    """The cells and offsets the picture of ``path``'s first sheet ends at, as Excel and LibreOffice place it."""
    import re
    import zipfile

    drawing = zipfile.ZipFile(path).read("xl/drawings/drawing1.xml").decode()
    to = re.search(r"<xdr:to><xdr:col>(\d+)</xdr:col><xdr:colOff>(\d+)</xdr:colOff><xdr:row>(\d+)</xdr:row>"
                   r"<xdr:rowOff>(\d+)</xdr:rowOff>", drawing)
    assert to, drawing[:300]
    return tuple(int(v) for v in to.groups())  # type: ignore[return-value]


def test_a_picture_keeps_the_size_it_was_shown_at_when_a_saved_workbook_is_read_and_saved_again(
        tmp_path: Path) -> None:
    import io

    from openpyxl.drawing.image import Image
    from PIL import Image as Picture

    png = io.BytesIO()
    Picture.new("RGB", (400, 300), "navy").save(png, format="PNG", dpi=(100, 100))
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "T01 Map"
    ws["A1"] = "Map of turn 1"
    image = Image(io.BytesIO(png.getvalue()))
    image.anchor = "A2"
    image.width, image.height = 200, 150  # shown at half its pixels, as a map tab scales a large map
    ws.add_image(image)
    first, second = tmp_path / "first.xlsx", tmp_path / "second.xlsx"
    assert save_workbook(wb, first)
    assert save_workbook(openpyxl.load_workbook(first), second)  # as next turn's master is written
    assert _picture_size(first) == _picture_size(second)
    column, offset, row, row_offset = _picture_size(first)
    # from A2, 200 px: three 64-pixel columns and 8 px; 150 px: seven 20-pixel rows and 10 px (EMU offsets)
    assert (column, offset // 9525, row, row_offset // 9525) == (3, 8, 8, 10)


def test_the_bytes_do_not_depend_on_the_time_zone_and_every_member_has_one_date(tmp_path: Path) -> None:
    """The sheets' XML goes through temporary files (fast_save.py): their clock and the machine's time zone
    must not reach the zip."""
    saved = []
    with pytest.MonkeyPatch.context() as patch:
        for zone in ("UTC", "Pacific/Auckland", "America/Los_Angeles"):
            patch.setenv("TZ", zone)
            time.tzset()
            path = tmp_path / f"{zone.replace('/', '-')}.xlsx"
            assert atomic_save_fast(_workbook(), path)
            saved.append(path.read_bytes())
    time.tzset()
    assert saved[0] == saved[1] == saved[2]
    with zipfile.ZipFile(tmp_path / "UTC.xlsx") as archive:
        assert {info.date_time for info in archive.infolist()} == {ZIP_DATE}


def test_a_saved_workbook_is_freed_without_the_cycle_collector(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """XlsxWriter's workbook and its worksheets hold each other: left so, every saved workbook's cells waited for
    the cycle collector, which walked them again and again (parallel.py's docstring). Once saved, nothing of it
    is left alive when the collector does not run."""
    import gc
    import weakref

    from adjudicator.outputs import literal_texts

    made: list[weakref.ref[object]] = []
    real = literal_texts.LiteralTextsWorkbook  # the XlsxWriter workbook save_fast writes with

    class Seen(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)
            made.append(weakref.ref(self))

    monkeypatch.setattr(literal_texts, "LiteralTextsWorkbook", Seen)
    gc.collect()
    gc.disable()
    try:
        assert atomic_save_fast(_workbook(), tmp_path / "results.xlsx")
        assert made and all(ref() is None for ref in made)
    finally:
        gc.enable()
    assert openpyxl.load_workbook(tmp_path / "results.xlsx")["Ledger T01"]["A3"].value == "Ore"
