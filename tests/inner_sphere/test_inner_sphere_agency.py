"""Inner Sphere, part 3: the intelligence agency, operations 341–354 (spec §2.5, §4.4, §5, §6.6, A3–A5,
A23–A36), on the rule functions with chosen dice, and through real workbooks and turns."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from adjudicator.dice import Dice
from adjudicator.engine.ledger import Ledger
from adjudicator.rulesets.inner_sphere import schemas
from adjudicator.rulesets.inner_sphere.data import tariffs
from adjudicator.rulesets.inner_sphere.orders import agency
from adjudicator.rulesets.inner_sphere.orders.agency import sabotage, unrest
from adjudicator.rulesets.inner_sphere.orders.agency.common import Agency, d4
from adjudicator.rulesets.inner_sphere.orders.base import FactionState
from adjudicator.rulesets.inner_sphere.orders.common import Context, Rejection
from adjudicator.rulesets.inner_sphere.orders.movement import Chain, Step
from adjudicator.rulesets.inner_sphere.state import world_from_tables, world_to_tables
from tests.inner_sphere.kit import PARAMS, TURN, ChosenDice, carry_out, code, sheet_of, tables, turn


def told(result: Agency, faction: str) -> str:
    return " | ".join(text.render("en") for f, text in result.notices if f == faction)


def outcome(result: Agency, faction: str, row: int = 2) -> str:
    op = next(o for o in result.ops if o.faction == faction and o.row == row)
    return op.result.render("en") if op.result else ""




# ------------------------------------------------------------------------------------------ 341 purge
@pytest.mark.parametrize(("nat", "left", "text"), [
    (2, set(), "KA (K), KC (K)"),  # 1–3: all
    (5, {"KC"}, "KA (K)"),  # 4–6: one, chosen by a die (1 → the first, KA)
    (7, {"KA", "KC"}, "foreign agents are present"),  # 7–8: told only that spies exist
    (9, {"KA", "KC"}, "nothing found"),
])
def test_341_purge_all_one_presence_or_nothing(nat: int, left: set[str], text: str) -> None:
    world, outcomes, result, ledger = turn({"D": [{"op": "341", "target": "0103"}]}, {"agency:341:D:2": nat})
    assert code(outcomes, "D") == ("OK", "")
    assert {c for c in world.commandos if c.startswith("K")} == left
    assert text in outcome(result, "D")
    assert ("dismantled" in told(result, "K")) == (nat <= 6)
    assert sum(x.change for x in ledger.lines) == -30


def test_341_only_own_systems_and_purged_commandos_take_their_operations_with_them() -> None:
    world, outcomes, result, ledger = turn(
        {"D": [{"op": "341", "target": "0103"}, {"op": "341", "target": "0101"}],
         "K": [{"op": "353", "target": "0103"}]}, {"agency:341:D:2": 1})
    assert code(outcomes, "D", 3) == ("E-AG-DEF", "target")
    assert "dismantled earlier" in outcome(result, "K")
    assert not [x for x in world_from_tables(tables()).commandos if x not in world.commandos and x[0] == "D"]
    assert sum(x.change for x in ledger.lines if x.faction == "K") == -10  # the cost is still charged


# ------------------------------------------------------------------------------------- 342 commandos
def test_342_new_within_5_hexes_bonus_from_bribes_and_commandos_detection_tells_the_owner() -> None:
    world, outcomes, result, ledger = turn(
        {"K": [{"op": "342", "target": "0104", "bribe": 40},  # B = 2: nat 5 → eff 3, success
               {"op": "342", "target": "0103"},  # B = 2 (KC, and KA on D1 there): nat 6 → eff 4, failure
               {"op": "342", "target": "0108"},  # 6 hexes from Kandis
               {"op": "342", "target": "0104", "bribe": 30},
               {"op": "342", "target": "0102"}]},
        {"agency:342:K:2": 5, "agency:342:K:2:detect": 8, "agency:342:K:3": 6, "agency:342:K:3:detect": 7})
    assert [code(outcomes, "K", r) for r in (4, 5, 6)] == [("E-AG-RANGE", "target"), ("E-AG-BRIBE", "bribe"),
                                                           ("E-AG-OFF", "target")]
    assert world.commandos["K-T2-C2"].system == "0104" and world.commandos["K-T2-C2"].established_turn == TURN
    assert "K-T2-C3" not in world.commandos and "could not enter" in outcome(result, "K", 3)
    assert told(result, "D") == "Commandos of K detected entering Skye."
    assert sum(x.change for x in ledger.lines) == -(10 + 40 + 10)


def test_342_advance_one_hex_and_attach_to_a_known_regiment_that_it_then_follows() -> None:
    frames = tables()
    world, outcomes, result, _ = turn(
        {"K": [{"op": "342", "mode": "ADVANCE", "commando": "KC", "target": "0104"},
               {"op": "342", "mode": "ADVANCE", "commando": "KC", "target": "0108"},
               {"op": "342", "mode": "ATTACH", "commando": "KC", "regiment": "D2"},
               {"op": "342", "mode": "ATTACH", "commando": "DC", "regiment": "D1"}]},
        {"agency:342:K:2": 3}, frames)
    assert world.commandos["KC"].system == "0104" and "advanced" in outcome(result, "K")
    assert [code(outcomes, "K", r) for r in (3, 4, 5)] == [("E-AG-RANGE", "target"), ("E-AG-UNKNOWNREG", "regiment"),
                                                           ("E-AG-NOCOM", "commando")]
    frames["known_regiments"] = pd.DataFrame([{"faction": "K", "regiment": "D1"}, {"faction": "K", "regiment": "D2"}])
    world, outcomes, _, ledger = turn({"K": [{"op": "342", "mode": "ATTACH", "commando": "KC", "regiment": "D1"},
                                             {"op": "342", "mode": "ATTACH", "commando": "KA", "regiment": "D2"}]},
                                      {}, frames)
    assert code(outcomes, "K", 3) == ("E-AG-REGLOC", "regiment")
    assert world.commandos["KC"].regiment == "D1" and ledger.lines == []  # free and automatic
    world.regiments["D1"].system = "0104"  # the regiment moves: its commando goes with it
    assert world.where(world.commandos["KC"]) == "0104"
    world.regiments["D1"].system, world.regiments["D1"].jumpship = "", "D-NS1"
    assert world.where(world.commandos["KC"]) == ""  # aboard: out of reach of purges
    tables_after = world_to_tables(world, frames)
    assert {r["id"]: r["regiment"] for r in tables_after["commandos"].to_dict("records")}["KC"] == "D1"


# ------------------------------------------------------------------------------ 343 / 344 industrial
def test_343_sabotage_halts_the_factories_for_1d4_turns_and_detection_names_the_saboteur() -> None:
    world, outcomes, result, _ = turn({"K": [{"op": "343", "target": "0103"}]},
                                      {"agency:343:K:2": 3, "agency:343:K:2:d4:1": 9, "agency:343:K:2:d4:2": 5,
                                       "agency:343:K:2:detect": 6})
    assert world.factories["0103-F1"].halted_until == TURN + 3 - 1  # d10 9 rerolled, 5 → d4 3
    assert "halted for 3 turns" in outcome(result, "K")
    assert "Industrial sabotage by K against 0103 detected" in told(result, "D")


def test_344_protection_gives_plus_1_to_the_sabotage_die_and_no_commando_no_factory_are_refused() -> None:
    world, outcomes, result, _ = turn({"D": [{"op": "344", "target": "0103"}, {"op": "344", "target": "0101"}],
                                       "K": [{"op": "343", "target": "0103"}, {"op": "343", "target": "0104"}]},
                                      {"agency:344:D:2": 7, "agency:343:K:2": 3, "agency:343:K:2:detect": 5})
    assert code(outcomes, "D", 3) == ("E-AG-DEF", "target")
    assert code(outcomes, "K", 3) == ("E-AG-NOCOM", "target")
    assert world.factories["0103-F1"].halted_until is None and "failed" in outcome(result, "K")
    assert told(result, "D") == ""
    frames = tables(commandos=[{"id": "KC", "owner": "K", "system": "0104", "established_turn": 1}])
    assert code(turn({"K": [{"op": "343", "target": "0104"}]}, {}, frames)[1], "K") == ("E-AG-NOFACT", "target")


def test_comm_research_bonuses_help_protection_and_sabotage() -> None:
    points = [{"faction": "D", "line": "COMM", "points": 100}, {"faction": "K", "line": "COMM", "points": 250}]
    world, _, result, _ = turn({"D": [{"op": "344", "target": "0103"}], "K": [{"op": "343", "target": "0103"}]},
                               {"agency:344:D:2": 8, "agency:343:K:2": 4}, tables(research_points=points))
    assert [(o.op, o.nat, o.eff, o.success) for o in result.ops] == [("344", 8, 7, True), ("343", 4, 4, False)]


# --------------------------------------------------------------------------------- 345 / 346 military
def _chain(regiment: str) -> Chain:
    return Chain("D", "D-NS1", "NS1", "0103", [Step(1, 2, "LOAD", "0103", (regiment,))])


@pytest.mark.parametrize(("repairing", "loading", "effect"), [
    (True, True, "repair"), (False, True, "load"), (False, False, "combat")])
def test_345_prevents_repair_then_loading_then_combat_in_that_order(repairing: bool, loading: bool,
                                                                     effect: str) -> None:
    jobs = [{"id": "R", "faction": "D", "kind": "REPAIR", "system": "0103", "item": "D1", "turns_left": 1}]
    frames = tables(jobs=jobs if repairing else [])
    world, _, result, _ = turn({"K": [{"op": "345", "target": "D1"}]}, {"agency:345:K:2": 4}, frames,
                               chains={"D": [_chain("D1")] if loading else []})
    assert (world.jobs[0].turns_left == 2) if repairing else world.jobs == []
    assert ("D1" in result.skipped) == (effect == "load")
    assert ("D1" in result.no_combat) == (effect == "combat")
    assert "Regiment D1 was sabotaged" in told(result, "D") and "by K" not in told(result, "D")


def test_345_all_mode_and_346_protection_and_the_commando_must_be_attached() -> None:
    jobs = [{"id": "R", "faction": "D", "kind": "REPAIR", "system": "0103", "item": "D1", "turns_left": 1}]
    world, _, result, _ = turn({"K": [{"op": "345", "target": "D1"}]}, {"agency:345:K:2": 4}, tables(jobs=jobs),
                               {"military_sabotage_mode": "all"}, chains={"D": [_chain("D1")]})
    assert world.jobs[0].turns_left == 2 and "D1" in result.skipped and "D1" in result.no_combat
    _, outcomes, result, _ = turn({"D": [{"op": "346", "target": "D1"}], "K": [{"op": "345", "target": "D1"},
                                                                              {"op": "345", "target": "D2"},
                                                                              {"op": "345", "target": "K1"}]},
                                  {"agency:346:D:2": 1, "agency:345:K:2": 4, "agency:345:K:2:detect": 7})
    assert not result.no_combat and "K against D1 detected" in told(result, "D")
    assert [code(outcomes, "K", r) for r in (3, 4)] == [("E-AG-NOCOM", "target"), ("E-AG-OFF", "target")]


# ----------------------------------------------------------------------------- 347 / 348 technological
@pytest.mark.parametrize(("nat", "reroll", "target_after", "actor_after"), [
    (3, 5, 500, 100),  # 3: the gain (10) is only prevented
    (2, 5, 490, 110),  # 2: X stolen and subtracted
    (1, 5, 480, 120),  # 1: 2X
    (1, 1, 480, 500),  # natural 1 twice: top-secret plans, the actor equals the robbed state's level
    (4, 5, 510, 100),  # failure: the target keeps its gain
])
def test_347_steals_research_of_this_turn(nat: int, reroll: int, target_after: int, actor_after: int) -> None:
    world, outcomes, result, _ = turn({"K": [{"op": "347", "target": "D:IND"}]},
                                      {"agency:347:K:2": nat, "agency:347:K:2:reroll": reroll})
    world.points[("D", "IND")] = 510  # Davion's research this turn rolled +10
    sabotage.steal(world, result, {("D", "IND"): (500, 10)})
    assert (world.line_points("D", "IND"), world.line_points("K", "IND")) == (target_after, actor_after)


def test_348_protects_a_line_and_347_needs_a_commando_anywhere_in_the_state() -> None:
    _, outcomes, result, _ = turn({"D": [{"op": "348", "target": "IND"}],
                                   "K": [{"op": "347", "target": "D:Industrial"}, {"op": "347", "target": "L:IND"},
                                         {"op": "347", "target": "D:NOPE"}]},
                                  {"agency:348:D:2": 2, "agency:347:K:2": 3, "agency:347:K:2:detect": 6})
    assert result.thefts == [] and "K against D:IND detected" in told(result, "D")
    assert [code(outcomes, "K", r) for r in (3, 4)] == [("E-AG-NOCOM", "target"), ("E-GEN-NOTFOUND", "target")]


# ------------------------------------------------------------------------------------ 349 – 351 unrest
def test_349_350_set_discontent_and_a_low_success_counts_as_a_revolt() -> None:
    world, _, result, _ = turn({"K": [{"op": "349", "target": "0103"}, {"op": "350", "target": "0103"}]},
                               {"agency:349:K:2": 7, "agency:349:K:2:detect": 9, "agency:350:K:3": 2,
                                "agency:350:K:3:outcome": 10})
    status = world.unrest["0103"]
    assert status.civil and status.military
    # the free 351 outcome of the 350's 2: o = 10 − 3 − 2 = 5 → disputed, severity 3
    assert status.revolt == 3 and status.instigator == "K" and world.systems["0103"].disputed
    assert "K was found fomenting Civil discontent in Hesperus" in told(result, "D")
    assert "Military discontent broke out in Hesperus" in told(result, "D")


def test_349_fails_while_the_system_is_quiet_and_unrest_modifiers_help_instigators() -> None:
    quiet = tables(unrest=[{"hex": "0103", "quiet_until": TURN}])
    world, _, result, ledger = turn({"K": [{"op": "349", "target": "0103"}]}, {"agency:349:K:2": 1}, quiet)
    assert "quiet" in outcome(result, "K") and not world.unrest["0103"].civil and ledger.lines
    mods = tables(unrest_mods=[{"hex": "0103", "value": 3, "first_turn": 1, "last_turn": 5}])
    world, _, result, _ = turn({"K": [{"op": "350", "target": "0103"}]}, {"agency:350:K:2": 10}, mods)
    assert result.ops[0].eff == 7 and world.unrest["0103"].military


@pytest.mark.parametrize(("o", "owner", "disputed", "severity", "defect"), [
    (10, "D", True, 0, set()), (7, "D", True, 1, set()), (4, "D", True, 3, set()),
    (2, "K", True, None, set()),  # control passes; D1 stays loyal (its die 6), so the system is disputed
    (1, "K", False, None, {"D1"}),
])
def test_351_revolt_outcome_table(o: int, owner: str, disputed: bool, severity: int | None,
                                  defect: set[str]) -> None:
    world, _, result, _ = turn({"K": [{"op": "351", "target": "0103"}]},
                               {"agency:351:K:2": 5, "agency:351:K:2:outcome": o, "agency:351:K:2:loyal:D1": 6})
    told_ = unrest.apply_transfers(world, result)
    assert world.systems["0103"].owner == owner and world.systems["0103"].disputed == disputed
    assert (world.unrest.get("0103").revolt if "0103" in world.unrest else None) == severity
    assert {r for r in ("D1",) if world.regiments[r].owner == "K"} == defect
    assert any(f == "D" for f, _ in told_) == (owner == "K")


def test_351_without_troops_passes_control_and_discontent_lowers_the_outcome() -> None:
    frames = tables(regiments=[], unrest=[{"hex": "0103", "civil": "YES", "military": "YES"}])
    world, _, result, _ = turn({"K": [{"op": "351", "target": "0103"}]}, {"agency:351:K:2": 5}, frames)
    assert result.transfers == [("0103", "K")]
    world, _, result, _ = turn({"K": [{"op": "351", "target": "0103"}]},
                               {"agency:351:K:2": 5, "agency:351:K:2:outcome": 10}, frames,
                               {"revolt_no_troops": "roll"})
    assert result.transfers == [] and world.unrest["0103"].revolt == 3  # the table is rolled: 10 − 3 − 2 = 5
    world, _, result, _ = turn({"K": [{"op": "351", "target": "0103"}]},
                               {"agency:351:K:2": 5, "agency:351:K:2:outcome": 9},
                               tables(unrest=[{"hex": "0103", "civil": "YES", "military": "YES"}]))
    assert world.unrest["0103"].revolt == 3 and result.transfers == []  # 9 − 3 − 2 = 4
    world, _, result, _ = turn({"K": [{"op": "351", "target": "0103"}]}, {"agency:351:K:2": 6})
    assert "No revolt" in outcome(result, "K") and "0103" not in world.unrest


# ------------------------------------------------------------------------------ 352 bread and circuses
@pytest.mark.parametrize(("nat", "gone", "quiet", "mods"), [
    (1, True, TURN + 3, [("0103", -2, TURN + 4, TURN + 8)]),
    (3, True, TURN + 1, [("0103", -1, TURN + 2, TURN + 4)]),
    (6, True, None, []),
    (8, False, None, [("0103", 1, TURN + 1, TURN + 3)]),
])
def test_352_quells_with_lasting_modifiers(nat: int, gone: bool, quiet: int | None, mods: list[Any]) -> None:
    frames = tables(unrest=[{"hex": "0103", "civil": "YES"}])
    world, outcomes, result, ledger = turn({"D": [{"op": "352", "target": "0103", "status": "CIVIL"}]},
                                           {"agency:352:D:2": nat}, frames)
    assert world.unrest["0103"].civil != gone and world.unrest["0103"].quiet_until == quiet
    assert world.unrest_mods == mods and sum(x.change for x in ledger.lines) == -50


def test_352_ten_force_of_arms_committed_regiments_roll_and_validations() -> None:
    frames = tables(unrest=[{"hex": "0103", "revolt": 1, "instigator": "K"}],
                    regiments=[{"id": r, "name": r, "owner": "D", "type": "VL", "experience": "GREEN",
                                "system": "0103"} for r in ("R1", "R2", "R3")])
    world, outcomes, result, ledger = turn(
        {"D": [{"op": "352", "target": "0103", "status": "REVOLT", "regiments": "R1, R2, R3"},
               {"op": "352", "target": "0103", "status": "CIVIL"},
               {"op": "352", "target": "0104", "status": "REVOLT", "regiments": "R1"}]},
        {"agency:352:D:2": 10, "agency:352:D:2:unit:R1": 1, "agency:352:D:2:unit:R2": 3,
         "agency:352:D:2:unit:R3": 9}, frames)
    assert result.ops[0].eff == 10 - 3 + 1  # +3 committed, revolt severity 1 → 8: the revolt worsens
    assert [code(outcomes, "D", r) for r in (3, 4)] == [("E-AG-NOSTATUS", "status"), ("E-AG-NOSTATUS", "status")]
    assert ("R1", "K") in result.defections and "R2" in result.no_combat and "R3" in result.skipped
    assert sum(x.change for x in ledger.lines) == -200
    chain = Chain("D", "D-NS1", "NS1", "0103", [Step(1, 2, "LOAD", "0103", ("R2",))])
    _, outcomes, _, _ = turn({"D": [{"op": "352", "target": "0103", "status": "REVOLT", "regiments": "R1, R2"}]},
                             {}, frames, chains={"D": [chain]})
    assert code(outcomes, "D") == ("OK", "")  # 352 wins: the chain is the order refused (E-MOV-REGDUP)
    frames = tables(unrest=[{"hex": "0103", "military": "YES"}])
    world, _, result, _ = turn({"D": [{"op": "352", "target": "0103", "status": "MILITARY"}]},
                               {"agency:352:D:2": 10}, frames)
    assert world.unrest["0103"].force_only and ("0103", 3, TURN + 1, TURN + 10) in world.unrest_mods
    result.transfers.append(("0103", "K"))  # a later revolt cannot take it
    unrest.apply_transfers(world, result)
    assert world.systems["0103"].owner == "D"


# --------------------------------------------------------------------------------- 353 / 354 intel
def _intel(result: Agency, faction: str) -> list[tuple[str, str, str]]:
    def text(x: Any) -> str:
        return x.render("en") if hasattr(x, "render") else str(x)
    return [(text(r[1]), text(r[2]), text(r[3])) for f, r in result.intel if f == faction]


def test_353_full_report_names_regiments_which_become_known() -> None:
    world, _, result, _ = turn({"K": [{"op": "353", "target": "0103"}]}, {"agency:353:K:2": 2})
    rows = _intel(result, "K")
    assert ("Hesperus (0103)", "Regiment", "D1 Davion Guards, Heavy mechs, Veteran") in rows
    assert ("Hesperus (0103)", "Factory", "Medium factory: —") in rows
    assert ("K", "D1") in world.known and _intel(result, "D") == []


@pytest.mark.parametrize(("nat", "agent", "expected"), [
    (4, 1, [("Regiments", "1 × Heavy mechs"), ("Factory", "Medium factory"), ("Defence level", "0")]),
    (7, 1, [("Regiments", "1"), ("Factory", "YES"), ("Defence level", "0")]),
    (9, 3, [("Regiments", "1"), ("Factory", "YES"), ("Defence level", "0")]),  # double agent, true
    (9, 6, [("Regiments", "0–2"), ("Factory", "YES"), ("Defence level", "0–1")]),  # inconclusive
    (9, 9, [("Regiments", "0"), ("Factory", "YES"), ("Defence level", "0")]),  # false (counts × 0.5)
])
def test_353_partial_basic_and_double_agent_reports(nat: int, agent: int, expected: list[Any]) -> None:
    _, _, result, _ = turn({"K": [{"op": "353", "target": "0103"}]},
                           {"agency:353:K:2": nat, "agency:353:K:2:agent": agent})
    assert [(item, detail) for _, item, detail in _intel(result, "K")] == expected


def test_353_detection_on_10_and_354_rumours_reach_the_target_as_a_report() -> None:
    _, outcomes, result, ledger = turn(
        {"K": [{"op": "353", "target": "0103"}, {"op": "354", "target": "D", "text": "Liao masses at Chara."},
               {"op": "354", "target": "L", "text": "x"}]},
        {"agency:353:K:2": 3, "agency:353:K:2:detect": 10, "agency:354:K:3": 6, "agency:354:K:3:detect": 10})
    assert "Espionage by K detected in Hesperus" in told(result, "D")
    assert ("Chara (0505)", "Information", "Liao masses at Chara.") in _intel(result, "D")
    assert "K tried to spread rumours" in told(result, "D")
    assert code(outcomes, "K", 4) == ("E-AG-NOCOM", "target")
    assert sum(x.change for x in ledger.lines) == -(10 + 50)
    _, _, result, _ = turn({"K": [{"op": "354", "target": "D", "text": "y"}]}, {"agency:354:K:2": 7})
    assert _intel(result, "D") == [] and told(result, "D") == ""


# ------------------------------------------------------------------------------------- common rules
def test_duplicates_unknown_targets_and_funds() -> None:
    poor = tables(factions=[{"id": "K", "treasury": 30}, {"id": "D", "treasury": 0}, {"id": "L", "treasury": 0}])
    _, outcomes, _, _ = turn({"K": [{"op": "353", "target": "0103"}, {"op": "353", "target": "0103"},
                                    {"op": "349", "target": "0103"}, {"op": "341", "target": "0909"},
                                    {"op": "345", "target": "ZZ"}]}, {}, poor)
    assert [code(outcomes, "K", r) for r in (2, 3, 4, 5, 6)] == [
        ("OK", ""), ("E-AG-DUP", "target"), ("E-FUNDS", "kind"), ("E-GEN-NOTFOUND", "target"),
        ("E-GEN-NOTFOUND", "target")]


def test_d4_rerolls_9_and_10() -> None:
    assert d4(ChosenDice({"x:d4:1": 10, "x:d4:2": 9, "x:d4:3": 8}), "x") == 4
    assert d4(ChosenDice({"x:d4:1": 1}), "x") == 1


def test_d4_of_dice_that_show_only_9_and_10_is_a_dice_error_not_a_made_up_4() -> None:
    from adjudicator.cases import ScriptedDice
    from adjudicator.dice import DiceError

    dice = ScriptedDice(1, TURN, {"x:d4:*": [9]})
    with pytest.raises(DiceError, match="100 d10s in a row showed 9 or 10"):
        d4(dice, "x")
    assert len(dice.log) == 100


def test_same_seed_same_outcome_whatever_the_order_of_the_states() -> None:
    orders = {"K": [{"op": "353", "target": "0103"}, {"op": "349", "target": "0103"},
                    {"op": "342", "target": "0104", "bribe": 20}],
              "D": [{"op": "341", "target": "0103"}, {"op": "342", "target": "0102"}]}
    runs = []
    for reverse in (False, True):
        world = world_from_tables(tables())
        ctx = Context(PARAMS, TURN, Ledger(TURN), tariffs(None), world.copy(), set(world.treasury))
        for faction in sorted(orders, reverse=reverse):
            carry_out(FactionState(world, ctx, faction, None), {"agency": sheet_of(schemas.AGENCY, orders[faction])})
        result = agency.resolve(world, ctx, Dice(77, TURN), sorted(world.treasury, reverse=reverse))
        runs.append((sorted(world.commandos), [(o.faction, o.row, o.nat, o.eff, str(o.result)) for o in result.ops],
                     sorted((f, str(t)) for f, t in result.notices), sorted(str(r) for r in result.intel)))
    assert runs[0] == runs[1]


# ---------------------------------------------------------------------- the example: fog of war, replay
@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any, Any, Path]:
    from adjudicator.turn import pipeline
    from tests.inner_sphere.kit import RULESET

    root = tmp_path_factory.mktemp("agency") / "ex"
    pipeline.new_campaign(RULESET, root, example=True)
    before = pipeline.open_campaign(root)[1]
    outcome = pipeline.run(root)
    assert outcome.status == "resolved"
    return before, pipeline.open_campaign(root)[1], outcome, root


def test_example_every_operation_is_paid_and_resolved(example: tuple[Any, Any, Any, Path]) -> None:
    """The GM's report of the example lists one resolved row for each of the fourteen operations."""
    import openpyxl

    book = openpyxl.load_workbook(example[3] / "campaign.xlsx")
    rows = [[c for c in row if c is not None] for ws in book.worksheets if ws.title == "T05 Informe"
            for row in ws.iter_rows(values_only=True)]
    ops = {str(r[2])[:3] for r in rows if len(r) >= 6 and r[0] in example[0].factions and isinstance(r[1], int)
           and re.match(r"3[45]\d ", str(r[2]))}
    assert ops == {str(n) for n in range(341, 355)}


def test_example_fog_of_war_agency_secrets_stay_with_their_faction(example: tuple[Any, Any, Any, Path]) -> None:
    """No faction's results hold another's commandos (unless its purge dismantled them), another's espionage
    report, a rumour not aimed at it, or the dice of its own espionage (which would tell a double agent)."""
    from tests.inner_sphere.kit import _everything

    before, after, outcome, _ = example
    commandos = before.tables["commandos"].to_dict("records") + after.tables["commandos"].to_dict("records")
    gone = {r["id"] for r in before.tables["commandos"].to_dict("records")} - \
        {r["id"] for r in after.tables["commandos"].to_dict("records")}
    rumour = "Davion prepara un asalto sobre Sian"
    for faction in sorted(before.factions):
        text = _everything(outcome.results[faction])
        dismantled = {c for c in gone if faction == "DAVION"}  # Davion's purge of New Avalon (341)
        foreign = {c["id"] for c in commandos if c["owner"] != faction} - dismantled
        assert [c for c in foreign if c in text] == [], faction
        assert (rumour in text) == (faction in ("STEINER", "LIAO")), faction  # its author and its target
        assert ("Valexa (0204)" in text) == (faction == "KURITA"), faction
        assert ("St. Ives (0404)" in text) == (faction == "STEINER"), faction
        assert "agency:353:" not in text, faction
        others = [f for f in before.factions if f != faction]
        assert not any(f"agency:{op}:{f}:" in text for op in range(341, 355) for f in others), faction
    assert gone == {"KURITA-C2"}
    assert "KURITA-C2" in _everything(outcome.results["KURITA"])  # told it lost its commando


def test_example_agency_replays_identically(example: tuple[Any, Any, Any, Path], tmp_path: Path) -> None:
    from adjudicator.turn import pipeline
    from tests.helpers import all_values
    from tests.inner_sphere.kit import RULESET

    _, _, first, _ = example
    root = tmp_path / "ex"
    pipeline.new_campaign(RULESET, root, example=True)
    again = pipeline.run(root, sorted((root / "inbox").glob("*.xlsx"), reverse=True))
    assert {f: all_values(p) for f, p in again.results.items()} == {f: all_values(p)
                                                                    for f, p in first.results.items()}


# ---------------------------------------------------------------------------- through real workbooks
def test_workbooks_sabotage_delays_production_espionage_reaches_only_the_spy(tmp_path: Path) -> None:
    """A turn through the pipeline: Kurita's commando sabotages Davion's factory (the regiment due this
    turn does not arrive), spies on the planet (names learnt, in Kurita's Intelligence tab only) and a new
    commando is recorded in the campaign; Davion is told of the halt but not by whom, nor of the spying."""
    from adjudicator.turn import pipeline
    from tests.helpers import make_campaign, sheet_rows, state
    from tests.inner_sphere.kit import orders, world_data

    seed = next(s for s in range(1, 2000) if Dice(s, 2).d(10, "agency:343:K:2") <= 3
                and Dice(s, 2).d(10, "agency:353:K:3") <= 2 and Dice(s, 2).d(10, "agency:342:K:4") <= 3
                and Dice(s, 2).d(10, "agency:343:K:2:detect") < 6 and Dice(s, 2).d(10, "agency:353:K:3:detect") < 10)
    systems = [{"hex": "0101", "name": "Dieron", "owner": "K"}, {"hex": "0102", "name": "Hesperus", "owner": "D"},
               {"hex": "0103", "name": "Skye", "owner": "D"}]
    data = world_data({"K": 500, "D": 0}, systems, turn=2, factories=[{"id": "F", "system": "0102", "type": "MEDIUM"}],
                      regiments=[{"id": "D1", "name": "Davion Guards", "owner": "D", "type": "VL",
                                  "experience": "GREEN", "system": "0102"}],
                      jobs=[{"id": "J", "faction": "D", "kind": "REGIMENT", "system": "0102", "factory": "F",
                             "item": "VL", "name": "New Militia", "turns_left": 1, "ordered_turn": 1}],
                      commandos=[{"id": "KC", "owner": "K", "system": "0102", "established_turn": 1}])
    data["settings"]["seed"] = seed
    root = make_campaign(tmp_path / "c", data)
    orders(root, "K", {"agency": [{"op": "Sabotaje industrial", "target": "0102"},
                                  {"op": "Espionaje", "target": "0102"},
                                  {"op": "342", "mode": "NEW", "target": "0103"}]})
    orders(root, "D", {})
    outcome = pipeline.run(root)
    assert outcome.status == "resolved"
    after = state(root).tables
    assert [j["id"] for j in after["jobs"].to_dict("records")] == ["J"]  # halted: the militia is late
    assert int(after["factories"].to_dict("records")[0]["halted_until"]) >= 2
    assert {r["id"] for r in after["commandos"].to_dict("records")} == {"KC", "K-T2-C4"}
    assert after["known_regiments"].to_dict("records") == [{"faction": "K", "regiment": "D1"}]
    kurita = str(sheet_rows(outcome.results["K"], "Informe T02", "es"))
    assert "Davion Guards" in kurita and "Inteligencia" in kurita
    davion = str(sheet_rows(outcome.results["D"], "Informe T02", "es"))
    assert "Sabotaje: las factorías de Hesperus están paradas" in davion
    assert "K" not in {c for row in sheet_rows(outcome.results["D"], "Informe T02", "es") for c in row}
    assert "Espionaje" not in davion and "KC" not in davion and "K-T2-C4" not in davion


def test_workbooks_military_sabotage_leaves_the_regiment_behind_when_its_ship_loads(tmp_path: Path) -> None:
    from adjudicator.turn import pipeline
    from tests.helpers import make_campaign, state
    from tests.inner_sphere.kit import orders, world_data

    seed = next(s for s in range(1, 2000) if Dice(s, 2).d(10, "agency:345:K:2") <= 4)
    systems = [{"hex": "0101", "name": "Dieron", "owner": "K"}, {"hex": "0102", "name": "Hesperus", "owner": "D"}]
    regiments = [{"id": r, "name": r, "owner": "D", "type": "VL", "experience": "GREEN", "system": "0102"}
                 for r in ("D1", "D2")]
    data = world_data({"K": 500, "D": 100}, systems, turn=2, regiments=regiments,
                      jumpships=[{"id": "N", "owner": "D", "class": "NS2", "hex": "0102"}],
                      commandos=[{"id": "KA", "owner": "K", "regiment": "D1", "established_turn": 1}])
    data["settings"]["seed"] = seed
    root = make_campaign(tmp_path / "c", data)
    orders(root, "K", {"agency": [{"op": "Sabotaje militar", "target": "D1"}]})
    orders(root, "D", {"movement": [{"ship": "N", "action": "START"}, {"ship": "N", "action": "LOAD",
                                                                       "regiments": "D1, D2"}]})
    assert pipeline.run(root).status == "resolved"
    aboard = {r["id"]: r["jumpship"] for r in state(root).tables["regiments"].to_dict("records")}
    assert aboard == {"D1": None, "D2": "N"}


@pytest.mark.parametrize(("op", "nat", "detect", "success", "detected"), [
    ("349", 7, 8, True, False), ("349", 8, 9, False, True),  # 1–7 / 8–10; detection 9–10
    ("350", 7, 5, True, False), ("350", 8, 6, False, True),  # 1–7 / 8–10; detection 6–10
    ("351", 5, 4, True, False), ("351", 6, 5, False, True),  # 1–5 / 6–10; detection 5–10
    ("353", 8, 9, True, False), ("353", 9, 10, True, True),  # 9–10 still reports (double agent); detection 10
    ("354", 6, 9, True, False), ("354", 7, 10, False, True),  # 1–6 / 7–10; detection 10
    ("343", 3, 5, True, False), ("343", 4, 6, False, True),  # 1–3 / 4–10; detection 6–10
    ("345", 4, 6, True, False), ("345", 5, 7, False, True),  # 1–4 / 5–10; detection 7–10
    ("347", 3, 5, True, False), ("347", 4, 6, False, True),  # 1–3 / 4–10; detection 6–10
    ("342", 3, 7, True, False), ("342", 4, 8, False, True),  # 1–3 / 4–10; detection 8–10
])
def test_success_and_detection_ranges_of_the_offensive_operations(op: str, nat: int, detect: int, success: bool,
                                                                   detected: bool) -> None:
    target = {"345": "D1", "347": "D:IND", "354": "D", "342": "0104"}.get(op, "0103")
    frames = tables(commandos=[{"id": "KA", "owner": "K", "regiment": "D1", "established_turn": 1}])
    _, outcomes, result, _ = turn({"K": [{"op": op, "target": target, "text": "t"}]},
                                  {f"agency:{op}:K:2": nat, f"agency:{op}:K:2:detect": detect,
                                   f"agency:{op}:K:2:outcome": 10, f"agency:{op}:K:2:agent": 1}, frames)
    assert code(outcomes, "K") == ("OK", "")
    (done,) = result.ops
    assert (done.success, done.detected) == (success, detected)
    assert bool(told(result, "D")) == (detected or (success and op in ("343", "345", "349", "350", "351")))
    assert (" K " in f" {told(result, 'D')} ".replace(":", " ")) == detected


@pytest.mark.parametrize(("op", "nat", "success"), [
    ("341", 6, True), ("341", 7, False), ("344", 7, True), ("344", 8, False), ("346", 7, True), ("346", 8, False),
    ("348", 7, True), ("348", 8, False)])
def test_success_ranges_of_the_defensive_operations_which_are_never_detected(op: str, nat: int,
                                                                             success: bool) -> None:
    target = {"341": "0103", "344": "0103", "346": "D1", "348": "IND"}[op]
    _, _, result, _ = turn({"D": [{"op": op, "target": target}]}, {f"agency:{op}:D:2": nat,
                                                                  f"agency:{op}:D:2:detect": 10})
    (done,) = result.ops
    assert done.success == success and not done.detected


def test_agency_cost_preview_counts_bribes_statuses_and_comes_before_research(tmp_path: Path) -> None:
    import openpyxl

    from adjudicator.turn import pipeline
    from tests.inner_sphere.kit import RULESET

    root = tmp_path / "ex"
    pipeline.new_campaign(RULESET, root, example=True)
    path = next(p for p in pipeline.make_templates(root) if p.stem == "KURITA")
    wb = openpyxl.load_workbook(path)
    cost = str(wb["Agencia"]["J2"].value)
    assert "N(F2)" in cost and '"Transferir a regimiento",0' in cost and "Descontento militar\",100" in cost
    assert "_costs" in cost and "SUM('Agencia'!$J$2:$J$201)" in str(wb["Investigación"]["I2"].value)
    table = {r[0]: r[1] for r in wb["_costs"].iter_rows(min_col=13, max_col=14, values_only=True) if r[0]}
    assert table["343 Sabotaje industrial"] == 100 and table["Espionaje"] == 10 and table["341"] == 30


def test_353_full_report_gives_ships_cargo_and_planned_route_and_the_defence_being_built() -> None:
    frames = tables(jumpships=[{"id": "N", "owner": "D", "class": "NS2", "hex": "0103"}],
                    jobs=[{"id": "B", "faction": "D", "kind": "DEFENCE", "system": "0103", "item": "1",
                           "turns_left": 2}])
    chain = Chain("D", "N", "NS2", "0103", [Step(1, 2, "LOAD", "0103", ("D1",)), Step(2, 3, "MOVE", "0104")])
    _, _, result, _ = turn({"K": [{"op": "353", "target": "0103"}]}, {"agency:353:K:2": 1}, frames,
                           chains={"D": [chain]})
    rows = _intel(result, "K")
    assert ("Hesperus (0103)", "Jumpship", "N NS2 (D): —; Load 0103 → Move 0104") in rows
    assert ("Hesperus (0103)", "Defence level", "0 → 1") in rows


def test_detected_commando_removed_option() -> None:
    dice = {"agency:353:K:2": 5, "agency:353:K:2:detect": 10, "agency:342:K:3": 1, "agency:342:K:3:detect": 9}
    orders = {"K": [{"op": "353", "target": "0103"}, {"op": "342", "target": "0104"}]}
    world, _, result, _ = turn(orders, dict(dice))
    assert {"KC", "K-T2-C3"} <= set(world.commandos)  # the default ruling: detected commandos stay (A25)
    world, _, result, _ = turn(orders, dict(dice), params={"detected_commando_removed": True})
    assert "KA" not in world.commandos and "K-T2-C3" not in world.commandos and "KC" in world.commandos
    assert "KA was detected and dismantled" in told(result, "K")


def test_attach_requires_roll_option_costs_10_and_rolls_like_a_new_commando() -> None:
    frames = tables(known_regiments=[{"faction": "K", "regiment": "D1"}])
    row = {"K": [{"op": "342", "mode": "ATTACH", "commando": "KC", "regiment": "D1", "bribe": 20}]}
    world, _, _, ledger = turn(row, {"agency:342:K:2": 5}, frames, {"attach_requires_roll": True})
    assert world.commandos["KC"].regiment == "" and sum(x.change for x in ledger.lines) == -30  # 5 − 1 = 4: fails
    world, _, _, ledger = turn(row, {"agency:342:K:2": 4}, frames, {"attach_requires_roll": True})
    assert world.commandos["KC"].regiment == "D1"


def test_check_reports_every_agency_mistake_at_its_cell(tmp_path: Path) -> None:
    from adjudicator.turn import pipeline
    from tests.helpers import make_campaign
    from tests.inner_sphere.kit import orders, world_data

    systems = [{"hex": "0101", "name": "A", "owner": "K"}, {"hex": "0102", "name": "B", "owner": "D"},
               {"hex": "0109", "name": "Far", "owner": "D"}]
    data = world_data({"K": 100, "D": 0}, systems, turn=2,
                      regiments=[{"id": "D1", "owner": "D", "type": "VL", "experience": "GREEN", "system": "0102"}],
                      commandos=[{"id": "KC", "owner": "K", "system": "0102", "established_turn": 1}])
    root = make_campaign(tmp_path / "c", data)
    orders(root, "K", {"agency": [
        {"op": 353, "target": 102},  # a number for the operation, a number for the hex: fine
        {"op": "999", "target": "0102"},  # C02 at A3
        {"op": "Espionaje", "target": "0102"},  # E-AG-DUP at B4
        {"op": "Purgar sistema", "target": "0102"},  # E-AG-DEF at B5
        {"op": "Espionaje", "target": "0101"},  # E-AG-OFF at B6
        {"op": "Sabotaje industrial", "target": "0102"},  # E-AG-NOFACT at B7
        {"op": "Introducir comandos", "target": "0109"},  # E-AG-RANGE at B8 (8 hexes)
        {"op": "Introducir comandos", "target": "0102", "bribe": 50},  # E-AG-BRIBE at F9
        {"op": "Introducir comandos", "mode": "Transferir", "commando": "KC", "regiment": "D1"},  # UNKNOWNREG E10
        {"op": "Introducir comandos", "mode": "Avanzar", "target": "0109"},  # C03 at D11: which commando?
        {"op": "Sabotaje militar", "target": "D1"},  # E-AG-NOCOM at B12: no commando on D1
        {"op": "Pan y circo", "target": "0101", "status": "Revuelta"},  # E-AG-NOSTATUS at G13
        {"op": "Difundir rumores", "target": "NADIE", "text": "x"},  # E-GEN-NOTFOUND at B14
    ]})
    orders(root, "D", {})
    found = {(p.code, p.cell) for s in pipeline.check(root).submissions for p in s.problems}
    assert found == {("C02", "A3"), ("E-AG-DUP", "B4"), ("E-AG-DEF", "B5"), ("E-AG-OFF", "B6"),
                     ("E-AG-NOFACT", "B7"), ("E-AG-RANGE", "B8"), ("E-AG-BRIBE", "F9"), ("E-AG-UNKNOWNREG", "E10"),
                     ("C03", "D11"), ("E-AG-NOCOM", "B12"), ("E-AG-NOSTATUS", "G13"), ("E-GEN-NOTFOUND", "B14")}


def test_352_neutral_regiments_sit_out_combat_and_may_not_return_while_the_unrest_lasts() -> None:
    from tests.inner_sphere.kit import plan

    frames = tables(unrest=[{"hex": "0103", "civil": "YES"}], neutral=[{"regiment": "D1", "system": "0103"}])
    _, _, result, _ = turn({}, {}, frames)
    assert "D1" in result.no_combat
    frames["regiments"] = pd.DataFrame([{"id": "D1", "name": "x", "owner": "D", "type": "VL", "experience": "GREEN",
                                         "jumpship": "N"}])
    frames["jumpships"] = pd.DataFrame([{"id": "N", "owner": "D", "class": "NS2", "hex": "0104"}])
    chain = [{"action": "START", "hexes": "0104"}, {"action": "MOVE", "hexes": "0103"},
             {"action": "UNLOAD", "regiments": "D1"}]
    _, outcomes, _, _ = plan(frames, "D", chain)
    assert isinstance(outcomes[("movement", 4)], Rejection) and outcomes[("movement", 4)].code == "E-MOV-NEUTRAL"
    frames["unrest"] = pd.DataFrame([{"hex": "0103", "quiet_until": 5}])  # quelled: it may come back
    _, outcomes, _, _ = plan(frames, "D", chain)
    assert not any(isinstance(o, Rejection) for o in outcomes.values())
    from adjudicator.rulesets.inner_sphere.phases.end_of_turn import expire_unrest

    world = world_from_tables(tables(unrest=[{"hex": "0103", "civil": "YES"}],
                                     neutral=[{"regiment": "D1", "system": "0103"}]))
    expire_unrest(world, world.copy(), TURN)
    assert world.neutral == {"D1": "0103"}
    world.unrest["0103"].civil = False
    expire_unrest(world, world.copy(), TURN)
    assert world.neutral == {} and "0103" not in world.unrest
