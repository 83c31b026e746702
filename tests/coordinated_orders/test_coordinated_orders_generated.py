"""The benchmark campaigns of Coordinated Orders (benchmarks/generate_coordinated_orders.py) are what they say,
through the real pipeline: ``check`` reports one error on each row written as a mistake and nothing else, the
active player's Coordinated Orders sheet and every reactive player's AROs sheet hold the rows asked for (the
other sheet of each stays empty: the rules let nothing stand there), and run → answer → run resolves the turn
with every other row carried out but the rows of a Coordinated Order holding a mistake."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import python_calamine as pc

from adjudicator.turn import pipeline
from tests.helpers import Generated, codes_of_mistakes, generated_campaign

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from generate_coordinated_orders import answer, campaign, is_mistake, mistake_every  # noqa: E402

FACTIONS, ORDERS, MISTAKES = 3, 50, 0.1
EVERY = mistake_every(MISTAKES)
FIRST_ROW = 2  # order rows sit from row 2 on, under the headers
ACTIVE = "F000"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generated_campaign(tmp_path_factory, "coordinated_orders", campaign, FACTIONS, ORDERS, 3, MISTAKES)


@pytest.fixture(scope="module")
def checked(generated: Generated) -> pipeline.CheckOutcome:
    return pipeline.check(generated.folder)


def test_check_reports_one_error_on_each_mistake_row_and_nothing_else(
        generated: Generated, checked: pipeline.CheckOutcome) -> None:
    codes = codes_of_mistakes(checked, generated.mistake_rows, FIRST_ROW, EVERY)
    assert codes == {"V08", "V11", "V14", "V19", "A01", "A03"}  # every kind of mistake


def test_the_sheets_the_rules_let_a_faction_fill_hold_the_rows_asked(checked: pipeline.CheckOutcome) -> None:
    assert sorted(s.faction or "" for s in checked.submissions) == [f"F{i:03d}" for i in range(FACTIONS)]
    for submission in checked.submissions:
        assert submission.orders is not None
        filled = "orders" if submission.faction == ACTIVE else "reactions"
        for key, sheet in submission.orders.sheets.items():
            rows = len(sheet.frame) + len(sheet.rejected)
            assert rows == (ORDERS if key == filled else 0), (submission.faction, key)


def _tabs(master: Path) -> dict[str, list[dict[str, object]]]:
    """The resolved turn's Orders tabs: each row as {header: value}, by tab."""
    book = pc.CalamineWorkbook.from_path(str(master))
    out = {}
    for name in book.sheet_names:
        if name.startswith("T01 Orders"):
            header, *rows = book.get_sheet_by_name(name).to_python()
            out[name] = [dict(zip(header, row, strict=True)) for row in rows]
    return out


def _sheet_row(row: dict[str, object]) -> int:
    return int(row["Row"])  # type: ignore[call-overload]


def test_run_answer_run_resolves_the_turn_with_every_row_but_the_mistakes_carried_out(
        generated: Generated, tmp_path: Path) -> None:
    root = tmp_path / "run"
    shutil.copytree(generated.folder, root)
    assert pipeline.run(root).status == "waiting"  # for the Table facts
    answer(root)
    assert pipeline.run(root).status == "resolved"
    assert pipeline.open_campaign(root)[1].turn == 2
    tabs = _tabs(root / "campaign.xlsx")
    orders, aros = tabs["T01 Orders Coordinated Orders"], tabs["T01 Orders AROs"]
    assert len(orders) == ORDERS and len(aros) == (FACTIONS - 1) * ORDERS
    spoiled = {row["CO"] for row in orders if is_mistake(_sheet_row(row) - FIRST_ROW, EVERY)}
    assert spoiled
    for row in orders:  # a declaration error makes its whole CO illegal
        assert row["Status"] == ("rejected" if row["CO"] in spoiled else "done"), row
    for row in aros:
        assert row["Status"] == ("rejected" if is_mistake(_sheet_row(row) - FIRST_ROW, EVERY) else "done"), row
