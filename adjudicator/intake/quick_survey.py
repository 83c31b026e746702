"""The survey's quick way: a workbook shown to be plainly within every limit without a Python call per element.

:mod:`adjudicator.intake.bounds` streams each sheet's XML through expat with a Python handler for every
element: exact, and about a fifth of a large check's CPU (issue 16). Most workbooks are far inside every
limit, and that can be shown more cheaply. Each part is read in pieces cut just before a row (a worksheet) or
a string (the shared strings), none held past :data:`QUICK_PART_BYTES`, parsed by expat in C with no element
handler (well-formed, with defusedxml's defences: no entity declaration, no external reference), and measured
by byte scans, added up piece by piece, that give an upper bound of everything the exact survey counts:

- every cell is ``<c r="B7"…`` (a plain reference, first attribute) and every row ``<row r="7"…``: their
  largest row and column are those the exact survey finds. Where all of a piece's references are short
  (for the defaults, one letter and at most three digits: two searches find none that is not), the piece
  counts as reaching the largest row and column short references may name, a grid within every limit
  whatever the rest of the sheet holds (:func:`_short_references`), and its references are not read one
  by one (that reading was half of the quick way's time);
- every text element of a sheet (``v``, ``t``, ``f``, prefixed or not) is one run of text between its tags,
  or empty: the run's bytes bound its characters; a shared string's characters lie between its start and
  the next one's; and the parts' bytes bound the workbook's text. One search for a text element written
  otherwise and one for a run of text longer than the limit show that, mostly; where either finds one, each
  text element is read.

:func:`plainly_within` answers True only when those bounds are within every limit and nothing stands in the
way of the scans (an error cell, a comment or CDATA, a processing instruction, a prefixed cell or row, an
encoding other than UTF-8, a reference written otherwise); then the exact survey would have found no limit
passed, no error cell, and nothing unreadable. Otherwise it answers False, and the exact survey runs as
before: what it reports (the sheet and cell of the first limit passed, the error cells, an unreadable part)
is never guessed here. ``tests/core/test_quick_survey.py`` compares the two ways on generated parts, read
whole and in pieces of a few bytes.
"""

from __future__ import annotations

import functools
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING
from xml.parsers import expat

from adjudicator.intake.bounds import _CELL, _forbid_entity, _forbid_external, column_number

if TYPE_CHECKING:
    from adjudicator.intake.safety import Limits

#: A part is read this many bytes at a time and scanned in pieces, each cut just before a row (a worksheet) or
#: a string (the shared strings), so that no part is held whole: the master of a 40-state turn holds parts of
#: 17 and 56 MB, which the exact survey took 7 s to stream through.
READ_BLOCK = 2**20
#: A piece that grows past this many bytes with no row or string starting in it leaves the part to the exact
#: (streaming) survey: the quick way holds a piece whole.
QUICK_PART_BYTES = 16 * 2**20

_BOM = b"\xef\xbb\xbf"
_DECLARED_ENCODING = re.compile(rb"""encoding\s*=\s*["']([A-Za-z0-9._-]*)["']""")
_UTF8 = (b"utf-8", b"utf8")
#: A prefix before a name the exact survey reads by its local name (``x:c``, ``x:row``, ``xm:f``): written so,
#: cells and rows are read the exact way, and text elements are found by :data:`_ANY_TEXT_START`.
_PREFIXED_CELL = re.compile(rb":(?:c|row|dimension)[\s/>]")
_PREFIXED_TEXT = re.compile(rb":[vtf][\s/>]")
#: Cells, rows and the dimension written otherwise than ``<c r="B7"``, ``<row r="7"``, ``<dimension ref="…"``.
_UNUSUAL_START = re.compile(rb"<(?:c|row|dimension)[/>\t\n\r]")
_CELL_REFERENCE = re.compile(rb'<c r="([A-Z]{1,3})([1-9][0-9]{0,6})"')
_ROW_NUMBER = re.compile(rb'<row r="([1-9][0-9]{0,6})"')
_DIMENSION = re.compile(rb'<dimension ref="([^"&]*)"')
#: A text element's start (``v``, ``t``, ``f``); its whole as one run of text, or empty (``<v/>``), its attributes
#: written plainly (no ``>`` in a value): every text element of a sheet is one or the other, else the exact way.
_TEXT_START = re.compile(rb"<[vtf][\s/>]")
_ATTRIBUTES = rb"""(?:\s+[^\s=<>/]+\s*=\s*(?:"[^"<>]*"|'[^'<>]*'))*\s*"""
_TEXT_ELEMENT = re.compile(rb"<[vtf]" + _ATTRIBUTES + rb">([^<]*)</[vtf]>")
_EMPTY_TEXT = re.compile(rb"<[vtf]" + _ATTRIBUTES + rb"/>")
_ANY_PREFIX = rb"(?:[^\s/>]*:)?"
_ANY_TEXT_START = re.compile(rb"<" + _ANY_PREFIX + rb"[vtf][\s/>]")
_ANY_TEXT_ELEMENT = re.compile(rb"<" + _ANY_PREFIX + rb"[vtf]" + _ATTRIBUTES + rb">([^<]*)</" + _ANY_PREFIX +
                               rb"[vtf]>")
_ANY_EMPTY_TEXT = re.compile(rb"<" + _ANY_PREFIX + rb"[vtf]" + _ATTRIBUTES + rb"/>")
_STRING_START = re.compile(rb"<(?:[^\s/>]*:)?si[\s/>]")


def plainly_within(archive: zipfile.ZipFile, shared: str | None, sheet_parts: list[str], limits: Limits) -> bool:
    """Whether the shared strings part ``shared`` (or None) and the worksheet parts ``sheet_parts`` are shown,
    by the quick way, to pass no limit, hold no error cell and be readable: the exact survey would find
    nothing to report of them. False when that is not shown (the exact survey then tells what there is)."""
    text_total = 0
    try:
        if shared is not None:
            strings = longest = 0
            for piece in _pieces(archive, shared, b"<si"):
                split = _STRING_START.split(piece)
                strings += len(split) - 1
                longest = max(longest, *map(len, split))
                text_total += len(piece)
                if strings > limits.max_cells * 4 or longest > limits.max_text_chars:
                    return False
        for part in sheet_parts:
            extent = _Extent()
            for piece in _pieces(archive, part, b"<row"):
                text_total += len(piece)
                if text_total > limits.max_text_total or not extent.holds(piece, limits):
                    return False
    except Exception:  # noqa: BLE001 - whatever stops the quick way, the exact survey meets and reports
        return False
    return text_total <= limits.max_text_total


class _NotPlain(Exception):
    """A part the scans cannot be trusted on: the exact survey reads it."""


#: What may follow the name of a tag a piece is cut before (``<row r="1">``, ``<si>``, ``<si/>``).
_AFTER_NAME = frozenset(b" \t\r\n/>")


def _pieces(archive: zipfile.ZipFile, name: str, cut: bytes) -> Iterator[bytes]:
    """The part's bytes in pieces, each cut just before a ``cut`` tag (``<row``, ``<si``, unprefixed), when the
    scans can be trusted on them: UTF-8, well-formed without entities (expat, fed the part as it is read), and
    with no comment, CDATA, DTD or processing instruction but the declaration (their contents may hold
    ``<``). A match of any scan of :func:`plainly_within` holds no ``<`` but its first byte and a text's
    closing tag (``</v>``), so none spans a cut: the pieces' findings add up to the whole part's. Raises
    :class:`_NotPlain` (or expat's error) when the part is not plain, or a piece grows past
    :data:`QUICK_PART_BYTES`."""
    parser = expat.ParserCreate()
    parser.EntityDeclHandler = _forbid_entity
    parser.UnparsedEntityDeclHandler = _forbid_entity
    parser.ExternalEntityRefHandler = _forbid_external
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE)
    held, first = b"", True
    with archive.open(name) as stream:
        while block := stream.read(READ_BLOCK):
            parser.Parse(block, False)  # raises on malformed XML: the exact survey then says it is unreadable
            searched = max(1, len(held) - len(cut))  # held had no cut after its first byte: only the new bytes
            held += block
            at = _last_cut(held, cut, searched)
            if at:
                yield _plain(held[:at], first)
                held, first = held[at:], False
            elif len(held) > QUICK_PART_BYTES:
                raise _NotPlain(name)
        parser.Parse(b"", True)
    yield _plain(held, first)


def _last_cut(held: bytes, cut: bytes, searched: int) -> int:
    """Where the last ``cut`` tag from ``searched`` on starts in ``held`` (0: none)."""
    end = len(held)
    while (at := held.rfind(cut, searched, end)) > 0:
        if at + len(cut) < len(held) and held[at + len(cut)] in _AFTER_NAME:
            return at
        end = at + len(cut) - 1
    return 0


def _plain(piece: bytes, first: bool) -> bytes:
    """``piece``, a part's first one or a later one, when nothing in it stands in the way of the scans."""
    body = piece[len(_BOM):] if first and piece.startswith(_BOM) else piece
    declared = 1 if first and body.startswith(b"<?xml") else 0
    if (first and not _utf8(body)) or b"<!" in body or body.count(b"<?") != declared:
        raise _NotPlain("not plain")
    return body


def _utf8(body: bytes) -> bool:
    """Whether the part is UTF-8 (the scans read its markup as ASCII bytes)."""
    if body[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in body[:4]:
        return False
    if not body.startswith(b"<?xml"):
        return True
    declared = _DECLARED_ENCODING.search(body, 0, body.find(b"?>"))
    return declared is None or declared.group(1).lower() in _UTF8


class _Extent:
    """What a worksheet's pieces hold so far: its cells, the grid they span, its row elements' last number."""

    def __init__(self) -> None:
        self.cells = self.last_row = self.last_column = 0

    def holds(self, data: bytes, limits: Limits) -> bool:
        """Whether the sheet, ``data`` added, is shown to pass no limit (each finding only grows with more)."""
        if b'"e"' in data or b"'e'" in data or _PREFIXED_CELL.search(data) or _UNUSUAL_START.search(data):
            return False  # maybe an error cell (t="e"), or cells and rows written otherwise: read the exact way
        cells = data.count(b"<c ")
        self.cells += cells
        if self.cells > limits.max_cells:
            return False
        short = _short_references(limits)
        if short is None or short.odd_cell.search(data) or short.odd_row.search(data):
            if not self._references_within(data, cells, limits):
                return False
        else:  # every cell's reference is short: the grid they span is within the short ones' grid
            self.last_row, self.last_column = max(self.last_row, short.last_row), \
                max(self.last_column, short.last_column)
        written = data.count(b"<dimension ")
        dimensions = _DIMENSION.findall(data) if written else []
        if len(dimensions) != written:
            return False  # the dimension's reference written otherwise
        for ref in dimensions:
            match = _CELL.match(ref.decode().rpartition(":")[2])
            if match and (int(match.group(2)) > limits.max_rows or
                          column_number(match.group(1)) > limits.max_columns):
                return False
        prefixed = _PREFIXED_TEXT.search(data) is not None
        if not prefixed and _ODD_TEXT.search(data) is None and (
                limits.max_text_chars >= len(data) or _long_run(limits.max_text_chars).search(data) is None):
            return True  # every text element is one run of text or empty, and no run is longer than the limit
        texts = (_ANY_TEXT_ELEMENT if prefixed else _TEXT_ELEMENT).findall(data)
        starts = len((_ANY_TEXT_START if prefixed else _TEXT_START).findall(data))
        if len(texts) + len((_ANY_EMPTY_TEXT if prefixed else _EMPTY_TEXT).findall(data)) != starts:
            return False  # a text element holding more than one run of text (or written otherwise)
        return max(map(len, texts), default=0) <= limits.max_text_chars

    def _references_within(self, data: bytes, cells: int, limits: Limits) -> bool:
        """Whether every cell and row reference of ``data`` (``cells`` cells) is plain, and the grid they span so
        far is within the limits (the last row and column of every cell found one by one)."""
        references = _CELL_REFERENCE.findall(data)
        rows = _ROW_NUMBER.findall(data)
        if len(references) != cells or len(rows) != data.count(b"<row "):
            return False  # a cell or a row whose reference is written otherwise
        # the grid a reader allocates: from A1 to the last row and the last column of any cell
        self.last_row = max([self.last_row, *map(int, {digits for _, digits in references})])
        self.last_column = max([self.last_column, *(column_number(letters.decode())
                                                    for letters in {letters for letters, _ in references})])
        if self.last_row > limits.max_rows or self.last_column > limits.max_columns or \
                self.last_row * self.last_column > limits.max_cells:
            return False
        return max(map(int, set(rows)), default=0) <= limits.max_rows


#: A text element that is neither one run of text between its tags nor empty (searched for: none, mostly).
_ODD_TEXT = re.compile(rb"<[vtf](?=[\s/>])(?!" + _ATTRIBUTES + rb"(?:/>|>[^<]*</[vtf]>))")


@functools.lru_cache(maxsize=16)
def _long_run(longest: int) -> re.Pattern[bytes]:
    """A run of text longer than ``longest`` bytes after a tag (asked only for a limit below a piece's size)."""
    return re.compile(rb">[^<]{%d}" % (longest + 1))


@dataclass(frozen=True)
class _ShortReferences:
    """References short enough that a sheet holding only those is shown within the limits by two searches,
    instead of every reference read (the cells of a large turn's workbooks: a few hundred rows, a few columns)."""

    odd_cell: re.Pattern[bytes]  # a cell whose reference is not short (written otherwise, or further)
    odd_row: re.Pattern[bytes]  # a row whose number is not short
    last_row: int  # the largest row a short reference may name
    last_column: int  # the largest column


@functools.lru_cache(maxsize=16)
def _short_references(limits: Limits) -> _ShortReferences | None:
    """The short references for ``limits`` (None when the limits leave none). Their grid is within the limits
    with any row, or any column, the limits allow: a sheet's grid counts a piece of short references as their
    largest row and column, and that grid then passes the limit of cells only where the exact one does."""
    rows = min(limits.max_rows, limits.max_cells // max(limits.max_columns, 1))
    columns = min(limits.max_columns, limits.max_cells // max(limits.max_rows, 1))
    if rows < 1 or columns < 1:
        return None
    if columns >= column_number("ZZZ"):
        letters, last_column = rb"[A-Z]{1,3}", column_number("ZZZ")
    elif columns >= column_number("ZZ"):
        letters, last_column = rb"[A-Z]{1,2}", column_number("ZZ")
    else:
        last_column = min(columns, 26)  # one letter, A to the last one within (Z for the defaults)
        letters = b"[A-%c]" % (64 + last_column)
    digits = len(str(rows + 1)) - 1  # 3 for the defaults' 1,000 rows (200,000 cells of 200 columns): 999
    while digits and (10**digits - 1) * last_column > limits.max_cells:
        digits -= 1
    if not digits:
        return None
    return _ShortReferences(re.compile(rb'<c (?!r="%s[1-9][0-9]{0,%d}")' % (letters, digits - 1)),
                            re.compile(rb'<row (?!r="[1-9][0-9]{0,%d}")' % (digits - 1)),
                            10**digits - 1, last_column)
