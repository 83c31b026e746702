"""The reports of a turn: each player's own roster and what it sees of the enemy, the Coordinated
Orders with every participant's status, Burst and roll, the AROs, and the dice in roll mode.

A player sees its own illegal declarations (with their codes) but never the enemy's, never an enemy
trooper in Hidden Deployment or off the table, and a Camouflaged Marker only by its label."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import reporting
from adjudicator.engine.ruleset import Campaign, ReportTable
from adjudicator.i18n import Msg, msg
from adjudicator.rulesets.coordinated_orders import schemas
from adjudicator.rulesets.coordinated_orders.facts import Fact, FactKey
from adjudicator.rulesets.coordinated_orders.orders.common import joined
from adjudicator.rulesets.coordinated_orders.orders.coordinated import Verdict
from adjudicator.rulesets.coordinated_orders.orders.reactions import Judged
from adjudicator.rulesets.coordinated_orders.phases.plan import (
    CC_SUPPORT,
    ENTIRE_ORDER_DONE,
    EXECUTES,
    IDLE,
    ILLEGAL,
    AroLine,
    Line,
    Plan,
    rollers,
)
from adjudicator.rulesets.coordinated_orders.phases.plan import burst as spearhead_burst
from adjudicator.rulesets.coordinated_orders.phases.rolls import Die, surviving
from adjudicator.rulesets.coordinated_orders.state import HIDDEN, Game, Trooper

STATUS = {
    EXECUTES: msg("executes"),
    IDLE: msg("Idle"),
    CC_SUPPORT: msg("CC support, no roll"),
    ENTIRE_ORDER_DONE: msg("Entire Order already declared"),
}
REASONS = {c.code: c.label for c in schemas.REASONS}
FORFEITS = {"REGULAR": msg("a Regular Order"), "IRREGULAR": msg("its Irregular Order")}


def _label(column: Any, code: str) -> Msg | str:
    for choice in column:
        if choice.code == code:
            return msg(choice.label)
    return code


def skill_label(code: str) -> Msg | str:
    return _label(schemas.SKILLS, code)


def error_codes(v: Verdict) -> Msg | str:
    """The codes of an illegal CO; a CO refused only for errors found by the core names no code of its own."""
    if v.legal:
        return ""
    return ", ".join(sorted({e.code for e in v.errors})) or msg("see the errors of its rows")


def status_text(line: Line | AroLine, codes: Msg | str = "") -> Msg:
    base = STATUS.get(line.status, msg("executes"))
    if line.status == IDLE:
        if line.reason == "DECLARED":
            return msg("Idle (declared)")
        if line.reason == ILLEGAL:
            return msg("Idle: the Coordinated Order is illegal ({codes})", codes=codes or "—")
        return msg("Idle: {reason}", reason=msg(REASONS.get(line.reason, "Other requirement")))
    if line.status == CC_SUPPORT and line.reason == "SPEARHEAD_IDLE":
        return msg("CC support, no effect: the Spearhead is Idle")
    return base


def roll_text(line: Line | AroLine) -> Msg | str:
    if line.roll_type == "F2F":
        return msg("Face-to-Face against {who}", who=", ".join(line.opponents))
    if line.roll_type == "NORMAL":
        return msg("Normal Roll")
    return ""


def line_summary(line: Line) -> Msg:
    """One participant in one Skill, in words, for the Outcome column of its order row."""
    declared: Any = skill_label(line.skill) if line.skill else "—"
    if line.tool or line.target:
        declared = joined([declared, joined([x for x in (line.tool, f"→ {line.target}" if line.target else "") if x],
                                            " ")], " ")
    parts: list[Any] = [status_text(line)]
    if line.b_eff is not None and line.status == EXECUTES:
        parts.append(msg("Burst {n}", n=line.b_eff))
    if line.roll_type:
        parts.append(roll_text(line))
    return msg("Skill {k}: {declared}: {outcome}", k=line.k, declared=declared, outcome=joined(parts))


def _dice_text(dice: list[Die]) -> str:
    return " ".join(f"{d.face}{'!' if d.critical else '' if d.success else '✗'}" for d in dice)


def _aro_skill(p: Plan, aro: AroLine, opponent: str) -> int:
    """The Skill in which an ARO is rolled: that of the participant's roll it opposes, or the one it answered."""
    line = next((x for x in p.lines if x.trooper == opponent and aro.trooper in x.opponents), None)
    return line.k if line is not None else aro.judged.reaction.skill_k


class Reporter(reporting.Reporter):
    def __init__(self, campaign: Campaign, start: Game, end: Game, verdicts: list[Verdict], judged: list[Judged],
                 plans: dict[str, Plan], dice: dict[str, list[Die]], facts: dict[FactKey, Fact]) -> None:
        self.campaign = campaign
        self.start = start
        self.end = end
        self.verdicts = verdicts
        self.judged = judged
        self.plans = plans
        self.dice = dice
        self.facts = facts

    # ------------------------------------------------------------ visibility
    def _name(self, trooper: str, reader: str | None) -> str:
        """A trooper as ``reader`` knows it (None: the GM, who knows everything)."""
        t = self.end.troopers.get(trooper)
        if t is None or reader is None or t.faction == reader:
            return trooper
        return t.public_name()

    def _visible(self, v: Verdict, reader: str | None) -> bool:
        return reader is None or v.declaration.faction == reader or v.legal

    # ---------------------------------------------------------------- tables
    def orders_table(self, reader: str | None) -> ReportTable:
        rows = []
        for v in self.verdicts:
            if not self._visible(v, reader):
                continue
            dec = v.declaration
            head = dec.spearhead()
            used = v.consumption
            forfeits = joined([msg("{id} ({kind})", id=self._name(t, reader), kind=FORFEITS.get(k, k))
                               for t, k in used.forfeits]) if used else ""
            rows.append([
                dec.co, dec.faction, msg("YES") if v.legal else msg("NO"),
                self._name(head.trooper.id, reader) if head and head.trooper else (head.ref if head else ""),
                used.tokens if used else 0,
                msg("{n} (CG {g})", n=used.orders, g=used.combat_group) if used else 0,
                forfeits,
                msg("YES") if v.legal else "",
                error_codes(v),
            ])
        return ReportTable("orders", msg("Coordinated Orders"), [
            msg("CO"), msg("Faction"), msg("Legal"), msg("Spearhead"), msg("Command Tokens spent"),
            msg("Regular Orders spent"), msg("Own Orders forfeited"), msg("Spearhead token removed"),
            msg("Errors")], rows)

    def lines_table(self, reader: str | None) -> ReportTable:
        rows = []
        for co, p in self.plans.items():
            if not self._visible(p.verdict, reader):
                continue
            codes = error_codes(p.verdict)
            for line in sorted(p.lines, key=lambda x: (x.k, x.trooper)):
                rows.append([
                    co, line.k, self._name(line.trooper, reader), msg("YES") if line.spearhead else "",
                    skill_label(line.skill) if line.skill else "", line.tool, line.target, status_text(line, codes),
                    line.b_base if line.b_base is not None else "", line.bonuses or "",
                    line.b_eff if line.b_eff is not None else "", line.cc_bonus or "", roll_text(line),
                    line.value if line.value is not None and line.roll_type else "",
                ])
        return ReportTable("participants", msg("Participants and Skills"), [
            msg("CO"), msg("Skill"), msg("Trooper"), msg("Spearhead"), msg("Declared"), msg("Weapon or Equipment"),
            msg("Target"), msg("Status"), msg("Burst"), msg("Burst bonus"), msg("Effective Burst"),
            msg("Contact bonus"), msg("Roll"), msg("Value needed")], rows)

    def aros_table(self, reader: str | None) -> ReportTable:
        rows = []
        for j in self.judged:
            r = j.reaction
            if reader is not None and r.faction != reader and not j.accepted:
                continue
            aro = None
            if j.accepted and r.co in self.plans:
                aro = next((a for a in self.plans[r.co].aros if r.trooper and a.trooper == r.trooper.id), None)
            rows.append([
                r.co, self._name(r.trooper.id if r.trooper else r.ref, reader), skill_label(r.code), r.tool,
                self._name(j.participant, reader) if j.participant else r.target_ref,
                msg("YES") if r.delayed else "",
                msg("accepted") if j.accepted else msg("lost ({code})", code=j.code),
                status_text(aro) if aro else (j.reason or ""),
                roll_text(aro) if aro else "",
            ])
        return ReportTable("aros", msg("AROs"), [
            msg("CO"), msg("Reactive trooper"), msg("ARO"), msg("Weapon or Equipment"), msg("Chosen participant"),
            msg("Delayed"), msg("Verdict"), msg("Status"), msg("Roll")], rows)

    def rolls_table(self, reader: str | None) -> ReportTable:
        rows = []
        for co, p in self.plans.items():
            by_id: dict[str, Line | AroLine] = {x.trooper: x for x in p.aros}
            by_id.update({x.trooper: x for x in p.lines if x.roll_type})
            for x in rollers(p):
                mine = self.dice.get(x.purpose)
                if mine is None:
                    continue
                opponents = x.opponents or [""]
                for other in opponents:
                    k = x.k if isinstance(x, Line) else _aro_skill(p, x, other)
                    theirs = self.dice.get(by_id[other].purpose) if other in by_id else None
                    kept = surviving(mine, theirs if other else None)
                    rows.append([
                        co, k, self._name(x.trooper, reader), msg("ARO") if isinstance(x, AroLine) else "",
                        msg("Face-to-Face") if other else msg("Normal"), self._name(other, reader) if other else "",
                        x.b_eff, x.value, _dice_text(mine), len(kept), sum(1 for d in kept if d.critical),
                        msg("succeeds") if kept else msg("fails"),
                    ])
        return ReportTable("rolls", msg("Rolls"), [
            msg("CO"), msg("Skill"), msg("Roller"), msg("ARO"), msg("Roll"), msg("Against"), msg("Burst"),
            msg("Value needed"), msg("Dice (✗ fails, ! critical)"), msg("Successes"), msg("Criticals"),
            msg("Result")], rows)

    def common_table(self) -> ReportTable:
        rows = []
        for co, p in self.plans.items():
            for k, lines in p.common.items():
                rolled = [self.dice.get(x.purpose) for x in lines]
                if all(r is not None for r in rolled):
                    ok = any(any(d.success for d in r) for r in rolled if r)
                    verdict: Msg = msg("succeeds") if ok else msg("fails")
                else:
                    verdict = msg("succeeds if any of the {n} rolls succeeds", n=len(lines))
                rows.append([co, k, skill_label(lines[0].skill), lines[0].target, len(lines), verdict])
        return ReportTable("common", msg("Success + Failure"), [
            msg("CO"), msg("Skill"), msg("Declared"), msg("Target"), msg("Rolls"), msg("Result")], rows)

    def roster_table(self, faction: str) -> ReportTable:
        return roster_table(self.end, faction)

    def enemy_table(self, faction: str) -> ReportTable:
        return enemy_table(self.end, faction)

    def resources_table(self, faction: str | None) -> ReportTable:
        rows = []
        for f in sorted(self.end.tokens):
            if faction is not None and f != faction:
                continue
            rows.append([f, msg("Command Tokens"), self.start.tokens.get(f, 0), self.end.tokens.get(f, 0)])
            for (g_f, g), n in sorted(self.end.orders.items()):
                if g_f == f:
                    rows.append([f, msg("Regular Orders of Combat Group {n}", n=g),
                                 self.start.orders.get((g_f, g), 0), n])
        return ReportTable("resources", msg("Command Tokens and Orders"), [
            msg("Faction"), msg("Resource"), msg("Start of turn"), msg("End of turn")], rows)

    def facts_table(self) -> ReportTable:
        rows = [[co, k, t, msg("YES") if f.met else msg("NO"), msg(REASONS[f.reason]) if f.reason in REASONS else "",
                 f.mod, f.raw_contact] for (co, k, t), f in sorted(self.facts.items())]
        return ReportTable("facts", msg("Table facts"), [
            msg("CO"), msg("Skill"), msg("Trooper"), msg("Requirements met"), msg("Reason"), msg("MOD"),
            msg("Allies in contact")], rows)

    # --------------------------------------------------------------- reports
    def faction(self, faction: str) -> list[ReportTable]:
        tables = [self.orders_table(faction), self.lines_table(faction), self.aros_table(faction)]
        if self.campaign.parameters["core_roll_module"]:
            tables.append(self.rolls_table(faction))
        tables += [self.common_table(), self.resources_table(faction), self.roster_table(faction),
                   self.enemy_table(faction)]
        return tables

    def gm(self) -> list[ReportTable]:
        tables = [self.orders_table(None), self.lines_table(None), self.aros_table(None)]
        if self.campaign.parameters["core_roll_module"]:
            tables.append(self.rolls_table(None))
        tables += [self.common_table(), self.resources_table(None), self.facts_table()]
        return tables


# ----------------------------------------------------------------------- what a player may see of the state
def _tools_text(t: Trooper) -> str:
    return "; ".join(f"{x.name} B{x.burst}" + (f"{x.bonus:+d}" if x.bonus else "") for x in t.tools.values())


def roster_table(game: Game, faction: str) -> ReportTable:
    """The faction's own troopers, everything the rolls use (its Hidden and off-table troopers too)."""
    rows = []
    for t in game.roster(faction):
        rows.append([t.id, t.unit, t.combat_group, _label(schemas.TRAININGS, t.training), t.fireteam,
                     _label(schemas.LINKS, t.link) if t.link != "NONE" else "",
                     _label(schemas.DEPLOYMENTS, t.deployment), t.marker if t.deployment == "CAMO_MARKER" else "",
                     msg("YES") if t.super_jump else "", msg("NO") if not t.can_act else "",
                     t.own_orders if t.training == "IRREGULAR" else "",
                     t.attributes["BS"], t.attributes["CC"], t.attributes["PH"], t.attributes["WIP"], _tools_text(t)])
    return ReportTable("roster", msg("Your roster"), [
        msg("Trooper"), msg("Unit"), msg("Combat Group"), msg("Training"), msg("Fireteam"),
        msg("Peripheral or Controller"), msg("Deployment"), msg("Marker"), msg("Super-Jump"),
        msg("Can receive Orders"), msg("Own Irregular Orders"), msg("BS"), msg("CC"), msg("PH"), msg("WIP"),
        msg("Weapons and Equipment")], rows)


def weapons_table(game: Game, faction: str, params: dict[str, Any]) -> ReportTable:
    """The faction's weapons, Equipment, Skills and Programs, with the Burst each gives as Spearhead (R8)."""
    rows = []
    for t in game.roster(faction):
        for x in t.tools.values():
            head = spearhead_burst(x, 0, True, True, params)[2]
            rows.append([t.id, x.name, _label(schemas.TOOL_KINDS, x.kind), x.burst, x.bonus or "",
                         _label(schemas.ATTRIBUTES, x.attribute) if x.attribute else "",
                         ", ".join(sorted(x.properties)), head,
                         params["other_burst"]])
    return ReportTable("weapons", msg("Your weapons and Equipment"), [
        msg("Trooper"), msg("Weapon or Equipment"), msg("Kind"), msg("Burst"), msg("Burst bonus"), msg("Attribute"),
        msg("Properties"), msg("Burst as Spearhead"), msg("Burst of the others")], rows)


def orders_left_table(game: Game, faction: str) -> ReportTable:
    """The faction's Command Tokens and the Regular Orders of each of its Combat Groups."""
    rows: list[list[Any]] = [[msg("Command Tokens"), game.tokens.get(faction, 0)]]
    rows += [[msg("Regular Orders of Combat Group {n}", n=g), n] for (f, g), n in sorted(game.orders.items())
             if f == faction]
    return ReportTable("orders_left", msg("Command Tokens and Orders"), [msg("Resource"), msg("Available")], rows)


def enemy_table(game: Game, faction: str) -> ReportTable:
    """The enemy as ``faction`` sees it: never a Hidden or off-table trooper; a Camouflaged Marker by its
    label only, with nothing of the trooper behind it."""
    rows = []
    for t in sorted(game.troopers.values(), key=lambda x: x.public_name()):
        if t.faction == faction or t.deployment in HIDDEN:
            continue
        if t.deployment == "CAMO_MARKER":
            rows.append([t.public_name(), t.faction, msg("Camouflaged Marker"), "", "", "", "", "", ""])
            continue
        rows.append([t.id, t.faction, t.unit, t.attributes["BS"], t.attributes["CC"], t.attributes["PH"],
                     t.attributes["WIP"], _label(schemas.TRAININGS, t.training), _tools_text(t)])
    return ReportTable("enemy", msg("Enemy troopers in sight"), [
        msg("Trooper"), msg("Faction"), msg("Unit"), msg("BS"), msg("CC"), msg("PH"), msg("WIP"),
        msg("Training"), msg("Weapons and Equipment")], rows)
