"""The tables of a sheet of stacked tables (a report), read from its workbook, found again in its PDF, and the
empty band a reader's eye crosses between neighbouring columns of each table."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.pdf_layout import Page, Word, printed_lines

#: The widest gap, in text heights, between two words of one cell's line: a space (0.24 of the height in DejaVu
#: Sans, 0.19 in Carlito: tests/pdf_layout.py); the texts of two cells stand further apart.
SPACE = 0.4


@dataclass(frozen=True)
class Table:
    title: str
    rows: tuple[tuple[tuple[int, str], ...], ...]  # header row first: (column of the table, text) of each cell


def _is_title(cell: Any) -> bool:
    return bool(cell.font and cell.font.sz and float(cell.font.sz) > 11)


def _text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return "" if value is None else str(value)


def stacked_tables(ws: Any) -> list[Table]:
    """The titled tables of a report sheet: a title (larger font), a header row, its rows up to an empty one;
    each cell numbered by its table's column (a header and the cells under it, however many sheet columns it
    spans)."""
    tables = []
    titles = [cell.row for cell in ws["A"] if cell.value is not None and _is_title(cell)]
    for title in titles:
        header = {cell.column: _text(cell.value) for cell in ws[title + 1] if cell.value is not None}
        columns = sorted(header)
        rows = [tuple((i, header[col]) for i, col in enumerate(columns))]
        row = title + 2
        while row <= ws.max_row and any(c.value is not None for c in ws[row]) and not _is_title(ws.cell(row, 1)):
            cells = {cell.column: _text(cell.value) for cell in ws[row] if cell.value is not None}
            rows.append(tuple((i, cells[col]) for i, col in enumerate(columns) if cells.get(col)))
            row += 1
        tables.append(Table(_text(ws.cell(title, 1).value), tuple(rows)))
    return tables


def _placed(line: list[Word], cells: tuple[tuple[int, str], ...]) -> dict[int, tuple[float, float]] | None:
    """Where each cell's first printed line lies on ``line`` (left of its first word, right of its last), its
    words matched in order; None when ``line`` is not that row."""
    placed, at = {}, 0
    for column, text in cells:
        tokens = text.split()
        if not tokens:
            continue
        while at < len(line) and line[at].text != tokens[0]:
            at += 1
        if at == len(line):
            return None
        first = at
        at += 1
        for token in tokens[1:]:  # the words of one cell: a space apart, where two cells' are further
            if at < len(line) and line[at].text == token and line[at].x0 - line[at - 1].x1 < SPACE * (
                    line[at].y1 - line[at].y0):
                at += 1
            else:
                break
        placed[column] = (line[first].x0, line[at - 1].x1)
    return placed


def column_bands(table: Table, lines: list[list[Word]], start: int) -> tuple[list[float], float, int] | None:
    """The empty band between each column of ``table`` and the next, as printed from line ``start`` on: from the
    right of the widest text of the one to the left of the leftmost text of the other, over every row (its
    header too); the printed text's height; the line after the table. None when the table is not found."""
    title = table.title.split()
    at = next((i for i in range(start, len(lines)) if [w.text for w in lines[i]][:len(title)] == title), None)
    if at is None:
        return None
    lefts: dict[int, float] = {}
    rights: dict[int, float] = {}
    heights: list[float] = []
    for cells in table.rows:
        found = None
        while found is None and at + 1 < len(lines):
            at += 1
            found = _placed(lines[at], cells)
        if found is None:
            return None
        heights += [w.y1 - w.y0 for w in lines[at]]
        for column, (left, right) in found.items():
            lefts[column] = min(lefts.get(column, left), left)
            rights[column] = max(rights.get(column, right), right)
    columns = sorted(lefts)
    bands = [lefts[b] - rights[a] for a, b in zip(columns, columns[1:], strict=False)]
    return bands, sorted(heights)[len(heights) // 2], at + 1


def widest_bands(ws: Any, pages: list[Page]) -> list[tuple[str, str, str, float]]:
    """(table, column, next column, band in text heights) of every neighbouring pair of columns of every table of
    the report sheet ``ws`` printed on ``pages``; a table not found is given an infinite band."""
    lines = printed_lines(pages)
    found, at = [], 0
    for table in stacked_tables(ws):
        measured = column_bands(table, lines, at)
        if measured is None:
            found.append((table.title, "?", "?", float("inf")))
            continue
        bands, height, at = measured
        headers = [text for _, text in table.rows[0]]
        found += [(table.title, headers[i], headers[i + 1], band / height) for i, band in enumerate(bands)]
    return found


def report_sheet(path: Path) -> Any:
    import openpyxl

    book = openpyxl.load_workbook(path)
    return next(ws for ws in book.worksheets if ws.sheet_state == "visible" and len(stacked_tables(ws)) > 1)
