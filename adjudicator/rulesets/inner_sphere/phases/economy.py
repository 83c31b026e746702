"""Phases 1–2, which the source leaves out (spec §9): income, upkeep, and the jumpships' 1-hex minimum.

Income = (Σ own systems' income × disputed factor + Σ working factories' income × (1 + IND%)) × (1 + ECO%).
Upkeep: every regiment, the current defence level of every own system; jumpships pay their minimum hex."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from adjudicator.engine.ledger import Amount
from adjudicator.i18n import msg
from adjudicator.rulesets.inner_sphere.data import Tariffs, bonuses
from adjudicator.rulesets.inner_sphere.orders.common import ECONOMY, JUMPSHIPS, Context, money, post
from adjudicator.rulesets.inner_sphere.state import World, amount


@dataclass(frozen=True)
class Income:
    systems: Amount
    factories: Amount
    factory_pct: int
    eco_pct: int

    @property
    def total(self) -> Amount:
        """Exact; never rounded (§0)."""
        share = Decimal(100 + self.factory_pct) / 100
        return amount((self.systems + self.factories * share) * Decimal(100 + self.eco_pct) / 100)


def research_bonuses(world: World, faction: str) -> dict[str, int]:
    return bonuses({line: pts for (f, line), pts in world.points.items() if f == faction},
                   {"research": world.research} if world.research else None)


def _restless(world: World, hex_: str) -> bool:
    """A system under civil or military discontent or in revolt (spec §9 item 5)."""
    u = world.unrest.get(hex_)
    return u is not None and (u.civil or u.military or u.revolt is not None)


def income_of(world: World, faction: str, tariffs: Tariffs, params: dict) -> Income:
    disputed, discontent = (Decimal(str(params.get(k, 1))) for k in ("disputed_income_factor",
                                                                      "discontent_income_factor"))
    held = {hex_: s for hex_, s in world.systems.items() if s.owner == faction}
    systems = sum(
        s.income * (disputed if s.disputed else 1) * (discontent if _restless(world, hex_) else 1)
        for hex_, s in held.items()
    )
    factories = sum(tariffs.factory_income[f.type] for f in world.factories.values()
                    if not f.damaged and f.system in held)
    extra = research_bonuses(world, faction)
    return Income(systems, factories, extra["factory_income_pct"], extra["income_pct"])


def regiment_upkeep(world: World, faction: str, tariffs: Tariffs) -> tuple[int, int]:
    """The upkeep of a state's regiments, and how many they are (one pass over every regiment)."""
    types = [r.type for r in world.regiments.values() if r.owner == faction]
    return sum(tariffs.units[t].upkeep for t in types), len(types)


def defence_upkeep(world: World, faction: str, tariffs: Tariffs, params: dict) -> int:
    total = 0
    for system in world.systems.values():
        if system.owner != faction or system.defence <= 0:
            continue
        if params["defence_upkeep_mode"] == "cumulative":
            total += sum(tariffs.defences[n].upkeep for n in range(1, system.defence + 1))
        else:
            total += tariffs.defences[system.defence].upkeep
    return total


def ns_charge(per_hex: Amount, steps: int) -> Amount:
    """A jumpship pays its cost per hex for every step of its chain, and at least 1 hex (A8, §6.3)."""
    return per_hex * max(1, steps)


def collect(world: World, ctx: Context, faction: str) -> None:
    """Income, then upkeep, then the jumpships' minimum charge of one faction."""
    income = income_of(world, faction, ctx.tariffs, ctx.params)
    post(world, ctx, faction, income.total, ECONOMY,
         msg("Income: systems {systems} C, factories {factories} C (+{ind}%), economy +{eco}%.",
             systems=money(income.systems), factories=money(income.factories), ind=income.factory_pct,
             eco=income.eco_pct), "income")
    regiments, count = regiment_upkeep(world, faction, ctx.tariffs)
    post(world, ctx, faction, -regiments, ECONOMY, msg("Upkeep of {n} regiments.", n=count), "upkeep:regiments")
    defences = defence_upkeep(world, faction, ctx.tariffs, ctx.params)
    post(world, ctx, faction, -defences, ECONOMY, msg("Upkeep of aerospace defences."), "upkeep:defences")
    for ship in sorted((s for s in world.jumpships.values() if s.owner == faction), key=lambda s: s.id):
        charge = ns_charge(ctx.tariffs.ships[ship.cls].per_hex, 0)
        post(world, ctx, faction, -charge, JUMPSHIPS,
             msg("Jumpship {ship} ({cls}): minimum charge of 1 hex.", ship=ship.id, cls=ship.cls), f"ns:{ship.id}")
