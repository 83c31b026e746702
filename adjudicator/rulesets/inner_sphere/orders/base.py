"""What every order type of Inner Sphere is: the faction's state its orders are checked against and carried out
on, the bill an order would pay, and the three steps (assess, check the treasury, pay and carry out)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.ledger import Amount
from adjudicator.engine.orders import OrderType, Row
from adjudicator.engine.outcome import Done, Rejection
from adjudicator.i18n import Msg
from adjudicator.rulesets.inner_sphere.orders.common import Context, FactionPlan, OrderRow, can_pay, post
from adjudicator.rulesets.inner_sphere.state import World


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
