"""Inner Sphere's orders as order types: the player's check and the GM's run refuse the same rows by the same
step, and a row intake refused never reaches the ledger, the dice or the state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adjudicator import testing
from adjudicator.cases import resolve_case, sheets_of
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.orders import carry_out_orders
from adjudicator.engine.problems import ProblemList
from adjudicator.engine.ruleset import FactionOrders
from adjudicator.engine.validity import mark_rejected, passed_orders
from adjudicator.rulesets.inner_sphere.orders.common import Done
from adjudicator.rulesets.inner_sphere.rules import apply_sales_due, area, faction_state
from adjudicator.rulesets.inner_sphere.state import world_from_tables
from tests.inner_sphere.kit import RULESET

ROOT = Path(__file__).resolve().parents[2]


def _example_with_bad_rows() -> dict[str, Any]:
    """The bundled example, with rows planted that only an order type's own steps refuse: a column its kind
    needs left blank (C03), a regiment a 352 row commits carried by a chain (E-MOV-REGDUP, known before the
    chains are checked), and a chain with a cell intake refuses (the rest of it refused quietly)."""
    data = testing.load_example(ROOT / "examples" / "inner_sphere" / "scenario.toml")
    orders = data["orders"]
    orders["KURITA"]["purchases"].append({"kind": "Regimiento", "unit_type": "Mechs Medio"})  # no system: C03
    orders["DAVION"]["research"].append({"kind": "Tirada", "line": "Armamento"})  # no dice: C03
    orders["LIAO"]["agency"].append({"op": "352", "target": "0404", "status": "CIVIL", "regiments": "L2"})
    orders["LIAO"]["movement"] += [{"ship": "L-NS2", "action": "START"},
                                   {"ship": "L-NS2", "action": "LOAD", "regiments": "L2"}]  # E-MOV-REGDUP
    orders["DAVION"]["movement"] += [{"ship": "D-NS2", "action": "Inicio"},
                                     {"ship": "D-NS2", "action": "Saquear", "rounds": "muchas"}]  # not a number
    return data


def test_inner_sphere_check_and_run_refuse_the_same_rows() -> None:
    """The codes check reports (errors and warnings) are those the run's own steps give the rows that passed
    typing, with the states carried out in run's order on one shared world; run's outcomes refuse no row check
    passed, but the rest of a chain check refused."""
    data = _example_with_bad_rows()
    turn = resolve_case(data, RULESET)
    campaign = turn.campaign
    snapshot = world_from_tables(campaign.tables)
    world = snapshot.copy()
    apply_sales_due(world, campaign.turn)
    ctx, the_map = RULESET.context(campaign, Ledger(campaign.turn), snapshot), area(campaign)
    codes: set[str] = set()
    for faction in sorted(campaign.factions):
        state = faction_state(world, ctx, faction, the_map)
        typing = ProblemList()
        typed = FactionOrders(faction, f"{faction}.xlsx", sheets_of(RULESET.order_schemas, data["orders"][faction],
                                                                    f"{faction}.xlsx", typing))
        mark_rejected(typed, typing)
        typed = passed_orders(typed)
        carried = carry_out_orders(RULESET, campaign.parameters, state, typed)
        name = {key: sheet.sheet for key, sheet in typed.sheets.items()}
        in_run = {(name[c.sheet], r.row or c.rows[0], r.code) for c in carried for r in c.rejections if not r.quiet}
        in_run |= {(name[c.sheet], row, d.code) for c in carried if c.done is not None
                   for row, d in c.results().items() if isinstance(d, Done) and d.warning is not None}
        by_typing = {(p.sheet, p.row, p.code) for p in typing}
        in_check = {(p.sheet, p.row, p.code) for p in turn.problems[faction]} - by_typing
        assert in_run == in_check, faction
        codes |= {code for _, _, code in in_check}
    assert {"C03", "E-MOV-REGDUP", "E-FUNDS", "W-MOV-PATH", "E-AG-NOSTATUS"} <= codes
    assert not turn.result.needs_gm_input
    rejected = [o for o in turn.result.outcomes if o.status == "rejected"]
    assert {(o.faction, o.row, o.code) for o in rejected} == {  # the Start rows of the chains check refused
        ("DAVION", 9, "E-MOV-CHAIN"), ("LIAO", 3, "E-MOV-CHAIN"), ("STEINER", 2, "E-MOV-CHAIN")}


def test_a_chain_with_a_refused_row_leaves_no_trace() -> None:
    """The D-NS2 chain whose Raid row intake refused: no ledger line beyond its minimum, no roll, no move."""
    turn = resolve_case(_example_with_bad_rows(), RULESET)
    assert [x for x in turn.ledger.lines if x.reference in ("DAVION:movement:row 9", "DAVION:movement:row 10")] == []
    assert [x.change for x in turn.ledger.lines if x.reference == "ns:D-NS2"] == [-10]  # the 1-hex minimum of an NS2
    assert [r for r in turn.dice.log if "D-NS2" in r.purpose] == []
    ships = turn.tables["jumpships"].set_index("id")
    assert ships.loc["D-NS2", "hex"] == "0204" and ships.loc["L-NS2", "hex"] == "0404"
