"""The end of the Movement segment: Fighters beyond their race's Transport room are lost (with
``enforce_fighter_capacity``), once every race's moves are carried out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.i18n import msg
from adjudicator.rulesets.galactic_war.orders.move import MOVEMENT
from adjudicator.rulesets.galactic_war.phases.books import Books
from adjudicator.rulesets.galactic_war.state import World


def lose_fighters_without_room(world: World, params: Mapping[str, Any], books: Books) -> None:
    """Fighters beyond their race's Transport room, in a system without a dock of that race, are lost."""
    if not params["enforce_fighter_capacity"]:
        return
    for system in sorted(world.systems):
        for race in sorted(world.races_with_ships(system)):
            if any(p.dock and p.owner == race for p in world.planets_in(system)):
                continue
            ships = world.ships(system, race)
            room = sum(world.capacity(u.type) for u in ships if u.type in ("TRANSPORT", "WAR_SUN"))
            others = sum(1 for u in world.in_system(system) if u.race == race and u.aboard
                         and u.type in ("GF", "PDS"))
            fighters = [u for u in ships if u.type == "FIGHTER"]
            for unit in fighters[: max(0, len(fighters) - max(0, room - others))]:
                world.remove_unit(unit.id)
            books.record(world, MOVEMENT, msg("Fighters without Transport room are lost in {system}.",
                                              system=system), f"fighters:{system}")
