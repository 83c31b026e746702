"""A player's text shaped like XlsxWriter's rich strings (``<r>…</r>``) is written as the text it is, escaped,
in every workbook the project writes: before, XlsxWriter wrote it into ``sharedStrings.xml`` as markup, and an
order named ``<r></t><x></r>`` left the player's results and the GM's ``campaign.xlsx`` unreadable
(outputs/literal_texts.py). Every other text is written in the very bytes XlsxWriter writes. Real .xlsx files
written, a real turn run, every workbook opened again."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import openpyxl
import xlsxwriter
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.outputs.literal_texts import LiteralTextsWorkbook
from adjudicator.turn import pipeline
from tests.helpers import make_campaign, scenario, write_orders

ILL_FORMED = "<r></t><x></r>"
WELL_FORMED = "<r><t>other words</t></r>"
ORDINARY = ["Flota", " espacio & <b> ", "кредиты", "_x0041_ and \x01", "línea\nsegunda", "<r>", "</r><r>",
            "ends with a line\n", "\u00a0nbsp", "tab\t", "_x00e9_", "_x12G4_", "\ufffe", "\x1f", "a\x1fb", "plain_x"]
#: Texts made of what escaping turns on: markup, blanks, control characters, ``_xHHHH_`` pieces.
TRICKY = st.lists(st.sampled_from(["a", "я", " ", "\n", "\t", "\u00a0", "\u2028", "&", "<", ">", "_", "x", "0",
                                   "F", "g", "\x00", "\x0b", "\x1f", "\ufffe", "\uffff", "_x0041_", "_x00ff_"]),
                  max_size=10).map("".join)


def _shared_strings(book_class: type, texts: list[str]) -> bytes:
    buffer = io.BytesIO()
    book = book_class(buffer)
    sheet = book.add_worksheet("S")
    for row, text in enumerate(texts):
        sheet.write_string(row, 0, text)
    book.close()
    with zipfile.ZipFile(buffer) as package:
        return package.read("xl/sharedStrings.xml")


def test_ordinary_texts_are_xlsxwriters_own_bytes() -> None:
    assert _shared_strings(LiteralTextsWorkbook, ORDINARY) == _shared_strings(xlsxwriter.Workbook, ORDINARY)
    many = [f"{ORDINARY[n % len(ORDINARY)]} {n}" for n in range(10_000)]  # written a few thousand at a time
    assert _shared_strings(LiteralTextsWorkbook, many) == _shared_strings(xlsxwriter.Workbook, many)


@settings(max_examples=300, deadline=None)
@given(st.lists(TRICKY, min_size=1, max_size=6, unique=True))
def test_every_text_not_shaped_like_a_rich_string_is_xlsxwriters_own_bytes(texts: list[str]) -> None:
    """Most texts are written as they are (errors_tab.py's shared_string, its quick way); any that needs
    escaping, XlsxWriter's way: together, the very bytes of XlsxWriter's own shared strings."""
    texts = [text for text in texts if not (text.startswith("<r>") and text.endswith("</r>"))] or ["t"]
    assert _shared_strings(LiteralTextsWorkbook, texts) == _shared_strings(xlsxwriter.Workbook, texts)


def test_texts_shaped_like_rich_strings_are_texts() -> None:
    texts = [ILL_FORMED, WELL_FORMED, "ok"]
    written = _shared_strings(LiteralTextsWorkbook, texts)
    assert b"&lt;r&gt;&lt;/t&gt;&lt;x&gt;&lt;/r&gt;" in written and b"<r>" not in written
    assert b"<si><r></t><x></r></si>" in _shared_strings(xlsxwriter.Workbook, texts)  # what XlsxWriter does


def test_an_order_shaped_like_markup_leaves_every_workbook_readable(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", scenario({"ALPHA": 100, "BETA": 100},
                                                  [("ALPHA", "A1", 80), ("BETA", "D4", 90)]))
    write_orders(root, "ALPHA", [{"order": "MOVE", "square": "A1", "to": "A2", "amount": 30},
                                 {"order": ILL_FORMED, "square": "A1", "to": WELL_FORMED, "amount": 5}])
    write_orders(root, "BETA", [{"order": "MOVE", "square": "D4", "to": "D3", "amount": 30}])
    pipeline.check(root)
    pipeline.run(root)
    found: dict[str, set[str]] = {}
    workbooks = sorted(root.rglob("*.xlsx"))
    assert len(workbooks) >= 8
    for path in workbooks:
        wb = openpyxl.load_workbook(path)  # raised on the results and the master before
        for ws in wb.worksheets:
            for row in ws.iter_rows(values_only=True):
                for value in row:
                    if value in (ILL_FORMED, WELL_FORMED):
                        found.setdefault(path.relative_to(root).as_posix(), set()).add(ws.title)
    assert "T01 Orders" in found["campaign.xlsx"]  # the GM's orders tab: the texts as the player wrote them
    assert "Outcome T01" in found["turns/T01/results/ALPHA.xlsx"]
    assert "turns/T01/results/BETA.xlsx" not in found


def _written(deflated: bool) -> bytes:
    buffer = io.BytesIO()
    out = LiteralTextsWorkbook(buffer, {"in_memory": False}, deflated=deflated)
    sheet = out.add_worksheet("Orders")
    for row in range(200):
        sheet.write_string(row, 0, f"Flota {row % 7} " * 5)
    out.close()
    return buffer.getvalue()


def test_a_workbook_taken_apart_at_once_is_stored_and_reads_the_same() -> None:
    """``deflated=False`` (a workbook composed at once: compose.py, master_compose.py): every part stored, the same
    parts as deflated; the next workbook is deflated again."""
    stored, deflated = _written(False), _written(True)
    with zipfile.ZipFile(io.BytesIO(stored)) as one, zipfile.ZipFile(io.BytesIO(deflated)) as other:
        assert {i.compress_type for i in one.infolist()} == {zipfile.ZIP_STORED}
        assert {i.compress_type for i in other.infolist()} == {zipfile.ZIP_DEFLATED}
        assert one.namelist() == other.namelist()
        assert all(one.read(name) == other.read(name) for name in one.namelist())
    assert len(stored) > len(deflated)
    assert openpyxl.load_workbook(io.BytesIO(stored))["Orders"]["A200"].value == "Flota 3 " * 5
