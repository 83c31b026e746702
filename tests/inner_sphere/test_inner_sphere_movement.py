"""Inner Sphere, part 2: jumpship movement chains (spec §4.3, §6.5, worked examples W1–W6, rulings A2,
A6, A7, A17–A21, A44, A49), on the rule functions and through real workbooks and turns."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd

from adjudicator.dice import Dice
from adjudicator.rulesets.inner_sphere.data import tariffs
from adjudicator.rulesets.inner_sphere.orders.common import Rejection
from adjudicator.rulesets.inner_sphere.phases import movement as move_phase
from adjudicator.rulesets.inner_sphere.state import World
from adjudicator.turn import pipeline
from tests.helpers import all_values, make_campaign, sheet_rows, write_gm
from tests.inner_sphere.kit import (
    PARAMS,
    W1_CHAIN,
    W1_LINKS,
    W1_REGIMENTS,
    W1_SYSTEMS,
    _everything,
    orders,
    plan,
    problems_of,
    table,
    treasury,
    world_data,
)

# W1: Kurita's NS3 at Kentares IV; Johnson and Valexa are its own, Archemar is Davion's.


def tables_of(systems: list[dict[str, Any]], regiments: list[dict[str, Any]], ships: list[dict[str, Any]],
              **more: list[dict[str, Any]]) -> dict[str, pd.DataFrame]:
    factions = sorted({s["owner"] for s in systems if s.get("owner")} | {s["owner"] for s in ships})
    frames = {"factions": [{"id": f, "treasury": 1000} for f in factions], "systems": systems,
              "regiments": regiments, "jumpships": ships, **more}
    return {k: pd.DataFrame(v) for k, v in frames.items()}




ACTIONS = {"Inicio": "START", "Movimiento": "MOVE", "Cargar": "LOAD", "Descargar": "UNLOAD", "Esperar": "WAIT",
           "Invasión": "INVADE", "Saquear": "RAID", "Retirada": "RETREAT"}


def codes(specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**s, "action": ACTIONS.get(s["action"], s["action"])} for s in specs]


def w1_tables(**more: list[dict[str, Any]]) -> dict[str, pd.DataFrame]:
    return tables_of(W1_SYSTEMS, W1_REGIMENTS, [{"id": "N", "owner": "K", "class": "NS3", "hex": "0305"}], **more)


# ------------------------------------------------------------------------------------- W1, the NS3 route


def run_w1(params: dict[str, Any], points: list[dict[str, Any]] | None = None
           ) -> tuple[World, move_phase.Movement, Dice]:
    tables = w1_tables(research_points=points or [{"faction": "K", "line": "ECO", "points": 0}])
    world, _, chains, _ = plan(tables, "K", codes(W1_CHAIN), params=params, links=W1_LINKS)
    dice = Dice(7, 1)
    moved = move_phase.execute(world, chains, dice, {**PARAMS, **params}, tariffs(None))
    return world, moved, dice


def test_w1_rolls_decide_whether_the_invasion_happens() -> None:
    world, moved, dice = run_w1({})
    rolls = [r.values[0] for r in dice.sorted_log()]
    assert 1 <= len(rolls) <= 3  # steps 6, 7, 8 are beyond safe 5 (a roll ≤ 15 stops the chain)
    completed = len(rolls) == 3 and all(v > 15 for v in rolls)
    assert all(v > 15 for v in rolls[:-1])  # only the last roll can have stopped the chain
    assert (world.jumpships["N"].hex == "0307") == completed or len(rolls) == 3
    assert bool(moved.engagements) == completed
    if completed:
        assert {r.id for r in world.regiments.values() if r.system == "0307"} == {"A1", "V1", "V2", "V3"}
    for line in moved.routes:
        if line.step > 5 and line.action:
            assert line.roll.startswith("d100 ")


# W1-W6 as worked examples are the ruleset's scenario cases (adjudicator/rulesets/inner_sphere/cases/w*.toml).


# ---------------------------------------------------------------------------- simultaneity and rulings
def test_an_invasion_cancels_later_retreats_but_a_retreat_at_the_same_step_wins() -> None:
    systems = [{"hex": "0101", "name": "A", "owner": "D"}, {"hex": "0102", "name": "B", "owner": "D"},
               {"hex": "0201", "name": "K", "owner": "K"}]
    regiments = [{"id": "I", "owner": "K", "type": "VL", "experience": "GREEN", "jumpship": "KN"},
                 {"id": "D1", "owner": "D", "type": "VL", "experience": "GREEN", "system": "0101"}]
    ships = [{"id": "KN", "owner": "K", "class": "NS1", "hex": "0201"},
             {"id": "DN", "owner": "D", "class": "NS1", "hex": "0102"}]
    tables = tables_of(systems, regiments, ships)
    invade = [{"action": "START"}, {"action": "MOVE", "hexes": "0101"}, {"action": "INVADE"}]  # lands at step 2

    def outcome(retreat_waits: int, tie: str = "retreat_wins") -> str:
        retreat = [{"action": "START"}, {"action": "MOVE", "hexes": "0101"},
                   *[{"action": "WAIT"}] * retreat_waits, {"action": "RETREAT", "regiments": "D1"}]
        params = {"retreat_tie": tie}
        world, _, k_chains, _ = plan(tables, "K", invade, ship="KN", params=params)
        _, _, d_chains, _ = plan(tables, "D", retreat, ship="DN", params=params)
        move_phase.execute(world, k_chains + d_chains, Dice(1, 1), {**PARAMS, **params}, tariffs(None))
        return world.regiments["D1"].jumpship or world.regiments["D1"].system

    assert outcome(0) == "DN"  # retreat at step 2, same step as the landing: the retreat wins (A20)
    assert outcome(0, "invasion_wins") == "0101"
    assert outcome(1) == "0101"  # retreat at step 3, after the landing: it fails and the regiment stays to fight


def test_chain_validations_at_their_rows_and_columns() -> None:
    systems = [{"hex": "0101", "name": "A", "owner": "K"}, {"hex": "0102", "name": "B", "owner": "D"},
               {"hex": "0201", "name": "C", "owner": "K"}]
    regiments = [{"id": "R1", "owner": "K", "type": "VL", "experience": "GREEN", "system": "0101"},
                 {"id": "R2", "owner": "K", "type": "VL", "experience": "GREEN", "system": "0101", "damaged": "YES"},
                 {"id": "E", "owner": "D", "type": "VL", "experience": "GREEN", "system": "0101"}]
    ships = [{"id": "N", "owner": "K", "class": "NS1", "hex": "0101"}, {"id": "M", "owner": "D", "class": "NS1",
                                                                        "hex": "0102"}]
    jobs = [{"id": "J", "faction": "K", "kind": "REPAIR", "system": "0101", "item": "R2", "turns_left": 1}]
    tables = tables_of(systems, regiments, ships, jobs=jobs)
    cases = [
        ([{"action": "MOVE", "hexes": "0102"}], "E-MOV-START", 2, "action"),
        ([{"action": "START", "hexes": "0201"}], "E-MOV-START", 2, "action"),
        ([{"action": "START"}, {"action": "START"}], "E-MOV-DUP", 3, "action"),
        ([{"action": "START"}, {"action": "WAIT", "hexes": "0201"}], "E-MOV-HEX", 3, "hexes"),
        ([{"action": "START"}, {"action": "LOAD", "regiments": "R1, R2"}], "E-MOV-REPAIR", 3, "regiments"),
        ([{"action": "START"}, {"action": "LOAD", "regiments": "E"}], "E-GEN-OWN", 3, "regiments"),
        ([{"action": "START"}, {"action": "LOAD", "regiments": "X9"}], "E-GEN-NOTFOUND", 3, "regiments"),
        ([{"action": "START"}, {"action": "INVADE"}], "E-MOV-FOREIGN", 3, "action"),
        ([{"action": "START"}, {"action": "MOVE", "hexes": "0102"}, {"action": "INVADE"}], "E-MOV-EMPTY", 4,
         "regiments"),
        ([{"action": "START"}, {"action": "LOAD", "regiments": "R1"}, {"action": "MOVE", "hexes": "0102"},
          {"action": "RAID"}], "E-MOV-ROUNDS", 5, "rounds"),
        ([{"action": "START"}, {"action": "UNLOAD", "regiments": "R1"}], "E-MOV-NOTABOARD", 3, "regiments"),
        ([{"action": "START"}, {"action": "MOVE", "hexes": "0102"}, {"action": "LOAD", "regiments": "R1"}],
         "E-MOV-OWNSYS", 4, "action"),
        ([{"action": "START"}, {"action": "LOAD", "regiments": "R1"}, {"action": "LOAD", "regiments": "E"}],
         "E-GEN-OWN", 4, "regiments"),
        ([{"action": "START"}, *[{"action": "WAIT"}] * 15], "E-MOV-MAX", 17, "action"),
    ]
    for specs, code, row, column in cases:
        _, outcomes, chains, _ = plan(tables, "K", specs)
        loud = {(k[1], o.code, o.column) for k, o in outcomes.items() if isinstance(o, Rejection) and not o.quiet}
        assert loud == {(row, code, column)} and chains == [], (specs, loud)
    _, outcomes, _, _ = plan(tables, "K", [{"action": "START"}], ship="M")
    assert outcomes[("movement", 2)].code == "E-MOV-SHIP"


def test_capacity_and_the_same_regiment_in_two_chains() -> None:
    systems = [{"hex": "0101", "name": "A", "owner": "K"}]
    regiments = [{"id": f"R{n}", "owner": "K", "type": "VL", "experience": "GREEN", "system": "0101"}
                 for n in (1, 2, 3)]
    ships = [{"id": "N", "owner": "K", "class": "NS2", "hex": "0101"}]
    _, outcomes, _, _ = plan(tables_of(systems, regiments, ships), "K",
                             [{"action": "START"}, {"action": "LOAD", "regiments": "R1, R2, R3"}])
    assert outcomes[("movement", 3)].code == "E-MOV-CAP"


# --------------------------------------------------------------------------------- through the pipeline
def test_w1_through_workbooks_warning_gm_combat_row_route_report_and_charge(tmp_path: Path) -> None:
    data = world_data({"K": 1000, "D": 0}, [{**s, "income": 0} for s in W1_SYSTEMS],
                      regiments=W1_REGIMENTS, jumpships=[{"id": "N", "owner": "K", "class": "NS3", "hex": "0305"}],
                      parameters={"accident_pct": 0})
    root = make_campaign(tmp_path / "c", data)
    orders(root, "K", {"movement": [{"ship": "N", **s} for s in W1_CHAIN]})
    orders(root, "D", {})
    assert problems_of(root) == {("W-MOV-PATH", "K", "D3")}
    first = pipeline.run(root)
    assert first.status == "waiting"
    requested = sheet_rows(first.gm_input, "Combates", "es")
    assert requested[1][:6] == ["INVASIÓN:0307:N:9", "Invasión", "0307", 9, "K", "N"]  # the kind in the GM's words
    assert requested[1][7] == 6 and requested[1][8] == "D" and requested[1][10] == 5  # 3 VL; one MH
    write_gm(root, {"combats": [{"id": "INVASION:0307:N:9", "result": "TAKEN"}]})
    done = pipeline.run(root)
    assert done.status == "resolved"
    assert treasury(root, "K") == 1000 - 135 - 3 * 2.5 - 3 * 2.5
    owners = {s["hex"]: s["owner"] for s in table(root, "systems")}
    assert owners["0307"] == "K"
    ships = table(root, "jumpships")
    assert ships[0]["hex"] == "0307"
    route = sheet_rows(done.results["K"], "Informe", "es")
    assert any(r[:2] == ["N", 1] and "0306" in str(r[4]) for r in route)
    assert any(r[:2] == ["N", 9] and "0307" in str(r[4]) for r in route)
    assert any("Invasión de 0307" in str(r) for r in sheet_rows(done.results["D"], "Informe", "es"))
    assert not any(str(r[0]) == "N" for r in sheet_rows(done.results["D"], "Informe", "es"))


# ------------------------------------------------------------------------ the example: fog and replay


def test_example_fog_of_war_no_faction_sees_foreign_forces_it_did_not_meet(tmp_path: Path) -> None:
    """Each faction's results hold no foreign regiment or jumpship it did not meet in combat, in no cell of
    any sheet (hidden ones included), defined name, comment or document property; the GM sees them all."""
    from tests.inner_sphere.kit import RULESET

    root = tmp_path / "ex"
    pipeline.new_campaign(RULESET, root, example=True)
    before = pipeline.open_campaign(root)[1]
    regiments = before.tables["regiments"].to_dict("records")
    ships = before.tables["jumpships"].to_dict("records")
    outcome = pipeline.run(root)
    assert outcome.status == "resolved"
    # What each learned: the invaders and raiders it met, and what it wrote in its own orders (Kurita's
    # repair order names Liao's L5 and its agency order Davion's D2, whose name it knew; Liao's movement
    # order names Kurita's K-NS3).
    met = {"DAVION": {"K2", "K-NS3"}, "KURITA": {"L5", "D2"}, "LIAO": {"D4", "D-NS1", "K-NS3"}, "STEINER": set()}
    for faction in sorted(before.factions):
        text = _everything(outcome.results[faction])
        foreign = [(r["id"], r["name"]) for r in regiments if r["owner"] != faction and r["id"] not in met[faction]]
        foreign += [(s["id"], s["id"]) for s in ships if s["owner"] != faction and s["id"] not in met[faction]]
        leaks = [(i, n) for i, n in foreign if n in text or re.search(rf"\b{re.escape(i)}\b", text)]
        assert leaks == [], (faction, leaks)
        own = [r["name"] for r in regiments if r["owner"] == faction]
        assert all(name in text for name in own), faction


def test_example_replay_same_seed_same_routes_and_reading_order_changes_nothing(tmp_path: Path) -> None:
    from tests.inner_sphere.kit import RULESET

    reports = []
    for n, order in enumerate((sorted, lambda xs: sorted(xs, reverse=True))):
        root = tmp_path / f"ex{n}"
        pipeline.new_campaign(RULESET, root, example=True)
        inbox = order(sorted((root / "inbox").glob("*.xlsx")))
        outcome = pipeline.run(root, inbox)
        assert outcome.status == "resolved"
        reports.append({f: all_values(p) for f, p in sorted(outcome.results.items())})
    assert reports[0] == reports[1]
    assert "Salta a 0203." in str(reports[0]["KURITA"])


def test_a_row_with_a_bad_cell_rejects_its_whole_chain() -> None:
    """A row that failed its cell checks (refused by the engine) takes its whole chain with it
    (an invalid chain is rejected whole): nothing of the chain moves or is charged."""
    specs = codes(W1_CHAIN)
    specs[2] = {**specs[2], "rejected": True}
    _, outcomes, chains, ledger = plan(w1_tables(), "K", specs, links=W1_LINKS)
    assert chains == [] and ledger.lines == []
    assert ("movement", 4) not in outcomes  # the bad row speaks through its own problem
    assert {o.code for o in outcomes.values()} == {"E-MOV-CHAIN"} and all(o.quiet for o in outcomes.values())
    assert "row 4" in outcomes[("movement", 2)].message.render("en")
