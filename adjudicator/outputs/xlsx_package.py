"""The parts of an .xlsx package, for composing workbooks at the zip and XML level: relations, content types,
shared strings, copying one package's parts into another under free names, and zipping them reproducibly.

Used by :mod:`adjudicator.outputs.compose` (checked copies and results) and
:mod:`adjudicator.store.master_compose` (the campaign's master). Parts of a player's file are untrusted: they are
parsed with defusedxml (:func:`parse_part`) and any surprise raises :class:`CannotCompose`.
"""

from __future__ import annotations

import io
import posixpath
import re
import struct
import zipfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from defusedxml import ElementTree as SafeTree

from adjudicator.outputs.reproducible import FIXED_DATE


def quoteattr(value: str) -> str:
    """``value`` quoted as an XML attribute, as xml.sax.saxutils.quoteattr quotes it (importing that module pulls
    in urllib, http, ssl and email)."""
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    value = value.replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in value:
        return f'"{value}"'
    if "'" not in value:
        return f"'{value}'"
    return '"' + value.replace('"', "&quot;") + '"'


MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"


CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"


OFFICE_DOC = REL_NS + "/officeDocument"


REL = REL_NS + "/"


WORKBOOK_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"


WORKSHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"


COMMENTS_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.comments+xml"


VML_TYPE = "application/vnd.openxmlformats-officedocument.vmlDrawing"


CORE_TYPE = "application/vnd.openxmlformats-package.core-properties+xml"


APP_TYPE = "application/vnd.openxmlformats-officedocument.extended-properties+xml"


RELS_TYPE = "application/vnd.openxmlformats-package.relationships+xml"


class CannotCompose(Exception):
    """The player's file holds something composing is not sure to keep: make the copy the openpyxl way."""


@dataclass
class Relation:
    id: str
    kind: str  # the last word of its type: worksheet, styles, hyperlink, ...
    type: str
    target: str
    external: bool
    part: str  # the part it points at (inside the zip), "" for an external target


@dataclass(frozen=True)
class Deflated:
    """A part as a zip holds it, deflated: its compressed bytes, their CRC, and the very bytes object they were
    read as (:func:`deflated_parts`). Zipped again unchanged, it is copied as it is (:func:`zip_parts`)."""

    content: bytes
    data: bytes
    crc: int


@dataclass
class Package:
    """The player's file as parts, read once (each within :data:`MOST_BYTES`)."""

    parts: dict[str, bytes]
    order: list[str]
    defaults: dict[str, str]
    overrides: dict[str, str]
    workbook: str = ""
    workbook_rels: list[Relation] = field(default_factory=list)
    #: (name, sheet part, its relations, state) in the workbook's order
    sheets: list[tuple[str, str, list[Relation]]] = field(default_factory=list)
    #: the parts as the zip holds them, deflated (those a composed file keeps as they came are copied so)
    deflated: dict[str, Deflated] = field(default_factory=dict)

    def content_type(self, part: str) -> str | None:
        return self.overrides.get(part) or self.defaults.get(posixpath.splitext(part)[1].lstrip(".").lower())


def parse_part(data: bytes, where: str) -> Any:
    try:
        return SafeTree.fromstring(data)
    except Exception as error:  # noqa: BLE001 - malformed or forbidden XML: not composed
        raise CannotCompose(f"{where}: {error}") from None


def check_well_formed(data: bytes, where: str) -> None:
    """Raise :class:`CannotCompose` unless ``data`` is well-formed XML without a DTD (what defusedxml forbids),
    building no tree: the check of a large worksheet after its splices."""
    from xml.parsers import expat

    def forbidden(*_: object) -> None:
        raise CannotCompose(f"{where}: a DTD or an entity")

    parser = expat.ParserCreate()
    parser.StartDoctypeDeclHandler = forbidden
    parser.EntityDeclHandler = forbidden
    parser.ExternalEntityRefHandler = forbidden
    try:
        parser.Parse(data, True)
    except expat.ExpatError as error:
        raise CannotCompose(f"{where}: {error}") from None


def rels_path(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def relations_of(package: Package, part: str) -> list[Relation]:
    data = package.parts.get(rels_path(part))
    if data is None:
        return []
    root = parse_part(data, rels_path(part))
    if root.tag != f"{{{PKG_REL_NS}}}Relationships":
        raise CannotCompose(f"{part}: relationships")
    found = []
    folder = posixpath.dirname(part)
    for rel in root:
        kind_url, target = rel.get("Type", ""), rel.get("Target", "")
        external = rel.get("TargetMode") == "External"
        if external:
            inside = ""
        elif target.startswith("/"):
            inside = target.lstrip("/")
        else:
            inside = posixpath.normpath(posixpath.join(folder, target))
        found.append(Relation(rel.get("Id", ""), kind_url.rsplit("/", 1)[-1], kind_url, target, external, inside))
    return found


def shared_strings(data: bytes | None) -> list[bytes]:
    if data is None:
        return []
    return re.findall(rb"<si>(.*?)</si>", data, re.S)


def free_name(parts: dict[str, bytes], pattern: str) -> str:
    number = 1
    while pattern.format(number) in parts:
        number += 1
    return pattern.format(number)


@dataclass
class Theirs:
    """A workbook XlsxWriter wrote (trusted): its parts, its sheets in order, its content types."""

    parts: dict[str, bytes]
    sheets: list[tuple[str, str, str]]  # (name, part, state)
    defaults: dict[str, str]
    overrides: dict[str, str]
    #: sheets written directly (:mod:`adjudicator.outputs.errors_tab`): each part's XML for the offset of its
    #: cell formats, its strings already inline (not XlsxWriter's, to be reworked by compose)
    written: dict[str, Callable[[int], bytes]] = field(default_factory=dict)

    def content_type(self, part: str) -> str | None:
        return self.overrides.get(part) or self.defaults.get(posixpath.splitext(part)[1].lstrip(".").lower())

    def relations(self, part: str) -> list[Relation]:
        return relations_of(Package(self.parts, [], {}, {}), part)


def read_theirs(data: bytes) -> Theirs:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    types = SafeTree.fromstring(parts["[Content_Types].xml"])
    defaults = {d.get("Extension", "").lower(): d.get("ContentType", "") for d in types
                if d.tag == f"{{{CT_NS}}}Default"}
    overrides = {o.get("PartName", "").lstrip("/"): o.get("ContentType", "") for o in types
                 if o.tag == f"{{{CT_NS}}}Override"}
    theirs = Theirs(parts, [], defaults, overrides)
    by_id = {r.id: r for r in theirs.relations("xl/workbook.xml")}
    for sheet in SafeTree.fromstring(parts["xl/workbook.xml"]).find(f"{{{MAIN}}}sheets"):
        rel = by_id[sheet.get(f"{{{REL_NS}}}id", "")]
        theirs.sheets.append((sheet.get("name", ""), rel.part, sheet.get("state", "visible")))
    return theirs


def numbered_pattern(part: str) -> str:
    """The pattern of a part's name with its number free: ``xl/media/image3.png`` -> ``xl/media/image{}.png``."""
    folder, name = posixpath.split(part)
    stem, extension = posixpath.splitext(name)
    return posixpath.join(folder, re.sub(r"\d*$", "", stem).replace("{", "").replace("}", "") + "{}" + extension)


#: Relations of a new tab's parts that are copied with it (and their own relations, followed).
COPIED_RELS = {"drawing", "vmlDrawing", "comments", "image", "chart", "hyperlink", "chartUserShapes"}


class PartCopier:
    """Their parts copied into the player's package under names it does not use, with their relations (every
    target made absolute), once each however many parts refer to them."""

    def __init__(self, theirs: Theirs, taken: dict[str, bytes]) -> None:
        self.theirs = theirs
        self.taken = taken  # every part name in use (the player's, and what is added)
        self.out: dict[str, bytes] = {}
        self.types: dict[str, str] = {}
        self.defaults: dict[str, str] = {}
        self.moved: dict[str, str] = {}

    def add(self, pattern: str, data: bytes, kind: str) -> str:
        """A part of ours (of content type ``kind``) added under the first free name of ``pattern``: its name."""
        new = free_name({**self.taken, **self.out}, pattern)
        self.out[new] = data
        if posixpath.splitext(new)[1] == ".vml":
            self.defaults["vml"] = kind
        else:
            self.types[new] = kind
        return new

    def copy(self, part: str, data: bytes | None = None) -> str:
        """``part`` (with ``data`` instead of its own bytes, if given) copied: its new name."""
        if part in self.moved:
            return self.moved[part]
        if part not in self.theirs.parts:
            raise CannotCompose(f"the new tabs' {part}")
        new = free_name({**self.taken, **self.out}, numbered_pattern(part))
        self.moved[part] = new
        self.out[new] = self.theirs.parts[part] if data is None else data
        kind = self.theirs.content_type(part)
        if not kind:
            raise CannotCompose(f"the new tabs' {part}: no content type")
        extension = posixpath.splitext(part)[1].lstrip(".").lower()
        if self.theirs.defaults.get(extension) == kind and part not in self.theirs.overrides:
            self.defaults[extension] = kind
        else:
            self.types[new] = kind
        rows = []
        for rel in self.theirs.relations(part):
            if rel.kind not in COPIED_RELS:
                raise CannotCompose(f"the new tabs' {part} refers to {rel.kind}")
            target = rel.target if rel.external else "/" + self.copy(rel.part)
            rows.append(relation_xml(rel.id, rel.type, target, rel.external))
        if rows:
            self.out[rels_path(new)] = relationships_xml(rows)
        return new


def relation_xml(rel_id: str, kind: str, target: str, external: bool) -> str:
    mode = ' TargetMode="External"' if external else ""
    return f"<Relationship Id={quoteattr(rel_id)} Type={quoteattr(kind)} Target={quoteattr(target)}{mode}/>"


def relationships_xml(rows: Sequence[str]) -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="{PKG_REL_NS}">'
            + "".join(rows) + "</Relationships>").encode()


def content_types_xml(types: dict[str, str], more_defaults: dict[str, str] | None = None) -> bytes:
    defaults = {"rels": RELS_TYPE, "xml": "application/xml", "vml": VML_TYPE, **(more_defaults or {})}
    rows = [f"<Default Extension={quoteattr(e)} ContentType={quoteattr(t)}/>" for e, t in defaults.items()]
    rows += [f"<Override PartName={quoteattr('/' + p)} ContentType={quoteattr(t)}/>" for p, t in types.items()
             if not p.endswith(".vml")]
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="{CT_NS}">' + "".join(rows)
            + "</Types>").encode()


def zip_parts(files: dict[str, bytes], deflated: dict[str, Deflated] | None = None) -> bytes:
    """``files`` zipped, deflated, reproducibly (a fixed date and mode). A part of ``deflated`` given as the very
    bytes object it was read as (so, unchanged) is copied as its zip held it, not deflated again: the parts of a
    player's file that a checked copy or results hold as they came (deflating them again was a few percent of a
    check's CPU)."""
    deflated = deflated or {}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, FIXED_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o600 << 16
            kept = deflated.get(name)
            if kept is not None and kept.content is data:
                _write_deflated(archive, info, kept)
            else:
                archive.writestr(info, data)
    return buffer.getvalue()


def deflated_parts(archive: zipfile.ZipFile, parts: dict[str, bytes]) -> dict[str, Deflated]:
    """The deflated bytes of each of ``parts`` (read from ``archive`` already, each checked against its CRC
    then) as the archive holds them: read from after the member's local header, as zipfile itself finds them.
    A member stored, or compressed otherwise, or whose header is not where the directory says, is left out
    (deflated again when zipped); so is a name the archive holds twice (``parts`` holds the last one read)."""
    found: dict[str, Deflated] = {}
    infos = archive.infolist()
    named = Counter(info.filename for info in infos)
    for info in infos:
        content = parts.get(info.filename)
        if (content is None or named[info.filename] > 1 or info.compress_type != zipfile.ZIP_DEFLATED
                or info.flag_bits & 0x1):
            continue
        archive.fp.seek(info.header_offset)  # type: ignore[union-attr] - open: the archive is being read
        header = archive.fp.read(_LOCAL_HEADER)  # type: ignore[union-attr]
        if len(header) != _LOCAL_HEADER or header[:4] != b"PK\x03\x04":
            continue
        name_length, extra_length = struct.unpack("<HH", header[26:30])
        archive.fp.seek(info.header_offset + _LOCAL_HEADER + name_length + extra_length)  # type: ignore[union-attr]
        data = archive.fp.read(info.compress_size)  # type: ignore[union-attr]
        if len(data) == info.compress_size:
            found[info.filename] = Deflated(content, data, info.CRC)
    return found


#: The fixed part of a zip member's local header (its name and extra field follow).
_LOCAL_HEADER = 30


def _write_deflated(archive: zipfile.ZipFile, info: zipfile.ZipInfo, kept: Deflated) -> None:
    """``kept`` written into ``archive`` (being written, to a buffer) as the member ``info``, its deflated bytes as
    they are. zipfile writes a member only by compressing it: these are the steps of its ``_open_to_write`` and
    ``_ZipWriteFile.close`` for a member whose size and CRC are known before its bytes are written."""
    info.CRC, info.compress_size, info.file_size = kept.crc, len(kept.data), len(kept.content)
    fp = archive.fp
    assert fp is not None  # noqa: S101 - the archive is open
    fp.seek(archive.start_dir)
    info.header_offset = fp.tell()
    fp.write(info.FileHeader(False))  # no zip64: a part is within MOST_BYTES
    fp.write(kept.data)
    archive.start_dir = fp.tell()
    archive.filelist.append(info)
    archive.NameToInfo[info.filename] = info
