"""Checked copies composed of the player's parts (adjudicator/outputs/compose.py): the same face as the copy
openpyxl makes, never the player's file reloaded, readable by openpyxl and LibreOffice, macros gone, the same
bytes twice, and today's copy whenever the player's file holds what composing is not sure to keep."""

from __future__ import annotations

import io
import re
import subprocess
import zipfile
from pathlib import Path

import openpyxl
import pytest

from adjudicator.i18n import gettext_in
from adjudicator.outputs import compose, faction_workbooks, xlsx_package
from adjudicator.outputs.fast_save import atomic_save_fast
from tests.conftest import convert
from tests.core.test_writer_same_outputs import workbook_face
from tests.helpers import checked_example_with_problems

ERRORS = {gettext_in(lang, "Errors") for lang in ("en", "es", "ru")}


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    """The star_sectors example checked, and its submissions (each with problems)."""
    root = tmp_path_factory.mktemp("compose") / "campaign"
    return root, checked_example_with_problems(root)


def _lang(submission) -> str:  # noqa: ANN001
    return "ru" if submission.path.stem == "BORYA" else "en"


def _composed(submission, target: Path, monkeypatch: pytest.MonkeyPatch) -> Path:  # noqa: ANN001
    """The checked copy of ``submission`` composed at ``target``, openpyxl forbidden to load the player's file."""
    monkeypatch.setenv(faction_workbooks.COMPOSE_ENV, "1")
    with monkeypatch.context() as m:
        def refused(*args: object, **kwargs: object) -> None:
            raise AssertionError("the player's workbook was reloaded")

        m.setattr(openpyxl, "load_workbook", refused)
        assert atomic_save_fast(faction_workbooks.checked_copy(submission, _lang(submission), streamed=True), target)
    return target


def _today(submission, target: Path, monkeypatch: pytest.MonkeyPatch) -> Path:  # noqa: ANN001
    monkeypatch.setenv(faction_workbooks.COMPOSE_ENV, "0")
    assert atomic_save_fast(faction_workbooks.checked_copy(submission, _lang(submission), streamed=True), target)
    return target


def test_a_composed_copy_has_the_face_of_todays_copy_and_the_same_bytes_twice(
        checked: tuple[Path, list], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, submissions = checked
    for submission in submissions:
        stem = submission.path.stem
        first = _composed(submission, tmp_path / f"{stem}.a.xlsx", monkeypatch)
        second = _composed(submission, tmp_path / f"{stem}.b.xlsx", monkeypatch)
        assert first.read_bytes() == second.read_bytes()
        old, new = workbook_face(_today(submission, tmp_path / f"{stem}.old.xlsx", monkeypatch)), workbook_face(first)
        assert new["sheets"][0] in ERRORS and new["active"] == new["sheets"][0]
        assert old == new, stem
        marked = [p for p in submission.problems if p.sheet and p.cell]
        assert marked  # the comparison covered marked cells: their fill and comment
        wb = openpyxl.load_workbook(first)
        cell = wb[marked[0].sheet][marked[0].cell]
        assert cell.comment is not None and cell.fill.fgColor.rgb[-6:] in ("F8CBAD", "FFE699")


def test_a_composed_copy_converts_in_libreoffice_with_both_tabs_words(
        checked: tuple[Path, list], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, soffice: str) -> None:
    _, submissions = checked
    submission = submissions[0]
    path = _composed(submission, tmp_path / "copy.xlsx", monkeypatch)
    pdf = convert(soffice, path, "pdf", tmp_path / "pdf")
    text = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    wb = openpyxl.load_workbook(path)
    errors = wb.worksheets[0]
    problem = next(p for p in submission.problems if p.sheet and p.cell)
    player_word = next(str(c.value) for row in wb[problem.sheet].iter_rows(max_row=1) for c in row
                       if isinstance(c.value, str) and len(c.value) > 3)
    assert str(errors["A2"].value) in text  # a code of the Errors tab
    assert player_word.split()[0] in text  # a header of the player's sheet


def _rewritten(path: Path, change: dict[str, bytes | None]) -> None:
    """The zip at ``path`` with members replaced (None: removed) or added."""
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    for name, data in change.items():
        if data is None:
            members.pop(name, None)
        else:
            members[name] = data
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    path.write_bytes(buffer.getvalue())


def test_a_macro_part_is_dropped(checked: tuple[Path, list], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, submissions = checked
    submission = submissions[0]
    player = tmp_path / "macro.xlsm"
    player.write_bytes(submission.path.read_bytes())
    with zipfile.ZipFile(player) as archive:
        types = archive.read("[Content_Types].xml")
        rels = archive.read("xl/_rels/workbook.xml.rels")
    types = types.replace(b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
                          b"application/vnd.ms-excel.sheet.macroEnabled.main+xml")
    types = types.replace(b"</Types>", b'<Override PartName="/xl/vbaProject.bin" '
                          b'ContentType="application/vnd.ms-office.vbaProject"/></Types>')
    rels = rels.replace(b"</Relationships>", b'<Relationship Id="rIdVba" Type="http://schemas.microsoft.com/office/'
                        b'2006/relationships/vbaProject" Target="vbaProject.bin"/></Relationships>')
    _rewritten(player, {"[Content_Types].xml": types, "xl/_rels/workbook.xml.rels": rels,
                        "xl/vbaProject.bin": b"Attribute VB_Name = \"Evil\"" * 10})
    assert compose.read_package(player).workbook_rels[-1].kind == "vbaProject"
    copy = type(submission)(player, submission.sha256, submission.problems, submission.identity,
                            submission.faction, submission.orders, submission.book)
    path = _composed(copy, tmp_path / "copy.xlsx", monkeypatch)
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        everything = b"".join(archive.read(n) for n in names)
    assert not any("vba" in n.lower() for n in names)
    assert b"vbaProject" not in everything and b"macroEnabled" not in everything
    assert openpyxl.load_workbook(path).sheetnames[1:] == openpyxl.load_workbook(submission.path).sheetnames


def _raw_members(path: Path) -> dict[str, tuple[int, bytes]]:
    """Each member of the zip at ``path``: its compression and its bytes as the zip holds them (after its local
    header, whose name and extra field are skipped)."""
    found = {}
    data = path.read_bytes()
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            start = info.header_offset
            assert data[start:start + 4] == b"PK\x03\x04"
            name_length, extra_length = int.from_bytes(data[start + 26:start + 28], "little"), \
                int.from_bytes(data[start + 28:start + 30], "little")
            body = start + 30 + name_length + extra_length
            found[info.filename] = (info.compress_type, data[body:body + info.compress_size])
    return found


def test_the_players_unchanged_parts_are_copied_as_their_zip_held_them(
        checked: tuple[Path, list], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, soffice: str) -> None:
    """A player's file deflated otherwise than the adjudicator deflates (another program's zip): the parts a
    checked copy keeps as they came are copied as their zip held them, a part stored or changed is deflated;
    the copy reads as today's copy of the same file, twice the same bytes, and LibreOffice opens it."""
    _, submissions = checked
    submission = submissions[0]
    player = tmp_path / "other.xlsx"
    with zipfile.ZipFile(submission.path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    stored = "xl/theme/theme1.xml"
    assert stored in members
    with zipfile.ZipFile(player, "w") as archive:
        for name, data in members.items():
            if name == stored:
                archive.writestr(name, data, compress_type=zipfile.ZIP_STORED)
            else:
                archive.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=1)
    copy = type(submission)(player, submission.sha256, submission.problems, submission.identity,
                            submission.faction, submission.orders, submission.book)
    path = _composed(copy, tmp_path / "copy.xlsx", monkeypatch)
    assert path.read_bytes() == _composed(copy, tmp_path / "again.xlsx", monkeypatch).read_bytes()
    theirs, ours = _raw_members(player), _raw_members(path)
    with zipfile.ZipFile(path) as archive:
        assert archive.testzip() is None
        unchanged = [n for n in members if n in ours and archive.read(n) == members[n]]
        changed = [n for n in members if n in ours and archive.read(n) != members[n]]
    copied = [n for n in unchanged if n != stored]
    assert "xl/sharedStrings.xml" in copied or len(copied) >= 3
    for name in copied:  # level 1's bytes, as the player's zip held them
        assert ours[name] == theirs[name], name
    assert ours[stored][0] == zipfile.ZIP_DEFLATED  # stored by the player: deflated in the copy
    marked = {n for n in changed if n.startswith("xl/worksheets/")}
    assert marked  # the marked sheets changed: deflated anew, at the adjudicator's level
    for name in marked:
        assert ours[name][0] == zipfile.ZIP_DEFLATED and ours[name][1] != theirs[name][1]
    today = _today(copy, tmp_path / "today.xlsx", monkeypatch)
    assert workbook_face(path) == workbook_face(today)
    pdf = convert(soffice, path, "pdf", tmp_path / "pdf")
    text = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    assert str(openpyxl.load_workbook(path).worksheets[0]["A2"].value) in text


@pytest.mark.parametrize("damage", ["mismatched tag", "DTD"])
def test_a_player_sheet_not_well_formed_is_never_composed(
        damage: str, checked: tuple[Path, list], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each sheet a copy changes (its marked cells, its selection) is checked once, as it is written: a player's
    sheet that is not well-formed XML, or that declares a DTD, is never written into a copy."""
    _, submissions = checked
    submission = next(s for s in submissions if s.problems.errors)  # its sheets get marked cells
    player = tmp_path / "player.xlsx"
    player.write_bytes(submission.path.read_bytes())
    package = compose.read_package(player)
    change: dict[str, bytes | None] = {}
    for _, part, _ in package.sheets:
        xml = package.parts[part]
        assert b"</row>" in xml
        change[part] = (xml.replace(b"</row>", b"</rov>", 1) if damage == "mismatched tag" else
                        b'<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY e "x">]>' + xml[xml.index(b"<worksheet"):])
    _rewritten(player, change)
    copy = type(submission)(player, submission.sha256, submission.problems, submission.identity,
                            submission.faction, submission.orders, submission.book)
    monkeypatch.setenv(faction_workbooks.COMPOSE_ENV, "1")
    wb = faction_workbooks.checked_copy(copy, "en", streamed=True)
    with pytest.raises(compose.CannotCompose, match="composed"):
        getattr(wb, compose.COMPOSED).bytes(wb)


@pytest.mark.parametrize("broken", ["styles", "drawing"])
def test_what_composing_is_not_sure_of_falls_back_to_todays_copy(
        broken: str, checked: tuple[Path, list], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player part that does not parse, or a part composing does not keep (a drawing): today's copy."""
    _, submissions = checked
    submission = submissions[0]
    player = tmp_path / "player.xlsx"
    player.write_bytes(submission.path.read_bytes())
    if broken == "styles":
        _rewritten(player, {"xl/styles.xml": b"<styleSheet xmlns='http://schemas.openxmlformats.org/"
                                             b"spreadsheetml/2006/main'><fonts>"})
    else:
        sheet = compose.read_package(player).sheets[0][1]
        rels = xlsx_package.rels_path(sheet)
        _rewritten(player, {rels: b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
                                  b'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
                                  b'officeDocument/2006/relationships/drawing" Target="../drawings/drawing1.xml"/>'
                                  b"</Relationships>", "xl/drawings/drawing1.xml": b"<wsDr/>"})
    copy = type(submission)(player, submission.sha256, submission.problems, submission.identity,
                            submission.faction, submission.orders, submission.book)
    monkeypatch.setenv(faction_workbooks.COMPOSE_ENV, "1")
    wb = faction_workbooks.checked_copy(copy, "en", streamed=True)
    with pytest.raises(compose.CannotCompose):
        getattr(wb, compose.COMPOSED).bytes(wb)
    target = tmp_path / "copy.xlsx"
    wb = faction_workbooks.checked_copy(copy, "en", streamed=True)
    assert atomic_save_fast(wb, target)  # today's way: still a checked copy
    made = openpyxl.load_workbook(target)
    assert made.sheetnames[0] in ERRORS
    assert len(made.sheetnames) > 1


SHEET = (b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
         b'<row r="2"><c r="A2" s="3" t="inlineStr"><is><t>x</t></is></c><c r="C2"/></row>'
         b'<row r="4" ht="20"/><row r="6"><c r="B6" t="n"><v>1</v></c></row></sheetData></worksheet>')


@pytest.mark.parametrize(("ref", "expected"), [
    ("A2", b'<c r="A2" s="13" t="inlineStr">'),  # its own format, with the fill
    ("C2", b'<c s="10" r="C2"/>'),  # a cell without a format: the default's copy
    ("B2", b'<c r="A2" s="3" t="inlineStr"><is><t>x</t></is></c><c r="B2" s="10"/><c r="C2"/>'),
    ("D2", b'<c r="C2"/><c r="D2" s="10"/></row>'),
    ("A4", b'<row r="4" ht="20"><c r="A4" s="10"/></row>'),
    ("E3", b'</row><row r="3"><c r="E3" s="10"/></row><row r="4"'),
    ("A9", b'</row><row r="9"><c r="A9" s="10"/></row></sheetData>'),
    ("A6", b'<row r="6"><c r="A6" s="10"/><c r="B6" t="n">'),
])
def test_a_marked_cell_gets_its_format_where_the_schema_puts_it(ref: str, expected: bytes) -> None:
    marked = compose.restyle_cell(SHEET, ref, lambda xf: xf + 10)
    assert expected in marked
    xlsx_package.parse_part(marked, "sheet")  # still XML
    wb = openpyxl.load_workbook(io.BytesIO(_one_sheet_book(marked)))
    assert wb.active[ref].style_id is not None


def _one_sheet_book(sheet: bytes) -> bytes:
    """A workbook of one sheet (enough formats for the test's indexes)."""
    wb = openpyxl.Workbook()
    buffer = io.BytesIO()
    wb.save(buffer)
    with zipfile.ZipFile(buffer) as archive:
        members = {n: archive.read(n) for n in archive.namelist()}
    xfs = b'<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' * 14
    members["xl/styles.xml"] = re.sub(rb"<cellXfs.*?</cellXfs>", b'<cellXfs count="14">' + xfs + b"</cellXfs>",
                                      members["xl/styles.xml"], flags=re.S)
    members["xl/worksheets/sheet1.xml"] = sheet
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def test_an_empty_sheet_gets_its_marked_cell() -> None:
    empty = b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>'
    assert b'<sheetData><row r="3"><c r="B3" s="1"/></row></sheetData>' in compose.restyle_cell(
        empty, "B3", lambda xf: xf + 1)


def test_marking_many_cells_at_once_equals_marking_them_one_by_one() -> None:
    refs = ["A2", "C2", "B2", "D2", "A4", "E3", "A9", "A6", "B6"]
    one_by_one = SHEET
    for ref in refs:
        one_by_one = compose.restyle_cell(one_by_one, ref, lambda xf: xf + 10)
    assert compose.restyle_cells(SHEET, {ref: (lambda xf: xf + 10) for ref in refs}) == one_by_one


def test_a_name_the_zip_holds_twice_is_deflated_again_from_the_part_read(tmp_path: Path) -> None:
    """A zip may hold a name twice; what was read (and checked) is the last: that, not the first one's deflated
    bytes, is what a composed file holds."""
    import warnings

    path = tmp_path / "twice.xlsx"
    with warnings.catch_warnings(), zipfile.ZipFile(path, "w") as archive:
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name
        archive.writestr("xl/a.xml", b"<first/>" * 50, compress_type=zipfile.ZIP_DEFLATED, compresslevel=1)
        archive.writestr("xl/a.xml", b"<last/>" * 50, compress_type=zipfile.ZIP_STORED)
        archive.writestr("xl/b.xml", b"<only/>" * 50, compress_type=zipfile.ZIP_DEFLATED, compresslevel=1)
    with zipfile.ZipFile(path) as archive:
        parts = {info.filename: archive.read(info) for info in archive.infolist()}
        deflated = xlsx_package.deflated_parts(archive, parts)
    assert parts["xl/a.xml"] == b"<last/>" * 50 and set(deflated) == {"xl/b.xml"}
    zipped = tmp_path / "zipped.xlsx"
    zipped.write_bytes(xlsx_package.zip_parts(parts, deflated))
    with zipfile.ZipFile(zipped) as archive:
        assert archive.testzip() is None
        assert archive.read("xl/a.xml") == b"<last/>" * 50 and archive.read("xl/b.xml") == b"<only/>" * 50
    assert _raw_members(zipped)["xl/b.xml"] == _raw_members(path)["xl/b.xml"]
