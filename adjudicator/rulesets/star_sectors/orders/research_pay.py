"""RESEARCH_PAY: pay any part of a FEASIBLE project's price, over as many turns as wanted (S9)."""

from __future__ import annotations

from adjudicator.i18n import msg
from adjudicator.rulesets.star_sectors.orders.common import (
    Context,
    Done,
    FactionState,
    OrderRow,
    Rejection,
    StarOrder,
    debit,
    whole_amount,
)
from adjudicator.rulesets.star_sectors.state import World


def check(snapshot: World, order: OrderRow, params: dict) -> Rejection | None:
    return payable(snapshot, order.faction, order.project)


def payable(world: World, faction: str, pid: str) -> Rejection | None:
    project = world.projects.get(pid)
    if project is None or project.faction != faction:
        reason = msg("it is not one of your projects")
    elif project.status == "PAID":
        reason = msg("it is already paid")
    elif project.status != "FEASIBLE":
        reason = msg("the scientists have not found it feasible")
    else:
        return None
    return Rejection(
        "E07",
        msg("Project {id} cannot be paid: {reason}.", id=pid or "—", reason=reason),
        "project",
        msg("Use the ID of one of your FEASIBLE projects from your last report."),
    )


def pay(world: World, faction: str, pid: str, amount: int, ctx: Context, phase: str, ref: str) -> Done | Rejection:
    refused = payable(world, faction, pid)
    if refused:
        return refused
    project = world.projects[pid]
    charge = min(amount, project.remaining)
    refused = debit(world, ctx, faction, charge, phase, msg("Research payment for {project}.", project=pid), ref)
    if refused:
        return refused
    project.paid += charge
    if project.paid >= project.price:
        project.status = "PAID"
        project.available_from = ctx.turn + 1
    if charge < amount:  # E08, a warning: the charge is capped at what was still due
        capped = msg("Only {rem}R was still due; {rem}R charged.", rem=charge)
        return Done(capped, partial=True, warning=capped, code="E08", column="amount")
    return Done(msg("{amount}R paid for {project} ({paid} of {price}R).", amount=charge, project=pid,
                    paid=project.paid, price=project.price))


def carry_out(world: World, order: OrderRow, ctx: Context) -> Done | Rejection:
    return pay(world, order.faction, order.project, int(order.amount or 0), ctx, "pre-step", order.reference)


class ResearchPay(StarOrder):
    kind = "RESEARCH_PAY"
    needs = ("project", "amount")
    step = "pre-step"

    def check(self, state: FactionState, order: OrderRow) -> Rejection | None:
        refused = whole_amount(order) or payable(state.world, order.faction, order.project)
        if refused:
            return refused
        return state.shortfall(min(int(order.amount or 0), state.world.projects[order.project].remaining))

    def carry_out(self, state: FactionState, order: OrderRow) -> Done:
        return carry_out(state.world, order, state.ctx)  # type: ignore[return-value] - checked
