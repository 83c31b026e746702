"""Rows kept on a hidden sheet as data (outputs/plain_rows.py) are the cells ``ws.append`` makes: read back the same
before the save, written in the very bytes by XlsxWriter (fast_save.py) and by openpyxl, real .xlsx files written
and read again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.utils.exceptions import IllegalCharacterError

from adjudicator.outputs.fast_save import atomic_save_fast
from adjudicator.outputs.plain_rows import append_plain, plain_rows, sheet_rows
from adjudicator.outputs.writing import atomic_save, hidden_sheet

ROWS: list[list[Any]] = [
    ["tab", json.dumps({"turn": 1, "lang": "ru", "sheet": "Т01 Приказы"}, ensure_ascii=False)],
    ["row", json.dumps(["Flota «Águila»", 3, None, "línea\nsegunda"], ensure_ascii=False)],
    [2, "es", "view", "x" * 40_000],  # longer than a cell holds: cut as openpyxl cuts it
    [None, 1.5, True, ""],
    ["=1+2", "#N/A"],  # a formula and an error code, as ws.append reads them
    [],
    ["last"],
]


def _book(rows: list[list[Any]], plainly: bool, before: int = 0) -> Any:
    wb = openpyxl.Workbook()
    wb.active.title = "Shown"
    wb.active["A1"] = "shown"
    ws = hidden_sheet(wb, "_source")
    for number in range(before):  # cells made before the plain rows
        ws.append([f"earlier {number}", number])
    for row in rows:
        if plainly:
            append_plain(ws, row)
        else:
            ws.append(row)
    return wb


@pytest.mark.parametrize("before", [0, 3])
def test_plain_rows_read_back_as_the_cells_would(before: int) -> None:
    plain, cells = _book(ROWS, True, before)["_source"], _book(ROWS, False, before)["_source"]
    assert plain_rows(plain) is not None and plain_rows(cells) is None
    for width in (1, 2, 4, 6):
        assert list(sheet_rows(plain, width)) == list(sheet_rows(cells, width)) == \
            list(cells.iter_rows(min_row=1, max_col=width, values_only=True))


@pytest.mark.parametrize("before", [0, 3])
def test_plain_rows_are_written_in_the_bytes_of_their_cells(before: int, tmp_path: Path) -> None:
    """By XlsxWriter (fast_save.py): texts, numbers, a formula; a workbook with an error code, which XlsxWriter is
    not told how to write, by openpyxl after all, as its cells are; and by openpyxl's own save (writing.py)."""
    plain_texts = [row for row in ROWS if row != ["=1+2", "#N/A"]]
    for rows, by_xlsxwriter in ((plain_texts, True), ([*plain_texts, ["=1+2"]], True), (ROWS, False)):
        written = []
        for plainly in (True, False):
            path = tmp_path / f"fast-{plainly}.xlsx"
            assert bool(atomic_save_fast(_book(rows, plainly, before), path)) is by_xlsxwriter
            written.append(path.read_bytes())
        assert written[0] == written[1]
    saved = []
    for plainly in (True, False):
        path = tmp_path / f"openpyxl-{plainly}.xlsx"
        atomic_save(_book(ROWS, plainly, before), path)
        saved.append(path.read_bytes())
    assert saved[0] == saved[1]
    back = openpyxl.load_workbook(tmp_path / "openpyxl-True.xlsx")["_source"]
    assert back.sheet_state == "hidden"
    assert next(back.iter_rows(min_row=before + 1, max_col=2, values_only=True)) == tuple(ROWS[0])


def test_reading_a_sheet_changes_nothing() -> None:
    """A hidden sheet read before its first row is appended (the ledger's earlier lines, none on a first turn):
    the rows then start at row 1, as ws.append would start them."""
    wb = openpyxl.Workbook()
    ws = hidden_sheet(wb, "_source")
    assert list(sheet_rows(ws, 1)) == [] and not ws._cells
    append_plain(ws, ["first"])
    assert plain_rows(ws) == (1, [("first",)])
    assert list(sheet_rows(ws, 2)) == [("first", None)]


def test_a_text_no_spreadsheet_holds_is_refused_as_ws_append_refuses_it() -> None:
    ws = openpyxl.Workbook().active
    with pytest.raises(IllegalCharacterError):
        ws.append(["a\x01b"])
    with pytest.raises(IllegalCharacterError):
        append_plain(ws, ["a\x01b"])
    with pytest.raises(TypeError):
        append_plain(ws, [object()])
