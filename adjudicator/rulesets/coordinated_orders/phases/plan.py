"""What a legal Coordinated Order does (spec §4): per trooper and Skill, whether it executes or is Idle
and why, its effective Burst, and the roll plan (Normal or Face-to-Face, against whom)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from adjudicator.i18n import Msg, msg
from adjudicator.rulesets.coordinated_orders import schemas
from adjudicator.rulesets.coordinated_orders.facts import Fact, FactKey, Needed
from adjudicator.rulesets.coordinated_orders.orders.common import joined
from adjudicator.rulesets.coordinated_orders.orders.coordinated import Verdict
from adjudicator.rulesets.coordinated_orders.orders.reactions import Judged
from adjudicator.rulesets.coordinated_orders.skills import Skills, skill
from adjudicator.rulesets.coordinated_orders.state import Game, Tool

EXECUTES, IDLE, CC_SUPPORT, ENTIRE_ORDER_DONE = "EXECUTES", "IDLE", "CC_SUPPORT", "ENTIRE_ORDER_DONE"
ILLEGAL = "ILLEGAL"  # the reason of every Idle of an illegal CO that still spent its token and Order (C2)


@dataclass
class Line:
    """One participant in one Skill."""

    co: str
    k: int
    trooper: str
    faction: str
    spearhead: bool
    skill: str
    tool: str = ""
    target: str = ""
    target_id: str = ""
    status: str = EXECUTES
    reason: str = ""  # why IDLE: DECLARED, ILLEGAL, a fact reason, or SPEARHEAD_IDLE (CC support with no effect)
    b_base: int | None = None
    bonuses: int = 0
    b_eff: int | None = None
    cc_bonus: int = 0
    roll_type: str = ""  # NORMAL or F2F
    opponents: list[str] = field(default_factory=list)
    attribute: str = ""
    value: int | None = None

    @property
    def purpose(self) -> str:
        return f"{self.faction}:{self.co}:skill{self.k}:{self.trooper}"


@dataclass
class AroLine:
    judged: Judged
    trooper: str
    faction: str
    status: str = EXECUTES
    reason: str = ""
    b_eff: int | None = None
    roll_type: str = ""
    opponents: list[str] = field(default_factory=list)
    attribute: str = ""
    value: int | None = None

    @property
    def purpose(self) -> str:
        return f"{self.faction}:{self.judged.reaction.co}:aro:{self.trooper}"


@dataclass
class Plan:
    verdict: Verdict
    lines: list[Line]
    aros: list[AroLine]
    common: dict[int, list[Line]] = field(default_factory=dict)  # Skill → rolls of a Success + Failure Skill


def needed_facts(verdict: Verdict, judged: list[Judged], table: Skills) -> list[Needed]:
    """The facts the GM must enter before this CO can be resolved (C16); ``table``: the campaign's Skills."""
    dec = verdict.declaration
    out = []
    for k in (1, 2):
        for e in dec.entries:
            d = e.skills.get(k)
            info = skill(table, d.code) if d else None
            if e.trooper is None or d is None or info is None or not info.facts:
                continue
            out.append(Needed((dec.co, k, e.trooper.id), declared(d.code, d.tool, d.target),
                              contact=info.code == "CC_ATTACK" and e.spearhead))
    for j in judged:
        r = j.reaction
        info = skill(table, r.code)
        if j.accepted and info is not None and info.facts and r.trooper is not None:
            out.append(Needed((r.co, r.skill_k, r.trooper.id), declared(r.code, r.tool, j.participant, aro=True)))
    return out


def declared(code: str, tool: str, target: str, aro: bool = False) -> Msg | str:
    """A declared Skill in the reader's words, as its dropdown shows it: "BS Attack Fusil Combi → MZ1"
    ("ARO" first for a reaction); the tool and the target are the names the player typed."""
    word = next((msg(c.label) for c in schemas.SKILLS if c.code == code), code)
    parts: list[Any] = [msg("ARO")] if aro else []
    return joined([*parts, word, *(x for x in (tool, "→ " + target if target else "") if x)], " ")


def burst(tool: Tool | None, bonus: int, spearhead: bool, halve: bool, params: dict[str, Any]) -> tuple[int, int, int]:
    """(B base, bonuses, B effective) of a participant (R8, R9, C7)."""
    base = tool.burst if tool is not None else 1
    bonuses = (tool.bonus if tool is not None else 0) + bonus
    if not spearhead:
        return base, bonuses, params["other_burst"]
    positive, negative = max(bonuses, 0), min(bonuses, 0)
    total = base + positive
    b = math.ceil(total / params["spearhead_burst_divisor"]) if halve else total
    # Negative MODs never take the Burst below ``burst_floor`` (core rules, C7), nor raise it: a B0 stays B0.
    return base, bonuses, max(b + negative, min(b, params["burst_floor"]))


def plan(game: Game, verdict: Verdict, judged: list[Judged], facts: dict[FactKey, Fact],
         params: dict[str, Any], table: Skills) -> Plan:
    """``game`` is the state in which the CO was declared (before its own deployment changes); ``table``: the
    campaign's Skills."""
    dec = verdict.declaration
    participants = {e.trooper.id for e in dec.entries if e.trooper is not None}
    lines: list[Line] = []
    for k in (1, 2):
        cc_spearhead_idle = False
        for e in dec.entries:
            trooper = e.trooper
            if trooper is None:
                continue
            d = e.skills.get(k)
            first = e.skills.get(1)
            if d is None:
                before = skill(table, first.code) if first is not None else None
                if k == 2 and first is not None and before is not None and before.entire_order:
                    lines.append(Line(dec.co, k, trooper.id, dec.faction, e.spearhead, first.code,
                                      status=ENTIRE_ORDER_DONE))
                continue
            info = skill(table, d.code)
            line = Line(dec.co, k, trooper.id, dec.faction, e.spearhead, d.code, d.tool, d.target)
            enemy = game.find(None, d.target) if d.target else None
            if enemy is not None and enemy.faction != dec.faction:
                line.target_id = enemy.id
            fact = facts.get((dec.co, k, trooper.id))
            if d.code == "IDLE":
                line.status, line.reason = IDLE, "DECLARED"
            elif fact is not None and fact.met is False:
                line.status, line.reason = IDLE, fact.reason or "OTHER"
            if info is not None and info.roll:
                tool = trooper.tool(d.tool)
                cc = info.code == "CC_ATTACK"
                halve = params["cc_spearhead_halved"] if cc else True
                line.b_base, line.bonuses, line.b_eff = burst(tool, d.bonus, e.spearhead, halve, params)
                line.attribute = (tool.attribute if tool and tool.attribute else "") or info.attribute
                line.value = trooper.attributes.get(line.attribute, 0) + (fact.mod if fact else 0)
                if cc and not e.spearhead:
                    line.b_eff = None
                    if line.status == EXECUTES:
                        line.status = CC_SUPPORT
                if cc and e.spearhead:
                    if line.status == IDLE:
                        cc_spearhead_idle = True
                    else:
                        allies = _allies_in_contact(game, dec.faction, trooper.id, fact, participants, params)
                        line.cc_bonus = len(allies) * params["cc_bonus_per_ally"]
                        line.b_eff = (line.b_eff or 0) + line.cc_bonus
            lines.append(line)
        if cc_spearhead_idle:
            for line in lines:
                if line.k == k and line.status == CC_SUPPORT:
                    line.reason = "SPEARHEAD_IDLE"
    aros = []
    for j in judged:
        r = j.reaction
        if not j.accepted or r.trooper is None:
            continue
        info = skill(table, r.code)
        aro = AroLine(j, r.trooper.id, r.faction)
        fact = facts.get((r.co, r.skill_k, r.trooper.id))
        if r.code == "IDLE":
            aro.status, aro.reason = IDLE, "DECLARED"
        elif fact is not None and fact.met is False:
            aro.status, aro.reason = IDLE, fact.reason or "OTHER"
        if info is not None and info.roll:
            tool = r.trooper.tool(r.tool)
            aro.b_eff = params["aro_burst"]
            aro.attribute = (tool.attribute if tool and tool.attribute else "") or info.attribute
            aro.value = r.trooper.attributes.get(aro.attribute, 0) + (fact.mod if fact else 0)
        aros.append(aro)
    result = Plan(verdict, lines, aros)
    _pair(result, table)
    _amend(result, facts)
    for k in (1, 2):
        rolls = [x for x in lines if x.k == k and x.status == EXECUTES
                 and getattr(skill(table, x.skill), "common", False)]
        if rolls:
            result.common[k] = rolls
    return result


def idle_plan(verdict: Verdict) -> Plan:
    """An illegal CO that spent its Command Token and Order (``illegal_co_consumes``, C2): every known
    participant is Idle in every Skill it declared (in Skill 1 if it declared none), with the reason."""
    dec = verdict.declaration
    lines: list[Line] = []
    for e in dec.entries:
        if e.trooper is None:
            continue
        declared = {k: d for k, d in e.skills.items() if d is not None} or {1: None}
        for k, d in sorted(declared.items()):
            lines.append(Line(dec.co, k, e.trooper.id, dec.faction, e.spearhead, d.code if d else "",
                              d.tool if d else "", d.target if d else "", status=IDLE, reason=ILLEGAL))
    return Plan(verdict, lines, [])


def _allies_in_contact(game: Game, faction: str, spearhead: str, fact: Fact | None, participants: set[str],
                       params: dict[str, Any]) -> list[str]:
    """Allied troopers in Silhouette contact with the target, the Spearhead excluded (R12, C6)."""
    if fact is None:
        return []
    out = []
    for ref in fact.contact:
        ally = game.find(faction, ref)
        if ally is None or ally.id == spearhead or ally.id in out:
            continue
        if params["cc_bonus_counts"] == "PARTICIPANTS_ONLY" and ally.id not in participants:
            continue
        out.append(ally.id)
    return out


def _pair(result: Plan, table: Skills) -> None:
    """Normal or Face-to-Face, and against whom (§4.4, R17, C12)."""
    by_trooper = {a.trooper: a for a in result.aros if a.status == EXECUTES and a.b_eff is not None}
    for line in result.lines:
        info = skill(table, line.skill)
        if line.status != EXECUTES or info is None or not info.roll or line.b_eff is None:
            continue
        aro = by_trooper.get(line.target_id)
        if aro is not None:
            code = aro.judged.reaction.code
            aro_info = skill(table, code)
            opposes = (code == "DODGE" or (code == "RESET" and info.attack == "HACK")
                       or (aro.judged.participant == line.trooper and aro_info is not None and bool(aro_info.attack)))
            if opposes:
                line.roll_type = "F2F"
                line.opponents.append(aro.trooper)
                aro.opponents.append(line.trooper)
                aro.roll_type = "F2F"
                continue
        line.roll_type = "NORMAL"
    for aro in result.aros:
        if aro.status == EXECUTES and aro.b_eff is not None and not aro.roll_type:
            aro.roll_type = "NORMAL"


def _amend(result: Plan, facts: dict[FactKey, Fact]) -> None:
    """The GM's pairings (C12): a participant's roll made Face-to-Face against the reactive troopers the fact
    row names, or a Normal Roll; the AROs follow."""
    aros = {a.trooper: a for a in result.aros if a.status == EXECUTES and a.b_eff is not None}
    for line in result.lines:
        fact = facts.get((line.co, line.k, line.trooper))
        if fact is None or fact.against is None or not line.roll_type:
            continue
        for old in line.opponents:
            if old in aros and line.trooper in aros[old].opponents:
                aros[old].opponents.remove(line.trooper)
        line.opponents = [t for t in fact.against if t in aros]
        line.roll_type = "F2F" if line.opponents else "NORMAL"
        for t in line.opponents:
            aros[t].opponents.append(line.trooper)
    for aro in aros.values():
        aro.roll_type = "F2F" if aro.opponents else "NORMAL"


def rollers(result: Plan) -> list[Line | AroLine]:
    """Everything that rolls dice in this CO, participants first."""
    return [x for x in (*result.lines, *result.aros) if x.roll_type]

