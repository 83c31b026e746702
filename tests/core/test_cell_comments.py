"""The checked copy's comments written straight from its marks (outputs/cell_comments.py): the parts XlsxWriter
wrote for them byte for byte, read back by openpyxl as today's copy's, shown by LibreOffice on hover."""

from __future__ import annotations

import io
import random
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from defusedxml import ElementTree

from adjudicator.engine.registry import find_ruleset
from adjudicator.outputs import cell_comments, faction_workbooks
from adjudicator.outputs.fast_save import atomic_save_fast
from adjudicator.turn import pipeline
from tests.conftest import convert

#: Texts XlsxWriter escapes or marks: markup characters, quotes, a carriage return, what looks like an escape,
#: spaces at either end (a no-break space too), a character outside the BMP, an empty text.
TEXTS = ['Fleet "A" & <b>B</b> > C', "line one\nline two\r\nthree", "_x0041_ is not A", " leading", "trailing ",
         "no-break\u00a0", "tab\tinside", "emoji \U0001F680 ok", "", "ordinary text, ünïcödé, кириллица"]
#: Cells at the sheet's edges, where XlsxWriter places the box differently.
EDGES = ["A1", "B1", "A2", "XFD1", "XFC5", "XFB7", "XFA9", "A1048576", "B1048575", "C1048574", "D1048573",
         "XFD1048576", "AA100"]


def _xlsxwriter_parts(sheets: list[list[tuple[str, str]]]) -> list[tuple[bytes, bytes]]:
    """What XlsxWriter writes for these comments (as ``fast_save`` asked it for each mark before)."""
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True})
    for marks in sheets:
        sheet = book.add_worksheet()
        for ref, text in marks:
            sheet.write_comment(ref, text, {"author": "adjudicator", "width": 320, "height": 120})
    book.close()
    with zipfile.ZipFile(buffer) as archive:
        return [(archive.read(f"xl/comments{n}.xml"), archive.read(f"xl/drawings/vmlDrawing{n}.vml"))
                for n in range(1, len(sheets) + 1)]


def _ours(sheets: list[list[tuple[str, str]]]) -> list[tuple[bytes, bytes]]:
    comments = [[cell_comments.cell_comment(ref, text) for ref, text in marks] for marks in sheets]
    return cell_comments.comment_parts([[c for c in sheet if c is not None] for sheet in comments])


def test_the_parts_are_xlsxwriters_byte_for_byte() -> None:
    rng = random.Random(7)
    many = {f"{openpyxl.utils.get_column_letter(rng.randint(1, 60))}{rng.randint(1, 5000)}" for _ in range(2400)}
    first = [(ref, rng.choice(TEXTS)) for ref in sorted(many)[:2100]]  # three blocks of 1,024 shapes
    rng.shuffle(first)  # in any order: written in row, then column order
    edges = [(ref, TEXTS[i % len(TEXTS)]) for i, ref in enumerate(EDGES)]
    limits = [("C3", "x" * 32_767), ("C4", "x" * 32_768), ("C5", "\U0001F680" * 16_384), ("C6", "y")]
    sheets = [first, edges, limits, [("B2", "one")]]
    ours, theirs = _ours(sheets), _xlsxwriter_parts(sheets)
    assert len(ours) == len(theirs) == 4
    for (comments, drawing), (their_comments, their_drawing) in zip(ours, theirs, strict=True):
        assert comments == their_comments
        assert drawing == their_drawing
    assert b'data="1,2,3"' in ours[0][1] and b'data="4"' in ours[1][1]  # each drawing's own blocks of shape ids
    assert ours[2][0].count(b"<comment ") == 2  # texts over 32,767 UTF-16 units get no comment, as before


def test_a_cell_outside_the_sheet_or_a_text_too_long_gets_no_comment() -> None:
    assert cell_comments.cell_comment("XFE1", "x") is None
    assert cell_comments.cell_comment("A1048577", "x") is None
    assert cell_comments.cell_comment("A1", "x" * 32_768) is None
    assert cell_comments.cell_comment("$B$7", "a\x01b\x0bc") == cell_comments.CellComment(6, 1, "abc")


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, Path]]:
    """The star_sectors example's checked copies composed (comments written from the marks) and made the
    openpyxl way (openpyxl ``Comment`` objects, written by XlsxWriter): (composed, today's) for each."""
    root = tmp_path_factory.mktemp("comments") / "campaign"
    pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
    outcome = pipeline.check(root)
    made = []
    with pytest.MonkeyPatch.context() as patch:
        for submission in [s for s in outcome.submissions if s.problems and s.book is not None]:
            lang = "ru" if submission.path.stem == "BORYA" else "en"
            pair = []
            for compose, name in (("1", "composed"), ("0", "today")):
                patch.setenv(faction_workbooks.COMPOSE_ENV, compose)
                target = root / f"{submission.path.stem}.{name}.xlsx"
                assert atomic_save_fast(faction_workbooks.checked_copy(submission, lang, streamed=True), target)
                pair.append(target)
            made.append((pair[0], pair[1]))
    assert made
    return made


def _comments(path: Path) -> dict[tuple[str, str], tuple[str, str]]:
    book = openpyxl.load_workbook(path)
    return {(ws.title, cell.coordinate): (cell.comment.text, cell.comment.author) for ws in book.worksheets
            for row in ws.iter_rows() for cell in row if cell.comment is not None}


def test_the_comments_read_back_as_todays_with_their_box_hidden_until_hovered(
        copies: list[tuple[Path, Path]]) -> None:
    for composed, today in copies:
        ours = _comments(composed)
        assert ours and ours == _comments(today), composed.name
        assert {author for _, author in ours.values()} == {"adjudicator"}
        with zipfile.ZipFile(composed) as archive:
            drawings = [archive.read(n) for n in archive.namelist() if n.endswith(".vml")]
        styles = [style for drawing in drawings for style in re.findall(rb'<v:shape [^>]*style="([^"]*)"', drawing)]
        assert len(styles) == len(ours)
        assert all(b"width:240pt;height:90pt" in s and s.endswith(b"visibility:hidden") for s in styles)


def _annotations(ods: Path) -> dict[tuple[str, str], tuple[str, bool]]:
    """Each cell's annotation LibreOffice made of the workbook: (sheet, cell) -> (text, shown without hover)."""
    ns = {"table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
          "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
          "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0"}
    table, office = "{" + ns["table"] + "}", "{" + ns["office"] + "}"
    with zipfile.ZipFile(ods) as archive:
        root = ElementTree.fromstring(archive.read("content.xml"))
    found = {}
    for sheet in root.iter(f"{table}table"):
        row = 0
        for row_element in sheet.iter(f"{table}table-row"):
            column = 0
            for cell in row_element:
                if cell.tag not in (f"{table}table-cell", f"{table}covered-table-cell"):
                    continue
                note = cell.find(f"{office}annotation")
                if note is not None:
                    text = "\n".join("".join(p.itertext()) for p in note.findall("text:p", ns))
                    ref = f"{openpyxl.utils.get_column_letter(column + 1)}{row + 1}"
                    found[(sheet.get(f"{table}name"), ref)] = (text, note.get(f"{office}display") == "true")
                column += int(cell.get(f"{table}number-columns-repeated", "1"))
            row += int(row_element.get(f"{table}number-rows-repeated", "1"))
    return found


def test_libreoffice_shows_the_comments_on_their_cells(copies: list[tuple[Path, Path]], tmp_path: Path,
                                                       soffice: str) -> None:
    composed, _ = copies[0]
    shown = _annotations(convert(soffice, composed, "ods", tmp_path / "ods"))
    assert shown == {place: (text, False) for place, (text, _) in _comments(composed).items()}
