"""Helpers shared by the tests of this folder."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import python_calamine as pc

from adjudicator.outputs.templates import build_order_workbook
from adjudicator.outputs.writing import atomic_save
from adjudicator.turn import pipeline
from tests.helpers import make_campaign, state, write_gm
from tests.helpers import report_table as report

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
    trooper("A1", unit="Crusader", deployment="AIRBORNE_OFF_TABLE", bs=41, cc=42, ph=43, wip=44),
    trooper("H1", unit="Hexa", deployment="HIDDEN_DEPLOYMENT", bs=45, cc=46, ph=47, wip=48),
    trooper("I1", unit="Locust", training="IRREGULAR", own_orders=1),
    trooper("I2", unit="Locust Sniper", training="IRREGULAR", own_orders=0, deployment="HIDDEN_DEPLOYMENT",
            bs=49, cc=50, ph=51, wip=52),
    trooper("I3", unit="Locust Spotter", training="IRREGULAR", own_orders=1, deployment="HIDDEN_DEPLOYMENT",
            bs=53, cc=54, ph=55, wip=56),
    trooper("P1", unit="Palbot", link="PERIPHERAL"),
    trooper("R1", unit="Controller", link="CONTROLLER"),
    trooper("T1", unit="Kamau", fireteam="FT-1"),
    trooper("X1", unit="Fusilero", can_act="NO"),
    trooper("K1", cg=2), trooper("K2", cg=2),
    trooper("HK1", unit="Hacker", wip=14), trooper("HK2", unit="Hacker", wip=14),
    trooper("MZ1", faction="JSA", unit="Mechazoid", bs=14, cc=16, ph=14),
    trooper("KN1", faction="JSA", unit="Keisotsu", bs=11),
    trooper("NJ1", faction="JSA", unit="Ninja", deployment="HIDDEN_DEPLOYMENT", bs=61, cc=62, ph=63, wip=64),
]


def tool(tid: str, name: str, burst: int, attribute: str = "BS", **extra: Any) -> dict[str, Any]:
    return {"trooper": tid, "tool": name, "kind": "WEAPON", "burst": burst, "attribute": attribute, **extra}


TOOLS = [tool("G1", "HMG", 4), tool("MZ1", "HMG", 4), tool("KN1", "Combi Rifle", 3)]
# every test module of this folder sees the same roster, whichever runs first (the cases hold the same tools)
for _t in ("F1", "F2", "F3", "F4", "C1", "C2", "S1", "A1", "H1", "I1", "I2", "I3", "K1", "K2", "T1", "P1", "X1"):
    TOOLS += [tool(_t, "Combi Rifle", 3), tool(_t, "CCW", 1, "CC")]
TOOLS += [tool("F2", "Grenades", 1, "PH"), tool("F3", "Flash Pulse", 1, kind="EQUIPMENT"),
          tool("F4", "Chain Rifle", 1, properties="TEMPLATE"), tool("F1", "Mine", 1, properties="DEPLOYABLE"),
          tool("F2", "Mine", 1, properties="DEPLOYABLE"),
          tool("HK1", "Carbonite", 2, "WIP", kind="PROGRAM"), tool("HK2", "Carbonite", 2, "WIP", kind="PROGRAM"),
          tool("HK2", "Total Control", 1, "WIP", kind="PROGRAM"), tool("NJ1", "Monofilament Katana", 3, "CC"),
          tool("A1", "Spitfire", 4, bonus=1)]


def data(tokens: int = 3, cg1: int = 6, cg2: int = 0, phase: str = "ORDERS", active: str = "PANO",
         parameters: dict[str, Any] | None = None, troopers: list[dict[str, Any]] | None = None,
         seed: int = 11) -> dict[str, Any]:
    return {
        "settings": {"ruleset": RULESET, "campaign": "test", "seed": seed, "turn": 1, "language": "en",
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


def facts_for(code: str, tids: list[str], k: int = 2, **by: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"co": code, "skill": k, "trooper": t, "met": "YES", **by.get(t, {})} for t in tids]


def play(tmp_path: Path | Any, orders: list[dict[str, Any]], reactions: list[dict[str, Any]] | None = None,
         facts: list[dict[str, Any]] | None = None, jsa_orders: list[dict[str, Any]] | None = None,
         **kw: Any) -> tuple[Path, pipeline.RunOutcome]:
    root = make_campaign(Path(tmp_path) / "c", data(**kw))
    submit(root, "PANO", orders)
    submit(root, "JSA", jsa_orders, reactions)
    if facts is not None:
        write_gm(root, {"facts": facts})
    return root, pipeline.run(root)


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


def results(root: Path, faction: str = "PANO") -> Path:
    return root / "turns" / "T01" / "results" / f"{faction}.xlsx"


def co_table(root: Path, faction: str = "PANO") -> dict[str, dict[str, Any]]:
    return {r["CO"]: r for r in report(results(root, faction), "Coordinated Orders")}


def aros(root: Path) -> dict[tuple[str, str], dict[str, Any]]:
    return {(r["CO"], r["Reactive trooper"]): r for r in report(results(root, "JSA"), "AROs")}


def ledger(root: Path) -> list[tuple[str, str, int, int, str]]:
    """(faction, account, change, balance, reference) of every ledger line of campaign.xlsx."""
    grid = pc.CalamineWorkbook.from_path(str(root / "campaign.xlsx")).get_sheet_by_name("Ledger").to_python()
    return [(r[2], r[3], int(r[4]), int(r[5]), r[7]) for r in grid[1:] if r[0] != ""]


def outcome_of(path: Path, sheet_key: str, row: int) -> tuple[str, str]:
    """(Status, Outcome) of one order row in the Outcome tab of a results workbook."""
    book = pc.CalamineWorkbook.from_path(str(path))
    wanted = {"orders": "CO", "reactions": "Reactive trooper"}[sheet_key]
    for name in book.sheet_names:
        if not name.startswith("Outcome"):
            continue
        grid = book.get_sheet_by_name(name).to_python()
        if wanted not in grid[0]:
            continue
        status, text = grid[0].index("Status"), grid[0].index("Outcome")
        for values in grid[1:]:
            if values[0] != "" and int(values[0]) == row:
                return values[status], values[text]
    raise KeyError((sheet_key, row))
