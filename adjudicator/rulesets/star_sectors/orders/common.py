"""What every order type shares: the order row, the faction's state its orders are checked against and carried
out on, the spending of treasury R, and the reading of a row."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.ledger import Ledger
from adjudicator.engine.orders import OrderType, Row
from adjudicator.engine.outcome import Done, Rejection  # noqa: F401 - the engine's, used by every order type
from adjudicator.i18n import Msg, msg
from adjudicator.rulesets.star_sectors import schemas
from adjudicator.rulesets.star_sectors.state import World, square_id


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


def order_row(faction: str, number: int, row: Any) -> OrderRow:
    """A row of the Orders sheet (typed values by column key) as an :class:`OrderRow`."""
    path = tuple(square_id(p) for p in str(row.get("path") or "").replace(",", " ").replace("→", " ").split())
    amount = row.get("amount")
    return OrderRow(
        faction=faction,
        row=int(number),
        kind=str(row.get("order")),
        square=square_id(row["square"]) if row.get("square") else "",
        to=square_id(row["to"]) if row.get("to") else "",
        amount=amount if amount is not None else None,
        project=str(row.get("project") or "").strip(),
        victim=str(row.get("victim") or "").strip().upper(),
        path=path,
        description=str(row.get("description") or ""),
    )


@dataclass
class Context:
    """What carrying out an order needs besides the world: the parameters, the turn and the ledger."""

    params: dict[str, Any]
    turn: int
    ledger: Ledger
    factions: set[str] = field(default_factory=set)


@dataclass
class FactionState:
    """One faction's orders up to movement: the start-of-turn ``snapshot`` (read only), the ``world`` as its
    orders left it so far, and what its rows have asked of it. ``check`` builds one for the player, ``run`` one
    per faction on the shared world; everything here touches only the faction's own treasury and fleets, so
    factions can be carried out in any order with the same result."""

    snapshot: World
    world: World
    ctx: Context
    faction: str
    requests: int = 0
    thefts: int = 0
    asked: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # MOVE: R asked of each square
    committed: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # MOVE: R accepted from it
    overdrawn: set[str] = field(default_factory=set)
    moves: list[tuple[OrderRow, int]] = field(default_factory=list)
    late_builds: list[OrderRow] = field(default_factory=list)  # build_timing = AFTER_MOVE
    reserved: int = 0  # R the late builds will take

    @property
    def params(self) -> dict[str, Any]:
        return self.ctx.params

    def shortfall(self, amount: int) -> Rejection | None:
        """E05 when the treasury (less what the late builds will take) cannot pay ``amount``."""
        return shortfall(self.world.treasury.get(self.faction, 0) - self.reserved, amount)


class StarOrder(OrderType[OrderRow, FactionState]):
    """An order type of the Orders sheet: the row read as an :class:`OrderRow`."""

    sheet = schemas.ORDERS

    def read(self, row: Row) -> OrderRow:
        return order_row(row.faction, row.number, row.values)


def whole_amount(order: OrderRow) -> Rejection | None:
    """E11: an amount of R is a whole number (ALL only where the order type takes it)."""
    if not isinstance(order.amount, int):
        return Rejection("E11", msg("Amounts must be positive whole numbers of R."), "amount", None)
    return None


def shortfall(available: int, amount: int) -> Rejection | None:
    if amount > available:
        return Rejection(
            "E05",
            msg(
                "Insufficient free resources: {cost}R needed, {available}R available.", cost=amount, available=available
            ),
            "amount",
            msg("Lower the amount, or put this order above the orders you can do without."),
        )
    return None


def debit(world: World, ctx: Context, faction: str, amount: int, phase: str, cause: Msg, ref: str) -> Rejection | None:
    """Take ``amount`` from the treasury, or refuse with E05 when it is not there."""
    available = world.treasury.get(faction, 0)
    refused = shortfall(available, amount)
    if refused:
        return refused
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
