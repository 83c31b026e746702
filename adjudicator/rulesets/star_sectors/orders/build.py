"""BUILD: treasury R goes into fleet in a square the faction may build in (A5, cfg.build_rule)."""

from __future__ import annotations

from adjudicator.i18n import msg
from adjudicator.rulesets.star_sectors.orders.common import (
    Context,
    Done,
    FactionState,
    OrderRow,
    Rejection,
    StarOrder,
    change_fleet,
    debit,
    unknown_square,
    whole_amount,
)
from adjudicator.rulesets.star_sectors.state import World


def check(snapshot: World, order: OrderRow, params: dict) -> Rejection | None:
    square = order.square
    if square not in snapshot.squares or not snapshot.squares[square].passable:
        return unknown_square(square, "square")
    rule = params["build_rule"]
    if rule == "FC":
        allowed = snapshot.fully_controls(order.faction, square, params["fc_threshold"])
        text = msg("You may invest in fleet only in a square you fully control.")
    elif rule == "OWN_STACK":
        allowed = snapshot.value(order.faction, square) > 0
        text = msg("You may invest in fleet only in a square where you already have a fleet.")
    else:
        allowed = order.faction.upper() in snapshot.squares[square].builders
        text = msg("You may invest in fleet only in the squares the GM listed for you.")
    if not allowed:
        return Rejection("E06", text, "square", msg("Choose another square for this BUILD."))
    return None


def carry_out(world: World, order: OrderRow, ctx: Context, phase: str) -> Done | Rejection:
    amount = int(order.amount or 0)
    refused = debit(world, ctx, order.faction, amount, phase,
                    msg("Built {amount}R of fleet in {square}.", amount=amount, square=order.square), order.reference)
    if refused:
        return refused
    change_fleet(world, ctx, order.faction, order.square, amount, phase,
                 msg("Built from the treasury."), order.reference)
    return built(order)


def built(order: OrderRow) -> Done:
    return Done(msg("{amount}R of fleet built in {square}.", amount=int(order.amount or 0), square=order.square))


class Build(StarOrder):
    """BUILD: checked against the snapshot and the treasury left; with ``build_timing = AFTER_MOVE`` carried
    out after the moves (the R is set aside until then)."""

    kind = "BUILD"
    needs = ("square", "amount")

    def step_of(self, parameters: dict) -> str:
        return "late" if parameters["build_timing"] == "AFTER_MOVE" else "pre-step"

    def check(self, state: FactionState, order: OrderRow) -> Rejection | None:
        return (whole_amount(order) or check(state.snapshot, order, state.params)
                or state.shortfall(int(order.amount or 0)))

    def carry_out(self, state: FactionState, order: OrderRow) -> Done:
        if self.step_of(state.params) == "late":
            state.late_builds.append(order)
            state.reserved += int(order.amount or 0)
            return built(order)
        return carry_out(state.world, order, state.ctx, "pre-step")  # type: ignore[return-value] - checked
