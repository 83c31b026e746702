"""THEFT: openly steal a component another faction fielded in battle, for a share of its price (S10)."""

from __future__ import annotations

import math

from adjudicator.i18n import msg
from adjudicator.rulesets.star_sectors.orders.common import (
    Context,
    Done,
    FactionState,
    OrderRow,
    Rejection,
    StarOrder,
    debit,
)
from adjudicator.rulesets.star_sectors.state import Project, World


def check(snapshot: World, order: OrderRow, params: dict, turn: int) -> Rejection | None:
    component = snapshot.projects[order.project].component if order.project in snapshot.projects else order.project
    if snapshot.owns_component(order.faction, component):
        return Rejection(
            "E10",
            msg("You already own or are acquiring {id}.", id=component),
            "project",
            None,
        )
    window = params["theft_window"]
    seen = [
        u for u in snapshot.usages
        if u.faction != order.faction
        and (snapshot.projects[u.project].component if u.project in snapshot.projects else u.project) == component
        and u.turn < turn
        and (window == "ANY_LATER" or u.turn == turn - 1)
        and (not order.victim or u.faction == order.victim)
    ]
    if not seen or component not in snapshot.projects:
        return Rejection(
            "E09",
            msg("Theft impossible: {id} has not been used in battle by another player before this turn.", id=component),
            "project",
            msg("Steal only a component that the victim brought onto the battlefield in an earlier turn."),
        )
    return None


def price(world: World, component: str, params: dict) -> int:
    return math.floor(params["theft_fraction"] * world.original_price(component))


def carry_out(world: World, order: OrderRow, ctx: Context, number: int) -> Done | Rejection:
    component = world.projects[order.project].component
    cost = price(world, component, ctx.params)
    pid = f"{order.faction}-T{ctx.turn:02d}-S{number}"
    project = Project(pid, order.faction, world.projects[component].description, "FEASIBLE", price=cost,
                      origin="THEFT", source=component, requested_turn=ctx.turn)
    if ctx.params["theft_installments"]:
        world.projects[pid] = project
        return Done(msg("Theft of {id} declared: project {project}, {price}R to pay.", id=component, project=pid,
                        price=cost))
    refused = debit(world, ctx, order.faction, cost, "step 1",
                    msg("Theft of {id} from {victim}.", id=component, victim=order.victim or "—"), order.reference)
    if refused:
        return refused
    project.paid = cost
    project.status = "PAID"
    project.available_from = ctx.turn + 1
    world.projects[pid] = project
    return Done(msg("{id} stolen for {price}R; usable from turn {turn}.", id=component, price=cost, turn=ctx.turn + 1))


class Theft(StarOrder):
    kind = "THEFT"
    needs = ("project", "victim")
    step = "theft"

    def check(self, state: FactionState, order: OrderRow) -> Rejection | None:
        if order.victim not in state.ctx.factions or order.victim == order.faction:
            return Rejection(
                "E15",
                msg("{victim} is not another faction of this campaign.", victim=order.victim),
                "victim",
                msg("Write the ID of the faction that fielded the component."),
            )
        refused = check(state.snapshot, order, state.params, state.ctx.turn)
        if refused or state.params["theft_installments"]:
            return refused
        return state.shortfall(price(state.world, state.world.projects[order.project].component, state.params))

    def carry_out(self, state: FactionState, order: OrderRow) -> Done:
        state.thefts += 1
        return carry_out(state.world, order, state.ctx, state.thefts)  # type: ignore[return-value] - checked
