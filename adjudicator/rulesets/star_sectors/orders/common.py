"""What every order type shares: the order row, a rejection, and the spending of treasury R."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.outcome import Done, Rejection  # noqa: F401 - the engine's, used by every order type
from adjudicator.i18n import Msg, msg
from adjudicator.ledger import Ledger
from adjudicator.rulesets.star_sectors.state import World


@dataclass(frozen=True)
class OrderRow:
    faction: str
    row: int
    kind: str
    square: str = ""
    to: str = ""
    amount: int | str | None = None
    project: str = ""
    victim: str = ""
    path: tuple[str, ...] = ()
    description: str = ""

    @property
    def reference(self) -> str:
        return f"{self.faction}:{self.kind}:row {self.row}"






@dataclass
class Context:
    """What carrying out an order needs besides the world: the parameters, the turn and the ledger."""

    params: dict[str, Any]
    turn: int
    ledger: Ledger
    factions: set[str] = field(default_factory=set)


def debit(world: World, ctx: Context, faction: str, amount: int, phase: str, cause: Msg, ref: str) -> Rejection | None:
    """Take ``amount`` from the treasury, or refuse with E05 when it is not there."""
    available = world.treasury.get(faction, 0)
    if amount > available:
        return Rejection(
            "E05",
            msg(
                "Insufficient free resources: {cost}R needed, {available}R available.", cost=amount, available=available
            ),
            "amount",
            msg("Lower the amount, or put this order above the orders you can do without."),
        )
    world.treasury[faction] = available - amount
    ctx.ledger.post(phase, faction, "treasury", -amount, world.treasury[faction], cause, ref)
    return None


def credit(world: World, ctx: Context, faction: str, amount: int, phase: str, cause: Msg, ref: str) -> None:
    world.treasury[faction] = world.treasury.get(faction, 0) + amount
    ctx.ledger.post(phase, faction, "treasury", amount, world.treasury[faction], cause, ref)


def fleet_account(square: str) -> str:
    return f"fleet@{square}"


def change_fleet(
    world: World, ctx: Context, faction: str, square: str, change: int, phase: str, cause: Msg, ref: str
) -> None:
    new = world.value(faction, square) + change
    world.set_value(faction, square, new)
    ctx.ledger.post(phase, faction, fleet_account(square), change, max(new, 0), cause, ref)


def unknown_square(square: str, column: str) -> Rejection:
    return Rejection(
        "E01",
        msg("Square {square} does not exist or cannot be entered.", square=square or "—"),
        column,
        msg("Use a square name from the map, such as C4."),
    )
