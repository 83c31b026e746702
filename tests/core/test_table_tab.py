"""A table tab written from its rows (outputs/table_tab.py) is byte for byte the one written from its laid-out
cells (streamed.table_cells, lay_out, write_laid), for any rows: texts short and long, line breaks, numbers
among texts, empty cells, ragged rows, wide and text columns, a filter or none. And fast_save.py's sheets
written as soon as their cells are (their cells let go) give the very bytes of a save that keeps them all,
charts and links included. Real .xlsx files written and compared."""

from __future__ import annotations

import io
import re
import zipfile
from decimal import Decimal
from typing import Any

import openpyxl
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from openpyxl.chart import LineChart, Reference
from openpyxl.styles import Font

from adjudicator.outputs import fast_save, streamed, table_tab
from adjudicator.outputs.fast_save import save_fast
from tests.core.kit import saved_with_tab

WORDS = ["Flota", "ALFA", "0201", "кредиты", "a cause long enough to need more than the fifty characters of its column",
         "línea\nsegunda", " espacio ", "x" * 70, "B-12", "Ёжик в тумане и ещё немного слов"]
VALUES = st.one_of(st.none(), st.just(""), st.sampled_from(WORDS), st.integers(-5, 10**7),
                   st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False), st.booleans(),
                   st.decimals(-1000, 1000, places=2, allow_nan=False, allow_infinity=False))


def _saved(tab: streamed.Tab) -> bytes:
    return saved_with_tab(tab, "Ledger")


def _laid_way(tab: streamed.Tab, sheet: Any, formats: dict[Any, Any], workbook: Any) -> None:
    streamed.write_laid(streamed.lay_out(streamed.table_cells(tab)), tab, sheet, formats, workbook)


def _both_ways(tab: streamed.Tab, monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, bytes]:
    from_rows = _saved(tab)
    with monkeypatch.context() as patched:
        patched.setattr(streamed, "write_tab", _laid_way)
        from_cells = _saved(tab)
    return from_rows, from_cells


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(headers=st.lists(st.one_of(st.sampled_from(WORDS[:4] + ["Importe", "Causa"]), st.none(), st.just("")),
                        min_size=0, max_size=6),
       rows=st.lists(st.lists(VALUES, min_size=0, max_size=7), min_size=0, max_size=40),
       widths=st.lists(st.sampled_from([8, 12, 20, 40, 50]), max_size=6),
       text_columns=st.sets(st.integers(1, 7), max_size=3), filtered=st.booleans(), wrap_long=st.booleans(),
       lang=st.sampled_from(["es", "ru", "en"]))
@example(headers=[], rows=[[None, "B2"], [None, "línea\nsegunda"]], widths=[], text_columns=set(), filtered=False,
         wrap_long=False, lang="es")  # a tall row after cells, none in column A: column A in the sheet's dimension
def test_a_table_from_its_rows_is_the_table_from_its_cells(headers: list[Any], rows: list[list[Any]],
                                                           widths: list[int], text_columns: set[int],
                                                           filtered: bool, wrap_long: bool, lang: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    tab = streamed.Tab("table", lang, headers=headers, rows=rows, widths=widths, text_columns=sorted(text_columns),
                       filtered=filtered, wrap_long=wrap_long)
    monkeypatch.setattr(table_tab, "CHUNK_ROWS", 16)  # rows written and let go 16 at a time
    from_rows, from_cells = _both_ways(tab, monkeypatch)
    assert from_rows == from_cells


def test_a_ledger_of_many_lines_is_the_same_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [[turn, "resolution", f"F{n % 40}", ["credits", "ore", None][n % 3], n % 17 - 8, Decimal(n) / 4,
             WORDS[n % len(WORDS)], f"ref {n}" if n % 5 else None] for n in range(3000) for turn in (1, 2)]
    tab = streamed.Tab("table", "ru", headers=["Turno", "Fase", "Facción", "Cuenta", "Cambio", "Saldo", "Causa",
                                               "Referencia"], rows=rows, widths=[8, 14, 12, 12, 10, 10, 50, 20],
                       text_columns=[2, 3, 4, 7, 8], filtered=False, wrap_long=False)
    done: list[tuple[int, int]] = []
    rows_done = fast_save._sheet_class().rows_done  # noqa: SLF001

    def watched(sheet: Any, upto: int) -> None:
        held = len(sheet.table)
        rows_done(sheet, upto)
        done.append((held, len(sheet.table)))

    monkeypatch.setattr(fast_save._sheet_class(), "rows_done", watched)  # noqa: SLF001
    monkeypatch.setattr(streamed, "ROWS_STRAIGHT", False)  # cell by cell (test_rows_put_straight.py: a row at a time)
    from_rows, from_cells = _both_ways(tab, monkeypatch)
    assert from_rows == from_cells
    assert done == [(4096, 0)]  # the first 4,096 rows written and let go as the next is made
    wb = openpyxl.load_workbook(io.BytesIO(from_rows))
    ledger = wb["Ledger"]
    assert ledger.max_row == 6001 and ledger["C2"].value == "F0" and ledger["G4"].value == WORDS[1]
    assert ledger["E2"].alignment.horizontal == "right"  # a column of numbers aligned as the layout says


def test_equal_numbers_are_written_as_they_are(monkeypatch: pytest.MonkeyPatch) -> None:
    """Numbers of a table share one made value where they are equal and of one type (_memo_value): 5 and 5.0
    stay apart, and -0.0, equal to 0.0, is still written as itself."""
    tab = streamed.Tab("table", "en", headers=["n"], rows=[[0.0], [-0.0], [5], [5.0], [-0.0]], widths=[8],
                       text_columns=[], filtered=False, wrap_long=False)
    from_rows, from_cells = _both_ways(tab, monkeypatch)
    assert from_rows == from_cells
    with zipfile.ZipFile(io.BytesIO(from_rows)) as package:
        sheet = package.read("xl/worksheets/sheet2.xml").decode()
    assert re.findall(r'<c r="A(\d+)"[^>]*><v>([^<]*)</v>', sheet)[1:] == [
        ("2", "0"), ("3", "-0"), ("4", "5"), ("5", "5"), ("6", "-0")]


def _charted_workbook() -> openpyxl.Workbook:
    wb = openpyxl.Workbook()
    data = wb.active
    data.title = "History's data"
    for n in range(1, 40):
        data.append([n, n * n, f"text {n}"])
    data["C2"].hyperlink = "https://example.org/rules"
    big = wb.create_sheet("Big")
    for n in range(1, 2000):
        big.append([n, f"line {n}", n / 3, "ALFA" if n % 2 else "БЕТА"])
    big.column_dimensions["D"].font = Font(italic=True)  # a column's format, numbered before its cells'
    big["A1"].font = Font(bold=True)
    chart = LineChart()
    chart.add_data(Reference(data, min_col=2, min_row=1, max_row=39), titles_from_data=True)
    chart.set_categories(Reference(data, min_col=1, min_row=2, max_row=39))
    wb.create_sheet("History").add_chart(chart, "A1")
    return wb


def test_sheets_written_early_give_the_bytes_of_a_save_keeping_every_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    emptied: dict[str, int] = {}
    written_now = fast_save._sheet_class().write_cells_now  # noqa: SLF001

    def watched(sheet: Any, early: Any) -> None:
        written_now(sheet, early)
        emptied[sheet.name] = len(sheet.table)

    monkeypatch.setattr(fast_save._sheet_class(), "write_cells_now", watched)  # noqa: SLF001
    early = io.BytesIO()
    save_fast(_charted_workbook(), early)
    assert emptied["Big"] == 0  # its cells let go once written
    assert emptied["History's data"] > 0  # a chart's data and a link's cell are read again by the save: kept
    with monkeypatch.context() as patched:
        patched.setattr(fast_save._sheet_class(), "write_cells_now", lambda sheet, early: None)  # noqa: SLF001
        kept = io.BytesIO()  # every cell kept to the end, every format numbered by the save
        save_fast(_charted_workbook(), kept)
    assert early.getvalue() == kept.getvalue()
    wb = openpyxl.load_workbook(early)
    assert wb["Big"]["B1999"].value == "line 1999" and wb["History"]._charts  # noqa: SLF001
