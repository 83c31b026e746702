"""What a workbook really holds, measured by a streaming parse before any spreadsheet reader opens it.

A spreadsheet reader sizes its grid from the sheet's last cell: one cell at ``XFD1048576`` makes it
allocate a grid of 17 billion cells, and the declared dimension (``<dimension ref="A1:XFD1048576"/>``)
or a repeated row of an ``.ods`` asks for the same. So before python-calamine or openpyxl touch a
file, each sheet's XML is read here as a stream (SAX through defusedxml: no DTD, no entity, no
external reference is ever expanded) that keeps nothing but counters, and stops at the first limit
passed. Its time and memory grow with what a sheet may legally hold, never with what it claims.

The parse is expat's own (pyexpat), with the defences defusedxml's SAX reader installs (an entity
declaration, an unparsed entity or an external reference stops it), called directly: the SAX layer's
per-element objects cost more than the counting.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any
from xml.parsers import expat
from xml.sax import SAXException
from xml.sax.handler import ContentHandler

from defusedxml import DefusedXmlException
from defusedxml.common import EntitiesForbidden, ExternalReferenceForbidden

if TYPE_CHECKING:
    from adjudicator.intake.safety import Limits

_CELL = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d{1,7})$")

MACROSHEET_TYPES = ("/xlMacrosheet", "/macrosheet", "/xlIntlMacrosheet", "/intlmacrosheet")


@dataclass(frozen=True)
class Overflow:
    """A limit passed: which sheet, what (``rows``, ``columns``, ``cells``, ``text``), the limit, and a cell."""

    sheet: str | None
    what: str
    limit: int
    cell: str | None = None


@dataclass
class Survey:
    """What the sheets of one workbook hold, as far as the survey went."""

    overflow: Overflow | None = None
    macro_sheets: list[str] = field(default_factory=list)
    unreadable: bool = False  # the XML of a part is malformed, or forbidden (DTD, entities)
    #: Cells holding an error value (``#DIV/0!``, ``#N/A``), by sheet and (row, column): readers show them blank.
    errors: dict[str, dict[tuple[int, int], str]] = field(default_factory=dict)


class _Stop(Exception):
    """Raised inside the parse to stop it at the first limit passed."""


#: What a part that cannot be read raises: malformed or forbidden XML, a broken archive.
_UNREADABLE = (expat.ExpatError, SAXException, DefusedXmlException, ValueError, OSError, zipfile.BadZipFile,
               EOFError)


_COLUMN_NUMBERS: dict[str, int] = {}


def column_number(letters: str) -> int:
    number = _COLUMN_NUMBERS.get(letters)
    if number is None:
        number = 0
        for ch in letters.upper():
            number = number * 26 + ord(ch) - 64
        if len(letters) <= 3:  # at most 3 letters (the reference pattern): a bounded cache
            _COLUMN_NUMBERS[letters] = number
    return number


def column_letters(number: int) -> str:
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


_LOCAL_NAMES: dict[str, str] = {}


def _local(name: str) -> str:
    if ":" not in name:
        return name
    local = _LOCAL_NAMES.get(name)
    if local is None:
        local = name.rpartition(":")[2]
        if len(_LOCAL_NAMES) < 10_000:  # the names of a hostile file are not kept without end
            _LOCAL_NAMES[name] = local
    return local


def _attr(attrs: Any, local: str) -> str | None:
    """The first attribute whose local name is ``local`` (with or without a prefix)."""
    if ":" not in "".join(attrs):  # no prefixed name: the plain one, if any
        return attrs.get(local)
    for key in attrs:
        if _local(key) == local:
            return attrs[key]
    return None


class _Bounded(ContentHandler):
    def __init__(self, sheet: str | None, limits: Limits, total: list[int] | None = None) -> None:
        super().__init__()
        self.sheet = sheet
        self.limits = limits
        self.text = 0  # characters of the current text element
        self.total = total if total is not None else [0]  # characters of text in the whole workbook

    def _overflow(self, what: str, limit: int, cell: str | None = None) -> None:
        self.overflow = Overflow(self.sheet, what, limit, cell)
        raise _Stop

    def _count_text(self, content: str) -> None:
        self.text += len(content)
        self.total[0] += len(content)
        if self.total[0] > self.limits.max_text_total:
            self._overflow("text_total", self.limits.max_text_total, getattr(self, "cell", None))
        if self.text > self.limits.max_text_chars:
            self._overflow("text", self.limits.max_text_chars, getattr(self, "cell", None))


class _XlsxSheet(_Bounded):
    """A worksheet part: the declared dimension and the position of every cell."""

    def __init__(self, sheet: str | None, limits: Limits, total: list[int] | None = None) -> None:
        super().__init__(sheet, limits, total)
        self.row = 0
        self.col = 0
        self.cells = 0
        self.max_row = 0
        self.max_col = 0
        self.in_text = False
        self._at: tuple[int, int] | None = None  # (row, column) of the cell being read
        self.is_error = False
        self.value: list[str] = []
        self.errors: dict[tuple[int, int], str] = {}
        self.max_cells = limits.max_cells
        self.max_text_total = limits.max_text_total
        self.max_text_chars = limits.max_text_chars

    @property
    def cell(self) -> str | None:  # type: ignore[override]
        """The reference of the cell being read (for a limit passed inside it), made only when asked."""
        at = self._at
        return None if at is None else f"{column_letters(at[1])}{at[0]}"

    def _place(self, row: int, col: int) -> None:
        lim = self.limits
        if row > lim.max_rows:
            self._overflow("rows", lim.max_rows, f"{column_letters(col)}{row}")
        if col > lim.max_columns:
            self._overflow("columns", lim.max_columns, f"{column_letters(col)}{row}")
        if row > self.max_row or col > self.max_col:  # the grid a reader allocates: A1 to the last cell
            self.max_row, self.max_col = max(row, self.max_row), max(col, self.max_col)
            if self.max_row * self.max_col > lim.max_cells:
                self._overflow("cells", lim.max_cells, f"{column_letters(col)}{row}")

    def startElement(self, name: str, attrs: Any) -> None:  # noqa: N802 - SAX API
        local = _local(name) if ":" in name else name
        if local == "c":  # the one element of every cell: kept short
            if ":" in "".join(attrs):
                ref, kind = _attr(attrs, "r"), _attr(attrs, "t")
            else:
                ref, kind = attrs.get("r"), attrs.get("t")
            place = _REFERENCES.get(ref) if ref else None
            if place is None and ref:
                place = _reference(ref)
            if place:
                col, self.row = place
                self.col = col
            else:
                self.col = col = self.col + 1
            row = self.row if self.row > 1 else 1
            self._at = (row, col)
            if row > self.max_row or col > self.max_col:  # below both, every limit of _place holds already
                self._place(row, col)
            self.cells += 1
            self.is_error = kind == "e"
            if self.is_error:
                self.value = []
            if self.cells > self.max_cells:
                self._overflow("cells", self.max_cells, self.cell)
        elif local in _TEXT_ELEMENTS:
            self.in_text = True
            self.text = 0
        elif local == "row":
            r = _attr(attrs, "r")
            self.row = int(r) if r and r.isdigit() else self.row + 1
            self.col = 0
            if self.row > self.limits.max_rows:
                self._overflow("rows", self.limits.max_rows, f"A{self.row}")
        elif local == "dimension":
            ref = (_attr(attrs, "ref") or "").rpartition(":")[2]
            match = _CELL.match(ref)
            if match:
                rows, cols = int(match.group(2)), column_number(match.group(1))
                if rows > self.limits.max_rows:
                    self._overflow("rows", self.limits.max_rows, ref.upper())
                if cols > self.limits.max_columns:
                    self._overflow("columns", self.limits.max_columns, ref.upper())

    def endElement(self, name: str) -> None:  # noqa: N802 - SAX API
        local = _local(name) if ":" in name else name
        if local in _TEXT_ELEMENTS:
            self.in_text = False
        elif local == "c" and self.is_error:
            self.errors[(max(self.row, 1), self.col)] = "".join(self.value).strip() or "#ERROR"
            self.is_error = False

    def characters(self, content: str) -> None:
        if self.in_text:  # _count_text, written out: the one call of every text run
            size = len(content)
            self.text += size
            self.total[0] += size
            if self.total[0] > self.max_text_total or self.text > self.max_text_chars:
                self._count_text("")  # the limit passed, told as _count_text tells it
            if self.is_error and len(self.value) < 8:
                self.value.append(content[:32])


#: The elements whose characters are a cell's text: its value, its inline string's runs, its formula.
_TEXT_ELEMENTS = frozenset(("v", "t", "f"))

#: (column, row) of the cell references met (``A1`` → (1, 1)): the same few thousand recur in every workbook.
_REFERENCES: dict[str, tuple[int, int]] = {}


def _reference(ref: str) -> tuple[int, int] | None:
    """(column, row) of a reference such as ``B7`` or ``$B$7``, or None; kept for the next time (bounded)."""
    match = _CELL.match(ref)
    if not match:
        return None
    letters, digits = match.groups()
    place = (_COLUMN_NUMBERS.get(letters) or column_number(letters), int(digits))
    if len(_REFERENCES) < 50_000:  # a hostile file's references are not kept without end
        _REFERENCES[ref] = place
    return place


class _SharedStrings(_Bounded):
    """The shared strings part: how many, and how long each is."""

    def __init__(self, limits: Limits, total: list[int]) -> None:
        super().__init__(None, limits, total)
        self.strings = 0
        self.depth_t = 0

    def startElement(self, name: str, attrs: object) -> None:  # noqa: N802 - SAX API
        local = _local(name)
        if local == "si":
            self.text = 0
            self.strings += 1
            if self.strings > self.limits.max_cells * 4:
                self._overflow("cells", self.limits.max_cells)
        elif local == "t":
            self.depth_t += 1

    def endElement(self, name: str) -> None:  # noqa: N802 - SAX API
        if _local(name) == "t":
            self.depth_t -= 1

    def characters(self, content: str) -> None:
        if self.depth_t:
            self._count_text(content)


class _OdsContent(_Bounded):
    """An .ods content.xml: every table, its repeated rows and columns, the cells that hold something."""

    def __init__(self, limits: Limits) -> None:
        super().__init__(None, limits)
        self.row = 0
        self.row_repeat = 1
        self.row_has = False
        self.col = 0
        self.cell_repeat = 1
        self.cell_has = False
        self.in_cell = False
        self.max_row = 0
        self.max_col = 0
        self.cells = 0
        self.cell: str | None = None

    errors: dict[str, dict[tuple[int, int], str]]

    def startElement(self, name: str, attrs: object) -> None:  # noqa: N802 - SAX API
        local = _local(name)
        if local == "table" and name.startswith("table:"):
            self.sheet = _attr(attrs, "name")
            self.row = self.max_row = self.max_col = self.cells = 0
        elif local == "table-row":
            self.row_repeat = _repeat(_attr(attrs, "number-rows-repeated"))
            self.row_has = False
            self.col = 0
        elif local in ("table-cell", "covered-table-cell"):
            self.cell_repeat = _repeat(_attr(attrs, "number-columns-repeated"))
            self.cell_has = bool(_attr(attrs, "value-type") or _attr(attrs, "formula"))
            # LibreOffice marks a failed formula calcext:value-type="error"; readers show its text as a string.
            self.cell_error = any(_local(k) == "value-type" and attrs[k] == "error" for k in attrs.keys())
            self.value = []
            self.in_cell = True
            self.text = 0
            self.cell = f"{column_letters(min(self.col + 1, 16384))}{self.row + 1}"

    def endElement(self, name: str) -> None:  # noqa: N802 - SAX API
        local = _local(name)
        lim = self.limits
        if local in ("table-cell", "covered-table-cell"):
            first = self.col + 1
            self.col += self.cell_repeat
            self.in_cell = False
            if self.cell_error and self.sheet is not None:
                text = "".join(self.value).strip() or "#ERROR"
                found = self.errors.setdefault(self.sheet, {})
                for col in range(first, min(self.col, first + 256) + 1):
                    found[(self.row + 1, col)] = text
            if self.cell_has:
                self.row_has = True
                self.max_col = max(self.max_col, self.col)
                self.cells += self.cell_repeat * self.row_repeat
                if self.max_col > lim.max_columns:
                    self._overflow("columns", lim.max_columns,
                                   f"{column_letters(min(first, 16384))}{self.row + 1}")
                if self.cells > lim.max_cells:
                    self._overflow("cells", lim.max_cells, self.cell)
        elif local == "table-row":
            first = self.row + 1
            self.row += self.row_repeat
            if self.row_has:
                self.max_row = self.row
                if self.max_row * self.max_col > lim.max_cells:
                    self._overflow("cells", lim.max_cells, f"A{min(first, 1048576)}")
                if self.max_row > lim.max_rows:
                    self._overflow("rows", lim.max_rows, f"A{min(max(first, lim.max_rows + 1), 1048576)}")

    def characters(self, content: str) -> None:
        if self.in_cell:
            if content.strip():
                self.cell_has = True
            if self.cell_error and len(self.value) < 8:
                self.value.append(content[:32])
            self._count_text(content)


def _repeat(value: str | None) -> int:
    try:
        return max(1, int(value or 1))
    except ValueError:
        return 1


def _parse(archive: zipfile.ZipFile, member: str, handler: _Bounded, survey: Survey) -> bool:
    """Stream ``member`` through ``handler``; False when the survey must stop (a limit, or bad XML)."""
    try:
        with archive.open(member) as stream:
            _sax(stream, handler)
    except _Stop:
        survey.overflow = handler.overflow
        return False
    except _UNREADABLE:
        survey.unreadable = True
        return False
    return True


def _forbid_entity(name: str, *_: object) -> None:
    raise EntitiesForbidden(name, None, None, None, None, None)


def _forbid_external(context: str, base: str | None, sysid: str | None, pubid: str | None) -> None:
    raise ExternalReferenceForbidden(context, base, sysid, pubid)


#: Bytes handed to expat at a time (what xml.sax's reader reads).
_CHUNK = 2**16 - 20


def _sax(stream: IO[bytes], handler: ContentHandler) -> None:
    """Stream ``stream`` through ``handler``'s startElement, endElement and characters (attributes as a dict,
    names as written: no namespace processing), refusing entity declarations and external references as
    defusedxml's SAX reader does; malformed XML raises :class:`expat.ExpatError`."""
    parser = expat.ParserCreate()
    parser.StartElementHandler = handler.startElement
    parser.EndElementHandler = handler.endElement
    parser.CharacterDataHandler = handler.characters
    parser.EntityDeclHandler = _forbid_entity
    parser.UnparsedEntityDeclHandler = _forbid_entity
    parser.ExternalEntityRefHandler = _forbid_external
    parser.SkippedEntityHandler = lambda *_: None
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE)
    while chunk := stream.read(_CHUNK):
        parser.Parse(chunk, False)
    parser.Parse(b"", True)


class _Collect(ContentHandler):
    """Small parts (workbook.xml, its relationships): the attributes of the elements named ``wanted``."""

    def __init__(self, wanted: str) -> None:
        super().__init__()
        self.wanted = wanted
        self.found: list[dict[str, str]] = []

    def startElement(self, name: str, attrs: object) -> None:  # noqa: N802 - SAX API
        if _local(name) == self.wanted and len(self.found) < 100_000:
            self.found.append({_local(k): attrs[k] for k in attrs.keys()})  # type: ignore[attr-defined,index]


def _collect(archive: zipfile.ZipFile, member: str, wanted: str) -> list[dict[str, str]]:
    handler = _Collect(wanted)
    with archive.open(member) as stream:
        _sax(stream, handler)
    return handler.found


def survey_xlsx(archive: zipfile.ZipFile, limits: Limits) -> Survey:
    """The sheets of an .xlsx/.xlsm: macro sheets found, and the first limit a sheet passes."""
    survey = Survey()
    names = set(archive.namelist())
    try:
        book_part = "xl/workbook.xml"
        if "_rels/.rels" in names:
            for rel in _collect(archive, "_rels/.rels", "Relationship"):
                if rel.get("Type", "").endswith("/officeDocument"):
                    book_part = rel.get("Target", book_part).lstrip("/")
        if book_part not in names:
            return survey  # not a workbook: the reader says so
        base = posixpath.dirname(book_part)
        rels_part = posixpath.join(base, "_rels", posixpath.basename(book_part) + ".rels")
        targets: dict[str, tuple[str, str]] = {}
        if rels_part in names:
            for rel in _collect(archive, rels_part, "Relationship"):
                target = rel.get("Target", "")
                joined = posixpath.normpath(posixpath.join(base, target))
                path = target.lstrip("/") if target.startswith("/") else joined
                targets[rel.get("Id", "")] = (path, rel.get("Type", ""))
        sheets = _collect(archive, book_part, "sheet")
    except (*_UNREADABLE, KeyError):
        survey.unreadable = True
        return survey
    shared = posixpath.join(base, "sharedStrings.xml")
    if _plainly_within(archive, shared if shared in names else None, sheets, targets, names, limits):
        survey.macro_sheets = [sheet.get("name", "") for sheet in sheets if _is_macro(sheet, targets)]
        return survey
    total = [0]
    if shared in names and not _parse(archive, shared, _SharedStrings(limits, total), survey):
        return survey
    for sheet in sheets:
        name = sheet.get("name", "")
        if _is_macro(sheet, targets):
            survey.macro_sheets.append(name)
            continue
        part = targets.get(sheet.get("id", ""), ("", ""))[0]
        handler = _XlsxSheet(name, limits, total)
        if part in names and not _parse(archive, part, handler, survey):
            return survey
        if handler.errors:
            survey.errors[name] = handler.errors
    return survey


def _is_macro(sheet: dict[str, str], targets: dict[str, tuple[str, str]]) -> bool:
    """An Excel 4.0 macro sheet (never surveyed, never read: warning F14)."""
    part, kind = targets.get(sheet.get("id", ""), ("", ""))
    return kind.endswith(MACROSHEET_TYPES) or "macrosheet" in part.lower()


def _plainly_within(archive: zipfile.ZipFile, shared: str | None, sheets: list[dict[str, str]],
                    targets: dict[str, tuple[str, str]], names: set[str], limits: Limits) -> bool:
    """Whether the quick way (quick_survey.py) shows the sheets to hold nothing the survey would report."""
    from adjudicator.intake.quick_survey import plainly_within  # it uses this module's pieces

    parts = [targets.get(sheet.get("id", ""), ("", ""))[0] for sheet in sheets if not _is_macro(sheet, targets)]
    return plainly_within(archive, shared, [part for part in parts if part in names], limits)


def survey_ods(archive: zipfile.ZipFile, limits: Limits) -> Survey:
    survey = Survey()
    if "content.xml" in archive.namelist():
        handler = _OdsContent(limits)
        handler.errors = {}
        if _parse(archive, "content.xml", handler, survey):
            survey.errors = handler.errors
    return survey


def ods_is_encrypted(archive: zipfile.ZipFile) -> bool:
    """An .ods saved with a password: its manifest gives each encrypted part its encryption data."""
    if "META-INF/manifest.xml" not in archive.namelist():
        return False
    try:
        return bool(_collect(archive, "META-INF/manifest.xml", "encryption-data"))
    except _UNREADABLE:
        return False
