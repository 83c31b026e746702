"""A streamed tab's rows written straight to its sheet's file, a row at a time (fast_save.py's ``put_row``), are
byte for byte what XlsxWriter writes of the same cells put one at a time in its table and kept there until the
save: tables, stacked reports with merged spans, tabs of cells with rows given a height alone and links to other
tabs, numbers XlsxWriter writes as errors (NaN, infinities), texts longer than half Excel's longest (cut, and
counted, as XlsxWriter does), a sheet's text columns. And a table written so holds one block of 16 rows at a
time, none of them in XlsxWriter's table. Real .xlsx files written and compared."""

from __future__ import annotations

import io
import math
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import xlsxwriter
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from xlsxwriter.exceptions import OverlappingRange

from adjudicator.engine.ruleset import ReportTable
from adjudicator.outputs import fast_save, streamed
from adjudicator.outputs.fast_save import save_fast
from tests.core.kit import saved_with_tab

WORDS = ["Flota", "ALFA", "0201", "кредиты", "a cause long enough to need more than the fifty characters of its column",
         "línea\nsegunda", " espacio ", "x" * 70, "B-12", "Ёжик в тумане и ещё немного слов"]
VALUES = st.one_of(st.none(), st.just(""), st.sampled_from(WORDS), st.integers(-5, 10**17), st.booleans(),
                   st.floats(-1e6, 1e6), st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 1e300]))
#: How many rows each comparison put straight (the explicit cases check their own).
PUT: list[int] = []
ROWS = st.lists(st.lists(VALUES, min_size=0, max_size=7), min_size=0, max_size=40)


def _saved(tab: streamed.Tab, straight: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, int]:
    """The workbook holding ``tab`` after a sheet of openpyxl cells, and how many rows were put straight."""
    put = 0
    put_row = fast_save._sheet_class().put_row  # noqa: SLF001

    def counted(sheet: Any, row: int, cells: list[Any]) -> None:
        nonlocal put
        put += 1
        put_row(sheet, row, cells)

    with monkeypatch.context() as patched:
        patched.setattr(streamed, "ROWS_STRAIGHT", straight)
        patched.setattr(fast_save._sheet_class(), "put_row", counted)  # noqa: SLF001
        if not straight:  # XlsxWriter's own way: every cell held in its table until the save writes them all
            patched.setattr(fast_save._sheet_class(), "start_early", lambda sheet, early: None)  # noqa: SLF001
        saved = saved_with_tab(tab, "Tab")
    return saved, put


def _both_ways(tab: streamed.Tab, monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, bytes]:
    straight, put = _saved(tab, True, monkeypatch)
    by_cell, none_put = _saved(tab, False, monkeypatch)
    assert none_put == 0
    PUT.append(put)
    return straight, by_cell


def _sheet_xml(data: bytes, part: str = "xl/worksheets/sheet2.xml") -> str:
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        return package.read(part).decode()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(headers=st.lists(st.one_of(st.sampled_from(WORDS[:4] + ["Importe", "Causa"]), st.none()), max_size=6),
       rows=ROWS, widths=st.lists(st.sampled_from([8, 12, 20, 40, 50]), max_size=6),
       text_columns=st.sets(st.integers(1, 7), max_size=3), filtered=st.booleans(), wrap_long=st.booleans(),
       lang=st.sampled_from(["es", "ru", "en"]))
@example(headers=["n"], rows=[[math.nan], [math.inf], [-math.inf], [5]], widths=[8], text_columns=set(),
         filtered=False, wrap_long=False, lang="en")  # XlsxWriter's error cells among the straight ones
def test_a_table_put_straight_is_xlsxwriters_own(headers: list[Any], rows: list[list[Any]], widths: list[int],
                                                 text_columns: set[int], filtered: bool, wrap_long: bool, lang: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    tab = streamed.Tab("table", lang, headers=headers, rows=rows, widths=widths, text_columns=sorted(text_columns),
                       filtered=filtered, wrap_long=wrap_long)
    straight, by_cell = _both_ways(tab, monkeypatch)
    assert straight == by_cell
    if any(value not in (None, "") for row in [headers, *rows] for value in row):
        assert PUT[-1] > 0  # written the straight way


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tables=st.lists(st.tuples(st.lists(st.sampled_from(WORDS[:4] + ["Importe", "Causa larga del cambio"]),
                                          min_size=1, max_size=5), ROWS), min_size=1, max_size=3),
       lang=st.sampled_from(["es", "ru"]))
def test_a_report_put_straight_is_xlsxwriters_own(tables: list[tuple[list[str], list[list[Any]]]], lang: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Stacked tables: a long column's cells merged over the columns its text needs, the merged range's first
    cell written twice by XlsxWriter's way (its text counted twice in the shared strings' count)."""
    report = [ReportTable(f"t{n}", f"Tabla {n}", headers, rows) for n, (headers, rows) in enumerate(tables)]
    tab = streamed.Tab("report", lang, tables=report)
    straight, by_cell = _both_ways(tab, monkeypatch)
    assert straight == by_cell
    assert PUT[-1] > 0  # a title at least, put straight


def test_a_stacked_report_with_spans_is_xlsxwriters_own(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [[n, WORDS[4] + f" {n}", "ALFA", n / 3] for n in range(70)]
    report = [ReportTable("a", "Movimientos", ["Turno", "Causa", "Flota", "Saldo"], rows),
              ReportTable("b", "Resumen", ["Flota", "Saldo"], [["ALFA", 1], ["БЕТА", 2.5]])]
    straight, by_cell = _both_ways(streamed.Tab("report", "es", tables=report), monkeypatch)
    assert straight == by_cell and PUT[-1] > 0
    sheet = _sheet_xml(straight)
    assert "<mergeCell " in sheet  # the long column spans columns: merged cells written
    assert 'spans="1:' in sheet


def test_a_range_merged_over_rows_put_straight_is_checked_as_xlsxwriter_checks_it() -> None:
    """merge_blank (the merges of rows put straight) claims its cells as merge_range does: a range over one of
    them, merged either way, is refused with XlsxWriter's own error naming the earlier range; a cell alone
    warns and is not merged."""
    out = xlsxwriter.Workbook(io.BytesIO())
    sheet = out.add_worksheet("Tab", worksheet_class=fast_save._sheet_class())  # noqa: SLF001
    sheet.merge_blank(2, 1, 2, 3)
    assert sheet.merge == [[2, 1, 2, 3]] and (sheet.dim_colmin, sheet.dim_colmax) == (1, 3)
    with pytest.raises(OverlappingRange, match="'B3:D3'"):
        sheet.merge_blank(2, 3, 2, 5)
    with pytest.raises(OverlappingRange, match="'B3:D3'"):
        sheet.merge_range(1, 2, 3, 2, None)
    with pytest.warns(UserWarning, match="single cell"):
        sheet.merge_blank(7, 1, 7, 1)
    assert sheet.merge == [[2, 1, 2, 3]]
    out.close()


def test_rows_given_a_height_alone_are_written_in_their_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tab of cells whose rows given a height hold no cell: before its first cell, inside a block of 16, and
    past every block of cells; written as XlsxWriter writes them, among the rows put straight."""
    cells = streamed.Cells()
    for row in (3, 5, 40, 41, 70):
        cells.put(row, 2, f"fila {row}", "es")
    cells.put(41, 5, 12.5, "es")
    cells.heights.update({1: 30.0, 4: 45.0, 20: 18.0, 42: 60.0, 90: 22.5})
    straight, by_cell = _both_ways(streamed.Tab("cells", "es", cells=cells), monkeypatch)
    assert straight == by_cell and PUT[-1] > 0
    sheet = _sheet_xml(straight)
    assert '<row r="4" spans="2:2" ht="45" customHeight="1"/>' in sheet  # in a block of cells: its span
    assert '<row r="20" ht="18" customHeight="1"/>' in sheet  # a block of no cell: no span
    assert sheet.count("<row ") == 10 and '<row r="90" ht="22.5" customHeight="1"/>' in sheet


def test_links_among_the_rows_are_xlsxwriters_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tab of cells linking to places of another tab (the Changes tab's links to the Report), rows of many
    blocks: each link written by XlsxWriter's ``write_url`` among cells put straight, in its row."""
    cells = streamed.Cells()
    for row in range(1, 60):
        cells.put(row, 1, f"Flota {row}", "es")
        cells.put(row, 3, row * 1.5, "es", streamed.PLAIN.number())
        if row % 7 == 0:
            cells.put(row, 6, "ver" if row % 2 else row, "es")
            cells.links[(row, 6)] = f"'Informe T01'!A{row}"
    cells.links[(61, 2)] = "'Informe T01'!A1"  # a link alone in its row, its cell written by the link itself
    cells.put(61, 2, "inicio", "es")
    cells.links[(62, 1)] = "'Informe T01'!A2"  # no text, a format alone: the cell shows the place it links to
    cells.put(62, 1, None, "es", streamed.WRAP_TOP)
    cells.links[(63, 1)] = "'Informe T01'!A3"  # a text past half the longest: cut as XlsxWriter cuts it
    cells.put(63, 1, "😀" * 20_000, "es")
    cells.links[(64, 1)] = "'Informe #2'!A3"  # a place with a "#" (an external link's anchor mark)
    cells.put(64, 1, "almohadilla", "es")
    straight, by_cell = _both_ways(streamed.Tab("cells", "es", cells=cells), monkeypatch)
    assert straight == by_cell and PUT[-1] > 0
    sheet = _sheet_xml(straight)
    assert sheet.count("<hyperlink ") == 12 and 'location="\'Informe T01\'!A14"' in sheet
    assert 'location="\'Informe #2\'!A3"' in sheet
    wb = openpyxl.load_workbook(io.BytesIO(straight))
    assert wb["Tab"]["F14"].value == "14" and wb["Tab"]["F14"].hyperlink.location == "'Informe T01'!A14"
    assert wb["Tab"]["A62"].value == "'Informe T01'!A2" and len(wb["Tab"]["A63"].value) < 20_000


def test_links_past_a_sheets_limit_make_the_workbook_the_openpyxl_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """The link after Excel's limit of a sheet's links, or longer than Excel's longest, is refused as write_url
    refused it: the workbook is then saved by openpyxl (fast_save.Untranslatable), the limit counted with the
    links written straight."""
    monkeypatch.setattr(fast_save, "LINKS_A_SHEET_HOLDS", 5)
    cells = streamed.Cells()
    for row in range(1, 8):
        cells.put(row, 1, f"Flota {row}", "es")
        cells.links[(row, 1)] = f"'Informe T01'!A{row}"
    with pytest.raises(fast_save.Untranslatable, match="more links than a sheet holds"):
        saved_with_tab(streamed.Tab("cells", "es", cells=cells), "Tab")
    monkeypatch.undo()
    cells.links[(3, 1)] = "'Informe T01'!A" + "9" * 2100  # past Excel's longest link: refused, with a warning
    with pytest.warns(UserWarning, match="exceeds Excel's limit"), \
            pytest.raises(fast_save.Untranslatable, match="hyperlink refused"):
        saved_with_tab(streamed.Tab("cells", "es", cells=cells), "Tab")


def test_texts_longer_than_half_the_longest_are_cut_as_xlsxwriter_cuts_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    long_plain, long_astral = "x" * 20_000, "😀" * 20_000  # 40,000 UTF-16 units: cut to Excel's 32,767
    tab = streamed.Tab("table", "en", headers=["a", "b"], rows=[[long_plain, long_astral], [long_astral, 1]],
                       widths=[12, 12], filtered=False, wrap_long=False)
    straight, by_cell = _both_ways(tab, monkeypatch)
    assert straight == by_cell and PUT[-1] == 3  # the header and two rows
    wb = openpyxl.load_workbook(io.BytesIO(straight))
    assert wb["Tab"]["A2"].value == long_plain
    assert len(wb["Tab"]["B2"].value.encode("utf-16-le")) // 2 <= 32_767


def test_a_long_table_holds_one_block_of_rows_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [[n, "resolution", f"F{n % 40}", WORDS[n % len(WORDS)], n / 4] for n in range(6000)]
    tab = streamed.Tab("table", "ru", headers=["Turno", "Fase", "Facción", "Causa", "Saldo"], rows=rows,
                       widths=[8, 14, 12, 50, 10], text_columns=[2, 3], filtered=True, wrap_long=True)
    held: list[tuple[int, int]] = []
    put_row = fast_save._sheet_class().put_row  # noqa: SLF001

    def watched(sheet: Any, row: int, cells: list[Any]) -> None:
        put_row(sheet, row, cells)
        held.append((len(sheet.pending), len(sheet.table)))

    monkeypatch.setattr(fast_save._sheet_class(), "put_row", watched)  # noqa: SLF001
    out = io.BytesIO()
    wb = streamed.stream_new_tabs(openpyxl.Workbook())
    streamed.describe(wb.create_sheet("Ledger"), tab)
    save_fast(wb, out)
    assert len(held) == 6001
    assert max(pending for pending, _ in held) == 16 and max(table for _, table in held) == 0
    ledger = openpyxl.load_workbook(out)["Ledger"]
    assert ledger.max_row == 6001 and ledger["C6000"].value == "F38" and ledger["E5"].value == 0.75


def test_results_composed_of_cells_written_composed_are_the_same_bytes(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The new tabs of a player's results: written straight, their cells are written as composing makes them
    (texts inline, formats moved past the player's), and composing only moves their rows' and columns' formats;
    the composed workbook is the very one composing XlsxWriter's own cells makes (compose.inline_strings)."""
    from adjudicator.engine.registry import find_ruleset
    from adjudicator.outputs import compose
    from adjudicator.turn import pipeline

    root = tmp_path / "campaign"
    pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
    player = sorted((root / "inbox").glob("*.xlsx"))[0]
    cells = streamed.Cells()
    for row in range(1, 40):
        cells.put(row, 1, f"Flota {row}", "es")
        cells.put(row, 2, [math.nan, row, "x" * 20_000, True][row % 4], "es")
        if row % 9 == 0:
            cells.put(row, 4, "ver", "es")
            cells.links[(row, 4)] = f"'Informe T01'!A{row}"
    cells.heights.update({3: 30.0, 45: 20.0})
    rows = [[n, WORDS[n % len(WORDS)], f"F{n % 4}", n / 3] for n in range(50)]
    tabs = [("Resultado T01", streamed.Tab("table", "es", headers=["Turno", "Causa", "Flota", "Saldo"], rows=rows,
                                           widths=[8, 50, 10, 10], text_columns=[3])),
            ("Informe T01", streamed.Tab("report", "es", tables=[ReportTable("a", "Movimientos",
                                                                             ["Turno", "Causa"], rows)])),
            ("Cambios T01", streamed.Tab("cells", "es", cells=cells))]
    inlined: list[bytes] = []  # the sheets composing rewrote cell by cell (compose.inline_strings)
    inline_strings = compose.inline_strings

    def watched(sheet: bytes, strings: Any, offset: int) -> bytes:
        if b"<sheetData" in sheet:
            inlined.append(sheet)
        return inline_strings(sheet, strings, offset)

    def composed(straight: bool) -> bytes:
        inlined.clear()
        with monkeypatch.context() as patched:
            patched.setattr(streamed, "ROWS_STRAIGHT", straight)
            patched.setattr(compose, "inline_strings", watched)
            wb = streamed.stream_new_tabs(openpyxl.Workbook())
            wb.active.title = "Mapa T01"
            wb.active["A1"] = "a sheet of openpyxl cells among the new tabs: its cells inlined by composing"
            for title, tab in tabs:
                streamed.describe(wb.create_sheet(title), tab)
            return compose.ComposedCopy(player, [], lambda: None, first=False).bytes(wb)

    straight = composed(True)
    assert len(inlined) == 1  # the openpyxl sheet alone: the three streamed tabs were written composed
    by_cell = composed(False)
    assert len(inlined) == 4
    assert straight == by_cell
    wb = openpyxl.load_workbook(io.BytesIO(straight))
    changes = wb["Cambios T01"]
    assert changes["D9"].hyperlink.location == "'Informe T01'!A9" and changes["B3"].value is True
    assert changes["B2"].value == "x" * 20_000
    assert wb["Resultado T01"]["B3"].value == WORDS[1] and wb["Mapa T01"]["A1"].value.startswith("a sheet")
