"""MOVE: fleets move one orthogonal step from a square with no foreign fleet (S5, §5.2)."""

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
    unknown_square,
)
from adjudicator.rulesets.star_sectors.state import World


def route(order: OrderRow) -> list[str]:
    return [order.square, *order.path, order.to]


def check(snapshot: World, order: OrderRow, params: dict) -> Rejection | None:
    """Legality against the start-of-turn snapshot (A7): squares, adjacency, full control."""
    squares = route(order)
    for square, column in zip(squares, ["square", *["path"] * len(order.path), "to"], strict=True):
        if square not in snapshot.squares or not snapshot.squares[square].passable:
            return unknown_square(square, column)
    if len(squares) - 1 > params["max_steps"]:
        return Rejection(
            "E02",
            msg("A fleet moves at most {steps} step(s) a turn.", steps=params["max_steps"]),
            "path",
            msg("Shorten the path."),
        )
    for a, b in zip(squares, squares[1:], strict=False):
        if b not in snapshot.neighbours(a):
            return Rejection(
                "E02",
                msg(
                    "Illegal move {a}→{b}: fleets move only to orthogonally adjacent squares; "
                    "diagonal moves are not allowed.",
                    a=a,
                    b=b,
                ),
                "to",
                msg("Choose a square next to {a}: up, down, left or right.", a=a),
            )
    fc = params["fc_threshold"]
    faction = order.faction
    if snapshot.value(faction, order.square) == 0:
        return Rejection(
            "E04",
            msg(
                "You have {have}R of fleet in {a}; your orders move {wanted}R.",
                have=0,
                a=order.square,
                wanted=order.amount if order.amount != "ALL" else 0,
            ),
            "amount",
            msg("Move only fleets you have: see the Fleets table of your last report."),
        )
    if params["origin_must_be_fc"]:
        for a, b in zip(squares[:-1], squares[1:], strict=False):
            if snapshot.fully_controls(faction, a, fc):
                continue
            retreat = (
                params["allow_retreat_from_contested"]
                and snapshot.value(faction, a) > 0
                and snapshot.fully_controls(faction, b, fc)
            )
            if not retreat:
                return Rejection(
                    "E03",
                    msg(
                        "Illegal move {a}→{b}: at the start of the turn {a} held foreign fleets; "
                        "a fleet may leave a square only when no enemy fleet is in it.",
                        a=a,
                        b=b,
                    ),
                    "square",
                    msg("Destroy the enemy fleets in {a} first, or move another fleet.", a=a),
                )
    else:
        destination = order.to
        near = {destination} | snapshot.neighbours(destination)
        if not any(snapshot.fully_controls(faction, s, fc) for s in near):
            return Rejection(
                "E03",
                msg(
                    "Illegal move to {b}: it is neither fully controlled by you "
                    "nor next to a square you fully control.",
                    b=destination,
                ),
                "to",
                None,
            )
    return None


def asked(state: FactionState, order: OrderRow) -> Rejection | None:
    """E04 for the amounts of one faction's legal moves, against its fleets after the pre-step.

    Rows from the same square are taken in sheet order; once they ask for more than the fleet holds,
    that row and every later row from the same square are rejected (spec E04). ``ALL`` takes what is
    left. The check notes in ``state`` what each square was asked, for the rows after it."""
    have = state.world.value(order.faction, order.square)
    amount = moved(state, order)
    state.asked[order.square] += max(amount, 0)
    if order.square in state.overdrawn or amount <= 0 or amount > have - state.committed[order.square]:
        state.overdrawn.add(order.square)
        return Rejection(
            "E04",
            msg(
                "You have {have}R of fleet in {a}; your orders move {wanted}R.",
                have=have,
                a=order.square,
                wanted=state.asked[order.square],
            ),
            "amount",
            msg("Move at most what you have in {a}.", a=order.square),
        )
    return None


def moved(state: FactionState, order: OrderRow) -> int:
    left = state.world.value(order.faction, order.square) - state.committed[order.square]
    return left if order.amount == "ALL" else int(order.amount or 0)


class Move(StarOrder):
    """MOVE: checked against the snapshot, then its amount against what is left in the square; the accepted
    moves are applied all at once after every faction's orders (:func:`apply_all`)."""

    kind = "MOVE"
    needs = ("square", "to", "amount")
    step = "move"

    def check(self, state: FactionState, order: OrderRow) -> Rejection | None:
        return check(state.snapshot, order, state.params) or asked(state, order)

    def carry_out(self, state: FactionState, order: OrderRow) -> Done:
        amount = moved(state, order)
        state.committed[order.square] += amount
        state.moves.append((order, amount))
        return Done(msg("{amount}R moved {a}→{b}.", amount=amount, a=order.square, b=order.to))


def apply_all(world: World, moves: list[tuple[OrderRow, int]], ctx: Context) -> None:
    """Apply every accepted move at once (A7, A8): every departure, then every arrival."""
    for order, amount in moves:
        change_fleet(
            world,
            ctx,
            order.faction,
            order.square,
            -amount,
            "step 1",
            msg("Fleet left for {b}.", b=order.to),
            order.reference,
        )
    for order, amount in moves:
        change_fleet(
            world,
            ctx,
            order.faction,
            order.to,
            amount,
            "step 1",
            msg("Fleet arrived from {a}.", a=order.square),
            order.reference,
        )
