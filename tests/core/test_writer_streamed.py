"""The streamed tabs (streamed.py): written by XlsxWriter from their data, they read back as the openpyxl-built
tabs do, whichever saver writes the workbook (XlsxWriter, openpyxl when the workbook holds what XlsxWriter is
not told how to write, writing.py's atomic_save); the same bytes every time. Real files written and read back."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from openpyxl.formatting.rule import CellIsRule
from openpyxl.styles import PatternFill

from adjudicator.engine.ruleset import ReportTable
from adjudicator.i18n import msg
from adjudicator.outputs import streamed
from adjudicator.outputs.fast_save import atomic_save_fast
from adjudicator.outputs.writing import atomic_save, write_report_sheet, write_table_sheet
from tests.core.test_writer_same_outputs import workbook_face


def _workbook(stream: bool) -> openpyxl.Workbook:
    wb = streamed.stream_new_tabs(openpyxl.Workbook(), stream)
    wb.active.title = "Orders"
    wb.active["A1"] = "the player's sheet"
    write_table_sheet(wb, "Ledger T01", ["Account", "Change", "Cause", "Flag", ""],
                      [["Credits", 5, "a long cause that wraps " * 6, True, ""],
                       ["Ore", -2.5, "=HYPERLINK(\"x\")", None, "\x01"],
                       ["Крейсеры", 10**6, "line one\nline two", False, 3]], "ru", widths=[16, 8, 50])
    write_report_sheet(wb, "Report T01", [
        ReportTable("fleets", msg("Report"), ["Fleet", "Ships", "Where"], [["F1", 12, "A1"], ["F2", 3.5, "B2"]]),
        ReportTable("none", "Nothing happened at all in this long titled table of the report", ["Note"], []),
        ReportTable("notes", "Notes", ["Note", "Turn"], [["a long note that widens the first column " * 3, "T01"]]),
    ], "es")
    write_report_sheet(wb, "Empty", [], "en")
    wb.active = 1
    return wb


def test_a_streamed_tab_reads_back_as_the_openpyxl_built_one(tmp_path: Path) -> None:
    built, written = tmp_path / "built.xlsx", tmp_path / "streamed.xlsx"
    atomic_save_fast(_workbook(stream=False), built)
    wb = _workbook(stream=True)
    assert streamed.tab_of(wb["Ledger T01"]) is not None and not wb["Ledger T01"]._cells  # noqa: SLF001
    assert atomic_save_fast(wb, written)
    assert workbook_face(written) == workbook_face(built)
    again = tmp_path / "again.xlsx"
    atomic_save_fast(_workbook(stream=True), again)
    assert again.read_bytes() == written.read_bytes()
    ledger = openpyxl.load_workbook(written)["Ledger T01"]
    assert ledger["C3"].data_type == "s" and ledger["C3"].value == "=HYPERLINK(\"x\")"  # never a formula
    assert ledger["D2"].value is True and ledger["E2"].value is None  # a boolean; an empty text: no cell value
    assert ledger.row_dimensions[2].height and ledger.row_dimensions[2].height > 30  # the long cause's lines


def test_openpyxl_savers_fill_the_streamed_tabs_the_old_way(tmp_path: Path) -> None:
    built, fallback, plain = tmp_path / "built.xlsx", tmp_path / "fallback.xlsx", tmp_path / "plain.xlsx"
    untranslatable = CellIsRule(operator="lessThan", formula=["0"], fill=PatternFill("solid", fgColor="FF0000"))
    wb = _workbook(stream=False)
    wb["Orders"].conditional_formatting.add("A1:A2", untranslatable)
    atomic_save(wb, built)
    wb = _workbook(stream=True)
    wb["Orders"].conditional_formatting.add("A1:A2", untranslatable)
    assert not atomic_save_fast(wb, fallback)  # openpyxl saved it, its streamed tabs filled first
    assert streamed.tab_of(wb["Ledger T01"]) is None and wb["Ledger T01"]["A1"].value == "Account"
    atomic_save(_workbook(stream=True), plain)
    assert workbook_face(fallback) == workbook_face(built)
    atomic_save(_workbook(stream=False), built)
    assert workbook_face(plain) == workbook_face(built)


def _mixed(stream: bool) -> openpyxl.Workbook:
    wb = streamed.stream_new_tabs(openpyxl.Workbook(), stream)
    wb.remove(wb.active)
    write_report_sheet(wb, "Report T01", [
        ReportTable("orders", "Orders", ["CO", "Tokens", "Orders spent"],
                    [["J1", 0, 0], ["A", 1, "1 (CG 1)"], ["B", 1, "2 (CG 1)"]]),
    ], "en")
    return wb


def test_a_number_among_texts_stands_left_as_the_texts_do_in_both_writers(tmp_path: Path) -> None:
    built, written = tmp_path / "built.xlsx", tmp_path / "streamed.xlsx"
    atomic_save_fast(_mixed(stream=False), built)
    assert atomic_save_fast(_mixed(stream=True), written)
    assert workbook_face(written) == workbook_face(built)
    for path in (built, written):
        report = openpyxl.load_workbook(path)["Report T01"]
        header, = [row for row in report.iter_rows() if row[0].value == "CO"]
        zero, = [row for row in report.iter_rows() if row[0].value == "J1"]
        assert zero[1].alignment.horizontal == "right" and header[1].alignment.horizontal == "right"  # numbers
        assert zero[2].value == 0 and zero[2].alignment.horizontal == "left"  # a 0 among "1 (CG 1)"s
        assert header[2].alignment.horizontal != "right"
