"""Galactic War rulings left untested before: roles rule 2 (a coexistence that ends), G6, the parameters
``count_fighters``, ``blockade_includes_dna``, ``production_bonus`` and ``wormholes_adjacent``, and three or more
races when several were present at the start (``broken_truce``). Every die is scripted per purpose."""

from __future__ import annotations

from typing import Any

import pytest

from tests.galactic_war.kit import ScriptedDice, battles, gw, moves, resolve, table, where

DNA_IN_3 = {"stance": [{"system": "3", "dna": "Y"}]}


def battle_purposes(dice: ScriptedDice) -> list[str]:
    return [p for p in dice.purposes if p.startswith("battle:")]


def outcomes(result: Any, race: str, sheet: str) -> list[str]:
    return [o.message.render("en") for o in result.outcomes if o.faction == race and o.sheet == sheet]


# ------------------------------------------------------------------------- roles rule 2 (G7)
@pytest.mark.parametrize("peaceful", ["ALPHA", "BETA"])
def test_roles_rule_2_when_a_coexistence_ends_the_race_without_dna_attacks(peaceful: str) -> None:
    # Both were in 3 at the start of Movement; only `peaceful` renews "Do not attack" this turn.
    hostile = "BETA" if peaceful == "ALPHA" else "ALPHA"
    data = gw([("A1", "ALPHA", "CRUISER", "3"), ("B1", "BETA", "CRUISER", "3")])
    dice = ScriptedDice(default=10)  # every die that is rolled hits
    result, after, _ = resolve(data, {peaceful: DNA_IN_3}, dice)
    # The hostile race attacks; the peaceful one is under the DNA penalty: its ship does not fire in round 1.
    assert battles(result) == [("3", 1, hostile, peaceful, hostile, 2, "")]
    assert battle_purposes(dice) == [f"battle:3:1:r1:{hostile}:{hostile[0]}1"]
    assert where(after, "A1", "B1") == (["3", None] if hostile == "ALPHA" else [None, "3"])


def test_roles_rule_2_without_dna_on_either_side_both_are_attackers_and_fire_in_round_1() -> None:
    data = gw([("A1", "ALPHA", "CRUISER", "3"), ("B1", "BETA", "CRUISER", "3")])
    dice = ScriptedDice(default=10)
    result, after, _ = resolve(data, {}, dice)
    assert battle_purposes(dice) == ["battle:3:1:r1:ALPHA:A1", "battle:3:1:r1:BETA:B1"]
    assert battles(result) == [("3", 1, "ALPHA", "BETA", "", 0, "")]  # both destroyed: no winner, no trophies
    assert where(after, "A1", "B1") == [None, None]


def test_roles_rule_2_an_attacker_that_did_not_move_retreats_by_the_defenders_criteria() -> None:
    # Alpha attacks (no DNA) but came from nowhere: it may retreat only to an adjacent system that is empty or
    # its own. 2 holds Gamma's ships, 4 has a planet of Beta, 6 is empty: it goes to 6 despite preferring 2 and 4.
    data = gw([("A1", "ALPHA", "CRUISER", "3"), ("B1", "BETA", "CRUISER", "3"), ("G1", "GAMMA", "CRUISER", "2")],
              planets=[{"planet": "P4", "system": "4", "resources": 1, "owner": "BETA"}])
    plan = {"battle_plan": [{"scope": "ALL", "retreat_if": "AFTER_ROUND 1", "retreat_to": "2, 4"}]}
    dice = ScriptedDice()  # every die misses
    result, after, _ = resolve(data, {"ALPHA": plan, "BETA": DNA_IN_3}, dice)
    # An attacker's retreat is immediate: no round of unanswered fire after it (that is the defender's retreat).
    assert battle_purposes(dice) == ["battle:3:1:r1:ALPHA:A1"]
    assert battles(result) == [("3", 1, "ALPHA", "BETA", "BETA", 0, "ALPHA→6")]
    assert where(after, "A1", "B1") == ["6", "3"]


def test_a_coexistence_that_both_renew_goes_on_without_a_battle() -> None:
    data = gw([("A1", "ALPHA", "CRUISER", "3"), ("B1", "BETA", "CRUISER", "3")])
    dice = ScriptedDice(default=10)
    result, after, _ = resolve(data, {"ALPHA": DNA_IN_3, "BETA": DNA_IN_3}, dice)
    assert battles(result) == [] and battle_purposes(dice) == [] and where(after, "A1", "B1") == ["3", "3"]
    assert [str(r[0].render("en")) for r in table(result, "flags")] == [
        "ALPHA, BETA share 3 without a battle ('Do not attack')."]


# ------------------------------------------------------------------------------------------ G6
def dock_in_3(owner: str = "BETA") -> list[dict[str, Any]]:
    return [{"planet": "MARS", "system": "3", "resources": 2, "owner": owner, "dock": "Y", "dock_built": 0}]


@pytest.mark.parametrize(("dock_owner", "beta_ships", "passes"), [
    ("BETA", [("BF1", "BETA", "FIGHTER", "3")], True),   # Fighters alone at their own dock: no block
    ("GAMMA", [("BF1", "BETA", "FIGHTER", "3")], False),  # at another race's dock they block
    ("BETA", [("BF1", "BETA", "FIGHTER", "3"), ("B1", "BETA", "CRUISER", "3")], False),  # with a ship they block
])
def test_g6_fighters_at_their_own_dock_do_not_block_passage(dock_owner: str, beta_ships: list[tuple[str, ...]],
                                                            passes: bool) -> None:
    data = gw([("A1", "ALPHA", "CRUISER", "2"), *beta_ships], planets=dock_in_3(dock_owner))  # type: ignore[list-item]
    result, after, _ = resolve(data, {"ALPHA": moves(("2", "A1", "3-4"))}, ScriptedDice())
    assert where(after, "A1") == (["4"] if passes else ["2"])
    assert battles(result) == []  # passing through is no meeting
    if not passes:
        assert outcomes(result, "ALPHA", "moves") == ["Cannot pass through 3: it contains the fleet of BETA."]


def test_g6_fighters_at_their_own_dock_fight_when_an_enemy_stops_there() -> None:
    data = gw([("A1", "ALPHA", "CRUISER", "2"), ("BF1", "BETA", "FIGHTER", "3"), ("BF2", "BETA", "FIGHTER", "3")],
              planets=dock_in_3())
    dice = ScriptedDice({"battle:3:*:BETA:*": 10})  # the Fighters always hit, the Cruiser always misses
    result, after, _ = resolve(data, {"ALPHA": moves(("2", "A1", "3"))}, dice)
    assert battle_purposes(dice) == ["battle:3:1:r1:ALPHA:A1", "battle:3:1:r1:BETA:BF1", "battle:3:1:r1:BETA:BF2"]
    assert battles(result) == [("3", 1, "ALPHA", "BETA", "BETA", 2, "")]
    assert where(after, "A1", "BF1", "BF2") == [None, "3", "3"]


# ---------------------------------------------------------------------------------- parameters
@pytest.mark.parametrize(("count_fighters", "alpha_in"), [(True, "3"), (False, "2")])
def test_count_fighters_in_retreat_conditions(count_fighters: bool, alpha_in: str) -> None:
    # Alpha's Transport brings two Fighters; its plan: retreat when it has one ship or fewer. Counting the Fighters
    # it has three and fights on (to the cap, every die missing); not counting them it has one and leaves.
    data = gw([("T1", "ALPHA", "TRANSPORT", "2"), ("B1", "BETA", "CRUISER", "3")],
              extra=[{"id": f"F{n}", "race": "ALPHA", "type": "FIGHTER", "system": "2", "aboard": "T1"}
                     for n in (1, 2)],
              parameters={"count_fighters": count_fighters, "max_rounds": 3})
    plan = {"battle_plan": [{"scope": "ALL", "retreat_if": "OWN_SHIPS<=1"}]}
    result, after, _ = resolve(data, {"ALPHA": {**moves(("2", "T1", "3")), **plan}}, ScriptedDice())
    assert where(after, "T1", "F1", "F2") == [alpha_in] * 3
    rounds = {r[2] for r in table(result, "battle_rounds")}
    assert rounds == ({1, 2, 3} if count_fighters else {1})
    assert battles(result)[0][6] == ("" if count_fighters else "ALPHA→2")
    if not count_fighters:
        assert after["F1"]["aboard"] == "T1" and after["F2"]["aboard"] == "T1"  # room for both on the way back


@pytest.mark.parametrize(("param", "alpha_dna", "placed"), [
    (True, True, False),   # default: ships under "Do not attack" blockade a dock too
    (False, True, True),   # ... unless blockade_includes_dna is off
    (False, False, False),  # hostile ships blockade in any case
])
def test_blockade_includes_dna(param: bool, alpha_dna: bool, placed: bool) -> None:
    data = gw([("A1", "ALPHA", "CRUISER", "2")], planets=dock_in_3(), parameters={"blockade_includes_dna": param})
    row = {"origin": "2", "units": "A1", "path": "3", "dna": "Y" if alpha_dna else None}
    purchases = [{"race": "BETA", "type": "CRUISER", "count": 1, "planet": "MARS"},
                 {"race": "BETA", "type": "GF", "count": 1, "planet": "MARS"}]  # planetary units: never blockaded
    result, after, problems = resolve(data, {"ALPHA": {"moves": [row]}}, ScriptedDice(), purchases)
    new = sorted((u["type"], u["system"]) for u in after.values() if u["race"] == "BETA")
    assert new == ([("CRUISER", "3"), ("GF", "3")] if placed else [("GF", "3")])
    assert [p.code for p in problems] == ([] if placed else ["P03"])
    assert battles(result) == []  # Beta has no ships there: no battle either way


@pytest.mark.parametrize(("bonus", "placed"), [(0, 2), (1, 3), (2, 3)])
def test_production_bonus_raises_the_dock_limit(bonus: int, placed: int) -> None:
    data = gw([], planets=dock_in_3(), parameters={"production_bonus": bonus})  # MARS: 2 resources
    purchases = [{"race": "BETA", "type": "GF", "count": 2, "planet": "MARS"},
                 {"race": "BETA", "type": "FIGHTER", "count": 1, "planet": "MARS"}]
    result, after, problems = resolve(data, {}, ScriptedDice(), purchases)
    assert len(after) == placed
    assert [p.code for p in problems] == ([] if placed == 3 else ["P02"])
    if placed == 2:
        assert [str(r[5].render("en")) for r in table(result, "placement")][1] == \
            "Dock on MARS may produce 2 units; 3 ordered."


@pytest.mark.parametrize(("adjacent", "ends_in"), [(True, "5"), (False, "1")])
def test_wormholes_adjacent(adjacent: bool, ends_in: str) -> None:
    # 1 and 5 are both alpha wormholes, four hexes apart.
    data = gw([("A1", "ALPHA", "CRUISER", "1")], parameters={"wormholes_adjacent": adjacent})
    result, after, _ = resolve(data, {"ALPHA": moves(("1", "A1", "5"))}, ScriptedDice())
    assert where(after, "A1") == [ends_in]
    assert outcomes(result, "ALPHA", "moves")[0] == ("1 unit moved to 5." if adjacent else "1 and 5 are not adjacent.")


# ------------------------------------------------- several races present at the start, plus an arrival
def three_races() -> dict[str, Any]:
    # Alpha (2 Cruisers) and Beta (1) were both in 3 at the start; Gamma (3) arrives from 4. Nobody has DNA.
    return gw([("A1", "ALPHA", "CRUISER", "3"), ("A2", "ALPHA", "CRUISER", "3"), ("B1", "BETA", "CRUISER", "3"),
               ("C1", "GAMMA", "CRUISER", "4"), ("C2", "GAMMA", "CRUISER", "4"), ("C3", "GAMMA", "CRUISER", "4")])


def test_broken_truce_starters_first_the_races_already_there_fight_then_the_survivor_defends() -> None:
    dice = ScriptedDice({"battle:3:*:ALPHA:*": 10})  # Alpha always hits, the others always miss
    result, after, _ = resolve(three_races(), {"GAMMA": moves(("4", "C1, C2, C3", "3"))}, dice)
    # Battle 1: Alpha and Beta, both there and neither with DNA, are both attackers (roles rule 2). Battle 2: Gamma
    # arrives and attacks the system's holder, Alpha, now its defender (roles rule 1); no Round 0 any more.
    assert battles(result) == [("3", 1, "ALPHA", "BETA", "ALPHA", 2, ""), ("3", 2, "GAMMA", "ALPHA", "ALPHA", 6, "")]
    assert battle_purposes(dice)[:2] == ["battle:3:1:r1:ALPHA:A1", "battle:3:1:r1:ALPHA:A2"]
    assert where(after, "A1", "A2", "B1", "C1", "C2", "C3") == ["3", "3", None, None, None, None]


def test_broken_truce_by_size_the_largest_fleet_holds_first() -> None:
    data = three_races()
    data["parameters"] = {"broken_truce": "BY_SIZE"}
    dice = ScriptedDice({"battle:3:*:ALPHA:*": 10})
    result, after, _ = resolve(data, {"GAMMA": moves(("4", "C1, C2, C3", "3"))}, dice)
    # Gamma (3 ships) holds first and meets Alpha (2), then the holder meets Beta (1).
    assert battles(result) == [("3", 1, "GAMMA", "ALPHA", "ALPHA", 6, ""), ("3", 2, "ALPHA", "BETA", "ALPHA", 2, "")]
    assert where(after, "A1", "A2", "B1", "C1") == ["3", "3", None, None]


@pytest.mark.parametrize("broken_truce", ["STARTERS_FIRST", "BY_SIZE"])
def test_a_race_at_peace_with_the_first_holder_still_meets_a_hostile_race_that_takes_the_system(
        broken_truce: str) -> None:
    # Gamma (3) and Beta (2) share 3 under "Do not attack"; Alpha (1) arrives without it and beats Gamma, which
    # holds first. Beta's truce was with Gamma, not Alpha: Alpha, now holding the system, attacks Beta too.
    data = gw([("C1", "GAMMA", "CRUISER", "3"), ("C2", "GAMMA", "CRUISER", "3"), ("C3", "GAMMA", "CRUISER", "3"),
               ("B1", "BETA", "CRUISER", "3"), ("B2", "BETA", "CRUISER", "3"), ("A1", "ALPHA", "CRUISER", "2")],
              parameters={"broken_truce": broken_truce})
    dice = ScriptedDice({"battle:3:*:ALPHA:*": 10})  # Alpha's one Cruiser destroys a ship a round
    result, after, _ = resolve(data, {"ALPHA": moves(("2", "A1", "3")), "BETA": DNA_IN_3, "GAMMA": DNA_IN_3}, dice)
    assert battles(result) == [("3", 1, "ALPHA", "GAMMA", "ALPHA", 6, ""), ("3", 2, "ALPHA", "BETA", "ALPHA", 4, "")]
    # Under the DNA penalty the defender is silent in round 1 of each battle only.
    assert [p for p in battle_purposes(dice) if ":r1:" in p] == ["battle:3:1:r1:ALPHA:A1", "battle:3:2:r1:ALPHA:A1"]
    assert where(after, "B1", "B2", "C1", "C3", "A1") == [None, None, None, None, "3"]
    assert not table(result, "flags")  # nobody shares the system at the end


def test_a_truce_with_the_holder_that_survives_is_a_shared_system() -> None:
    # The same, but Gamma wins: Beta, at peace with Gamma, shares the system with it at the end.
    data = gw([("C1", "GAMMA", "CRUISER", "3"), ("C2", "GAMMA", "CRUISER", "3"), ("C3", "GAMMA", "CRUISER", "3"),
               ("B1", "BETA", "CRUISER", "3"), ("A1", "ALPHA", "CRUISER", "2")])
    dice = ScriptedDice({"battle:3:*:GAMMA:*": 10})
    result, after, _ = resolve(data, {"ALPHA": moves(("2", "A1", "3")), "BETA": DNA_IN_3, "GAMMA": DNA_IN_3}, dice)
    assert battles(result) == [("3", 1, "ALPHA", "GAMMA", "GAMMA", 2, "")]
    assert where(after, "B1", "C1", "A1") == ["3", "3", None]
    assert [str(r[0].render("en")) for r in table(result, "flags")] == [
        "BETA, GAMMA share 3 without a battle ('Do not attack')."]


@pytest.mark.parametrize("ending", ["both retreat", "both destroyed"])
def test_when_the_first_two_both_leave_the_next_race_holds_the_system_alone(ending: str) -> None:
    # Three arrivals and no planet: Beta and Gamma (the two largest) fight first as both attackers (roles rule 4).
    # When neither is left, Alpha holds the system alone: no battle of Alpha against itself or anyone.
    retreat = ending == "both retreat"
    gamma = [("C1", "GAMMA", "CRUISER", "6"), ("C2", "GAMMA", "CRUISER", "6")]
    beta = [("B1", "BETA", "CRUISER", "4"), ("B2", "BETA", "CRUISER", "4"), *([("B3", "BETA", "CRUISER", "4")]
                                                                            if retreat else [])]
    data = gw([*beta, *gamma, ("A1", "ALPHA", "CRUISER", "2")])
    plan = {"battle_plan": [{"scope": "ALL", "retreat_if": "AFTER_ROUND 1"}]} if retreat else {}
    dice = ScriptedDice({} if retreat else {"battle:3:1:r1:*": 10})
    result, after, _ = resolve(data, {"ALPHA": moves(("2", "A1", "3")),
                                      "BETA": {**moves(("4", ", ".join(u[0] for u in beta), "3")), **plan},
                                      "GAMMA": {**moves(("6", "C1, C2", "3")), **plan}}, dice)
    assert battles(result) == [("3", 1, "BETA", "GAMMA", "", 0, "BETA→4, GAMMA→6" if retreat else "")]
    assert where(after, "A1", "B1", "C1") == (["3", "4", "6"] if retreat else ["3", None, None])
    assert not [p for p in dice.purposes if ":ALPHA:" in p and p.startswith("battle:")]
