"""DISBAND: fleet in a square goes back into the treasury, only where the GM allows it (A5, cfg.allow_disband)."""

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
    credit,
    unknown_square,
)
from adjudicator.rulesets.star_sectors.state import World


def check(snapshot: World, order: OrderRow, params: dict) -> Rejection | None:
    if not params["allow_disband"]:
        return Rejection(
            "E19",
            msg("Fleets cannot be disbanded in this campaign."),
            "order",
            msg("Delete the row; ask the GM if you need to convert fleet back into R."),
        )
    if order.square not in snapshot.squares:
        return unknown_square(order.square, "square")
    return None


def disbanded(world: World, order: OrderRow) -> int:
    have = world.value(order.faction, order.square)
    return have if order.amount == "ALL" else int(order.amount or 0)


def available(world: World, order: OrderRow) -> Rejection | None:
    """E04 when the fleet in the square is less than what the row disbands."""
    have = world.value(order.faction, order.square)
    amount = disbanded(world, order)
    if amount <= 0 or amount > have:
        return Rejection(
            "E04",
            msg("You have {have}R of fleet in {a}; you disband {wanted}R.", have=have, a=order.square,
                wanted=max(amount, 0)),
            "amount",
            msg("Disband at most what you have in {a}.", a=order.square),
        )
    return None


def carry_out(world: World, order: OrderRow, ctx: Context) -> Done | Rejection:
    refused = available(world, order)
    if refused:
        return refused
    amount = disbanded(world, order)
    change_fleet(world, ctx, order.faction, order.square, -amount, "pre-step",
                 msg("Disbanded into the treasury."), order.reference)
    credit(world, ctx, order.faction, amount, "pre-step",
           msg("Disbanded {amount}R of fleet in {square}.", amount=amount, square=order.square), order.reference)
    return Done(msg("{amount}R of fleet in {square} disbanded into the treasury.", amount=amount,
                    square=order.square))


class Disband(StarOrder):
    kind = "DISBAND"
    needs = ("square", "amount")
    step = "pre-step"

    def check(self, state: FactionState, order: OrderRow) -> Rejection | None:
        return check(state.snapshot, order, state.params) or available(state.world, order)

    def carry_out(self, state: FactionState, order: OrderRow) -> Done:
        return carry_out(state.world, order, state.ctx)  # type: ignore[return-value] - checked
