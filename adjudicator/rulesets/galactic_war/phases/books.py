"""The ledger of a turn: credits, and every race's units of each type in each system (and its docks)."""

from __future__ import annotations

from collections import Counter

from adjudicator.engine.ledger import Ledger
from adjudicator.i18n import Msg
from adjudicator.rulesets.galactic_war.state import World

Balances = dict[tuple[str, str], int]


def balances(world: World) -> Balances:
    """Every account of the galaxy counted afresh from its units, planets and credits."""
    out: Counter[tuple[str, str]] = Counter()
    for race, credits in world.credits.items():
        out[(race, "credits")] = credits
    for unit in world.units.values():
        out[(unit.race, f"{unit.type}@{unit.system}")] += 1
    out.update(_docks(world))
    return {k: v for k, v in out.items() if v or k[1] == "credits"}


def _is_units(account: tuple[str, str]) -> bool:
    return account[1] != "credits" and not account[1].startswith("DOCK@")


def _docks(world: World) -> Balances:
    return {(planet.owner, f"DOCK@{planet.id}"): 1 for planet in world.planets.values() if planet.dock and planet.owner}


class Books:
    """Posts, after each event, one ledger line for every account the event changed.

    The units' accounts are not counted again after every event (a turn of 40 races has thousands of events
    and thousands of units): the world's lookups count them as units come, go and move
    (:meth:`World.unit_lookups`), and say which accounts changed; credits and docks are few, and compared
    whole. When the lookups were made afresh (units changed straight in the dict), every account is compared."""

    def __init__(self, ledger: Ledger, world: World) -> None:
        self.ledger = ledger
        self.world = world
        lookups = world.unit_lookups()
        self.last = {(race, "credits"): credits for race, credits in world.credits.items()}
        self.last.update((account, n) for account, n in lookups.counts.items() if n)
        self.last.update(_docks(world))
        self.others = {k for k in self.last if not _is_units(k)}  # its credits' and docks' accounts
        lookups.take_changed()
        if World.verify_lookups:
            assert self.last == balances(world)

    def record(self, world: World, phase: str, cause: Msg, reference: str) -> None:
        changed = world.unit_lookups().take_changed()
        if changed is None or world is not self.world:
            now = balances(world)
            keys = set(now) | set(self.last)
        else:  # the accounts that may have changed, and their balances now
            counts = world.unit_lookups().counts
            now = {key: counts.get(key, 0) for key in changed}
            now.update({(race, "credits"): credits for race, credits in world.credits.items()})
            now.update(_docks(world))
            keys = {k for k in set(now) | self.others if now.get(k, 0) != self.last.get(k, 0)}
        for key in sorted(keys):
            balance = now.get(key, 0)
            change = balance - self.last.get(key, 0)
            if change:
                self.ledger.post(phase, key[0], key[1], change, balance, cause, reference)
            if balance or key[1] == "credits":
                self.last[key] = balance
            else:
                self.last.pop(key, None)
            if not _is_units(key):
                (self.others.add if key in self.last else self.others.discard)(key)
        if World.verify_lookups:
            assert self.last == balances(world), reference
