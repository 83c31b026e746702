"""The benchmark campaigns of Galactic War (benchmarks/generate_galactic_war.py) are what they say, through the
real pipeline: ``check`` reports one error on each row written as a mistake and nothing else, every sheet of
every race holds the rows asked for, and run → answer → run resolves the turn with every other row carried
out."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import python_calamine as pc

from adjudicator.scenario import build_from_data
from adjudicator.turn import pipeline

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from generate_galactic_war import answer, campaign, is_mistake  # noqa: E402

FACTIONS, ORDERS, MISTAKES = 3, 30, 0.1
EVERY = round(1 / MISTAKES)
FIRST_ROW = 2  # order rows sit from row 2 on, under the headers


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A campaign folder as generate.py writes one: campaign.xlsx and the races' filled workbooks in inbox/."""
    data, mistake_rows = campaign(FACTIONS, ORDERS, seed=3, mistakes=MISTAKES)
    root = tmp_path_factory.mktemp("generated") / "galactic_war"
    (root / "inbox").mkdir(parents=True)
    build_from_data(data, root)
    return root, mistake_rows


@pytest.fixture(scope="module")
def checked(generated: tuple[Path, int]) -> pipeline.CheckOutcome:
    return pipeline.check(generated[0])


def test_check_reports_one_error_on_each_mistake_row_and_nothing_else(
        generated: tuple[Path, int], checked: pipeline.CheckOutcome) -> None:
    _, mistake_rows = generated
    errors = [(s.faction, p.sheet, p.row, p.code) for s in checked.submissions for p in s.problems.errors]
    assert len(errors) == mistake_rows > 0
    assert all(is_mistake(row - FIRST_ROW, EVERY) for _, _, row, _ in errors), errors
    assert len({error[:3] for error in errors}) == len(errors), "one error a row"
    assert {code for *_, code in errors} == {"MV01", "MV04", "MV08", "I02", "I06"}  # every kind of mistake
    warnings = [p for s in checked.submissions for p in s.problems if not p.is_error]
    assert not warnings, [(p.sheet, p.cell, p.code) for p in warnings]


def test_every_sheet_of_every_race_holds_the_rows_asked(checked: pipeline.CheckOutcome) -> None:
    assert sorted(s.faction or "" for s in checked.submissions) == [f"F{i:03d}" for i in range(FACTIONS)]
    for submission in checked.submissions:
        assert submission.orders is not None
        sheets = submission.orders.sheets
        assert sorted(sheets) == ["battle_plan", "invasions", "moves", "stance"]
        for key, sheet in sheets.items():
            assert len(sheet.frame) + len(sheet.rejected) == ORDERS, (submission.faction, key)


def _statuses(master: Path) -> dict[tuple[str, str, int], str]:
    """(order tab, faction, sheet row) → the status the resolved turn gave the row (its Orders tabs)."""
    book = pc.CalamineWorkbook.from_path(str(master))
    out = {}
    for name in book.sheet_names:
        if name.startswith("T01 Orders"):
            header, *rows = book.get_sheet_by_name(name).to_python()
            faction, row, status = header.index("Faction"), header.index("Row"), header.index("Status")
            out |= {(name, r[faction], int(r[row])): r[status] for r in rows}
    return out


def test_run_answer_run_resolves_the_turn_with_every_row_but_the_mistakes_carried_out(
        generated: tuple[Path, int], tmp_path: Path) -> None:
    root = tmp_path / "run"
    shutil.copytree(generated[0], root)
    assert pipeline.run(root).status == "waiting"  # for the Rulers' purchases
    answer(root)
    assert pipeline.run(root).status == "resolved"
    assert pipeline.open_campaign(root)[1].turn == 2
    statuses = _statuses(root / "campaign.xlsx")
    assert len(statuses) == FACTIONS * 4 * ORDERS
    unexpected = {key: status for key, status in statuses.items() if status != _expected(key[0], key[2])}
    assert not unexpected, unexpected


def _expected(tab: str, row: int) -> str:
    """A mistake row is refused; every other row is carried out (the battle plan holds no mistake: the rules
    refuse no plan row)."""
    return "rejected" if tab != "T01 Orders Battle plan" and is_mistake(row - FIRST_ROW, EVERY) else "done"
