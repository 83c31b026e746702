"""What every order type shares: the order row, the faction's state its orders are checked against and carried
out on, the bill an order would pay, and paying it from the treasury."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from adjudicator.engine.orders import OrderType, Row
from adjudicator.engine.outcome import Done, Rejection  # noqa: F401 - the engine's, used by every order type
from adjudicator.i18n import N_, Msg, msg
from adjudicator.ledger import Amount
from adjudicator.rulesets.inner_sphere.data import Tariffs
from adjudicator.rulesets.inner_sphere.state import World, amount

#: The ledger account of a treasury, in C (exact: a 31.25 C repair is ``Decimal("-31.25")``).
ACCOUNT = "treasury"

#: Ledger phases (translated where they are shown).
ECONOMY, REPAIRS, PURCHASES, MOVEMENT, AGENCY, RESEARCH, JUMPSHIPS, END, GM = (
    N_("economy"), N_("3.1 repairs"), N_("3.2 purchases"), N_("3.3 movement"), N_("3.4 agency"), N_("3.5 research"),
    N_("jumpships"), N_("end of turn"), N_("GM"))


def money(value: Amount) -> str:
    """``Decimal("31.25")`` → ``"31.25"``; ``50`` → ``"50"``."""
    value = amount(value)
    return f"{value:.2f}" if isinstance(value, Decimal) else str(value)


@dataclass(frozen=True)
class OrderRow:
    faction: str
    sheet: str  # schema key
    row: int
    kind: str
    values: dict[str, Any]
    rejected: bool = False  # refused by the engine: only a group rule (a jumpship's chain) may look at it

    def get(self, name: str) -> Any:
        return self.values.get(name)

    @property
    def reference(self) -> str:
        return f"{self.faction}:{self.sheet}:row {self.row}"


@dataclass
class FactionPlan:
    """What a faction's paid orders leave for later in the turn (research dice, ICNA, new factories)."""

    dice: dict[str, int] = field(default_factory=dict)
    icna: list[tuple[int, str]] = field(default_factory=list)  # (row, line)
    factories: list[tuple[int, str, int]] = field(default_factory=list)  # (row, system, stake)
    repairing: set[str] = field(default_factory=set)  # regiments and systems named this turn
    committed: set[str] = field(default_factory=set)  # regiments committed by another order (352) this turn
    chains: list[Any] = field(default_factory=list)  # accepted jumpship chains (orders.movement.Chain)
    moved: bool = False  # chains validated and paid
    agency: list[Any] = field(default_factory=list)  # paid agency operations (orders.agency.common.Op)


@dataclass
class Context:
    params: dict[str, Any]
    turn: int
    ledger: Any
    tariffs: Tariffs
    snapshot: World
    factions: set[str] = field(default_factory=set)
    plans: dict[str, FactionPlan] = field(default_factory=dict)

    def plan(self, faction: str) -> FactionPlan:
        return self.plans.setdefault(faction, FactionPlan())


def funds_rejection(cost: int, available: int) -> Rejection:
    return Rejection(
        "E-FUNDS",
        msg("Insufficient funds: the order costs {cost} C and the treasury holds {available} C.",
            cost=money(cost), available=money(available)),
        "kind",
        msg("Orders are paid in the order listed: move this row up, or drop an order above it."),
    )


def can_pay(world: World, ctx: Context, faction: str, cost: int) -> Rejection | None:
    available = world.treasury.get(faction, 0)
    if cost <= 0:
        return None
    if available < 0 and ctx.params["negative_treasury_blocks_orders"]:
        return funds_rejection(cost, available)
    if cost > available:
        return funds_rejection(cost, available)
    return None


def post(world: World, ctx: Context, faction: str, change: int, phase: str, cause: Msg, ref: str) -> None:
    """Change a treasury by ``change`` C and write the ledger line."""
    world.treasury[faction] = amount(world.treasury.get(faction, 0) + amount(change))
    ctx.ledger.post(phase, faction, ACCOUNT, change, world.treasury[faction], cause, ref)


def required(order: OrderRow, *columns: str) -> Rejection | None:
    """C03 for a column only some rows of an order type need (342: the commando to advance or attach); the
    columns every row of a type needs are its ``needs``, checked by the engine."""
    for column in columns:
        if order.get(column) in (None, ""):
            return Rejection("C03", msg("{column} is required for this order.", column=msg(_HEADERS[column])),
                             column, msg("Fill in {column} or delete the row.", column=msg(_HEADERS[column])))
    return None


_HEADERS = {"commando": N_("Commando"), "regiment": N_("Regiment"), "status": N_("Unrest status")}


@dataclass
class FactionState:
    """One state's orders of the turn: the ``world`` as its orders (and the states before it) left it, the
    turn's context (the start-of-turn snapshot, parameters, tables, ledger), the map, and what its rows have
    claimed so far. ``check`` builds one for the player on a world of its own, ``run`` one per state on the
    shared world; payment touches only the state's own treasury and assets."""

    world: World
    ctx: Context
    faction: str
    area: Any  # orders.movement.Map
    taken: dict[str, str] = field(default_factory=dict)  # regiment -> the jumpship whose chain named it first

    @property
    def plan(self) -> FactionPlan:
        return self.ctx.plan(self.faction)

    @property
    def params(self) -> dict[str, Any]:
        return self.ctx.params


@dataclass(frozen=True)
class Bill:
    """What an order would pay (``cause`` None: nothing, not even a line of 0 C) and what it found on the way
    (the factory that builds, the chain, the operation), for its carry-out."""

    cost: Amount = 0
    cause: Msg | None = None
    found: Any = None


class SphereOrder(OrderType[OrderRow, FactionState]):
    """An order type of Inner Sphere: its rows read as :class:`OrderRow`, checked by :meth:`assess` (the bill, or
    why not) and by the treasury (E-FUNDS), carried out by paying the bill and :meth:`effect`."""

    #: The ledger phase of its payments.
    phase: str = ""
    kind_column = "kind"

    def read(self, row: Row) -> OrderRow:
        return OrderRow(row.faction, row.sheet, row.number, str(row.values.get(self.kind_column)), dict(row.values),
                        row.refused)

    def assess(self, state: FactionState, order: OrderRow) -> Rejection | Bill:
        """What carrying the order out would cost and find, or why it cannot be; pure (no ledger, no dice)."""
        raise NotImplementedError

    def effect(self, state: FactionState, order: OrderRow, bill: Bill) -> Done:
        """What the paid order does to the world and the state's plan."""
        raise NotImplementedError

    def check(self, state: FactionState, order: OrderRow) -> Rejection | None:
        bill = self.assess(state, order)
        if isinstance(bill, Rejection):
            return bill
        return can_pay(state.world, state.ctx, order.faction, bill.cost) if bill.cause is not None else None

    def carry_out(self, state: FactionState, order: OrderRow) -> Done:
        bill = self.assess(state, order)
        assert not isinstance(bill, Rejection), "carried out unchecked"
        if bill.cause is not None:
            post(state.world, state.ctx, order.faction, -bill.cost, self.phase, bill.cause, order.reference)
        return self.effect(state, order, bill)
