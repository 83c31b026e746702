"""The face of campaign.xlsx's Ledger and Dice tabs and of the hidden sheet the Ledger is written from
(adjudicator/store/master.py), over two turns of every ruleset's example: what a rewrite of these tabs (e.g.
written from data by XlsxWriter, as the turn's tabs are: outputs/streamed.py) must keep. The tabs are rewritten
wholly every turn, so a writer that differs shows here, where the composed master's own test (which compares
two masters made by the same writer) cannot see it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from adjudicator.engine.problems import ProblemList
from adjudicator.engine.registry import find_ruleset
from adjudicator.engine.sheets import Kind, TableSchema
from adjudicator.i18n import render
from adjudicator.i18n.message_data import loads
from adjudicator.outputs.layout import CELL_PADDING, text_width
from adjudicator.store import master
from tests.core.test_master_compose import RULESETS, turns


def _shown(value: Any, lang: str) -> Any:
    shown = render(value, lang)
    return None if shown == "" else shown


def _rows(ws: Any, columns: int) -> list[list[Any]]:
    return [list(row) for row in ws.iter_rows(min_row=2, max_col=columns, values_only=True)
            if any(v is not None for v in row)]


def _assert_table_face(ws: Any, schema: TableSchema, lang: str) -> None:
    """One header row in the campaign's words; text columns (and their written cells) formatted as text, the
    others not; the first row frozen; no filter; a text short enough for its column not wrapped."""
    assert [c.value for c in ws[1]][:len(schema.columns)] == [c.header_in(lang) for c in schema.columns]
    assert all(c.font.b for c in ws[1][:len(schema.columns)]), ws.title
    assert ws.freeze_panes == "A2", ws.title
    assert ws.auto_filter.ref is None, ws.title
    for index, column in enumerate(schema.columns, start=1):
        letter = openpyxl.utils.get_column_letter(index)
        text = column.kind in (Kind.TEXT, Kind.CHOICE)
        assert ws.column_dimensions[letter].number_format == ("@" if text else "General"), (ws.title, letter)
        width = ws.column_dimensions[letter].width
        for (cell,) in ws.iter_rows(min_row=2, min_col=index, max_col=index):
            assert cell.number_format == ("@" if text else "General"), (ws.title, cell.coordinate)
            if isinstance(cell.value, str) and "\n" not in cell.value \
                    and text_width(cell.value) + CELL_PADDING + 1 < width:
                assert not cell.alignment.wrap_text, (ws.title, cell.coordinate)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_ledger_and_dice_keep_their_face_and_every_turns_rows(ruleset: str, tmp_path: Path) -> None:
    """After each of two turns: the Ledger holds exactly the hidden source sheet's lines, in the campaign's
    language; the second turn's Ledger and Dice begin with the first turn's rows; both tabs keep their face."""
    masters, _ = turns(ruleset, tmp_path, 2)
    ledgers, dice = [], []
    for path in masters:
        loaded = master.load_campaign(path, find_ruleset, ProblemList())
        assert loaded is not None
        lang = loaded[0].language
        wb = openpyxl.load_workbook(path)
        source = wb[master.LEDGER_SOURCE]
        assert source.sheet_state == "hidden"
        ledger, rolls = master._sheet_of(wb, master.LEDGER), master._sheet_of(wb, master.DICE)  # noqa: SLF001
        lines = [loads(str(row[0])) for row in source.iter_rows(max_col=1, values_only=True) if row[0]]
        assert lines, "the example's turn has ledger lines"
        ledgers.append(_rows(ledger, len(master.LEDGER.columns)))
        assert ledgers[-1] == [[_shown(v, lang) for v in line] for line in lines]
        dice.append(_rows(rolls, len(master.DICE.columns)))
        _assert_table_face(ledger, master.LEDGER, lang)
        _assert_table_face(rolls, master.DICE, lang)
    assert len(ledgers[1]) >= len(ledgers[0]) and ledgers[1][:len(ledgers[0])] == ledgers[0]
    assert dice[1][:len(dice[0])] == dice[0]
