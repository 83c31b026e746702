"""Coordinated Orders (spec coordinated_orders): every worked example, every validation at its cell with
nothing spent, the rulings, the roll mode and the fog of war, through real workbooks and real turns."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import python_calamine as pc

from adjudicator.campaign import pipeline
from adjudicator.engine.registry import find_ruleset
from adjudicator.i18n import fold, gettext_in
from adjudicator.paths import examples_root
from adjudicator.rulesets.coordinated_orders.phases.rolls import judge_dice, surviving
from adjudicator.rulesets.coordinated_orders.schemas import ORDERS, REACTIONS, SKILLS
from adjudicator.scenario import load_scenario
from adjudicator.xlsx.templates import build_order_workbook
from adjudicator.xlsx.writing import atomic_save
from tests.helpers import make_campaign, state, write_gm

RULESET = "coordinated_orders"


def trooper(tid: str, faction: str = "PANO", unit: str = "Fennec", cg: int = 1, **extra: Any) -> dict[str, Any]:
    row = {"faction": faction, "trooper": tid, "unit": unit, "combat_group": cg, "training": "REGULAR",
           "deployment": "ON_TABLE", "bs": 12, "cc": 15, "ph": 10, "wip": 13}
    row.update(extra)
    return row


TROOPERS = [
    trooper("G1", unit="Griffin", bs=13),
    trooper("F1"), trooper("F2"), trooper("F3"), trooper("F4"),
    trooper("C1", unit="Croc Man", deployment="CAMO_MARKER", marker="M1"),
    trooper("C2", unit="Croc Man", deployment="CAMO_MARKER", marker="M2"),
    trooper("S1", unit="Hellcat", super_jump="YES"),
    trooper("A1", unit="Crusader", deployment="AIRBORNE_OFF_TABLE"),
    trooper("H1", unit="Hexa", deployment="HIDDEN_DEPLOYMENT"),
    trooper("I1", unit="Locust", training="IRREGULAR", own_orders=1),
    trooper("I2", unit="Locust", training="IRREGULAR", own_orders=0, deployment="HIDDEN_DEPLOYMENT"),
    trooper("I3", unit="Locust", training="IRREGULAR", own_orders=1, deployment="HIDDEN_DEPLOYMENT"),
    trooper("P1", unit="Palbot", link="PERIPHERAL"),
    trooper("R1", unit="Controller", link="CONTROLLER"),
    trooper("T1", unit="Kamau", fireteam="FT-1"),
    trooper("X1", unit="Fusilero", can_act="NO"),
    trooper("K1", cg=2), trooper("K2", cg=2),
    trooper("HK1", unit="Hacker", wip=14), trooper("HK2", unit="Hacker", wip=14),
    trooper("MZ1", faction="JSA", unit="Mechazoid", bs=14, cc=16, ph=14),
    trooper("KN1", faction="JSA", unit="Keisotsu", bs=11),
    trooper("NJ1", faction="JSA", unit="Ninja", deployment="HIDDEN_DEPLOYMENT"),
]


def tool(tid: str, name: str, burst: int, attribute: str = "BS", **extra: Any) -> dict[str, Any]:
    return {"trooper": tid, "tool": name, "kind": "WEAPON", "burst": burst, "attribute": attribute, **extra}


TOOLS = [tool("G1", "HMG", 4), tool("MZ1", "HMG", 4), tool("KN1", "Combi Rifle", 3)]
for _t in ("F1", "F2", "F3", "F4", "C1", "C2", "S1", "A1", "H1", "I1", "I2", "I3", "K1", "K2", "T1", "P1", "X1"):
    TOOLS += [tool(_t, "Combi Rifle", 3), tool(_t, "CCW", 1, "CC")]
TOOLS += [tool("F2", "Grenades", 1, "PH"), tool("F3", "Flash Pulse", 1, kind="EQUIPMENT"),
          tool("F4", "Chain Rifle", 1, properties="TEMPLATE"), tool("F1", "Mine", 1, properties="DEPLOYABLE"),
          tool("F2", "Mine", 1, properties="DEPLOYABLE"),
          tool("HK1", "Carbonite", 2, "WIP", kind="PROGRAM"), tool("HK2", "Carbonite", 2, "WIP", kind="PROGRAM"),
          tool("HK2", "Total Control", 1, "WIP", kind="PROGRAM")]


def data(tokens: int = 3, cg1: int = 6, cg2: int = 0, phase: str = "ORDERS", active: str = "PANO",
         parameters: dict[str, Any] | None = None, troopers: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "settings": {"ruleset": RULESET, "campaign": "test", "seed": 11, "turn": 1, "language": "en",
                     "secret": "test-secret"},
        "parameters": parameters or {},
        "tables": {
            "factions": [{"id": "PANO", "name": "PanOceania", "language": "en", "command_tokens": tokens},
                         {"id": "JSA", "name": "JSA", "language": "en", "command_tokens": 2}],
            "player_turn": [{"active_player": active, "phase": phase}],
            "combat_groups": [{"faction": "PANO", "combat_group": 1, "regular_orders": cg1},
                              {"faction": "PANO", "combat_group": 2, "regular_orders": cg2},
                              {"faction": "JSA", "combat_group": 1, "regular_orders": 4}],
            "troopers": copy.deepcopy(troopers or TROOPERS),
            "tools": copy.deepcopy(TOOLS),
        },
    }


def submit(root: Path, faction: str, orders: list[dict[str, Any]] | None = None,
           reactions: list[dict[str, Any]] | None = None) -> Path:
    _, campaign, ruleset = pipeline.open_campaign(root)
    path = root / "inbox" / f"{faction}.xlsx"
    atomic_save(build_order_workbook(ruleset, campaign, faction,
                                     {"orders": orders or [], "reactions": reactions or []}), path)
    return path


def co(code: str, tid: str, s1: str | None = "MOVE", s2: str | None = None, tool2: str | None = None,
       target2: str | None = None, head: bool = False, **extra: Any) -> dict[str, Any]:
    row = {"co": code, "trooper": tid, "skill1": s1, "skill2": s2, "tool2": tool2, "target2": target2,
           "spearhead": "YES" if head else None}
    row.update(extra)
    return row


def attack(code: str, tids: list[str], target: str = "MZ1", skill: str = "BS_ATTACK",
           weapons: dict[str, str] | None = None) -> list[dict[str, Any]]:
    weapons = weapons or {}
    default = "CCW" if skill == "CC_ATTACK" else "Combi Rifle"
    return [co(code, t, "MOVE", skill, weapons.get(t, "HMG" if t == "G1" else default), target, head=i == 0)
            for i, t in enumerate(tids)]


def facts_for(code: str, tids: list[str], k: int = 2, **by: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"co": code, "skill": k, "trooper": t, "met": "YES", **by.get(t, {})} for t in tids]


def play(tmp_path: Path, orders: list[dict[str, Any]], reactions: list[dict[str, Any]] | None = None,
         facts: list[dict[str, Any]] | None = None, jsa_orders: list[dict[str, Any]] | None = None,
         **kw: Any) -> tuple[Path, pipeline.RunOutcome]:
    root = make_campaign(tmp_path / "c", data(**kw))
    submit(root, "PANO", orders)
    submit(root, "JSA", jsa_orders, reactions)
    if facts is not None:
        write_gm(root, {"facts": facts})
    return root, pipeline.run(root)


def report(path: Path, title: str, lang: str = "en") -> list[dict[str, Any]]:
    """The rows of one titled table of a report sheet, as {English header: value}."""
    book = pc.CalamineWorkbook.from_path(str(path))
    wanted = gettext_in(lang, title)
    for name in book.sheet_names:
        if "Report" not in name and gettext_in(lang, "Report") not in name:
            continue
        grid = book.get_sheet_by_name(name).to_python()
        for i, row in enumerate(grid):
            if row and row[0] == wanted and (len(row) < 2 or row[1] == ""):
                headers = [h for h in grid[i + 1] if h != ""]
                out = []
                for values in grid[i + 2:]:
                    if all(v == "" for v in values):
                        break
                    out.append({h: _plain(v) for h, v in zip(headers, values, strict=False)})
                return out
    raise KeyError(title)


def _plain(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def lines(root: Path, faction: str = "PANO") -> dict[tuple[str, int, str], dict[str, Any]]:
    rows = report(root / "turns" / "T01" / "results" / f"{faction}.xlsx", "Participants and Skills")
    return {(r["CO"], r["Skill"], r["Trooper"]): r for r in rows}


def resources(root: Path) -> tuple[int, dict[tuple[str, int], int]]:
    campaign = state(root)
    tokens = {r["id"]: int(r["command_tokens"]) for r in campaign.tables["factions"].to_dict("records")}
    orders = {(r["faction"], int(r["combat_group"])): int(r["regular_orders"])
              for r in campaign.tables["combat_groups"].to_dict("records")}
    return tokens["PANO"], orders


def problems(root: Path) -> list[tuple[str, str, str]]:
    outcome = pipeline.check(root)
    return [(p.code, str(p.sheet), str(p.cell)) for s in outcome.submissions for p in s.problems]


SHEET_ORDERS = "Coordinated Orders"
SHEET_AROS = "AROs"


# ------------------------------------------------------------------------------- worked examples
def test_example_a_griffin_and_three_fennec_against_the_mechazoid(tmp_path: Path) -> None:
    orders = attack("A", ["G1", "F1", "F2", "F3"])
    reactions = [{"co": "A", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "G1"}]
    facts = facts_for("A", ["G1", "F1", "F2", "F3"]) + facts_for("A", ["MZ1"], k=1)
    root, outcome = play(tmp_path, orders, reactions, facts)
    assert outcome.status == "resolved"
    got = lines(root)
    griffin = got[("A", 2, "G1")]
    assert (griffin["Effective Burst"], griffin["Roll"]) == (2, "Face-to-Face against MZ1")
    for fennec in ("F1", "F2", "F3"):
        assert (got[("A", 2, fennec)]["Effective Burst"], got[("A", 2, fennec)]["Roll"]) == (1, "Normal Roll")
    assert resources(root) == (2, {("PANO", 1): 5, ("PANO", 2): 0, ("JSA", 1): 4})
    aro = report(root / "turns" / "T01" / "results" / "JSA.xlsx", "AROs")
    assert [(r["Reactive trooper"], r["Chosen participant"], r["Verdict"]) for r in aro] == [("MZ1", "G1", "accepted")]


def test_example_b_four_fennec_in_close_combat_b4(tmp_path: Path) -> None:
    tids = ["F1", "F2", "F3", "F4"]
    orders = attack("B", tids, skill="CC_ATTACK")
    reactions = [{"co": "B", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "F1"}]
    facts = facts_for("B", tids, F1={"contact": "F2, F3, F4"}) + facts_for("B", ["MZ1"], k=1)
    root, outcome = play(tmp_path, orders, reactions, facts)
    assert outcome.status == "resolved"
    got = lines(root)
    head = got[("B", 2, "F1")]
    assert (head["Burst"], head["Contact bonus"], head["Effective Burst"]) == (1, 3, 4)
    assert head["Roll"] == "Face-to-Face against MZ1"
    for other in ("F2", "F3", "F4"):
        assert got[("B", 2, other)]["Status"] == "CC support, no roll"
        assert got[("B", 2, other)]["Roll"] == ""


def test_example_c_fennec_without_line_of_fire_is_idle_in_skill_2(tmp_path: Path) -> None:
    orders = attack("C", ["G1", "F1", "F2", "F3"])
    reactions = [{"co": "C", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "G1"}]
    facts = (facts_for("C", ["G1", "F1", "F2"]) + [{"co": "C", "skill": 2, "trooper": "F3", "met": "NO",
                                                    "reason": "NO_LOF"}] + facts_for("C", ["MZ1"], k=1))
    root, outcome = play(tmp_path, orders, reactions, facts)
    got = lines(root)
    assert got[("C", 1, "F3")]["Status"] == "executes"  # it moved (C8)
    assert got[("C", 2, "F3")]["Status"] == "Idle: No Line of Fire"
    assert got[("C", 2, "F3")]["Roll"] == ""
    assert [got[("C", 2, t)]["Status"] for t in ("G1", "F1", "F2")] == ["executes"] * 3
    assert got[("C", 2, "G1")]["Roll"] == "Face-to-Face against MZ1"


@pytest.mark.parametrize(("second", "verdict", "roll"), [
    ("BS_ATTACK", "accepted", "Face-to-Face against M1"),
    ("MOVE", "lost (A02)", ""),
])
def test_example_d_delayed_aro_on_a_camouflaged_marker(tmp_path: Path, second: str, verdict: str, roll: str) -> None:
    tool2 = {"G1": "HMG"} if second == "BS_ATTACK" else {}
    orders = [co("D", t, "MOVE", second, tool2.get(t, "Combi Rifle") if second == "BS_ATTACK" else None,
                 "MZ1" if second == "BS_ATTACK" else None, head=t == "G1") for t in ("G1", "C1", "C2")]
    reactions = [{"co": "D", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "M1", "delayed": "YES"}]
    facts = facts_for("D", ["G1", "C1", "C2", "MZ1"]) if second == "BS_ATTACK" else []
    root, outcome = play(tmp_path, orders, reactions, facts)
    assert outcome.status == "resolved"
    jsa = root / "turns" / "T01" / "results" / "JSA.xlsx"
    aro = report(jsa, "AROs")
    assert [r["Verdict"] for r in aro] == [verdict]
    if second == "BS_ATTACK":
        # revealed: the JSA now knows the trooper behind M1, and the Marker's roll is Face-to-Face
        assert lines(root, "JSA")[("D", 2, "C1")]["Roll"] == "Face-to-Face against MZ1"
        assert aro[0]["Roll"] == "Face-to-Face against C1"
    else:
        assert aro[0]["Chosen participant"] == "M1"  # still a Marker to the JSA
        assert {k[2] for k in lines(root, "JSA")} == {"G1", "M1", "M2"}
        deployments = {r["trooper"]: r["deployment"] for r in state(root).tables["troopers"].to_dict("records")}
        assert deployments["C1"] == deployments["C2"] == "CAMO_MARKER"
    assert [r["Roll"] for r in lines(root, "JSA").values() if r["Trooper"] == "M1" and r["Skill"] == 2] == (
        [] if second == "BS_ATTACK" else [""])
    assert roll in ("", "Face-to-Face against M1")


def test_example_e_jump_super_jump_entire_order_and_idle(tmp_path: Path) -> None:
    orders = [co("E", "S1", "JUMP", "BS_ATTACK", "Combi Rifle", "KN1", head=True),
              co("E", "F1", "JUMP_ENTIRE"),
              co("E", "F2", "IDLE", "BS_ATTACK", "Combi Rifle", "KN1")]
    facts = facts_for("E", ["S1", "F2"])
    root, outcome = play(tmp_path, orders, [], facts)
    assert outcome.status == "resolved"
    got = lines(root)
    assert got[("E", 1, "S1")]["Status"] == "executes"
    assert got[("E", 1, "F1")]["Status"] == "executes"
    assert got[("E", 1, "F2")]["Status"] == "Idle (declared)"
    assert got[("E", 2, "F1")]["Status"] == "Entire Order already declared"
    assert (got[("E", 2, "S1")]["Effective Burst"], got[("E", 2, "F2")]["Effective Burst"]) == (2, 1)


def test_example_e_entire_order_cannot_declare_a_second_skill_and_jump_needs_super_jump(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", data())
    submit(root, "PANO", [co("E", "S1", "JUMP", "MOVE", head=True), co("E", "F1", "JUMP_ENTIRE", "MOVE"),
                          co("E2", "F2", "JUMP_ENTIRE", head=True), co("E2", "F3", "JUMP")])
    assert problems(root) == [("V12", SHEET_ORDERS, "H3"), ("V18", SHEET_ORDERS, "D5")]


def test_example_f_different_weapons_are_legal_speculative_and_mixed_states_are_not(tmp_path: Path) -> None:
    weapons = {"F1": "Combi Rifle", "F2": "Grenades", "F3": "Flash Pulse", "F4": "Chain Rifle"}
    orders = attack("F", ["F1", "F2", "F3", "F4"], weapons=weapons)
    orders += [co("S", "F1", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1", head=True),
               co("S", "F2", "MOVE", "SPECULATIVE_ATTACK", "Grenades", "MZ1"),
               co("I", "F3", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1", head=True),
               co("I", "F4", "MOVE", "INTUITIVE_ATTACK", "Chain Rifle", "MZ1"),
               co("ST", "C1", "STATE", tool1="Camouflaged", head=True), co("ST", "C2", "STATE", tool1="Prone"),
               co("ST2", "C1", "STATE", tool1="Camouflaged", head=True), co("ST2", "C2", "STATE", tool1="camouflaged")]
    root = make_campaign(tmp_path / "c", data(tokens=4))
    submit(root, "PANO", orders)
    assert problems(root) == [("V13", SHEET_ORDERS, "H7"), ("V13", SHEET_ORDERS, "H9"), ("V15", SHEET_ORDERS, "E11")]
    submit(root, "JSA")
    facts = facts_for("F", ["F1", "F2", "F3", "F4"])
    write_gm(root, {"facts": facts})
    assert pipeline.run(root).status == "resolved"
    got = lines(root)
    assert {t: got[("F", 2, t)]["Weapon or Equipment"] for t in weapons} == weapons
    assert [got[("F", 2, t)]["Effective Burst"] for t in ("F1", "F2", "F3", "F4")] == [2, 1, 1, 1]
    assert resources(root)[0] == 4 - 2  # F and ST2 are legal; S, I and ST consume nothing


# ----------------------------------------------------------------------------------- validations
CASES = {
    "V02": ([co("X", "F1", head=True), co("X", "F2")], {"tokens": 0}, [("V02", "A2")]),
    "V03": ([co("X", "K1", head=True), co("X", "K2")], {}, [("V03", "A2")]),
    "V04": ([co("X", t, head=t == "G1") for t in ("G1", "F1", "F2", "F3", "F4")], {}, [("V04", "B6")]),
    "V05": ([co("X", "F1", head=True)], {}, [("V05", "A2")]),
    "V06": ([co("X", "F1", head=True), co("X", "K1")], {}, [("V06", "B3")]),
    "V07": ([co("X", "F1", head=True), co("X", "I1")], {}, [("V07", "B3")]),
    "V08": ([co("X", "F1", head=True), co("X", "F2", head=True)], {}, [("V08", "C3")]),
    "V08b": ([co("X", "F1"), co("X", "F2")], {}, [("V08", "C2")]),
    "V09": ([co("X", "F1", head=True), co("X", "P1"), co("X", "R1")], {}, [("V09", "B3"), ("V09", "B4")]),
    "V10": ([co("X", "F1", head=True), co("X", "T1")], {}, [("V10", "B3")]),
    "V11": ([co("X", "F1", head=True), co("X", "X1"), co("X", "ZZ"), co("X", "F1"), co("X2", "F2", head=True),
             co("X2", "MZ1")], {}, [("V11", "B3"), ("V11", "B4"), ("V11", "B5"), ("V11", "B7")]),
    "V12": ([co("X", "F1", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1", head=True),
             co("X", "F2", "BS_ATTACK", "MOVE", tool1="Combi Rifle", target1="MZ1")],
            {}, [("V12", "D3"), ("V12", "H3")]),
    "V13": ([co("X", "F1", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1", head=True),
             co("X", "F2", "MOVE", "SPECULATIVE_ATTACK", "Grenades", "MZ1")], {}, [("V13", "H3")]),
    "V14": ([co("X", "F1", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1", head=True),
             co("X", "F2", "MOVE", "BS_ATTACK", "Combi Rifle", "KN1"),
             co("X", "F3", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1, KN1")], {}, [("V14", "J3"), ("V14", "J4")]),
    "V15": ([co("X", "C1", "STATE", tool1="Camouflaged", head=True), co("X", "C2", "STATE", tool1="Prone")],
            {}, [("V15", "E3")]),
    "V16": ([co("X", "HK1", "HACK", tool1="Carbonite", target1="MZ1", head=True),
             co("X", "HK2", "HACK", tool1="Total Control", target1="MZ1")], {}, [("V16", "E3")]),
    "V17": ([co("X", "I1", head=True), co("X", "I2")], {}, [("V17", "B3")]),
    "V17b": ([co("X", "A1", head=True), co("X", "H1")], {"cg1": 2}, [("V17", "B3")]),
    "V18": ([co("X", "F1", "JUMP", head=True), co("X", "F2", "JUMP_ENTIRE")], {}, [("V18", "D2")]),
    "V19": ([co("X", "F1", "MOVE", "BS_ATTACK", "Missile Launcher", "MZ1", head=True),
             co("X", "F2", "MOVE", "BS_ATTACK", None, "MZ1")], {}, [("V19", "I2"), ("V19", "I3")]),
}


def test_each_validation_at_its_cell_and_nothing_is_consumed(tmp_path: Path) -> None:
    """All the illegal declarations in one sheet: each reported at its cell, none of them spends anything."""
    rows: list[dict[str, Any]] = []
    expected: list[tuple[str, str, str]] = []
    for case in sorted(CASES):
        orders, _, cells = CASES[case]
        if case == "V02":
            continue  # needs an empty token pool: see test_tokens_and_orders_are_spent_in_row_order…
        offset = len(rows)
        rows += [{**r, "co": f"{case}-{r['co']}"} for r in orders]
        for code, cell in cells:
            letters = "".join(ch for ch in cell if ch.isalpha())
            expected.append((code, SHEET_ORDERS, f"{letters}{int(cell[len(letters):]) + offset}"))
    root = make_campaign(tmp_path / "c", data(cg1=2))
    submit(root, "PANO", rows)
    assert problems(root) == expected
    submit(root, "JSA")
    before = resources(root)
    assert pipeline.run(root).status == "resolved"
    assert resources(root) == before
    outcome = report(root / "turns" / "T01" / "results" / "PANO.xlsx", "Coordinated Orders")
    assert len(outcome) == len(CASES) and {r["Legal"] for r in outcome} == {"NO"}  # no V02; V11 has two COs
    assert {r["Command Tokens spent"] for r in outcome} == {0}


def test_v02_no_command_token_left(tmp_path: Path) -> None:
    orders, settings, expected = CASES["V02"]
    root = make_campaign(tmp_path / "c", data(**settings))
    submit(root, "PANO", orders)
    assert problems(root) == [(code, SHEET_ORDERS, cell) for code, cell in expected]


def test_v01_out_of_the_active_turn_or_out_of_the_orders_phase(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", data(phase="TACTICAL"))
    submit(root, "PANO", [co("X", "F1", head=True), co("X", "F2")])
    submit(root, "JSA", [co("J", "MZ1", head=True), co("J", "KN1")])
    codes = problems(root)
    assert ("V01", SHEET_ORDERS, "A2") in codes and len([c for c in codes if c[0] == "V01"]) == 2
    root2 = make_campaign(tmp_path / "d", data())
    submit(root2, "JSA", [co("J", "MZ1", head=True), co("J", "KN1")])
    assert problems(root2) == [("V01", SHEET_ORDERS, "A2")]


def test_tokens_and_orders_are_spent_in_row_order_and_a_rejected_co_spends_nothing(tmp_path: Path) -> None:
    orders = [co("A", "F1", head=True), co("A", "F2"),
              co("BAD", "F3", head=True), co("BAD", "T1"),  # V10: spends nothing
              co("B", "F3", head=True), co("B", "F4"),
              co("C", "G1", head=True), co("C", "F1")]  # V02: both tokens are gone
    root = make_campaign(tmp_path / "c", data(tokens=2))
    submit(root, "PANO", orders)
    assert problems(root) == [("V10", SHEET_ORDERS, "B5"), ("V02", SHEET_ORDERS, "A8")]
    submit(root, "JSA")
    outcome = pipeline.run(root)
    assert resources(root) == (0, {("PANO", 1): 4, ("PANO", 2): 0, ("JSA", 1): 4})
    ledger = pc.CalamineWorkbook.from_path(str(root / "campaign.xlsx")).get_sheet_by_name("Ledger").to_python()
    changes = [(r[2], r[3], r[4], r[5]) for r in ledger[1:] if r[0] != ""]
    assert changes == [("PANO", "command_tokens", -1, 1), ("PANO", "regular_orders@CG1", -1, 5),
                       ("PANO", "command_tokens", -1, 0), ("PANO", "regular_orders@CG1", -1, 4)]
    assert outcome.status == "resolved"


def test_hidden_and_airborne_troopers_forfeit_their_own_order(tmp_path: Path) -> None:
    orders = [co("G", "A1", head=True), co("G", "H1"), co("G", "F1"),
              co("R", "I1", head=True), co("R", "I3")]
    root, outcome = play(tmp_path, orders, [], [], cg1=6)
    assert outcome.status == "resolved"
    tokens, pools = resources(root)
    assert (tokens, pools[("PANO", 1)]) == (1, 6 - 1 - 2 - 1)  # G: 1 + A1 + H1; R: 1 (C3), I3 its own Order
    rows = {r["trooper"]: r for r in state(root).tables["troopers"].to_dict("records")}
    assert (rows["I3"]["own_orders"], rows["I1"]["own_orders"]) == (0, 1)
    assert rows["A1"]["deployment"] == rows["H1"]["deployment"] == "ON_TABLE"
    table = report(root / "turns" / "T01" / "results" / "PANO.xlsx", "Coordinated Orders")
    assert [r["Own Orders forfeited"] for r in table] == ["A1 (REGULAR), H1 (REGULAR)", "I3 (IRREGULAR)"]


def test_hd_ad_forfeit_none_spends_only_the_co(tmp_path: Path) -> None:
    root, _ = play(tmp_path, [co("G", "A1", head=True), co("G", "I2")], [], [],
                   parameters={"hd_ad_forfeit": "NONE", "min_participants": 2},
                   troopers=[{**t, "training": "REGULAR"} if t["trooper"] == "I2" else t for t in TROOPERS])
    assert resources(root)[1][("PANO", 1)] == 5


def test_aro_errors_a01_and_a03_at_their_cells(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", data())
    submit(root, "PANO", [co("A", "F1", head=True), co("A", "F2")],
           reactions=[{"co": "A", "reactive": "F3", "aro": "DODGE", "target": "F1"}])
    submit(root, "JSA", reactions=[
        {"co": "A", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "F1, F2"},
        {"co": "A", "reactive": "KN1", "aro": "BS_ATTACK", "tool": "HMG", "target": "F1"},
        {"co": "A", "reactive": "G1", "aro": "DODGE", "target": "F1"},
        {"co": "A", "reactive": "KN1", "aro": "DODGE", "target": "F1"},
        {"co": "A", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG"},
    ])
    assert problems(root) == [
        ("A01", SHEET_AROS, "E2"), ("A03", SHEET_AROS, "D3"), ("A03", SHEET_AROS, "B4"), ("A03", SHEET_AROS, "B5"),
        ("A03", SHEET_AROS, "B6"), ("A01", SHEET_AROS, "E6"), ("A03", SHEET_AROS, "A2")]


def test_aro_on_a_trooper_outside_the_co_is_lost_a01(tmp_path: Path) -> None:
    root, outcome = play(tmp_path, [co("A", "F1", head=True), co("A", "F2")],
                         [{"co": "A", "reactive": "KN1", "aro": "BS_ATTACK", "tool": "Combi Rifle", "target": "F3"},
                          {"co": "Z", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "F1"}], [])
    assert outcome.status == "resolved"
    aro = report(root / "turns" / "T01" / "results" / "JSA.xlsx", "AROs")
    assert [r["Verdict"] for r in aro] == ["lost (A01)", "lost (A00)"]


# -------------------------------------------------------------------------------------- rulings
def test_dodge_opposes_every_participant_and_reset_only_hacking(tmp_path: Path) -> None:
    weapons = {"F1": "Combi Rifle", "F2": "Grenades", "F3": "Flash Pulse"}
    orders = attack("F", ["F1", "F2", "F3"], weapons=weapons)
    orders += [co("H", "HK1", "HACK", tool1="Carbonite", target1="KN1", head=True),
               co("H", "HK2", "HACK", tool1="Carbonite", target1="KN1")]
    reactions = [{"co": "F", "reactive": "MZ1", "aro": "DODGE", "target": "F2"},
                 {"co": "H", "reactive": "KN1", "aro": "RESET", "target": "HK2"}]
    facts = (facts_for("F", ["F1", "F2", "F3"]) + facts_for("F", ["MZ1"], k=1)
             + facts_for("H", ["HK1", "HK2", "KN1"], k=1))
    root, outcome = play(tmp_path, orders, reactions, facts)
    assert outcome.status == "resolved"
    got = lines(root)
    assert [got[("F", 2, t)]["Roll"] for t in weapons] == ["Face-to-Face against MZ1"] * 3
    assert [got[("H", 1, t)]["Roll"] for t in ("HK1", "HK2")] == ["Face-to-Face against KN1"] * 2
    assert got[("H", 1, "HK1")]["Effective Burst"] == 1 and got[("H", 1, "HK2")]["Effective Burst"] == 1
    aro = report(root / "turns" / "T01" / "results" / "JSA.xlsx", "AROs")
    assert aro[0]["Roll"] == "Face-to-Face against F1, F2, F3"


def test_aro_against_a_participant_that_does_not_target_it_is_a_normal_roll(tmp_path: Path) -> None:
    orders = attack("A", ["G1", "F1"])
    reactions = [{"co": "A", "reactive": "KN1", "aro": "BS_ATTACK", "tool": "Combi Rifle", "target": "F1"}]
    root, _ = play(tmp_path, orders, reactions, facts_for("A", ["G1", "F1"]) + facts_for("A", ["KN1"], k=1))
    assert lines(root)[("A", 2, "F1")]["Roll"] == "Normal Roll"
    assert report(root / "turns" / "T01" / "results" / "JSA.xlsx", "AROs")[0]["Roll"] == "Normal Roll"


@pytest.mark.parametrize(("parameters", "burst", "bonus"), [
    ({}, 2 + 2, 2),  # ceil((B1 + 2) / 2); ALL_ALLIED: F2 (a participant) and F3 (not one) count, not F1
    ({"cc_bonus_counts": "PARTICIPANTS_ONLY"}, 2 + 1, 1),
    ({"cc_spearhead_halved": "FALSE"}, 3 + 2, 2),
])
def test_cc_contact_bonus_and_halving(tmp_path: Path, parameters: dict[str, Any], burst: int, bonus: int) -> None:
    orders = [co("B", "F1", "MOVE", "CC_ATTACK", "CCW", "MZ1", head=True, bonus2=2),
              co("B", "F2", "MOVE", "CC_ATTACK", "CCW", "MZ1")]
    facts = facts_for("B", ["F1", "F2"], F1={"contact": "F2, F3, F1"})
    root, _ = play(tmp_path, orders, [], facts, parameters=parameters)
    head = lines(root)[("B", 2, "F1")]
    assert (head["Contact bonus"], head["Effective Burst"]) == (bonus, burst)


def test_spearhead_idle_in_cc_means_no_attack_in_bs_the_others_still_shoot(tmp_path: Path) -> None:
    orders = attack("B", ["F1", "F2"], skill="CC_ATTACK") + attack("A", ["G1", "F3"])
    facts = ([{"co": "B", "skill": 2, "trooper": "F1", "met": "NO", "reason": "NOT_IN_CONTACT"}]
             + facts_for("B", ["F2"]) + [{"co": "A", "skill": 2, "trooper": "G1", "met": "NO", "reason": "REMOVED"}]
             + facts_for("A", ["F3"]))
    root, _ = play(tmp_path, orders, [], facts)
    got = lines(root)
    assert got[("B", 2, "F1")]["Roll"] == "" and got[("B", 2, "F2")]["Status"].startswith("CC support, no effect")
    assert (got[("A", 2, "F3")]["Effective Burst"], got[("A", 2, "F3")]["Roll"]) == (1, "Normal Roll")


def test_targetless_or_deployable_tools_need_no_common_point(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", data())
    submit(root, "PANO", [co("M", "F1", "MOVE", "BS_ATTACK", "Mine", "point 1", head=True),
                          co("M", "F2", "MOVE", "BS_ATTACK", "Mine", "point 2")])
    assert problems(root) == []


def test_illegal_co_consumes_when_the_gm_says_so(tmp_path: Path) -> None:
    root, outcome = play(tmp_path, [co("X", "F1", head=True), co("X", "T1")], [], [],
                         parameters={"illegal_co_consumes": "TRUE"})
    assert outcome.status == "resolved"
    assert resources(root)[:1] == (2,) and resources(root)[1][("PANO", 1)] == 5


def test_fireteam_module_off_and_min_participants(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", data(parameters={"fireteam_module_enabled": "FALSE",
                                                          "min_participants": 1, "max_participants": 2}))
    submit(root, "PANO", [co("X", "F1", head=True), co("X", "T1"), co("Y", "F2", head=True),
                          co("Z", "F3", head=True), co("Z", "F4"), co("Z", "G1")])
    assert problems(root) == [("V04", SHEET_ORDERS, "B7")]


def test_success_plus_failure_one_success_is_enough() -> None:
    assert [d.success for d in judge_dice((3, 15, 12), 12, 20)] == [True, False, True]
    assert [d.critical for d in judge_dice((3, 15, 12), 12, 20)] == [False, False, True]
    assert [(d.face, d.critical) for d in judge_dice((15, 17), 23, 20)] == [(18, False), (20, True)]
    mine, theirs = judge_dice((9, 5), 12, 20), judge_dice((7,), 14, 20)
    assert [d.face for d in surviving(mine, theirs)] == [9]
    assert surviving(theirs, mine) == []
    assert surviving(judge_dice((12,), 12, 20), judge_dice((13,), 14, 20))[0].critical


def test_doctors_on_one_patient_succeed_if_one_roll_succeeds(tmp_path: Path) -> None:
    orders = [co("H", "HK1", "DOCTOR", target1="F3", head=True), co("H", "HK2", "DOCTOR", target1="F3")]
    root, _ = play(tmp_path, orders, [], facts_for("H", ["HK1", "HK2"], k=1), parameters={"core_roll_module": "TRUE"})
    rolls = report(root / "turns" / "T01" / "results" / "PANO.xlsx", "Rolls")
    common = report(root / "turns" / "T01" / "results" / "PANO.xlsx", "Success + Failure")
    expected = "succeeds" if any(r["Successes"] > 0 for r in rolls) else "fails"
    assert [(r["CO"], r["Rolls"], r["Result"]) for r in common] == [("H", 2, expected)]


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


def test_roll_mode_rolls_the_plan_seeded_and_logged(tmp_path: Path) -> None:
    orders = attack("A", ["G1", "F1"])
    reactions = [{"co": "A", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "G1"}]
    facts = facts_for("A", ["G1", "F1"], G1={"mod": 3}) + facts_for("A", ["MZ1"], k=1)
    root, _ = play(tmp_path, orders, reactions, facts, parameters={"core_roll_module": "TRUE"})
    dice = pc.CalamineWorkbook.from_path(str(root / "campaign.xlsx")).get_sheet_by_name("Dice").to_python()
    logged = {r[1]: r[2] for r in dice[1:] if r[1]}
    assert logged == {"PANO:A:skill2:G1": "2d20", "PANO:A:skill2:F1": "1d20", "JSA:A:aro:MZ1": "1d20"}
    rolls = report(root / "turns" / "T01" / "results" / "PANO.xlsx", "Rolls")
    by = {(r["Roller"], r["Against"]): r for r in rolls}
    assert by[("G1", "MZ1")]["Roll"] == "Face-to-Face" and by[("G1", "MZ1")]["Value needed"] == 13 + 3
    assert by[("F1", "")]["Roll"] == "Normal" and by[("MZ1", "G1")]["Burst"] == 1
    root2, _ = play(tmp_path / "again", orders, reactions, facts, parameters={"core_roll_module": "TRUE"})
    assert report(root2 / "turns" / "T01" / "results" / "PANO.xlsx", "Rolls") == rolls


def test_plan_only_without_roll_mode(tmp_path: Path) -> None:
    root, _ = play(tmp_path, attack("A", ["G1", "F1"]), [], facts_for("A", ["G1", "F1"]))
    with pytest.raises(KeyError):
        report(root / "turns" / "T01" / "results" / "PANO.xlsx", "Rolls")
    dice = pc.CalamineWorkbook.from_path(str(root / "campaign.xlsx")).get_sheet_by_name("Dice").to_python()
    assert [r for r in dice[1:] if r[1]] == []


# ---------------------------------------------------------------------------------- fog of war
def test_each_player_sees_its_roster_and_only_the_enemy_it_may_see(tmp_path: Path) -> None:
    root, _ = play(tmp_path, [co("X", "F1", head=True), co("X", "T1"), co("D", "C1", head=True), co("D", "C2")],
                   [], [])
    pano = root / "turns" / "T01" / "results" / "PANO.xlsx"
    jsa = root / "turns" / "T01" / "results" / "JSA.xlsx"
    assert {r["Trooper"] for r in report(pano, "Your roster")} >= {"F1", "C1", "A1", "H1"}
    assert {r["Trooper"] for r in report(pano, "Enemy troopers in sight")} == {"MZ1", "KN1"}  # NJ1 hidden
    seen = {r["Trooper"] for r in report(jsa, "Enemy troopers in sight")}
    assert "M1" in seen and "C1" not in seen and "A1" not in seen and "H1" not in seen
    assert [r["CO"] for r in report(jsa, "Coordinated Orders")] == ["D"]  # not the illegal X
    assert [r["CO"] for r in report(pano, "Coordinated Orders")] == ["X", "D"]
    assert {r["Trooper"] for r in report(jsa, "Participants and Skills")} == {"M1", "M2"}
    assert "Command Tokens" in {r["Resource"] for r in report(jsa, "Command Tokens and Orders")}
    assert {r["Faction"] for r in report(jsa, "Command Tokens and Orders")} == {"JSA"}


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
    aros = report(outcome.results["JSA"], "AROs", lang)
    verdicts = [r[gettext_in(lang, "Verdict")] for r in aros]
    assert gettext_in(lang, "lost ({code})").format(code="A02") in verdicts
    scenario = load_scenario(examples_root() / RULESET)
    assert scenario["settings"]["language"] == "es"


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
