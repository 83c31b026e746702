"""The benchmark campaigns of Inner Sphere (benchmarks/generate_inner_sphere.py) are what they say, through the
real pipeline: ``check`` reports one error on each row written as a mistake and nothing else, every sheet of every
faction holds the rows asked for, each kind of legal order is among them, and run → answer → run resolves the
turn with every other row carried out."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from adjudicator.turn import pipeline
from tests.helpers import Generated, errors_and_no_warning, generated_campaign, order_statuses

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from generate_inner_sphere import answer, campaign, is_mistake, mistake_every  # noqa: E402

FACTIONS, ORDERS, SEED = 3, 48, 7  # 48 rows: every kind of legal row of every sheet, the lab reassignments too
MISTAKES = 1 / 16  # every 16th row: three a sheet, each kind of mistake once
EVERY = mistake_every(MISTAKES)
FIRST_ROW = 2  # order rows sit from row 2 on, under the headers
SHEETS = ("repairs", "purchases", "movement", "agency", "research")


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generated_campaign(tmp_path_factory, "inner_sphere", campaign, FACTIONS, ORDERS, SEED, MISTAKES)


@pytest.fixture(scope="module")
def checked(generated: Generated) -> pipeline.CheckOutcome:
    return pipeline.check(generated.folder)


def _sheet_key(submission: Any, sheet: str | None) -> str:
    """The schema key of the order sheet a problem names (it names the sheet as the workbook does)."""
    return next(key for key, rows in submission.orders.sheets.items() if rows.sheet == sheet)


def test_check_reports_one_error_on_each_mistake_row_and_nothing_else(
        generated: Generated, checked: pipeline.CheckOutcome) -> None:
    mistake_rows = generated.mistake_rows
    by_faction = {s.faction: s for s in checked.submissions}
    errors = [(faction, _sheet_key(by_faction[faction], sheet), row, code)
              for faction, sheet, row, code in errors_and_no_warning(checked)]
    expected = {(f"F{f:03d}", sheet, FIRST_ROW + index) for f in range(FACTIONS) for sheet in SHEETS
                for index in range(ORDERS) if is_mistake(index, EVERY)}
    assert len(errors) == mistake_rows == len(expected) > 0
    assert {error[:3] for error in errors} == expected, "one error on each mistake row, none elsewhere"
    assert {code for *_, code in errors} == {
        "E-GEN-NOTFOUND", "E-REP-NOTDAMAGED", "E-REP-FNOTDAMAGED", "E-BUY-SYS", "E-DEF-SEQ", "E-MOV-SHIP",
        "E-AG-OFF", "E-AG-DEF", "E-RES-LAB", "E-RES-STAKE", "E-RES-FACSYS"}  # every kind of mistake


def test_every_sheet_of_every_faction_holds_the_rows_asked(checked: pipeline.CheckOutcome) -> None:
    assert sorted(s.faction or "" for s in checked.submissions) == [f"F{f:03d}" for f in range(FACTIONS)]
    assert not checked.missing
    for submission in checked.submissions:
        assert submission.orders is not None
        sheets = submission.orders.sheets
        assert sorted(sheets) == sorted(SHEETS)
        for key, sheet in sheets.items():
            assert len(sheet.frame) + len(sheet.rejected) == ORDERS, (submission.faction, key)


def test_every_kind_of_legal_order_is_written(generated: Generated) -> None:
    """What the legal rows are made of: the test above proves each of these legal, not only some of them."""
    data = generated.data
    legal = {sheet: [row for sheets in data["orders"].values()
                     for index, row in enumerate(sheets[sheet]) if not is_mistake(index, EVERY)]
             for sheet in SHEETS}
    assert {row["kind"] for row in legal["repairs"]} == {"REG", "FACTORY"}
    assert {row["kind"] for row in legal["purchases"]} == {"REG", "DEF"}
    assert {row["action"] for row in legal["movement"]} == {"START", "LOAD", "MOVE", "UNLOAD", "INVADE"}
    assert {row["op"] for row in legal["agency"]} == {"341", "342", "343", "344", "346", "347", "348", "349",
                                                     "350", "352", "353", "354"}
    assert {row["kind"] for row in legal["research"]} == {"ROLL", "ICNA", "FACTORY", "LAB"}


def test_the_same_seed_gives_the_same_campaign_and_another_seed_another() -> None:
    assert campaign(3, 10, SEED, MISTAKES) == campaign(3, 10, SEED, MISTAKES)
    assert campaign(3, 10, SEED, MISTAKES)[0] != campaign(3, 10, SEED + 1, MISTAKES)[0]


def test_run_answer_run_resolves_the_turn_with_every_row_but_the_mistakes_carried_out(
        generated: Generated, tmp_path: Path) -> None:
    root = tmp_path / "run"
    shutil.copytree(generated.folder, root)
    assert pipeline.run(root).status == "waiting"  # for each faction's invasion of its frontier system
    answer(root)
    second = pipeline.run(root)
    assert second.status == "resolved", [p.message.render("en") for p in second.gm_problems]
    assert pipeline.open_campaign(root)[1].turn == 2
    statuses = order_statuses(root / "campaign.xlsx")
    assert len(statuses) == FACTIONS * len(SHEETS) * ORDERS
    unexpected = {key: status for key, status in statuses.items()
                  if status != ("rejected" if is_mistake(key[2] - FIRST_ROW, EVERY) else "done")}
    assert not unexpected, unexpected
