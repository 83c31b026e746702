"""Coordinated Orders: the rulings the first test module leaves open. An illegal CO that still spends its
token (``illegal_co_consumes``, C2) with every participant Idle; the GM's ``burst_floor`` (C7); several
reactive troopers choosing different participants (R10); a Reset against a BS Attack (C12); one target
per Skill (C9); the Spearhead's negative MODs added after halving (C7); an Airborne trooper that already
deployed forfeits nothing more (R23); Targetless tools need no common point (R21)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjudicator.turn import pipeline
from tests.coordinated_orders.kit import (
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
    tool,
)
from tests.helpers import make_campaign, write_gm

ILLEGAL_ORDERS = [
    co("X", "G1", "MOVE", "BS_ATTACK", "HMG", "MZ1", head=True),  # V14: two targets
    co("X", "F1", "MOVE", "BS_ATTACK", "Combi Rifle", "KN1"),
    co("X", "ZZ", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1"),  # V11: no such trooper, so no line of its own
    co("L", "F3", head=True), co("L", "F4"),  # a legal CO below still proceeds
]
IDLE = "Idle: the Coordinated Order is illegal (V11, V14)"


def test_an_illegal_co_that_consumes_leaves_every_participant_idle_in_every_skill(tmp_path: Path) -> None:
    root, outcome = play(tmp_path, ILLEGAL_ORDERS, tokens=3, parameters={"illegal_co_consumes": "TRUE"})
    assert outcome.status == "resolved"  # no table facts asked for an illegal CO
    assert co_table(root)["X"]["Legal"] == "NO" and co_table(root)["X"]["Command Tokens spent"] == 1
    assert resources(root)[0] == 3 - 2 and [r[:3] for r in ledger(root) if r[4] == "PANO:X"] == [
        ("PANO", "Command Tokens", -1), ("PANO", "Regular Orders of Combat Group 1", -1)]
    for book in (results(root), root / "campaign.xlsx"):  # the player's results and the GM's report
        got = {(r["CO"], r["Skill"], r["Trooper"]): r for r in report(book, "Participants and Skills")}
        mine = {key: (r["Declared"], r["Target"], r["Status"], r["Effective Burst"], r["Roll"])
                for key, r in got.items() if key[0] == "X"}
        assert mine == {
            ("X", 1, "G1"): ("Move", "", IDLE, "", ""), ("X", 2, "G1"): ("BS Attack", "MZ1", IDLE, "", ""),
            ("X", 1, "F1"): ("Move", "", IDLE, "", ""), ("X", 2, "F1"): ("BS Attack", "KN1", IDLE, "", ""),
        }
        assert got[("L", 1, "F3")]["Status"] == got[("L", 1, "F4")]["Status"] == "executes"
    assert outcome_of(results(root), "orders", 2) == (
        "rejected", "Coordinated Order X is illegal (V11, V14): its Command Token and Regular Order are spent and "
        "every participant is Idle.")
    assert not any(key[0] == "X" for key in lines(root, "JSA"))  # the enemy sees nothing of an illegal CO


def test_an_illegal_co_that_consumes_nothing_has_no_idle_lines(tmp_path: Path) -> None:
    root, outcome = play(tmp_path, ILLEGAL_ORDERS, tokens=3)  # default: illegal_co_consumes = false
    assert outcome.status == "resolved"
    assert co_table(root)["X"]["Command Tokens spent"] == 0 and resources(root)[0] == 3 - 1
    assert not any(key[0] == "X" for key in lines(root))
    assert outcome_of(results(root), "orders", 2)[1] == (
        "Coordinated Order X is illegal (V11, V14) and consumes nothing.")


FLOOR_ORDERS = [
    co("N", "F1", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1", head=True, bonus2=-3),  # ⌈3/2⌉ − 3 = −1
    co("N", "F2", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1", bonus2=-3),  # not the Spearhead: B1 whatever
    co("H", "G1", "MOVE", "BS_ATTACK", "HMG", "MZ1", head=True, bonus2=-1),  # ⌈4/2⌉ − 1 = 1, not ⌈3/2⌉ = 2
    co("H", "F3", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1"),
    co("K", "F4", "MOVE", "CC_ATTACK", "CCW", "MZ1", head=True, bonus2=-2),  # ⌈1/2⌉ − 2, floored (never above
    # the ⌈1/2⌉ it had before the MOD), then + 1 ally in contact
    co("K", "S1", "MOVE", "CC_ATTACK", "CCW", "MZ1"),
]
FLOOR_FACTS = facts_for("N", ["F1", "F2"]) + facts_for("H", ["G1", "F3"]) + facts_for(
    "K", ["F4", "S1"], F4={"contact": "S1"})


@pytest.mark.parametrize(("floor", "expected"), [(None, (1, 1, 1, 2)), (0, (0, 1, 1, 1)), (2, (2, 1, 2, 2))])
def test_the_burst_floor_is_a_gm_parameter(tmp_path: Path, floor: int | None, expected: tuple[int, ...]) -> None:
    parameters: dict[str, Any] = {} if floor is None else {"burst_floor": floor}
    root, outcome = play(tmp_path, FLOOR_ORDERS, [], FLOOR_FACTS, tokens=5, cg1=5, parameters=parameters)
    assert outcome.status == "resolved"
    got = lines(root)
    assert (got[("N", 2, "F1")]["Effective Burst"], got[("N", 2, "F2")]["Effective Burst"],
            got[("H", 2, "G1")]["Effective Burst"], got[("K", 2, "F4")]["Effective Burst"]) == expected
    assert got[("K", 2, "F4")]["Contact bonus"] == 1


@pytest.fixture(scope="module")
def rulings_turn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    orders = [
        co("RT", "G1", "MOVE", "BS_ATTACK", "HMG", "MZ1", head=True),  # R10: two AROs on two participants
        co("RT", "F1", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1"),
        co("RS", "F2", "MOVE", "BS_ATTACK", "Combi Rifle", "KN1", head=True),  # C12: Reset against a BS Attack
        co("RS", "F3", "MOVE", "BS_ATTACK", "Combi Rifle", "KN1"),
        co("T9", "F4", "BS_ATTACK", "CC_ATTACK", "CCW", "MZ1", head=True, tool1="Combi Rifle", target1="KN1"),
        co("T9", "S1", "BS_ATTACK", "CC_ATTACK", "CCW", "MZ1", tool1="Combi Rifle", target1="KN1"),  # C9
    ]
    reactions = [
        {"co": "RT", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "G1"},
        {"co": "RT", "reactive": "KN1", "aro": "BS_ATTACK", "tool": "Combi Rifle", "target": "F1"},
        {"co": "RS", "reactive": "KN1", "aro": "RESET", "target": "F2"},
    ]
    facts = (facts_for("RT", ["G1", "F1"]) + facts_for("RT", ["MZ1", "KN1"], k=1) + facts_for("RS", ["F2", "F3"])
             + facts_for("RS", ["KN1"], k=1) + facts_for("T9", ["F4", "S1"], k=1) + facts_for("T9", ["F4", "S1"]))
    orders += [
        co("AD1", "A1", head=True), co("AD1", "F1"),  # R23: A1 deploys and forfeits its own Order...
        co("AD2", "A1", head=True), co("AD2", "F2"),  # ...then it is on the table and forfeits nothing more
        co("TL", "F3", "MOVE", "BS_ATTACK", "Smoke", "point 1", head=True),  # R21: Targetless, two points
        co("TL", "F4", "MOVE", "BS_ATTACK", "Smoke", "point 2"),
    ]
    facts += facts_for("TL", ["F3", "F4"])
    campaign = data(tokens=10, cg1=12)
    campaign["tables"]["tools"] += [tool(t, "Smoke", 1, "PH", properties="TARGETLESS") for t in ("F3", "F4")]
    root = make_campaign(tmp_path_factory.mktemp("rulings") / "c", campaign)
    submit(root, "PANO", orders)
    submit(root, "JSA", None, reactions)
    assert problems(root) == []
    write_gm(root, {"facts": facts})
    assert pipeline.run(root).status == "resolved"
    return root


def test_reactive_troopers_may_choose_different_participants(rulings_turn: Path) -> None:
    got, reacted = lines(rulings_turn), aros(rulings_turn)
    assert [reacted[("RT", t)]["Verdict"] for t in ("MZ1", "KN1")] == ["accepted"] * 2
    assert reacted[("RT", "MZ1")]["Roll"] == "Face-to-Face against G1" and got[("RT", 2, "G1")]["Roll"] == (
        "Face-to-Face against MZ1")
    # F1 shoots the Mechazoid, not the Keisotsu that reacts against it: two Normal Rolls (§4.4)
    assert (got[("RT", 2, "F1")]["Roll"], reacted[("RT", "KN1")]["Roll"]) == ("Normal Roll", "Normal Roll")


def test_a_reset_does_not_oppose_a_bs_attack(rulings_turn: Path) -> None:
    got = lines(rulings_turn)
    assert [got[("RS", 2, t)]["Roll"] for t in ("F2", "F3")] == ["Normal Roll"] * 2
    assert aros(rulings_turn)[("RS", "KN1")]["Verdict"] == "accepted"


def test_the_common_target_is_per_skill(rulings_turn: Path) -> None:
    assert co_table(rulings_turn)["T9"]["Legal"] == "YES"
    got = lines(rulings_turn)
    assert [got[("T9", k, "F4")]["Target"] for k in (1, 2)] == ["KN1", "MZ1"]
    # ⌈3/2⌉ in Skill 1; ⌈1/2⌉ in Skill 2, nobody in contact
    assert (got[("T9", 1, "F4")]["Effective Burst"], got[("T9", 2, "F4")]["Effective Burst"]) == (2, 1)


def test_an_airborne_trooper_forfeits_its_order_once(rulings_turn: Path) -> None:
    table = co_table(rulings_turn)
    assert (table["AD1"]["Own Orders forfeited"], table["AD2"]["Own Orders forfeited"]) == ("A1 (a Regular Order)", "")
    spent = [r[1] for r in ledger(rulings_turn) if r[4] == "PANO:AD2"]
    assert spent == ["Command Tokens", "Regular Orders of Combat Group 1"]
    assert resources(rulings_turn)[1][("PANO", 1)] == 12 - 6 - 1  # six COs and one forfeit


def test_targetless_tools_need_no_common_point(rulings_turn: Path) -> None:
    assert co_table(rulings_turn)["TL"]["Legal"] == "YES"
    assert [lines(rulings_turn)[("TL", 2, t)]["Target"] for t in ("F3", "F4")] == ["point 1", "point 2"]


PAIR_ORDERS = [co("P", "G1", "MOVE", "BS_ATTACK", "HMG", "MZ1", head=True),
               co("P", "F1", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1")]
PAIR_AROS = [{"co": "P", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "G1"}]


def test_the_gm_may_amend_the_pairings(tmp_path: Path) -> None:
    """C12: the engine pairs G1 with the Mechazoid; the GM's fact sheet says F1 is the one it faces."""
    facts = facts_for("P", ["G1", "F1"], G1={"against": "NONE"}, F1={"against": "MZ1"}) + facts_for("P", ["MZ1"], k=1)
    root, outcome = play(tmp_path, PAIR_ORDERS, PAIR_AROS, facts)
    assert outcome.status == "resolved"
    got = lines(root)
    assert (got[("P", 2, "G1")]["Roll"], got[("P", 2, "F1")]["Roll"]) == ("Normal Roll", "Face-to-Face against MZ1")
    assert aros(root)[("P", "MZ1")]["Roll"] == "Face-to-Face against F1"


def test_a_pairing_must_name_a_standing_aro_e22(tmp_path: Path) -> None:
    facts = (facts_for("P", ["G1"]) + facts_for("P", ["F1"], F1={"against": "KN1"})  # KN1 declared no ARO
             + facts_for("P", ["MZ1"], k=1, MZ1={"against": "G1"}))  # an ARO's row: amend the participant's
    root, outcome = play(tmp_path, PAIR_ORDERS, PAIR_AROS, facts)
    assert outcome.status == "waiting"
    assert sorted((p.code, p.cell) for p in outcome.gm_problems) == [("E22", "I3"), ("E22", "I4")]
