"""Saving a workbook with XlsxWriter: the same workbook openpyxl would save, in about half its time.

The project builds its workbooks as openpyxl objects (every tab, its styles, dropdowns, pictures and charts);
openpyxl's own save is the dearest step of a turn. :func:`save_fast` writes the same workbook with
XlsxWriter instead: every cell in row order with its style (one XlsxWriter format per distinct openpyxl
style), widths (the exact widths openpyxl would store), heights, merged cells, validations with their alerts,
sheet protection, frozen panes, filters, print setup, page breaks, hidden sheets, defined names, comments,
hyperlinks, pictures and the History charts. Document properties are fixed and every zip member carries one
fixed date, so the same workbook gives the same bytes.

Each sheet's XML goes to a temporary file as XlsxWriter assembles it, not to memory: held in memory, the XML of
every sheet lives at once until the zip is written (as a text four bytes a character, then encoded), which at
160 factions was 77 MB of the master writer's peak (``benchmarks/README.md``). XlsxWriter dates the members
it writes from files 31 January 1980 in every time zone, and gives them the temporary file's mode (``0600``).
A faction's new tabs, a small package taken apart at once to be composed with the player's file (compose.py),
are written in memory instead, their rows too (``save_fast``'s ``in_memory``): the same parts, without a
temporary file made, written, dated, read back and removed for each (``tests/core/test_new_tabs_in_memory.py``).
Nor does XlsxWriter's table of every cell of every sheet live until the save: each sheet's rows are written
to a temporary file as soon as its cells are made, and its cells let go (but a chart's data and a link's
cells, which the save reads again); a streamed table's rows a few thousand at a time as they are made
(``table_tab.py``). Its formats are numbered then, in the order the save would number them, so the bytes are
those of a save that kept every cell (``tests/core/test_table_tab.py``). A streamed tab's rows do not go
through XlsxWriter's table at all: each is handed to the sheet whole (``put_row``) and written in the bytes
XlsxWriter writes of the same cells, 16 rows at a time (``tests/core/test_rows_put_straight.py``; a large
table tab laid out and written a quarter to a third faster); for results composed of a player's file
(compose.py) its cells are written as composing makes them (texts inline, formats moved past the player's).

A workbook holding something this module does not translate (conditional formats, tables, a protection
password, gradient fills, …) raises :class:`Untranslatable`; :func:`save_workbook` then saves it with
openpyxl as before, so nothing is ever lost (``tests/core/test_writer_same_outputs.py`` compares both).
"""

from __future__ import annotations

import datetime as dt
import io
import itertools
import math
import re
import shutil
import tempfile
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # openpyxl is imported where an openpyxl sheet is translated (a checked copy needs none)
    from openpyxl import Workbook
    from openpyxl.worksheet.worksheet import Worksheet

#: The *created* date of every workbook (the same instant :mod:`adjudicator.outputs.reproducible` writes).
FIXED_CREATED = dt.datetime(2000, 1, 1)
#: The date XlsxWriter gives every member of a zip it writes here, in every time zone (a workbook saved by
#: openpyxl has :data:`adjudicator.outputs.reproducible.FIXED_DATE` instead).
ZIP_DATE = (1980, 1, 31, 0, 0, 0)
#: The links one sheet may hold (Excel's limit: XlsxWriter refuses the next, with a warning); past them the
#: workbook is saved by openpyxl.
LINKS_A_SHEET_HOLDS = 65_530
_INFINITE = (math.inf, -math.inf)
#: The kind of a cell handed to a sheet's ``put_row`` that XlsxWriter's own writer writes in its table (a link):
#: its value is what writes it, and the row takes it from that table.
HELD = "held"
#: The kind of a cell handed to ``put_row`` that links to a place (its value: the ``internal:`` address, the text
#: shown or None, the tip or None): its link kept as XlsxWriter's ``write_url`` keeps it, its text written with
#: the row's other texts, in the very bytes that writer's cell gives (a results workbook's Changes tab: thousands).
LINK = "link"
#: Column names by number (from 0), as they are met: "A", "B", …
_COLUMN_NAMES: dict[int, str] = {}


class Untranslatable(Exception):
    """The workbook holds something :func:`save_fast` does not write: save it with openpyxl."""


def write_url(sheet: Any, r: int, c: int, url: str, style: Any, text: str | None, tip: str | None) -> None:
    """A link (``url``: a web address, or ``internal:`` and a place of the workbook) in the cell ``r``, ``c``
    (from 0) of the XlsxWriter ``sheet``, or :class:`Untranslatable` (the workbook is then saved by openpyxl)
    where XlsxWriter would refuse it: past :data:`LINKS_A_SHEET_HOLDS` (with a warning to the terminal) or
    for its own reasons."""
    if sheet.hlink_count >= LINKS_A_SHEET_HOLDS:
        raise Untranslatable("more links than a sheet holds")
    if sheet.write_url(r, c, url, style, text, tip) < 0:
        raise Untranslatable("hyperlink refused")


@dataclass(frozen=True)
class Saved:
    """How :func:`atomic_save_fast` saved a workbook: true when XlsxWriter wrote it (or it was composed);
    ``slow_way``: why a workbook meant to be composed of the player's parts (compose.py) was made the openpyxl
    way instead."""

    by_xlsxwriter: bool
    slow_way: str | None = None

    def __bool__(self) -> bool:
        return self.by_xlsxwriter


def atomic_save_fast(wb: Workbook, path: Path) -> Saved:
    """Lay ``wb`` out (widths, heights, print setup: layout.py) and write it atomically at ``path`` with
    :func:`save_workbook`: the same workbook :func:`adjudicator.outputs.writing.atomic_save` gives. A workbook
    holding only new tabs and how to compose them with the player's file (compose.py) is composed, or made
    today's way should that fail (the answer then says why)."""
    from adjudicator.outputs import compose, layout
    from adjudicator.outputs.writing import _atomic

    composed = getattr(wb, compose.COMPOSED, None)
    slow_way = None
    if composed is not None:  # a checked copy or results made of the player's parts and the new tabs
        try:
            data = composed.bytes(wb)
        except Exception as error:  # noqa: BLE001 - CannotCompose, or anything unforeseen: today's way
            slow_way = str(error) or type(error).__name__
            wb = composed.today()
        else:
            _atomic(path, lambda temporary: Path(temporary).write_bytes(data))
            return Saved(True)
    layout.lay_out(wb)
    written: list[bool] = []
    _atomic(path, lambda temporary: written.append(save_workbook(wb, temporary)))
    return Saved(written[0], slow_way)


def save_workbook(wb: Workbook, target: str | Path) -> bool:
    """Save ``wb`` at ``target`` with XlsxWriter, or with openpyxl (then made reproducible) when it holds
    something XlsxWriter is not told here how to write. True when XlsxWriter wrote it."""
    try:
        save_fast(wb, target)
        return True
    except Untranslatable:
        from adjudicator.outputs import layout, streamed
        from adjudicator.outputs.reproducible import make_reproducible

        placeholders = [ws for ws in wb.worksheets if streamed.tab_of(ws) is not None]
        streamed.materialize(wb)  # openpyxl saves it: the streamed tabs as openpyxl cells, laid out
        for ws in placeholders:
            if ws.sheet_state == "visible":
                layout.lay_out_sheet(ws)
        wb.save(target)
        make_reproducible(target)
        return False


def save_fast(wb: Workbook, target: str | Path | io.BytesIO,
              composed_cells: tuple[int, list[str]] | None = None, deflated: bool = True,
              in_memory: bool = False) -> None:
    """Write ``wb`` at ``target`` (a path or a buffer) with XlsxWriter (raises :class:`Untranslatable` before
    writing anything it cannot translate whole). With ``composed_cells`` (an offset, a list), the new tabs of a
    workbook compose.py merges into a player's: the streamed tabs' cells are written as composing makes them
    (texts inline, formats moved by the offset: the number of the player's cell formats), their titles added
    to the list. ``deflated=False``: the package's parts stored, for a workbook taken apart at once to be
    composed (literal_texts.py). ``in_memory``: the parts' XML held in memory, not in temporary files, for a
    small workbook read back at once (a faction's new tabs, composed): a temporary file made, dated, read and
    removed for each of its two dozen parts, and its rows written to a file and read back, cost a median of 17 ms
    of CPU a faction's star_sectors results and 33 ms Inner Sphere's (40 x 300); the zip's members are then dated
    1 January 1980 and carry no file mode, which composing does not keep (it dates and numbers its own)."""
    from adjudicator.outputs.literal_texts import LiteralTextsWorkbook

    _refuse_what_is_not_translated(wb)
    out = LiteralTextsWorkbook(target if isinstance(target, io.BytesIO) else str(target), {
        "in_memory": in_memory,  # else each sheet's XML in a temporary file (the module's docstring)
        "strings_to_numbers": False, "strings_to_formulas": False, "strings_to_urls": False,
        "nan_inf_to_errors": True}, deflated=deflated)
    writer = _Writer(wb, out, composed_cells)
    try:
        writer.write()
    except Untranslatable:
        out.fileclosed = True  # nothing written: the caller saves with openpyxl
        raise
    else:
        out.close()
    finally:
        writer.close()
        let_go(out)


def let_go(out: Any) -> None:
    """Break the one cycle of an XlsxWriter workbook (each worksheet holds its workbook's ``add_format``), so
    that the workbook and its cells are freed as soon as it is dropped, not left for the cycle collector to
    find among everything alive: the cells of a large tab are hundreds of thousands of objects."""
    for sheet in out.worksheets_objs:
        sheet.workbook_add_format = None


# --------------------------------------------------------------------------------------------- checks
def _refuse_what_is_not_translated(wb: Workbook) -> None:
    from openpyxl.worksheet.worksheet import Worksheet

    for ws in wb.worksheets:
        if not isinstance(ws, Worksheet):
            raise Untranslatable("chartsheet")
        if ws.conditional_formatting and len(ws.conditional_formatting):
            raise Untranslatable("conditional formatting")
        if ws.tables:
            raise Untranslatable("tables")
        if ws.protection.password:
            raise Untranslatable("protection password")
        if ws.col_breaks.brk:
            raise Untranslatable("column breaks")
        for part in (ws.oddHeader, ws.oddFooter, ws.evenHeader, ws.evenFooter, ws.firstHeader, ws.firstFooter):
            if part.left.text or part.center.text or part.right.text:
                raise Untranslatable("header or footer")
        if ws.print_title_cols:
            raise Untranslatable("print title columns")
        if getattr(ws, "_pivots", None):
            raise Untranslatable("pivot tables")
    if wb.vba_archive is not None:
        raise Untranslatable("macros")


# --------------------------------------------------------------------------------------------- styles
_BORDERS = {None: 0, "thin": 1, "medium": 2, "dashed": 3, "dotted": 4, "thick": 5, "double": 6, "hair": 7,
            "mediumDashed": 8, "dashDot": 9, "mediumDashDot": 10, "dashDotDot": 11, "mediumDashDotDot": 12,
            "slantDashDot": 13}
_PATTERNS = {None: 0, "none": 0, "solid": 1, "mediumGray": 2, "darkGray": 3, "lightGray": 4,
             "darkHorizontal": 5, "darkVertical": 6, "darkDown": 7, "darkUp": 8, "darkGrid": 9,
             "darkTrellis": 10, "lightHorizontal": 11, "lightVertical": 12, "lightDown": 13, "lightUp": 14,
             "lightGrid": 15, "lightTrellis": 16, "gray125": 17, "gray0625": 18}
_VERTICAL = {"top": "top", "center": "vcenter", "bottom": "bottom", "justify": "vjustify",
             "distributed": "vdistributed"}
_HORIZONTAL = {"general": None, "left": "left", "center": "center", "right": "right", "fill": "fill",
               "justify": "justify", "centerContinuous": "center_across", "distributed": "distributed"}


#: The colours of the Office theme both openpyxl and XlsxWriter write (lt1, dk1, lt2, dk2, six accents, links).
THEME_COLOURS = ("FFFFFF", "000000", "EEECE1", "1F497D", "4F81BD", "C0504D", "9BBB59", "8064A2", "4BACC6",
                 "F79646", "0000FF", "800080")


def _color(color: Any, default_theme: int | None = None) -> str | None:
    """``#RRGGBB`` of an openpyxl colour; None for the default (automatic) colour."""
    if color is None:
        return None
    kind = getattr(color, "type", None)
    if kind == "rgb" and isinstance(color.rgb, str):
        return "#" + color.rgb[-6:]
    if kind == "theme" and color.theme == default_theme and not color.tint:
        return None
    if kind == "theme" and not color.tint and 0 <= color.theme < len(THEME_COLOURS):
        return "#" + THEME_COLOURS[color.theme]
    if kind == "indexed" and color.indexed in (64, 65):  # system foreground/background: automatic
        return None
    if kind == "indexed":
        from openpyxl.styles.colors import COLOR_INDEX

        if 0 <= color.indexed < len(COLOR_INDEX):
            return "#" + COLOR_INDEX[color.indexed][-6:]
    if kind == "auto":
        return None
    raise Untranslatable(f"colour {color!r}")


def _format_properties(style: Any) -> dict[str, Any]:
    """XlsxWriter format properties of an openpyxl styled object (a cell or a column)."""
    props: dict[str, Any] = {}
    font = style.font
    if font is not None:
        if font.name and font.name != "Calibri":
            props["font_name"] = font.name
        if font.sz and float(font.sz) != 11.0:
            props["font_size"] = float(font.sz)
        if font.b:
            props["bold"] = True
        if font.i:
            props["italic"] = True
        if font.u:
            props["underline"] = {"single": 1, "double": 2, "singleAccounting": 33,
                                  "doubleAccounting": 34}.get(font.u, 1)
        if font.strike:
            props["font_strikeout"] = True
        if font.vertAlign:
            props["font_script"] = {"superscript": 1, "subscript": 2}.get(font.vertAlign, 0)
        colour = _color(font.color, default_theme=1)
        if colour:
            props["font_color"] = colour
    fill = style.fill
    if fill is not None and getattr(fill, "fill_type", None) not in (None, "none"):
        if getattr(fill, "tagname", "") != "patternFill":
            raise Untranslatable("gradient fill")
        props["pattern"] = _PATTERNS[fill.fill_type]
        fg, bg = _color(fill.fgColor), _color(fill.bgColor)
        if props["pattern"] == 1:
            if fg:
                props["bg_color"] = fg  # XlsxWriter writes a solid fill's colour as its foreground
        else:
            if fg:
                props["fg_color"] = fg
            if bg:
                props["bg_color"] = bg
    border = style.border
    if border is not None:
        if border.diagonal is not None and border.diagonal.style:
            raise Untranslatable("diagonal border")
        for side in ("left", "right", "top", "bottom"):
            edge = getattr(border, side)
            if edge is not None and edge.style:
                props[side] = _BORDERS[edge.style]
                colour = _color(edge.color)
                if colour:
                    props[f"{side}_color"] = colour
    alignment = style.alignment
    if alignment is not None:
        if alignment.horizontal and _HORIZONTAL.get(alignment.horizontal):
            props["align"] = _HORIZONTAL[alignment.horizontal]
        if alignment.vertical:
            props["valign"] = _VERTICAL[alignment.vertical]
        if alignment.wrap_text:
            props["text_wrap"] = True
        if alignment.shrink_to_fit:
            props["shrink"] = True
        if alignment.indent:
            props["indent"] = int(alignment.indent)
        if alignment.text_rotation:
            props["rotation"] = int(alignment.text_rotation) if alignment.text_rotation <= 90 else \
                (270 if alignment.text_rotation == 255 else 90 - int(alignment.text_rotation))
    protection = style.protection
    if protection is not None:
        if protection.locked is False:
            props["locked"] = False
        if protection.hidden:
            props["hidden"] = True
    number_format = style.number_format
    if number_format and number_format != "General":
        props["num_format"] = number_format
    if getattr(style, "quotePrefix", False):
        props["quote_prefix"] = True
    return props


# --------------------------------------------------------------------------------------------- writing
class _MergedRange(tuple):  # type: ignore[type-arg]
    """A merged range's (first row, first column, last row, last column), from 0, kept for each of its cells as
    XlsxWriter keeps its text ("B3:D3"), made only when an overlap's message shows it."""

    __slots__ = ()

    def __str__(self) -> str:
        from xlsxwriter.utility import xl_range

        return xl_range(*self)


def _exact_width_sheet_class() -> type:
    """An XlsxWriter worksheet that stores the very column widths and row heights openpyxl would (XlsxWriter
    rounds both to whole pixels): the sizes the layout computed, so LibreOffice and Excel draw them as before."""
    from functools import partial

    from xlsxwriter.url import Url
    from xlsxwriter.utility import _utf16_len, _utf16_truncate, xl_col_to_name, xl_rowcol_to_cell_fast
    from xlsxwriter.worksheet import CellNumberTuple, CellStringTuple
    from xlsxwriter.worksheet import Worksheet as XWorksheet

    from adjudicator.outputs.errors_tab import shared_string

    class ExactWidths(XWorksheet):  # type: ignore[misc]
        exact: dict[int, float]
        heights: dict[int, float]
        early: Any = None  # the sheet's rows, written as soon as its cells were (see write_cells_now)
        rows_written = 0  # the rows before this one (from 0) are in ``early``
        columns_numbered = False
        pending: list[tuple[int, list[tuple[int, str, Any, Any]]]] | tuple[()] = ()  # put_row's, to write
        pending_block = 0
        #: The offset of a composed workbook's cell formats and its texts as cells hold them, when the cells are
        #: written as compose.py's inline_strings makes them (save_fast's ``composed_cells``); else None.
        composed: tuple[int, dict[str, str]] | None = None
        strings_by_index: dict[int, bytes] | None = None

        def start_early(self, early: Any) -> None:
            """Write the sheet's rows to ``early`` (a text file) as they are done (:meth:`rows_done`), then the
            rest when its cells are all made (:meth:`write_cells_now`), and let go of their cells: XlsxWriter
            keeps every cell of every sheet until the save, which was most of the master's writer memory (the
            module's docstring). Only for a sheet whose cells the save does not read again: no chart's data, and
            links only where each link's cell holds a text (the save asks whether it does: a streamed tab's)."""
            self.early = early
            self.pending = []

        def rows_done(self, upto: int) -> None:
            """The rows before ``upto`` (from 0) hold all their cells: write them, in whole blocks of 16 rows
            (each block's rows carry the block's span), when the sheet is written early."""
            end = upto - upto % 16
            if self.early is None or self.dim_rowmin is None or end <= self.rows_written:
                return
            self._write_rows_to_early(end)

        def write_cells_now(self, early: Any | None) -> None:
            """Give the sheet's cell formats their numbers now, as the save would (its columns' formats, then
            its rows' and cells'), so that numbering the sheets in their order one at a time gives each format
            the number it gets when all are written at the end; and, given ``early`` (a text file), write the
            sheet's remaining rows there and let go of their cells (:meth:`start_early`)."""
            if early is not None:
                self.early = early
            if self.early is None:
                self._number_columns()
                written, self.fh = self.fh, io.StringIO()
                try:
                    self._write_sheet_data()  # only to number its formats: the save writes the rows again
                finally:
                    self.fh = written
            elif self.dim_rowmin is not None:
                self._write_rows_to_early(self.dim_rowmax + 1)

        def _number_columns(self) -> None:
            if not self.columns_numbered:
                written, self.fh = self.fh, io.StringIO()
                try:
                    self._write_cols()  # as _assemble_xml_file does before the rows; the text is not kept
                finally:
                    self.fh = written
                self.columns_numbered = True

        def put_row(self, row: int, cells: list[tuple[int, Any, str, Any]]) -> None:
            """The cells of the row ``row`` (from 0), all at once: each (column from 0, value, kind as
            streamed.cell_value makes it — "s", "n", "b" —, XlsxWriter format or None), columns ascending, a
            value None being a blank cell written for its format alone; of kind :data:`HELD`, the value is what
            writes the cell with XlsxWriter's own writer (a link: its ``write_url``), called in its turn.

            Written to ``early`` (the sheet must be written early: :meth:`start_early`) in the very bytes
            XlsxWriter's save writes of the same cells, without holding each cell in XlsxWriter's table as an
            object of its own: each 16 rows (the block whose columns a row's ``spans`` gives) as soon as the
            next block's first row comes, the rest by :meth:`write_cells_now`. Rows come in ascending order,
            none twice, and no cell of them is written another way; a row's height is set (``set_row``) before
            its cells come."""
            if row >= self.xls_rowmax:
                return  # past the sheet's last row: XlsxWriter drops the cell (_check_dimensions)
            block = row >> 4
            if self.pending and block != self.pending_block:
                self._write_pending()
            kept: list[tuple[int, str, Any, Any]] = []  # (column, how it is written, what, format)
            shared = self.str_table._get_shared_string_index  # noqa: SLF001
            texts = None if self.composed is None else self.composed[1]  # composed: each text as written inline
            half_longest = self.xls_strmax // 2
            for col, value, kind, fmt in cells:
                if col >= self.xls_colmax:
                    continue
                if kind is LINK:
                    text = self._linked(row, col, value)
                    if text is None:  # not a plain internal link: XlsxWriter's own writer
                        url, shown, tip = value
                        value, kind = partial(write_url, self, row, col, url, fmt, shown, tip), HELD
                    else:  # its text as write_url writes it: in the link's format, XlsxWriter's if none
                        value, kind, fmt = text, "s", fmt or self.default_url_format
                if kind is HELD:  # written now by XlsxWriter's own writer (a link), then from its table
                    value()
                    kept.append((col, "x", None, None))
                elif value is None:
                    if fmt is not None:
                        kept.append((col, "", None, fmt))
                elif kind == "s":
                    if len(value) > half_longest:  # maybe past Excel's longest text: XlsxWriter cuts it
                        self._write_string(row, col, value, fmt)
                        kept.append((col, "x", None, None))
                    elif texts is None:
                        kept.append((col, "s", shared(value), fmt))  # numbered as XlsxWriter numbers them
                    else:  # the text as composing writes it, no shared string
                        found = texts.get(value)
                        if found is None:
                            found = texts[value] = shared_string(value)
                        kept.append((col, "s", found, fmt))
                elif kind == "b":
                    kept.append((col, "b", 1 if value else 0, fmt))
                else:
                    number = float(value) if isinstance(value, Decimal) else value
                    if number.__class__ is float and (number != number or number in _INFINITE):
                        self._write_number(row, col, number, fmt)  # an error cell, as XlsxWriter makes it
                        kept.append((col, "x", None, None))
                    else:
                        kept.append((col, "n", number, fmt))
            if not kept:
                return
            if any(kept[i][0] >= kept[i + 1][0] for i in range(len(kept) - 1)):
                kept.sort(key=lambda cell: cell[0])  # XlsxWriter writes a row's cells by column
            if self.dim_rowmin is None or row < self.dim_rowmin:  # _check_dimensions of each cell
                self.dim_rowmin = row
            if self.dim_rowmax is None or row > self.dim_rowmax:
                self.dim_rowmax = row
            first, last = kept[0][0], kept[-1][0]
            if self.dim_colmin is None or first < self.dim_colmin:
                self.dim_colmin = first
            if self.dim_colmax is None or last > self.dim_colmax:
                self.dim_colmax = last
            self.pending.append((row, kept))
            self.pending_block = block

        def _linked(self, row: int, col: int, link: tuple[str, str | None, str | None]) -> str | None:
            """The link of a cell of kind :data:`LINK` kept (as ``write_url`` keeps it, counted among the sheet's),
            and the text its cell shows; None, keeping nothing, for a link that is not an internal one within
            Excel's length or one past :data:`LINKS_A_SHEET_HOLDS` (``write_url`` then writes it, refuses it or
            warns)."""
            url, text, tip = link
            if not url.startswith("internal:") or self.hlink_count >= LINKS_A_SHEET_HOLDS or \
                    _utf16_len(url) > self.max_url_length:
                return None
            found = Url(url)
            if text is not None:
                found._text = text  # noqa: SLF001 - as write_url sets it
            if tip is not None:
                found.tip = tip
            self.hlink_count += 1
            self.hyperlinks[row][col] = found
            return found.text

        def merge_blank(self, first_row: int, first_col: int, last_row: int, last_col: int) -> None:
            """XlsxWriter's ``merge_range(first_row, first_col, last_row, last_col, None)`` (from 0) on a sheet
            whose cells :meth:`put_row` wrote, first cell included: the range's corners checked and counted in
            the dimension, its cells claimed (an overlap with an earlier range raises as there), the range kept;
            without its text made for each range (only an overlap's message shows it) nor a call to write each
            cell a blank (without a format, XlsxWriter writes none)."""
            if (first_row, first_col) == (last_row, last_col) or first_row > last_row or first_col > last_col:
                self.merge_range(first_row, first_col, last_row, last_col, None)  # a cell alone, or turned round
                return
            if self._check_dimensions(first_row, first_col) or self._check_dimensions(last_row, last_col):
                return
            merged, tables = self.merged_cells, self.table_cells
            claimed = [(row, col) for row in range(first_row, last_row + 1) for col in range(first_col, last_col + 1)]
            if any(merged.get(cell) or tables.get(cell) for cell in claimed):
                self.merge_range(first_row, first_col, last_row, last_col, None)  # raises XlsxWriter's own error
                return
            named = _MergedRange((first_row, first_col, last_row, last_col))
            for cell in claimed:
                merged[cell] = named
            self.merge.append([first_row, first_col, last_row, last_col])

        def text_written_again(self, text: str) -> None:
            """What XlsxWriter's writing of ``text`` again in a cell already holding it does: the text counted
            once more in the shared strings' ``count`` (a merged range's first cell is written twice)."""
            if self.composed is not None:
                return  # no shared strings: composed cells hold their texts
            if len(text) > self.xls_strmax // 2 and _utf16_len(text) > self.xls_strmax:
                text = _utf16_truncate(text, self.xls_strmax)
            self.str_table._get_shared_string_index(text)  # noqa: SLF001

        def _write_pending(self) -> None:
            """The rows :meth:`put_row` holds (one block of 16) written to ``early`` with the rows before them
            that XlsxWriter holds (a height alone), as XlsxWriter's ``_write_rows`` writes them."""
            rows, self.pending = self.pending, []
            start = self.pending_block << 4
            self._write_rows_to_early(start)  # the rows before the block: a height alone, or none
            columns = _COLUMN_NAMES
            row_info, col_info = self.row_info, self.col_info
            span = f"{min(kept[0][0] for _, kept in rows) + 1}:{max(kept[-1][0] for _, kept in rows) + 1}"
            marks: dict[int, str] = {}  # by format's id: its ' s="…"' (formats live as long as the workbook)
            offset = None if self.composed is None else self.composed[0]
            unformatted = "" if offset is None else f' s="{offset}"'  # composed: every cell's format given
            text_cell = ' t="s"><v>' if offset is None else ' t="inlineStr"><is>'
            text_end = "</v></c>" if offset is None else "</is></c>"
            written, self.fh = self.fh, self.early
            out: list[str] = []
            try:
                held = {row: kept for row, kept in rows}
                for row in range(max(start, self.dim_rowmin), min(start + 16, self.dim_rowmax + 1)):
                    kept = held.get(row)
                    info = row_info.get(row)
                    if kept is None:
                        if info is not None:  # a height alone
                            self.fh.write("".join(out))
                            out.clear()
                            self._write_row(row, span, info, empty_row=True)
                        continue
                    if info is None:
                        out.append(f'<row r="{row + 1}" spans="{span}">')
                    else:
                        self.fh.write("".join(out))
                        out.clear()
                        self._write_row(row, span, info)
                    number = str(row + 1)
                    for col, how, what, fmt in kept:
                        if how == "x":  # a cell XlsxWriter holds: written by its own writer
                            self.fh.write("".join(out))
                            out.clear()
                            if offset is None:
                                self._write_cell(row, col, self.table[row].pop(col))
                            else:
                                self.fh.write(self._composed_cell(row, col, offset))
                            continue
                        if fmt is None:  # the row's format, else the column's (XlsxWriter's order)
                            fmt = info.row_format if info is not None and info.row_format else None
                            if fmt is None and col in col_info:
                                fmt = col_info[col].column_format
                        if fmt is None:
                            mark = unformatted
                        else:
                            mark = marks.get(id(fmt))
                            if mark is None:
                                index = fmt._get_xf_index()  # noqa: SLF001
                                mark = marks[id(fmt)] = f' s="{index if offset is None else offset + index}"'
                        name = columns.get(col) or columns.setdefault(col, xl_col_to_name(col))
                        if how == "s":
                            out.append(f'<c r="{name}{number}"{mark}{text_cell}{what}{text_end}')
                        elif how == "n":
                            out.append(f'<c r="{name}{number}"{mark}><v>{what:.16G}</v></c>')
                        elif how == "b":
                            out.append(f'<c r="{name}{number}"{mark} t="b"><v>{what}</v></c>')
                        else:
                            out.append(f'<c r="{name}{number}"{mark}/>')
                    out.append("</row>")
                self.fh.write("".join(out))
            finally:
                self.fh = written
            for row in held:
                self.table.pop(row, None)
            self.rows_written = start + 16

        def _composed_cell(self, row: int, col: int, offset: int) -> str:
            """The cell XlsxWriter holds as its own writer writes it, then as compose.py's inline_strings makes
            it (its text inline, its format moved by ``offset``)."""
            from adjudicator.outputs.compose import inline_strings

            written, self.fh = self.fh, io.StringIO()
            try:
                self._write_cell(row, col, self.table[row].pop(col))
                xml = self.fh.getvalue().encode()
            finally:
                self.fh = written
            if self.strings_by_index is None:
                self.strings_by_index = {}
            known = self.strings_by_index  # the shared strings by number, as XlsxWriter writes them, as met
            if len(known) < self.str_table.unique_count:  # numbered in the order they came: the new ones last
                for text, index in itertools.islice(self.str_table.string_table.items(), len(known), None):
                    known[index] = shared_string(text).encode()
            return inline_strings(xml, known, offset).decode()  # type: ignore[arg-type]

        def _write_rows_to_early(self, end: int) -> None:
            """Rows ``rows_written`` to ``end`` (excluded) written to ``early`` as the save writes them, their
            cells let go."""
            if self.pending:
                self._write_pending()
            self._number_columns()
            start = self.rows_written
            low, high, written = self.dim_rowmin, self.dim_rowmax, self.fh
            self.dim_rowmin, self.dim_rowmax, self.fh = max(start, low), min(end - 1, high), self.early
            try:
                if self.dim_rowmin <= self.dim_rowmax:
                    self._write_rows()
            finally:
                self.dim_rowmin, self.dim_rowmax, self.fh = low, high, written
            for row in range(start, end):
                self.table.pop(row, None)
            self.rows_written = end

        def _write_sheet_data(self) -> None:
            if self.early is None:
                super()._write_sheet_data()
                return
            if self.dim_rowmin is None:
                self._xml_empty_tag("sheetData")
                return
            self._xml_start_tag("sheetData")
            self.early.seek(0)
            shutil.copyfileobj(self.early, self.fh)
            self._xml_end_tag("sheetData")

        def _write_cell(self, row: int, col: int, cell: Any) -> None:
            """A text or a number with its format (its own, its row's or its column's), written as
            XlsxWriter's own ``_write_cell`` writes it (the same bytes: ``tests/core/test_writer_cells.py``),
            without its list of attributes, their escaping (a reference and a number need none) and its search
            by the cell's class name: the innermost loop of every save. Anything else is XlsxWriter's."""
            kind = cell.__class__
            if kind is CellStringTuple and not self.constant_memory:
                end = f' t="s"><v>{cell.string}</v></c>'
            elif kind is CellNumberTuple:
                end = f"><v>{cell.number:.16G}</v></c>"
            else:
                super()._write_cell(row, col, cell)
                return
            if cell.format:  # its own format, else its row's, else its column's (XlsxWriter's order)
                style = cell.format
            else:
                row_info = self.row_info.get(row)
                if row_info is not None and row_info.row_format:
                    style = row_info.row_format
                else:
                    column = self.col_info.get(col)
                    style = column.column_format if column is not None else None
            if style is None:
                self.fh.write(f'<c r="{xl_rowcol_to_cell_fast(row, col)}"{end}')
            else:
                xf_index = style._get_xf_index()  # noqa: SLF001
                self.fh.write(f'<c r="{xl_rowcol_to_cell_fast(row, col)}" s="{xf_index}"{end}')

        def _write_row(self, row: int, spans: Any, row_info: Any = None, empty_row: bool = False) -> None:
            height = getattr(self, "heights", {}).get(row)
            if height is None:
                super()._write_row(row, spans, row_info, empty_row)
                return
            attributes: list[tuple[str, Any]] = [("r", row + 1)]
            if spans:
                attributes.append(("spans", spans))
            row_format = row_info.row_format if row_info else None
            xf_index = row_format._get_xf_index() if row_format else 0  # noqa: SLF001
            if xf_index:
                attributes.append(("s", xf_index))
            if row_format:
                attributes.append(("customFormat", 1))
            attributes.append(("ht", f"{height:.16g}"))
            if row_info and row_info.hidden:
                attributes.append(("hidden", 1))
            attributes.append(("customHeight", 1))
            if empty_row:
                self._xml_empty_tag_unencoded("row", attributes)
            else:
                self._xml_start_tag_unencoded("row", attributes)

        def _write_col_info(self, col_min: int, col_max: int, col_info: Any) -> None:
            exact = getattr(self, "exact", {})
            if not any(c in exact for c in range(col_min, col_max + 1)):
                super()._write_col_info(col_min, col_max, col_info)
                return
            for col in range(col_min, col_max + 1):  # one <col> each: their widths may differ
                self._write_one_col(col, col_info, exact.get(col))

        def _write_one_col(self, col: int, col_info: Any, width: float | None) -> None:
            if width is None:
                super()._write_col_info(col, col, col_info)
                return
            attributes = [("min", col + 1), ("max", col + 1), ("width", f"{width:.16g}")]
            if col_info.column_format:
                xf_index = col_info.column_format._get_xf_index()  # noqa: SLF001
                if xf_index:
                    attributes.append(("style", xf_index))
            if col_info.hidden:
                attributes.append(("hidden", "1"))
            attributes.append(("customWidth", "1"))
            self._xml_empty_tag("col", attributes)

    return ExactWidths


_SHEET_CLASS: list[type] = []


def _sheet_class() -> type:
    if not _SHEET_CLASS:
        _SHEET_CLASS.append(_exact_width_sheet_class())
    return _SHEET_CLASS[0]


_QUOTED = re.compile(r"^'(.*)'!(.+)$|^([^!]+)!(.+)$")


def _charted_titles(wb: Workbook, out: Any) -> set[str] | None:
    """The titles of the sheets a chart of ``wb`` takes its values, categories or names from, as XlsxWriter
    reads them when it caches a chart's data; ``None`` when one of them cannot be told (every sheet may be)."""
    titles = set()
    for ws in wb.worksheets:
        for chart in ws._charts:  # noqa: SLF001
            for series in chart.series:
                for ref in (series.val.numRef if series.val is not None else None,
                            (series.cat.numRef or series.cat.strRef) if series.cat is not None else None,
                            series.tx.strRef if series.tx is not None else None):
                    if ref is None:
                        continue
                    title = out._get_chart_range(ref.f or "")[0]  # noqa: SLF001 - XlsxWriter's own reading
                    if title is None:
                        return None
                    titles.add(title)
    return titles


def _local_range(ref: str) -> str:
    """``A1:F20`` of a print area such as ``'Report T01'!$A$1:$F$20``."""
    found = _QUOTED.match(ref)
    area = (found.group(2) or found.group(4)) if found else ref
    return area.replace("$", "")


class _Writer:
    def __init__(self, wb: Workbook, out: Any, composed_cells: tuple[int, list[str]] | None = None) -> None:
        self.wb = wb
        self.out = out
        self.composed_cells = composed_cells
        self.composed_texts: dict[str, str] = {}  # each text as a composed cell holds it (put_row)
        self.formats: dict[tuple[int, ...], Any] = {}
        self.streamed_formats: dict[Any, Any] = {}
        self.early: list[Any] = []  # the files (or texts in memory) holding sheets' cells written early

    def early_file(self) -> Any:
        """A temporary file for a sheet's rows written early (closed by :meth:`close`); a text in memory for a
        workbook whose parts are held in memory (``save_fast``'s ``in_memory``)."""
        early = io.StringIO() if self.out.in_memory else \
            tempfile.TemporaryFile("w+", encoding="utf-8", dir=self.out.tmpdir)
        self.early.append(early)
        return early

    def close(self) -> None:
        for early in self.early:
            early.close()

    def ws_of(self, sheet: Any) -> Worksheet:
        return self.wb[sheet.name]

    def fmt(self, styled: Any) -> Any:
        key = tuple(styled._style)  # noqa: SLF001 - the style's indexes: equal styles, one format
        if key in self.formats:
            return self.formats[key]
        props = _format_properties(styled) if any(key) else {}
        made = self.out.add_format(props) if props else None
        self.formats[key] = made
        return made

    def write(self) -> None:
        wb, out = self.wb, self.out
        props = wb.properties
        out.set_properties({"title": props.title or "", "author": props.creator or "",
                            "created": FIXED_CREATED})
        sheets = []
        for ws in wb.worksheets:
            sheet = out.add_worksheet(ws.title, worksheet_class=_sheet_class())
            sheets.append(sheet)
        for name, defined in wb.defined_names.items():
            if name.startswith("_xlnm."):
                continue
            out.define_name(name, "=" + defined.attr_text)
        from adjudicator.outputs import streamed

        charted = _charted_titles(wb, out)
        for ws, sheet in zip(wb.worksheets, sheets, strict=True):
            for name, defined in ws.defined_names.items():
                out.define_name(f"{_quoted(ws.title)}!{name}", "=" + defined.attr_text)
            # its rows written now and its cells let go, but for the cells XlsxWriter reads again when it saves:
            # a chart's data (cached in the chart) and a link's cell (whether it holds a text: an openpyxl
            # sheet's may not). A streamed tab from its first rows, a table's as they are made (table_tab.py):
            # its links' cells are all texts (streamed.write_link), which the save then finds as it would
            keep = charted is None or ws.title in charted
            tab = streamed.tab_of(ws)
            if not keep and tab is not None:
                sheet.start_early(self.early_file())
                if self.composed_cells is not None and streamed.ROWS_STRAIGHT:  # all its cells put straight
                    sheet.composed = (self.composed_cells[0], self.composed_texts)
                    self.composed_cells[1].append(ws.title)
            self.sheet(ws, sheet)
            keep = keep or bool(sheet.hyperlinks)
            sheet.write_cells_now(None if keep or sheet.early is not None else self.early_file())
        active = wb.active
        if active is not None:
            index = wb.worksheets.index(active)
            out.worksheets_objs[index].activate()
            out.worksheets_objs[index].hidden = 0
        for ws, sheet in zip(wb.worksheets, sheets, strict=True):
            sheet.selected = 1 if ws.sheet_view.tabSelected else 0
            if ws.sheet_state == "hidden":
                sheet.hidden = 1
            elif ws.sheet_state == "veryHidden":
                sheet.hidden = 2

    def sheet(self, ws: Worksheet, sheet: Any) -> None:
        from adjudicator.outputs import streamed

        tab = streamed.tab_of(ws)
        if tab is not None:
            if _only_a_placeholder(ws, validations=True):
                streamed.write_tab(tab, sheet, self.streamed_formats, self.out)
                for validation in ws.data_validations.dataValidation:  # a table's dropdowns (gm_input.py)
                    self._validation(sheet, validation)
                return
            raise Untranslatable("a streamed tab given cells of its own")
        from openpyxl.utils import column_index_from_string

        fmt = self.fmt
        # columns: widths and styles as openpyxl stores them
        exact: dict[int, float] = {}
        for key, dim in sorted(ws.column_dimensions.items(), key=lambda item: item[1].min or 0):
            first = dim.min or column_index_from_string(key)
            last = dim.max or first
            style = fmt(dim) if dim.has_style else None
            width = dim.width if dim.customWidth else None
            if width is None and style is None and not dim.hidden:
                continue
            sheet.set_column(first - 1, last - 1, width if width is not None else None, style,
                             {"hidden": True} if dim.hidden else None)
            if width is not None:
                for col in range(first - 1, last):
                    exact[col] = float(width)
        sheet.exact = exact
        heights: dict[int, float] = {}
        for index, dim in ws.row_dimensions.items():
            if dim.height is None and not dim.hidden and not dim.has_style:
                continue
            sheet.set_row(index - 1, dim.height, fmt(dim) if dim.has_style else None,
                          {"hidden": True} if dim.hidden else None)
            if dim.height is not None:
                heights[index - 1] = float(dim.height)
        sheet.heights = heights
        # cells in row order
        hyperlinks = {}
        for link in ws._hyperlinks:  # noqa: SLF001
            hyperlinks[link.ref] = link
        comments = []
        # XlsxWriter's own writers of a cell, without the wrapper that reads "A1" references (every cell of a
        # sheet comes here, always as numbers)
        write_string, write_number = sheet._write_string, sheet._write_number  # noqa: SLF001
        write_blank = sheet._write_blank  # noqa: SLF001
        for (row, col), cell in sorted(ws._cells.items()):  # noqa: SLF001 - the written cells only
            value = cell._value  # noqa: SLF001
            style = fmt(cell) if cell.has_style else None
            r, c = row - 1, col - 1
            if cell.hyperlink is not None:
                self._link(sheet, r, c, cell, style)
            elif value is None:
                if style is not None:
                    write_blank(r, c, None, style)
            else:
                kind = cell.data_type
                if kind in ("s", "inlineStr"):
                    write_string(r, c, str(value), style)
                elif kind == "n":
                    if isinstance(value, bool):
                        sheet.write_boolean(r, c, value, style)
                    else:
                        write_number(r, c, float(value) if isinstance(value, Decimal) else value, style)
                elif kind == "b":
                    sheet.write_boolean(r, c, bool(value), style)
                elif kind == "f":
                    if not isinstance(value, str):
                        raise Untranslatable("array formula")
                    sheet.write_formula(r, c, value, style, "")
                elif kind == "d":
                    sheet.write_datetime(r, c, value, style)
                else:
                    raise Untranslatable(f"cell type {kind}")
            if cell.comment is not None:
                comments.append((r, c, cell.comment))
        self._plain_rows(ws, sheet)
        for r, c, comment in comments:
            sheet.write_comment(r, c, comment.text, {"author": comment.author or "",
                                                     "width": comment.width, "height": comment.height})
        for merged in ws.merged_cells.ranges:
            if merged.min_row == merged.max_row and merged.min_col == merged.max_col:
                continue
            sheet.merge_range(merged.min_row - 1, merged.min_col - 1, merged.max_row - 1, merged.max_col - 1,
                              None)
        self._merged_values(ws, sheet)
        for validation in ws.data_validations.dataValidation:
            self._validation(sheet, validation)
        self._view_and_print(ws, sheet)
        for image in ws._images:  # noqa: SLF001
            self._image(sheet, image)
        for chart in ws._charts:  # noqa: SLF001
            self._chart(ws, sheet, chart)

    def _plain_rows(self, ws: Worksheet, sheet: Any) -> None:
        """The sheet's plain rows (plain_rows.py), after its cells: each value written as the cell ``ws.append``
        would make of it is written above (a text, a formula, a number, nothing for None)."""
        from openpyxl.cell.cell import ERROR_CODES

        from adjudicator.outputs.plain_rows import plain_rows
        from adjudicator.outputs.streamed import write_cell

        plain = plain_rows(ws)
        if plain is None:
            return
        first, rows = plain
        for r, values in enumerate(rows, start=first - 1):
            for c, value in enumerate(values):
                if isinstance(value, str):  # cut to a cell's length already (append_plain)
                    if len(value) > 1 and value.startswith("="):
                        sheet.write_formula(r, c, value, None, "")
                        continue
                    if value in ERROR_CODES:
                        raise Untranslatable("cell type e")
                write_cell(sheet, r, c, value, "s" if isinstance(value, str) else "b" if isinstance(value, bool)
                           else "n", None)  # None: nothing

    def _merged_values(self, ws: Worksheet, sheet: Any) -> None:
        """XlsxWriter's merge_range writes its first cell itself: write it again as openpyxl holds it."""
        for merged in ws.merged_cells.ranges:
            cell = ws._cells.get((merged.min_row, merged.min_col))  # noqa: SLF001
            if cell is None:
                continue
            style = self.fmt(cell) if cell.has_style else None
            r, c = merged.min_row - 1, merged.min_col - 1
            if cell._value is None:  # noqa: SLF001
                sheet.write_blank(r, c, None, style)
            elif cell.data_type == "s":
                sheet.write_string(r, c, cell._value, style)  # noqa: SLF001
            elif cell.data_type == "n":
                sheet.write_number(r, c, cell._value, style)  # noqa: SLF001
            elif cell.data_type == "f":
                sheet.write_formula(r, c, cell._value, style, "")  # noqa: SLF001

    def _link(self, sheet: Any, r: int, c: int, cell: Any, style: Any) -> None:
        link = cell.hyperlink
        text = None if cell._value is None else str(cell._value)  # noqa: SLF001
        if link.location and not link.target:
            url = "internal:" + link.location
        elif link.target:
            url = link.target + (f"#{link.location}" if link.location else "")
        else:
            raise Untranslatable("hyperlink")
        write_url(sheet, r, c, url, style, text, link.tooltip)
        if style is None:
            sheet.write_string(r, c, text or "", None)  # openpyxl gives a link no style of its own

    def _validation(self, sheet: Any, validation: Any) -> None:
        from openpyxl.utils import range_boundaries

        ranges = str(validation.sqref).split()
        first = ranges[0]
        min_col, min_row, max_col, max_row = range_boundaries(first)
        kind = validation.type or "any"
        options: dict[str, Any] = {
            "ignore_blank": bool(validation.allow_blank),
            "dropdown": not validation.showDropDown,
            "show_input": bool(validation.showInputMessage),
            "show_error": bool(validation.showErrorMessage),
        }
        names = {"whole": "integer", "decimal": "decimal", "list": "list", "date": "date", "time": "time",
                 "textLength": "length", "custom": "custom", "any": "any"}
        if kind not in names:
            raise Untranslatable(f"validation {kind}")
        options["validate"] = names[kind]
        if kind == "list":
            options["source"] = "=" + validation.formula1
        elif kind == "custom":
            options["value"] = "=" + validation.formula1
        elif kind != "any":
            operator = validation.operator or "between"
            criteria = {"between": "between", "notBetween": "not between", "equal": "==", "notEqual": "!=",
                        "greaterThan": ">", "lessThan": "<", "greaterThanOrEqual": ">=",
                        "lessThanOrEqual": "<="}[operator]
            options["criteria"] = criteria
            low = _operand(validation.formula1)
            if criteria in ("between", "not between"):
                options["minimum"] = low
                options["maximum"] = _operand(validation.formula2)
            else:
                options["value"] = low
        if validation.errorStyle:
            options["error_type"] = validation.errorStyle
        for source, key, most in (("errorTitle", "error_title", 32), ("error", "error_message", 255),
                                  ("promptTitle", "input_title", 32), ("prompt", "input_message", 255)):
            text = getattr(validation, source)
            if text:
                if len(text) > most:
                    raise Untranslatable(f"validation {source} too long")
                options[key] = text
        if len(ranges) > 1:
            options["multi_range"] = " ".join(ranges)
        if sheet.data_validation(min_row - 1, min_col - 1, max_row - 1, max_col - 1, options) < 0:
            raise Untranslatable("validation refused")

    def _view_and_print(self, ws: Worksheet, sheet: Any) -> None:
        from openpyxl.utils import column_index_from_string, range_boundaries
        from openpyxl.utils.cell import coordinate_from_string

        if ws.freeze_panes:
            column, row = coordinate_from_string(ws.freeze_panes)
            sheet.freeze_panes(row - 1, column_index_from_string(column) - 1)
        view = ws.sheet_view
        if view.showGridLines is False:
            sheet.hide_gridlines(2)
        if view.zoomScale and view.zoomScale != 100:
            sheet.set_zoom(view.zoomScale)
        if view.rightToLeft:
            sheet.right_to_left()
        if ws.auto_filter.ref:
            sheet.autofilter(ws.auto_filter.ref)
        protection = ws.protection
        if protection.sheet:
            sheet.protect("", {
                "objects": not protection.objects, "scenarios": not protection.scenarios,
                "format_cells": not protection.formatCells, "format_columns": not protection.formatColumns,
                "format_rows": not protection.formatRows, "insert_columns": not protection.insertColumns,
                "insert_rows": not protection.insertRows, "insert_hyperlinks": not protection.insertHyperlinks,
                "delete_columns": not protection.deleteColumns, "delete_rows": not protection.deleteRows,
                "select_locked_cells": not protection.selectLockedCells, "sort": not protection.sort,
                "autofilter": not protection.autoFilter, "pivot_tables": not protection.pivotTables,
                "select_unlocked_cells": not protection.selectUnlockedCells,
            })
        setup = ws.page_setup
        if setup.orientation == "landscape":
            sheet.set_landscape()
        elif setup.orientation == "portrait":
            sheet.set_portrait()
        if setup.paperSize:
            sheet.set_paper(int(setup.paperSize))
        if ws.sheet_properties.pageSetUpPr is not None and ws.sheet_properties.pageSetUpPr.fitToPage:
            sheet.fit_to_pages(int(setup.fitToWidth if setup.fitToWidth is not None else 1),
                               int(setup.fitToHeight if setup.fitToHeight is not None else 1))
        if setup.scale and not (ws.sheet_properties.pageSetUpPr and ws.sheet_properties.pageSetUpPr.fitToPage):
            sheet.set_print_scale(int(setup.scale))
        margins = ws.page_margins
        sheet.set_margins(margins.left, margins.right, margins.top, margins.bottom)
        sheet.set_header("", {"margin": margins.header})
        sheet.set_footer("", {"margin": margins.footer})
        if ws.print_options.gridLines:
            sheet.hide_gridlines(0 if view.showGridLines is not False else 1)
        if ws.print_options.horizontalCentered:
            sheet.center_horizontally()
        if ws.print_options.verticalCentered:
            sheet.center_vertically()
        if ws.print_area:
            areas = str(ws.print_area).split(",")
            if len(areas) > 1:
                raise Untranslatable("several print areas")
            min_col, min_row, max_col, max_row = range_boundaries(_local_range(areas[0]))
            sheet.print_area(min_row - 1, min_col - 1, max_row - 1, max_col - 1)
        if ws.print_title_rows:
            first, _, last = str(ws.print_title_rows).replace("$", "").partition(":")
            sheet.repeat_rows(int(first) - 1, int(last or first) - 1)
        if ws.row_breaks.brk:
            sheet.set_h_pagebreaks([int(b.id) for b in ws.row_breaks.brk])
        colour = ws.sheet_properties.tabColor
        if colour is not None:
            shown = _color(colour)
            if shown:
                sheet.set_tab_color(shown)

    def _image(self, sheet: Any, image: Any) -> None:
        from openpyxl.utils import column_index_from_string
        from openpyxl.utils.cell import coordinate_from_string
        from PIL import Image as Picture

        data = image._data()  # noqa: SLF001 - the picture's bytes (openpyxl reads them once, so keep them)
        image.ref = io.BytesIO(data)
        anchor = image.anchor
        wanted = (image.width, image.height)
        if not isinstance(anchor, str):
            marker = getattr(anchor, "_from", None)
            if marker is None:
                raise Untranslatable("image anchor")
            row, col = marker.row, marker.col
            x, y = marker.colOff // 9525, marker.rowOff // 9525
            wanted = _anchored_size(self.ws_of(sheet), anchor) or wanted
        else:
            column, number = coordinate_from_string(anchor)
            row, col, x, y = number - 1, column_index_from_string(column) - 1, 0, 0
        with Picture.open(io.BytesIO(data)) as picture:
            native_w, native_h = picture.size
            dpi = picture.info.get("dpi", (96, 96))
        x_dpi = float(dpi[0]) if dpi and dpi[0] else 96.0
        y_dpi = float(dpi[1]) if dpi and len(dpi) > 1 and dpi[1] else 96.0
        if image.format and image.format.lower() not in ("png", "jpeg", "jpg", "gif", "bmp"):
            raise Untranslatable("image format")
        # XlsxWriter sizes a picture by its DPI (96 / dpi); openpyxl by its pixels: scale to openpyxl's size
        shown_w = native_w * 96.0 / x_dpi
        shown_h = native_h * 96.0 / y_dpi
        sheet.insert_image(row, col, f"image{len(self.formats)}.{(image.format or 'png').lower()}", {
            "image_data": io.BytesIO(data), "x_offset": x, "y_offset": y,
            "x_scale": wanted[0] / shown_w, "y_scale": wanted[1] / shown_h, "object_position": 2,
        })

    def _chart(self, ws: Worksheet, sheet: Any, chart: Any) -> None:
        from openpyxl.utils import column_index_from_string
        from openpyxl.utils.cell import coordinate_from_string

        kinds = {"lineChart": "line", "barChart": "column" if getattr(chart, "barDir", "col") == "col" else "bar"}
        kind = kinds.get(chart.tagname)
        if kind is None:
            raise Untranslatable(f"chart {chart.tagname}")
        made = self.out.add_chart({"type": kind})
        for series in chart.series:
            entry: dict[str, Any] = {}
            if series.val is not None and series.val.numRef is not None:
                entry["values"] = "=" + series.val.numRef.f
            else:
                raise Untranslatable("chart values")
            if series.cat is not None:
                ref = series.cat.numRef or series.cat.strRef
                if ref is not None:
                    entry["categories"] = "=" + ref.f
            if series.tx is not None and series.tx.strRef is not None:
                entry["name"] = "=" + series.tx.strRef.f
            marker = getattr(series, "marker", None)
            if marker is not None and marker.symbol:
                entry["marker"] = {"type": {"circle": "circle", "square": "square", "diamond": "diamond",
                                            "triangle": "triangle", "x": "x", "star": "star",
                                            "none": "none"}.get(marker.symbol, "automatic")}
                if marker.size:
                    entry["marker"]["size"] = int(marker.size)
            made.add_series(entry)
        title = _title_text(chart.title)
        if title:
            made.set_title({"name": title})
        x_title, y_title = _title_text(chart.x_axis.title), _title_text(chart.y_axis.title)
        made.set_x_axis({"name": x_title} if x_title else {})
        y_axis: dict[str, Any] = {"name": y_title} if y_title else {}
        if chart.y_axis.scaling is not None and chart.y_axis.scaling.min is not None:
            y_axis["min"] = chart.y_axis.scaling.min
        if chart.y_axis.scaling is not None and chart.y_axis.scaling.max is not None:
            y_axis["max"] = chart.y_axis.scaling.max
        if chart.y_axis.majorUnit is not None:
            y_axis["major_unit"] = chart.y_axis.majorUnit
        made.set_y_axis(y_axis)
        made.set_size({"width": round(chart.width / 2.54 * 96), "height": round(chart.height / 2.54 * 96)})
        anchor = chart.anchor
        if not isinstance(anchor, str):
            marker = anchor._from  # noqa: SLF001
            row, col = marker.row, marker.col
        else:
            column, number = coordinate_from_string(anchor)
            row, col = number - 1, column_index_from_string(column) - 1
        sheet.insert_chart(row, col, made)


def _only_a_placeholder(ws: Worksheet, validations: bool = False) -> bool:
    """Nothing was added to a streamed tab's placeholder since it was made (only its title and place; with
    ``validations``, data validations too: written with the tab's cells)."""
    return not (ws._cells or ws._images or ws._charts or ws.merged_cells.ranges  # noqa: SLF001
                or (ws.data_validations.dataValidation and not validations) or ws.row_dimensions
                or ws.column_dimensions or ws.sheet_state != "visible")


def _column_pixels(ws: Worksheet, col: int) -> int:
    """A column's width in pixels, as XlsxWriter and Excel count them (``col`` from 0)."""
    from openpyxl.utils import get_column_letter

    dim = ws.column_dimensions.get(get_column_letter(col + 1))
    width = dim.width if dim is not None and dim.customWidth else 8.43
    return int(width * 7 + 0.5) + 5 if width >= 1 else int(width * 12 + 0.5)


def _row_pixels(ws: Worksheet, row: int) -> float:
    dim = ws.row_dimensions.get(row + 1)
    height = dim.height if dim is not None and dim.height is not None else 15.0
    return height * 4 / 3


def _anchored_size(ws: Worksheet, anchor: Any) -> tuple[float, float] | None:
    """The size in pixels a read picture's anchor gives it (a one-cell anchor's extent, or the cells a two-cell
    anchor spans): openpyxl reads a picture at its own pixels, not at the size it was shown."""
    extent = getattr(anchor, "ext", None)
    if extent is not None and getattr(extent, "width", None):
        return extent.width / 9525, extent.height / 9525
    start, end = getattr(anchor, "_from", None), getattr(anchor, "to", None)
    if start is None or end is None:
        return None
    width = sum(_column_pixels(ws, c) for c in range(start.col, end.col)) - start.colOff / 9525 + end.colOff / 9525
    height = sum(_row_pixels(ws, r) for r in range(start.row, end.row)) - start.rowOff / 9525 + end.rowOff / 9525
    return (width, height) if width > 0 and height > 0 else None


def _title_text(title: Any) -> str | None:
    """The plain text of an openpyxl chart or axis title."""
    if title is None:
        return None
    if isinstance(title, str):
        return title
    rich = getattr(getattr(title, "tx", None), "rich", None)
    if rich is None:
        return None
    return "".join(run.t for paragraph in rich.p for run in (paragraph.r or []) if run.t) or None


def _operand(formula: Any) -> Any:
    if formula is None:
        return None
    text = str(formula)
    try:
        number = float(text)
    except ValueError:
        return "=" + text
    return int(number) if number.is_integer() and "." not in text else number


def _quoted(title: str) -> str:
    return "'" + title.replace("'", "''") + "'" if re.search(r"[^A-Za-z0-9_]", title) else title
