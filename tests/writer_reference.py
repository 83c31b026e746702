"""The layout pass as it was before the writer computed it from the cells it holds: it walked every
coordinate of each sheet's used range (creating the empty cells). Kept as the reference the fast layout
must equal (tests/test_writer_same_outputs.py)."""

from __future__ import annotations

from openpyxl import Workbook
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from adjudicator.outputs.layout import (
    CELL_PADDING,
    COLUMN_CAPS,
    ONE_LINE,
    WIDEST_COLUMN,
    _aligned_top,
    _font,
    _is_title,
    _shown,
    _width,
    _with_wrap,
    column_width,
    inset,
    print_setup,
    row_points,
    sure_texts,
    text_width,
    wrapped_lines,
    wrapped_text,
)
from adjudicator.outputs.writing import REFIT_ROWS


def used_range(ws: Worksheet) -> tuple[int, int]:
    """The last row and column that hold something shown (formulas of empty input rows do not count)."""
    last_row = last_col = 0
    for row in ws.iter_rows():
        for cell in row:
            if _shown(cell) is not None and _shown(cell) != "":
                last_row = max(last_row, cell.row)
                last_col = max(last_col, cell.column)
    return last_row, last_col


def lay_out_sheet(ws: Worksheet, header_rows: int | None = None) -> None:
    """Widths, wraps, row heights and print setup of one sheet, from what its cells hold."""
    last_row, last_col = used_range(ws)
    if not last_row:
        return
    merged_skip: set[str] = set()
    for merged in ws.merged_cells.ranges:
        for row in ws.iter_rows(min_row=merged.min_row, max_row=merged.max_row, min_col=merged.min_col,
                                max_col=merged.max_col):
            for cell in row:
                merged_skip.add(cell.coordinate)
    # widths: as wide as the content (up to WIDEST_COLUMN) and never narrower than its longest word
    content: dict[int, float] = {}
    words: dict[int, float] = {}
    for row in ws.iter_rows(min_row=1, max_row=last_row, max_col=last_col):
        for cell in row:
            text = _shown(cell)
            if not text or _is_title(cell) or cell.coordinate in merged_skip:
                continue
            bold, size = _font(cell)
            widest_line = max(text_width(line, bold, size) for line in text.split("\n"))
            longest_word = max(text_width(w, bold, size) for w in text.replace("\n", " ").split(" "))
            padding = CELL_PADDING + 0.5 + inset(cell.alignment.indent if cell.alignment else 0)
            content[cell.column] = max(content.get(cell.column, 0.0), widest_line + padding)
            words[cell.column] = max(words.get(cell.column, 0.0), longest_word + padding)
    for col in range(1, last_col + 1):
        letter = get_column_letter(col)
        current = ws.column_dimensions[letter].width if letter in ws.column_dimensions else None
        ws.column_dimensions[letter].width = column_width(current, content.get(col, 0.0), words.get(col, 0.0),
                                                          getattr(ws, COLUMN_CAPS, {}).get(col, WIDEST_COLUMN))
    _sure_texts(ws, last_row, last_col)
    # wraps and heights, for the final widths; the rows fit_row_heights guessed fitted again
    merged_width: dict[str, float] = {}
    for merged in ws.merged_cells.ranges:
        merged_width[ws.cell(merged.min_row, merged.min_col).coordinate] = sum(
            _width(ws, c) for c in range(merged.min_col, merged.max_col + 1))
    for number in getattr(ws, REFIT_ROWS, ()):
        if number in ws.row_dimensions:
            ws.row_dimensions[number].height = None
    for row in ws.iter_rows(min_row=1, max_row=last_row, max_col=last_col):
        points = 0.0
        for cell in row:
            text = _shown(cell)
            if not text or (cell.coordinate in merged_skip and cell.coordinate not in merged_width):
                continue
            bold, size = _font(cell)
            width = (merged_width.get(cell.coordinate) or _width(ws, cell.column)) - inset(
                cell.alignment.indent if cell.alignment else 0)
            wrap = bool(cell.alignment and cell.alignment.wrap_text)
            if not wrap and not _is_title(cell) and (
                    "\n" in text or text_width(text, bold, size) > width - CELL_PADDING):
                cell.alignment = _with_wrap(cell.alignment)
                wrap = True
            lines = wrapped_lines(text, width, bold, size) if wrap else 1
            points = max(points, row_points(lines, size))
        if points > ONE_LINE:
            ws.row_dimensions[row[0].row].height = round(points, 1)
            for cell in row:  # a tall row: every cell starts at its top, beside the wrapped text
                if cell.value is not None and not (cell.alignment and cell.alignment.vertical):
                    cell.alignment = _aligned_top(cell.alignment)
    spans_to = max([last_col] + [merged.max_col for merged in ws.merged_cells.ranges  # a text's merged span
                                 if _shown(ws.cell(merged.min_row, merged.min_col))])
    print_setup(ws, last_row, max(_last_printed_column(ws, last_row, last_col), spans_to), header_rows)


def _sure_texts(ws: Worksheet, last_row: int, last_col: int) -> None:
    """The columns widened where a wrapped text's lines would move with the print's scale (layout.sure_texts):
    each cell's text in its column, a merged cell's in its span."""
    spans = {(merged.min_row, merged.min_col): merged.max_col for merged in ws.merged_cells.ranges}
    inside = {(row, col) for merged in ws.merged_cells.ranges for row in range(merged.min_row, merged.max_row + 1)
              for col in range(merged.min_col, merged.max_col + 1)}
    widths = {col: _width(ws, col) for col in range(1, max([last_col, *spans.values()]) + 1)}
    texts = []
    for row in ws.iter_rows(min_row=1, max_row=last_row, max_col=last_col):
        for cell in row:
            text = _shown(cell)
            at = (cell.row, cell.column)
            if not text or _is_title(cell) or (at in inside and at not in spans):
                continue
            bold, size = _font(cell)
            found = wrapped_text(cell.column, spans.get(at, cell.column), text, bold, size,
                                 inset(cell.alignment.indent if cell.alignment else 0),
                                 bool(cell.alignment and cell.alignment.wrap_text), widths)
            if found is not None:
                texts.append(found)
    for col, width in sure_texts(widths, texts).items():
        if width != widths[col]:
            ws.column_dimensions[get_column_letter(col)].width = width


def _last_printed_column(ws: Worksheet, last_row: int, last_col: int) -> int:
    """The last column the print area needs: titles flow over empty cells to their right."""
    last = last_col
    for row in ws.iter_rows(min_row=1, max_row=last_row, max_col=last_col):
        for cell in row:
            text = _shown(cell)
            if not text or not _is_title(cell):
                continue
            bold, size = _font(cell)
            need, col = text_width(text, bold, size), cell.column
            room = _width(ws, col)
            while room < need and col < 200:
                col += 1
                room += _width(ws, col)
            last = max(last, col)
    return last


def lay_out(wb: Workbook) -> None:
    for ws in wb.worksheets:
        if ws.sheet_state == "visible" and isinstance(ws, Worksheet):
            lay_out_sheet(ws)
