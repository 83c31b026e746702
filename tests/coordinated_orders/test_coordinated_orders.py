"""Coordinated Orders (spec coordinated_orders): every worked example, every validation at its cell with
nothing spent, the rulings, the roll mode and the fog of war, through real workbooks and real turns."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import python_calamine as pc

from adjudicator.dice import Dice
from adjudicator.engine.registry import find_ruleset
from adjudicator.i18n import fold, gettext_in
from adjudicator.paths import examples_root
from adjudicator.rulesets.coordinated_orders.phases.rolls import judge_dice, surviving
from adjudicator.rulesets.coordinated_orders.schemas import ORDERS, REACTIONS, SKILLS
from adjudicator.scenario import load_scenario
from adjudicator.turn import pipeline
from tests.coordinated_orders.kit import (
    RULESET,
    aros,
    co,
    co_table,
    data,
    facts_for,
    ledger,
    lines,
    outcome_of,
    play,
    problems,
    report,
    resources,
    results,
    submit,
)
from tests.helpers import make_campaign, state, write_gm


def attack(code: str, tids: list[str], target: str = "MZ1", skill: str = "BS_ATTACK",
           weapons: dict[str, str] | None = None) -> list[dict[str, Any]]:
    weapons = weapons or {}
    default = "CCW" if skill == "CC_ATTACK" else "Combi Rifle"
    return [co(code, t, "MOVE", skill, weapons.get(t, "HMG" if t == "G1" else default), target, head=i == 0)
            for i, t in enumerate(tids)]
















SHEET_ORDERS = "Coordinated Orders"
SHEET_AROS = "AROs"












def dice_log(root: Path) -> dict[str, str]:
    grid = pc.CalamineWorkbook.from_path(str(root / "campaign.xlsx")).get_sheet_by_name("Dice").to_python()
    head = grid[0]
    at = next(i for i, h in enumerate(head) if "esult" in str(h) or "alues" in str(h) or "aces" in str(h))
    return {r[2]: f"{r[3]} {r[at]}" for r in grid[1:] if r[2]}  # the key, after the roll's words


# ------------------------------------------------------------------ one resolved turn for many examples
A_FACTS = facts_for("A", ["G1", "F1", "F2", "F3"]) + facts_for("A", ["MZ1"], k=1)
WEAPONS = {"F1": "Combi Rifle", "F2": "Grenades", "F3": "Flash Pulse", "F4": "Chain Rifle"}
PLAN_ORDERS = [
    *attack("A", ["G1", "F1", "F2", "F3"]),                       # example A
    *attack("B", ["F1", "F2", "F3", "F4"], skill="CC_ATTACK"),    # example B
    *attack("C", ["G1", "F1", "F2", "F3"]),                       # example C
    co("E", "S1", "JUMP", "BS_ATTACK", "Combi Rifle", "KN1", head=True),  # example E
    co("E", "F1", "JUMP_ENTIRE"),
    co("E", "F2", "IDLE", "BS_ATTACK", "Combi Rifle", "KN1"),
    *attack("F", ["F1", "F2", "F3", "F4"], weapons=WEAPONS),     # example F: four different weapons
    co("ST", "C1", "STATE", tool1="Camouflaged", head=True),      # example F: the same State (any case)
    co("ST", "C2", "STATE", tool1="camouflaged"),
    *attack("DG", ["F1", "F2", "F3"], weapons=WEAPONS),          # Dodge against every participant
    co("HR", "HK1", "HACK", tool1="Carbonite", target1="KN1", head=True),  # Reset against the hackers
    co("HR", "HK2", "HACK", tool1="Carbonite", target1="KN1"),
    *attack("N", ["G1", "F1"]),                                   # an ARO on a participant that shoots elsewhere
    co("BH", "F1", "MOVE", "CC_ATTACK", "CCW", "MZ1", head=True, bonus2=2),  # CC bonus, halving, allies
    co("BH", "F2", "MOVE", "CC_ATTACK", "CCW", "MZ1"),
    *attack("SI", ["F1", "F2"], skill="CC_ATTACK"),               # the Spearhead Idle in a CC Attack
    *attack("SA", ["G1", "F3"]),                                  # the Spearhead Idle in a BS Attack
    co("M", "F1", "MOVE", "BS_ATTACK", "Mine", "point 1", head=True),  # Deployable: no common point (R21)
    co("M", "F2", "MOVE", "BS_ATTACK", "Mine", "point 2"),
    co("AO", "F1", head=True), co("AO", "F2"),                    # AROs lost at run time (A01, A04)
    co("G", "A1", head=True), co("G", "H1"), co("G", "F4"),      # Airborne and Hidden Deployment forfeits
    co("R", "I1", head=True), co("R", "I3"),                      # an Irregular HD trooper forfeits its own
]
PLAN_REACTIONS = [
    {"co": "A", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "G1"},
    {"co": "B", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "F1"},
    {"co": "C", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "G1"},
    {"co": "DG", "reactive": "MZ1", "aro": "DODGE", "target": "F2"},
    {"co": "HR", "reactive": "KN1", "aro": "RESET", "target": "HK2"},
    {"co": "N", "reactive": "KN1", "aro": "BS_ATTACK", "tool": "Combi Rifle", "target": "F1"},
    {"co": "AO", "reactive": "KN1", "aro": "BS_ATTACK", "tool": "Combi Rifle", "target": "F3"},
    {"co": "Z", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "F1"},
]
PLAN_FACTS = (
    A_FACTS + facts_for("B", ["F1", "F2", "F3", "F4"], F1={"contact": "F2, F3, F4"}) + facts_for("B", ["MZ1"], k=1)
    + facts_for("C", ["G1", "F1", "F2"]) + [{"co": "C", "skill": 2, "trooper": "F3", "met": "NO", "reason": "NO_LOF"}]
    + facts_for("C", ["MZ1"], k=1) + facts_for("E", ["S1", "F2"]) + facts_for("F", list(WEAPONS))
    + facts_for("DG", ["F1", "F2", "F3"]) + facts_for("DG", ["MZ1"], k=1) + facts_for("HR", ["HK1", "HK2", "KN1"], k=1)
    + facts_for("N", ["G1", "F1"]) + facts_for("N", ["KN1"], k=1)
    + facts_for("BH", ["F1", "F2"], F1={"contact": "F2, F3, F1"})
    + [{"co": "SI", "skill": 2, "trooper": "F1", "met": "NO", "reason": "NOT_IN_CONTACT"}] + facts_for("SI", ["F2"])
    + [{"co": "SA", "skill": 2, "trooper": "G1", "met": "NO", "reason": "REMOVED"}] + facts_for("SA", ["F3"])
    + facts_for("M", ["F1", "F2"])
)


@pytest.fixture(scope="module")
def plan_turn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One Player Turn holding the rulings, each in its own CO, resolved once (beside the COs of the worked
    examples, whose cases check them)."""
    base = tmp_path_factory.mktemp("plan")
    root = make_campaign(base / "c", data(tokens=20, cg1=30))
    submit(root, "PANO", PLAN_ORDERS)
    submit(root, "JSA", reactions=PLAN_REACTIONS)
    assert problems(root) == []
    write_gm(root, {"facts": PLAN_FACTS})
    assert pipeline.run(root).status == "resolved"
    return root


def spent(root: Path, code: str) -> tuple[int, str, str]:
    row = co_table(root)[code]
    return row["Command Tokens spent"], row["Regular Orders spent"], row["Spearhead token removed"]


# ------------------------------------------------------------------------------- worked examples
# Examples A to F are scenario cases (the ruleset's cases/example_*.toml); this turn holds example D again
# for what a case cannot state: the fog of war of the results workbooks.
@pytest.fixture(scope="module", params=["BS_ATTACK", "MOVE"])
def camo_turn(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    second = request.param
    tool2 = {"G1": "HMG", "C1": "Combi Rifle", "C2": "Combi Rifle"} if second == "BS_ATTACK" else {}
    orders = [co("D", t, "MOVE", second, tool2.get(t), "MZ1" if tool2 else None, head=t == "G1")
              for t in ("G1", "C1", "C2")]
    orders += [co("X", "F1", head=True), co("X", "T1")]  # illegal (V10): the JSA must not see it
    reactions = [{"co": "D", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "M1", "delayed": "YES"}]
    facts = facts_for("D", ["G1", "C1", "C2", "MZ1"]) if tool2 else []
    root, outcome = play(tmp_path_factory.mktemp(f"camo-{second}"), orders, reactions, facts)
    assert outcome.status == "resolved"
    return second, root


def test_fog_of_war_in_the_results(camo_turn: tuple[str, Path]) -> None:
    second, root = camo_turn
    pano, jsa = results(root, "PANO"), results(root, "JSA")
    assert {r["Trooper"] for r in report(pano, "Your roster")} >= {"F1", "C1", "A1", "H1"}
    assert {r["Trooper"] for r in report(pano, "Enemy troopers in sight")} == {"MZ1", "KN1"}  # NJ1 hidden
    seen = {r["Trooper"] for r in report(jsa, "Enemy troopers in sight")}
    assert not seen & {"A1", "H1", "I2", "I3"}
    assert ("M1" in seen and "C1" not in seen) if second == "MOVE" else ("C1" in seen and "M1" not in seen)
    assert list(co_table(root, "JSA")) == ["D"] and list(co_table(root)) == ["D", "X"]  # not the illegal X
    assert {r["Faction"] for r in report(jsa, "Command Tokens and Orders")} == {"JSA"}
    if second == "MOVE":  # example D's lost ARO: the JSA reads its code, and sees only Markers in the CO
        assert outcome_of(jsa, "reactions", 2)[1].startswith("A02")
        assert {k[2] for k in lines(root, "JSA")} == {"G1", "M1", "M2"}


# ------------------------------------------------------------------------------------------- rulings
def test_dodge_opposes_every_participant_and_reset_only_hacking(plan_turn: Path) -> None:
    got = lines(plan_turn)
    assert [got[("DG", 2, t)]["Roll"] for t in ("F1", "F2", "F3")] == ["Face-to-Face against MZ1"] * 3
    assert aros(plan_turn)[("DG", "MZ1")]["Roll"] == "Face-to-Face against F1, F2, F3"
    assert [got[("HR", 1, t)]["Roll"] for t in ("HK1", "HK2")] == ["Face-to-Face against KN1"] * 2
    assert [got[("HR", 1, t)]["Effective Burst"] for t in ("HK1", "HK2")] == [1, 1]  # ceil(2 / 2); B1
    assert aros(plan_turn)[("HR", "KN1")]["Roll"] == "Face-to-Face against HK1, HK2"


def test_aro_against_a_participant_that_does_not_target_it_is_a_normal_roll(plan_turn: Path) -> None:
    assert lines(plan_turn)[("N", 2, "F1")]["Roll"] == "Normal Roll"  # F1 shoots MZ1, not KN1
    assert aros(plan_turn)[("N", "KN1")]["Roll"] == "Normal Roll"


def test_cc_contact_bonus_is_added_after_halving_and_excludes_the_spearhead(plan_turn: Path) -> None:
    head = lines(plan_turn)[("BH", 2, "F1")]  # ceil((B1 + 2) / 2) = 2; F2 (a participant) and F3 count, F1 not
    assert (head["Burst bonus"], head["Contact bonus"], head["Effective Burst"]) == (2, 2, 4)


def test_spearhead_idle_in_cc_means_no_attack_in_bs_the_others_still_shoot(plan_turn: Path) -> None:
    got = lines(plan_turn)
    assert got[("SI", 2, "F1")]["Status"] == "Idle: Not in Silhouette contact" and got[("SI", 2, "F1")]["Roll"] == ""
    assert got[("SI", 2, "F2")]["Status"] == "CC support, no effect: the Spearhead is Idle"
    assert got[("SA", 2, "G1")]["Status"] == "Idle: Removed by an ARO"
    assert (got[("SA", 2, "F3")]["Effective Burst"], got[("SA", 2, "F3")]["Roll"]) == (1, "Normal Roll")


def test_targetless_or_deployable_tools_need_no_common_point(plan_turn: Path) -> None:
    assert co_table(plan_turn)["M"]["Legal"] == "YES"
    assert [lines(plan_turn)[("M", 2, t)]["Target"] for t in ("F1", "F2")] == ["point 1", "point 2"]


def test_aros_lost_at_run_time_are_shown_at_their_row_and_spend_nothing(plan_turn: Path) -> None:
    got = aros(plan_turn)
    assert (got[("AO", "KN1")]["Verdict"], got[("Z", "MZ1")]["Verdict"]) == ("lost (A01)", "lost (A04)")
    jsa = results(plan_turn, "JSA")
    rows = {r["co"]: i for i, r in enumerate(PLAN_REACTIONS, start=2)}
    assert [outcome_of(jsa, "reactions", rows[c])[0] for c in ("AO", "Z")] == ["rejected"] * 2
    assert [outcome_of(jsa, "reactions", rows[c])[1][:3] for c in ("AO", "Z")] == ["A01", "A04"]
    assert outcome_of(jsa, "reactions", rows["A"])[0] == "done"
    assert [line for line in ledger(plan_turn) if line[0] == "JSA"] == []


def test_hidden_and_airborne_troopers_forfeit_their_own_order(plan_turn: Path) -> None:
    table = co_table(plan_turn)
    assert (table["G"]["Own Orders forfeited"], table["R"]["Own Orders forfeited"]) == (
        "A1 (a Regular Order), H1 (a Regular Order)", "I3 (its Irregular Order)")
    assert [(r[1], r[2]) for r in ledger(plan_turn) if r[4] == "PANO:G"] == [
        ("Command Tokens", -1), *[("Regular Orders of Combat Group 1", -1)] * 3]
    assert [(r[1], r[2]) for r in ledger(plan_turn) if r[4] == "PANO:R"] == [
        ("Command Tokens", -1), ("Regular Orders of Combat Group 1", -1),
        ("Own Order of I3", -1)]  # C3: a Regular Order too
    tokens, pools = resources(plan_turn)
    legal = len(co_table(plan_turn))
    assert (tokens, pools[("PANO", 1)]) == (20 - legal, 30 - legal - 2)
    rows = {r["trooper"]: r for r in state(plan_turn).tables["troopers"].to_dict("records")}
    assert (rows["I3"]["own_orders"], rows["I1"]["own_orders"]) == (0, 1)
    assert rows["A1"]["deployment"] == rows["H1"]["deployment"] == rows["I3"]["deployment"] == "ON_TABLE"


# --------------------------------------------------------------------------------- the spec's cfg
SPEC_PARAMETERS = {  # spec §7, with the defaults it gives
    "max_participants": 4, "min_participants": 2, "cost_command_tokens": 1, "cost_regular_orders": 1,
    "spearhead_burst_divisor": 2, "other_burst": 1, "cc_bonus_per_ally": 1, "cc_bonus_counts": "ALL_ALLIED",
    "illegal_co_consumes": False, "hd_ad_forfeit": "EXTRA_ORDER", "cc_spearhead_halved": True,
    "fireteam_module_enabled": True, "core_roll_module": False, "die": 20,
}


def test_every_cfg_of_the_spec_is_a_parameter_with_its_default() -> None:
    defaults = find_ruleset(RULESET).parameters().defaults()
    assert {key: defaults.get(key) for key in SPEC_PARAMETERS} == SPEC_PARAMETERS


PARAMS = {"cc_bonus_counts": "PARTICIPANTS_ONLY", "cc_bonus_per_ally": 2, "cc_spearhead_halved": "FALSE",
          "spearhead_burst_divisor": 3, "other_burst": 2, "cost_command_tokens": 2, "cost_regular_orders": 2,
          "illegal_co_consumes": "TRUE", "hd_ad_forfeit": "NONE", "fireteam_module_enabled": "FALSE",
          "min_participants": 1, "max_participants": 3, "core_roll_module": "TRUE", "die": 12}


@pytest.fixture(scope="module")
def params_turn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every cfg of the spec changed from its default, in one turn."""
    orders = [
        co("P1", "F1", "MOVE", "CC_ATTACK", "CCW", "MZ1", head=True), co("P1", "F2", "MOVE", "CC_ATTACK", "CCW", "MZ1"),
        co("P2", "G1", "MOVE", "BS_ATTACK", "HMG", "MZ1", head=True, bonus2=2),
        co("P2", "F1", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1"),
        co("P3", "A1", head=True), co("P3", "H1"),                  # hd_ad_forfeit NONE
        co("P4", "F3", head=True), co("P4", "T1"),                  # fireteam module off
        co("P5", "F4", head=True),                                  # min_participants 1
        co("P6", "G1", head=True), co("P6", "F1"), co("P6", "F2"), co("P6", "F4"),  # V04: consumes what is left
    ]
    facts = facts_for("P1", ["F1", "F2"], F1={"contact": "F2, F3"}) + facts_for("P2", ["G1", "F1"])
    root, outcome = play(tmp_path_factory.mktemp("params"), orders, [], facts, tokens=11, cg1=20,
                         parameters=PARAMS)
    assert outcome.status == "resolved"
    return root


def test_cfg_values_change_the_outcome(params_turn: Path) -> None:
    got = lines(params_turn)
    # not halved: B1, + 2 per participant in contact (F2; F3 is no participant)
    assert (got[("P1", 2, "F1")]["Contact bonus"], got[("P1", 2, "F1")]["Effective Burst"]) == (2, 3)
    assert got[("P2", 2, "G1")]["Effective Burst"] == 2 and got[("P2", 2, "F1")]["Effective Burst"] == 2  # ⌈6/3⌉
    table = co_table(params_turn)
    assert [table[c]["Legal"] for c in ("P1", "P2", "P3", "P4", "P5", "P6")] == ["YES"] * 5 + ["NO"]
    assert [spent(params_turn, c)[:2] for c in ("P1", "P5")] == [(2, "2 (CG 1)")] * 2
    assert table["P3"]["Own Orders forfeited"] == "" and table["P6"]["Errors"] == "V04"
    assert (table["P6"]["Command Tokens spent"], table["P6"]["Regular Orders spent"]) == (1, "2 (CG 1)")
    assert resources(params_turn)[0] == 0 and resources(params_turn)[1][("PANO", 1)] == 20 - 10 - 2
    assert all(n.split()[0].endswith("d12") for n in dice_log(params_turn).values())
    assert dice_log(params_turn)["PANO:P1:skill2:F1"].startswith("3d12")


# ----------------------------------------------------------------------------------- validations
CASES = {
    "V03": ([co("X", "K1", head=True), co("X", "K2")], [("V03", "A2")]),
    "V04": ([co("X", t, head=t == "G1") for t in ("G1", "F1", "F2", "F3", "F4")], [("V04", "B6")]),
    "V05": ([co("X", "F1", head=True)], [("V05", "A2")]),
    "V06": ([co("X", "F1", head=True), co("X", "K1")], [("V06", "B3")]),
    "V07": ([co("X", "F1", head=True), co("X", "I1")], [("V07", "B3")]),
    "V08": ([co("X", "F1", head=True), co("X", "F2", head=True)], [("V08", "C3")]),
    "V08b": ([co("X", "F1"), co("X", "F2")], [("V08", "C2")]),
    "V09": ([co("X", "F1", head=True), co("X", "P1"), co("X", "R1")], [("V09", "B3"), ("V09", "B4")]),
    "V10": ([co("X", "F1", head=True), co("X", "T1")], [("V10", "B3")]),
    "V11": ([co("X", "F1", head=True), co("X", "X1"), co("X", "ZZ"), co("X", "F1"), co("X2", "F2", head=True),
             co("X2", "MZ1")], [("V11", "B3"), ("V11", "B4"), ("V11", "B5"), ("V11", "B7")]),
    "V12": ([co("X", "F1", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1", head=True),
             co("X", "F2", "BS_ATTACK", "MOVE", tool1="Combi Rifle", target1="MZ1")], [("V12", "D3"), ("V12", "H3")]),
    "V12b": ([co("X", "S1", "JUMP", "MOVE", head=True), co("X", "F1", "JUMP_ENTIRE", "MOVE")], [("V12", "H3")]),
    "V13": ([co("X", "F1", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1", head=True),
             co("X", "F2", "MOVE", "SPECULATIVE_ATTACK", "Grenades", "MZ1")], [("V13", "H3")]),
    "V13b": ([co("X", "F3", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1", head=True),
              co("X", "F4", "MOVE", "INTUITIVE_ATTACK", "Chain Rifle", "MZ1")], [("V13", "H3")]),
    "V14": ([co("X", "F1", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1", head=True),
             co("X", "F2", "MOVE", "BS_ATTACK", "Combi Rifle", "KN1"),
             co("X", "F3", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1, KN1")], [("V14", "J3"), ("V14", "J4")]),
    "V15": ([co("X", "C1", "STATE", tool1="Camouflaged", head=True), co("X", "C2", "STATE", tool1="Prone")],
            [("V15", "E3")]),
    "V16": ([co("X", "HK1", "HACK", tool1="Carbonite", target1="MZ1", head=True),
             co("X", "HK2", "HACK", tool1="Total Control", target1="MZ1")], [("V16", "E3")]),
    "V17": ([co("X", "I1", head=True), co("X", "I2")], [("V17", "B3")]),
    "V17b": ([co("X", "A1", head=True), co("X", "H1")], [("V17", "B3")]),  # CG1 has 2: the CO's and A1's
    "V18": ([co("X", "F1", "JUMP", head=True), co("X", "F2", "JUMP_ENTIRE")], [("V18", "D2")]),
    "V12c": ([co("X", "S1", "JUMP", "BS_ATTACK", "Combi Rifle", "KN1", head=True),  # after Jump/Idle: R4 again
              co("X", "F2", "IDLE", "MOVE")], [("V12", "H3")]),
    "V13c": ([co("X", "F1", "MOVE", "BS_ATTACK", "Mine", "point 1", head=True),  # C10: only the point is waived
              co("X", "F2", "MOVE", "INTUITIVE_ATTACK", "Mine", "point 2")], [("V13", "H3")]),
    "V14b": ([co("X", "HK1", "HACK", tool1="Carbonite", target1="MZ1", head=True),  # R19: the Program's target
              co("X", "HK2", "HACK", tool1="Carbonite", target1="KN1")], [("V14", "F3")]),
    "V19": ([co("X", "F1", "MOVE", "BS_ATTACK", "Missile Launcher", "MZ1", head=True),
             co("X", "F2", "MOVE", "BS_ATTACK", None, "MZ1")], [("V19", "I2"), ("V19", "I3")]),
}


def nothing_changed(root: Path, before: Any) -> None:
    after = state(root)
    for key in ("factions", "combat_groups", "troopers"):
        old, new = (t.tables[key].copy() for t in (before, after))
        if key == "troopers":  # a blank count of own Orders is written back as 0
            old["own_orders"], new["own_orders"] = old["own_orders"].fillna(0), new["own_orders"].fillna(0)
        assert sorted(map(str, old.astype(str).to_dict("records"))) == sorted(
            map(str, new.astype(str).to_dict("records"))), key
    assert ledger(root) == []


def test_each_validation_at_its_cell_and_nothing_is_consumed(tmp_path: Path) -> None:
    """All the illegal declarations in one sheet: each reported at its cell, none of them spends anything."""
    rows: list[dict[str, Any]] = []
    expected: list[tuple[str, str, str]] = []
    for case in sorted(CASES):
        orders, cells = CASES[case]
        offset = len(rows)
        rows += [{**r, "co": f"{case}-{r['co']}"} for r in orders]
        for code, cell in cells:
            letters = "".join(ch for ch in cell if ch.isalpha())
            expected.append((code, SHEET_ORDERS, f"{letters}{int(cell[len(letters):]) + offset}"))
    root = make_campaign(tmp_path / "c", data(cg1=2))
    submit(root, "PANO", rows)
    assert problems(root) == expected
    submit(root, "JSA")
    before = state(root)
    assert pipeline.run(root).status == "resolved"
    nothing_changed(root, before)
    outcome = report(results(root), "Coordinated Orders")
    assert len(outcome) == len(CASES) + 1 and {r["Legal"] for r in outcome} == {"NO"}  # V11 has two COs
    # each CO names its codes, also V03 and V17, whose rows the check refused for what was left to spend
    assert {r["CO"]: r["Errors"] for r in outcome} == {
        f"{case}-{r['co']}".upper(): ", ".join(sorted({code for code, _ in cells}))
        for case, (orders, cells) in CASES.items() for r in orders}
    assert {r["Command Tokens spent"] for r in outcome} == {0} and {r["Regular Orders spent"] for r in outcome} == {0}
    assert {outcome_of(results(root), "orders", n)[0] for n in range(2, len(rows) + 2)} == {"rejected"}


def test_v01_v02_and_aro_errors_at_their_cells_with_nothing_consumed(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", data(tokens=0))
    submit(root, "PANO", [co("X", "F1", head=True), co("X", "F2")],  # V02: no Command Token left
           reactions=[{"co": "X", "reactive": "F3", "aro": "DODGE", "target": "F1"}])  # A03: the active player
    submit(root, "JSA", [co("J", "MZ1", head=True), co("J", "KN1")], reactions=[  # V01: not the JSA's turn
        {"co": "X", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "F1, F2"},  # A01
        {"co": "X", "reactive": "KN1", "aro": "BS_ATTACK", "tool": "HMG", "target": "F1"},  # A03 tool
        {"co": "X", "reactive": "G1", "aro": "DODGE", "target": "F1"},  # A03 not its trooper
        {"co": "X", "reactive": "KN1", "aro": "DODGE", "target": "F1"},  # A03 twice
        {"co": "X", "reactive": "NJ1", "aro": "BS_ATTACK", "tool": "Monofilament Katana"},  # A01 no target
    ])
    assert sorted(problems(root)) == sorted([
        ("V01", SHEET_ORDERS, "A2"), ("A01", SHEET_AROS, "E2"), ("A03", SHEET_AROS, "D3"), ("A03", SHEET_AROS, "B4"),
        ("A03", SHEET_AROS, "B5"), ("A01", SHEET_AROS, "E6"), ("V02", SHEET_ORDERS, "A2"), ("A03", SHEET_AROS, "A2")])
    before = state(root)
    assert pipeline.run(root).status == "resolved"
    nothing_changed(root, before)
    assert outcome_of(results(root), "orders", 2)[0] == outcome_of(results(root, "JSA"), "orders", 2)[0] == "rejected"


def test_v01_out_of_the_orders_phase(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", data(phase="TACTICAL"))
    submit(root, "PANO", [co("X", "F1", head=True), co("X", "F2")])
    assert problems(root) == [("V01", SHEET_ORDERS, "A2")]


def test_tokens_and_orders_are_spent_in_row_order_and_a_rejected_co_spends_nothing(tmp_path: Path) -> None:
    orders = [co("A", "F1", head=True), co("A", "F2"),
              co("BAD", "F3", head=True), co("BAD", "T1"),  # V10: spends nothing
              co("B", "F3", head=True), co("B", "F4"),
              co("C", "G1", head=True), co("C", "F1")]  # V02: both tokens are gone
    root = make_campaign(tmp_path / "c", data(tokens=2))
    submit(root, "PANO", orders)
    assert problems(root) == [("V10", SHEET_ORDERS, "B5"), ("V02", SHEET_ORDERS, "A8")]
    submit(root, "JSA")
    assert pipeline.run(root).status == "resolved"
    assert resources(root) == (0, {("PANO", 1): 4, ("PANO", 2): 0, ("JSA", 1): 4})
    assert [r[:4] for r in ledger(root)] == [
        ("PANO", "Command Tokens", -1, 1), ("PANO", "Regular Orders of Combat Group 1", -1, 5),
        ("PANO", "Command Tokens", -1, 0), ("PANO", "Regular Orders of Combat Group 1", -1, 4)]


# --------------------------------------------------------------------------- facts and roll mode
def test_missing_facts_hold_the_turn_and_change_nothing(tmp_path: Path) -> None:
    orders = attack("A", ["G1", "F1"])
    reactions = [{"co": "A", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "G1"}]
    root = make_campaign(tmp_path / "c", data())
    submit(root, "PANO", orders)
    submit(root, "JSA", reactions=reactions)
    first = pipeline.run(root)
    assert first.status == "waiting"
    rows = pc.CalamineWorkbook.from_path(str(first.gm_input)).get_sheet_by_name("Table facts").to_python()
    assert sorted((r[0], int(r[1]), r[2]) for r in rows[1:] if r[0]) == [("A", 1, "MZ1"), ("A", 2, "F1"),
                                                                       ("A", 2, "G1")]
    assert resources(root)[0] == 3
    write_gm(root, {"facts": facts_for("A", ["G1"]) + [{"co": "A", "skill": 2, "trooper": "F1"}]})
    assert pipeline.run(root).status == "waiting"  # still missing F1 and MZ1
    write_gm(root, {"facts": facts_for("A", ["G1", "F1"]) + facts_for("A", ["MZ1"], k=1)
                    + [{"co": "A", "skill": 2, "trooper": "ZZ", "met": "YES"}]})
    outcome = pipeline.run(root)
    assert outcome.status == "resolved" and [p.code for p in outcome.gm_problems] == ["W20"]


def test_contact_list_must_name_allies_e21(tmp_path: Path) -> None:
    orders = attack("B", ["F1", "F2"], skill="CC_ATTACK")
    root, outcome = play(tmp_path, orders, [], facts_for("B", ["F1", "F2"], F1={"contact": "F2, KN1"}))
    assert outcome.status == "waiting" and [(p.code, p.cell) for p in outcome.gm_problems] == [("E21", "H2")]


ROLL_ORDERS = attack("A", ["G1", "F1"])
ROLL_AROS = [{"co": "A", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "G1"}]
ROLL_FACTS = facts_for("A", ["G1", "F1"], G1={"mod": 3}) + facts_for("A", ["MZ1"], k=1)
DOCTORS = [co("H", "HK1", "DOCTOR", target1="F3", head=True), co("H", "HK2", "DOCTOR", target1="F3")]


@pytest.fixture(scope="module")
def roll_turns(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same CO A rolled three times: alone; after another, unrelated CO; with another seed."""
    roots = {}
    for name, orders, facts, seed in (
            ("alone", ROLL_ORDERS, ROLL_FACTS, 11),
            ("with_doctors", DOCTORS + ROLL_ORDERS, facts_for("H", ["HK1", "HK2"], k=1) + ROLL_FACTS, 11),
            ("other_seed", ROLL_ORDERS, ROLL_FACTS, 12)):
        root, outcome = play(tmp_path_factory.mktemp(name), orders, ROLL_AROS, facts, seed=seed,
                             parameters={"core_roll_module": "TRUE"})
        assert outcome.status == "resolved"
        roots[name] = root
    return roots


def test_roll_mode_rolls_the_plan_seeded_and_logged(roll_turns: dict[str, Path]) -> None:
    root = roll_turns["alone"]
    logged = dice_log(root)
    assert {p: n.split()[0] for p, n in logged.items()} == {
        "PANO:A:skill2:G1": "2d20", "PANO:A:skill2:F1": "1d20", "JSA:A:aro:MZ1": "1d20"}
    for purpose, notation in logged.items():  # the faces are the seeded dice of (seed, turn, purpose)
        count = int(notation.split("d")[0])
        assert notation.split(" ", 1)[1] == " ".join(str(v) for v in Dice(11, 1).roll(purpose, 20, count).values)
    rolls = report(results(root), "Rolls")
    by = {(r["Roller"], r["Against"]): r for r in rolls}
    assert (by[("G1", "MZ1")]["Roll"], by[("G1", "MZ1")]["Value needed"], by[("G1", "MZ1")]["Burst"]) == (
        "Face-to-Face", 13 + 3, 2)
    assert by[("F1", "")]["Roll"] == "Normal" and by[("MZ1", "G1")]["Burst"] == 1
    assert by[("MZ1", "G1")]["Skill"] == by[("G1", "MZ1")]["Skill"] == 2  # the ARO rolls against Skill 2
    g1 = judge_dice(Dice(11, 1).roll("PANO:A:skill2:G1", 20, 2).values, 16, 20)
    mz = judge_dice(Dice(11, 1).roll("JSA:A:aro:MZ1", 20, 1).values, 14, 20)
    assert by[("G1", "MZ1")]["Successes"] == len(surviving(g1, mz))
    assert by[("MZ1", "G1")]["Successes"] == len(surviving(mz, g1))


def test_another_co_does_not_change_the_rolls_of_a_co_and_another_seed_does(roll_turns: dict[str, Path]) -> None:
    alone, other = dice_log(roll_turns["alone"]), dice_log(roll_turns["with_doctors"])
    assert set(other) - set(alone) == {"PANO:H:skill1:HK1", "PANO:H:skill1:HK2"}
    assert {p: other[p] for p in alone} == alone
    assert report(results(roll_turns["with_doctors"]), "Rolls")[-3:] == report(results(roll_turns["alone"]), "Rolls")
    assert dice_log(roll_turns["other_seed"]) != alone


def test_doctors_on_one_patient_succeed_if_one_roll_succeeds(roll_turns: dict[str, Path]) -> None:
    path = results(roll_turns["with_doctors"])
    rolls = [r for r in report(path, "Rolls") if r["CO"] == "H"]
    assert len(rolls) == 2 and {r["Burst"] for r in rolls} == {1}
    expected = "succeeds" if any(r["Successes"] > 0 for r in rolls) else "fails"
    assert [(r["CO"], r["Rolls"], r["Result"]) for r in report(path, "Success + Failure")] == [("H", 2, expected)]


def test_plan_only_without_roll_mode(plan_turn: Path) -> None:
    with pytest.raises(KeyError):
        report(results(plan_turn), "Rolls")
    assert dice_log(plan_turn) == {}


@pytest.mark.parametrize(("faces", "value", "expected"), [
    ((3, 15, 12), 12, [(3, True, False), (15, False, False), (12, True, True)]),  # at most the value; = is critical
    ((1, 20), 0, [(1, False, False), (20, False, False)]),  # a value of 0 or less never succeeds
    ((15, 17, 1), 23, [(18, True, False), (20, True, True), (4, True, False)]),  # above 20: the excess is added
    ((5,), 40, [(20, True, True)]),
])
def test_d20_dice_of_the_core_rules(faces: tuple[int, ...], value: int, expected: list[Any]) -> None:
    assert [(d.face, d.success, d.critical) for d in judge_dice(faces, value, 20)] == expected


def test_face_to_face_cancels_lower_and_equal_successes_and_criticals_beat_successes() -> None:
    mine, theirs = judge_dice((9, 5), 12, 20), judge_dice((7,), 14, 20)
    assert [d.face for d in surviving(mine, theirs)] == [9] and surviving(theirs, mine) == []
    assert surviving(judge_dice((7,), 12, 20), judge_dice((7,), 14, 20)) == []  # equal results cancel
    assert surviving(judge_dice((12,), 12, 20), judge_dice((13,), 14, 20))[0].critical  # a critical beats 13
    assert surviving(judge_dice((13,), 14, 20), judge_dice((12,), 12, 20)) == []
    assert surviving(judge_dice((12,), 12, 20), judge_dice((14,), 14, 20)) == []  # two criticals cancel
    assert [d.face for d in surviving(judge_dice((4, 16), 16, 20), None)] == [4, 16]  # a Normal Roll keeps all


# ------------------------------------------------------------------------------ the bundled example
def test_the_example_covers_every_validation_and_resolves(tmp_path: Path) -> None:
    root = tmp_path / "example"
    pipeline.new_campaign(find_ruleset(RULESET), root, example=True)
    codes = {code for code, _, _ in problems(root)}
    assert codes == {f"V{n:02d}" for n in range(1, 20)} | {"A01", "A03"}
    outcome = pipeline.run(root)
    assert outcome.status == "resolved"
    pano = outcome.results["PANO"]
    lang = "es"
    got = {(r[gettext_in(lang, "CO")], r[gettext_in(lang, "Skill")], r[gettext_in(lang, "Trooper")]): r
           for r in report(pano, "Participants and Skills", lang)}
    burst = gettext_in(lang, "Effective Burst")
    assert got[("A", 2, "G1")][burst] == 2 and got[("B", 2, "F1")][burst] == 4
    assert got[("C", 2, "F3")][gettext_in(lang, "Status")] == gettext_in(lang, "Idle: {reason}").format(
        reason=gettext_in(lang, "No Line of Fire"))
    verdicts = [r[gettext_in(lang, "Verdict")] for r in report(outcome.results["JSA"], "AROs", lang)]
    assert gettext_in(lang, "lost ({code})").format(code="A02") in verdicts
    scenario = load_scenario(examples_root() / RULESET)
    assert scenario["settings"]["language"] == "es"
    # what a forum GM posts is in the players' language: no internal code word in any result or report tab
    codes = re.compile(r"\b(EXECUTES|IDLE|CC_SUPPORT|ENTIRE_ORDER_DONE|MOVE|JUMP|BS_ATTACK|CC_ATTACK|DOCTOR|REGULAR|"
                       r"IRREGULAR|F2F|NORMAL|NO_LOF|CG)\b|\(C\)")
    tabs = (gettext_in(lang, "Outcome"), gettext_in(lang, "Report"))
    scanned = []
    for faction, path in [*outcome.results.items(), ("GM", root / "campaign.xlsx")]:
        book = pc.CalamineWorkbook.from_path(str(path))
        for name in [n for n in book.sheet_names if any(t in n for t in tabs)]:
            found = [v for row in book.get_sheet_by_name(name).to_python() for v in row if codes.search(str(v))]
            assert found == [], (faction, name)
            scanned.append((faction, name))
    assert len(scanned) >= 7  # both players' Outcome tabs (orders, AROs) and Reports, and the GM's Report


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_skill_words_read_back_in_every_language(lang: str) -> None:
    column = ORDERS.column("skill1")
    lookup = column.choice_lookup()
    for choice in SKILLS:
        assert lookup[fold(gettext_in(lang, choice.label))] == choice.code
    for word, code in (("Ataque CD", "BS_ATTACK"), ("Inacción", "IDLE"), ("Esquivar", "DODGE"),
                       ("Ataque Especulativo", "SPECULATIVE_ATTACK"), ("Mover", "MOVE")):
        assert lookup[fold(word)] == code
    for schema in (ORDERS, REACTIONS):
        headers = [fold(c.header_in(lang)) for c in schema.columns]
        assert len(set(headers)) == len(headers)
