"""fast_save.py writes a cell's XML itself for a text or a number (the innermost loop of every save): the
workbook's bytes are those XlsxWriter's own ``_write_cell`` gives (real workbooks saved both ways)."""

from __future__ import annotations

import io
import zipfile
from decimal import Decimal
from typing import Any

import openpyxl
import pytest
from openpyxl.styles import Alignment, Font, PatternFill
from xlsxwriter.worksheet import Worksheet as XWorksheet

from adjudicator.engine.ruleset import ReportTable
from adjudicator.outputs import fast_save
from adjudicator.outputs.writing import write_report_sheet, write_table_sheet


def _workbook() -> openpyxl.Workbook:
    """Streamed tabs (text columns formatted as text: a column's format) and an openpyxl tab of every kind of
    value, styled and not, in rows with and without a height."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Cells"
    values: list[Any] = ["text", "", " spaced ", "Ъ ñ ✓ 😀", "<&\">", "=1+1", 0, -1, 1.5, 1e20, 1 / 3, -2.5e-9,
                         2**53 + 1, True, False, Decimal("3.25"), None]
    for r, value in enumerate(values, start=1):
        ws.cell(r, 1, value)
        styled = ws.cell(r, 2, value)
        styled.font = Font(bold=r % 2 == 0)
        styled.fill = PatternFill("solid", fgColor="FFEEAA") if r % 3 == 0 else PatternFill()
        styled.alignment = Alignment(wrap_text=r % 4 == 0)
        ws.cell(r, 4, f"row {r}")
    ws.row_dimensions[3].height = 30
    ws.column_dimensions["D"].width = 40
    ws.column_dimensions["E"].number_format = "@"  # a column's format, and unstyled cells in it
    ws.column_dimensions["E"].font = Font(italic=True)
    ws.row_dimensions[6].font = Font(bold=True)  # a row's format, and unstyled cells in it
    ws.row_dimensions[6].fill = PatternFill("solid", fgColor="DDEEFF")
    for r in (1, 6, 7):
        ws.cell(r, 5, f"E{r}")
        ws.cell(r, 6, r)
    write_table_sheet(wb, "Ledger T01", ["Account", "Change", "Cause"],
                      [["Credits", 5, "a long cause " * 6], ["Ore", -2.5, "=HYPERLINK(\"x\")"], ["Ъ", 10**6, ""]],
                      "en", widths=[16, 30, 50])
    write_report_sheet(wb, "Report T01", [
        ReportTable("fleets", "Fleets", ["Fleet", "Ships", "Where"], [["F1", 12, "A1"], ["F2", 0.125, "B2"]]),
    ], "en")
    return wb


def _parts(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _saved(wb: openpyxl.Workbook) -> bytes:
    from adjudicator.outputs.layout import lay_out

    lay_out(wb)
    buffer = io.BytesIO()
    fast_save.save_fast(wb, buffer)
    return buffer.getvalue()


def test_a_cell_is_written_as_xlsxwriter_writes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    ours = _parts(_saved(_workbook()))
    monkeypatch.setattr(fast_save._sheet_class(), "_write_cell", XWorksheet._write_cell)
    theirs = _parts(_saved(_workbook()))
    assert ours.keys() == theirs.keys()
    for name in ours:
        assert ours[name] == theirs[name], name
    sheets = b"".join(data for name, data in ours.items() if name.startswith("xl/worksheets/sheet"))
    assert b' t="s"><v>' in sheets and b"<v>1E+20</v>" in sheets and b"<v>0.3333333333333333</v>" in sheets
