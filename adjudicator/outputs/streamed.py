"""The adjudicator's own tabs (Errors, Outcome, Report, Ledger, Changes, the master's turn tabs) written straight
by XlsxWriter, never built as openpyxl cells.

:func:`adjudicator.outputs.writing.write_table_sheet` and ``write_report_sheet`` describe such a tab as data
(headers, rows, preset widths) on an empty placeholder sheet of the openpyxl workbook when the workbook was
marked with :func:`stream_new_tabs`: the placeholder keeps the tab's name and place among the sheets (the
workbook's active and selected tabs, the links other tabs make to it), and :mod:`adjudicator.outputs.fast_save`
writes its cells from the description. Widths, wraps, row heights and the print setup are computed here while
the cells are made, by the rules of :mod:`adjudicator.outputs.layout` (the same figures: the tests compare the
two ways cell for cell). Whatever must be saved by openpyxl after all (a workbook XlsxWriter cannot write,
:func:`adjudicator.outputs.writing.atomic_save`) has its placeholders filled first by :func:`materialize`, the
openpyxl way, so nothing depends on which writer saves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import Any

from xlsxwriter.utility import xl_col_to_name

from adjudicator.i18n import Msg, render
from adjudicator.outputs.cell_text import ILLEGAL_CHARACTERS_RE
from adjudicator.outputs.layout import (
    CELL_PADDING,
    DEFAULT_WIDTH,
    NUMBER_INDENT,
    ONE_LINE,
    PORTRAIT_WIDTH,
    WIDEST_COLUMN,
    ColumnHeader,
    Pieces,
    StackedColumns,
    WrappedText,
    column_need,
    column_width,
    inset,
    kept_lines,
    lines_of,
    long_column,
    measure,
    numbers_placed,
    row_points,
    span_need,
    stack_columns,
    sure_texts,
    text_width,
    wrapped_text,
)

#: The attribute of an openpyxl workbook that asks for streamed tabs, and of a placeholder sheet its tab.
STREAM_FLAG = "_adjudicator_stream_tabs"
TAB = "_adjudicator_streamed_tab"
#: openpyxl gives a column it is asked about (and not yet told a width) this width.
OPENPYXL_NEW_COLUMN = 13.0
#: openpyxl's default page margins (left, right, top, bottom) as fast_save.py writes an openpyxl sheet's ("1.0"):
#: a tab that replaces an openpyxl-built one byte for byte (the master's Ledger and Dice) takes them.
OPENPYXL_MARGINS = (0.75, 0.75, 1.0, 1.0)


def stream_new_tabs(wb: Any, on: bool = True) -> Any:
    """Mark ``wb``: its new tables and report tabs are described, not built, until saved."""
    setattr(wb, STREAM_FLAG, on)
    return wb


def streaming(wb: Any) -> bool:
    return bool(getattr(wb, STREAM_FLAG, False))


def tab_of(ws: Any) -> Tab | None:
    return getattr(ws, TAB, None)


@dataclass(frozen=True)
class Style:
    """What the adjudicator's tabs set of a cell's style (all else is the workbook's default)."""

    bold: bool = False
    size: float = 11.0
    colour: str | None = None
    fill: str | None = None
    horizontal: str | None = None
    vertical: str | None = None
    wrap: bool = False
    indent: int = 0
    number_format: str | None = None  # e.g. "@": the cell is text, whatever is typed in it

    @property
    def title(self) -> bool:
        return self.size > 11

    def xlsxwriter(self) -> dict[str, Any]:
        """The format properties fast_save.py gives the openpyxl style of the same look."""
        props: dict[str, Any] = {}
        if self.size != 11.0:
            props["font_size"] = self.size
        if self.bold:
            props["bold"] = True
        if self.colour:
            props["font_color"] = "#" + self.colour
        if self.fill:
            props["pattern"] = 1
            props["bg_color"] = "#" + self.fill
        if self.horizontal:
            props["align"] = self.horizontal
        if self.vertical:
            props["valign"] = self.vertical
        if self.wrap:
            props["text_wrap"] = True
        if self.indent:
            props["indent"] = self.indent
        if self.number_format:
            props["num_format"] = self.number_format
        return props

    def wrapped(self) -> Style:  # layout.py's _with_wrap
        return Style(self.bold, self.size, self.colour, self.fill, self.horizontal, self.vertical or "top", True,
                     self.indent, self.number_format)

    def top(self) -> Style:  # layout.py's _aligned_top
        return Style(self.bold, self.size, self.colour, self.fill, self.horizontal, "top", self.wrap, self.indent,
                     self.number_format)

    @lru_cache(maxsize=256)  # noqa: B019 - a few styles, each kept for the process's life
    def spanned(self) -> Style:  # layout.py's spanned_alignment
        return Style(self.bold, self.size, self.colour, self.fill, "left", self.vertical, self.wrap, 0,
                     self.number_format)

    @lru_cache(maxsize=256)  # noqa: B019 - a few styles, each kept for the process's life
    def number(self) -> Style:  # layout.py's number_alignment
        return Style(self.bold, self.size, self.colour, self.fill, "right", self.vertical, self.wrap, NUMBER_INDENT,
                     self.number_format)

    @lru_cache(maxsize=256)  # noqa: B019 - a few styles, each kept for the process's life
    def as_text(self) -> Style:  # writing.py's identifiers_as_text
        return Style(self.bold, self.size, self.colour, self.fill, self.horizontal, self.vertical, self.wrap,
                     self.indent, "@")


PLAIN = Style()
HEADER = Style(bold=True, colour="FFFFFF", fill="305496", vertical="top", wrap=True)
TITLE = Style(bold=True, size=13)
WRAP_TOP = Style(vertical="top", wrap=True)
TEXT = Style(number_format="@")


@dataclass
class Tab:
    """One tab as data: ``kind`` "table" (headers, rows, widths), "report" (titled tables) or "cells" (its
    :class:`Cells` as made, with the function that fills an openpyxl sheet with them, for :func:`materialize`).

    A table's ``text_columns`` (from 1) are formatted as text ("@"), their written rows and the column itself
    (writing.py's identifiers_as_text); ``filtered`` gives it an autofilter over its rows and ``wrap_long``
    wraps every cell of a column 40 or more wide (writing.py's fill_table_sheet); without them a text wraps
    only where the layout needs it (the master's tables: store/master.py's _replace_table)."""

    kind: str
    lang: str
    headers: Sequence[Any] = ()
    rows: list[Sequence[Any]] = field(default_factory=list)
    widths: Sequence[int] = ()
    tables: Sequence[Any] = ()
    text_columns: Sequence[int] = ()
    filtered: bool = True
    wrap_long: bool = True
    margins: tuple[float, float, float, float] = (0.75, 0.75, 1, 1)  # left, right, top, bottom, as written
    cells: Cells | None = None  # kind "cells"
    fill: Callable[[Any], None] | None = None  # kind "cells": the same tab made of openpyxl cells on a sheet

    @property
    def fill_table_sheet(self) -> bool:
        """Whether the tab is what writing.py's fill_table_sheet makes (else: header, rows, text columns, frozen
        header row)."""
        return self.filtered and self.wrap_long and not self.text_columns


def describe(ws: Any, tab: Tab) -> Any:
    setattr(ws, TAB, tab)
    return ws


def materialize(wb: Any) -> None:
    """Fill every placeholder of ``wb`` with its cells, the openpyxl way, and make its sheets' plain rows cells
    (for a save by openpyxl)."""
    from adjudicator.outputs.plain_rows import materialize_plain
    from adjudicator.outputs.writing import fill_report_sheet, fill_table_sheet

    for ws in wb.worksheets:
        materialize_plain(ws)  # a hidden sheet's rows kept as data: its cells too (plain_rows.py)
        tab = tab_of(ws)
        if tab is None:
            continue
        delattr(ws, TAB)
        if tab.kind == "cells" and tab.fill is not None:
            tab.fill(ws)
        elif tab.kind == "table" and tab.fill_table_sheet:
            fill_table_sheet(ws, tab.headers, tab.rows, tab.lang, tab.widths)
        elif tab.kind == "table":
            fill_plain_table(ws, tab)
        else:
            fill_report_sheet(ws, tab.tables, tab.lang)
    setattr(wb, STREAM_FLAG, False)


def fill_plain_table(ws: Any, tab: Tab) -> None:
    """A table tab without filter or wraps of its own, the openpyxl way (store/master.py's _replace_table)."""
    from openpyxl.utils import get_column_letter

    from adjudicator.outputs.writing import columns_as_text, header_row, write_rows

    header_row(ws, 1, tab.headers, tab.lang, tab.widths)
    last = write_rows(ws, 2, tab.rows, tab.lang)
    if tab.wrap_long:
        from openpyxl.styles import Alignment

        for col in (col for col, width in enumerate(tab.widths, start=1) if width >= 40):
            for row in range(2, last):
                ws.cell(row=row, column=col).alignment = Alignment(wrap_text=True, vertical="top")
    columns_as_text(ws, tab.text_columns, 2, last - 1)
    ws.freeze_panes = "A2"
    if tab.filtered:
        ws.auto_filter.ref = f"A1:{get_column_letter(len(tab.headers))}{max(last - 1, 1)}"


# ------------------------------------------------------------------------------------------- the cells
def cell_value(value: Any, lang: str) -> tuple[Any, str] | None:
    """What :func:`adjudicator.outputs.writing.put` stores: (value, "s" text | "n" number | "b" boolean)."""
    if type(value) is str:  # most cells: a text already (render would return it as it is)
        return ILLEGAL_CHARACTERS_RE.sub("", value)[:32767], "s"
    value = render(value, lang)
    if value is None:
        return None
    if isinstance(value, str):
        return ILLEGAL_CHARACTERS_RE.sub("", value)[:32767], "s"
    if isinstance(value, bool):
        return value, "b"
    if isinstance(value, (int, float, Decimal)):
        return value, "n"
    return ILLEGAL_CHARACTERS_RE.sub("", str(value))[:32767], "s"


class Cells:
    """A tab's cells as openpyxl would hold them after writing.py's functions: value, kind and style by
    (row, column), from 1; and the column widths they set."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[Any]] = {}  # [value or None, kind, style]
        self.widths: dict[int, float] = {}
        self.caps: dict[int, float] = {}  # layout.py's COLUMN_CAPS
        self.merges: list[tuple[int, int, int, int]] = []  # (first row, first column, last row, last column)
        self.freeze: str | None = None
        self.autofilter: str | None = None
        self.row_major = False  # whether ``cells`` was filled in row and column order (no sort needed)
        self.heights: dict[int, float] = {}  # rows given a height as they were written (a taller one is laid)
        self.links: dict[tuple[int, int], str] = {}  # a cell's link to a place of the workbook ("'Sheet'!A5")

    def put(self, row: int, col: int, value: Any, lang: str, style: Style | None = None) -> None:
        self.place(row, col, cell_value(value, lang), style)

    def place(self, row: int, col: int, shown: tuple[Any, str] | None, style: Style | None = None) -> None:
        """:meth:`put` of a value already made what a cell stores (:func:`cell_value`)."""
        if shown is None or shown[0] == "":  # writing.py's put: an empty text leaves the cell empty
            if shown is not None and (row, col) in self.cells:
                self.cells[(row, col)][0] = None
            if style is not None:
                self.style(row, col, style)
            return
        entry = self.cells.get((row, col))
        if entry is None:
            self.cells[(row, col)] = [shown[0], shown[1], style]
        else:
            entry[0], entry[1] = shown
            if style is not None:
                entry[2] = style

    def style(self, row: int, col: int, style: Style) -> None:
        entry = self.cells.get((row, col))
        if entry is None:
            self.cells[(row, col)] = [None, "n", style]
        else:
            entry[2] = style

    def column_width(self, col: int) -> float:
        """openpyxl's ``ws.column_dimensions[letter].width``, which makes the column (13 wide) when asked."""
        return self.widths.setdefault(col, OPENPYXL_NEW_COLUMN)

    def header_row(self, row: int, headers: Sequence[Any], lang: str, widths: Sequence[int] = ()) -> None:
        from adjudicator.i18n import render

        for col, header in enumerate(headers, start=1):
            self.put(row, col, header, lang, HEADER)
            self.style(row, col, HEADER)
            width = widths[col - 1] if col - 1 < len(widths) else max(12, min(40, len(str(render(header, lang))) + 4))
            self.widths[col] = max(self.column_width(col) or 0, width)

    def spanned_header_row(self, row: int, headers: Sequence[Any], lang: str,
                           spans: Sequence[tuple[int, int]]) -> None:
        """writing.py's spanned_header_row: each header at its span's first column, a span's cells merged."""
        for header, (first, last) in zip(headers, spans, strict=False):
            self.put(row, first, header, lang, HEADER)
            self.style(row, first, HEADER)
            if last > first:
                self.merges.append((row, first, row, last))

    def write_rows(self, start: int, rows: Sequence[Sequence[Any]], lang: str,
                   spans: Sequence[tuple[int, int]] = (), reserved: Sequence[int] = (), made: bool = False) -> int:
        """writing.py's write_rows: the rows, then the numbers aligned (layout.py's align_number_columns).

        Each distinct text, and each message without parameters, is made a cell's value once (a tab's rows
        repeat a few hundred texts); ``made``: the rows hold cell values already (:func:`cell_value`'s). A
        ``reserved`` column (ascending; rows without spans) has a cell in every row, empty where its value is,
        made in its place among the row's cells (to be styled after)."""
        row, columns = start, 0
        memo: dict[Any, tuple[Any, str] | None] = {}
        place, cells = self.place, self.cells
        for values in rows:
            for index, value in enumerate(values):
                first, last = spans[index] if index < len(spans) else (index + 1, index + 1)
                if reserved and first in reserved and (row, first) not in cells:
                    cells[(row, first)] = [None, "n", None]
                place(row, first, value if made else _memo_value(value, lang, memo))
                if last > first:
                    self.merges.append((row, first, row, last))
                if last > columns:
                    columns = last
            for col in reserved:
                if (row, col) not in cells:
                    cells[(row, col)] = [None, "n", None]
            row += 1
        self._align_numbers(start, row - 1, columns, spans)
        return row

    def _align_numbers(self, first: int, last: int, columns: int, spans: Sequence[tuple[int, int]]) -> None:
        """Rows ``first`` to ``last`` (header: the row above) aligned as layout.py's numbers_placed says: every
        number right-aligned and indented, and each header of a column of numbers alone; a number in a text's
        span, or in a column of texts, stands left, as the texts do (writing.py's)."""
        cells = self.cells
        written = ((r, c, entry[0], entry[1]) for r in range(first - 1, last + 1) for c in range(1, columns + 1)
                   if (entry := cells.get((r, c))) is not None)
        placed, mixed = numbers_placed(written, first - 1, first, last)
        anchors = {first for first, last in spans if last > first} | mixed
        for at in placed:
            entry = cells[at]
            entry[2] = (entry[2] or PLAIN).spanned() if at[1] in anchors else (entry[2] or PLAIN).number()


def _memo_value(value: Any, lang: str, memo: dict[Any, tuple[Any, str] | None]) -> tuple[Any, str] | None:
    """:func:`cell_value`, kept in ``memo`` for a text, an int or a float, or a message without
    parameters (the same in one language): equal cells share one value (table_tab.py's caches hold them by it)."""
    kind = type(value)
    if kind is str:
        key: Any = value
    elif kind is int or (kind is float and value):  # a float zero may be -0.0: equal to 0.0, but written "-0"
        key = (kind, value)
    elif kind is Msg and not value.params and value.plural is None and value.n is None:
        key = (value.text,)
    else:
        return cell_value(value, lang)
    found = memo.get(key, memo)
    if found is memo:
        found = memo[key] = cell_value(value, lang)
    return found  # type: ignore[return-value]


def table_cells(tab: Tab) -> Cells:
    """writing.py's fill_table_sheet, as data."""
    cells = Cells()
    cells.header_row(1, tab.headers, tab.lang, tab.widths)
    wide = [col for col, width in enumerate(tab.widths, start=1) if width >= 40] if tab.wrap_long else []
    last = cells.write_rows(2, tab.rows, tab.lang, reserved=sorted({*wide, *tab.text_columns}))
    made = cells.cells
    for col in wide:
        for r in range(2, last):
            made[(r, col)][2] = WRAP_TOP
    for col in tab.text_columns:
        for r in range(2, last):
            entry = made[(r, col)]
            entry[2] = (entry[2] or PLAIN).as_text()
    cells.row_major = True
    cells.freeze = "A2"
    if tab.headers and tab.filtered:
        cells.autofilter = f"A1:{xl_col_to_name(len(tab.headers) - 1)}{max(last - 1, 1)}"
    return cells


def report_cells(tab: Tab) -> Cells:
    """writing.py's fill_report_sheet, as data."""
    from adjudicator.i18n import msg

    cells = Cells()
    row = 1
    stacked = len(tab.tables) > 1  # one table keeps the widths of a table tab
    memo: dict[Any, tuple[Any, str] | None] = {}
    shown = [[[_memo_value(value, tab.lang, memo) for value in values] for values in table.rows]
             for table in tab.tables]  # each cell's value made once, for the columns' plan and the cells
    plan = stacked_columns(tab.tables, tab.lang, shown)
    for table, spans, table_shown in zip(tab.tables, plan.spans, shown, strict=True):
        cells.put(row, 1, table.title, tab.lang, TITLE)
        cells.style(row, 1, TITLE)
        if stacked:
            cells.spanned_header_row(row + 1, table.headers, tab.lang, spans)
        else:
            cells.header_row(row + 1, table.headers, tab.lang)
        row = cells.write_rows(row + 2, table_shown, tab.lang, spans, made=True)
        if not table.rows:
            cells.put(row, 1, msg("(none)"), tab.lang)
            row += 1
        row += 1
    if stacked:
        cells.widths = dict(plan.widths)
        cells.caps = dict(plan.widths)
    return cells


def stacked_columns(tables: Sequence[Any], lang: str,
                    made: Sequence[Sequence[Sequence[tuple[Any, str] | None]]] | None = None) -> StackedColumns:
    """The columns of a sheet of stacked report tables (layout.py's stack_columns), from what each column of
    each table needs as the reader sees it (rendered in ``lang``), and its header's text (a number column's
    header indented, as number_alignment sets it), so that no header's lines are left to the print's scale.
    ``made``: each table's rows as cell values already (:func:`cell_value`'s), else made here."""
    needs, longs, headers = [], [], []
    for number, table in enumerate(tables):
        shown = made[number] if made is not None else [[cell_value(value, lang) for value in row]
                                                        for row in table.rows]
        table_needs, table_longs, table_headers = [], [], []
        for index, header in enumerate(table.headers):
            column = [cell[index] for cell in shown if index < len(cell) and cell[index] not in (None, ("", "s"))]
            texts = list(dict.fromkeys(text for value, _ in column if (text := _shown(value))))  # each once
            numbers = bool(column) and all(kind == "n" for _, kind in column)
            text = str(render(header, lang) or "")
            long = long_column(texts, numbers)
            need = column_need(text, texts, numbers)
            table_needs.append(span_need(need, texts) if long else need)
            table_longs.append(long)
            table_headers.append(ColumnHeader(text, inset(NUMBER_INDENT) if numbers else 0.0))
        needs.append(table_needs)
        longs.append(table_longs)
        headers.append(table_headers)
    return stack_columns(needs, longs, headers)


# ------------------------------------------------------------------------------------------- layout
def _shown(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


@dataclass
class Laid:
    """A tab ready to write: its cells (row order), widths, heights and print setup."""

    cells: list[tuple[tuple[int, int], list[Any]]]  # ((row, column), [value, kind, style]), row order
    widths: dict[int, float]
    heights: dict[int, float]
    print_area: tuple[int, int] | None
    landscape: bool
    a4: bool
    title_rows: bool
    freeze: str | None
    autofilter: str | None
    merges: tuple[tuple[int, int, int, int], ...] = ()
    links: dict[tuple[int, int], str] = field(default_factory=dict)


def lay_out(cells: Cells) -> Laid:
    """layout.py's lay_out_sheet over the cells (merged only along one row: a report's spanning columns).

    Each text is measured once per column and style, and its lines counted once per width and style: a tab's
    cells repeat a few hundred texts."""
    ordered = list(cells.cells.items()) if cells.row_major else sorted(cells.cells.items())
    merged = {(row, col) for row, first, _, last in cells.merges for col in range(first, last + 1)}
    last_row = last_col = widest = 0
    valued: list[tuple[int, int, list[Any], str]] = []  # the cells holding a value, in row order
    for (row, col), entry in ordered:
        value = entry[0]
        if value is None:
            continue
        text = value if type(value) is str else _shown(value)
        valued.append((row, col, entry, text))
        if col > widest:
            widest = col
        if text:
            if row > last_row:
                last_row = row
            if col > last_col:
                last_col = col
    widths = cells.widths
    heights = dict(cells.heights)  # as set when written: a row the layout finds taller is given its height
    if not last_row:
        return Laid(ordered, dict(widths), heights, None, True,
                    False, False, cells.freeze, cells.autofilter, links=cells.links)
    shown = valued if widest <= last_col and valued[-1][0] <= last_row else \
        [item for item in valued if item[0] <= last_row and item[1] <= last_col]
    content, words = _column_needs(shown, merged)
    for col in range(1, last_col + 1):
        widths[col] = column_width(widths.get(col), content.get(col, 0.0), words.get(col, 0.0),
                                   cells.caps.get(col, WIDEST_COLUMN))
    pieces: dict[tuple[str, bool, float], Pieces] = {}  # the texts of more than one line, measured once
    widths.update(sure_texts(widths, _wrapped_texts(shown, widths, cells.merges, merged), pieces))
    spanned = {(row, first): sum(widths.get(c) or DEFAULT_WIDTH for c in range(first, last + 1))
               for row, first, _, last in cells.merges}
    by_row, points_of = _wraps(shown, widths, spanned, pieces)
    del pieces
    derived: dict[int, Style] = {}  # one top-aligned style per style, not per cell
    for row, points in points_of.items():
        if points > ONE_LINE:
            heights[row] = round(points, 1)
            for entry in by_row[row]:
                style = entry[2]
                if not (style and style.vertical):
                    style = style or PLAIN
                    made = derived.get(id(style))
                    if made is None:
                        made = derived[id(style)] = style.top()
                    entry[2] = made
    printed = max([last_col] + [last for row, first, _, last in cells.merges if _shown(
        (cells.cells.get((row, first)) or [None])[0])])
    for _row, col, entry, text in shown:
        style = entry[2] or PLAIN
        if not text or not style.title:
            continue
        need = text_width(text, style.bold, style.size)
        room = widths.get(col) or DEFAULT_WIDTH
        while room < need and col < 200:
            col += 1
            room += widths.get(col) or DEFAULT_WIDTH
        printed = max(printed, col)
    total = sum(widths.get(c) or DEFAULT_WIDTH for c in range(1, printed + 1))
    title_rows = bool(cells.freeze and cells.freeze.endswith("2") and last_row > 1)
    return Laid(ordered, widths, heights,
                (last_row, printed), total > PORTRAIT_WIDTH, True, title_rows, cells.freeze, cells.autofilter,
                tuple(cells.merges), cells.links)


def _column_needs(shown: list[tuple[int, int, list[Any], str]],
                  merged: set[tuple[int, int]]) -> tuple[dict[int, float], dict[int, float]]:
    """What each column's texts need (layout.py's lay_out_sheet): its widest line and its longest word, with
    the cell's padding and indent; titles and merged cells aside. Each (column, text, style) measured once."""
    content: dict[int, float] = {}
    words: dict[int, float] = {}
    seen: set[tuple[int, str, int]] = set()
    for row, col, entry, text in shown:
        if not text:
            continue
        style = entry[2] or PLAIN
        if style.title or (merged and (row, col) in merged):
            continue
        key = (col, text, id(style))
        if key in seen:
            continue
        seen.add(key)
        widest_line, longest_word, _ = measure(text, style.bold, style.size)
        padding = CELL_PADDING + 0.5 + inset(style.indent)
        if widest_line + padding > content.get(col, 0.0):
            content[col] = widest_line + padding
        if longest_word + padding > words.get(col, 0.0):
            words[col] = longest_word + padding
    return content, words


def _wrapped_texts(shown: list[tuple[int, int, list[Any], str]], widths: dict[int, float],
                   merges: Sequence[tuple[int, int, int, int]], merged: set[tuple[int, int]]) -> list[WrappedText]:
    """The wrapped texts of a tab (layout.py's sure_sheet_texts): each cell's text in its column, a merged
    cell's in its span; titles aside. Each (column, text, style) looked at once."""
    spans = {(row, first): last for row, first, _, last in merges}
    texts: dict[WrappedText, None] = {}
    seen: set[tuple[int, int, str, int]] = set()
    for row, col, entry, text in shown:
        if not text:
            continue
        style = entry[2] or PLAIN
        last = spans.get((row, col), col) if spans else col
        if style.title or (merged and (row, col) in merged and (row, col) not in spans):
            continue
        key = (col, last, text, id(style))
        if key in seen:
            continue
        seen.add(key)
        found = wrapped_text(col, last, text, style.bold, style.size, inset(style.indent), style.wrap, widths)
        if found is not None:
            texts[found] = None
    return list(texts)


def _wraps(shown: list[tuple[int, int, list[Any], str]], widths: dict[int, float],
           spanned: dict[tuple[int, int], float],
           pieces: dict[tuple[str, bool, float], Pieces] | None = None) -> tuple[dict[int, list[list[Any]]],
                                                                                 dict[int, float]]:
    """Each row's cells and the height its tallest cell needs (layout.py's lay_out_sheet); a text wider than its
    column (or span) given a wrapped style. Each (text, style, width) counted once; ``pieces``: texts measured
    already (sure_texts')."""
    derived: dict[int, Style] = {}  # one wrapped style per style, not per cell
    fits: dict[tuple[str, int, float], tuple[Style | None, float]] = {}
    points_of: dict[int, float] = {}
    by_row: dict[int, list[list[Any]]] = {}
    for row, col, entry, text in shown:
        cells_of_row = by_row.get(row)
        if cells_of_row is None:
            cells_of_row = by_row[row] = []
        cells_of_row.append(entry)
        if not text:
            continue
        style = entry[2] or PLAIN
        width = (spanned.get((row, col)) if spanned else None) or widths.get(col) or DEFAULT_WIDTH
        key = (text, id(style), width)
        fit = fits.get(key)
        if fit is None:
            fit = fits[key] = _fit(text, style, width - inset(style.indent), derived, pieces)
        if fit[0] is not None:
            entry[2] = fit[0]
        if fit[1] > points_of.get(row, 0.0):
            points_of[row] = fit[1]
    return by_row, points_of


def _fit(text: str, style: Style, width: float, derived: dict[int, Style],
         pieces: dict[tuple[str, bool, float], Pieces] | None = None) -> tuple[Style | None, float]:
    """(the wrapped style ``text`` needs in a column ``width`` wide, or None: its style as it is; the points of
    its lines). ``pieces``: texts measured already (sure_texts'), whose lines are counted from them. A text's
    width is summed here, not asked of :func:`measure`: a master's Ledger holds more texts than it keeps, and
    each was measured whole again, its longest word too (the GM's Ledger of 40 states: 3.4 -> 2.8 s)."""
    wrap, wrapped = style.wrap, None
    if not wrap and not style.title and ("\n" in text or text_width(text, style.bold, style.size)
                                         > width - CELL_PADDING):
        wrapped = derived.get(id(style))
        if wrapped is None:
            wrapped = derived[id(style)] = style.wrapped()
        style, wrap = wrapped, True
    if not wrap:
        return wrapped, row_points(1, style.size)
    measured = pieces.get((text, style.bold, style.size)) if pieces else None
    lines = kept_lines(text, width, style.bold, style.size) if measured is None else \
        lines_of(measured, width, style.bold, style.size)
    return wrapped, row_points(lines, style.size)


# ------------------------------------------------------------------------------------------- writing
def write_tab(tab: Tab, sheet: Any, formats: dict[Style, Any], out: Any) -> None:
    """Write ``tab`` on the XlsxWriter ``sheet`` (fast_save.py's sheet class, exact widths and heights): a
    table from its rows (:mod:`adjudicator.outputs.table_tab`, the same cells as :func:`write_laid` writes of
    its :func:`table_cells` without holding them all), a report as its laid-out cells."""
    if tab.kind == "table":
        from adjudicator.outputs.table_tab import write_table

        write_table(tab, sheet, format_of(formats, out))
        return
    write_laid(lay_out(tab.cells if tab.kind == "cells" and tab.cells is not None else report_cells(tab)), tab,
               sheet, formats, out)


def format_of(formats: dict[Style, Any], out: Any) -> Any:
    """The XlsxWriter format of a style (None: the default), made once per style in ``formats`` (a workbook's)
    and looked up once per style object."""
    by_id: dict[int, tuple[Style, Any]] = {}  # the few style objects of a tab (kept: their ids stay theirs)

    def fmt(style: Style | None) -> Any:
        if style is None:
            return None
        found = by_id.get(id(style))
        if found is not None:
            return found[1]
        if style not in formats:
            props = style.xlsxwriter()
            formats[style] = out.add_format(props) if props else None
        by_id[id(style)] = (style, formats[style])
        return formats[style]

    return fmt


def write_laid(laid: Laid, tab: Tab, sheet: Any, formats: dict[Style, Any], out: Any) -> None:
    """Write the laid-out cells of ``tab`` on the XlsxWriter ``sheet``."""
    fmt = format_of(formats, out)
    write_sizes(laid, tab, sheet, fmt)
    links = laid.links
    put_row = rows_put_straight(sheet)
    if put_row is not None:
        _put_rows(laid.cells, links, sheet, put_row, fmt)
    else:
        for (row, col), (value, kind, style) in laid.cells:
            if links and (row, col) in links:
                write_link(sheet, row - 1, col - 1, links[(row, col)], value, fmt(style))
            else:
                write_cell(sheet, row - 1, col - 1, value, kind, fmt(style))
    for first_row, first_col, last_row, last_col in laid.merges:  # XlsxWriter writes the first cell itself
        if put_row is not None:
            sheet.merge_blank(first_row - 1, first_col - 1, last_row - 1, last_col - 1)
        else:
            sheet.merge_range(first_row - 1, first_col - 1, last_row - 1, last_col - 1, None)
    anchors = {(m[0], m[1]) for m in laid.merges}
    for (row, col), (value, kind, style) in laid.cells:
        if (row, col) in anchors:  # written again over merge_range's blank
            if put_row is None:
                write_cell(sheet, row - 1, col - 1, value, kind, fmt(style))
            elif value is not None and kind == "s":  # its text counted again in the shared strings' count
                sheet.text_written_again(value)
    write_view_and_print(laid, tab, sheet)


#: Whether a streamed tab's rows are handed to fast_save.py's sheet a whole row at a time and written straight
#: (its ``put_row``) rather than cell by cell through XlsxWriter's table: the same bytes
#: (``tests/core/test_rows_put_straight.py`` compares both); a large table tab is laid out and written a quarter
#: to a third faster.
ROWS_STRAIGHT = True


def rows_put_straight(sheet: Any) -> Any:
    """The ``put_row`` of a fast_save.py sheet written early (its rows let go as they are written), or None:
    its cells are then written one at a time (:func:`write_cell`)."""
    if not ROWS_STRAIGHT or getattr(sheet, "early", None) is None:
        return None
    return sheet.put_row


def _put_rows(cells: list[tuple[tuple[int, int], list[Any]]], links: dict[tuple[int, int], str], sheet: Any,
              put_row: Any, fmt: Any) -> None:
    """The laid cells (row order) handed to ``put_row`` a row at a time; a link's text numbered among the shared
    strings in the cells' order, as XlsxWriter's own writer numbers it (fast_save.LINK)."""
    from adjudicator.outputs.fast_save import LINK

    row_cells: list[tuple[int, Any, str, Any]] = []
    current = 0
    for (row, col), (value, kind, style) in cells:
        if row != current:
            if row_cells:
                put_row(current - 1, row_cells)
            row_cells = []
            current = row
        if links and (row, col) in links:
            row_cells.append((col - 1, internal_link(links[(row, col)], value), LINK, fmt(style)))
        else:
            row_cells.append((col - 1, value, kind, fmt(style)))
    if row_cells:
        put_row(current - 1, row_cells)


def write_cell(sheet: Any, r: int, c: int, value: Any, kind: str, f: Any) -> None:
    """One cell (from 0) as :func:`cell_value` made it: its value of its kind, or, empty, its format alone
    (XlsxWriter's own writers, without the wrapper that reads "A1" references: every cell comes here)."""
    if value is None:
        if f is not None:
            sheet._write_blank(r, c, None, f)  # noqa: SLF001
    elif kind == "s":
        sheet._write_string(r, c, value, f)  # noqa: SLF001
    elif kind == "b":
        sheet._write_boolean(r, c, value, f)  # noqa: SLF001
    else:
        sheet._write_number(r, c, float(value) if isinstance(value, Decimal) else value, f)  # noqa: SLF001


def internal_link(location: str, value: Any) -> tuple[str, str | None, None]:
    """A cell's link to ``location`` of the workbook as fast_save.py writes an openpyxl cell's internal link: its
    address, the text the cell shows (None: the place itself) and no tip."""
    return "internal:" + location, None if value is None else str(value), None


def write_link(sheet: Any, r: int, c: int, location: str, value: Any, f: Any) -> None:
    """A cell (from 0) linking to ``location`` of the workbook (:func:`internal_link`), by XlsxWriter's own
    writer."""
    from adjudicator.outputs.fast_save import write_url

    url, text, tip = internal_link(location, value)
    write_url(sheet, r, c, url, f, text, tip)


def write_sizes(laid: Laid, tab: Tab, sheet: Any, fmt: Any) -> None:
    """The columns' widths (a table's text columns formatted as text) and the rows' heights, exact."""
    exact: dict[int, float] = {}
    as_text = set(tab.text_columns) if tab.kind == "table" else set()
    for col in sorted(laid.widths):
        width = laid.widths[col]
        if width:
            sheet.set_column(col - 1, col - 1, width, fmt(TEXT) if col in as_text else None)
            exact[col - 1] = float(width)
    sheet.exact = exact
    heights: dict[int, float] = {}
    for row in sorted(laid.heights):
        sheet.set_row(row - 1, laid.heights[row], None)
        heights[row - 1] = float(laid.heights[row])
    sheet.heights = heights


def write_view_and_print(laid: Laid, tab: Tab, sheet: Any) -> None:
    """The frozen header, the filter and the print setup."""
    if laid.freeze:
        sheet.freeze_panes(int(laid.freeze[1:]) - 1, 0)
    if laid.autofilter:
        sheet.autofilter(laid.autofilter)
    if laid.landscape:
        sheet.set_landscape()
    else:
        sheet.set_portrait()
    if laid.a4:
        sheet.set_paper(9)
    sheet.fit_to_pages(1, 0)
    sheet.set_margins(*tab.margins)  # openpyxl's default margins
    sheet.set_header("", {"margin": 0.5})
    sheet.set_footer("", {"margin": 0.5})
    if laid.print_area:
        sheet.print_area(0, 0, laid.print_area[0] - 1, laid.print_area[1] - 1)
    if laid.title_rows:
        sheet.repeat_rows(0, 0)
