"""A streamed table tab with text columns, no filter and no wraps of its own (outputs/streamed.py's
``Tab.text_columns``, ``filtered``, ``wrap_long``): the master's Ledger and Dice (store/master.py's
_replace_table) written from data by XlsxWriter are the very bytes of the openpyxl-built tabs; saved by openpyxl
(a workbook XlsxWriter cannot write) they are filled the openpyxl way, with the same face. Real files written and
read back."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from openpyxl.formatting.rule import CellIsRule
from openpyxl.styles import PatternFill

from adjudicator.outputs import streamed
from adjudicator.outputs.fast_save import atomic_save_fast
from adjudicator.store import master
from tests.core.test_writer_same_outputs import workbook_face

LONG = "a cause long enough to need more than the fifty characters of its column " * 2
LEDGER_ROWS = [[1, "resolution", "0201", "credits", 5, 105, "short cause", "ref 1"],
               [1, "resolution", "F2", "ore", -2, 8, LONG, None],
               [2, "upkeep", "F2", None, 3, 11, "", "0305"]]
DICE_ROWS = [[1, "the combat at 0201", "combat:0201", "2d6", "3 4", 7], [2, "", "a:roll", "1d6", "6", 6]]


def _master(stream: bool) -> openpyxl.Workbook:
    wb = streamed.stream_new_tabs(openpyxl.Workbook(), stream)
    wb.active.title = "Settings"
    wb.active["A1"] = "a sheet built as openpyxl cells"
    master._replace_table(wb, master.LEDGER, LEDGER_ROWS, "en")  # noqa: SLF001
    master._replace_table(wb, master.DICE, DICE_ROWS, "es")  # noqa: SLF001
    return wb


def test_the_ledger_and_dice_streamed_are_the_openpyxl_built_tabs_byte_for_byte(tmp_path: Path) -> None:
    built, written = tmp_path / "built.xlsx", tmp_path / "streamed.xlsx"
    atomic_save_fast(_master(stream=False), built)
    wb = _master(stream=True)
    ledger = master._sheet_of(wb, master.LEDGER)  # noqa: SLF001
    assert streamed.tab_of(ledger) is not None and not ledger._cells  # noqa: SLF001 - described, not built
    assert master._table_rows(ledger, master.LEDGER)[0] == LEDGER_ROWS[0]  # noqa: SLF001 - read back as data
    assert atomic_save_fast(wb, written)
    assert written.read_bytes() == built.read_bytes()


def test_text_columns_are_text_without_filter_and_wrapped_only_where_needed(tmp_path: Path) -> None:
    written = tmp_path / "streamed.xlsx"
    assert atomic_save_fast(_master(stream=True), written)
    wb = openpyxl.load_workbook(written)
    ledger, dice = wb["Ledger"], wb["Dados"]
    for ws in (ledger, dice):
        assert ws.auto_filter.ref is None and ws.freeze_panes == "A2"
    text = {"B", "C", "D", "G", "H"}  # phase, faction, account, cause, reference
    for letter in "ABCDEFGH":
        assert ledger.column_dimensions[letter].number_format == ("@" if letter in text else "General"), letter
        for row in range(2, 5):
            assert ledger[f"{letter}{row}"].number_format == ("@" if letter in text else "General"), (letter, row)
    assert ledger["C2"].value == "0201" and ledger["C2"].data_type == "s"  # a hex stays text
    assert not ledger["G2"].alignment.wrap_text  # a short cause in its 50-wide column: not wrapped
    assert ledger["G3"].alignment.wrap_text and ledger.row_dimensions[3].height > 15  # the long one: wrapped
    assert [c.number_format for c in dice[2]] == ["General", "@", "@", "@", "@", "General"]


def test_saved_by_openpyxl_the_plain_table_is_filled_the_openpyxl_way(tmp_path: Path) -> None:
    built, fallback = tmp_path / "built.xlsx", tmp_path / "fallback.xlsx"
    untranslatable = CellIsRule(operator="lessThan", formula=["0"], fill=PatternFill("solid", fgColor="FF0000"))
    wb = _master(stream=False)
    wb["Settings"].conditional_formatting.add("A1:A2", untranslatable)
    assert not atomic_save_fast(wb, built)
    wb = _master(stream=True)
    wb["Settings"].conditional_formatting.add("A1:A2", untranslatable)
    assert not atomic_save_fast(wb, fallback)  # openpyxl saved it, the described tabs filled first
    assert workbook_face(fallback) == workbook_face(built)
    assert openpyxl.load_workbook(fallback)["Ledger"].auto_filter.ref is None
