"""The last step before a workbook is saved: column widths, row heights and a print setup that fit
what the cells hold, as LibreOffice Calc and Excel lay them out.

Spreadsheets compute neither column widths nor (for files they did not write) the height of rows with
wrapped text, so the writer must: a cell whose text is wider than its column is wrapped, and its row is
given the height of its lines. Text widths are those of DejaVu Sans, the font LibreOffice draws the default
Calibri 11 in where Calibri and Carlito are missing (letter_widths.py: the font's own letter widths), and
lines are broken where LibreOffice breaks them (:func:`wrapped_lines`). Excel's Calibri is not measured
here: its letters are about as wide, in widths of its own "0", as DejaVu Sans' in theirs.

A number and its column's header stand an indent off their cell's right edge (:func:`number_alignment`,
used by both writers: here for openpyxl sheets, in streamed.py for the tabs XlsxWriter writes): a
spreadsheet draws right-aligned text against the cell's edge, touching the next column's left-aligned text
("50BETA"); the indent's width is counted in the column's (:func:`inset`).

Tables stacked one below the other on one sheet (a report) share its columns by a plan made for all of them
(:func:`stack_columns`): short columns set the sheet's widths, a long text spans merged columns, so no number
or code of one table sits in a column made wide for another's text.

Every visible sheet also gets a print setup: the print area is the cells that hold something (not the
input rows a template prepares), all columns on one page width, the header row repeated on each page,
landscape when the columns are wider than a portrait page.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from xlsxwriter.utility import xl_col_to_name

from adjudicator.outputs.letter_widths import letter_width

if TYPE_CHECKING:  # the sheets laid out here are openpyxl's, imported where they are laid out: see writing.py
    from openpyxl import Workbook
    from openpyxl.cell.cell import Cell
    from openpyxl.styles import Alignment
    from openpyxl.worksheet.worksheet import Worksheet

#: Column width (in the widths of a "0") that a single text may widen a column to.
WIDEST_COLUMN = 50.0
#: A portrait A4 page holds about this many "0" widths between its margins.
PORTRAIT_WIDTH = 95.0
#: Points of row height per line of 11-point text, and around the lines; the default row's height.
#: A line of Calibri 11 takes 1.22 em (its ascent, descent and line gap: 2500 of 2048 units), 18 pixels at
#: 96 dpi = 13.5 pt: Excel draws the lines of a wrapped cell at that pitch, and its default row of 15 pt is
#: one such line and 2 pixels of padding. LibreOffice draws Carlito (Calibri's metrics) at 13.4 pt a line and
#: DejaVu Sans, where Carlito is missing, at 12.8 (measured with pdftotext -bbox: the baselines of a wrapped
#: cell). So 13.5 a line cuts nothing in either, where 15 a line left LibreOffice about half a line blank
#: under every few lines; a row of one line keeps the default height (:func:`row_points`).
LINE_POINTS = 13.5
ROW_PADDING = 2.0
DEFAULT_ROW = 15.0
#: A cell's own padding, in "0" widths, that the column widths leave beside its text (and more: layout.py and
#: streamed.py give a column 0.5 more), and that a text may not fill unwrapped.
CELL_PADDING = 1.0
#: The room, in "0" widths of 11-point text, that LibreOffice leaves beside a wrapped cell's text, by weight
#: (regular, bold): printed at 100 %, a text of digits in columns 12 to 41 wide stays on one line up to 0.25 to
#: 0.30 "0" short of its column's width regular, 0.37 to 0.39 bold (0.31 to 0.36 right-aligned and indented)
#: (benchmarks/audit10_header_lines.py). Text widths are DejaVu Sans' own (letter_widths.py), which
#: LibreOffice draws unkerned to within 0.3 %.
WRAP_PADDING = {False: 0.3, True: 0.38}
#: The share of a wrapped line's room by which LibreOffice's line breaks move with the print's scale: printed
#: to fit the page width (at 18 to 80 %), a line 1.1 % wider than its room stays whole in some prints, one
#: just filling it wraps in others (benchmarks/audit10_header_lines.py); at 100 % the breaks fall where
#: WRAP_PADDING says.
LINE_SLACK = 0.015
#: Characters a wrapped line may end after, inside a word (and "/" before a letter: :func:`line_pieces`).
BREAK_AFTER = frozenset("-–—|")
#: A letter a line may end after (:data:`BREAK_AFTER`), or a slash (which may, before a letter).
_BREAK_OR_SLASH = re.compile("[" + re.escape("".join(sorted(BREAK_AFTER))) + "/]")
DEFAULT_WIDTH = 8.43
#: A column's content at most this share wider than its cap (or the width it was given) widens it
#: (:func:`column_width`), by this share more.
NEAR_FIT = 1.05
FIT_MARGIN = 0.02
#: The attribute of a sheet giving the widest some of its columns may be made, by column number (a sheet of
#: stacked tables: the widths :func:`stack_columns` planned).
COLUMN_CAPS = "_adjudicator_column_caps"
#: Indent steps between a number (and its column's header) and its cell's right edge.
NUMBER_INDENT = 1
#: One indent step, in "0" widths: Excel and LibreOffice indent by three spaces a step (ECMA-376's
#: ``indent``; LibreOffice's xlsx import: 3 × the default font's space), a space being half a "0".
INDENT_WIDTH = 1.5

#: How many texts each cache of measures keeps (a text's widths, its wrapped lines).
MEASURES_KEPT = 65536
#: Each letter's width, regular (False) and bold (True), as it is first met (letter_widths.py).
_LETTERS: dict[bool, dict[str, float]] = {False: {}, True: {}}


def text_width(text: str, bold: bool = False, size: float = 11.0) -> float:
    """Width of one line of ``text`` in widths of a "0" of the 11-point default font: DejaVu Sans' own letter
    widths (letter_widths.py), bold or regular. Not kept: summed from a table of the letters met, it costs
    about what a cache's lookup did (at 160 factions a cache of 65,536 texts was full, missed one call in
    nine, and held about 20 MB of the master writer's peak, benchmarks/master_memory.py)."""
    letters = _LETTERS[bold]
    try:
        total = sum(map(letters.__getitem__, text))
    except KeyError:
        for letter in set(text).difference(letters):
            letters[letter] = letter_width(letter, bold)
        total = sum(map(letters.__getitem__, text))
    return total * size / 11.0


def _widest(pieces: Iterable[str], bold: bool, size: float) -> float:
    """The largest :func:`text_width` of ``pieces``, parts of a text already measured (its letters are all met),
    summed without a call a piece: the scale by ``size / 11`` keeps the sums' order, so the largest scaled is the
    largest sum scaled."""
    width = _LETTERS[bold].__getitem__
    return max(sum(map(width, piece)) for piece in pieces) * size / 11.0


def line_pieces(paragraph: str) -> list[tuple[str, bool]]:
    """The pieces a spreadsheet may end a line after, with whether a space stands before each: the words
    between spaces, each cut after a dash or a bar, and after a slash before a letter ("D-" and "NS1",
    "and/" and "or"; "1/2" stays whole), as LibreOffice breaks a wrapped cell's text (measured)."""
    words = paragraph.split(" ")
    if _BREAK_OR_SLASH.search(paragraph) is None:  # most paragraphs: their words are their pieces
        return [(word, number > 0) for number, word in enumerate(words)]
    pieces: list[tuple[str, bool]] = []
    for number, word in enumerate(words):
        start = 0
        for found in _BREAK_OR_SLASH.finditer(word, 0, len(word) - 1):  # not after the word's last letter
            at = found.start()
            if word[at] != "/" or not word[at + 1].isdigit():
                pieces.append((word[start:at + 1], number > 0 and start == 0))
                start = at + 1
        pieces.append((word[start:], number > 0 and start == 0))
    return pieces


def wrapped_lines(text: str, width: float, bold: bool = False, size: float = 11.0,
                  slack: float = LINE_SLACK) -> int:
    """How many lines ``text`` takes wrapped into a column ``width`` "0"s wide, as LibreOffice draws it: the
    room left by its padding (:data:`WRAP_PADDING`) less ``slack`` of it (:data:`LINE_SLACK`: a line that
    may or may not fit, by the print's scale, is counted as not fitting: a blank line rather than a cut one),
    lines ended at spaces and after dashes (:func:`line_pieces`); a piece longer than the line breaks inside,
    as spreadsheets do."""
    return lines_of(measured_pieces(text, bold, size), width, bold, size, slack)


#: A text's paragraphs, each its pieces' widths and whether a space stands before each (:func:`line_pieces`).
Pieces = tuple[tuple[tuple[float, bool], ...], ...]


def measured_pieces(text: str, bold: bool = False, size: float = 11.0) -> Pieces:
    """What :func:`lines_of` needs of ``text``, whatever the width: measured once, wrapped at many widths (each
    piece as :func:`text_width` measures it, without a call a piece)."""
    text_width(text, bold, size)  # every letter of the text met
    width = _LETTERS[bold].__getitem__
    return tuple(tuple((sum(map(width, piece)) * size / 11.0, spaced) for piece, spaced in line_pieces(paragraph))
                 for paragraph in text.split("\n"))


def _line_room(width: float, bold: bool, size: float, slack: float) -> float:
    """The width a wrapped line has in a column ``width`` wide (:func:`wrapped_lines`)."""
    return max((width - WRAP_PADDING[bold] * size / 11.0) * (1.0 - slack), 1.0)


def lines_of(pieces: Pieces, width: float, bold: bool = False, size: float = 11.0,
             slack: float = LINE_SLACK) -> int:
    """:func:`wrapped_lines` of the text measured as ``pieces``."""
    return lines_in_room(pieces, _line_room(width, bold, size, slack), text_width(" ", bold, size))[0]


def lines_in_room(pieces: Pieces, room: float, space: float) -> tuple[int, float, float]:
    """The lines of ``pieces`` on lines ``room`` wide (:func:`_line_room`'s) with spaces ``space`` wide, and the
    band ``[low, high)`` of rooms in which they take as many: whether a piece ends its line compares a width
    added up from the pieces, and from the choices before alone, with the room; any room that leaves every
    comparison as it was makes the same choices. Where a piece longer than a line breaks inside (at places that
    depend on the room), the band is empty."""
    total, low, high = 0, 0.0, math.inf
    for paragraph in pieces:
        lines, used = 1, 0.0
        for w, spaced in paragraph:
            needed = w if used == 0 else used + (space if spaced else 0.0) + w
            if needed <= room:
                used = needed
                if needed > low:
                    low = needed
                continue
            if needed < high:
                high = needed
            if used > 0:
                lines += 1
            if w > room:  # a long piece fills whole lines
                lines += math.ceil(w / room) - 1
                used = w - (math.ceil(w / room) - 1) * room
                low = high = room
            else:
                used = w
                if w > low:
                    low = w
        total += lines
    return total, low, high


def _shown(cell: object) -> str | None:
    """The text a cell shows, or None for empty cells and formulas (their value is not known here)."""
    value = getattr(cell, "value", None)
    if value is None or getattr(cell, "data_type", None) == "f":
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def _is_title(cell: object) -> bool:
    font = getattr(cell, "font", None)
    return bool(font and font.sz and float(font.sz) > 11)


def _font(cell: object) -> tuple[bool, float]:
    font = getattr(cell, "font", None)
    return bool(font and font.b), float(font.sz) if font and font.sz else 11.0


class _Styles:
    """A sheet's fonts and alignments read once per distinct style (openpyxl builds a new proxy object at
    every ``cell.font``): bold, size and title of a font id, wrap and vertical of an alignment id."""

    def __init__(self, ws: Worksheet) -> None:
        from openpyxl.styles.cell_style import StyleArray

        self.style_array = StyleArray
        self.wb = ws.parent
        self.fonts: dict[int, tuple[bool, float, bool]] = {}
        self.alignments: dict[int, tuple[bool, bool, float]] = {}
        self.realigned: dict[tuple[Callable[..., Alignment], int], int] = {}

    def font(self, cell: Cell) -> tuple[bool, float, bool]:
        """(bold, size, is a title) of the cell's font."""
        style = cell._style  # noqa: SLF001 - None until the cell is given a style
        key = style.fontId if style else 0
        found = self.fonts.get(key)
        if found is None:
            bold, size = _font(cell)
            found = self.fonts[key] = (bold, size, _is_title(cell))
        return found

    def realign(self, cell: Cell, change: Callable[[Alignment | None], Alignment]) -> None:
        """``cell.alignment = change(cell.alignment)``, openpyxl's lookup of the new alignment done once per
        alignment and change (assigning a style hashes it and searches the workbook's list of them)."""
        style = cell._style  # noqa: SLF001 - None until the cell is given a style
        key = (change, style.alignmentId if style else 0)
        made = self.realigned.get(key)
        if made is None:
            cell.alignment = change(cell.alignment)
            self.realigned[key] = cell._style.alignmentId  # noqa: SLF001
        elif style is None:  # an unstyled cell: the default style but for the alignment, as openpyxl makes it
            cell._style = self.style_array()  # noqa: SLF001
            cell._style.alignmentId = made  # noqa: SLF001
        else:
            style.alignmentId = made

    def alignment(self, cell: Cell) -> tuple[bool, bool, float]:
        """(wraps, has a vertical alignment, the width its indent takes) of the cell."""
        style = cell._style  # noqa: SLF001
        key = style.alignmentId if style else 0
        found = self.alignments.get(key)
        if found is None:
            alignment = cell.alignment
            found = self.alignments[key] = (bool(alignment and alignment.wrap_text),
                                            bool(alignment and alignment.vertical),
                                            inset(alignment.indent if alignment else 0))
        return found


#: On a sheet of tables one below the other (a report), a column of one table whose content needs more than this
#: ("0" widths) is a long column. The sheet's column widths are set by the other, short, columns of every table,
#: position by position, so a number or a code is never drawn in a column made wide for another table's text;
#: a long column spans (its cells merged) as many of those columns as its text needs, the columns of its table
#: after it following the span (:func:`stack_columns`). So no column is wider than LONG_COLUMN for a table whose
#: content there is narrower, and a table's texts keep the width they need.
LONG_COLUMN = 16.0
#: A long column's span is made at least this share of what its text needs (the text wraps a little more
#: rather than its span taking one more column).
SPAN_FILL = 0.9


@dataclass(frozen=True)
class StackedColumns:
    """The columns of a sheet of stacked tables: the sheet's widths by column number, and for each table the
    first and last sheet column of each of its columns (the same for a column that spans nothing)."""

    widths: dict[int, float]
    spans: tuple[tuple[tuple[int, int], ...], ...]


def long_column(texts: Iterable[str], numbers: bool) -> bool:
    """Whether a column of a stacked table is long (:data:`LONG_COLUMN`) for its texts, never for its header's
    word; a column of numbers never is."""
    widest = max((text_width(line) for text in texts for line in text.split("\n")), default=0.0)
    return not numbers and widest + CELL_PADDING + 0.5 > LONG_COLUMN


def column_need(header: str, texts: Iterable[str], numbers: bool) -> float:
    """The width one column of a stacked table needs for itself: its widest text (numbers indented, as
    :func:`number_alignment` sets them), its header's longest word (headers wrap), never less than the default
    width nor more than :data:`WIDEST_COLUMN` (a longer text wraps); and a little wider where its header would
    end a line just at its edge (:func:`sure_width`)."""
    padding = CELL_PADDING + 0.5 + (inset(NUMBER_INDENT) if numbers else 0.0)
    widest = max((text_width(line) for text in texts for line in text.split("\n")), default=0.0)
    header_word = max((text_width(word, bold=True) for word in header.split()), default=0.0)
    need = round(min(max(widest + padding, header_word + padding, DEFAULT_WIDTH), WIDEST_COLUMN), 1)
    indent = inset(NUMBER_INDENT) if numbers else 0.0
    return round(sure_width(header, need - indent, bold=True) + indent, 1)


def sure_width(text: str, width: float, bold: bool = False, steps: int = 10, size: float = 11.0) -> float:
    """``width``, or up to ``steps`` tenths of a "0" more, the first at which the lines of ``text`` no longer
    depend on the print's scale (the same within :data:`LINE_SLACK` of its room either way)."""
    for step in range(steps + 1):
        wider = width + step / 10
        if kept_lines(text, wider, bold, size) == kept_lines(text, wider, bold, size, -LINE_SLACK):
            return wider
    return width


_wrapped_lines_kept = lru_cache(maxsize=MEASURES_KEPT)(wrapped_lines)
#: Less than this is left of a line's room by a text of one line that surely fits it: the sums of its pieces'
#: widths, added up as :func:`lines_of` adds them, may differ from its whole width in their last digits.
_SURELY_FITS = 1e-9


def kept_lines(text: str, width: float, bold: bool = False, size: float = 11.0, slack: float = LINE_SLACK) -> int:
    """:func:`wrapped_lines`. A text of one paragraph whose whole width leaves room on its line takes one line
    (each piece of it then ends within the room, wherever a line is counted from): told by its width alone,
    without its pieces (most wrapped cells hold a short text). Else counted, and kept for the texts met most
    recently: a tab's cells repeat a few hundred texts."""
    if one_line_surely(text, width, bold, size, slack):
        return 1
    return _wrapped_lines_kept(text, width, bold, size, slack)


def one_line_surely(text: str, width: float, bold: bool = False, size: float = 11.0,
                    slack: float = LINE_SLACK) -> bool:
    """Whether ``text`` is one paragraph whose whole width leaves room on a line wrapped in ``width``: then it
    takes one line (:func:`kept_lines`)."""
    return "\n" not in text and text_width(text, bold, size) < _line_room(width, bold, size, slack) - _SURELY_FITS


@lru_cache(maxsize=MEASURES_KEPT)
def measure(text: str, bold: bool, size: float) -> tuple[float, float, float]:
    """(widest line, longest word, the whole text on one line) of ``text``, in "0" widths; kept like
    :data:`kept_lines`."""
    whole = text_width(text, bold, size)
    if "\n" not in text:  # one line: the whole text is its widest line (most cells)
        longest_word = whole if " " not in text else _widest(text.split(" "), bold, size)
        return whole, longest_word, whole
    return _widest(text.split("\n"), bold, size), _widest(text.replace("\n", " ").split(" "), bold, size), whole


class WrappedText(NamedTuple):
    """A wrapped text as its cell shows it: the sheet columns it takes (its own, or a merged span's first and
    last), its font, and the width its indent takes (:func:`inset`)."""

    first: int
    last: int
    text: str
    bold: bool = False
    size: float = 11.0
    indent: float = 0.0

    def room(self, widths: dict[int, float]) -> float:
        """The width its lines have in columns ``widths`` (a column not given: the default width)."""
        if self.first == self.last:  # most texts: one column (the same sum)
            return (widths.get(self.first) or DEFAULT_WIDTH) - self.indent
        return sum(widths.get(col) or DEFAULT_WIDTH for col in range(self.first, self.last + 1)) - self.indent


def wrapped_text(first: int, last: int, text: str, bold: bool, size: float, indent: float, wraps: bool,
                 widths: dict[int, float]) -> WrappedText | None:
    """The text of a cell (not a title) spanning columns ``first`` to ``last`` as a :class:`WrappedText`, when
    its cell wraps it: it ``wraps`` already, or it holds a line break, or it is wider than its room (less the
    cell's padding), as both writers decide; None for a text that stays on one line."""
    found = WrappedText(first, last, text, bold, size, indent)
    if wraps or "\n" in text or text_width(text, bold, size) > found.room(widths) - CELL_PADDING:
        return found
    return None


def scale_allowance(width: float) -> int:
    """The tenths of a "0" a column ``width`` wide may be widened by for a wrapped text's lines to stop moving
    with the print's scale: the band of :data:`LINE_SLACK` either side of its room (a wide column's lines shift
    more between scales), and never less than a "0"."""
    return max(10, math.ceil(2 * LINE_SLACK * width * 10))


def sure_texts(widths: dict[int, float], texts: Iterable[WrappedText],
               pieces: dict[tuple[str, bool, float], Pieces] | None = None) -> dict[int, float]:
    """``widths`` with the lines of the wrapped ``texts`` fixed, whatever the print's scale, where a few tenths
    of a "0" more do it: a text whose room (its column, or its merged span) leaves its lines moving with the
    scale (within :data:`LINE_SLACK` of its room: its row is given the line it may need, and prints a blank
    line where it is not drawn) has the last column of its room widened. Column by column, left to right, each
    such column is given the narrowest width, up to :func:`scale_allowance` of its widest text's room more,
    that leaves the fewest of the texts it holds (its own and the spans over it) unsure; a column whose texts
    are all sure keeps its width. Widening one column may unsettle a span over it: the columns are gone over
    again until none changes. A column is searched again only when a width its texts' rooms depend on changed
    since its last search (the search would find what it found: the same texts, widths and candidates), so a
    table's columns, whose texts span no other column, are searched once. ``pieces``: each text of more than one
    line is measured into it by (text, bold, size), for the caller to count its lines at the widths found
    (:func:`lines_of`) without measuring it again."""
    widths = dict(widths)
    texts = list(dict.fromkeys(texts))
    allowance: dict[int, int] = {}  # by column widened: tenths of a "0" it may be given
    for text in texts:
        allowance[text.last] = max(allowance.get(text.last, 0), scale_allowance(text.room(widths)))
    given = {col: widths.get(col) or DEFAULT_WIDTH for col in allowance}
    # Widths only grow here, and a text takes no more lines in a wider room (test_sure_texts.py): a text on one
    # line in its room narrowed by the slack now is on one line in every room it may be given, never unsure.
    measured: dict[WrappedText, Pieces] = {}  # each text of more than one line, wrapped at many widths
    kept = {} if pieces is None else pieces
    for text in texts:
        room = text.room(widths)
        if one_line_surely(text.text, room, text.bold, text.size):
            continue
        key = (text.text, text.bold, text.size)
        found = kept.get(key)
        if found is None:
            found = measured_pieces(text.text, text.bold, text.size)
        if lines_of(found, room, text.bold, text.size) > 1:
            measured[text] = kept[key] = found
    texts = list(measured)
    held = {col: [text for text in texts if text.first <= col <= text.last] for col in allowance}
    # the columns whose search a change of a column's width may change: those holding a text over it
    unsettles = {col: {other for other in allowance if any(t.first <= col <= t.last for t in held[other])}
                 for col in allowance}
    stale = set(allowance)  # the columns to search (again)
    for _ in range(len(allowance) + 2):
        changed = False
        for col in sorted(allowance):
            if col not in stale:
                continue
            stale.discard(col)
            current = widths.get(col) or DEFAULT_WIDTH
            moving = _moving(held[col], widths, measured, col, min(current, given[col]),
                             round(given[col] + allowance[col] / 10, 1))
            bands: dict[tuple[int, float], tuple[int, float, float]] = {}  # the last lines counted of each text
            best = (_unsure(moving, widths, measured, bands=bands), current)
            if not best[0]:
                continue
            for step in range(allowance[col] + 1):
                widths[col] = round(given[col] + step / 10, 1)
                count = _unsure(moving, widths, measured, best[0] + 1, bands)
                if (count, widths[col]) < best:
                    best = (count, widths[col])
                if not count:
                    break
            widths[col] = best[1]
            if best[1] != current:
                changed = True
                stale |= unsettles[col] - {col}  # its own search would find its new width again
        if not changed:
            break
    return widths


def _moving(texts: Sequence[WrappedText], widths: dict[int, float], measured: dict[WrappedText, Pieces], col: int,
            narrowest: float, widest: float) -> list[WrappedText]:
    """The ``texts`` whose lines may move with the print's scale at some width of column ``col`` from
    ``narrowest`` to ``widest`` (the other columns as ``widths`` has them). A text takes no more lines in a wider
    room (test_sure_texts.py): one with as many lines in the narrowest room narrowed by the slack as in the
    widest widened by it has that many at every width between, either way, and is sure at all of them. A
    column's search tries each width on the rest only (a report's column holds thousands of texts, most of them
    far from a line's end)."""
    narrow, wide = {**widths, col: narrowest}, {**widths, col: widest}
    return [text for text in texts
            if lines_of(measured[text], text.room(narrow), text.bold, text.size)
            != lines_of(measured[text], text.room(wide), text.bold, text.size, -LINE_SLACK)]


def _unsure(texts: Sequence[WrappedText], widths: dict[int, float], measured: dict[WrappedText, Pieces],
            enough: int | None = None, bands: dict[tuple[int, float], tuple[int, float, float]] | None = None) -> int:
    """How many of ``texts`` (``measured``: their pieces) have lines that move with the print's scale in columns
    ``widths`` (counted up to ``enough``: no more is needed). ``bands``: each text's last count, narrowed and
    widened by the slack (:func:`lines_in_room`), by the text's identity; a room within its band takes as many
    lines (a column's search tries width after width, and most texts' lines change at one or two of them)."""
    bands = {} if bands is None else bands
    count = 0
    for text in texts:
        width = text.room(widths)
        narrow, wide = (_line_room(width, text.bold, text.size, LINE_SLACK),
                        _line_room(width, text.bold, text.size, -LINE_SLACK))
        narrow_band, wide_band = bands.get((id(text), LINE_SLACK)), bands.get((id(text), -LINE_SLACK))
        if narrow_band is None or not narrow_band[1] <= narrow < narrow_band[2]:
            narrow_band = bands[(id(text), LINE_SLACK)] = lines_in_room(measured[text], narrow, _space(text))
        if wide_band is None or not wide_band[1] <= wide < wide_band[2]:
            wide_band = bands[(id(text), -LINE_SLACK)] = lines_in_room(measured[text], wide, _space(text))
        if narrow_band[0] != wide_band[0]:
            count += 1
            if enough is not None and count >= enough:
                break
    return count


def _space(text: WrappedText) -> float:
    return text_width(" ", text.bold, text.size)


class ColumnHeader(NamedTuple):
    """A stacked table's column header as the reader sees it (bold), and the width its indent takes from its
    column (a number column's header stands indented, as its numbers: :func:`number_alignment`)."""

    text: str
    indent: float = 0.0


def span_need(need: float, texts: Iterable[str]) -> float:
    """A long column's need, raised where its span (:data:`SPAN_FILL` of its need) would be narrower than its
    widest piece no line can break inside (a roll's key "agency:351:DAVION:8:outcome"): a spreadsheet would cut
    such a piece in the middle."""
    piece = max((text_width(p) for text in texts for line in text.split("\n") for p, _ in line_pieces(line)),
                default=0.0)
    return round(max(need, min(piece + CELL_PADDING + 0.5, WIDEST_COLUMN) / SPAN_FILL), 1)


def stack_columns(needs: Sequence[Sequence[float]], long: Sequence[Sequence[bool]] | None = None,
                  headers: Sequence[Sequence[ColumnHeader]] | None = None) -> StackedColumns:
    """The sheet columns of tables stacked one below the other, from what each table's columns need
    (:func:`column_need`): each sheet column as wide as the widest short column placed there; a long column
    spanning from its place over as many sheet columns as make :data:`SPAN_FILL` of its need (a sheet column
    no short column sets is given what the span still lacks). Placing a span moves its table's next columns to
    the right, so the places are settled again until they no longer change. One table keeps its own columns.
    ``long`` says which columns are long (by default: those needing more than :data:`LONG_COLUMN`); a column
    long only for its header's word (a number's "Maintenance") is not: it sets its sheet column's width.
    With ``headers`` (each table's, column by column), a sheet column made wider for another table than a
    header's own need, where that header's lines would move with the print's scale, is widened until they
    no longer do (:func:`sure_headers`)."""
    long = long if long is not None else [[need > LONG_COLUMN for need in table] for table in needs]
    if len(needs) < 2:
        return StackedColumns({col: need for table in needs for col, need in enumerate(table, start=1)},
                              tuple(tuple((col, col) for col in range(1, len(table) + 1)) for table in needs))
    starts = [list(range(1, len(table) + 1)) for table in needs]
    widths: dict[int, float] = {}
    spans: list[tuple[tuple[int, int], ...]] = []
    for _ in range(12):
        widths = {}
        for table, places, longs in zip(needs, starts, long, strict=True):
            for need, col, is_long in zip(table, places, longs, strict=True):
                if not is_long:
                    widths[col] = max(widths.get(col, 0.0), need)
        spans = []
        for table, longs in zip(needs, long, strict=True):
            col, placed = 1, []
            for need, is_long in zip(table, longs, strict=True):
                if not is_long:
                    widths[col] = max(widths.get(col, 0.0), need)
                    placed.append((col, col))
                    col += 1
                    continue
                last, total = col, 0.0
                while total < need * SPAN_FILL:
                    if last not in widths:
                        widths[last] = round(max(need - total, DEFAULT_WIDTH), 1)
                    total += widths[last]
                    last += 1
                placed.append((col, last - 1))
                col = last
            spans.append(tuple(placed))
        settled = [[first for first, _ in table] for table in spans]
        if settled == starts:
            break
        starts = settled
    if headers is not None:
        widths = sure_headers(widths, spans, headers)
    return StackedColumns(dict(sorted(widths.items())), tuple(spans))


def sure_headers(widths: dict[int, float], spans: Sequence[Sequence[tuple[int, int]]],
                 headers: Sequence[Sequence[ColumnHeader]]) -> dict[int, float]:
    """``widths`` with every header's lines fixed: where a header's span (its column, or a long column's merged
    columns) leaves its lines moving with the print's scale (within :data:`LINE_SLACK` of its room: its row is
    given the line it may need, and prints a blank line where it is not), the span's last column is widened
    to :func:`sure_width`'s width, the header keeping its fewer lines. The plan's columns are wider than every
    header's own need (:func:`column_need` makes each sure), so a header whose column another table widened
    is the only one widened here: a few tenths of a "0". A widened column may unsettle another table's header
    there: the headers are measured again until none changes (at most a "0" per header)."""
    widths = dict(widths)
    for _ in range(len(widths) + 1):
        changed = False
        for table, places in zip(headers, spans, strict=True):
            for header, (first, last) in zip(table, places, strict=False):
                room = sum(widths[col] for col in range(first, last + 1)) - header.indent
                sure = sure_width(header.text, room, bold=True)
                if sure > room:
                    widths[last] = round(widths[last] + sure - room, 1)
                    changed = True
        if not changed:
            break
    return widths


def column_width(current: float | None, content: float, longest_word: float, cap: float = WIDEST_COLUMN) -> float:
    """A column's width: as wide as its content up to ``cap`` (never narrower than a width it was given, or
    than the default when it was given none), and never narrower than its longest word. A content up to
    :data:`NEAR_FIT` wider than that is given its width and :data:`FIT_MARGIN` more: a text that would wrap by
    a few letters stays on one line, well inside its cell (LibreOffice's line breaks move by a letter or two
    with the print scale, so a text within a letter of its cell's edge wraps in one print and not in another)."""
    needed = min(content, cap)
    width = max(current or 0.0, needed) if current else max(needed, DEFAULT_WIDTH)
    if width < content <= width * NEAR_FIT:  # its widest text would wrap by a few letters: give it them
        width = content * (1 + FIT_MARGIN)
    return round(max(width, min(longest_word, WIDEST_COLUMN + 10)), 1)


def row_points(lines: int, size: float = 11.0) -> float:
    """The height, in points, of a row whose tallest cell holds ``lines`` lines of ``size``-point text: never
    less than the default row."""
    return max(lines * LINE_POINTS * size / 11.0 + ROW_PADDING, DEFAULT_ROW)


#: A row at most this high is left at the spreadsheet's own height (one line of the default font).
ONE_LINE = row_points(1)


def inset(indent: float | None) -> float:
    """The width, in "0" widths, that an indent of ``indent`` steps takes from its cell's text."""
    return (indent or 0) * INDENT_WIDTH


#: What a number cell holds (a bool, an int of its own kind, is not a number here).
_NUMBER_TYPES = (int, float, Decimal)


def is_number(value: Any, kind: str) -> bool:
    """Whether a cell of data type ``kind`` holding ``value`` shows a number (the kind first: most cells are
    texts; the types as a tuple: a union written in the call was built again at every call)."""
    return kind == "n" and isinstance(value, _NUMBER_TYPES) and not isinstance(value, bool)


def numbers_placed(cells: Iterable[tuple[int, int, Any, str]], header: int, first: int,
                   last: int) -> tuple[list[tuple[int, int]], set[int]]:
    """In one pass over cells (row, column, value, data type): the (row, column) of the cells that
    :func:`number_alignment` aligns (:func:`number_cells`), and the columns whose numbers stand left
    (:func:`text_columns`)."""
    only_numbers: dict[int, bool] = {}
    texts: set[int] = set()
    numbers: set[int] = set()
    at_numbers: list[tuple[int, int]] = []
    at_headers: dict[int, tuple[int, int]] = {}
    for row, col, value, kind in cells:
        if value is None:
            continue
        if first <= row <= last:
            if is_number(value, kind):
                numbers.add(col)
                at_numbers.append((row, col))
                only_numbers.setdefault(col, True)
            else:
                only_numbers[col] = False
                if isinstance(value, str) and value.strip():
                    texts.add(col)
        elif row == header:
            at_headers[col] = (row, col)
    at_numbers += [at for col, at in at_headers.items() if only_numbers.get(col)]
    return at_numbers, texts & numbers


def text_columns(cells: Iterable[tuple[int, int, Any, str]], first: int, last: int) -> set[int]:
    """The columns whose cells (row, column, value, data type) in rows ``first`` to ``last`` hold a text as well
    as numbers: their numbers stand left, as the texts and the header do (right-aligned, a lone 0 among
    "1 (CG 1)"s stood a column's width away from the others)."""
    return numbers_placed(cells, first - 1, first, last)[1]


def number_cells(cells: Iterable[tuple[int, int, Any, str]], header: int, first: int,
                 last: int) -> list[tuple[int, int]]:
    """(row, column) of the cells that :func:`number_alignment` aligns: every number of rows ``first`` to
    ``last`` (right-aligned by a spreadsheet anyway), and the header of row ``header`` of each column that
    holds only numbers there."""
    return numbers_placed(cells, header, first, last)[0]


def number_alignment(alignment: Alignment | None) -> Alignment:
    """A number's alignment, and its header's: right, :data:`NUMBER_INDENT` steps off the cell's right edge
    (a spreadsheet right-aligns numbers, so a left header would sit over the gap and the number under the
    next column's header; without the indent the number touches the next column's text)."""
    from openpyxl.styles import Alignment

    if alignment is None:
        return Alignment(horizontal="right", indent=NUMBER_INDENT)
    return Alignment(horizontal="right", vertical=alignment.vertical, wrap_text=alignment.wrap_text,
                     indent=NUMBER_INDENT, text_rotation=alignment.text_rotation)


def spanned_alignment(alignment: Alignment | None) -> Alignment:
    """A number's alignment in a long column's merged span (layout.stack_columns): left, as the column's texts
    and its header are; right-aligned it would stand a span's width from its header, against the next column's
    text (LibreOffice draws no indent in a merged cell)."""
    from openpyxl.styles import Alignment

    if alignment is None:
        return Alignment(horizontal="left")
    return Alignment(horizontal="left", vertical=alignment.vertical, wrap_text=alignment.wrap_text,
                     text_rotation=alignment.text_rotation)


def align_number_columns(ws: Worksheet, header: int, first: int, last: int, columns: int) -> None:
    """Give the numbers of rows ``first`` to ``last`` (inclusive) of the first ``columns`` columns, and the
    header of row ``header`` of each column holding only numbers there, :func:`number_alignment`. Only those
    rows are read: a sheet of many stacked tables is not scanned once per table."""
    cells = ws._cells  # noqa: SLF001 - the written cells, none created
    styles = _Styles(ws)
    written = ((row, col, cell.value, cell.data_type) for row in (header, *range(first, last + 1))
               for col in range(1, columns + 1) if (cell := cells.get((row, col))) is not None)
    for at in number_cells(written, header, first, last):
        styles.realign(cells[at], number_alignment)


def used_range(ws: Worksheet) -> tuple[int, int]:
    """The last row and column that hold something shown (formulas of empty input rows do not count)."""
    last_row = last_col = 0
    for (row, col), cell in ws._cells.items():  # noqa: SLF001 - the written cells, none created
        if _shown(cell):
            last_row = max(last_row, row)
            last_col = max(last_col, col)
    return last_row, last_col


def lay_out_sheet(ws: Worksheet, header_rows: int | None = None) -> None:
    """Widths, wraps, row heights and print setup of one sheet, from what its cells hold.

    One pass over the cells the sheet holds (never over the empty ones of its used range, which openpyxl
    would create): the shown texts by row, then widths, then wraps and heights."""
    by_row: dict[int, list[tuple[int, Cell, str | None]]] = {}
    last_row = last_col = 0
    for (row, col), cell in ws._cells.items():  # noqa: SLF001 - the written cells, none created
        text = _shown(cell)
        if text:
            last_row = max(last_row, row)
            last_col = max(last_col, col)
        if cell.value is not None:
            by_row.setdefault(row, []).append((col, cell, text or None))
    if not last_row:
        return
    merged_skip: set[tuple[int, int]] = set()
    for merged in ws.merged_cells.ranges:
        for row in range(merged.min_row, merged.max_row + 1):
            for col in range(merged.min_col, merged.max_col + 1):
                merged_skip.add((row, col))
    shown = [(row, col, cell, text) for row in sorted(by_row) if row <= last_row
             for col, cell, text in sorted(by_row[row], key=lambda entry: entry[0]) if col <= last_col]
    # widths: as wide as the content (up to WIDEST_COLUMN) and never narrower than its longest word
    content: dict[int, float] = {}
    words: dict[int, float] = {}
    styles = _Styles(ws)
    for row, col, cell, text in shown:
        if not text or (row, col) in merged_skip:
            continue
        bold, size, title = styles.font(cell)
        if title:
            continue
        widest_line, longest_word, _ = measure(text, bold, size)
        padding = CELL_PADDING + 0.5 + styles.alignment(cell)[2]
        content[col] = max(content.get(col, 0.0), widest_line + padding)
        words[col] = max(words.get(col, 0.0), longest_word + padding)
    caps = getattr(ws, COLUMN_CAPS, {})
    for col in range(1, last_col + 1):
        letter = xl_col_to_name(col - 1)
        current = ws.column_dimensions[letter].width if letter in ws.column_dimensions else None
        ws.column_dimensions[letter].width = column_width(current, content.get(col, 0.0), words.get(col, 0.0),
                                                          caps.get(col, WIDEST_COLUMN))
    sure_sheet_texts(ws, shown, merged_skip, styles)
    # wraps and heights, for the final widths (a merged cell's: of the columns it spans, widened)
    merged_width = {(merged.min_row, merged.min_col): sum(_width(ws, c) for c in range(merged.min_col,
                                                                                      merged.max_col + 1))
                    for merged in ws.merged_cells.ranges}
    widths = {col: _width(ws, col) for col in range(1, last_col + 1)}
    row_cells: dict[int, list[Cell]] = {}
    points_of: dict[int, float] = {}
    for row, col, cell, text in shown:
        row_cells.setdefault(row, []).append(cell)
        if not text or ((row, col) in merged_skip and (row, col) not in merged_width):
            continue
        bold, size, title = styles.font(cell)
        wrap, _, indent = styles.alignment(cell)
        width = (merged_width.get((row, col)) or widths[col]) - indent
        if not wrap and not title and ("\n" in text or text_width(text, bold, size) > width - CELL_PADDING):
            styles.realign(cell, _with_wrap)
            wrap = True
        lines = kept_lines(text, width, bold, size) if wrap else 1
        points_of[row] = max(points_of.get(row, 0.0), row_points(lines, size))
    refit_rows(ws, points_of)
    for row, points in points_of.items():
        if points > ONE_LINE:
            ws.row_dimensions[row].height = round(points, 1)
            for cell in row_cells[row]:  # a tall row: every cell starts at its top, beside the wrapped text
                if not styles.alignment(cell)[1]:
                    styles.realign(cell, _aligned_top)
    spans_to = max([last_col] + [merged.max_col for merged in ws.merged_cells.ranges  # a text's merged span
                                 if _shown(ws._cells.get((merged.min_row, merged.min_col)))])  # noqa: SLF001
    print_setup(ws, last_row, max(_last_printed_column(ws, shown, last_col, styles), spans_to), header_rows)


def sure_sheet_texts(ws: Worksheet, shown: list[tuple[int, int, Cell, str | None]],
                     merged_skip: set[tuple[int, int]], styles: _Styles) -> None:
    """The sheet's columns widened where a wrapped text's lines would move with the print's scale
    (:func:`sure_texts`): each cell's text in its column, a merged cell's in its span."""
    spans = {(merged.min_row, merged.min_col): merged.max_col for merged in ws.merged_cells.ranges}
    last_col = max([col for _, col, _, _ in shown] + list(spans.values()))
    widths = {col: _width(ws, col) for col in range(1, last_col + 1)}
    texts: dict[WrappedText, None] = {}
    for row, col, cell, text in shown:
        if not text or ((row, col) in merged_skip and (row, col) not in spans):
            continue
        bold, size, title = styles.font(cell)
        if title:
            continue
        wraps, _, indent = styles.alignment(cell)
        found = wrapped_text(col, spans.get((row, col), col), text, bold, size, indent, wraps, widths)
        if found is not None:
            texts[found] = None
    for col, width in sure_texts(widths, texts).items():
        if width != widths[col]:
            ws.column_dimensions[xl_col_to_name(col - 1)].width = width


def refit_rows(ws: Worksheet, points_of: dict[int, float]) -> None:
    """Rows whose height writing.py's fit_row_heights guessed before the columns were widened: one line
    high again where their text now fits on one line (a taller one is set from ``points_of`` after)."""
    from adjudicator.outputs.writing import REFIT_ROWS

    for row in sorted(getattr(ws, REFIT_ROWS, ())):
        if row in ws.row_dimensions and points_of.get(row, 0.0) <= ONE_LINE:
            ws.row_dimensions[row].height = None


def _width(ws: Worksheet, col: int) -> float:
    letter = xl_col_to_name(col - 1)
    if letter not in ws.column_dimensions:
        return DEFAULT_WIDTH
    return float(ws.column_dimensions[letter].width or DEFAULT_WIDTH)


def _with_wrap(alignment: Alignment | None) -> Alignment:
    from openpyxl.styles import Alignment

    if alignment is None:
        return Alignment(wrap_text=True, vertical="top")
    return Alignment(horizontal=alignment.horizontal, vertical=alignment.vertical or "top", wrap_text=True,
                     indent=alignment.indent, text_rotation=alignment.text_rotation)


def _aligned_top(alignment: Alignment | None) -> Alignment:
    from openpyxl.styles import Alignment

    if alignment is None:
        return Alignment(vertical="top")
    return Alignment(horizontal=alignment.horizontal, vertical="top", wrap_text=alignment.wrap_text,
                     indent=alignment.indent, text_rotation=alignment.text_rotation)


def _last_printed_column(ws: Worksheet, shown: list[tuple[int, int, Cell, str | None]], last_col: int,
                         styles: _Styles | None = None) -> int:
    """The last column the print area needs: titles flow over empty cells to their right."""
    styles = styles or _Styles(ws)
    last = last_col
    for _row, col, cell, text in shown:
        if not text:
            continue
        bold, size, title = styles.font(cell)
        if not title:
            continue
        need = text_width(text, bold, size)
        room = _width(ws, col)
        while room < need and col < 200:
            col += 1
            room += _width(ws, col)
        last = max(last, col)
    return last


def print_setup(ws: Worksheet, last_row: int, last_col: int, header_rows: int | None) -> None:
    """Print area = the used cells, one page wide, header rows repeated, landscape when wide."""
    ws.print_area = f"A1:{xl_col_to_name(last_col - 1)}{last_row}"
    total = sum(_width(ws, c) for c in range(1, last_col + 1))
    ws.page_setup.orientation = "landscape" if total > PORTRAIT_WIDTH else "portrait"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    if header_rows is None:
        header_rows = 1 if ws.freeze_panes and ws.freeze_panes.endswith("2") else 0
    if header_rows and last_row > header_rows:
        ws.print_title_rows = f"1:{header_rows}"


def lay_out(wb: Workbook) -> None:
    """Lay out every visible sheet of ``wb`` (a streamed tab is laid out as it is written: streamed.py)."""
    from openpyxl.worksheet.worksheet import Worksheet

    from adjudicator.outputs.streamed import tab_of

    for ws in wb.worksheets:
        if ws.sheet_state == "visible" and isinstance(ws, Worksheet) and tab_of(ws) is None:
            lay_out_sheet(ws)
