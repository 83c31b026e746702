"""A table tab (a header row, then its rows) laid out and written on an XlsxWriter sheet from its rows.

:func:`adjudicator.outputs.streamed.table_cells` then :func:`~adjudicator.outputs.streamed.lay_out` make a
table as a dictionary of cells, each a list, then lists of them in row order: at 160 factions the master's
Ledger (31,680 lines, 253,000 cells) took about 100 MB that way while it was written, the master writer's
peak (``benchmarks/master_memory.py``). This module makes the same cells from the rows themselves, a row at a
time, in three passes: what each column holds (its numbers, its texts), each distinct text of each column
(the widths, as the layout sets them, and the texts it wraps), and each row's wraps and height, found as the
row is written (every :data:`CHUNK_ROWS` rows handed to fast_save.py's sheet, which writes them to its file
and lets them go). Every cell's value, style, width and height is the one
:func:`~adjudicator.outputs.streamed.write_laid` writes of the laid cells (``tests/core/test_table_tab.py``
compares the two ways' sheets byte for byte); only the texts each column holds once and the rows' values
(shared where they repeat) are kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from xlsxwriter.utility import xl_col_to_name

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
    measure,
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
        #: The last row (from 2, under the header) and the last column holding a value, 0 for none.
        self.last_row = self.last_col = 0
        for at, row in enumerate(rows, start=2):
            for col, shown in enumerate(row, start=1):
                if shown is None or shown[0] == "":
                    continue
                self.last_row = at
                if col > self.last_col:
                    self.last_col = col
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
        if self.styles.last_row:  # the rows' last value, found as their styles were (one scan of the rows)
            last_row, last_col = self.styles.last_row, max(last_col, self.styles.last_col)
        self.last_row, self.last_col = last_row, last_col  # of the cells holding a value (all show a text)
        self.fits: dict[tuple[str, int, float], tuple[Style | None, float]] = {}  # by (text, style's id, width)
        self.derived: dict[int, Style] = {}  # one wrapped style per style (streamed._fit)

    def rows_of_cells(self) -> Iterator[list[Cell]]:
        """Each row's cells as table_cells makes them, in its order: the header, then each row's (a reserved
        column's cell made even where it is empty)."""
        styles = self.styles
        reserved, number_style, other_style = styles.reserved, styles.number_style, styles.other_style
        yield [(1, col, None, "n", styles.header_style(col)) if shown is None else
               (1, col, shown[0], shown[1], styles.header_style(col)) for col, shown in enumerate(self.header, 1)]
        for row, values in enumerate(self.rows, start=2):
            cells: list[Cell] = []
            for col, shown in enumerate(values, start=1):
                if shown is None or shown[0] == "":
                    if col in other_style:
                        cells.append((row, col, None, "n", other_style[col]))
                    continue
                value, kind = shown
                style = number_style[col] if is_number(value, kind) else other_style.get(col)
                cells.append((row, col, value, kind, style))
            for col in reserved:
                if col > len(values):
                    cells.append((row, col, None, "n", other_style[col]))
            yield cells

    def _text(self, row: int, col: int, value: Any) -> str | None:
        """The text the layout measures of a cell, or None (empty, or past the last row or column with one)."""
        if value is None or row > self.last_row or col > self.last_col:
            return None
        return (value if type(value) is str else _shown(value)) or None

    def _distinct(self) -> list[tuple[int, str, Style]]:
        """Each (column, text, style) of the measured cells once, in the cells' order (styles by identity: each
        is one of the few the columns give)."""
        seen: set[tuple[int, str, int]] = set()
        distinct = []
        for cells in self.rows_of_cells():
            for row, col, value, _, style in cells:
                text = self._text(row, col, value)
                if text is None:
                    continue
                style = style or PLAIN
                if (col, text, id(style)) not in seen:
                    seen.add((col, text, id(style)))
                    distinct.append((col, text, style))
        return distinct

    def lay_out(self) -> Laid:
        """The widths and print setup lay_out gives these cells (no cells: they are made again; no heights:
        each row's is found as it is written, :meth:`written`)."""
        tab, widths = self.tab, self.widths
        freeze = "A2"
        autofilter = None
        if tab.headers and tab.filtered:
            autofilter = f"A1:{xl_col_to_name(len(tab.headers) - 1)}{max(len(self.rows) + 1, 1)}"
        if not self.last_row:
            return Laid([], dict(widths), {}, None, True, False, False, freeze, autofilter)
        content: dict[int, float] = {}
        words: dict[int, float] = {}
        distinct = self._distinct()
        for col, text, style in distinct:
            widest_line, longest_word, _ = measure(text, style.bold, style.size)
            padding = CELL_PADDING + 0.5 + inset(style.indent)
            content[col] = max(content.get(col, 0.0), widest_line + padding)
            words[col] = max(words.get(col, 0.0), longest_word + padding)
        for col in range(1, self.last_col + 1):
            widths[col] = column_width(widths.get(col), content.get(col, 0.0), words.get(col, 0.0), WIDEST_COLUMN)
        wrapped: dict[Any, None] = {}
        for col, text, style in distinct:
            found = wrapped_text(col, col, text, style.bold, style.size, inset(style.indent), style.wrap, widths)
            if found is not None:
                wrapped[found] = None
        widths.update(sure_texts(widths, list(wrapped)))
        total = sum(widths.get(c) or DEFAULT_WIDTH for c in range(1, self.last_col + 1))
        return Laid([], widths, {}, (self.last_row, self.last_col), total > PORTRAIT_WIDTH, True,
                    self.last_row > 1, freeze, autofilter)

    def written(self) -> Iterator[tuple[float | None, list[Cell]]]:
        """Each row's height when it is taller than one line (else None), and its cells with their styles as
        written: a text wider than its column wrapped (streamed._fit), the cells of a tall row aligned at the top
        (lay_out). Each (text, style, width) fitted once."""
        widths, fits, derived = self.widths, self.fits, self.derived
        top: dict[int, tuple[Style, Style]] = {}  # by the style's identity (kept: its id stays its own)
        for cells in self.rows_of_cells():
            points = 0.0
            fitted: list[tuple[Style | None, float] | None] = []  # a measured cell's fit, else None
            for row, col, value, _, style in cells:
                text = self._text(row, col, value)
                if text is None:
                    fitted.append(None)
                    continue
                measured = style or PLAIN
                width = widths.get(col) or DEFAULT_WIDTH
                key = (text, id(measured), width)
                fit = fits.get(key)
                if fit is None:
                    fit = fits[key] = _fit(text, measured, width - inset(measured.indent), derived)
                points = max(points, fit[1])
                fitted.append(fit)
            tall = points > ONE_LINE
            shown = []
            for (row, col, value, kind, style), fit in zip(cells, fitted, strict=True):
                if fit is not None:
                    style = fit[0] or style
                    if tall and not (style and style.vertical):
                        base = style or PLAIN
                        made = top.get(id(base))
                        if made is None:
                            made = top[id(base)] = (base, base.top())
                        style = made[1]
                shown.append((row, col, value, kind, style))
            yield (round(points, 1) if tall else None), shown


def write_table(tab: Tab, sheet: Any, fmt: Callable[[Style | None], Any]) -> None:
    """Write the table ``tab`` on the XlsxWriter ``sheet`` as streamed.write_laid writes its laid-out cells."""
    table = _Table(tab)
    laid = table.lay_out()
    write_sizes(laid, tab, sheet, fmt)
    heights = sheet.heights  # write_sizes' exact heights (fast_save.py's sheet), each row's added as it is found
    rows_done = getattr(sheet, "rows_done", None)  # fast_save.py's sheet: rows written as they are done
    done_at = CHUNK_ROWS
    for height, cells in table.written():
        if not cells:
            continue
        r = cells[0][0] - 1
        if r >= done_at and rows_done is not None:
            rows_done(r)
            done_at = r + CHUNK_ROWS
        if height is not None:
            sheet.set_row(r, height, None)
            heights[r] = float(height)
            # write_laid sets every height before any cell, when XlsxWriter counts column A in the sheet's
            # dimension: the same here, whichever cells came first
            sheet._check_dimensions(r, 0)  # noqa: SLF001
        for row, col, value, kind, style in cells:
            write_cell(sheet, row - 1, col - 1, value, kind, fmt(style))
    write_view_and_print(laid, tab, sheet)
