"""The lines LibreOffice draws in each row of a workbook, against the height the workbook gives the row.

A copy of the workbook gets one marker per printed row ("QQ<sheet>x<row>", top-aligned) in a column added after
the print area; once printed, the words between a row's marker and the next row's marker on the page are that
row's, and their distinct baselines are the lines it draws (sheets holding a chart or a map are left out:
their drawings' words lie over rows). A row written a line or more taller than the lines it draws shows a
blank line; one drawn in more lines than it was given has its last lines cut (LibreOffice clips them:
tests/core/test_rendering.py finds the words missing). The marker column changes the print's scale a little,
and with it the breaks of a line within layout.LINE_SLACK of its room: such rows are told apart (``unsure``),
but for the header rows of titled tables (``header``): the plan of stacked tables' columns widens a header's
column until its lines no longer move with the scale (layout.sure_headers), so a header row is always measured.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import openpyxl
from openpyxl.styles import Alignment
from openpyxl.utils import get_column_letter
from openpyxl.utils.cell import range_boundaries

from adjudicator.outputs.layout import (
    DEFAULT_ROW,
    DEFAULT_WIDTH,
    LINE_POINTS,
    LINE_SLACK,
    ROW_PADDING,
    inset,
    wrapped_lines,
)
from tests.pdf_layout import Page, Word

MARKER = re.compile(r"^QQ(\d+)x(\d+)$")


@dataclass(frozen=True)
class RowLines:
    sheet: str
    row: int
    height: float  # points, as written (the default row's when none is)
    written: int  # the lines of the row's tallest font that height holds
    drawn: int  # the lines LibreOffice printed in it
    text: str  # its printed words, for the reader of a failure
    unsure: bool = False  # a wrapped cell of it that the print's scale may break in one line more or less
    header: bool = False  # the header row of a titled table (the row after a title, two cells or more)

    @property
    def blank(self) -> bool:
        """A line or more of the row left blank under its text (not counted in a row whose lines depend on the
        print's scale, layout.LINE_SLACK giving it the line that may be needed, unless it is a table's header
        row: no header's lines are left to the scale)."""
        return self.drawn > 0 and self.written - self.drawn >= 1 and (self.header or not self.unsure)

    @property
    def cut(self) -> bool:
        return self.drawn > self.written

    def __str__(self) -> str:
        return (f"{self.sheet}!{self.row}: {self.height:g} pt ({self.written} lines), {self.drawn} drawn: "
                f"{self.text[:70]!r}")


def _print_columns(ws: openpyxl.worksheet.worksheet.Worksheet) -> tuple[int, int] | None:
    """(last column, last row) of the sheet's print area, or of its used cells when it has none."""
    area = ws.print_area
    if area:
        _, _, last_col, last_row = range_boundaries(str(area).split("!")[-1].replace("$", "").split(",")[0])
        return last_col, last_row
    return (ws.max_column, ws.max_row) if ws.max_row > 1 or ws.max_column > 1 else None


Rows = dict[int, tuple[str, dict[int, tuple[float, float, bool, bool]]]]


def header_rows(ws: openpyxl.worksheet.worksheet.Worksheet) -> set[int]:
    """The header rows of the sheet's titled tables: the row after a title (a first cell in a font larger
    than 11 points) holding two values or more."""
    cells = ws._cells  # noqa: SLF001 - the written cells, none created
    titles = {row for (row, col), cell in cells.items()
              if col == 1 and isinstance(cell.value, str) and cell.font.sz and float(cell.font.sz) > 11}
    values: dict[int, int] = {}
    for (row, _), cell in cells.items():
        if row - 1 in titles and cell.value is not None:
            values[row] = values.get(row, 0) + 1
    return {row for row, count in values.items() if count > 1}


def unsure_rows(ws: openpyxl.worksheet.worksheet.Worksheet) -> set[int]:
    """The rows holding a wrapped cell whose lines change within :data:`LINE_SLACK` of its room: LibreOffice
    breaks it in one line more or less by the print's scale."""
    from openpyxl.utils import column_index_from_string

    widths = {column_index_from_string(k): d.width for k, d in ws.column_dimensions.items() if d.width}
    spans = {(m.min_row, m.min_col): range(m.min_col, m.max_col + 1) for m in ws.merged_cells.ranges}
    found = set()
    for (row, col), cell in ws._cells.items():  # noqa: SLF001 - the written cells, none created
        if not isinstance(cell.value, str) or not cell.alignment.wrap_text:
            continue
        width = sum(widths.get(c, DEFAULT_WIDTH) for c in spans.get((row, col), (col,)))
        width -= inset(cell.alignment.indent)
        bold, size = bool(cell.font.b), float(cell.font.sz or 11)
        if wrapped_lines(cell.value, width, bold, size, LINE_SLACK) != wrapped_lines(cell.value, width, bold, size,
                                                                                      -LINE_SLACK):
            found.add(row)
    return found


def marked_copy(source: Path, target: Path) -> Rows:
    """Write ``target``: ``source`` with a marker beside every printed row of each visible sheet. Returns, by
    sheet index, the sheet's name and each row's (height in points, tallest font size, whether its lines
    depend on the print's scale: :func:`unsure_rows`, whether it is a table's header row: :func:`header_rows`)."""
    book = openpyxl.load_workbook(source)
    rows: Rows = {}
    for index, ws in enumerate(book.worksheets):
        drawn = ws._charts or ws._images  # noqa: SLF001 - a chart's or a map's words are no row's
        bounds = _print_columns(ws) if ws.sheet_state == "visible" and not drawn else None
        if bounds is None:
            continue
        last_col, last_row = bounds
        sizes: dict[int, float] = {}
        for (row, col), cell in ws._cells.items():  # noqa: SLF001 - the written cells, none created
            if col <= last_col and row <= last_row and cell.value is not None and cell.font and cell.font.sz:
                sizes[row] = max(sizes.get(row, 11.0), float(cell.font.sz))
        unsure, headers = unsure_rows(ws), header_rows(ws)
        marker = last_col + 1
        ws.column_dimensions[get_column_letter(marker)].width = 9
        for row in range(1, last_row + 1):
            cell = ws.cell(row, marker, f"QQ{index}x{row}")
            cell.alignment = Alignment(vertical="top")
        ws.print_area = f"A1:{get_column_letter(marker)}{last_row}"
        rows[index] = (ws.title, {row: (float(ws.row_dimensions[row].height or DEFAULT_ROW), sizes.get(row, 11.0),
                                        row in unsure, row in headers) for row in range(1, last_row + 1)})
    book.save(target)
    return rows


def _lines(words: list[Word]) -> int:
    """Distinct baselines (within a point) among ``words``."""
    baselines: list[float] = []
    for word in sorted(words, key=lambda w: w.y1):
        if not baselines or word.y1 - baselines[-1] > 1.0:
            baselines.append(word.y1)
    return len(baselines)


def row_lines(rows: Rows, printed: list[Page]) -> list[RowLines]:
    """Every printed row of the marked copy (:func:`marked_copy`), as printed on ``printed``: its written height
    and lines against the lines drawn. A row printed on several pages (repeated header rows) counts its most."""
    found: dict[tuple[int, int], RowLines] = {}
    for page in printed:
        markers = sorted(((int(m[1]), int(m[2]), w) for w in page.words if (m := MARKER.match(w.text))),
                         key=lambda item: item[2].y0)
        if not markers:
            continue
        left = min(w.x0 for _, _, w in markers) - 1.0
        others = [w for w in page.words if not MARKER.match(w.text) and w.x1 <= left + 1.0]
        for k, (sheet, row, marker) in enumerate(markers):
            top = marker.y0 - 1.0
            bottom = markers[k + 1][2].y0 - 1.0 if k + 1 < len(markers) else page.height
            inside = [w for w in others if top <= (w.y0 + w.y1) / 2 < bottom]
            name, heights = rows[sheet]
            height, size, unsure, header = heights[row]
            written = max(1, round((height - ROW_PADDING) / (LINE_POINTS * size / 11.0)))
            measured = RowLines(name, row, height, written, _lines(inside), " ".join(w.text for w in inside), unsure,
                                header)
            if (sheet, row) not in found or measured.drawn > found[sheet, row].drawn:
                found[sheet, row] = measured
    return [found[key] for key in sorted(found)]
