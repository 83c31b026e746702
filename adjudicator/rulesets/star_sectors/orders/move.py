"""MOVE: fleets move one orthogonal step from a square with no foreign fleet (S5, §5.2)."""

from __future__ import annotations

from collections import defaultdict

from adjudicator.i18n import msg
from adjudicator.rulesets.star_sectors.orders.common import (
    Context,
    Done,
    OrderRow,
    Rejection,
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


def plan(world: World, orders: list[OrderRow]) -> tuple[dict[int, Done | Rejection], list[tuple[OrderRow, int]]]:
    """Check the amounts of one faction's legal moves (E04) against the fleets after the pre-step.

    Rows from the same square are taken in sheet order; once they ask for more than the fleet holds,
    that row and every later row from the same square are rejected (spec E04). ``ALL`` takes what is
    left."""
    outcomes: dict[int, Done | Rejection] = {}
    accepted: list[tuple[OrderRow, int]] = []
    committed: dict[str, int] = defaultdict(int)
    wanted: dict[str, int] = defaultdict(int)
    overdrawn: set[str] = set()
    for order in orders:
        have = world.value(order.faction, order.square)
        left = have - committed[order.square]
        amount = left if order.amount == "ALL" else int(order.amount or 0)
        wanted[order.square] += max(amount, 0)
        if order.square in overdrawn or amount <= 0 or amount > left:
            overdrawn.add(order.square)
            outcomes[order.row] = Rejection(
                "E04",
                msg(
                    "You have {have}R of fleet in {a}; your orders move {wanted}R.",
                    have=have,
                    a=order.square,
                    wanted=wanted[order.square],
                ),
                "amount",
                msg("Move at most what you have in {a}.", a=order.square),
            )
            continue
        committed[order.square] += amount
        accepted.append((order, amount))
        outcomes[order.row] = Done(msg("{amount}R moved {a}→{b}.", amount=amount, a=order.square, b=order.to))
    return outcomes, accepted


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
