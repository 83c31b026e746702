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
(shared where they repeat) are kept. What a column makes of a value (its style, the text measured, its fit in
the column's width) is worked out the first time the value is met in that column and kept by the value's
identity: equal texts and numbers share one value (streamed._memo_value), so a column repeating a few words
down its rows makes each of them once.
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
    rows_put_straight,
    write_cell,
    write_sizes,
    write_view_and_print,
)

#: The rows handed to the sheet at a time, to be written and let go (fast_save.py's rows_done).
CHUNK_ROWS = 4096

#: A cell as the passes see it: (row, column, value, kind, style); the value None for an empty cell that is
#: written for its style alone.
Cell = tuple[int, int, Any, str, "Style | None"]
#: A measured cell's fit: (its points, its style on a row of one line, its style on a taller row).
_Fitted = tuple[float, "Style | None", "Style"]
_Entry = list[Any]


def _measured(value: Any) -> str | None:
    """The text the layout measures of a cell's value (a number as it shows), None for an empty cell."""
    if value is None:
        return None
    return (value if type(value) is str else _shown(value)) or None


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
                if kind == "n":  # a number (cell_value: layout.is_number of what it makes)
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
        self.fits: dict[tuple[str, int, float], _Fitted] = {}  # by (text, style's id, width)
        self.derived: dict[int, Style] = {}  # one wrapped style per style (streamed._fit)
        self.top: dict[int, tuple[Style, Style]] = {}  # one top-aligned style per style (by its identity)
        #: By column, by the identity of a value of the rows: [value, kind, style, measured text, fitted or None].
        self.entries: dict[int, dict[int, _Entry]] = {col: {} for col in range(1, self.styles.columns + 1)}

    def _header_cells(self) -> list[Cell]:
        styles = self.styles
        return [(1, col, None, "n", styles.header_style(col)) if shown is None else
                (1, col, shown[0], shown[1], styles.header_style(col)) for col, shown in enumerate(self.header, 1)]

    def _entry(self, col: int, shown: tuple[Any, str]) -> _Entry:
        """What a column makes of a value (one of the rows' shared ones: _memo_value): its style, as table_cells
        gives it, and the text the layout measures (None for none). Kept by the value's identity, per column."""
        value, kind = shown
        styles = self.styles
        style = styles.number_style[col] if kind == "n" else styles.other_style.get(col)  # "n": a number (cell_value)
        text = _measured(value)
        entry = self.entries[col][id(shown)] = [value, kind, style, text, None]
        return entry

    def _distinct(self) -> list[tuple[int, str, Style]]:
        """Each (column, text, style) of the measured cells once, in the cells' order (styles by identity: each
        is one of the few the columns give)."""
        seen: set[tuple[int, str, int]] = set()
        distinct = []

        def add(col: int, text: str | None, style: Style | None) -> None:
            style = style or PLAIN
            if text is not None and (col, text, id(style)) not in seen:
                seen.add((col, text, id(style)))
                distinct.append((col, text, style))

        for _, col, value, _, style in self._header_cells():
            add(col, _measured(value), style)
        entries = self.entries
        for values in self.rows:
            for col, shown in enumerate(values, start=1):
                if shown is None or shown[0] == "":
                    continue
                entry = entries[col].get(id(shown))
                if entry is None:
                    entry = self._entry(col, shown)
                    add(col, entry[3], entry[2])
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

    def _fitted(self, text: str, style: Style | None, col: int) -> _Fitted:
        """A measured cell's (points, style on a row of one line, style on a taller row): a text wider than its
        column wrapped (streamed._fit), the cells of a tall row aligned at the top (lay_out). Each (text, style,
        width) fitted once."""
        measured = style or PLAIN
        width = self.widths.get(col) or DEFAULT_WIDTH
        key = (text, id(measured), width)
        found = self.fits.get(key)
        if found is None:
            wrapped, points = _fit(text, measured, width - inset(measured.indent), self.derived)
            shown = wrapped or style
            if shown and shown.vertical:
                tall = shown
            else:
                base = shown or PLAIN
                made = self.top.get(id(base))
                if made is None:
                    made = self.top[id(base)] = (base, base.top())  # kept: its id stays its own
                tall = made[1]
            found = self.fits[key] = (points, shown, tall)
        return found

    def written(self) -> Iterator[tuple[float | None, list[Cell]]]:
        """Each row's height when it is taller than one line (else None), and its cells with their styles as
        written, in table_cells' order: the row's values, then its reserved columns' empty cells past them."""
        yield self._row(self._header_cells())
        entries, reserved, other_style = self.entries, self.styles.reserved, self.styles.other_style
        for row, values in enumerate(self.rows, start=2):
            points = 0.0
            cells: list[Any] = []  # a measured cell as (row, col, value, kind, fitted), else as written
            for col, shown in enumerate(values, start=1):
                if shown is None or shown[0] == "":
                    if col in other_style:
                        cells.append((row, col, None, "n", other_style[col]))
                    continue
                entry = entries[col].get(id(shown)) or self._entry(col, shown)
                value, kind, style, text, fitted = entry
                if text is None:
                    cells.append((row, col, value, kind, style))
                    continue
                if fitted is None:
                    fitted = entry[4] = self._fitted(text, style, col)
                if fitted[0] > points:
                    points = fitted[0]
                cells.append((row, col, value, kind, fitted))
            for col in reserved:
                if col > len(values):
                    cells.append((row, col, None, "n", other_style[col]))
            tall = points > ONE_LINE
            pick = 2 if tall else 1
            yield (round(points, 1) if tall else None), [
                (r, c, v, k, s[pick]) if s.__class__ is tuple else (r, c, v, k, s) for r, c, v, k, s in cells]

    def _row(self, cells: list[Cell]) -> tuple[float | None, list[Cell]]:
        """The header row's height and cells, fitted as :meth:`written` fits a row's."""
        fitted = [None if (text := _measured(value)) is None else self._fitted(text, style, col)
                  for _, col, value, _, style in cells]
        points = max((f[0] for f in fitted if f is not None), default=0.0)
        tall = points > ONE_LINE
        shown = [cell if f is None else (*cell[:4], f[2] if tall else f[1])
                 for cell, f in zip(cells, fitted, strict=True)]
        return (round(points, 1) if tall else None), shown


def write_table(tab: Tab, sheet: Any, fmt: Callable[[Style | None], Any]) -> None:
    """Write the table ``tab`` on the XlsxWriter ``sheet`` as streamed.write_laid writes its laid-out cells."""
    table = _Table(tab)
    laid = table.lay_out()
    write_sizes(laid, tab, sheet, fmt)
    heights = sheet.heights  # write_sizes' exact heights (fast_save.py's sheet), each row's added as it is found
    put_row = rows_put_straight(sheet)
    rows_done = getattr(sheet, "rows_done", None)  # fast_save.py's sheet: rows written as they are done
    done_at = CHUNK_ROWS
    for height, cells in table.written():
        if not cells:
            continue
        r = cells[0][0] - 1
        if r >= done_at and rows_done is not None and put_row is None:
            rows_done(r)
            done_at = r + CHUNK_ROWS
        if height is not None:
            sheet.set_row(r, height, None)
            heights[r] = float(height)
            # write_laid sets every height before any cell, when XlsxWriter counts column A in the sheet's
            # dimension: the same here, whichever cells came first
            sheet._check_dimensions(r, 0)  # noqa: SLF001
        if put_row is not None:
            put_row(r, [(col - 1, value, kind, fmt(style)) for _, col, value, kind, style in cells])
            continue
        for row, col, value, kind, style in cells:
            write_cell(sheet, row - 1, col - 1, value, kind, fmt(style))
    write_view_and_print(laid, tab, sheet)
