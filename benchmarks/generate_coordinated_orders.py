"""A Coordinated Orders campaign of any size for benchmarking: legal orders for the most part and a known
share of mistakes, with a roster for every faction.

A turn of this rule is one Player Turn: one faction is the active player (F000, in its Orders Phase), every
other faction a reactive player. The world grows with the factions (each has its own roster of troopers in
Combat Group 1, Regular, on the table, each with a Combi Rifle, a Knife and a MediKit), but the rules give each
faction one order sheet to fill, whatever the size:

- the active player's Coordinated Orders sheet: M rows, Coordinated Orders of 2 to 4 participants (sizes 2, 3,
  4 in turn; the last ones adjusted so that no CO is left with one trooper), in turn: Move then a BS Attack
  with the Combi Rifle on one enemy trooper; Move then Move; Move then a CC Attack with the Knife on one enemy
  trooper; a MediKit on one ally. The Spearhead is each CO's first row. The faction holds a Command Token and a
  Regular Order for every CO written. Its AROs sheet stays empty: only the reactive player declares AROs (A03).
- every reactive player's AROs sheet: M rows, each a trooper of its roster reacting once to a legal CO of the
  active player (a BS Attack with its Combi Rifle, or a Dodge), naming one participant of that CO; the roster
  has enough troopers (10, more if the legal COs are few) that no trooper reacts twice to one CO. Its
  Coordinated Orders sheet stays empty: a CO outside one's Active Turn is illegal (V01).

Mistakes, every ``round(1 / mistakes)``-th row of each filled sheet, each reported by ``check`` as exactly one
error. Coordinated Orders, the kind made least so far that the row allows: a trooper not in the roster (V11), a
weapon the trooper does not carry (V19), another target than the Spearhead's (the next trooper of the target's
roster: V14), a second Spearhead (V08). A declaration error makes the whole CO illegal, so the other rows of a
CO holding a mistake are not carried out either (one to three rows more for each mistake row: some 84 % of the
sheet is carried out at 5 % mistakes); AROs never name such a CO. AROs, in turn: a trooper not in the roster
(A03), two participants as the target (A01), a weapon the trooper does not carry (A03). Every other ARO stands.

The turn waits for the GM's Table facts (whether each attack, MediKit and ARO meets its Requirements):
:func:`answer` says YES to every row asked. The rolls are made (``core_roll_module``). Needs two orders a sheet
and two factions at least: one trooper alone is no Coordinated Order (V05), and an ARO needs a reactive
player.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generated_mistakes import is_mistake, mistake_every

ROSTER = 10  # troopers of a faction (a reactive one gets more when the legal COs are few)
SIZES = (2, 3, 4)  # participants of the COs, in turn
CO_KINDS = ("fire", "advance", "charge", "heal")
ARO_KINDS = ("shoot", "dodge", "shoot")
ORDER_MISTAKES = ("stranger", "missing_tool", "other_target", "second_spearhead")
ARO_MISTAKES = ("stranger", "two_targets", "missing_tool")
MISSING_TOOL = "Missile Launcher"
TOOLS = (("Combi Rifle", "WEAPON", 3, "BS"), ("Knife", "WEAPON", 1, "CC"), ("MediKit", "EQUIPMENT", 1, "BS"))
UNITS = ("Fusilier", "Trooper", "Sniper", "Medic", "Heavy Infantry")


def faction_names(factions: int) -> list[str]:
    return [f"F{i:03d}" for i in range(factions)]


def trooper(faction: str, k: int) -> str:
    """The k-th trooper of a faction, numbered from 1 (number 0 is never in a roster)."""
    return f"{faction}-T{k}"


def next_trooper(tid: str) -> str:
    """The trooper numbered after ``tid`` in its faction's roster (the first after the last)."""
    faction, _, number = tid.rpartition("-T")
    return trooper(faction, int(number) % ROSTER + 1)


# ------------------------------------------------------------------------------------------------ rosters
def roster_rows(faction: str, size: int, rng: random.Random) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(troopers, tools) of one faction: ``size`` Regular troopers of Combat Group 1 on the table."""
    troopers, tools = [], []
    for k in range(1, size + 1):
        tid = trooper(faction, k)
        troopers.append({"faction": faction, "trooper": tid, "unit": UNITS[k % len(UNITS)], "combat_group": 1,
                         "training": "REGULAR", "deployment": "ON_TABLE", "bs": rng.randint(10, 14),
                         "cc": rng.randint(12, 16), "ph": rng.randint(10, 12), "wip": rng.randint(12, 14)})
        tools += [{"trooper": tid, "tool": name, "kind": kind, "burst": burst, "attribute": attribute}
                  for name, kind, burst, attribute in TOOLS]
    return troopers, tools


# -------------------------------------------------------------------------------------- Coordinated Orders
def co_sizes(orders: int) -> list[int]:
    """The participants of each CO, SIZES in turn, filling ``orders`` rows with no CO of one trooper."""
    sizes, left = [], orders
    while left:
        size = min(SIZES[len(sizes) % len(SIZES)], left)
        if left - size == 1:
            size = size + 1 if size < max(SIZES) else size - 1
        sizes.append(size)
        left -= size
    return sizes


@dataclass
class Co:
    """One Coordinated Order as written: its code, kind, participants (the Spearhead first) and target."""

    code: str
    kind: str
    participants: list[str]
    target: str
    first_row: int

    @property
    def rows(self) -> range:
        return range(self.first_row, self.first_row + len(self.participants))


def plan_cos(active: str, reactive: list[str], orders: int) -> list[Co]:
    """The COs of the active player: participants taken round the roster, enemy targets round the reactive
    factions' rosters, a MediKit on the trooper after the participants."""
    cos, row = [], 0
    for i, size in enumerate(co_sizes(orders)):
        kind = CO_KINDS[i % len(CO_KINDS)]
        participants = [trooper(active, (3 * i + j) % ROSTER + 1) for j in range(size)]
        if kind == "heal":
            target = trooper(active, (3 * i + size) % ROSTER + 1)
        else:
            target = trooper(reactive[i % len(reactive)], i % ROSTER + 1)
        cos.append(Co(f"CO{i + 1}", kind, participants, target, row))
        row += size
    return cos


def co_row(co: Co, index: int) -> dict[str, Any]:
    """The row of the ``index``-th participant of ``co``."""
    row: dict[str, Any] = {"co": co.code, "trooper": co.participants[index], "spearhead": "YES" if index == 0 else None}
    if co.kind == "heal":
        return {**row, "skill1": "MEDIKIT", "tool1": "MediKit", "target1": co.target}
    row |= {"skill1": "MOVE"}
    if co.kind == "advance":
        return {**row, "skill2": "MOVE"}
    if co.kind == "fire":
        return {**row, "skill2": "BS_ATTACK", "tool2": "Combi Rifle", "target2": co.target}
    return {**row, "skill2": "CC_ATTACK", "tool2": "Knife", "target2": co.target}


def order_mistakes_for(co: Co, index: int) -> list[str]:
    """The mistakes a row can hold and still be one error: a target or a weapon only where the CO names one, a
    second Spearhead or another target only off the Spearhead's row."""
    kinds = ["stranger"]
    if co.kind != "advance":
        kinds.append("missing_tool")
        if index:
            kinds.append("other_target")
    if index:
        kinds.append("second_spearhead")
    return kinds


def next_mistake(made: dict[str, int], allowed: list[str]) -> str:
    """The kind of the next mistake: of those the row allows, the one made least so far (ORDER_MISTAKES' order
    between equals), counted in ``made``."""
    kind = min(allowed, key=lambda k: (made.get(k, 0), ORDER_MISTAKES.index(k)))
    made[kind] = made.get(kind, 0) + 1
    return kind


def wrong_co_row(co: Co, index: int, kind: str, active: str) -> dict[str, Any]:
    """The row of the ``index``-th participant with one mistake of ``kind``."""
    row = co_row(co, index)
    k = 1 if co.kind == "heal" else 2
    if kind == "stranger":  # V11
        row["trooper"] = trooper(active, 0)
    elif kind == "missing_tool":  # V19
        row[f"tool{k}"] = MISSING_TOOL
    elif kind == "other_target":  # V14: the trooper numbered after the target, in the same roster
        row[f"target{k}"] = next_trooper(co.target)
    else:  # V08
        row["spearhead"] = "YES"
    return row


def orders_sheet(cos: list[Co], every: int, active: str) -> tuple[list[dict[str, Any]], int, set[str]]:
    """(rows, mistake rows, codes of the COs holding a mistake)."""
    rows, wrong, spoiled, made = [], 0, set(), {}
    for co in cos:
        for index, r in enumerate(co.rows):
            if is_mistake(r, every):
                rows.append(wrong_co_row(co, index, next_mistake(made, order_mistakes_for(co, index)), active))
                wrong += 1
                spoiled.add(co.code)
            else:
                rows.append(co_row(co, index))
    return rows, wrong, spoiled


# --------------------------------------------------------------------------------------------------- AROs
def reactive_roster(orders: int, legal: list[Co]) -> int:
    """Troopers a reactive faction needs so that none reacts twice to one CO: ``orders`` reactions over the
    legal COs."""
    return max(ROSTER, math.ceil(orders / max(1, len(legal))))


def aro_row(faction: str, r: int, legal: list[Co], roster: int) -> dict[str, Any]:
    """Reaction ``r``: trooper r % roster to CO r // roster, at one of its participants."""
    co = legal[r // roster]
    row = {"co": co.code, "reactive": trooper(faction, r % roster + 1),
           "target": co.participants[r % len(co.participants)]}
    if ARO_KINDS[r % len(ARO_KINDS)] == "dodge":
        return {**row, "aro": "DODGE"}
    return {**row, "aro": "BS_ATTACK", "tool": "Combi Rifle"}


def wrong_aro_row(faction: str, r: int, legal: list[Co], roster: int, kind: str) -> dict[str, Any]:
    """Reaction ``r`` as a BS Attack with one mistake of ``kind``."""
    row = {**aro_row(faction, r, legal, roster), "aro": "BS_ATTACK", "tool": "Combi Rifle"}
    if kind == "stranger":  # A03
        row["reactive"] = trooper(faction, 0)
    elif kind == "two_targets":  # A01
        co = legal[r // roster]
        row["target"] = ", ".join(co.participants[:2])
    else:  # A03: a weapon it does not carry
        row["tool"] = MISSING_TOOL
    return row


def reactions_sheet(faction: str, orders: int, every: int, legal: list[Co], roster: int) -> tuple[list, int]:
    """(rows, mistake rows) of a reactive faction's AROs sheet."""
    rows, wrong = [], 0
    for r in range(orders):
        if is_mistake(r, every):
            rows.append(wrong_aro_row(faction, r, legal, roster, ARO_MISTAKES[wrong % len(ARO_MISTAKES)]))
            wrong += 1
        else:
            rows.append(aro_row(faction, r, legal, roster))
    return rows, wrong


# ------------------------------------------------------------------------------------------------ campaign
def campaign(factions: int, orders: int, seed: int, mistakes: float) -> tuple[dict[str, Any], int]:
    """(data, mistake_rows): the campaign as :func:`adjudicator.scenario.build_from_data` takes it (settings,
    parameters, tables, the active player's Coordinated Orders and every reactive player's AROs, ``orders`` rows
    each) and how many rows were written as mistakes."""
    if orders < 2 or factions < 2:
        raise ValueError("a Coordinated Order needs two troopers and someone to react: two orders a sheet and two "
                         "factions at least")
    rng = random.Random(seed)
    names = faction_names(factions)
    active, reactive = names[0], names[1:]
    every = mistake_every(mistakes)
    cos = plan_cos(active, reactive, orders)
    rows, wrong, spoiled = orders_sheet(cos, every, active)
    legal = [co for co in cos if co.code not in spoiled]
    if not legal:
        raise ValueError("every Coordinated Order holds a mistake: no AROs can stand (write fewer mistakes)")
    sheets: dict[str, dict[str, list[dict[str, Any]]]] = {active: {"orders": rows}}
    troopers, tools = roster_rows(active, ROSTER, rng)
    roster = reactive_roster(orders, legal)
    for faction in reactive:
        more_troopers, more_tools = roster_rows(faction, roster, rng)
        troopers, tools = troopers + more_troopers, tools + more_tools
        reactions, wrong_aros = reactions_sheet(faction, orders, every, legal, roster)
        sheets[faction] = {"reactions": reactions}
        wrong += wrong_aros
    data = {
        "settings": {"ruleset": "coordinated_orders", "campaign": "bench", "seed": seed, "turn": 1,
                     "language": "en", "secret": "bench"},
        "parameters": {"core_roll_module": True},
        "tables": {
            "factions": [{"id": f, "name": f, "language": "en", "command_tokens": len(cos) if f == active else 4}
                         for f in names],
            "player_turn": [{"active_player": active, "phase": "ORDERS"}],
            "combat_groups": [{"faction": f, "combat_group": 1, "regular_orders": len(cos) if f == active else 10}
                              for f in names],
            "troopers": troopers,
            "tools": tools,
        },
        "orders": sheets,
    }
    return data, wrong


# --------------------------------------------------------------------------------------------------- answer
def answer(root: Path) -> None:
    """Between run's two passes: every row of the Table facts sheet that pass 1 wrote answered: the
    Requirements are met (YES), what the GM had entered kept."""
    from adjudicator.engine.problems import ProblemList
    from adjudicator.turn import pipeline
    from adjudicator.turn.gm_input import read_gm_input, write_gm_input

    folder, campaign_now, ruleset = pipeline.open_campaign(root)
    path = folder.gm_input(campaign_now.turn)
    sheets = read_gm_input(path, ruleset, ProblemList()) or {}
    requests = {}
    for schema in ruleset.gm_input_schemas:
        sheet = sheets.get(schema.key)
        frame = sheet.frame.reindex(columns=schema.keys()) if sheet is not None else None
        if frame is not None and "met" in frame:
            frame["met"] = frame["met"].where(frame["met"].notna(), "YES")
        requests[schema.key] = frame
    write_gm_input(path, ruleset, {k: v for k, v in requests.items() if v is not None}, campaign_now.turn,
                   campaign_now.language)
