"""The benchmark campaigns of Galactic War (benchmarks/generate_galactic_war.py) are what they say, through the
real pipeline: ``check`` reports one error on each row written as a mistake and nothing else, every sheet of
every race holds the rows asked for, and run → answer → run resolves the turn with every other row carried
out."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from adjudicator.turn import pipeline
from tests.helpers import Generated, codes_of_mistakes, generated_campaign, order_statuses

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from generate_galactic_war import answer, campaign, is_mistake, mistake_every  # noqa: E402

FACTIONS, ORDERS, MISTAKES = 3, 30, 0.1
EVERY = mistake_every(MISTAKES)
FIRST_ROW = 2  # order rows sit from row 2 on, under the headers


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generated_campaign(tmp_path_factory, "galactic_war", campaign, FACTIONS, ORDERS, 3, MISTAKES)


@pytest.fixture(scope="module")
def checked(generated: Generated) -> pipeline.CheckOutcome:
    return pipeline.check(generated.folder)


def test_check_reports_one_error_on_each_mistake_row_and_nothing_else(
        generated: Generated, checked: pipeline.CheckOutcome) -> None:
    codes = codes_of_mistakes(checked, generated.mistake_rows, FIRST_ROW, EVERY)
    assert codes == {"MV01", "MV04", "MV08", "I02", "I06"}  # every kind of mistake


def test_every_sheet_of_every_race_holds_the_rows_asked(checked: pipeline.CheckOutcome) -> None:
    assert sorted(s.faction or "" for s in checked.submissions) == [f"F{i:03d}" for i in range(FACTIONS)]
    for submission in checked.submissions:
        assert submission.orders is not None
        sheets = submission.orders.sheets
        assert sorted(sheets) == ["battle_plan", "invasions", "moves", "stance"]
        for key, sheet in sheets.items():
            assert len(sheet.frame) + len(sheet.rejected) == ORDERS, (submission.faction, key)


def test_run_answer_run_resolves_the_turn_with_every_row_but_the_mistakes_carried_out(
        generated: Generated, tmp_path: Path) -> None:
    root = tmp_path / "run"
    shutil.copytree(generated.folder, root)
    assert pipeline.run(root).status == "waiting"  # for the Rulers' purchases
    answer(root)
    assert pipeline.run(root).status == "resolved"
    assert pipeline.open_campaign(root)[1].turn == 2
    statuses = order_statuses(root / "campaign.xlsx")
    assert len(statuses) == FACTIONS * 4 * ORDERS
    unexpected = {key: status for key, status in statuses.items() if status != _expected(key[0], key[2])}
    assert not unexpected, unexpected


def _expected(tab: str, row: int) -> str:
    """A mistake row is refused; every other row is carried out (the battle plan holds no mistake: the rules
    refuse no plan row)."""
    return "rejected" if tab != "T01 Orders Battle plan" and is_mistake(row - FIRST_ROW, EVERY) else "done"
