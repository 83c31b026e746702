"""A corpus of hostile and broken order workbooks, made at test time from a genuine one.

``python -m tests.hostile.make_corpus FOLDER`` writes a small star_sectors campaign into
``FOLDER/campaign`` and every case of :data:`CASES` into ``FOLDER/corpus``, and prints each file
with the outcome ``check`` must give it. Nothing here is a committed binary: each file is built from
the campaign's own order workbook by editing its XML, or written byte by byte (the password-protected
and old Excel files are minimal OLE compound files), so what each case holds can be read below.
"""

from __future__ import annotations

import io
import re
import shutil
import struct
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl
from openpyxl.utils import get_column_letter

from adjudicator.engine.sheets import Kind
from adjudicator.intake.identity import META_SHEET
from adjudicator.intake.names import LOOK_ALIKES
from adjudicator.outputs.templates import build_order_workbook
from adjudicator.outputs.writing import atomic_save
from adjudicator.turn import pipeline
from tests.helpers import make_campaign, scenario

ORDERS = "Orders"
GOOD_ROWS = [{"order": "MOVE", "square": "A1", "to": "A2", "amount": 30}]


@dataclass(frozen=True)
class Case:
    """One hostile file: how it is made, and what ``check`` must say of it."""

    name: str  # the file name in the corpus
    make: Callable[[Path, Path], None]  # (genuine workbook, target)
    exit: int  # the exit status of `check`
    code: str | None = None  # a problem code that must be reported (None: no error at all)
    sheet: str | None = None
    cell: str | None = None
    also: tuple[str, ...] = ()  # other files checked with it (duplicates)


# ------------------------------------------------------------------------------ zip surgery
def _parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def _write(target: Path, parts: dict[str, bytes], level: int = 6) -> None:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)


def sheet_part(parts: dict[str, bytes], sheet: str) -> str:
    """The zip member of the worksheet named ``sheet`` (through workbook.xml and its relationships)."""
    book = parts["xl/workbook.xml"].decode()
    rid = re.search(rf'<sheet [^>]*name="{re.escape(sheet)}"[^>]*r:id="([^"]+)"', book).group(1)
    rels = parts["xl/_rels/workbook.xml.rels"].decode()
    target = re.search(rf'<Relationship [^>]*Id="{rid}"[^>]*Target="([^"]+)"', rels) or re.search(
        rf'<Relationship [^>]*Target="([^"]+)"[^>]*Id="{rid}"', rels)
    return "xl/" + target.group(1).lstrip("/").removeprefix("xl/")


def edit_sheet(sheet: str, edit: Callable[[str], str]) -> Callable[[Path, Path], None]:
    def make(genuine: Path, target: Path) -> None:
        parts = _parts(genuine)
        name = sheet_part(parts, sheet)
        parts[name] = edit(parts[name].decode()).encode()
        _write(target, parts)

    return make


def _before_sheetdata_end(xml: str, extra: str) -> str:
    return xml.replace("</sheetData>", extra + "</sheetData>", 1)


def _cell(xml: str, ref: str, replacement: str) -> str:
    """Replace the cell ``ref`` (or add it to its row) with ``replacement``."""
    pattern = re.compile(rf'<c r="{ref}"[^>]*?(/>|>.*?</c>)', re.S)
    if pattern.search(xml):
        return pattern.sub(replacement, xml, count=1)
    row = int(re.sub(r"\D", "", ref))
    return re.sub(rf'(<row r="{row}"[^>]*>)', lambda m: m.group(1) + replacement, xml, count=1)


def with_openpyxl(edit: Callable[[openpyxl.Workbook], None], keep_vba: bool = False) -> Callable[[Path, Path], None]:
    def make(genuine: Path, target: Path) -> None:
        wb = openpyxl.load_workbook(genuine)
        edit(wb)
        wb.save(target)

    return make


def copy_as_is(genuine: Path, target: Path) -> None:
    shutil.copyfile(genuine, target)


# ------------------------------------------------------------------------------ OLE files
def ole_file(streams: dict[str, bytes]) -> bytes:
    """A minimal OLE compound file (version 3, 512-byte sectors) holding ``streams`` (each padded to
    4096 bytes, so that none lives in the mini stream): what an encrypted .xlsx or an old .xls is."""
    end, free, fat_sector, nostream = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD, 0xFFFFFFFF
    names = list(streams)
    fat = [fat_sector, end]  # sector 0: the FAT; sector 1: the directory
    starts = []
    for _ in names:
        starts.append(len(fat))
        fat += list(range(len(fat) + 1, len(fat) + 8)) + [end]
    fat += [free] * (128 - len(fat))
    header = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 16 + struct.pack(
        "<HHHHH6sIIIIIIIII", 0x3E, 3, 0xFFFE, 9, 6, b"\0" * 6, 0, 1, 1, 0, 4096, end, 0, end, 0)
    header += struct.pack("<I", 0) + struct.pack("<I", free) * 108

    def entry(name: str, kind: int, child: int, right: int, start: int, size: int) -> bytes:
        encoded = name.encode("utf-16-le") + b"\0\0"
        return (encoded.ljust(64, b"\0") + struct.pack("<HBBIII", len(encoded), kind, 1, nostream, right, child)
                + b"\0" * 16 + b"\0" * 4 + b"\0" * 16 + struct.pack("<IQ", start, size))

    directory = entry("Root Entry", 5, 1, nostream, end, 0)
    for index, name in enumerate(names):
        right = index + 2 if index + 1 < len(names) else nostream
        directory += entry(name, 2, nostream, right, starts[index], 4096)
    directory = directory.ljust(512, b"\0")
    body = b"".join(streams[n][:4096].ljust(4096, b"\0") for n in names)
    return header + struct.pack("<128I", *fat) + directory + body


def write_bytes(data: bytes | Callable[[], bytes]) -> Callable[[Path, Path], None]:
    def make(genuine: Path, target: Path) -> None:
        target.write_bytes(data() if callable(data) else data)

    return make


# ------------------------------------------------------------------------------ the cases
def _many_rows(count: int) -> Callable[[str], str]:
    def edit(xml: str) -> str:
        rows = "".join(f'<row r="{r}"><c r="A{r}" t="inlineStr"><is><t>MOVE</t></is></c></row>'
                       for r in range(300, 300 + count))
        xml = re.sub(r"<dimension [^>]*/>", "", xml)
        return _before_sheetdata_end(xml, rows)

    return edit


def _unknown_headers(count: int) -> Callable[[str], str]:
    def edit(xml: str) -> str:
        from adjudicator.intake.bounds import column_letters

        cells = "".join(f'<c r="{column_letters(c)}1" t="inlineStr"><is><t>Note {c}</t></is></c>'
                        for c in range(30, 30 + count))
        xml = re.sub(r"<dimension [^>]*/>", "", xml)
        return re.sub(r'(<row r="1"[^>]*>.*?)(</row>)', lambda m: m.group(1) + cells + m.group(2), xml, count=1,
                      flags=re.S)

    return edit


def _text_heavy(genuine: Path, target: Path) -> None:
    parts = _parts(genuine)
    name = sheet_part(parts, ORDERS)
    words = "".join(f"word{n} " for n in range(2_000))[:9_000]  # under the limit of one cell (10,000)…
    cells = "".join(f'<row r="{r}"><c r="H{r}" t="inlineStr"><is><t>{words}</t></is></c></row>'
                    for r in range(300, 1_000))  # …but 700 of them pass the workbook's 5,000,000 at H849
    parts[name] = _before_sheetdata_end(re.sub(r"<dimension [^>]*/>", "", parts[name].decode()), cells).encode()
    _write(target, parts)


def _padded_sheet(megabytes: int, sheets: int = 1, padding: int = 0) -> Callable[[Path, Path], None]:
    """The order sheet followed by ``megabytes`` MB of rows (a block of 10,000 rows, written again and
    again, streamed into the zip), spread over ``sheets`` sheets (the order sheet and hidden ones after
    it): a file of a few MB that unpacks to far more, within the ratio limit. ``padding`` spaces after
    each row make the XML more compressible (48: about 10 to 1, the issue's 19 MB file unpacking to
    185 MB)."""

    def make(genuine: Path, target: Path) -> None:
        parts = _parts(genuine)
        name = sheet_part(parts, ORDERS)
        head, _, tail = re.sub(r"<dimension [^>]*/>", "", parts[name].decode()).partition("</sheetData>")
        block = "".join(f'<row r="{r}"><c r="B{r}"><v>{r % 97}</v></c><c r="C{r}"><v>1</v></c>'
                        f"</row>{' ' * padding}" for r in range(300, 10_300)).encode()
        extra = [f"xl/worksheets/padding{n}.xml" for n in range(1, sheets)]
        if extra:
            _add_sheets(parts, extra)
        share = megabytes * 2**20 // sheets
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
            for part, data in parts.items():
                if part != name:
                    archive.writestr(part, data)
            for part, start in ((name, head), *((p, _EMPTY_SHEET) for p in extra)):
                with archive.open(part, "w", force_zip64=True) as stream:
                    stream.write(start.encode())
                    for _ in range(-(-share // len(block))):
                        stream.write(block)
                    stream.write(("</sheetData>" + (tail if part == name else "</worksheet>")).encode())

    return make


_EMPTY_SHEET = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet '
                'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>')


def _add_sheets(parts: dict[str, bytes], members: list[str]) -> None:
    """Register hidden worksheets ``members`` (their XML is written by the caller) in the workbook."""
    types, rels, book = (parts[k].decode() for k in ("[Content_Types].xml", "xl/_rels/workbook.xml.rels",
                                                      "xl/workbook.xml"))
    for number, member in enumerate(members, start=1):
        types = types.replace("</Types>", f'<Override PartName="/{member}" ContentType="application/'
                              'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')
        rels = rels.replace("</Relationships>", f'<Relationship Id="rIdPad{number}" Type="http://schemas.'
                            'openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="'
                            f'{member.removeprefix("xl/")}"/></Relationships>')
        book = book.replace("</sheets>", f'<sheet name="Padding {number}" sheetId="{900 + number}" '
                            f'state="hidden" r:id="rIdPad{number}"/></sheets>')
    parts["[Content_Types].xml"], parts["xl/_rels/workbook.xml.rels"], parts["xl/workbook.xml"] = (
        types.encode(), rels.encode(), book.encode())


def _identity(row: int, value: object) -> Callable[[openpyxl.Workbook], None]:
    def edit(wb: openpyxl.Workbook) -> None:
        wb[META_SHEET].cell(row=row, column=2).value = value

    return edit


def _merged(wb: openpyxl.Workbook) -> None:
    ws = wb[ORDERS]
    ws["D2"] = None
    ws.merge_cells("C2:D2")  # the amount, which a MOVE needs, is now part of a merged cell


def _header_cleared(wb: openpyxl.Workbook) -> None:
    ws = wb[ORDERS]
    for cell in ws[1]:
        cell.value = None


def _header_moved(wb: openpyxl.Workbook) -> None:
    ws = wb[ORDERS]
    ws.insert_rows(1, 20)  # the header is now row 21, past where headers are looked for


def _macro_sheet(genuine: Path, target: Path) -> None:
    parts = _parts(genuine)
    parts["xl/macrosheets/sheet1.xml"] = (
        b'<?xml version="1.0" encoding="UTF-8"?><xm:macrosheet xmlns="http://schemas.openxmlformats.org/'
        b'spreadsheetml/2006/main" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main"><sheetData>'
        b'<row r="1"><c r="A1" t="str"><f>EXEC("calc.exe")</f><v>0</v></c></row><row r="2"><c r="A2"><f>HALT()'
        b"</f></c></row></sheetData></xm:macrosheet>")
    types = parts["[Content_Types].xml"].decode().replace(
        "</Types>", '<Override PartName="/xl/macrosheets/sheet1.xml" ContentType="application/'
        'vnd.ms-excel.macrosheet+xml"/></Types>')
    parts["[Content_Types].xml"] = types.encode()
    rels = parts["xl/_rels/workbook.xml.rels"].decode().replace(
        "</Relationships>", '<Relationship Id="rIdXlm" Type="http://schemas.microsoft.com/office/2006/'
        'relationships/xlMacrosheet" Target="macrosheets/sheet1.xml"/></Relationships>')
    parts["xl/_rels/workbook.xml.rels"] = rels.encode()
    book = parts["xl/workbook.xml"].decode().replace(
        "</sheets>", '<sheet name="Auto_Open" sheetId="99" state="hidden" r:id="rIdXlm"/></sheets>')
    parts["xl/workbook.xml"] = book.encode()
    _write(target, parts)


def _vba(genuine: Path, target: Path) -> None:
    parts = _parts(genuine)
    parts["xl/vbaProject.bin"] = ole_file({"VBA": b"Attribute VB_Name = \"Module1\"\nSub AutoOpen()\nEnd Sub\n"})
    _write(target, parts)


def _bomb(genuine: Path, target: Path) -> None:
    parts = _parts(genuine)
    parts["xl/media/padding.bin"] = b"\0" * (50 * 2**20)  # 50 MB of zeros, ~50 KB packed: the ratio is refused
    _write(target, parts, level=9)


def _billion_laughs(genuine: Path, target: Path) -> None:
    parts = _parts(genuine)
    name = sheet_part(parts, ORDERS)
    lol = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10))
    dtd = f'<!DOCTYPE worksheet [<!ENTITY lol0 "lol">{lol}]>'
    xml = parts[name].decode()
    xml = xml.replace("<worksheet", dtd + "<worksheet", 1)
    parts[name] = _cell(xml, "H2", '<c r="H2" t="inlineStr"><is><t>&lol9;</t></is></c>').encode()
    _write(target, parts)


def _xxe(genuine: Path, target: Path) -> None:
    parts = _parts(genuine)
    name = "xl/sharedStrings.xml" if "xl/sharedStrings.xml" in parts else sheet_part(parts, ORDERS)
    xml = parts[name].decode()
    head, _, rest = xml.partition("?>")
    dtd = '<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
    xml = (head + "?>" + dtd + rest) if rest else dtd + xml
    parts[name] = re.sub(r"<t>([^<]*)</t>", r"<t>&xxe;</t>", xml, count=1).encode()
    _write(target, parts)


def _zip_encrypted_flag(genuine: Path, target: Path) -> None:
    data = bytearray(genuine.read_bytes())
    for match in re.finditer(rb"PK\x01\x02", bytes(data)):  # central directory: set "encrypted" on every part
        data[match.start() + 8] |= 0x1
    target.write_bytes(bytes(data))


def _ods(content_body: str, manifest_extra: str = "") -> Callable[[Path, Path], None]:
    def make(genuine: Path, target: Path) -> None:
        content = (
            '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
            'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
            'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
            'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body>'
            f"<office:spreadsheet>{content_body}</office:spreadsheet></office:body></office:document-content>")
        manifest = (
            '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
            'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
            '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.'
            'spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">'
            f"{manifest_extra}</manifest:file-entry></manifest:manifest>")
        with zipfile.ZipFile(target, "w") as archive:
            archive.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
            archive.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
            archive.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)

    return make


ODS_TALL = ('<table:table table:name="Orders"><table:table-row table:number-rows-repeated="1048575">'
            '<table:table-cell table:number-columns-repeated="16384" office:value-type="float" office:value="1">'
            "<text:p>1</text:p></table:table-cell></table:table-row></table:table>")
ODS_ENCRYPTED = ('<manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x">'
                 '<manifest:algorithm manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="x"/>'
                 '<manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:iteration-count="1024" '
                 'manifest:salt="x"/></manifest:encryption-data>')

ESCAPES = "_x001B_]0;owned_x0007__x001B_[2J"


CASES: list[Case] = [
    Case("genuine.xlsx", copy_as_is, 0),
    # Bounds that hold before any parse
    Case("cell_at_xfd1048576.xlsx", edit_sheet(ORDERS, lambda x: _before_sheetdata_end(
        x, '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>')), 1, "F18", ORDERS, "A1048576"),
    Case("cell_at_xfd1.xlsx", edit_sheet(ORDERS, lambda x: _cell(x, "XFD1", '<c r="XFD1"><v>1</v></c>')), 1,
         "F18", ORDERS, "XFD1"),
    Case("dimension_claims_everything.xlsx", edit_sheet(ORDERS, lambda x: re.sub(
        r"<dimension [^>]*/>", '<dimension ref="A1:XFD1048576"/>', x)), 1, "F18", ORDERS, "XFD1048576"),
    Case("rows_200000.xlsx", edit_sheet(ORDERS, _many_rows(200_000)), 1, "F18", ORDERS, "A5001"),
    Case("unknown_headers_16000.xlsx", edit_sheet(ORDERS, _unknown_headers(16_000)), 1, "F18", ORDERS, "GS1"),
    Case("unknown_headers_30.xlsx", edit_sheet(ORDERS, _unknown_headers(30)), 0, None),
    Case("unpacks_to_125mb.xlsx", _padded_sheet(125), 1, "F02"),  # 19 MB: under the old limits
    # The case: 19 MB unpacking to 185 MB, under the 20 and 200 MB limits. In one sheet, that part is
    # past the 50 MB a part may unpack to (F02); in four sheets of 46 MB, each within it, the survey stops at
    # the order sheet's row 5001 (F18), having read 5,000 rows of it: nothing grows with the file's claim.
    Case("unpacks_to_185mb_one_sheet.xlsx", _padded_sheet(185, padding=48), 1, "F02"),
    Case("unpacks_to_185mb_four_sheets.xlsx", _padded_sheet(185, sheets=4, padding=48), 1, "F18", ORDERS,
         "A5001"),
    Case("sheet_of_45mb.xlsx", _padded_sheet(45), 1, "F18", ORDERS, "A5001"),
    Case("text_heavy.xlsx", _text_heavy, 1, "F19", ORDERS, "H849"),
    Case("text_too_long.xlsx", edit_sheet(ORDERS, lambda x: _cell(
        x, "K2", f'<c r="K2" t="inlineStr"><is><t>{"x" * 10_001}</t></is></c>')), 1, "F19", ORDERS, "K2"),
    Case("ods_repeated_everywhere.ods", _ods(ODS_TALL), 1, "F18", ORDERS, "A1"),
    # Every cell a rule reads parses or is a problem at its cell
    Case("error_div0.xlsx", edit_sheet(ORDERS, lambda x: _cell(
        x, "D2", '<c r="D2" t="e"><f>1/0</f><v>#DIV/0!</v></c>')), 1, "C05", ORDERS, "D2"),
    Case("error_na.xlsx", edit_sheet(ORDERS, lambda x: _cell(x, "C2", '<c r="C2" t="e"><v>#N/A</v></c>')), 1,
         "C05", ORDERS, "C2"),
    Case("nan_amount.xlsx", edit_sheet(ORDERS, lambda x: _cell(x, "D2", '<c r="D2"><v>NaN</v></c>')), 1,
         "C05", ORDERS, "D2"),
    Case("inf_amount.xlsx", edit_sheet(ORDERS, lambda x: _cell(x, "D2", '<c r="D2"><v>inf</v></c>')), 1,
         "C05", ORDERS, "D2"),
    Case("fraction_amount.xlsx", with_openpyxl(lambda wb: wb[ORDERS].__setitem__("D2", 3.9)), 1, "C01", ORDERS,
         "D2"),
    Case("identity_turn_fraction.xlsx", with_openpyxl(_identity(4, 1.9)), 1, "F07"),
    Case("identity_turn_inf.xlsx", with_openpyxl(_identity(4, float("inf"))), 1, "F07"),
    Case("identity_version_nan.xlsx", with_openpyxl(_identity(5, float("nan"))), 1, "F07"),
    Case("header_cleared.xlsx", with_openpyxl(_header_cleared), 1, "F05", ORDERS, "A1"),
    Case("header_moved_down.xlsx", with_openpyxl(_header_moved), 1, "F05", ORDERS, "A1"),
    Case("merged_cells.xlsx", with_openpyxl(_merged), 1, "C03", ORDERS, "D2"),
    # Text that must reach a person as text
    Case("escapes_in_a_header.xlsx", edit_sheet(ORDERS, lambda x: _cell(
        x, "K1", f'<c r="K1" t="inlineStr"><is><t>{ESCAPES}</t></is></c>')), 0, "F06", ORDERS, "K1"),
    Case("markup_in_a_header.xlsx", edit_sheet(ORDERS, lambda x: _cell(
        x, "K1", '<c r="K1" t="inlineStr"><is><t>[/] [bold red]fake[/bold red]</t></is></c>')), 0, "F06", ORDERS,
        "K1"),
    Case("[red]evil.xlsx", copy_as_is, 0),
    Case("odd_sheet_name.ods", _ods('<table:table table:name="\u202e[red]sld\u200b"><table:table-row>'
                                    '<table:table-cell office:value-type="string"><text:p>x</text:p>'
                                    "</table:table-cell></table:table-row></table:table>"), 1, "F07"),
    Case("formula_injection.xlsx", with_openpyxl(lambda wb: wb[ORDERS].__setitem__(
        "K1", '=HYPERLINK("http://example.invalid","click")')), 0, None),
    # Precise refusals
    Case("password.xlsx", write_bytes(lambda: ole_file({"EncryptionInfo": b"\x04\x00\x04\x00\x40",
                                                        "EncryptedPackage": b"\x10" * 64})), 1, "F15"),
    Case("password.ods", _ods("", ODS_ENCRYPTED), 1, "F15"),
    Case("zip_encrypted_flag.xlsx", _zip_encrypted_flag, 1, "F15"),
    Case("old_excel.xls", write_bytes(lambda: ole_file({"Workbook": b"\x09\x08\x10\x00\x00\x06\x05\x00"})), 1,
         "F16"),
    Case("old_excel_renamed.xlsx", write_bytes(lambda: ole_file({"Workbook": b"\x09\x08\x10\x00"})), 1, "F16"),
    Case("csv_renamed.xlsx", write_bytes(b"order;square;to;amount\nMOVE;A1;A2;30\n"), 1, "F17"),
    Case("xlm_macro_sheet.xlsm", _macro_sheet, 0, "F14"),
    Case("vba_macros.xlsm", _vba, 0, "F14"),
    Case("empty.xlsx", write_bytes(b""), 1, "F01"),
    Case("not_a_workbook.zip.xlsx", write_bytes(lambda: _zip_of({"hello.txt": b"hello"})), 1, "F01"),
    Case("zip_bomb.xlsx", _bomb, 1, "F02"),
    Case("billion_laughs.xlsx", _billion_laughs, 1, "F01"),
    Case("xxe.xlsx", _xxe, 1, "F01"),
    # Identity, types, duplicates, confusables (already held)
    Case("wrong_type.xlsx", with_openpyxl(lambda wb: wb[ORDERS].__setitem__("D2", "forty")), 1, "C01", ORDERS,
         "D2"),
    Case("forged_faction.xlsx", with_openpyxl(_identity(3, "BETA")), 1, "F10"),
    # A Cyrillic "А1" is read as the square A1, with a warning saying so (N01); an unknown square is still E01
    Case("confusable_square.xlsx", with_openpyxl(lambda wb: wb[ORDERS].__setitem__("B2", "\u04101")), 0, "N01",
         ORDERS, "B2"),
    Case("unknown_square.xlsx", with_openpyxl(lambda wb: wb[ORDERS].__setitem__("B2", "\u04169")), 1, "E01",
         ORDERS, "B2"),
    Case("duplicate_a.xlsx", copy_as_is, 1, "F12", also=("duplicate_b.xlsx",)),
]


def _zip_of(parts: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def make_corpus_campaign(root: Path) -> Path:
    """A star_sectors campaign of two factions; ALPHA has a fleet of 80 in A1."""
    return make_campaign(root, scenario({"ALPHA": 100, "BETA": 100}, [("ALPHA", "A1", 80), ("BETA", "D4", 90)]))


def genuine_workbook(campaign_root: Path, target: Path) -> Path:
    _, campaign, ruleset = pipeline.open_campaign(campaign_root)
    atomic_save(build_order_workbook(ruleset, campaign, "ALPHA", {"orders": GOOD_ROWS}), target)
    return target


def make_corpus(folder: Path) -> tuple[Path, dict[str, Case]]:
    """The campaign and every case's file; returns the campaign's folder and the cases by file name."""
    campaign = make_corpus_campaign(folder / "campaign")
    corpus = folder / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    genuine = genuine_workbook(campaign, folder / "genuine-source.xlsx")
    for case in CASES:
        case.make(genuine, corpus / case.name)
        for other in case.also:
            shutil.copyfile(genuine, corpus / other)
    return campaign, {case.name: case for case in CASES}


if __name__ == "__main__":  # pragma: no cover - a tool for looking at the corpus by hand
    root, cases = make_corpus(Path(sys.argv[1]))
    for name, case in cases.items():
        print(f"{name}\texit {case.exit}\t{case.code or '-'}\t{case.sheet or ''}\t{case.cell or ''}")


# ------------------------------------------------------------------------------ every ruleset
# The same categories on each ruleset's own example campaign (its language, its order sheets, its columns):
# a header row cleared or moved on every order sheet, wrong types, fractions, error values, NaN and infinities in
# every column read as a number or a choice, a merged cell over a problem cell, a confusable letter in a name,
# forged identity, duplicates, escapes in a header, and the sheet bounds. Each case names the sheet as the
# workbook spells it (the faction's language) and the cell where the problem must be reported.
#: The faction whose workbook each ruleset's corpus is made from (one with rows on its order sheets).
FACTIONS = {"star_sectors": "ALPHA", "galactic_war": "ALPHA", "inner_sphere": "KURITA", "coordinated_orders": "JSA"}
NUMERIC = (Kind.INT, Kind.INT_OR_ALL)  # whole numbers: a fraction is refused
#: Latin letters and the Cyrillic letter drawn like each.
CONFUSABLE = {latin: chr(cyrillic) for cyrillic, latin in LOOK_ALIKES.items() if chr(cyrillic).isupper()}


@dataclass
class Corpus:
    """One ruleset's campaign, the genuine workbook its cases are made from, and the cases."""

    ruleset: str
    faction: str
    campaign: Path
    turn: int
    language: str
    genuine: Path
    cases: list[Case]
    folder: Path | None = None  # where the files are (filled by make_corpora)


def _set(sheet: str, cell: str, value: object) -> Callable[[openpyxl.Workbook], None]:
    def edit(wb: openpyxl.Workbook) -> None:
        wb[sheet][cell] = value

    return edit


def _clear_header(sheet: str) -> Callable[[openpyxl.Workbook], None]:
    def edit(wb: openpyxl.Workbook) -> None:
        for cell in wb[sheet][1]:  # every template has its header in row 1 (make_ruleset_corpus asserts it)
            cell.value = None

    return edit


def _move_header(sheet: str) -> Callable[[openpyxl.Workbook], None]:
    def edit(wb: openpyxl.Workbook) -> None:
        wb[sheet].insert_rows(1, 20)  # past the rows where a header is looked for

    return edit


def _merge_over(sheet: str, first: str, last: str, value: object = None) -> Callable[[openpyxl.Workbook], None]:
    """``first:last`` merged; ``value`` (unless None) in the top-left cell; the other cells' values are lost."""
    def edit(wb: openpyxl.Workbook) -> None:
        ws = wb[sheet]
        if value is not None:
            ws[first] = value
        ws.merge_cells(f"{first}:{last}")

    return edit


def _xml_cell(sheet: str, ref: str, xml_cell: str) -> Callable[[Path, Path], None]:
    return edit_sheet(sheet, lambda x: _cell(x, ref, xml_cell))


def _confusable(value: object) -> str | None:
    text = str(value or "")
    for index, ch in enumerate(text):
        if ch in CONFUSABLE:
            return text[:index] + CONFUSABLE[ch] + text[index + 1:]
    return None


def _passing_rows(ruleset: Any, campaign: Any, faction: str, sheets: dict[str, list[dict[str, Any]]],
                  work: Path) -> dict[str, list[dict[str, Any]]]:
    """The faction's example rows without those check rejects (again, until none is: a row may lean on
    another)."""
    from adjudicator.intake.submissions import load_submission

    lang = campaign.factions[faction].language
    rows = {k: [dict(r) for r in v] for k, v in sheets.items()}
    for _ in range(4):
        path = work / f"passing-{faction}.xlsx"
        atomic_save(build_order_workbook(ruleset, campaign, faction, rows), path)
        problems = load_submission(path, campaign, ruleset).problems
        bad = {(p.sheet, p.row) for p in problems.errors}
        if not bad:
            return rows
        rows = {s.key: [r for i, r in enumerate(rows.get(s.key, [])) if (s.title_in(lang), i + 2) not in bad]
                for s in ruleset.order_schemas}
    raise AssertionError(f"{ruleset.name}: the example rows of {faction} do not settle to rows that pass")


def ruleset_cases(ruleset: Any, campaign: Any, faction: str, rows: dict[str, list[dict[str, Any]]],
                  subset: bool = False) -> list[Case]:
    """Every case of one ruleset, from its schemas and the genuine rows (``subset``: a few representative
    ones, for the quick suite)."""
    lang = campaign.factions[faction].language
    others = sorted(set(campaign.factions) - {faction})
    cases: list[Case] = [Case("genuine.xlsx", copy_as_is, 0)]
    quick: list[Case] = list(cases)
    for number, schema in enumerate(ruleset.order_schemas):
        title = schema.title_in(lang)
        key = schema.key
        letters = {c.key: get_column_letter(i + 1) for i, c in enumerate(schema.columns)}
        has_rows = bool(rows.get(key))
        needs_header = has_rows or any(c.required for c in schema.columns)
        if needs_header:  # a sheet without rows nor required columns loses nothing with its header
            cleared = Case(f"{key}_header_cleared.xlsx", with_openpyxl(_clear_header(title)), 1, "F05", title, "A1")
            cases += [cleared, Case(f"{key}_header_moved.xlsx", with_openpyxl(_move_header(title)), 1, "F05",
                                    title, "A1")]
            if number == 0:
                quick.append(cleared)
        readable = [c for c in schema.columns if not c.computed]
        numeric = [c for c in readable if c.kind in NUMERIC]
        choice = [c for c in readable if c.kind is Kind.CHOICE]
        for column in numeric:  # every column read as a whole number: text, and a fraction
            cell = f"{letters[column.key]}2"
            cases += [
                Case(f"{key}_{column.key}_wrong_type.xlsx", with_openpyxl(_set(title, cell, "сорок forty")), 1,
                     "C01", title, cell),
                Case(f"{key}_{column.key}_fraction.xlsx", with_openpyxl(_set(title, cell, 3.9)), 1, "C01", title,
                     cell),
            ]
        for column in choice:
            cell = f"{letters[column.key]}2"
            cases.append(Case(f"{key}_{column.key}_wrong_choice.xlsx", with_openpyxl(_set(title, cell, "сорок")), 1,
                              "C02", title, cell))
        if numeric:  # NaN and infinities where a number is read (one column of each sheet)
            cell = f"{letters[numeric[0].key]}2"
            cases += [
                Case(f"{key}_{numeric[0].key}_nan.xlsx", _xml_cell(title, cell, f'<c r="{cell}"><v>NaN</v></c>'), 1,
                     "C05", title, cell),
                Case(f"{key}_{numeric[0].key}_inf.xlsx", _xml_cell(title, cell, f'<c r="{cell}"><v>-inf</v></c>'), 1,
                     "C05", title, cell),
            ]
        # error values where a number, a choice or (on a sheet of text) the first column is read
        targets = (numeric[:1] + choice[:1]) or ([readable[0]] if has_rows else [])
        for column, error in zip(targets, ('<f>1/0</f><v>#DIV/0!</v>', "<v>#N/A</v>"), strict=False):
            cell = f"{letters[column.key]}2"
            cases.append(Case(f"{key}_{column.key}_error.xlsx", _xml_cell(title, cell, f'<c r="{cell}" t="e">{error}'
                                                                          "</c>"), 1, "C05", title, cell))
        if numeric and readable[-1] is not numeric[-1]:  # merged over a wrong number, marked at its top-left
            column = numeric[0]
            first = f"{letters[column.key]}2"
            last = f"{get_column_letter(schema.columns.index(column) + 2)}2"
            merged = Case(f"{key}_merged_over_wrong_type.xlsx", with_openpyxl(_merge_over(title, first, last, "x")),
                          1, "C01", title, first)
            cases.append(merged)
            if not any(c.name.endswith("merged_over_wrong_type.xlsx") for c in quick):
                quick.append(merged)
        required = [c for c in schema.columns[1:] if c.required and not c.computed]
        if required and has_rows:  # merged from its left neighbour: the required cell reads empty
            column = required[0]
            position = schema.columns.index(column)
            last = f"{letters[column.key]}2"
            first = f"{get_column_letter(position)}2"
            cases.append(Case(f"{key}_merged_over_required.xlsx", with_openpyxl(_merge_over(title, first, last)), 1,
                              "C03", title, last))
        choices = ruleset.choice_lists(campaign, faction, campaign.factions[faction].language)
        for position, row in enumerate(rows.get(key, [])):
            found = next(((k, v2) for k, v in row.items()  # a legal name of the dropdown, one letter Cyrillic
                          if str(v) in choices.get(k, ()) and (v2 := _confusable(v))), None)
            if found:
                cell = f"{letters[found[0]]}{position + 2}"
                cases.append(Case(f"{key}_confusable.xlsx", with_openpyxl(_set(title, cell, found[1])), 0, "N01",
                                  title, cell))
                break
    first = ruleset.order_schemas[0].title_in(lang)
    bounds = [
        Case("cell_at_xfd1048576.xlsx", edit_sheet(first, lambda x: _before_sheetdata_end(
            x, '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>')), 1, "F18", first, "A1048576"),
        Case("dimension_claims_everything.xlsx", edit_sheet(first, lambda x: re.sub(
            r"<dimension [^>]*/>", '<dimension ref="A1:XFD1048576"/>', x)), 1, "F18", first, "XFD1048576"),
        Case("rows_200000.xlsx", edit_sheet(first, _many_rows(200_000)), 1, "F18", first, "A5001"),
        Case("escapes_in_a_header.xlsx", edit_sheet(first, lambda x: _cell(
            x, "Z1", f'<c r="Z1" t="inlineStr"><is><t>{ESCAPES}</t></is></c>')), 0, "F06", first, "Z1"),
    ]
    identity = [
        Case("forged_faction.xlsx", with_openpyxl(_identity(3, others[0])), 1, "F10"),
        Case("identity_turn_fraction.xlsx", with_openpyxl(_identity(4, campaign.turn + 0.9)), 1, "F07"),
        Case("identity_turn_inf.xlsx", with_openpyxl(_identity(4, float("inf"))), 1, "F07"),
        Case("duplicate_a.xlsx", copy_as_is, 1, "F12", also=("duplicate_b.xlsx",)),
    ]
    cases += bounds + identity
    quick += [bounds[0], identity[0]]
    return quick if subset else cases


def make_ruleset_corpus(name: str, folder: Path, subset: bool = False) -> Corpus:
    """``name``'s example campaign in ``folder/campaign`` (its inbox emptied), and its cases' files in
    ``folder/corpus``."""
    from adjudicator.engine.registry import find_ruleset
    from adjudicator.paths import examples_root
    from adjudicator.scenario import load_scenario

    ruleset = find_ruleset(name)
    root = folder / "campaign"
    pipeline.new_campaign(ruleset, root, example=True)
    for stale in (root / "inbox").iterdir():
        stale.unlink()
    _, campaign, _ = pipeline.open_campaign(root)
    faction = FACTIONS[name]
    data = load_scenario(examples_root() / name)
    rows = _passing_rows(ruleset, campaign, faction, data.get("orders", {}).get(faction, {}), folder)
    genuine = folder / "genuine-source.xlsx"
    atomic_save(build_order_workbook(ruleset, campaign, faction, rows), genuine)
    lang = campaign.factions[faction].language
    book = openpyxl.load_workbook(genuine)
    for schema in ruleset.order_schemas:  # the header is in row 1: the cells of the cases are counted from it
        ws = book[schema.title_in(lang)]
        assert ws.cell(1, 1).value, (name, schema.key)
    cases = ruleset_cases(ruleset, campaign, faction, rows, subset)
    corpus = folder / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    for case in cases:
        case.make(genuine, corpus / case.name)
        for other in case.also:
            shutil.copyfile(genuine, corpus / other)
    return Corpus(name, faction, root, campaign.turn, lang, genuine, cases, corpus)


RULESETS = tuple(FACTIONS)


def make_corpora(folder: Path, rulesets: tuple[str, ...] = RULESETS, subset: bool = False) -> list[Corpus]:
    return [make_ruleset_corpus(name, folder / name, subset) for name in rulesets]
