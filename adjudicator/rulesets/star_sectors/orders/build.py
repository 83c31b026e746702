"""BUILD: treasury R goes into fleet in a square the faction may build in (A5, cfg.build_rule)."""

from __future__ import annotations

from adjudicator.i18n import msg
from adjudicator.rulesets.star_sectors.orders.common import (
    Context,
    Done,
    OrderRow,
    Rejection,
    change_fleet,
    debit,
    unknown_square,
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
    return Done(msg("{amount}R of fleet built in {square}.", amount=amount, square=order.square))
