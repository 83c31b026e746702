"""Galactic War rulings, each with its own test whose outcome does not depend on luck.

Most tests resolve a whole turn in memory (the ruleset's ``resolve`` with typed orders, as the pipeline hands
them over) with dice scripted per purpose, so every die and its consequence is known; the ledger of every turn
must reconcile. A few go through real workbooks where the cell of a problem or the pipeline's behaviour is the
point.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjudicator.dice import Dice
from adjudicator.engine import rules_data
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.orders import Row, carry_out_orders
from adjudicator.engine.problems import Severity
from adjudicator.engine.registry import find_ruleset
from adjudicator.engine.ruleset import FactionOrders, TurnResult
from adjudicator.rulesets.galactic_war import schemas
from adjudicator.rulesets.galactic_war.combat import Member, Side
from adjudicator.rulesets.galactic_war.orders.move import Move, MoveType, plan
from adjudicator.scenario import campaign_from_data
from adjudicator.turn import pipeline
from tests.galactic_war.kit import (
    ScriptedDice,
    battles,
    gw,
    moves,
    orders,
    resolve,
    table,
    transport_capacity,
    typed,
    units,
    where,
)
from tests.helpers import make_campaign, sheet_rows, write_gm


# -------------------------------------------------------------------- G8: three or more races
def test_g8_the_defender_fights_the_arrivals_largest_first_round_0_only_in_the_first_battle() -> None:
    data = gw([("B1", "BETA", "CRUISER", "3"),
               ("A1", "ALPHA", "CRUISER", "2"),
               ("N1", "GAMMA", "DREADNOUGHT", "4"), ("N2", "GAMMA", "CRUISER", "4")],
              techs={"GAMMA": "ASSAULT_CANNON"})
    dice = ScriptedDice({"battle:3:*:GAMMA:*": 10})  # Gamma always hits, the others always miss
    result, after, _ = resolve(data, {"ALPHA": moves(("2", "A1", "3")), "GAMMA": moves(("4", "N1, N2", "3"))}, dice)
    # Gamma (2 ships) before Alpha (1 ship), although Alpha comes first by name. Battle 1: the Assault Cannon
    # of N1 destroys B1 in Round 0. Battle 2: Gamma, holding the system, against Alpha: no Round 0 any more;
    # both arrived and own no planet there, so both are attackers (roles rule 4), the holder listed first.
    assert battles(result) == [("3", 1, "GAMMA", "BETA", "GAMMA", 2, ""), ("3", 2, "GAMMA", "ALPHA", "GAMMA", 2, "")]
    assert [p for p in dice.purposes if p.startswith("battle:")] == [
        "battle:3:1:r0:GAMMA:N1",
        "battle:3:2:r1:GAMMA:N2", "battle:3:2:r1:GAMMA:N1", "battle:3:2:r1:ALPHA:A1"]
    assert where(after, "B1", "A1", "N1", "N2") == [None, None, "3", "3"]
    assert {r["id"]: r["credits"] for r in result.tables["factions"].to_dict("records")}["GAMMA"] == 4


@pytest.mark.parametrize(("alpha_roll", "gamma_roll", "first"), [(2, 9, "GAMMA"), (9, 2, "ALPHA")])
def test_g8_arrivals_of_equal_size_are_ordered_by_a_seeded_roll(alpha_roll: int, gamma_roll: int,
                                                                first: str) -> None:
    data = gw([("B1", "BETA", "CRUISER", "3"), ("A1", "ALPHA", "CRUISER", "2"), ("G1", "GAMMA", "CRUISER", "4")])
    dice = ScriptedDice({"battle-order:3:ALPHA": alpha_roll, "battle-order:3:GAMMA": gamma_roll})
    result, _, _ = resolve(data, {"ALPHA": moves(("2", "A1", "3")), "GAMMA": moves(("4", "G1", "3"))},
                           dice)
    assert sorted(p for p in dice.purposes if p.startswith("battle-order")) == ["battle-order:3:ALPHA",
                                                                                "battle-order:3:GAMMA"]
    assert [(b[1], b[2], b[3]) for b in battles(result)][0] == (1, first, "BETA")


def test_g8_with_no_defender_the_largest_arrival_holds_the_system_first() -> None:
    data = gw([("A1", "ALPHA", "CRUISER", "2"),
               ("B1", "BETA", "CRUISER", "4"), ("B2", "BETA", "CRUISER", "4"), ("B3", "BETA", "CRUISER", "4"),
               ("G1", "GAMMA", "CRUISER", "6"), ("G2", "GAMMA", "CRUISER", "6")])
    dice = ScriptedDice({"battle:3:*:BETA:*": 10})
    result, after, _ = resolve(data, {"ALPHA": moves(("2", "A1", "3")), "BETA": moves(("4", "B1, B2, B3", "3")),
                                      "GAMMA": moves(("6", "G1, G2", "3"))}, dice)
    # Beta (3) holds; it meets Gamma (2), then Alpha (1). Nobody was there and nobody owns a planet: both sides of
    # each battle are attackers (roles rule 4), the holder listed first.
    assert [(b[1], b[2], b[3], b[4]) for b in battles(result)] == [(1, "BETA", "GAMMA", "BETA"),
                                                                   (2, "BETA", "ALPHA", "BETA")]
    assert where(after, "A1", "G1", "G2", "B1") == [None, None, None, "3"]


def test_multi_race_gm_leaves_a_three_race_meeting_to_the_gm() -> None:
    data = gw([("B1", "BETA", "CRUISER", "3"), ("A1", "ALPHA", "CRUISER", "2"), ("G1", "GAMMA", "CRUISER", "4")],
              parameters={"multi_race": "GM"})
    dice = ScriptedDice(default=10)
    result, after, _ = resolve(data, {"ALPHA": moves(("2", "A1", "3")), "GAMMA": moves(("4", "G1", "3"))}, dice)
    assert battles(result) == [] and where(after, "A1", "B1", "G1") == ["3", "3", "3"]
    assert not [p for p in dice.purposes if p.startswith("battle")]
    flags = [str(r[0].render("en")) for r in table(result, "flags")]
    assert flags == ["3 races meet in 3: the battle is left to the GM (multi_race = GM)."]


# ------------------------------------------------------------------------------------ retreats
@pytest.mark.parametrize(("gamma_in_2", "retreat_to", "expected"), [
    (False, "4", "4"),   # the plan's preference, a system one of its ships came from
    (False, "6", "2"),   # 6 is not where it came from: the first legal system by ID
    (True, "", "4"),     # 2 now holds Gamma's ships: only 4 is left
])
def test_the_attacker_retreats_to_a_system_its_ships_came_from(gamma_in_2: bool, retreat_to: str,
                                                               expected: str) -> None:
    extra = [("G1", "GAMMA", "CRUISER", "2")] if gamma_in_2 else []
    data = gw([("A1", "ALPHA", "CRUISER", "2"), ("A2", "ALPHA", "CRUISER", "4"), ("B1", "BETA", "CRUISER", "3"),
               *extra])
    plan = {"battle_plan": [{"scope": "ALL", "retreat_if": "AFTER_ROUND 1", "retreat_to": retreat_to}]}
    result, after, _ = resolve(data, {"ALPHA": {**moves(("2", "A1", "3"), ("4", "A2", "3")), **plan}})
    assert battles(result) == [("3", 1, "ALPHA", "BETA", "BETA", 0, f"ALPHA→{expected}")]
    assert where(after, "A1", "A2", "B1") == [expected, expected, "3"]


@pytest.mark.parametrize(("owner_of_4", "expected"), [("GAMMA", "6"), ("BETA", "4")])
def test_the_defender_retreats_only_to_an_empty_system_or_one_of_its_own(owner_of_4: str, expected: str) -> None:
    # Around 3: 2 holds Gamma's ships (never legal), 4 has a planet of owner_of_4, 6 is empty.
    data = gw([("B1", "BETA", "CRUISER", "3"), ("A1", "ALPHA", "CRUISER", "2"), ("A2", "ALPHA", "CRUISER", "2"),
               ("G1", "GAMMA", "CRUISER", "2")],
              planets=[{"planet": "P4", "system": "4", "resources": 1, "owner": owner_of_4}])
    dice = ScriptedDice()
    result, after, _ = resolve(data, {"ALPHA": moves(("2", "A1, A2", "3")), "BETA": {"battle_plan": [
        {"scope": "ALL", "retreat_if": "AFTER_ROUND 1", "retreat_to": "2, 4, 6"}]}}, dice)
    # Declared after round 1; in round 2 only the attacker fires; then Beta leaves.
    rolled = [p for p in dice.purposes if p.startswith("battle:")]
    assert rolled == ["battle:3:1:r1:ALPHA:A1", "battle:3:1:r1:ALPHA:A2", "battle:3:1:r1:BETA:B1",
                      "battle:3:1:r2:ALPHA:A1", "battle:3:1:r2:ALPHA:A2"]
    assert battles(result) == [("3", 1, "ALPHA", "BETA", "ALPHA", 0, f"BETA→{expected}")]
    assert where(after, "B1") == [expected]


@pytest.mark.parametrize(("wormhole_retreat", "beta_ends_in", "outcome"), [
    (False, "5", "unfinished: decided by the GM"),  # no legal hex neighbour: Beta fights on, to the cap
    (True, "1", "the attacker holds the system"),   # the alpha wormhole 1 counts as a neighbour for the retreat
])
def test_wormhole_retreat(wormhole_retreat: bool, beta_ends_in: str, outcome: str) -> None:
    # 5's only hex neighbour, 4, holds Gamma's ships; Alpha comes through the wormhole from 1, which it leaves empty.
    data = gw([("B1", "BETA", "CRUISER", "5"), ("A1", "ALPHA", "CRUISER", "1"), ("G1", "GAMMA", "CRUISER", "4")],
              parameters={"wormhole_retreat": wormhole_retreat, "max_rounds": 3})
    result, after, _ = resolve(data, {"ALPHA": moves(("1", "A1", "5")),
                                      "BETA": {"battle_plan": [{"retreat_if": "AFTER_ROUND 1"}]}})
    rows = table(result, "battles")
    assert [r[4].render("en") for r in rows] == [outcome]
    assert where(after, "B1", "A1") == [beta_ends_in, "5"]


def test_an_attacker_that_came_through_a_wormhole_may_retreat_back_through_it() -> None:
    data = gw([("B1", "BETA", "CRUISER", "5"), ("A1", "ALPHA", "CRUISER", "1")])  # wormhole_retreat is off
    result, after, _ = resolve(data, {"ALPHA": {**moves(("1", "A1", "5")),
                                                "battle_plan": [{"retreat_if": "AFTER_ROUND 1"}]}})
    assert battles(result)[0][-1] == "ALPHA→1" and where(after, "A1") == ["1"]


def test_fighters_without_transport_room_are_lost_on_a_retreat() -> None:
    side = Side("D", (Member("F1", "FIGHTER", 9, fighter=True), Member("F2", "FIGHTER", 9, fighter=True),
                      Member("T1", "TRANSPORT", 9, room=1), Member("F3", "FIGHTER", 9, fighter=True)))
    leaving, lost = side.retreating(0)
    assert ([m.id for m in leaving], [m.id for m in lost]) == (["T1", "F3"], ["F1", "F2"])
    leaving, lost = side.retreating(3)  # T1 destroyed: F3 cannot follow
    assert ([m.id for m in leaving], [m.id for m in lost]) == ([], ["F3"])


def test_fighters_lost_on_a_retreat_in_a_turn() -> None:
    cargo = [{"id": f"BG{n}", "race": "BETA", "type": "GF", "system": "3", "aboard": "T1"} for n in range(1, 6)]
    data = gw([("T1", "BETA", "TRANSPORT", "3"), ("F1", "BETA", "FIGHTER", "3"), ("F2", "BETA", "FIGHTER", "3"),
               ("F3", "BETA", "FIGHTER", "3"), ("A1", "ALPHA", "CRUISER", "2")], extra=cargo)
    result, after, _ = resolve(data, {"ALPHA": moves(("2", "A1", "3")),
                                      "BETA": {"battle_plan": [{"retreat_if": "AFTER_ROUND 1", "retreat_to": "4"}]}})
    # T1 carries 5 GF: room for one Fighter. The Fighters go in the loss order (F1, F2 first), F3 boards T1.
    assert where(after, "T1", "F1", "F2", "F3", "BG1") == ["4", None, None, "4", "4"]
    assert after["F3"]["aboard"] == "T1"
    assert battles(result)[0][4:] == ("ALPHA", 0, "BETA→4")  # Fighters lost leaving give no trophies


# ------------------------------------------------------------------------------ carried Fighters and cargo
@pytest.mark.parametrize(("cargo_dies", "gf_after"), [(True, None), (False, "3")])
def test_carried_fighters_fight_in_space_and_survive_their_transport_cargo_dies_with_it(cargo_dies: bool,
                                                                                        gf_after: str | None) -> None:
    data = gw([("T1", "BETA", "TRANSPORT", "3"), ("A1", "ALPHA", "CRUISER", "2")],
              extra=[{"id": "BG1", "race": "BETA", "type": "GF", "system": "3", "aboard": "T1"},
                     {"id": "F1", "race": "BETA", "type": "FIGHTER", "system": "3", "aboard": "T1"}],
              parameters={"cargo_dies_with_transport": cargo_dies, "max_rounds": 2})
    dice = ScriptedDice({"battle:3:1:r1:ALPHA:*": 10})  # one hit in round 1, nothing else ever hits
    _, after, _ = resolve(data, {"ALPHA": moves(("2", "A1", "3")),
                                 "BETA": {"battle_plan": [{"space_casualties": "Transport > Fighter"}]}}, dice)
    assert "battle:3:1:r1:BETA:F1" in dice.purposes  # the carried Fighter fired in space (G9)
    assert "T1" not in after and after["F1"]["system"] == "3" and not after["F1"]["aboard"]
    assert where(after, "BG1") == [gf_after]
    if gf_after:  # the cargo that outlived its Transport floats in space, where a Transport may pick it up (M07)
        assert not after["BG1"]["aboard"] and not after["BG1"]["planet"]


def test_cargo_left_in_space_can_be_picked_up() -> None:
    data = gw([("T2", "BETA", "TRANSPORT", "3")], extra=[{"id": "BG1", "race": "BETA", "type": "GF", "system": "3"}])
    _, campaign = campaign_from_data(data)
    state = find_ruleset("galactic_war").order_state(campaign, "BETA", Ledger(campaign.turn),
                                                     Dice(campaign.seed, campaign.turn))
    order = MoveType().read(Row("BETA", "moves", 2, {"origin": "3", "units": "T2", "path": "4", "pickups": "3:BG1"}))
    move = plan(state, order)
    assert isinstance(move, Move)
    assert [[u.id for u in loaded] for _, loaded in move.loads] == [["BG1"]]


# ------------------------------------------------------------------------------------- invasions
def invaders(alpha: list[tuple[str, str, str, str]], defenders: list[tuple[str, str, str, str]], **kwargs: Any
             ) -> dict[str, Any]:
    return gw([("T1", "ALPHA", "TRANSPORT", "3"), *alpha, *defenders],
              planets=[{"planet": "MARS", "system": "3", "resources": 2, "owner": "BETA", "dock": "Y",
                        "dock_built": 0}, {"planet": "VENUS", "system": "3", "resources": 1, "owner": "BETA"}],
              **kwargs)


def land(text: str, bombard: str = "", planet: str = "MARS") -> dict[str, list[dict[str, Any]]]:
    return {"invasions": [{"system": "3", "planet": planet, "land": text, "bombard": bombard}]}


def planet_owner(result: TurnResult, planet: str = "MARS") -> str:
    return next(r["owner"] for r in result.tables["planets"].to_dict("records") if r["planet"] == planet)


def outcome_text(result: TurnResult, race: str, sheet: str = "invasions") -> list[str]:
    return [o.message.render("en") for o in result.outcomes if o.faction == race and o.sheet == sheet]


def test_the_defender_keeps_the_planet_when_both_sides_ground_forces_die() -> None:
    data = invaders([("G1", "ALPHA", "GF", "3>T1"), ("P1", "ALPHA", "PDS", "3>T1")], [("BG1", "BETA", "GF", "3/MARS")])
    dice = ScriptedDice({"invasion:MARS:*:r1:*": 10})  # round 1 of the ground combat: every die hits
    result, after, _ = resolve(data, {"ALPHA": land("G1, P1")}, dice)
    assert [p for p in dice.purposes if p.startswith("invasion:")] == [
        "invasion:MARS:ALPHA:2:r1:ALPHA:G1", "invasion:MARS:ALPHA:2:r1:BETA:BG1"]
    assert planet_owner(result) == "BETA"
    assert "G1" not in after and "BG1" not in after and "P1" not in after  # the PDS that landed is destroyed
    # One GF (hits on 8+: 30%) against one: a round decides with 1 - 0.7² = 0.51, in Alpha's favour 0.3·0.7.
    assert outcome_text(result, "ALPHA") == [f"The invasion of MARS failed (chance beforehand: {21 / 51:.1%})."]


def test_fighters_join_an_invasion_with_antigraviton_and_cannot_hold_the_planet() -> None:
    data = invaders([("G1", "ALPHA", "GF", "3>T1"), ("F1", "ALPHA", "FIGHTER", "3>T1")],
                    [("BG1", "BETA", "GF", "3/MARS")], techs={"ALPHA": "Антигравитон"})
    dice = ScriptedDice({"invasion:MARS:*:r1:*": 10})
    # The Ground Force is lost first: the Fighter alone survives the defenders and cannot hold MARS.
    result, after, _ = resolve(data, {"ALPHA": {**land("G1, F1"), "battle_plan": [{"ground_casualties": "GF"}]}},
                               dice)
    assert "invasion:MARS:ALPHA:2:r1:ALPHA:F1" in dice.purposes
    assert planet_owner(result) == "BETA" and "G1" not in after and "BG1" not in after
    assert after["F1"]["system"] == "3" and not after["F1"]["aboard"] and not after["F1"]["planet"]  # back in space


def test_a_fighter_takes_a_hit_for_the_ground_forces_and_the_planet_falls() -> None:
    data = invaders([("G1", "ALPHA", "GF", "3>T1"), ("F1", "ALPHA", "FIGHTER", "3>T1")],
                    [("BG1", "BETA", "GF", "3/MARS"), ("BP1", "BETA", "PDS", "3/MARS")],
                    techs={"ALPHA": "ANTIGRAVITON"})
    dice = ScriptedDice({"invasion:MARS:*:r1:ALPHA:G1": 10, "invasion:MARS:*:r1:BETA:*": 10})
    result, after, _ = resolve(data, {"ALPHA": land("G1, F1")}, dice)
    assert "invasion:MARS:ALPHA:2:pds:BETA:BP1" in dice.purposes  # PDS fire at the landers, Fighters included
    assert planet_owner(result) == "ALPHA" and "F1" not in after and after["G1"]["planet"] == "MARS"
    mars = next(r for r in result.tables["planets"].to_dict("records") if r["planet"] == "MARS")
    assert "BP1" not in after and mars["dock"] is None  # conquest destroys the PDS and the Space Dock


@pytest.mark.parametrize(("param", "tech", "bombed"), [(False, "ANTIGRAVITON", False), (True, "", False),
                                                      (True, "ANTIGRAVITON", True)])
def test_bombardment_through_pds_only_with_antigraviton_ignores_pds(param: bool, tech: str, bombed: bool) -> None:
    data = invaders([("N1", "ALPHA", "DREADNOUGHT", "3")],
                    [("BG1", "BETA", "GF", "3/MARS"), ("BP1", "BETA", "PDS", "3/MARS")],
                    techs={"ALPHA": tech}, parameters={"antigraviton_ignores_pds": param})
    dice = ScriptedDice(default=10)
    result, after, _ = resolve(data, {"ALPHA": land("", bombard="N1")}, dice)
    rolled = [p for p in dice.purposes if p.startswith("invasion:")]
    assert rolled == (["invasion:MARS:ALPHA:2:bombard:ALPHA:N1"] if bombed else [])  # PDS: nobody to fire at
    assert ("BG1" in after) is not bombed and "BP1" in after and planet_owner(result) == "BETA"
    if not bombed:
        assert outcome_text(result, "ALPHA") == ["Dreadnought N1 cannot bomb MARS: the planet is protected by PDS."]


@pytest.mark.parametrize(("requires", "bombed"), [(False, True), (True, False)])
def test_bombard_requires_landing(requires: bool, bombed: bool) -> None:
    data = invaders([("N1", "ALPHA", "DREADNOUGHT", "3")], [("BG1", "BETA", "GF", "3/MARS")],
                    parameters={"bombard_requires_landing": requires})
    result, after, _ = resolve(data, {"ALPHA": land("", bombard="N1")}, ScriptedDice(default=10))
    assert ("BG1" in after) is not bombed
    assert outcome_text(result, "ALPHA") == (["MARS bombarded."] if bombed else [
        "Dreadnought N1 cannot bomb MARS: there is no landing on it."])


@pytest.mark.parametrize(("scope", "fired"), [("PLANET", False), ("SYSTEM", True)])
def test_pds_fire_scope(scope: str, fired: bool) -> None:
    data = invaders([("G1", "ALPHA", "GF", "3>T1"), ("G2", "ALPHA", "GF", "3>T1")],
                    [("BP1", "BETA", "PDS", "3/VENUS")], parameters={"pds_fire_scope": scope})
    dice = ScriptedDice(default=10)
    result, after, _ = resolve(data, {"ALPHA": land("G1, G2")}, dice)
    assert ("invasion:MARS:ALPHA:2:pds:BETA:BP1" in dice.purposes) is fired
    assert ["G1" in after, "G2" in after] == ([False, True] if fired else [True, True])
    assert planet_owner(result) == "ALPHA" and "BP1" in after  # the PDS of VENUS is not on the conquered planet


def two_invaders(alpha_gf: int, gamma_gf: int) -> dict[str, Any]:
    alpha = [(f"AG{n}", "ALPHA", "GF", "3>T1") for n in range(1, alpha_gf + 1)]
    gamma = [("T9", "GAMMA", "TRANSPORT", "3"), *[(f"CG{n}", "GAMMA", "GF", "3>T9") for n in range(1, gamma_gf + 1)]]
    return invaders(alpha, [("BG1", "BETA", "GF", "3/MARS"), *gamma])


def both_land(alpha_gf: int, gamma_gf: int) -> dict[str, dict[str, list[dict[str, Any]]]]:
    dna = {"stance": [{"system": "3", "dna": "Y"}]}  # Alpha and Gamma share system 3 without a battle
    return {"ALPHA": {**dna, **land(", ".join(f"AG{n}" for n in range(1, alpha_gf + 1)))},
            "GAMMA": {**dna, **land(f"GF x{gamma_gf}")}}


def test_several_invaders_largest_landing_first_the_next_fights_the_new_owner() -> None:
    # Gamma's Ground Forces always hit; Beta's one Ground Force hits once.
    dice = ScriptedDice({"invasion:MARS:*:r?:GAMMA:*": 10, "invasion:MARS:GAMMA:2:r1:BETA:BG1": 10})
    result, after, _ = resolve(two_invaders(2, 3), both_land(2, 3), dice)
    # Gamma (3 GF) lands first and takes MARS from Beta; Alpha (2 GF) then fights Gamma, the owner now, although
    # Gamma's ships are in the system (I04 concerns the owner at the start of the segment, Beta).
    invasions = [(r[2], r[3], r[5].render("en")) for r in table(result, "invasions")]
    assert invasions == [("GAMMA", "BETA", "conquered"), ("ALPHA", "GAMMA", "held")]
    assert [p for p in dice.purposes if p.startswith("invasion:")] == [
        "invasion:MARS:GAMMA:2:r1:GAMMA:CG1", "invasion:MARS:GAMMA:2:r1:GAMMA:CG2",
        "invasion:MARS:GAMMA:2:r1:GAMMA:CG3",
        "invasion:MARS:GAMMA:2:r1:BETA:BG1",
        "invasion:MARS:ALPHA:2:r1:ALPHA:AG1", "invasion:MARS:ALPHA:2:r1:ALPHA:AG2",
        "invasion:MARS:ALPHA:2:r1:GAMMA:CG2", "invasion:MARS:ALPHA:2:r1:GAMMA:CG3"]
    assert planet_owner(result) == "GAMMA" and "AG1" not in after and after["CG2"]["planet"] == "MARS"
    assert "CG1" not in after  # lost to Beta's Ground Force


@pytest.mark.parametrize(("alpha_roll", "gamma_roll", "first"), [(3, 8, "GAMMA"), (8, 3, "ALPHA")])
def test_invaders_of_equal_size_are_ordered_by_a_seeded_roll(alpha_roll: int, gamma_roll: int, first: str) -> None:
    dice = ScriptedDice({"invasion-order:MARS:ALPHA:2": alpha_roll, "invasion-order:MARS:GAMMA:2": gamma_roll})
    result, _, _ = resolve(two_invaders(2, 2), both_land(2, 2), dice)  # "AG1, AG2" and "GF x2": two each
    assert [r[2] for r in table(result, "invasions")][0] == first


# ------------------------------------------------------------------------------------- settings
@pytest.mark.parametrize(("sustain", "survivors", "winner"), [(False, [None, None], ""), (True, ["3", None], "BETA")])
def test_sustain_damage(sustain: bool, survivors: list[str | None], winner: str) -> None:
    data = gw([("D1", "BETA", "DREADNOUGHT", "3"), ("A1", "ALPHA", "CRUISER", "2")],
              parameters={"sustain_damage": sustain})
    dice = ScriptedDice({"battle:3:1:r1:*": 10})  # round 1: both hit
    result, after, _ = resolve(data, {"ALPHA": moves(("2", "A1", "3"))}, dice)
    # With Sustain Damage the Dreadnought absorbs the first hit and is still there: Beta holds the system.
    assert where(after, "D1", "A1") == survivors
    assert battles(result)[0][4] == winner


@pytest.mark.parametrize(("enforce", "lost"), [(False, []), (True, ["F1"])])
def test_enforce_fighter_capacity(enforce: bool, lost: list[str]) -> None:
    data = gw([("T1", "ALPHA", "TRANSPORT", "2"), ("F1", "ALPHA", "FIGHTER", "2"), ("F2", "ALPHA", "FIGHTER", "2"),
               ("F3", "ALPHA", "FIGHTER", "4"), ("F4", "ALPHA", "FIGHTER", "4")],
              planets=[{"planet": "HOME", "system": "4", "resources": 1, "owner": "ALPHA", "dock": "Y"}],
              extra=[{"id": "G1", "race": "ALPHA", "type": "GF", "system": "2", "aboard": "T1"}],
              parameters={"enforce_fighter_capacity": enforce}, rule_tables=[transport_capacity(2)])
    _, after, _ = resolve(data)
    # In 2: room for 2, one GF aboard, two Fighters: one too many. In 4 the Fighters wait at their own dock.
    assert sorted({"F1", "F2", "F3", "F4"} - set(after)) == lost


def test_dna_penalty_rounds_and_trophy_settings() -> None:
    data = gw([("B1", "BETA", "CRUISER", "3"), ("BF", "BETA", "FIGHTER", "3"), ("A1", "ALPHA", "CRUISER", "2"),
               ("A2", "ALPHA", "CRUISER", "2")],
              parameters={"dna_penalty_rounds": 2, "trophy_credits": 3, "trophy_excludes_fighters": False})
    dice = ScriptedDice({"battle:3:1:r3:ALPHA:*": 10})
    result, _, _ = resolve(data, {"ALPHA": {"moves": [{"origin": "2", "units": "A1, A2", "path": "3", "dna": "Y"}]}},
                           dice)
    alpha_rounds = sorted({p.split(":")[3] for p in dice.purposes if p.startswith("battle:3:1:") and ":ALPHA:" in p})
    assert alpha_rounds == ["r3"]  # silent for two rounds under "Do not attack"; both Beta units die in round 3
    assert battles(result)[0][4:6] == ("ALPHA", 6)  # 3 credits a kill, the Fighter included


def test_every_configurable_value_of_the_spec_is_a_parameter() -> None:
    from adjudicator.engine.registry import find_ruleset

    spec_section_8 = ("sustain_damage dna_penalty_rounds max_rounds cargo_dies_with_transport count_fighters "
                      "trophy_credits trophy_excludes_fighters multi_race bombard_value bombard_requires_landing "
                      "antigraviton_ignores_pds pds_fire_scope invasion_requires_clear_space "
                      "enforce_fighter_capacity production_bonus blockade_includes_dna wormholes_adjacent "
                      "wormhole_retreat invalid_move_policy").split()
    defaults = find_ruleset("galactic_war").parameters().defaults()
    assert set(spec_section_8) <= set(defaults)
    # transport_capacity is the Transport's row of the units table (one source of truth), not a parameter.
    assert "transport_capacity" not in defaults
    assert rules_data.table("adjudicator.rulesets.galactic_war", "units")["TRANSPORT"]["capacity"] == 6
    assert (defaults["multi_race"], defaults["pds_fire_scope"], defaults["bombard_value"]) == ("SEQUENTIAL", "PLANET",
                                                                                              0)  # 0: combat value


# ----------------------------------------------------------------------------- B01 battle plans
def test_b01_malformed_battle_plans_are_warnings_at_their_cells(tmp_path: Path) -> None:
    data = gw([("A1", "ALPHA", "CRUISER", "2")])
    rows = [{"scope": "ALL", "retreat_if": "WHEN SAD"},
            {"scope": "3", "space_casualties": "Cruiser > Warp drive"},
            {"scope": "4", "retreat_to": "99"},
            {"scope": "ZZ", "retreat_if": "NEVER"}]
    root = make_campaign(tmp_path / "chk", data)
    orders(root, "ALPHA", {"battle_plan": rows})
    outcome = pipeline.check(root)
    problems = [p for s in outcome.submissions for p in s.problems]
    assert [(p.code, p.cell, p.severity) for p in problems] == [("B01", "D2", Severity.WARNING),
                                                              ("B01", "B3", Severity.WARNING),
                                                              ("B01", "E4", Severity.WARNING),
                                                              ("B01", "A5", Severity.WARNING)]
    assert problems[0].message.render("en") == (
        "Battle plan row 2: WHEN SAD (not understood: WHEN, SAD) is not a retreat condition; default used. "
        "Write one of: NEVER, OWN_SHIPS<=n, OWN_SHIPS<k*ENEMY_SHIPS, LOSSES>=p%, AFTER_ROUND n; join with OR.")
    assert problems[0].message.render("ru") == (  # the forms in the reader's tokens, what was written as written
        "План битвы, строка 2: WHEN SAD (непонятно: WHEN, SAD) — не условие отступления; использовано значение по "
        "умолчанию. Напишите одно из: НИКОГДА, СВОИ_КОРАБЛИ<=n, СВОИ_КОРАБЛИ<k*КОРАБЛИ_ВРАГА, ПОТЕРИ>=p%, "
        "ПОСЛЕ_РАУНДА n; объединяйте через ИЛИ.")


def test_b01_a_malformed_field_falls_back_to_its_default_and_the_rest_of_the_row_holds() -> None:
    _, campaign = campaign_from_data(gw([("A1", "ALPHA", "CRUISER", "2")]))
    ruleset = find_ruleset("galactic_war")
    state = ruleset.order_state(campaign, "ALPHA", Ledger(campaign.turn), Dice(campaign.seed, campaign.turn))
    sheet = typed(schemas.BATTLE_PLAN, [{"scope": "ALL", "retreat_if": "OWN_SHIPS<=two", "retreat_to": "4, 99",
                                         "space_casualties": "Transport"}], "ALPHA.xlsx")
    [carried] = carry_out_orders(ruleset, campaign.parameters, state,
                                 FactionOrders("ALPHA", "ALPHA.xlsx", {"battle_plan": sheet}))
    assert carried.done is not None and [(n.code, n.column) for n in carried.done.notes] == [
        ("B01", "retreat_if"), ("B01", "retreat_to")]
    book = state.plans
    assert (book.default.retreat_if, book.default.retreat_to, book.default.space) == ((), ["4"], ["TRANSPORT"])


# ---------------------------------------------------------------------- placement and the GM input
def test_the_turn_waits_for_the_purchase_list_and_refused_placements_are_warnings(tmp_path: Path) -> None:
    data = gw([], planets=[{"planet": "HOME", "system": "2", "resources": 1, "owner": "ALPHA", "dock": "Y",
                            "dock_built": 0}])
    root = make_campaign(tmp_path / "c", data)
    for race in ("ALPHA", "BETA", "GAMMA"):
        orders(root, race, {})
    waiting = pipeline.run(root)
    assert waiting.status == "waiting" and waiting.gm_input is not None
    assert sheet_rows(waiting.gm_input, "Purchases")[1:] == []  # an empty purchase list to fill in
    write_gm(root, {"purchases": [{"race": "ALPHA", "type": "CRUISER", "count": 2, "planet": "HOME"},
                                  {"race": "ALPHA", "type": "GF", "count": 1, "planet": "HOME"}]})
    outcome = pipeline.run(root)
    assert outcome.status == "resolved"
    assert [(p.code, p.severity, p.cell) for p in outcome.gm_problems] == [("P02", Severity.WARNING, "D2")]
    placement = sheet_rows(outcome.results["ALPHA"], "Report")
    assert any("Dock on HOME may produce 1 units; 2 ordered." in str(c) for r in placement for c in r)
    assert [(u["type"], u["planet"]) for u in units(root).values()] == [("GF", "HOME")]  # the valid row placed
