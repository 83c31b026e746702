"""The ledger of a turn: credits, and every race's units of each type in each system (and its docks)."""

from __future__ import annotations

from collections import Counter

from adjudicator.engine.ledger import Ledger
from adjudicator.i18n import Msg
from adjudicator.rulesets.galactic_war.state import World

Balances = dict[tuple[str, str], int]


def balances(world: World) -> Balances:
    out: Counter[tuple[str, str]] = Counter()
    for race, credits in world.credits.items():
        out[(race, "credits")] = credits
    for unit in world.units.values():
        out[(unit.race, f"{unit.type}@{unit.system}")] += 1
    for planet in world.planets.values():
        if planet.dock and planet.owner:
            out[(planet.owner, f"DOCK@{planet.id}")] += 1
    return {k: v for k, v in out.items() if v or k[1] == "credits"}


class Books:
    """Posts, after each event, one ledger line for every account the event changed."""

    def __init__(self, ledger: Ledger, world: World) -> None:
        self.ledger = ledger
        self.last = balances(world)

    def record(self, world: World, phase: str, cause: Msg, reference: str) -> None:
        now = balances(world)
        for key in sorted(set(now) | set(self.last)):
            change = now.get(key, 0) - self.last.get(key, 0)
            if change:
                self.ledger.post(phase, key[0], key[1], change, now.get(key, 0), cause, reference)
        self.last = now
