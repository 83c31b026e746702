"""Row heights fitted for the columns' final widths (issue 10): a height guessed before the layout widened
the columns is fitted again, and a merged cell's lines are counted over its widened columns; LibreOffice
prints a wrapped row's lines whole, without a blank line under them. The files are written and read back,
and printed by the real LibreOffice."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl import Workbook
from openpyxl.styles import Alignment

from adjudicator.outputs.fast_save import atomic_save_fast
from adjudicator.outputs.layout import LINE_POINTS, row_points, wrapped_lines
from adjudicator.outputs.writing import atomic_save, fit_row_heights
from tests.conftest import convert
from tests.pdf_layout import pages

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
    assert back.row_dimensions[3].height == round(row_points(lines), 1)


def test_a_merged_cell_is_fitted_over_its_widened_columns(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    for column in "AB":
        ws.column_dimensions[column].width = 10
    ws.cell(1, 1, LONG).alignment = WRAP
    ws.merge_cells("A1:B1")
    ws.cell(2, 1, "0" * 30)  # widen A to 30-odd (a "0" is one width)
    ws.cell(2, 2, "0" * 30)  # and B
    back = _saved(wb, tmp_path / "merged.xlsx").active
    spanned = back.column_dimensions["A"].width + back.column_dimensions["B"].width
    assert spanned > 60
    lines = wrapped_lines(LONG, spanned)
    assert lines < wrapped_lines(LONG, 20)  # fitted for the widened columns, not the 20 wide they were
    assert back.row_dimensions[1].height == round(row_points(lines), 1)


@pytest.mark.libreoffice
def test_libreoffice_prints_every_line_of_a_wrapped_row_with_no_blank_line_under_them(tmp_path: Path,
                                                                                         soffice: str) -> None:
    """Rows of 2 to 10 wrapped lines, each followed by a marker row: the lines end above the next row's text
    (nothing cut), and less than one line's pitch above it (no blank line: 15 points a line left one under
    every eight lines)."""
    wb = Workbook()
    ws = wb.active
    ws.column_dimensions["A"].width = 30
    counts = (2, 4, 6, 8, 10)
    for row, count in enumerate(counts, start=1):
        ws.cell(2 * row - 1, 1, "\n".join(f"L{row}x{n}" for n in range(count))).alignment = WRAP
        ws.cell(2 * row, 1, f"M{row}")
    atomic_save(wb, tmp_path / "wrapped.xlsx")
    assert openpyxl.load_workbook(tmp_path / "wrapped.xlsx").active.row_dimensions[1].height == row_points(2)
    words = {w.text: w for page in pages(convert(soffice, tmp_path / "wrapped.xlsx", "pdf", tmp_path))
             for w in page.words}
    for row, count in enumerate(counts, start=1):
        lines = [words[f"L{row}x{n}"] for n in range(count)]
        pitch = (lines[-1].y0 - lines[0].y0) / (count - 1)
        assert 12 < pitch <= LINE_POINTS, (row, pitch)  # as layout.py counts a line
        below = words[f"M{row}"].y0 - lines[-1].y1  # from the last line to the next row's text
        assert 0 <= below < pitch, (count, round(below, 2), round(pitch, 2))
