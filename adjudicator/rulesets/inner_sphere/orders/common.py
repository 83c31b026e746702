"""What the orders and phases share: the order row, the turn's context and each faction's plan, the ledger phases,
and the treasury (can it pay, a change posted to the ledger)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import Any

from adjudicator.engine.ledger import Amount
from adjudicator.engine.outcome import Done, Rejection  # noqa: F401 - the engine's, used by every order type
from adjudicator.i18n import N_, Msg, msg
from adjudicator.rulesets.inner_sphere.data import Tariffs
from adjudicator.rulesets.inner_sphere.state import Commando, World, amount

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
    agency: list[Any] = field(default_factory=list)  # paid agency operations (orders.agency.common.Op)
    #: (op, target, status) of each paid operation but a new cell's (342 NEW): a second one is refused
    agency_targets: set[tuple[str, str, str]] = field(default_factory=set, compare=False, repr=False)


@dataclass
class Context:
    params: dict[str, Any]
    turn: int
    ledger: Any
    tariffs: Tariffs
    snapshot: World
    factions: set[str] = field(default_factory=set)
    plans: dict[str, FactionPlan] = field(default_factory=dict)
    #: :meth:`established` and :meth:`own_systems`, by faction.
    established_by_faction: dict[str, tuple[Commando, ...]] = field(default_factory=dict, init=False,
                                                                    compare=False, repr=False)
    own_systems_by_faction: dict[str, tuple[str, ...]] = field(default_factory=dict, init=False, compare=False,
                                                               repr=False)

    def plan(self, faction: str) -> FactionPlan:
        found = self.plans.get(faction)
        if found is None:  # made once a faction (not an empty plan made and thrown away at every ask)
            found = self.plans[faction] = FactionPlan()
        return found

    def established(self, faction: str) -> tuple[Commando, ...]:
        """The commandos of ``faction`` at the start of the turn that may act this turn (introduced before it), by
        ID. Found once per faction, as :attr:`aboard` is made once: the snapshot is only read while the orders are
        checked and carried out (every row of an Agency sheet asks)."""
        found = self.established_by_faction.get(faction)
        if found is None:
            found = self.established_by_faction[faction] = tuple(sorted(
                (c for c in self.snapshot.commandos.values() if c.owner == faction and c.established_turn < self.turn),
                key=lambda c: c.id))
        return found

    def own_systems(self, faction: str) -> tuple[str, ...]:
        """The hexes of the systems ``faction`` held at the start of the turn, found once per faction (as
        :meth:`established`: every row introducing a commando measures its distance to them)."""
        found = self.own_systems_by_faction.get(faction)
        if found is None:
            found = self.own_systems_by_faction[faction] = tuple(
                h for h, s in self.snapshot.systems.items() if s.owner == faction)
        return found

    @cached_property
    def aboard(self) -> dict[str, frozenset[str]]:
        """The regiments aboard each jumpship at the start of the turn, by jumpship (made once: the snapshot is
        only read while the orders are checked and carried out)."""
        by_ship: dict[str, set[str]] = {}
        for regiment in self.snapshot.regiments.values():
            if regiment.jumpship:
                by_ship.setdefault(regiment.jumpship, set()).add(regiment.id)
        return {ship: frozenset(ids) for ship, ids in by_ship.items()}


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
