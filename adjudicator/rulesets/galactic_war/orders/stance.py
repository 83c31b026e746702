"""Stance (§4.2): "Do not attack" for the race's ships that stay in a system this turn."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.engine.orders import OrderType, Row
from adjudicator.i18n import msg
from adjudicator.rulesets.galactic_war import schemas
from adjudicator.rulesets.galactic_war.orders.common import Done, RaceOrders, Rejection, unknown_system
from adjudicator.rulesets.galactic_war.state import sid


@dataclass(frozen=True)
class Stance:
    race: str
    system: str
    dna: bool


class StanceType(OrderType[Stance, RaceOrders]):
    """A system on the map; its "Do not attack" covers the race's ships there that did not move (the ships that
    moved carry their own row's)."""

    sheet = schemas.STANCE
    step = "stance"

    def read(self, row: Row) -> Stance:
        return Stance(row.faction, sid(row.values.get("system")), row.values.get("dna") == "Y")

    def check(self, state: RaceOrders, order: Stance) -> Rejection | None:
        return None if order.system in state.snapshot.systems else unknown_system(order.system, "system")

    def carry_out(self, state: RaceOrders, order: Stance) -> Done:
        galaxy = state.galaxy
        if order.dna:
            galaxy.dna |= {u.id for u in galaxy.world.ships(order.system, order.race) if u.id not in galaxy.came_from}
        return Done(msg("Stance recorded for {system}.", system=order.system))
