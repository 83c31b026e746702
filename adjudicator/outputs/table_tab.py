"""A table tab (a header row, then its rows) laid out and written on an XlsxWriter sheet from its rows.

:func:`adjudicator.outputs.streamed.table_cells` then :func:`~adjudicator.outputs.streamed.lay_out` make a
table as a dictionary of cells, each a list, then lists of them in row order: at 160 factions the master's
Ledger (31,680 lines, 253,000 cells) took about 100 MB that way while it was written, the master writer's
peak (``benchmarks/master_memory.py``). This module makes the same cells from the rows themselves, a row at a
time, in three passes: what each column holds (its numbers, its texts), what each column's texts need (the
widths, as the layout sets them), and each row's wraps and height, written as they are found (every
:data:`CHUNK_ROWS` rows handed to fast_save.py's sheet, which writes them to its file and lets them go). Every cell's
value, style, width and height is the one :func:`~adjudicator.outputs.streamed.write_laid` writes of the laid
cells (``tests/core/test_table_tab.py`` compares the two ways' sheets byte for byte); only the texts each
column holds once, the rows' values (shared where they repeat) and the tall rows' heights are kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from adjudicator.i18n import render
from adjudicator.outputs.layout import (
    CELL_PADDING,
    DEFAULT_WIDTH,
    ONE_LINE,
    PORTRAIT_WIDTH,
    WIDEST_COLUMN,
    column_width,
    inset,
    is_number,
    sure_texts,
    wrapped_text,
)
from adjudicator.outputs.streamed import (
    HEADER,
    OPENPYXL_NEW_COLUMN,
    PLAIN,
    WRAP_TOP,
    Laid,
    Style,
    Tab,
    _fit,
    _measure,
    _memo_value,
    _shown,
    cell_value,
    write_cell,
    write_sizes,
    write_view_and_print,
)

#: The rows handed to the sheet at a time, to be written and let go (fast_save.py's rows_done).
CHUNK_ROWS = 4096

#: A cell as the passes see it: (row, column, value, kind, style); the value None for an empty cell that is
#: written for its style alone.
Cell = tuple[int, int, Any, str, "Style | None"]


class _Columns:
    """The styles each column gives its cells (table_cells: numbers aligned, a wide column wrapped, a text
    column formatted as text), from what its rows hold."""

    def __init__(self, tab: Tab, rows: Sequence[Sequence[Any]], header: Sequence[Any]) -> None:
        self.wide = {col for col, width in enumerate(tab.widths, start=1) if width >= 40} if tab.wrap_long else set()
        self.texts = set(tab.text_columns)
        self.reserved = sorted(self.wide | self.texts)
        self.columns = max((len(row) for row in rows), default=0)  # the columns the rows reach
        only_numbers: dict[int, bool] = {}
        with_text: set[int] = set()
        with_numbers: set[int] = set()
        for row in rows:
            for col, shown in enumerate(row, start=1):
                if shown is None or shown[0] == "":
                    continue
                value, kind = shown
                if is_number(value, kind):
                    with_numbers.add(col)
                    only_numbers.setdefault(col, True)
                else:
                    only_numbers[col] = False
                    if isinstance(value, str) and value.strip():
                        with_text.add(col)
        mixed = with_text & with_numbers  # their numbers stand left, as their texts do
        self.numbers_header = {col for col, only in only_numbers.items() if only and col <= len(header)
                               and header[col - 1] is not None and col <= self.columns}
        self.number_style = {col: self._styled(col, PLAIN.spanned() if col in mixed else PLAIN.number())
                             for col in with_numbers}
        self.other_style = {col: self._styled(col, None) for col in self.reserved}

    def _styled(self, col: int, style: Style | None) -> Style | None:
        if col in self.wide:
            style = WRAP_TOP
        if col in self.texts:
            style = (style or PLAIN).as_text()
        return style

    def header_style(self, col: int) -> Style:
        return HEADER.number() if col in self.numbers_header else HEADER


class _Table:
    """A table tab's cells, made again from its rows by each pass (row order, as table_cells holds them)."""

    def __init__(self, tab: Tab) -> None:
        lang = tab.lang
        self.tab = tab
        header: list[Any] = []
        for given in tab.headers:
            shown = cell_value(given, lang)
            header.append(None if shown is None or shown[0] == "" else shown)
        self.header = header
        memo: dict[Any, tuple[Any, str] | None] = {}
        self.rows = [tuple(_memo_value(value, lang, memo) for value in values) for values in tab.rows]
        self.styles = _Columns(tab, self.rows, header)
        self.widths: dict[int, float] = {}
        for col, given in enumerate(tab.headers, start=1):
            width = tab.widths[col - 1] if col - 1 < len(tab.widths) else \
                max(12, min(40, len(str(render(given, lang))) + 4))
            self.widths[col] = max(OPENPYXL_NEW_COLUMN, width)
        last_row = last_col = 0
        if any(shown is not None for shown in header):
            last_row, last_col = 1, max(col for col, shown in enumerate(header, start=1) if shown is not None)
        for row, values in enumerate(self.rows, start=2):
            filled = [col for col, shown in enumerate(values, start=1) if shown is not None and shown[0] != ""]
            if filled:
                last_row, last_col = row, max(last_col, filled[-1])
        self.last_row, self.last_col = last_row, last_col  # of the cells holding a value (all show a text)
        self.fits: dict[tuple[str, Style, float], tuple[Style | None, float]] = {}  # by (text, style, width)
        self.derived: dict[int, Style] = {}  # one wrapped style per style (streamed._fit)

    def cells(self) -> Iterator[Cell]:
        """Every cell table_cells makes, in its order: the header, then each row's (a reserved column's cell
        made even where it is empty)."""
        styles = self.styles
        reserved, number_style, other_style = styles.reserved, styles.number_style, styles.other_style
        for col, shown in enumerate(self.header, start=1):
            style = styles.header_style(col)
            if shown is None:
                yield 1, col, None, "n", style
            else:
                yield 1, col, shown[0], shown[1], style
        for row, values in enumerate(self.rows, start=2):
            for col, shown in enumerate(values, start=1):
                if shown is None or shown[0] == "":
                    if col in other_style:
                        yield row, col, None, "n", other_style[col]
                    continue
                value, kind = shown
                if is_number(value, kind):
                    yield row, col, value, kind, number_style[col]
                else:
                    yield row, col, value, kind, other_style.get(col)
            for col in reserved:
                if col > len(values):
                    yield row, col, None, "n", other_style[col]

    def shown(self) -> Iterator[tuple[int, int, str, Style]]:
        """The cells whose text the layout measures: (row, column, text, style)."""
        last_row, last_col = self.last_row, self.last_col
        for row, col, value, _, style in self.cells():
            if value is None or row > last_row or col > last_col:
                continue
            text = value if type(value) is str else _shown(value)
            if text:
                yield row, col, text, style or PLAIN

    def _distinct(self) -> Iterator[tuple[int, str, Style]]:
        """Each (column, text, style) of the measured cells once, in the cells' order."""
        seen: set[tuple[int, str, Style]] = set()
        for _, col, text, style in self.shown():
            if (col, text, style) not in seen:
                seen.add((col, text, style))
                yield col, text, style

    def lay_out(self) -> Laid:
        """The widths, heights and print setup lay_out gives these cells (no cells: they are made again)."""
        tab, widths = self.tab, self.widths
        freeze = "A2"
        autofilter = None
        if tab.headers and tab.filtered:
            from openpyxl.utils import get_column_letter

            autofilter = f"A1:{get_column_letter(len(tab.headers))}{max(len(self.rows) + 1, 1)}"
        if not self.last_row:
            return Laid([], dict(widths), {}, None, True, False, False, freeze, autofilter)
        content: dict[int, float] = {}
        words: dict[int, float] = {}
        for col, text, style in self._distinct():
            widest_line, longest_word, _ = _measure(text, style.bold, style.size)
            padding = CELL_PADDING + 0.5 + inset(style.indent)
            content[col] = max(content.get(col, 0.0), widest_line + padding)
            words[col] = max(words.get(col, 0.0), longest_word + padding)
        for col in range(1, self.last_col + 1):
            widths[col] = column_width(widths.get(col), content.get(col, 0.0), words.get(col, 0.0), WIDEST_COLUMN)
        wrapped: dict[Any, None] = {}
        for col, text, style in self._distinct():
            found = wrapped_text(col, col, text, style.bold, style.size, inset(style.indent), style.wrap, widths)
            if found is not None:
                wrapped[found] = None
        widths.update(sure_texts(widths, list(wrapped)))
        heights: dict[int, float] = {}
        for row, points in self._points():
            if points > ONE_LINE:
                heights[row] = round(points, 1)
        total = sum(widths.get(c) or DEFAULT_WIDTH for c in range(1, self.last_col + 1))
        return Laid([], widths, heights, (self.last_row, self.last_col), total > PORTRAIT_WIDTH, True,
                    self.last_row > 1, freeze, autofilter)

    def _points(self) -> Iterator[tuple[int, float]]:
        """Each row's height in points, as its tallest cell needs it (layout.py's lay_out_sheet)."""
        current, points = 0, 0.0
        for row, _, fit in self._fits():
            if row != current:
                if current:
                    yield current, points
                current, points = row, 0.0
            points = max(points, fit[1])
        if current:
            yield current, points

    def _fits(self) -> Iterator[tuple[int, int, tuple[Style | None, float]]]:
        """(row, column, the wrapped style its text needs in its column or None, the points of its lines) of
        each measured cell; each (text, style, width) looked at once."""
        widths, fits, derived = self.widths, self.fits, self.derived
        for row, col, text, style in self.shown():
            width = widths.get(col) or DEFAULT_WIDTH
            key = (text, style, width)
            fit = fits.get(key)
            if fit is None:
                fit = fits[key] = _fit(text, style, width - inset(style.indent), derived)
            yield row, col, fit

    def written(self, heights: dict[int, float]) -> Iterator[Cell]:
        """The cells with their styles as written: a text wider than its column wrapped, the cells of a tall row
        aligned at the top."""
        fits, widths = self.fits, self.widths
        last_row, last_col = self.last_row, self.last_col
        top: dict[Style, Style] = {}
        for row, col, value, kind, style in self.cells():
            if value is not None and row <= last_row and col <= last_col:
                text = value if type(value) is str else _shown(value)
                if text:
                    measured = style or PLAIN
                    wrapped = fits[(text, measured, widths.get(col) or DEFAULT_WIDTH)][0]
                    if wrapped is not None:
                        style = wrapped
                    if row in heights and not (style and style.vertical):
                        style = style or PLAIN
                        made = top.get(style)
                        if made is None:
                            made = top[style] = style.top()
                        style = made
            yield row, col, value, kind, style


def write_table(tab: Tab, sheet: Any, fmt: Callable[[Style | None], Any]) -> None:
    """Write the table ``tab`` on the XlsxWriter ``sheet`` as streamed.write_laid writes its laid-out cells."""
    table = _Table(tab)
    laid = table.lay_out()
    write_sizes(laid, tab, sheet, fmt)
    rows_done = getattr(sheet, "rows_done", None)  # fast_save.py's sheet: rows written as they are done
    done_at = CHUNK_ROWS
    for row, col, value, kind, style in table.written(laid.heights):
        if row - 1 >= done_at and rows_done is not None:
            rows_done(row - 1)
            done_at = row - 1 + CHUNK_ROWS
        write_cell(sheet, row - 1, col - 1, value, kind, fmt(style))
    write_view_and_print(laid, tab, sheet)
