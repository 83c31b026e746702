"""The BATTLE_PLAN sheet (§4.3): a race's plans, with malformed fields reported (B01) and replaced by defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.engine.orders import OrderType, Row
from adjudicator.engine.outcome import Note
from adjudicator.i18n import Msg, msg
from adjudicator.rulesets.galactic_war import schemas
from adjudicator.rulesets.galactic_war.orders.common import Done, RaceOrders
from adjudicator.rulesets.galactic_war.plans import PlanBook, read_plan
from adjudicator.rulesets.galactic_war.state import World, sid
from adjudicator.rulesets.galactic_war.vocabulary import RETREAT_HINT, means_all, why_not

UNIT_TYPES = {"CRUISER", "TRANSPORT", "DREADNOUGHT", "FIGHTER", "GF", "PDS", "DESTROYER", "WAR_SUN"}


@dataclass(frozen=True)
class PlanRow:
    row: int
    values: Mapping[str, Any]


def enter(book: PlanBook, world: World, values: Mapping[str, Any]) -> list[tuple[str, Msg]]:
    """Put a plan row into ``book`` (a later row for the same scope wins); what was malformed, by column."""
    plan, bad = read_plan(dict(values))
    scope = sid(values.get("scope"))
    faults: list[tuple[str, Msg]] = [(column, msg("{value} is not a retreat condition", value=why_not(text)))
                                     for column, text in bad]
    for entry in plan.space + plan.ground:
        if entry not in world.units and entry not in UNIT_TYPES:
            faults.append(("space_casualties" if entry in plan.space else "ground_casualties",
                           msg("{value} is neither a unit type nor a unit ID", value=entry)))
    unknown = [s for s in plan.retreat_to if s not in world.systems]
    if unknown:
        faults.append(("retreat_to", msg("{value} is not a system", value=", ".join(unknown))))
        plan.retreat_to = [s for s in plan.retreat_to if s in world.systems]
    if means_all(values.get("scope")):
        book.default = plan
    elif scope in world.systems:
        book.systems[scope] = plan
    else:
        faults.append(("scope", msg("{value} is not a system", value=scope)))
    return faults


class BattlePlanType(OrderType[PlanRow, RaceOrders]):
    """A plan row is never refused: a malformed field is a warning B01 and its default is used."""

    sheet = schemas.BATTLE_PLAN
    step = "plan"

    def read(self, row: Row) -> PlanRow:
        return PlanRow(row.number, row.values)

    def carry_out(self, state: RaceOrders, order: PlanRow) -> Done:
        faults = enter(state.plans, state.snapshot, order.values)
        notes = tuple(Note("B01", _default_used(order.row, column, reason), column) for column, reason in faults)
        return Done(msg("Battle plan recorded."), notes=notes)


def _default_used(row: int, column: str, reason: Msg) -> Msg:
    """B01's message; for a retreat condition, the forms it may take, in the reader's tokens."""
    if column == "retreat_if":
        return msg("Battle plan row {n}: {reason}; default used. Write one of: {forms}", n=row, reason=reason,
                   forms=msg(RETREAT_HINT))
    return msg("Battle plan row {n}: {reason}; default used.", n=row, reason=reason)
