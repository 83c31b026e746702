"""FEASIBILITY: the player describes a component in general terms and pays the fee (S8); the GM's
scientists answer in the GM input (G4)."""

from __future__ import annotations

from adjudicator.i18n import msg
from adjudicator.rulesets.star_sectors.orders.common import (
    Context,
    Done,
    FactionState,
    OrderRow,
    Rejection,
    StarOrder,
    credit,
    debit,
)
from adjudicator.rulesets.star_sectors.state import Project, World


def check(snapshot: World, order: OrderRow, params: dict) -> Rejection | None:
    """Nothing to check against the state: the description is required (C03), its wording is the GM's call."""
    return None


def project_id(faction: str, turn: int, number: int) -> str:
    return f"{faction}-T{turn:02d}-{number}"


def carry_out(world: World, order: OrderRow, ctx: Context, number: int) -> Done | Rejection:
    fee = int(ctx.params["feasibility_fee"])
    pid = project_id(order.faction, ctx.turn, number)
    refused = debit(world, ctx, order.faction, fee, "pre-step",
                    msg("Feasibility request {project}.", project=pid), order.reference)
    if refused:
        return refused
    world.projects[pid] = Project(pid, order.faction, order.description, "REQUESTED", requested_turn=ctx.turn)
    return Done(msg("Request {project} sent to the scientists ({fee}R).", project=pid, fee=fee))


def answer(world: World, pid: str, verdict: str, price: int | None, ctx: Context, reference: str) -> None:
    """Apply the GM's answer (G4) to a REQUESTED project; REJECTED refunds the fee (A13)."""
    project = world.projects[pid]
    project.status = verdict
    if verdict == "FEASIBLE":
        project.price = int(price or 0)
    if verdict == "REJECTED" and ctx.params["refund_rejected"]:
        credit(world, ctx, project.faction, int(ctx.params["feasibility_fee"]), "step 2",
               msg("Fee refunded: request {project} was too specific.", project=pid), reference)


class Feasibility(StarOrder):
    kind = "FEASIBILITY"
    needs = ("description",)
    step = "pre-step"

    def check(self, state: FactionState, order: OrderRow) -> Rejection | None:
        return check(state.snapshot, order, state.params) or state.shortfall(int(state.params["feasibility_fee"]))

    def carry_out(self, state: FactionState, order: OrderRow) -> Done:
        state.requests += 1
        return carry_out(state.world, order, state.ctx, state.requests)  # type: ignore[return-value] - checked
