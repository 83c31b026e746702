"""Row heights fitted for the columns' final widths (issue 10): a height guessed before the layout widened
the columns is fitted again, and a merged cell's lines are counted over its widened columns. The files are
written and read back."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from openpyxl import Workbook
from openpyxl.styles import Alignment

from adjudicator.outputs.fast_save import atomic_save_fast
from adjudicator.outputs.layout import LINE_POINTS, ROW_PADDING, wrapped_lines
from adjudicator.outputs.writing import fit_row_heights

WRAP = Alignment(wrap_text=True, vertical="top")
SHORT = "A cruiser moved from A1 to B2 in the night"  # about 40 "0" widths: one line once widened
LONG = " ".join(["Battle at C3: the fleet of BETA held its ground and lost two frigates"] * 2)


def _saved(wb: Workbook, path: Path) -> openpyxl.Workbook:
    atomic_save_fast(wb, path)
    return openpyxl.load_workbook(path)


def test_a_guessed_height_is_fitted_again_for_the_widened_column(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.column_dimensions["A"].width = 12  # narrow when the height is guessed
    for row, text in ((2, SHORT), (3, LONG)):
        ws.cell(row, 1, text).alignment = WRAP
    fit_row_heights(ws, 2, 4)
    assert ws.row_dimensions[2].height and ws.row_dimensions[2].height > 2 * LINE_POINTS  # the guess: many lines
    back = _saved(wb, tmp_path / "book.xlsx").active
    width = back.column_dimensions["A"].width
    assert width > 40  # the layout widened the column to its text
    assert back.row_dimensions[2].height is None  # its text now fits on one line: one line high
    lines = wrapped_lines(LONG, width)
    assert lines >= 2
    assert back.row_dimensions[3].height == round(lines * LINE_POINTS + ROW_PADDING, 1)


def test_a_merged_cell_is_fitted_over_its_widened_columns(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    for column in "AB":
        ws.column_dimensions[column].width = 10
    ws.cell(1, 1, LONG).alignment = WRAP
    ws.merge_cells("A1:B1")
    ws.cell(2, 1, "x" * 30)  # widen A to 30-odd
    ws.cell(2, 2, "y" * 30)  # and B
    back = _saved(wb, tmp_path / "merged.xlsx").active
    spanned = back.column_dimensions["A"].width + back.column_dimensions["B"].width
    assert spanned > 60
    lines = wrapped_lines(LONG, spanned)
    assert lines < wrapped_lines(LONG, 20)  # fitted for the widened columns, not the 20 wide they were
    assert back.row_dimensions[1].height == round(lines * LINE_POINTS + ROW_PADDING, 1)
