"""Galactic War's orders as order types: the player's check and the GM's run refuse the same rows by the same
step, on the bundled example with bad rows planted on every order sheet."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from adjudicator import testing
from adjudicator.cases import resolve_case
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.orders import carry_out_orders
from adjudicator.engine.registry import find_ruleset
from adjudicator.engine.ruleset import FactionOrders
from adjudicator.rulesets.galactic_war.orders.common import RaceOrders
from adjudicator.rulesets.galactic_war.rules import galaxy_of
from adjudicator.rulesets.galactic_war.state import world_from_tables

ROOT = Path(__file__).resolve().parents[2]

#: Bad rows planted in the example, by race and sheet: what each is refused for (C: by typing, before any check).
PLANTED = {
    "ALPHA": {
        "moves": [{"origin": "12", "units": "A-CR3", "path": "11"},  # MV02: A-CR3 already moves to 13 in row 3
                  {"text": "G: to the stars"},  # MV09: cannot be read
                  {"origin": "99", "units": "A-CR1", "path": "2"}],  # MV08: no system 99
        "stance": [{"system": "99", "dna": "Y"},  # MV08
                   {"system": "1", "dna": "PERHAPS"},  # C: not a choice of the column
                   {"system": "12", "dna": "Y"}],  # valid
    },
    "BETA": {
        "moves": [{"origin": "20", "units": "B-GF2", "path": "19"}],  # MV05: Ground Forces travel aboard
        "invasions": [{"system": "8", "planet": "NOWHERE", "land": "B-GF1"}],  # I06
    },
    "GAMMA": {
        "moves": [{"origin": "13", "units": "Cruiser x3", "path": "12"}],  # MV01: Gamma has one Cruiser in 13
    },
}


def _planted() -> dict[str, Any]:
    data = testing.load_example(ROOT / "examples" / "galactic_war" / "scenario.toml")
    for race, sheets in PLANTED.items():
        for key, rows in sheets.items():
            data["orders"][race][key] = [*data["orders"][race].get(key, []), *rows]
    return data


def test_check_and_run_refuse_the_same_rows_with_the_same_codes() -> None:
    """The errors check reports (after typing) are the rejections run's own steps give the rows that passed
    typing, the races carried out in run's order on one shared galaxy; run refuses no row check passed but for
    what the Invasion segment decides after the battles."""
    ruleset = find_ruleset("galactic_war")
    turn = resolve_case(_planted(), ruleset)
    campaign = turn.campaign
    snapshot = world_from_tables(campaign.tables, campaign.parameters)
    galaxy = galaxy_of(snapshot.copy(), Ledger(campaign.turn))
    refused = 0
    for race in sorted(turn.orders):
        submitted, problems = turn.orders[race], turn.problems[race]
        untyped = {(p.sheet, p.row) for p in problems.errors if p.code.startswith("C")}
        typed = FactionOrders(race, submitted.file, {key: dataclasses.replace(sheet, rows=sheet.frame.drop(
            columns=["_invalid"], errors="ignore").drop(index=[r for s, r in untyped if s == sheet.sheet]))
            for key, sheet in submitted.sheets.items()})
        carried = carry_out_orders(ruleset, campaign.parameters, RaceOrders(snapshot, galaxy, campaign.parameters,
                                                                            race), typed)
        in_run = {(submitted.sheets[c.sheet].sheet, row, c.rejections[0].code)
                  for c in carried if not c.accepted for row in c.rows}
        in_check = {(p.sheet, p.row, p.code) for p in problems.errors if not p.code.startswith("C")}
        assert in_run == in_check, race
        refused += len(in_check)
    codes = sorted(p.code for problems in turn.problems.values() for p in problems.errors)
    assert codes == ["C02", "I02", "I06", "MV01", "MV01", "MV02", "MV04", "MV05", "MV06", "MV08", "MV08", "MV09"]
    assert refused == 11
    assert not turn.result.needs_gm_input and not turn.unbalanced
    late = [o for o in turn.result.outcomes if o.status == "rejected"]
    assert all(o.sheet == "invasions" and o.code in ("I01", "I03", "I04", "I05") for o in late)


def test_the_planted_rows_leave_no_trace() -> None:
    """The rows check refuses change nothing in run: the state, the ledger, the dice and the reports are the
    example's own (the one valid planted row, a stance over ships that all move away, changes nothing)."""
    ruleset = find_ruleset("galactic_war")
    plain = testing.fingerprint(resolve_case(testing.load_example(ROOT / "examples" / "galactic_war" /
                                                                  "scenario.toml"), ruleset))
    planted = testing.fingerprint(resolve_case(_planted(), ruleset))
    for key in ("tables", "ledger", "dice", "reports", "gm_reports"):
        assert planted[key] == plain[key], key
    assert len(plain["ledger"]) > 10 and len(plain["dice"]) > 10


def test_the_dropdowns_are_the_presentation_s_alone() -> None:
    ruleset = find_ruleset("galactic_war")
    presentation = ruleset.presentation()
    assert type(presentation).__module__ == "adjudicator.rulesets.galactic_war.presentation"
    assert "choice_lists" in type(presentation).__dict__ and "choice_lists" not in type(ruleset).__dict__
    campaign = resolve_case(testing.load_example(ROOT / "examples" / "galactic_war" / "scenario.toml"),
                            ruleset).campaign
    lists = ruleset.choice_lists(campaign, "ALPHA", "en")
    assert lists == presentation.choice_lists(campaign, "ALPHA", "en")
    assert lists["scope"][0] == "ALL" and "13" in lists["origin"] and "MARS" in lists["planet"]
