"""campaign.xlsx of the next turn composed of the old master's parts, not reloaded and saved whole (issue 16).

Today's way (:func:`adjudicator.store.master.open_master`) reloads the whole old master with openpyxl, writes its
state tables, Ledger, Dice and source sheets again, adds the turn's tabs and saves all of it with XlsxWriter; the
earlier turns' tabs (``T03 Orders``, ``T03 Report``, ``T03 Map`` and its picture) are read back cell by cell and
written again unchanged, a cost that grows every turn. Composed:

1. The old master is opened by openpyxl with each earlier turn's tab replaced by a *stub*: the same sheet (name,
   place, view, first row, which tells a map tab's language) without its other rows, merged cells, validations or
   picture; so are the sheets the turn writes anew without reading them (the state tables, and the Ledger, written
   again from its hidden source sheet: store/master.sheets_written_anew). The rest (the hidden source sheets,
   Dice, History) loads as today.
2. The turn is written into that workbook exactly as today (``write_master`` in turn/pipeline.py), laid out and
   saved by XlsxWriter (:func:`adjudicator.outputs.fast_save.save_fast`).
3. Each stub still in the workbook, under its name and unchanged, is given back its old part
   (:func:`compose_master`): its cells' formats mapped into the new ``styles.xml`` (each old format found there, or
   appended once), its shared strings written inline (the old ``sharedStrings.xml`` is not kept), its view as the
   new workbook has it, its drawing, picture and charts copied with it, its print names put at its place.

A tab that the turn writes again (a change of the campaign's language: store/turn_tabs.rewrite_turn_tabs, the
maps redrawn) replaces its stub and is written by XlsxWriter like every new tab; a stub renamed or changed in
place cannot be composed. Whatever this module is not sure of (a master saved by another program, a part not in
XlsxWriter's form, conditional formats, a cell style of its own, …) raises :class:`CannotCompose`: the master is
then made today's way, and the run says so in its one line of workbooks made the slow way
(:func:`adjudicator.outputs.compose.note_slow_copies`). ``ADJUDICATOR_COMPOSE=0`` keeps today's way.
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.outputs.compose import STYLE_LISTS, XLSXWRITER_CELL, Styles, style_children
from adjudicator.outputs.xlsx_package import (
    CannotCompose,
    PartCopier,
    Theirs,
    content_types_xml,
    read_theirs,
    relation_xml,
    relationships_xml,
    rels_path,
    shared_strings,
    zip_parts,
)

#: ``ADJUDICATOR_COMPOSE=0``: the master made today's way (as checked copies and results).
COMPOSE_ENV = "ADJUDICATOR_COMPOSE"
#: The name of an earlier turn's tab: its turn.
TURN_TAB = re.compile(r"^T(\d+) ")
#: The file version XlsxWriter writes in workbook.xml: a master another program saved is not composed.
XLSXWRITER_FILE_VERSION = b'<fileVersion appName="xl" lastEdited="4" lowestEdited="4" rupBuild="4505"/>'
#: How XlsxWriter begins a worksheet part.
XLSXWRITER_SHEET = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet '
                    b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"')
_SHEET_DATA = re.compile(rb"<sheetData\b[^>]*?(/?)>")
_FIRST_ROW = re.compile(rb'<row r="1"[^>]*?(?:/>|>.*?</row>)', re.S)
_SHEET_VIEWS = re.compile(rb"<sheetViews\b.*?</sheetViews>", re.S)
_DEFINED_NAME = re.compile(rb"<definedName\b[^>]*>.*?</definedName>", re.S)
_LOCAL_SHEET = re.compile(rb'\slocalSheetId="(\d+)"')


@dataclass
class OldMaster:
    """The old master's parts, the earlier turns' tabs to keep (name: its worksheet part), and the sheets the
    turn writes anew without reading them (stubbed too: their cells are not loaded)."""

    theirs: Theirs
    kept: dict[str, str]
    anew: dict[str, str] = field(default_factory=dict)
    #: the stubs openpyxl loaded (name: the sheet object, its first cell's value), filled by :func:`open_stubbed`
    stubs: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    #: why no stub can be given its old part back (a first turn's master saved by another program), or None
    not_composable: str | None = None


def read_old_master(path: Path, turn: int, anew: Callable[[list[str]], list[str]] = lambda names: []) -> OldMaster:
    """The master at ``path`` as parts; its tabs of turns before ``turn`` are the ones kept; ``anew``: of the
    sheets' names, those the turn writes anew without reading them."""
    try:
        theirs = read_theirs(path.read_bytes())
    except (OSError, KeyError, zipfile.BadZipFile, SyntaxError) as error:
        raise CannotCompose(f"the old master: {error}") from None
    kept = {}
    for name, part, state in theirs.sheets:
        found = TURN_TAB.match(name)
        if found and int(found.group(1)) < turn and state == "visible":
            kept[name] = part
    parts = {name: part for name, part, _ in theirs.sheets}
    written = {name: parts[name] for name in anew(list(parts)) if name not in kept}
    try:
        if XLSXWRITER_FILE_VERSION not in theirs.parts.get("xl/workbook.xml", b"") or \
                "xl/styles.xml" not in theirs.parts:
            raise CannotCompose("the old master was saved by another program")
        for name, part in {**kept, **written}.items():
            if not theirs.parts.get(part, b"").startswith(XLSXWRITER_SHEET):
                raise CannotCompose(f"{name}: not in XlsxWriter's form")
    except CannotCompose as why:
        if kept:
            raise
        # nothing to keep (a campaign's first turn): its sheets written anew are stubbed all the same, to be
        # written again by the turn; should one stay a stub, the master is made today's way, nothing told
        return OldMaster(theirs, kept, written, not_composable=str(why))
    return OldMaster(theirs, kept, written)


def _stub(sheet: bytes) -> bytes:
    """A kept tab as openpyxl is given it: what precedes its cells (properties, view, widths), its first row."""
    data = _SHEET_DATA.search(sheet)
    if data is None:
        raise CannotCompose("a kept tab without its cells")
    first = b"" if data.group(1) else (_FIRST_ROW.match(sheet, data.end()) or _EMPTY).group(0)
    return sheet[:data.start()] + b"<sheetData>" + first + b"</sheetData></worksheet>"


_EMPTY = re.match(b"", b"")


def open_stubbed(old: OldMaster) -> Any:
    """The old master opened by openpyxl, each kept tab a stub (see the module's docstring)."""
    import openpyxl

    parts = dict(old.theirs.parts)
    for part in [*old.kept.values(), *old.anew.values()]:
        parts[part] = _stub(parts[part])
        parts.pop(rels_path(part), None)  # its drawing stays out of the reload
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    wb = openpyxl.load_workbook(buffer)
    old.stubs = {name: (wb[name], wb[name].cell(1, 1).value) for name in [*old.kept, *old.anew]}
    return wb


def still_kept(old: OldMaster, wb: Any) -> list[str]:
    """The stubs to be given their old parts: those the turn did not write again. A stub renamed or changed in
    place cannot be composed."""
    present = {id(ws) for ws in wb.worksheets}
    kept = []
    for name, (ws, first) in old.stubs.items():
        if id(ws) not in present:  # written again (another language): an XlsxWriter tab like the new ones
            continue
        if ws.title != name or ws.cell(1, 1).value != first or ws.max_row > 1:
            raise CannotCompose(f"{name}: a kept tab changed")
        kept.append(name)
    return kept


# ---------------------------------------------------------------------------------------------- styles
def _attribute(xf: bytes, name: bytes) -> int:
    found = re.search(rb"\s" + name + rb'="(\d+)"', xf.split(b">", 1)[0])
    return int(found.group(1)) if found else 0


_IDS = re.compile(rb'\s(numFmtId|fontId|fillId|borderId|xfId)="\d+"')


class StyleMap:
    """The old master's cell formats in the new ``styles.xml``: each found there by what it shows (number format,
    font, fill, border, alignment, protection), or appended once with what it needs."""

    def __init__(self, old: bytes, new: Styles) -> None:
        counted = Styles(old).counts
        self.old = {tag: style_children(old, tag) for tag in STYLE_LISTS}
        if any(len(self.old[tag]) != counted[tag] for tag in STYLE_LISTS):  # not XlsxWriter's plain lists
            raise CannotCompose("the old master's styles")
        self.new = new
        self.lists = {tag: style_children(new.data, tag) for tag in STYLE_LISTS}
        self.formats = {m.group(2): int(m.group(1)) for fmt in self.lists["numFmts"]
                        if (m := re.search(rb'numFmtId="(\d+)" formatCode="([^"]*)"', fmt))}
        self.old_formats = {int(m.group(1)): m.group(2) for fmt in self.old["numFmts"]
                            if (m := re.search(rb'numFmtId="(\d+)" formatCode="([^"]*)"', fmt))}
        self.found = {}
        for index, xf in enumerate(self.lists["cellXfs"]):
            if _attribute(xf, b"xfId") == 0:  # a format of a cell style (XlsxWriter's Hyperlink) is not matched
                self.found.setdefault(self._key(xf, self.lists, self._format_code(xf, self.formats)), index)
        self.mapped: dict[int, int] = {}

    @staticmethod
    def _format_code(xf: bytes, codes: dict[bytes, int]) -> bytes:
        number = _attribute(xf, b"numFmtId")
        by_number = {v: k for k, v in codes.items()}
        return by_number.get(number, b"%d" % number)

    @staticmethod
    def _key(xf: bytes, lists: dict[str, list[bytes]], code: bytes) -> tuple[bytes, ...]:
        if _attribute(xf, b"xfId") != 0:
            raise CannotCompose("a cell style of its own")
        try:
            return (code, lists["fonts"][_attribute(xf, b"fontId")], lists["fills"][_attribute(xf, b"fillId")],
                    lists["borders"][_attribute(xf, b"borderId")], _IDS.sub(b"", xf))
        except IndexError:
            raise CannotCompose("a cell format's font, fill or border") from None

    def _index(self, tag: str, item: bytes) -> int:
        """``item`` (a font, fill or border) in the new list: found, or appended."""
        mine = self.lists[tag]
        if item in mine:
            return mine.index(item)
        added = self.new.added[tag]
        if item not in added:
            added.append(item)
        return self.new.counts[tag] + added.index(item)

    def __call__(self, old_xf: int) -> int:
        """The new index of the old master's cell format ``old_xf``."""
        if old_xf in self.mapped:
            return self.mapped[old_xf]
        if not 0 <= old_xf < len(self.old["cellXfs"]):
            raise CannotCompose(f"cell format {old_xf}")
        xf = self.old["cellXfs"][old_xf]
        number = _attribute(xf, b"numFmtId")
        code = self.old_formats.get(number, b"%d" % number)
        key = self._key(xf, self.old, code)
        if key not in self.found:
            if number >= 164 and code not in self.formats:
                self.formats[code] = self.new.next_format
                self.new.added["numFmts"].append(b'<numFmt numFmtId="%d" formatCode="%s"/>'
                                                 % (self.new.next_format, code))
                self.new.next_format += 1
            ids = {b"numFmtId": self.formats[code] if number >= 164 else number,
                   b"fontId": self._index("fonts", key[1]), b"fillId": self._index("fills", key[2]),
                   b"borderId": self._index("borders", key[3]), b"xfId": 0}
            self.new.added["cellXfs"].append(
                re.sub(rb'\s(numFmtId|fontId|fillId|borderId|xfId)="\d+"',
                       lambda m: b' %s="%d"' % (m.group(1), ids[m.group(1)]), xf))
            self.found[key] = self.new.xf_offset + len(self.new.added["cellXfs"]) - 1
        self.mapped[old_xf] = self.found[key]
        return self.mapped[old_xf]


def _restyled(sheet: bytes, styles: StyleMap, strings: list[bytes]) -> bytes:
    """A kept tab's cells, rows and columns given their new formats, its shared strings written inline."""

    def cell(found: re.Match[bytes]) -> bytes:
        ref, xf, kind, rest = found.groups()
        head = b'<c r="%s" s="%d"' % (ref, styles(int(xf) if xf else 0))
        if kind == b' t="s"':
            value = re.fullmatch(rb"<v>(\d+)</v>", rest or b"")
            if value is None or int(value.group(1)) >= len(strings):
                raise CannotCompose("a shared string cell")
            return head + b' t="inlineStr"><is>' + strings[int(value.group(1))] + b"</is></c>"
        return head + (kind or b"") + (b"/>" if rest is None else b">" + rest + b"</c>")

    cells, count = XLSXWRITER_CELL.subn(cell, sheet)
    if count != sheet.count(b"<c "):
        raise CannotCompose("a kept tab's cells are not in XlsxWriter's form")
    cells = re.sub(rb'(<row\b[^>]*?\ss=")(\d+)"', lambda m: m.group(1) + b'%d"' % styles(int(m.group(2))), cells)
    return re.sub(rb'(<col\b[^>]*?\sstyle=")(\d+)"', lambda m: m.group(1) + b'%d"' % styles(int(m.group(2))), cells)


# ---------------------------------------------------------------------------------------------- compose
def _names(workbook: bytes, local: dict[int, int]) -> tuple[bytes, list[bytes]]:
    """``workbook`` without the defined names local to the sheets ``local`` names, and those names, each moved
    to the sheet index ``local`` gives it."""
    taken: list[bytes] = []

    def take(found: re.Match[bytes]) -> bytes:
        sheet = _LOCAL_SHEET.search(found.group(0))
        if sheet is None or int(sheet.group(1)) not in local:
            return found.group(0)
        taken.append(found.group(0)[:sheet.start()] + b' localSheetId="%d"' % local[int(sheet.group(1))]
                     + found.group(0)[sheet.end():])
        return b""

    return _DEFINED_NAME.sub(take, workbook), taken


def compose_master(old: OldMaster, new: bytes, kept: list[str]) -> bytes:
    """The master XlsxWriter wrote (``new``, holding a stub for each tab of ``kept``) with each of those tabs given
    back its old part: formats mapped, strings inline, the new view, its drawing copied, its print names."""
    if not kept:
        return new
    if old.not_composable is not None:
        raise CannotCompose(old.not_composable)
    theirs = read_theirs(new)
    new_part = {name: part for name, part, _ in theirs.sheets}
    new_index = {name: index for index, (name, _, _) in enumerate(theirs.sheets)}
    old_index = {name: index for index, (name, _, _) in enumerate(old.theirs.sheets)}
    if any(name not in new_part for name in kept):
        raise CannotCompose("a kept tab is not in the new master")
    styles = Styles(theirs.parts["xl/styles.xml"])
    mapping = StyleMap(old.theirs.parts["xl/styles.xml"], styles)
    old_strings = old.theirs.parts.get("xl/sharedStrings.xml")
    strings = shared_strings(old_strings)
    unique = re.search(rb'uniqueCount="(\d+)"', old_strings or b"")
    if old_strings is not None and (unique is None or int(unique.group(1)) != len(strings)):
        raise CannotCompose("the old master's shared strings")
    copier = PartCopier(old.theirs, theirs.parts)
    files = dict(theirs.parts)
    for name in kept:
        old_sheet, target = {**old.kept, **old.anew}[name], new_part[name]
        sheet = old.theirs.parts[old_sheet]
        if b"<conditionalFormatting" in sheet:
            raise CannotCompose(f"{name}: conditional formats")
        if rels_path(target) in files:
            raise CannotCompose(f"{name}: the stub has relations")
        views, stub_views = _SHEET_VIEWS.search(sheet), _SHEET_VIEWS.search(files[target])
        if views is None or stub_views is None:
            raise CannotCompose(f"{name}: no view")
        sheet = _restyled(sheet[:views.start()] + stub_views.group(0) + sheet[views.end():], mapping, strings)
        files[target] = sheet
        rows = [relation_xml(rel.id, rel.type, rel.target if rel.external else "/" + copier.copy(rel.part),
                          rel.external) for rel in old.theirs.relations(old_sheet)]
        if rows:
            files[rels_path(target)] = relationships_xml(rows)
    files["xl/styles.xml"] = styles.xml()
    workbook, _ = _names(files["xl/workbook.xml"], {new_index[name]: -1 for name in kept})  # the stubs' names
    _, names = _names(old.theirs.parts["xl/workbook.xml"], {old_index[name]: new_index[name] for name in kept})
    if names:
        block = re.search(rb"<definedNames>", workbook)
        if block is None:
            end = workbook.find(b"</sheets>") + len(b"</sheets>")
            workbook = workbook[:end] + b"<definedNames>" + b"".join(names) + b"</definedNames>" + workbook[end:]
        else:
            workbook = workbook[:block.end()] + b"".join(names) + workbook[block.end():]
    workbook = workbook.replace(b"<definedNames></definedNames>", b"")
    files["xl/workbook.xml"] = workbook
    files.update(copier.out)
    files.pop("[Content_Types].xml")
    types = {**theirs.overrides, **copier.types}
    return zip_parts({"[Content_Types].xml": content_types_xml(types, {**theirs.defaults, **copier.defaults}), **files})


# ------------------------------------------------------------------------------------------------ write
def write_master_file(base: Path, turn: int, build: Callable[[Any], Any], target: Path,
                      anew: Callable[[list[str]], list[str]],
                      save_today: Callable[[Any, Path], Any]) -> tuple[Any, str | None]:
    """campaign.xlsx of the next turn at ``target``: ``build(wb)`` writes the turn into the old master ``base``
    opened (the turn's tabs streamed; the sheets ``anew`` names stubbed), its answer returned with why the master
    was made today's way, ``save_today`` (fast_save.atomic_save_fast) saving it then (None when it was composed, or
    when today's way was asked for, ``ADJUDICATOR_COMPOSE=0``, or nothing was to be kept). A first turn's
    master keeps no tab, but its state tables are stubbed all the same: they are written anew, never read."""
    from adjudicator.outputs.streamed import stream_new_tabs
    from adjudicator.store.master import open_master

    slow_way = None
    if os.environ.get(COMPOSE_ENV) != "0":
        old = None
        try:
            old = read_old_master(base, turn, anew)
            if old.kept or old.anew:  # a first turn too: its state tables are written anew, not read
                wb = stream_new_tabs(open_stubbed(old))
                answer = build(wb)
                save_composed(old, wb, target)
                return answer, None
        except Exception as error:  # noqa: BLE001 - CannotCompose, or anything unforeseen: today's way
            if old is None or old.kept:  # a first turn's master made today's way is nothing to tell
                slow_way = str(error) or type(error).__name__
    wb = stream_new_tabs(open_master(base))
    answer = build(wb)
    save_today(wb, target)
    return answer, slow_way


def save_composed(old: OldMaster, wb: Any, target: Path) -> None:
    """``wb`` (the old master opened with stubs, the turn written in) laid out, written by XlsxWriter, its kept
    tabs given their old parts (:func:`compose_master`), and saved atomically at ``target``."""
    from adjudicator.outputs import layout
    from adjudicator.outputs.fast_save import Untranslatable, save_fast
    from adjudicator.outputs.writing import _atomic

    layout.lay_out(wb)
    kept = still_kept(old, wb)
    buffer = io.BytesIO()
    try:
        save_fast(wb, buffer, deflated=not kept)  # with tabs kept, taken apart at once: its parts stored
    except Untranslatable as error:
        raise CannotCompose(str(error)) from None
    data = compose_master(old, buffer.getvalue(), kept)
    _atomic(target, lambda temporary: Path(temporary).write_bytes(data))
