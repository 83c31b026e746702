"""Checked copies and results composed at the zip and XML level: the player's parts kept, the new tabs merged in.

Today's way (:func:`adjudicator.outputs.faction_workbooks.copy_of`) reloads the player's workbook with openpyxl
and writes every sheet again with XlsxWriter, the dearest step of a check and of writing a turn's results.
:func:`compose_bytes` instead keeps the player's worksheets, styles, shared strings, theme, validations and
defined names byte for byte, and merges into them the sheets of a workbook XlsxWriter wrote holding only the new
tabs (:mod:`adjudicator.outputs.fast_save`, from an openpyxl workbook without the player's sheets):

- a checked copy: the Errors tab put first (written straight as worksheet XML by
  :mod:`adjudicator.outputs.errors_tab`, the bytes the XlsxWriter way gives, which stays the way of any other
  new tabs); results: the Outcome, Report, Ledger (streamed tabs), Dice
  verification, Map, Changes and History tabs put after the player's sheets;
- their fonts, fills, borders, number formats, cell formats and cell styles (XlsxWriter's Hyperlink) appended
  to the player's ``styles.xml`` (their cells' ``s=`` moved on), their shared strings written inline (a
  streamed tab's cells are written so by fast_save.py already, told the number of the player's cell formats:
  only its rows' and columns' formats are moved here, :func:`formats_moved`);
- their drawings, pictures, charts, comments and links' relations copied under part names the player's
  package does not use (every target made absolute; a picture two tabs show copied once);
- their print titles, print areas and filters given their sheets' places (``localSheetId``), the player's
  local names moved on when the new tabs go first; the first new tab made the active tab (and, for results,
  the only selected one, as today's results say);
- for a checked copy, each offending cell given the error or warning fill (a copy of its own cell format with
  that fill) and a comment (each marked sheet's comments part and VML drawing written from the marks by
  :mod:`adjudicator.outputs.cell_comments`, the parts XlsxWriter wrote for them before);
- neutral document properties (XlsxWriter's, as :func:`~adjudicator.outputs.faction_workbooks.neutral_properties`
  sets them); macros (``vbaProject.bin``) and custom XML dropped, a macro or template workbook made a plain one.

Player parts are untrusted: each is parsed with defusedxml (no DTD, no entities) and read within a size bound
before anything is spliced, and each splice is checked by parsing its result. Whatever this module is not sure
to keep whole (external links, drawings, pictures, existing comments, pivot tables, chart sheets, prefixed XML,
a part that does not parse, a tab name a new tab would take, ...) raises :class:`CannotCompose`: the caller
then makes the copy the openpyxl way, so nothing regresses, and ``check`` and ``run`` say in one line how many
copies were made that slow way and why (:func:`note_slow_copies`). The zip has fixed dates and a fixed part
order (:mod:`adjudicator.outputs.reproducible`): the same inputs give the same bytes.

What it does not do (yet): lay the player's sheets out again (:mod:`adjudicator.outputs.layout` widens
columns, wraps and fits rows and sets the print area of every visible sheet today): the player's sheets come
back as the player saved them (on the bundled examples and generated campaigns the layout changed nothing).
``ADJUDICATOR_COMPOSE=0`` makes checked copies and results the openpyxl way (faction_workbooks.py).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from adjudicator.i18n import N_, Joined, Msg, msg_n
from adjudicator.outputs.cell_comments import COMMENT_FONT, cell_comment, comment_parts
from adjudicator.outputs.reproducible import fixed_dates
from adjudicator.outputs.xlsx_package import (
    APP_TYPE,
    COMMENTS_TYPE,
    CORE_TYPE,
    CT_NS,
    MAIN,
    OFFICE_DOC,
    REL,
    REL_NS,
    VML_TYPE,
    WORKBOOK_TYPE,
    CannotCompose,
    Package,
    PartCopier,
    Theirs,
    check_well_formed,
    content_types_xml,
    deflated_parts,
    free_name,
    parse_part,
    quoteattr,
    read_theirs,
    relation_xml,
    relations_of,
    relationships_xml,
    rels_path,
    shared_strings,
    zip_parts,
)

#: The most one part of the player's file may hold unpacked (intake surveyed the sheets already).
MOST_BYTES = 256 << 20
#: The relationships of the workbook part kept, and those dropped (macros, custom XML).
KEPT_WORKBOOK_RELS = {"worksheet", "styles", "theme", "sharedStrings", "calcChain"}
DROPPED_WORKBOOK_RELS = {"vbaProject", "customXml"}
#: What a worksheet may refer to and be kept whole (links leave the package; printer settings are data).
KEPT_SHEET_RELS = {"hyperlink", "printerSettings"}
#: Elements of a worksheet after ``<legacyDrawing>``, in the schema's order.
AFTER_LEGACY_DRAWING = re.compile(
    rb"<(?:legacyDrawingHF|drawingHF|picture|oleObjects|controls|webPublishItems|tableParts|extLst)\b")
#: The extended properties of every composed copy: no sheet names, no company, no manager.
NEUTRAL_APP = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Properties xmlns='
               b'"http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
               b"<Application>Microsoft Excel</Application><DocSecurity>0</DocSecurity></Properties>")
ERROR_RGB, WARNING_RGB = "FFF8CBAD", "FFFFE699"  # writing.py's ERROR_FILL, WARNING_FILL




@dataclass(frozen=True)
class Mark:
    """A cell a problem points at: the fill it gets and the comment text it adds."""

    sheet: str
    cell: str
    error: bool
    text: str


# ----------------------------------------------------------------------------------------- the package












def read_package(path: Path) -> Package:
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            if any(info.file_size > MOST_BYTES or info.flag_bits & 0x1 for info in infos):
                raise CannotCompose("a part too large, or encrypted")
            parts = {info.filename: archive.read(info) for info in infos if not info.is_dir()}
            order = [info.filename for info in infos if not info.is_dir()]
            deflated = deflated_parts(archive, parts)
    except (OSError, zipfile.BadZipFile, ValueError, NotImplementedError, EOFError) as error:
        raise CannotCompose(str(error)) from None
    if "[Content_Types].xml" not in parts:
        raise CannotCompose("no content types")
    types = parse_part(parts["[Content_Types].xml"], "[Content_Types].xml")
    defaults = {d.get("Extension", "").lower(): d.get("ContentType", "") for d in types
                if d.tag == f"{{{CT_NS}}}Default"}
    overrides = {o.get("PartName", "").lstrip("/"): o.get("ContentType", "") for o in types
                 if o.tag == f"{{{CT_NS}}}Override"}
    package = Package(parts, order, defaults, overrides, deflated=deflated)
    documents = [r for r in relations_of(package, "") if r.type == OFFICE_DOC]
    if "_rels/.rels" not in parts or len(documents) != 1 or documents[0].part not in parts:
        raise CannotCompose("no workbook part")
    package.workbook = documents[0].part
    package.workbook_rels = relations_of(package, package.workbook)
    for rel in package.workbook_rels:
        if rel.kind not in KEPT_WORKBOOK_RELS | DROPPED_WORKBOOK_RELS or rel.external:
            raise CannotCompose(f"workbook refers to {rel.kind}")
        if rel.kind in KEPT_WORKBOOK_RELS and (rel.part not in parts or rels_path(rel.part) in parts
                                               and rel.kind != "worksheet"):
            raise CannotCompose(f"{rel.part}: missing or with relations of its own")
    if sum(r.kind == "styles" for r in package.workbook_rels) != 1:
        raise CannotCompose("no styles")
    root = parse_part(parts[package.workbook], package.workbook)
    if root.tag != f"{{{MAIN}}}workbook":
        raise CannotCompose("workbook element")
    by_id = {r.id: r for r in package.workbook_rels}
    sheets = root.find(f"{{{MAIN}}}sheets")
    if sheets is None or not len(sheets):
        raise CannotCompose("no sheets")
    for sheet in sheets:
        rel = by_id.get(sheet.get(f"{{{REL_NS}}}id", ""))
        if rel is None or rel.kind != "worksheet":
            raise CannotCompose("a sheet that is not a worksheet")
        sheet_rels = relations_of(package, rel.part)
        for sheet_rel in sheet_rels:
            if sheet_rel.kind not in KEPT_SHEET_RELS or (not sheet_rel.external and sheet_rel.part not in parts):
                raise CannotCompose(f"{rel.part} refers to {sheet_rel.kind}")
        package.sheets.append((sheet.get("name", ""), rel.part, sheet_rels))
    return package


# ---------------------------------------------------------------------------------------------- styles
STYLE_LISTS = ("numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles", "dxfs")


def style_children(xml: bytes, tag: str) -> list[bytes]:
    """The child elements of XlsxWriter's own ``<tag>`` list (trusted, plainly written XML)."""
    found = re.search(rb"<" + tag.encode() + rb"\b[^>]*?(?:/>|>(.*?)</" + tag.encode() + rb">)", xml, re.S)
    if not found or not found.group(1):
        return []
    child = {"numFmts": b"numFmt", "fonts": b"font", "fills": b"fill", "borders": b"border", "cellXfs": b"xf",
             "cellStyleXfs": b"xf", "cellStyles": b"cellStyle", "dxfs": b"dxf"}[tag]
    return re.findall(rb"<" + child + rb"\b(?:[^>]*?/>|[^>]*?>.*?</" + child + rb">)", found.group(1), re.S)


class Styles:
    """The player's ``styles.xml`` with XlsxWriter's formats (and the marked cells' formats) appended."""

    def __init__(self, data: bytes) -> None:
        root = parse_part(data, "styles.xml")
        if root.tag != f"{{{MAIN}}}styleSheet" or not data.lstrip().startswith((b"<?xml", b"<styleSheet")):
            raise CannotCompose("styles element")
        self.data = data
        self.counts = {}
        for tag in STYLE_LISTS:
            element = root.find(f"{{{MAIN}}}{tag}")
            self.counts[tag] = 0 if element is None else len(element)
        xfs = root.find(f"{{{MAIN}}}cellXfs")
        if xfs is None or self.counts["fonts"] == 0 or self.counts["fills"] < 2 or self.counts["borders"] == 0:
            raise CannotCompose("styles lists")
        self.xfs = list(xfs)
        formats = root.find(f"{{{MAIN}}}numFmts")
        ids = [int(f.get("numFmtId", "0")) for f in (formats if formats is not None else [])]
        self.next_format = max([163, *ids]) + 1
        self.added: dict[str, list[bytes]] = {tag: [] for tag in STYLE_LISTS}
        self.xf_offset = len(self.xfs)
        self.marked: dict[tuple[int, bool], int] = {}
        self.mark_fills: dict[bool, int] = {}

    def append_xlsxwriter(self, theirs: bytes) -> None:
        """XlsxWriter's lists appended; their cell formats then start at :attr:`xf_offset`."""
        if style_children(theirs, "dxfs"):
            raise CannotCompose("the new tab has conditional formats")
        formats = {}
        for fmt in style_children(theirs, "numFmts"):
            old = int(re.search(rb'numFmtId="(\d+)"', fmt).group(1))  # type: ignore[union-attr]
            formats[old] = self.next_format
            self.added["numFmts"].append(re.sub(rb'numFmtId="\d+"', b'numFmtId="%d"' % self.next_format, fmt))
            self.next_format += 1
        offsets = {b"fontId": self.counts["fonts"], b"fillId": self.counts["fills"],
                   b"borderId": self.counts["borders"]}
        for tag in ("fonts", "fills", "borders"):
            self.added[tag].extend(style_children(theirs, tag))

        def moved(found: re.Match[bytes]) -> bytes:
            name, value = found.group(1), int(found.group(2))
            if name == b"numFmtId":
                value = formats.get(value, value)
            else:
                value += offsets[name]
            return b'%s="%d"' % (name, value)

        references = rb'\b(numFmtId|fontId|fillId|borderId)="(\d+)"'
        # their cell styles past Normal (XlsxWriter's Hyperlink): appended, their cell formats pointed at them
        style_ids = {0: 0}
        for number, xf in enumerate(style_children(theirs, "cellStyleXfs")[1:], start=1):
            style_ids[number] = self.counts["cellStyleXfs"] + len(self.added["cellStyleXfs"])
            self.added["cellStyleXfs"].append(re.sub(references, moved, xf))
        player_styles = set(re.findall(rb'<cellStyle\b[^>]*?\sname="([^"]*)"', self.data))
        for cell_style in style_children(theirs, "cellStyles"):
            found = re.search(rb'\sxfId="(\d+)"', cell_style)
            name = re.search(rb'\sname="([^"]*)"', cell_style)
            if found is None or int(found.group(1)) == 0 or (name and name.group(1) in player_styles):
                continue
            if int(found.group(1)) not in style_ids:
                raise CannotCompose("the new tab's cell styles")
            self.added["cellStyles"].append(
                cell_style[:found.start()] + b' xfId="%d"' % style_ids[int(found.group(1))] + cell_style[found.end():])

        def style_moved(found: re.Match[bytes]) -> bytes:
            if int(found.group(1)) not in style_ids:
                raise CannotCompose("the new tab's cell styles")
            return b' xfId="%d"' % style_ids[int(found.group(1))]

        for xf in style_children(theirs, "cellXfs"):
            self.added["cellXfs"].append(re.sub(rb'\sxfId="(\d+)"', style_moved, re.sub(references, moved, xf)))

    def marked_xf(self, xf: int, error: bool) -> int:
        """A cell format like the player's ``xf`` with the error (or warning) fill: its index."""
        key = (xf, error)
        if key in self.marked:
            return self.marked[key]
        if error not in self.mark_fills:
            rgb = ERROR_RGB if error else WARNING_RGB
            self.mark_fills[error] = self.counts["fills"] + len(self.added["fills"])
            self.added["fills"].append(
                f'<fill><patternFill patternType="solid"><fgColor rgb="{rgb}"/><bgColor indexed="64"/>'
                f"</patternFill></fill>".encode())
        if not 0 <= xf < len(self.xfs):
            raise CannotCompose(f"cell format {xf}")
        element = self.xfs[xf]
        attributes = dict(element.attrib)
        if any(name.startswith("{") for name in attributes):
            raise CannotCompose("cell format attributes")
        attributes["fillId"] = str(self.mark_fills[error])
        attributes["applyFill"] = "1"
        inner = []
        for child in element:
            local = child.tag.rpartition("}")[2]
            if child.tag not in (f"{{{MAIN}}}alignment", f"{{{MAIN}}}protection") or len(child) or any(
                    name.startswith("{") for name in child.attrib):
                raise CannotCompose("cell format children")
            inner.append(f"<{local}{_attributes(child.attrib)}/>")
        self.added["cellXfs"].append(f"<xf{_attributes(attributes)}>{''.join(inner)}</xf>".encode())
        index = self.xf_offset + len(self.added["cellXfs"]) - 1
        self.marked[key] = index
        return index

    def xml(self) -> bytes:
        data = self.data
        for tag in STYLE_LISTS:
            added = self.added[tag]
            if not added:
                continue
            total = self.counts[tag] + len(added)
            body = b"".join(added)
            opening = re.search(rb"<" + tag.encode() + rb"\b([^>]*?)(/?)>", data)
            if opening is None:
                if tag != "numFmts":
                    raise CannotCompose(f"styles: no {tag}")
                start = re.search(rb"<styleSheet\b[^>]*>", data)
                if start is None:
                    raise CannotCompose("styles: no styleSheet")
                data = data[:start.end()] + b'<numFmts count="%d">' % total + body + b"</numFmts>" + \
                    data[start.end():]
                continue
            attributes = re.sub(rb'\s+count="\d*"', b"", opening.group(1)) + b' count="%d"' % total
            if opening.group(2):  # <fonts/>: opened and closed with the new children
                data = data[:opening.start()] + b"<%s%s>" % (tag.encode(), attributes) + body + \
                    b"</%s>" % tag.encode() + data[opening.end():]
            else:
                closing = data.find(b"</" + tag.encode() + b">", opening.end())
                if closing < 0:
                    raise CannotCompose(f"styles: {tag} not closed")
                data = data[:opening.start()] + b"<%s%s>" % (tag.encode(), attributes) + \
                    data[opening.end():closing] + body + data[closing:]
        root = parse_part(data, "styles.xml (composed)")
        for tag in STYLE_LISTS:  # the splice checked: each list holds what it held and what was added
            element = root.find(f"{{{MAIN}}}{tag}")
            if len(element if element is not None else []) != self.counts[tag] + len(self.added[tag]):
                raise CannotCompose(f"styles: {tag} not spliced")
        return data


def _attributes(attributes: dict[str, str]) -> str:
    return "".join(f" {name}={quoteattr(value)}" for name, value in attributes.items())


# ----------------------------------------------------------------------------------------- sheet cells
_CELL_REF = re.compile(r"^([A-Z]{1,3})(\d{1,7})$")


def _column_number(letters: str) -> int:
    number = 0
    for char in letters:
        number = number * 26 + ord(char) - 64
    return number


def _split(ref: str) -> tuple[int, int]:
    found = _CELL_REF.match(ref.replace("$", "").upper())
    if not found:
        raise CannotCompose(f"cell {ref}")
    return int(found.group(2)), _column_number(found.group(1))


_MERGE_CELL = re.compile(rb'<mergeCell\b[^>]*\bref="([A-Z]+\d+):([A-Z]+\d+)"')

#: A merged range: first row, first column, last row, last column, and its top-left cell's reference.
MergedRange = tuple[int, int, int, int, str]


def merged_ranges(sheet: bytes) -> list[MergedRange]:
    """The merged ranges of ``sheet``, in the order the sheet lists them (one scan of its XML)."""
    ranges = []
    for found in _MERGE_CELL.finditer(sheet):
        first, last = found.group(1).decode(), found.group(2).decode()
        try:
            (r1, c1), (r2, c2) = _split(first), _split(last)
        except CannotCompose:  # told only when a mark's search reaches it, as when each search read the XML
            bad = first if _CELL_REF.match(first) is None else last
            ranges.append((-1, 0, -1, 0, bad))
            continue
        ranges.append((r1, c1, r2, c2, first))
    return ranges


def top_left_in(ranges: Sequence[MergedRange], ref: str) -> str:
    """``ref``, or the top-left cell of the first of ``ranges`` that covers it (where its marks live)."""
    row, col = _split(ref)
    for r1, c1, r2, c2, first in ranges:
        if r1 < 0:
            raise CannotCompose(f"cell {first}")
        if r1 <= row <= r2 and c1 <= col <= c2:
            return first
    return ref.replace("$", "").upper()


def merged_top_left(sheet: bytes, ref: str) -> str:
    """``ref``, or the top-left cell of the merged range that covers it (where its marks live)."""
    return top_left_in(merged_ranges(sheet), ref)


_C_TAG = re.compile(rb"<c\b([^>]*?)(/?)>")
_ROW_TAG = re.compile(rb"<row\b([^>]*?)(/?)>")
_S_ATTR = re.compile(rb'\ss="(\d+)"')
_R_ATTR = re.compile(rb'\sr="([A-Z]+)(\d+)"')
#: A cell's tag (as :data:`_C_TAG` finds it) with its reference (the first :data:`_R_ATTR` in it), in one match.
_C_TAG_WITH_REF = re.compile(rb'<c\b[^>]*?\sr="([A-Z]+\d+)"[^>]*?/?>')


def restyle_cells(sheet: bytes, styles: dict[str, Callable[[int], int]]) -> bytes:
    """``sheet`` with each cell of ``styles`` given the format ``styles[ref](its format)``: the written cells
    found by their reference (:func:`_cell_tag`, each search going on from the cell found before, in row and
    column order) and restyled in the sheet's order, those not written yet made one by one
    (:func:`restyle_cell`)."""
    data_start = max(sheet.find(b"<sheetData"), 0)
    found: list[tuple[int, int, str]] = []  # (start, end, reference) of each cell's tag
    at = data_start
    for ref in sorted(styles, key=_row_major):
        tag = _cell_tag(sheet, ref, at)
        if tag is None and at > data_start:  # a sheet not in row order
            tag = _cell_tag(sheet, ref, data_start)
        if tag is not None:
            found.append((*tag, ref))
            at = tag[1]
    found.sort()
    pieces, last, done = [], 0, set()
    for start, end, ref in found:
        done.add(ref)
        pieces += [sheet[last:start], _restyled(sheet[start:end], styles[ref])]
        last = end
    pieces.append(sheet[last:])
    sheet = b"".join(pieces)
    for ref, style in styles.items():
        if ref not in done:
            sheet = restyle_cell(sheet, ref, style)
    return sheet


def _row_major(ref: str) -> tuple[int, int]:
    found = _CELL_REF.match(ref)
    return (int(found.group(2)), _column_number(found.group(1))) if found else (0, 0)


def _cell_tag(sheet: bytes, ref: str, start: int) -> tuple[int, int] | None:
    """(start, end) of the first cell tag from ``start`` whose reference (its first ``r``, as
    :data:`_C_TAG_WITH_REF` reads it) is ``ref``; ``None`` when there is none."""
    needle = b'r="' + ref.encode() + b'"'
    pos = sheet.find(needle, start)
    while pos >= 0:
        tag = _C_TAG_WITH_REF.match(sheet, sheet.rfind(b"<", 0, pos))
        if tag is not None and tag.start(1) == pos + 3:
            return tag.span()
        pos = sheet.find(needle, pos + 1)
    return None


def _restyled(tag: bytes, style: Callable[[int], int]) -> bytes:
    old = _S_ATTR.search(tag)
    xf = style(int(old.group(1)) if old else 0)
    if old:
        return tag[:old.start()] + b' s="%d"' % xf + tag[old.end():]
    return tag[:2] + b' s="%d"' % xf + tag[2:]


def restyle_cell(sheet: bytes, ref: str, style: Callable[[int], int]) -> bytes:
    """``sheet`` with the cell at ``ref`` given the format ``style(its format)``; a cell not written yet is
    made (empty, in its row, in column order)."""
    row, col = _split(ref)
    found = re.search(rb'<c\b[^>]*?\sr="' + ref.encode() + rb'"[^>]*?/?>', sheet)
    if found:
        return sheet[:found.start()] + _restyled(found.group(0), style) + sheet[found.end():]
    cell = b'<c r="%s" s="%d"/>' % (ref.encode(), style(0))
    data_start = re.search(rb"<sheetData\b[^>]*?(/?)>", sheet)
    if data_start is None:
        raise CannotCompose("no sheetData")
    if data_start.group(1):  # <sheetData/>
        return sheet[:data_start.start()] + b'<sheetData><row r="%d">' % row + cell + b"</row></sheetData>" + \
            sheet[data_start.end():]
    data_end = sheet.find(b"</sheetData>", data_start.end())
    if data_end < 0:
        raise CannotCompose("sheetData not closed")
    for found_row in _ROW_TAG.finditer(sheet, data_start.end(), data_end):
        number = re.search(rb'\sr="(\d+)"', found_row.group(1))
        if number is None:
            raise CannotCompose("a row without its number")
        here = int(number.group(1))
        if here < row:
            continue
        if here > row:  # the row is not written: a new one before this
            at = found_row.start()
            return sheet[:at] + b'<row r="%d">' % row + cell + b"</row>" + sheet[at:]
        if found_row.group(2):  # <row r="5"/>
            opened = found_row.group(0)[:-2].rstrip() + b">"
            return sheet[:found_row.start()] + opened + cell + b"</row>" + sheet[found_row.end():]
        row_end = sheet.find(b"</row>", found_row.end())
        for tag in _C_TAG.finditer(sheet, found_row.end(), row_end):
            place = _R_ATTR.search(tag.group(1))
            if place is None:
                raise CannotCompose("a cell without its reference")
            if _column_number(place.group(1).decode()) > col:
                return sheet[:tag.start()] + cell + sheet[tag.start():]
        return sheet[:row_end] + cell + sheet[row_end:]
    return sheet[:data_end] + b'<row r="%d">' % row + cell + b"</row>" + sheet[data_end:]


def with_legacy_drawing(sheet: bytes, rel_id: str) -> bytes:
    """``sheet`` referring to its comments' VML drawing (where the schema puts ``<legacyDrawing>``)."""
    if b"<legacyDrawing" in sheet:
        raise CannotCompose("the sheet has comments already")
    element = f'<legacyDrawing xmlns:r="{REL_NS}" r:id="{rel_id}"/>'.encode()
    found = AFTER_LEGACY_DRAWING.search(sheet)
    at = found.start() if found else sheet.rfind(b"</worksheet>")
    if at < 0:
        raise CannotCompose("worksheet not closed")
    return sheet[:at] + element + sheet[at:]


# ------------------------------------------------------------------------------------- the new tab
#: A cell as XlsxWriter writes it: its reference, then its format, then its type, nothing else.
XLSXWRITER_CELL = re.compile(rb'<c r="([A-Z]+[0-9]+)"(?: s="([0-9]+)")?( t="[a-zA-Z]+")?(?:/>|>(.*?)</c>)', re.S)
_SHARED_VALUE = re.compile(rb"<v>([0-9]+)</v>")


def inline_strings(sheet: bytes, strings: Sequence[bytes], offset: int) -> bytes:
    """XlsxWriter's sheet with every format index moved by ``offset`` and its shared strings written inline
    (each cell in one match of its usual form; a sheet holding another form of cell: the general way)."""

    def plain(found: re.Match[bytes]) -> bytes:
        ref, xf, kind, rest = found.groups()
        head = b'<c r="%s" s="%d"' % (ref, offset + (int(xf) if xf else 0))
        if kind == b' t="s"':
            value = _SHARED_VALUE.fullmatch(rest or b"")
            if value is None:
                raise CannotCompose("a shared string cell")
            return head + b' t="inlineStr"><is>' + strings[int(value.group(1))] + b"</is></c>"
        return head + (kind or b"") + (b"/>" if rest is None else b">" + rest + b"</c>")

    cells, count = XLSXWRITER_CELL.subn(plain, sheet)
    if count != sheet.count(b"<c "):
        cells = _inline_strings_generally(sheet, strings, offset)
    return formats_moved(cells, offset)


def formats_moved(sheet: bytes, offset: int) -> bytes:
    """The formats of the sheet's rows and columns moved by ``offset`` (:func:`inline_strings` moves its cells'
    too); alone, for a sheet whose cells XlsxWriter's sheet wrote so already (fast_save.py's ``put_row``)."""
    sheet = re.sub(rb'(<row\b[^>]*?\ss=")(\d+)"', lambda m: m.group(1) + b'%d"' % (int(m.group(2)) + offset), sheet)
    return re.sub(rb'(<col\b[^>]*?\sstyle=")(\d+)"', lambda m: m.group(1) + b'%d"' % (int(m.group(2)) + offset),
                  sheet)


def _inline_strings_generally(sheet: bytes, strings: Sequence[bytes], offset: int) -> bytes:
    """:func:`inline_strings`'s cells, whatever their attributes."""

    def cell(found: re.Match[bytes]) -> bytes:
        attributes, rest = found.group(1), found.group(2)
        old = _S_ATTR.search(attributes)
        xf = offset + (int(old.group(1)) if old else 0)
        attributes = (_S_ATTR.sub(b"", attributes)) + b' s="%d"' % xf
        if b' t="s"' in attributes:
            value = re.fullmatch(rb"<v>(\d+)</v>", rest)
            if value is None:
                raise CannotCompose("a shared string cell")
            attributes = attributes.replace(b' t="s"', b' t="inlineStr"')
            rest = b"<is>" + strings[int(value.group(1))] + b"</is>"
        return b"<c" + attributes + (b">" + rest + b"</c>" if rest else b"/>")

    return re.sub(rb"<c\b([^>]*?)(?:/>|>(.*?)</c>)", cell, sheet, flags=re.S)






# --------------------------------------------------------------------------------------- their workbook










# --------------------------------------------------------------------------------------------- compose
def compose_bytes(player: Path, new_tabs: Callable[[int], bytes | Theirs], marks: Sequence[Mark], tabs: int,
                  first: bool) -> bytes:
    """The player's workbook at ``player`` with the ``tabs`` sheets of the workbook ``new_tabs`` returns
    (written by XlsxWriter; given the number of the player's cell formats, by which theirs are moved) merged
    in: put before the player's sheets (``first``: a checked copy) or after them (results), with their
    drawings, pictures, charts, comments, links and print names; the first of them made the active and only
    selected tab. The offending cells of ``marks`` are given the error or warning fill and a comment (each
    marked sheet's comments and their VML drawing written by :mod:`.cell_comments`)."""
    package = read_package(player)
    names = [name for name, _, _ in package.sheets]
    parts = package.parts
    sheet_of = {name: part for name, part, _ in package.sheets}
    # the marks, each at its merged range's top-left cell, texts of one cell joined as today
    by_sheet: dict[str, dict[str, Mark]] = {}
    merged: dict[str, list[MergedRange]] = {}  # each sheet's merged ranges, read once (not once per mark)
    for mark in marks:
        if mark.sheet not in sheet_of:
            continue
        if mark.sheet not in merged:
            merged[mark.sheet] = merged_ranges(parts[sheet_of[mark.sheet]])
        ref = top_left_in(merged[mark.sheet], mark.cell.split(":")[0])
        cells = by_sheet.setdefault(mark.sheet, {})
        previous = cells.get(ref)
        text = (previous.text + "\n" + mark.text) if previous else mark.text
        cells[ref] = Mark(mark.sheet, ref, mark.error, text)
    marked_sheets = [name for name in names if name in by_sheet]
    styles_rel = next(r for r in package.workbook_rels if r.kind == "styles")
    styles = Styles(parts[styles_rel.part])
    try:
        made = new_tabs(styles.xf_offset)
        theirs = made if isinstance(made, Theirs) else read_theirs(made)
    except (KeyError, zipfile.BadZipFile, SyntaxError) as error:
        raise CannotCompose(f"the new tabs' workbook: {error}") from None
    if len(theirs.sheets) != tabs or tabs < 1:
        raise CannotCompose("the new tabs' workbook")
    taken = {n.casefold() for n in names}
    if any(name.casefold() in taken for name, _, _ in theirs.sheets[:tabs]):
        raise CannotCompose("a new tab's name is taken")

    styles.append_xlsxwriter(theirs.parts["xl/styles.xml"])
    if marked_sheets:
        styles.added["fonts"].append(COMMENT_FONT)
    copier = PartCopier(theirs, parts)
    sheet_rels: dict[str, bytes] = {}
    changed: dict[str, bytes] = {}
    # the player's marked sheets: fills, then their comments
    for name, (comments_xml, drawing_xml) in zip(marked_sheets, _comment_parts(by_sheet, marked_sheets),
                                                 strict=True):
        part = sheet_of[name]
        xml = _player_sheet(parts[part], part)
        xml = restyle_cells(xml, {mark.cell: (lambda xf, e=mark.error: styles.marked_xf(xf, e))
                                  for mark in by_sheet[name].values()})
        comments_part = copier.add("xl/comments{}.xml", comments_xml, COMMENTS_TYPE)
        drawing_part = copier.add("xl/drawings/vmlDrawing{}.vml", drawing_xml, VML_TYPE)
        relations = relations_of(package, part)
        taken_ids = {r.id for r in relations}
        drawing_id = free_name({i: b"" for i in taken_ids}, "rIdAdjudicator{}")
        comments_id = free_name({i: b"" for i in taken_ids | {drawing_id}}, "rIdAdjudicator{}")
        changed[part] = with_legacy_drawing(xml, drawing_id)
        rows = [relation_xml(r.id, r.type, r.target, r.external) for r in relations]
        rows.append(relation_xml(drawing_id, REL + "vmlDrawing", "/" + drawing_part, False))
        rows.append(relation_xml(comments_id, REL + "comments", "/" + comments_part, False))
        sheet_rels[rels_path(part)] = relationships_xml(rows)
    if not first:  # the new tab the only one selected, as today's results say it
        for _, part, _ in package.sheets:
            xml = changed.get(part, parts[part])
            unselected = _unselected(xml)
            if unselected != xml:
                changed[part] = _player_sheet(unselected, part)
    for part, xml in changed.items():  # each changed sheet checked once, as it is written
        check_well_formed(xml, part + " (composed)")
    # the new tabs, their shared strings inline, their parts copied
    strings = shared_strings(theirs.parts.get("xl/sharedStrings.xml"))
    new_sheets: list[tuple[str, str, str]] = []
    for name, part, state in theirs.sheets[:tabs]:
        written = theirs.written.get(part)
        xml = written(styles.xf_offset) if written else inline_strings(theirs.parts[part], strings, styles.xf_offset)
        new_sheets.append((name, copier.copy(part, xml), state))
    # the workbook: the new tabs in their place, the first active, local names moved, the tabs' print names
    rel_ids = {r.id for r in package.workbook_rels}
    tab_ids: list[str] = []
    for _ in new_sheets:
        tab_ids.append(free_name({i: b"" for i in rel_ids | set(tab_ids)}, "rIdAdjudicator{}"))
    workbook = _workbook_xml(parts[package.workbook], [(n, i, s) for (n, _, s), i in zip(new_sheets, tab_ids,
                                                                                           strict=True)],
                             theirs.parts["xl/workbook.xml"], first, len(names), tabs)
    kept_rels = [r for r in package.workbook_rels if r.kind in KEPT_WORKBOOK_RELS]
    rows = [relation_xml(r.id, r.type, r.target, r.external) for r in kept_rels]
    rows += [relation_xml(i, REL + "worksheet", "/" + part, False) for (_, part, _), i in zip(new_sheets, tab_ids,
                                                                                            strict=True)]
    # every part, in a fixed order: the package's own, the workbook, the player's parts as they came, the new
    files: dict[str, bytes] = {}
    files["_rels/.rels"] = relationships_xml([
        relation_xml("rId1", OFFICE_DOC, package.workbook, False),
        relation_xml("rId2", "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties",
                  "docProps/core.xml", False),
        relation_xml("rId3", REL + "extended-properties", "docProps/app.xml", False),
    ])
    files["docProps/app.xml"] = NEUTRAL_APP
    files["docProps/core.xml"] = fixed_dates(theirs.parts["docProps/core.xml"])
    files[package.workbook] = workbook
    files[rels_path(package.workbook)] = relationships_xml(rows)
    kept = [r.part for r in kept_rels]
    kept += [r.part for _, _, relations in package.sheets for r in relations if not r.external]
    for part in package.order:
        if part in kept:
            if part == styles_rel.part:
                files[part] = styles.xml()
            else:
                files[part] = changed.get(part, parts[part])
            r_path = rels_path(part)
            if r_path in sheet_rels:
                files[r_path] = sheet_rels[r_path]
            elif r_path in parts:
                files[r_path] = parts[r_path]
    for part in kept:  # a part the zip lists after its relations' file, or twice: none is lost
        if part not in files:
            raise CannotCompose(f"{part}: not in the archive's order")
    files.update(copier.out)
    types: dict[str, str] = {part: package.content_type(part) or "" for part in kept}
    types[package.workbook] = WORKBOOK_TYPE
    types.update(copier.types)
    types["docProps/core.xml"] = CORE_TYPE
    types["docProps/app.xml"] = APP_TYPE
    if any(not kind for kind in types.values()):
        raise CannotCompose("a part without its content type")
    files = {"[Content_Types].xml": content_types_xml(types, copier.defaults), **files}
    return zip_parts(files, package.deflated)  # the player's parts kept as they came: copied as their zip held them


def _comment_parts(by_sheet: dict[str, dict[str, Mark]], marked_sheets: Sequence[str]) -> list[tuple[bytes, bytes]]:
    """The comments part and VML drawing of each marked sheet, in ``marked_sheets``' order (a text the
    comments cannot hold written as the openpyxl ``Comment`` and XlsxWriter wrote it, or left out)."""
    sheets = []
    for name in marked_sheets:
        comments = [cell_comment(mark.cell, mark.text) for mark in by_sheet[name].values()]
        if not any(comments):
            raise CannotCompose("the comments' parts")
        sheets.append([comment for comment in comments if comment is not None])
    return comment_parts(sheets)


_SHEET_VIEWS = re.compile(rb"<sheetViews\b.*?</sheetViews>", re.S)
_TAB_SELECTED = re.compile(rb'(<sheetView\b[^>]*?)\stabSelected="(?:1|true)"')


def _unselected(xml: bytes) -> bytes:
    """A worksheet's views without ``tabSelected`` (only the new tab is selected)."""
    return _SHEET_VIEWS.sub(lambda views: _TAB_SELECTED.sub(rb"\1", views.group(0)), xml, count=1)


def _player_sheet(xml: bytes, part: str) -> bytes:
    """A player's sheet to be changed: its elements unprefixed (whether it is well-formed, without a DTD, is
    checked once it is changed)."""
    if not xml.lstrip().startswith((b"<?xml", b"<worksheet")):
        raise CannotCompose(f"{part}: prefixed")
    return xml


def _workbook_xml(data: bytes, new_sheets: Sequence[tuple[str, str, str]], theirs: bytes, first: bool,
                  player_sheets: int, tabs: int) -> bytes:
    """The player's workbook part with ``new_sheets`` (name, relation id, state) put first or last, every
    local name of a sheet moved past them moved on, their own print names given their sheets' places, and
    the first of them the active tab."""
    if not data.lstrip().startswith((b"<?xml", b"<workbook")) or re.search(rb"<externalReferences\b", data):
        raise CannotCompose("workbook: prefixed, or with external references")
    ids = [int(i) for i in re.findall(rb'<sheet\b[^>]*?\ssheetId="(\d+)"', data)]
    opening, closing = re.search(rb"<sheets\s*>", data), data.find(b"</sheets>")
    if opening is None or closing < 0 or not ids:
        raise CannotCompose("workbook: sheets")
    elements = []
    for number, (name, rel_id, state) in enumerate(new_sheets, start=max(ids) + 1):
        shown = "" if state == "visible" else f" state={quoteattr(state)}"
        elements.append(f'<sheet xmlns:r="{REL_NS}" name={quoteattr(name)} sheetId="{number}"{shown} '
                        f'r:id="{rel_id}"/>')
    added = "".join(elements).encode()
    at = opening.end() if first else closing
    data = data[:at] + added + data[at:]
    if first:
        data = re.sub(rb'(<definedName\b[^>]*?\slocalSheetId=")(\d+)"',
                      lambda m: m.group(1) + b'%d"' % (int(m.group(2)) + len(new_sheets)), data)
    offset = 0 if first else player_sheets
    names = []
    for name in re.findall(rb"<definedName\b[^>]*>.*?</definedName>", theirs, re.S):
        local = re.search(rb'\slocalSheetId="(\d+)"', name)
        if local is None:
            raise CannotCompose("the new tabs' workbook has a global name")
        if int(local.group(1)) >= tabs:
            continue
        names.append(name[:local.start()] + b' localSheetId="%d"' % (int(local.group(1)) + offset)
                     + name[local.end():])
    if names:
        block = re.search(rb"<definedNames\s*>", data)
        if block is not None:
            data = data[:block.end()] + b"".join(names) + data[block.end():]
        else:
            end = data.find(b"</sheets>")
            data = data[:end + 9] + b"<definedNames>" + b"".join(names) + b"</definedNames>" + data[end + 9:]
    active = b' activeTab="%d"' % (0 if first else player_sheets)

    def view(found: re.Match[bytes]) -> bytes:
        tag = re.sub(rb'\s(activeTab|firstSheet)="\d*"', b"", found.group(0))
        return tag[:-2].rstrip() + active + b"/>" if tag.endswith(b"/>") else tag[:-1].rstrip() + active + b">"

    data, views = re.subn(rb"<workbookView\b[^>]*>", view, data)
    if not views:  # no view saved: one, where the schema puts it (just before the sheets)
        at = re.search(rb"<sheets\s*>", data).start()  # type: ignore[union-attr]
        data = data[:at] + b"<bookViews><workbookView" + active + b"/></bookViews>" + data[at:]
    root = parse_part(data, "workbook (composed)")
    shown = [sheet.get("name") for sheet in root.find(f"{{{MAIN}}}sheets")]  # type: ignore[union-attr]
    wanted = [name for name, _, _ in new_sheets]
    if (shown[:len(wanted)] if first else shown[len(shown) - len(wanted):]) != wanted or \
            len(shown) != player_sheets + len(wanted):
        raise CannotCompose("workbook: not spliced")
    return data












# ------------------------------------------------------------------------------------ what is composed
#: The attribute of an openpyxl workbook holding only the new tabs of a checked copy or of a faction's results:
#: how to compose the rest (a :class:`ComposedCopy`).
COMPOSED = "_adjudicator_composed"


@dataclass
class ComposedCopy:
    """A workbook still to be composed of the player's file and the new tabs: the player's file, the cells
    to mark, where the new tabs go, and today's way should composing fail."""

    player: Path
    marks: list[Mark]
    today: Callable[[], Any]
    first: bool = True  # the new tabs before the player's sheets (a checked copy), else after them (results)

    def bytes(self, wb: Any) -> bytes:
        """The composed file; ``wb`` holds the new tabs only (streamed placeholders, openpyxl sheets): they
        are laid out (layout.py) and written by XlsxWriter, then merged in (:func:`compose_bytes`); a checked
        copy's Errors tab alone is written straight (:func:`adjudicator.outputs.errors_tab.direct_tab`)."""
        from adjudicator.outputs import layout
        from adjudicator.outputs.errors_tab import direct_tab
        from adjudicator.outputs.fast_save import Untranslatable, save_fast
        from adjudicator.outputs.new_tabs import NewTabs

        tabs = len(wb.worksheets)
        direct = direct_tab(wb) if self.first else None
        if direct is not None:  # the Errors tab alone: its worksheet written straight (errors_tab.py)
            return compose_bytes(self.player, lambda offset: direct, self.marks, tabs, self.first)
        if isinstance(wb, NewTabs):  # XlsxWriter writes the tabs after all: from openpyxl placeholders
            wb = wb.in_openpyxl()
        layout.lay_out(wb)

        def new_tabs(offset: int) -> Theirs:  # the new tabs alone: the marked cells' comments are written apart
            buffer = io.BytesIO()
            composed: list[str] = []  # the tabs whose cells are written as they are composed, moved by offset
            try:
                save_fast(wb, buffer, composed_cells=(offset, composed), deflated=False, in_memory=True)
            except Untranslatable as error:
                raise CannotCompose(str(error)) from None
            theirs = read_theirs(buffer.getvalue())
            for name, part, _ in theirs.sheets:
                if name in composed:
                    theirs.written[part] = partial(formats_moved, theirs.parts[part])
            return theirs

        return compose_bytes(self.player, new_tabs, self.marks, tabs, self.first)


#: What a GM is told a workbook held that kept it from being composed, by the kind of part a reason names (the
#: relationship's kind in "… refers to comments"); any other reason (a part that does not parse, one of the new
#: tabs' own) is told as :data:`OTHER_PART`. The reasons themselves are technical, in English: kept for the tests.
PART_WORDS: dict[str, str] = {
    "comments": N_("the player's own comments"),
    "the sheet has comments already": N_("the player's own comments"),
    "vmlDrawing": N_("the player's own comments or form controls"),
    "drawing": N_("pictures, charts or shapes"),
    "externalLink": N_("links to other workbooks"),
    "externalLinkPath": N_("links to other workbooks"),
    "pivotTable": N_("pivot tables"),
    "pivotCacheDefinition": N_("pivot tables"),
    "table": N_("formatted tables"),
    "chartsheet": N_("chart sheets"),
    "a sheet that is not a worksheet": N_("chart sheets"),
    "connections": N_("data connections"),
    "queryTable": N_("data connections"),
    "ctrlProp": N_("form controls"),
    "a part too large, or encrypted": N_("an encrypted or very large part"),
    "the old master was saved by another program": N_("campaign.xlsx last saved by another program"),  # master_compose
}
OTHER_PART = N_("a part the adjudicator does not keep as it is")


def reason_words(reason: str) -> str:
    """The msgid of what ``reason`` (a :class:`CannotCompose` text) says a GM's reader would recognise."""
    first = reason.splitlines()[0] if reason else ""
    if first in PART_WORDS:
        return PART_WORDS[first]
    kind = first.rpartition(" refers to ")[2] if " refers to " in first else ""
    return PART_WORDS.get(kind, OTHER_PART)


def note_slow_copies(notes: list[Msg], slow_ways: Sequence[str | None]) -> None:
    """Add to ``notes`` the one line ``check`` and ``run`` print when copies (checked copies, results) were
    made the slow way (today's, openpyxl's) because composing failed: how many, and why (each reason once,
    the first three); nothing when every copy was composed. A run's checked copies and results make one line."""
    reasons = [reason for reason in slow_ways if reason]
    if not reasons:
        return
    earlier = next((i for i, note in enumerate(notes) if "slow_ways" in note.params), None)
    if earlier is not None:
        reasons = [*notes.pop(earlier).params["slow_ways"], *reasons]
    distinct = list(dict.fromkeys(reason_words(reason) for reason in reasons))
    notes.append(msg_n("{count} workbook made the slow way (its parts could not be composed): {reasons}",
                       "{count} workbooks made the slow way (their parts could not be composed): {reasons}",
                       len(reasons), count=len(reasons), reasons=Joined(tuple(Msg(m) for m in distinct), "; "),
                       slow_ways=tuple(reasons)))
