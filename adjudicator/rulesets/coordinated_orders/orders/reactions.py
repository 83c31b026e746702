"""The ARO sheet of the reactive player: one row per reactive trooper and Coordinated Order.

What can be judged from the reactive player's own workbook (A01 for a blank or double target, A03) is
reported by ``check``; whether the chosen trooper takes part in the CO (A01) and whether a delayed ARO
may still be declared (A02) is known only once the active player's orders are read, in ``run``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.engine.orders import OrderType, Row
from adjudicator.engine.outcome import Done
from adjudicator.i18n import Msg, msg
from adjudicator.rulesets.coordinated_orders import schemas
from adjudicator.rulesets.coordinated_orders.orders.common import Declarations, Rejection, targets_in
from adjudicator.rulesets.coordinated_orders.orders.coordinated import Verdict, reveals
from adjudicator.rulesets.coordinated_orders.skills import Skills, skill
from adjudicator.rulesets.coordinated_orders.state import Game, Trooper, ident


@dataclass
class Reaction:
    faction: str
    row: int
    co: str
    ref: str
    code: str
    tool: str
    target_ref: str
    delayed: bool
    invalid: bool
    trooper: Trooper | None = None

    @property
    def skill_k(self) -> int:
        """The Skill of the CO it answers: a delayed ARO waits for the second Skill."""
        return 2 if self.delayed else 1


@dataclass
class Judged:
    reaction: Reaction
    accepted: bool
    participant: str = ""  # the chosen participant's trooper ID
    code: str = ""
    reason: Msg | None = None


def reaction_of(faction: str, row: int, r: Any) -> Reaction:
    return Reaction(faction, row, ident(r.get("co")), ident(r.get("reactive")), str(r.get("aro") or ""),
                    str(r.get("tool") or "").strip(), str(r.get("target") or "").strip(), r.get("delayed") == "YES",
                    False)


def errors_of(game: Game, r: Reaction, seen: set[tuple[str, str]], table: Skills) -> list[Rejection]:
    """A01 (no target, or several) and A03 (not a reactive trooper of yours, twice, unknown tool); ``seen``
    holds the (CO, trooper) pairs of the rows above, and gets this row's."""
    errors: list[Rejection] = []
    if r.faction == game.active:
        return [Rejection("A03", msg("Only the reactive player declares AROs."), row=r.row, column="co")]
    trooper = game.troopers.get(r.ref)
    trooper = trooper if trooper is not None and trooper.faction == r.faction else None
    r.trooper = trooper
    if trooper is None or not trooper.can_act or trooper.deployment == "AIRBORNE_OFF_TABLE":
        return [Rejection("A03", msg("{id} cannot react: it is not a trooper of yours on the table that can act.",
                                     id=r.ref or "?"), row=r.row, column="reactive")]
    if (r.co, trooper.id) in seen:
        errors.append(Rejection("A03", msg("{id} already reacts to {co}: one ARO per trooper and Order.",
                                           id=trooper.id, co=r.co), row=r.row, column="reactive"))
    seen.add((r.co, trooper.id))
    if len(targets_in(r.target_ref)) != 1:
        errors.append(Rejection("A01", msg("Each reactive Trooper must choose exactly one participant of the "
                                           "Coordinated Order as its target."), row=r.row, column="target"))
    info = skill(table, r.code)
    if r.tool and trooper.tool(r.tool) is None:
        errors.append(Rejection("A03", msg("{id} has no {tool} in its roster.", id=trooper.id, tool=r.tool),
                                row=r.row, column="tool"))
    elif info is not None and info.attack and not r.tool:
        errors.append(Rejection("A03", msg("{id} has no {tool} in its roster.", id=trooper.id, tool="—"),
                                row=r.row, column="tool"))
    return errors


class Aro(OrderType[Reaction, Declarations]):
    """One ARO row: checked against the state before the turn; whether it stands against its CO is judged once
    every faction's Coordinated Orders are known (:func:`judge`)."""

    sheet = schemas.REACTIONS

    def read(self, row: Row) -> Reaction:
        return reaction_of(row.faction, row.number, row.values)

    def check(self, state: Declarations, order: Reaction) -> list[Rejection]:
        return errors_of(state.start, order, state.seen, state.skills)

    def carry_out(self, state: Declarations, order: Reaction) -> Done:
        state.reactions.append(order)
        return Done(Msg("{co}", {"co": order.co}))


def judge(reaction: Reaction, verdict: Verdict | None, table: Skills) -> Judged:
    """Whether a (valid) ARO stands against the CO it names (A01, A02, A03 for a delay without a Marker, A04 for
    a CO that does not exist or is illegal)."""
    if verdict is None or not verdict.legal:
        return Judged(reaction, False, code="A04", reason=msg("There is no legal Coordinated Order {co} to react to.",
                                                              co=reaction.co))
    before = verdict.consumption.before if verdict.consumption else {}
    target = ident(reaction.target_ref)
    chosen = None
    for e in verdict.declaration.entries:
        t = e.trooper
        if t is None:
            continue
        if target == t.id or (t.marker and target == t.marker and before.get(t.id) == "CAMO_MARKER"):
            chosen = e
    if chosen is None or chosen.trooper is None:
        return Judged(reaction, False, code="A01", reason=msg(
            "Each reactive Trooper must choose exactly one participant of the Coordinated Order as its target."))
    pid = chosen.trooper.id
    if reaction.delayed:
        if before.get(pid) != "CAMO_MARKER":
            return Judged(reaction, False, pid, "A03", msg("Only an ARO against a Camouflaged Marker can be delayed."))
        second = chosen.skills.get(2)
        if second is None or not reveals(type(chosen)(chosen.row, chosen.ref, chosen.spearhead, {2: second},
                                                      chosen.invalid), table):
            return Judged(reaction, False, pid, "A02", msg(
                "ARO lost: the designated Camouflaged Marker was not revealed by the second Skill."))
    return Judged(reaction, True, pid)
