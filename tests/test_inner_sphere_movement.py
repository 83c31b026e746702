"""Inner Sphere, part 2: jumpship movement chains (spec §4.3, §6.5, worked examples W1–W6, rulings A2,
A6, A7, A17–A21, A44, A49), on the rule functions and through real workbooks and turns."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd

from adjudicator.campaign import pipeline
from adjudicator.dice import Dice
from adjudicator.engine.registry import find_ruleset
from adjudicator.ledger import Ledger
from adjudicator.rulesets.inner_sphere.data import tariffs
from adjudicator.rulesets.inner_sphere.orders import movement
from adjudicator.rulesets.inner_sphere.orders.common import Context, Done, OrderRow, Rejection
from adjudicator.rulesets.inner_sphere.phases import movement as move_phase
from adjudicator.rulesets.inner_sphere.state import World, world_from_tables
from tests.helpers import all_values, make_campaign, sheet_rows, write_gm
from tests.test_inner_sphere import orders, problems_of, table, treasury, world_data

PARAMS = find_ruleset("inner_sphere").parameters().defaults()

# W1: Kurita's NS3 at Kentares IV; Johnson and Valexa are its own, Archemar is Davion's.
W1_SYSTEMS = [
    {"hex": "0305", "name": "Kentares IV", "owner": "K"}, {"hex": "0407", "name": "Johnson", "owner": "K"},
    {"hex": "0306", "name": "Valexa", "owner": "K"}, {"hex": "0307", "name": "Archemar", "owner": "D"},
]
W1_REGIMENTS = [
    *[{"id": f"J{n}", "owner": "K", "type": "VL", "experience": "GREEN", "system": "0407"} for n in (1, 2, 3)],
    *[{"id": f"V{n}", "owner": "K", "type": "VL", "experience": "GREEN", "system": "0306"} for n in (1, 2, 3)],
    {"id": "A1", "owner": "D", "type": "MH", "experience": "VETERAN", "system": "0307"},
]
W1_CHAIN = [
    {"action": "Inicio", "hexes": "0305"},
    {"action": "Movimiento", "hexes": "0407"},
    {"action": "Cargar", "regiments": "J1, J2, J3"},
    {"action": "Movimiento", "hexes": "0306"},
    {"action": "Descargar", "regiments": "J1, J2, J3"},
    {"action": "Esperar"},
    {"action": "Cargar", "regiments": "V1, V2, V3"},
    {"action": "Movimiento", "hexes": "0307"},
    {"action": "Invasión", "hexes": "0307"},
]
W1_LINKS = [{"a": "0305", "b": "0407"}, {"a": "0407", "b": "0306"}, {"a": "0306", "b": "0307"}]


def tables_of(systems: list[dict[str, Any]], regiments: list[dict[str, Any]], ships: list[dict[str, Any]],
              **more: list[dict[str, Any]]) -> dict[str, pd.DataFrame]:
    factions = sorted({s["owner"] for s in systems if s.get("owner")} | {s["owner"] for s in ships})
    frames = {"factions": [{"id": f, "treasury": 1000} for f in factions], "systems": systems,
              "regiments": regiments, "jumpships": ships, **more}
    return {k: pd.DataFrame(v) for k, v in frames.items()}


def plan(tables: dict[str, pd.DataFrame], faction: str, specs: list[dict[str, Any]], ship: str = "N",
         params: dict[str, Any] | None = None, links: list[dict[str, str]] | None = None,
         ) -> tuple[World, dict[tuple[str, int], Done | Rejection], list[movement.Chain], Ledger]:
    """Validate and pay ``faction``'s chain rows (rows numbered from 2, as in the sheet)."""
    world = world_from_tables(tables)
    ledger = Ledger(1)
    ctx = Context({**PARAMS, **(params or {})}, 1, ledger, tariffs(None), world.copy(), {faction})
    rows = [OrderRow(faction, "movement", n, spec["kind"], {"ship": ship, **spec}, bool(spec.get("rejected")))
            for n, spec in enumerate(({**s, "kind": s["action"]} for s in specs), start=2)]
    area = movement.Map([(x["a"], x["b"]) for x in links or []], ctx.params["hex_layout"])
    outcomes, chains = movement.carry_out(world, ctx, faction, rows, area)
    return world, outcomes, chains, ledger


ACTIONS = {"Inicio": "START", "Movimiento": "MOVE", "Cargar": "LOAD", "Descargar": "UNLOAD", "Esperar": "WAIT",
           "Invasión": "INVADE", "Saquear": "RAID", "Retirada": "RETREAT"}


def codes(specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**s, "action": ACTIONS.get(s["action"], s["action"])} for s in specs]


def w1_tables(**more: list[dict[str, Any]]) -> dict[str, pd.DataFrame]:
    return tables_of(W1_SYSTEMS, W1_REGIMENTS, [{"id": "N", "owner": "K", "class": "NS3", "hex": "0305"}], **more)


# ------------------------------------------------------------------------------------- W1, the NS3 route
def test_w1_geometry_expands_0305_to_0407_through_0306_nine_steps_135_c_checks_at_6_to_9() -> None:
    world, outcomes, chains, ledger = plan(w1_tables(), "K", codes(W1_CHAIN))
    (chain,) = chains
    assert [s.hex for s in chain.steps if s.action == "MOVE"] == ["0306", "0407", "0306", "0307"]
    assert len(chain.steps) == 9 and chain.cost == 135
    assert [s.action for s in chain.steps if s.number > 5] == ["WAIT", "LOAD", "MOVE", "INVADE"]
    warning = outcomes[("movement", 3)].warning
    assert warning is not None and "0305, 0306, 0407" in warning.render("en")
    assert sum(x.change for x in ledger.lines) == -(135 - 15)  # the 1-hex minimum is paid with the upkeep


def test_w1_with_the_gms_links_eight_steps_120_c() -> None:
    _, outcomes, chains, _ = plan(w1_tables(), "K", codes(W1_CHAIN), links=W1_LINKS)
    assert len(chains[0].steps) == 8 and chains[0].cost == 120
    assert all(o.warning is None for o in outcomes.values() if isinstance(o, Done))


def test_w1_without_auto_path_the_move_is_rejected_e_mov_adj_and_the_whole_chain_with_it() -> None:
    _, outcomes, chains, ledger = plan(w1_tables(), "K", codes(W1_CHAIN), params={"auto_path": False})
    assert chains == [] and ledger.lines == []
    assert outcomes[("movement", 3)].code == "E-MOV-ADJ" and outcomes[("movement", 3)].column == "hexes"
    assert all(isinstance(o, Rejection) for o in outcomes.values())
    assert sum(1 for o in outcomes.values() if not o.quiet) == 1


def run_w1(params: dict[str, Any], points: list[dict[str, Any]] | None = None
           ) -> tuple[World, move_phase.Movement, Dice]:
    tables = w1_tables(research_points=points or [{"faction": "K", "line": "ECO", "points": 0}])
    world, _, chains, _ = plan(tables, "K", codes(W1_CHAIN), params=params, links=W1_LINKS)
    dice = Dice(7, 1)
    moved = move_phase.execute(world, chains, dice, {**PARAMS, **params}, tariffs(None))
    return world, moved, dice


def test_w1_the_move_to_archemar_fails_the_ship_stays_at_valexa_with_three_aboard_no_invasion() -> None:
    """AERO 150 gives +1 safe hex (safe 6): the first check is the move to 0307 (step 7); at 100% it fails."""
    world, moved, dice = run_w1({"accident_pct": 100}, [{"faction": "K", "line": "AERO", "points": 150}])
    assert [r.purpose for r in dice.sorted_log()] == ["accident:K:N:step7"]
    assert world.jumpships["N"].hex == "0306"
    assert sorted(r.id for r in world.regiments.values() if r.jumpship == "N") == ["V1", "V2", "V3"]
    assert moved.engagements == [] and not any(r.action == "INVADE" for r in moved.routes)
    assert {r.id for r in world.regiments.values() if r.system == "0306"} == {"J1", "J2", "J3"}


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


def test_w1_at_0_percent_the_invasion_lands_and_the_gm_gets_the_combat() -> None:
    world, moved, _ = run_w1({"accident_pct": 0})
    assert world.jumpships["N"].hex == "0307"
    kinds = [(e.kind, e.system, e.step, e.regiments) for e in moved.engagements]
    assert kinds == [("INVASION", "0307", 8, ("V1", "V2", "V3"))]
    assert [r.step for r in moved.routes if r.action] == list(range(1, 9))


# --------------------------------------------------------------------------------- W2–W6, NS1 chains
NS1_SYSTEMS = [{"hex": f"0{c}00", "name": f"S{c}", "owner": "K"} for c in range(1, 8)]


def ns1(regiments: list[dict[str, Any]], systems: list[dict[str, Any]] | None = None,
        hex_: str = "0100") -> dict[str, pd.DataFrame]:
    systems = systems or [{"hex": "0100", "name": "Dieron", "owner": "K"}, *NS1_SYSTEMS]
    return tables_of(systems, regiments, [{"id": "N", "owner": "K", "class": "NS1", "hex": hex_}])


def test_w4_dieron_to_kandis_load_and_six_hexes_is_7_steps_35_c_no_checks() -> None:
    regiments = [{"id": "R", "owner": "K", "type": "VL", "experience": "GREEN", "system": "0100"}]
    specs = [{"action": "START"}, {"action": "LOAD", "regiments": "R"},
             {"action": "MOVE", "hexes": "0200, 0300, 0400, 0500, 0600, 0700"}]
    world, outcomes, chains, _ = plan(ns1(regiments), "K", specs)
    assert len(chains[0].steps) == 7 and chains[0].cost == 35
    assert all(o.warning is None for o in outcomes.values())
    dice = Dice(1, 1)
    move_phase.execute(world, chains, dice, PARAMS, tariffs(None))
    assert dice.log == [] and world.jumpships["N"].hex == "0700" and world.regiments["R"].jumpship == "N"
    # An unload at Kandis is step 8: one check, and only in an own system.
    foreign = [{"hex": "0100", "name": "Dieron", "owner": "K"}, *NS1_SYSTEMS[:-1],
               {"hex": "0700", "name": "Kandis", "owner": "D"}]
    _, outcomes, _, _ = plan(ns1(regiments, foreign), "K", [*specs, {"action": "UNLOAD"}])
    assert outcomes[("movement", 5)].code == "E-MOV-OWNSYS"
    world, _, chains, _ = plan(ns1(regiments), "K", [*specs, {"action": "UNLOAD"}])
    dice = Dice(1, 1)
    move_phase.execute(world, chains, dice, PARAMS, tariffs(None))
    assert [r.purpose for r in dice.log] == ["accident:K:N:step8"]


def test_w5_later_turn_back_to_dieron_and_unload_needs_no_start_presence() -> None:
    regiments = [{"id": "R", "owner": "K", "type": "VL", "experience": "GREEN", "jumpship": "N"}]
    specs = [{"action": "START", "hexes": "0700"}, {"action": "MOVE", "hexes": "0600,0500,0400,0300,0200,0100"},
             {"action": "UNLOAD", "regiments": "R", "hexes": "0100"}]
    world, _, chains, _ = plan(ns1(regiments, hex_="0700"), "K", specs)
    assert len(chains[0].steps) == 7 and chains[0].cost == 35
    move_phase.execute(world, chains, Dice(1, 1), PARAMS, tariffs(None))
    assert (world.regiments["R"].system, world.regiments["R"].jumpship) == ("0100", "")


def test_w2_shuttle_ten_steps_50_c_three_checks_and_second_loads_need_start_presence() -> None:
    systems = [{"hex": "0101", "name": "A", "owner": "K"}, {"hex": "0102", "name": "B", "owner": "K"}]
    regiments = [{"id": r, "owner": "K", "type": "VL", "experience": "GREEN", "system": h}
                 for r, h in (("A1", "0101"), ("B1", "0102"), ("B2", "0102"))]
    specs = [{"action": "START"}, {"action": "LOAD", "regiments": "A1"}, {"action": "MOVE", "hexes": "0102"},
             {"action": "UNLOAD"}, {"action": "LOAD", "regiments": "B1"}, {"action": "MOVE", "hexes": "0101"},
             {"action": "UNLOAD"}, {"action": "MOVE", "hexes": "0102"}, {"action": "LOAD", "regiments": "A1"},
             {"action": "MOVE", "hexes": "0101"}, {"action": "UNLOAD"}]
    tables = tables_of(systems, regiments, [{"id": "N", "owner": "K", "class": "NS1", "hex": "0101"}])
    _, outcomes, _, _ = plan(tables, "K", specs)
    assert outcomes[("movement", 10)].code == "E-MOV-NOTHERE"  # A1 was not at 0102 at the start of the turn
    specs[8] = {"action": "LOAD", "regiments": "B1"}
    _, outcomes, _, _ = plan(tables, "K", specs)
    assert outcomes[("movement", 10)].code == "E-MOV-REGDUP"  # B1 was already carried once this turn
    specs[8] = {"action": "LOAD", "regiments": "B2"}
    world, outcomes, chains, _ = plan(tables, "K", specs)
    assert len(chains[0].steps) == 10 and chains[0].cost == 50
    dice = Dice(3, 1)
    move_phase.execute(world, chains, dice, {**PARAMS, "accident_pct": 0}, tariffs(None))
    assert [r.purpose for r in dice.sorted_log()] == [f"accident:K:N:step{k}" for k in (10, 8, 9)]
    assert {r.id: r.system for r in world.regiments.values()} == {"A1": "0102", "B1": "0101", "B2": "0101"}


def test_w3_four_waits_load_move_invade_is_seven_steps_35_c_no_checks() -> None:
    systems = [{"hex": "0101", "name": "A", "owner": "K"}, {"hex": "0102", "name": "B", "owner": "D"}]
    regiments = [{"id": "R", "owner": "K", "type": "VL", "experience": "GREEN", "system": "0101"}]
    specs = [{"action": "START"}, *[{"action": "WAIT"}] * 4, {"action": "LOAD", "regiments": "R"},
             {"action": "MOVE", "hexes": "0102"}, {"action": "INVADE"}]
    world, _, chains, _ = plan(tables_of(systems, regiments, [{"id": "N", "owner": "K", "class": "NS1",
                                                               "hex": "0101"}]), "K", specs)
    assert len(chains[0].steps) == 7 and chains[0].cost == 35
    dice = Dice(1, 1)
    moved = move_phase.execute(world, chains, dice, PARAMS, tariffs(None))
    assert dice.log == [] and [(e.kind, e.step) for e in moved.engagements] == [("INVASION", 7)]


def test_w6_pirate_raid_two_rounds_six_steps_30_c_and_raiders_go_home() -> None:
    systems = [{"hex": "0101", "name": "Home", "owner": "P"}, {"hex": "0102", "name": "Prey", "owner": "D",
                                                                "defence": 1}]
    regiments = [{"id": "R", "owner": "P", "type": "VL", "experience": "GREEN", "system": "0101"},
                 {"id": "G", "owner": "D", "type": "VL", "experience": "GREEN", "system": "0102"}]
    specs = [{"action": "START"}, {"action": "LOAD", "regiments": "R"}, {"action": "MOVE", "hexes": "0102"},
             {"action": "Saquear", "rounds": 2}, {"action": "LOAD", "regiments": "R"},
             {"action": "MOVE", "hexes": "0101"}]
    ships = [{"id": "N", "owner": "P", "class": "NS1", "hex": "0101"}]
    world, outcomes, chains, _ = plan(tables_of(systems, regiments, ships), "P", codes(specs))
    assert len(chains[0].steps) == 6 and chains[0].cost == 30
    moved = move_phase.execute(world, chains, Dice(1, 1), PARAMS, tariffs(None))
    assert world.jumpships["N"].hex == "0101" and world.regiments["R"].jumpship == "N"
    assert [(e.kind, e.step, e.rounds) for e in moved.engagements] == [
        ("RAID", 3, 2), ("DEFENCE_FIRE", 3, 0), ("DEFENCE_FIRE", 5, 0)]  # landing, and reloading in a foreign system
    assert [r.text.render("en") for r in moved.routes if r.action == "RAID"] == [
        "Raid on 0102, round 1: R land.", "Raid on 0102, round 2."]


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
    assert requested[1][:6] == ["INVASION:0307:N:9", "Invasión", "0307", 9, "K", "N"]
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
def _everything(path: Path) -> str:
    """Every text a workbook holds: cells of every sheet (hidden ones too), defined names, comments, and
    document properties."""
    import openpyxl

    book = openpyxl.load_workbook(path)
    parts = [str(getattr(book.properties, name, "") or "") for name in
             ("title", "subject", "creator", "keywords", "description", "category", "identifier")]
    parts += [f"{name}={dn.attr_text}" for name, dn in book.defined_names.items()]
    for ws in book.worksheets:
        parts.append(ws.title)
        for row in ws.iter_rows():
            for cell in row:
                if cell.value is not None and not str(cell.value).startswith("="):  # formulas refer to cells
                    parts.append(str(cell.value))
                if cell.comment is not None:
                    parts.append(cell.comment.text)
    return "\n".join(parts)


def test_example_fog_of_war_no_faction_sees_foreign_forces_it_did_not_meet(tmp_path: Path) -> None:
    """Each faction's results hold no foreign regiment or jumpship it did not meet in combat, in no cell of
    any sheet (hidden ones included), defined name, comment or document property; the GM sees them all."""
    from tests.test_inner_sphere import RULESET

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
    from tests.test_inner_sphere import RULESET

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
