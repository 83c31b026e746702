"""Placement of new units (§6.4): the Rulers' purchases placed at Space Docks (P01–P04)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.i18n import N_, Msg, msg
from adjudicator.rulesets.galactic_war.phases.books import Books
from adjudicator.rulesets.galactic_war.state import Unit, World, sid

PHASE = N_("placement")
PLANETARY = ("GF", "PDS")


@dataclass
class Placement:
    row: int
    race: str
    type: str
    count: int
    planet: str
    placed: list[str]
    problem: tuple[str, Msg] | None = None


def place_all(world: World, snapshot: World, rows: list[tuple[int, dict[str, Any]]], turn: int,
              params: dict[str, Any], dna: set[str], books: Books) -> list[Placement]:
    used: dict[str, int] = {}
    out = []
    for row, values in rows:
        race, kind, count, planet_id = sid(values.get("race")), str(values.get("type")), int(values["count"]), \
            sid(values.get("planet"))
        result = Placement(row, race, kind, count, planet_id, [])
        planet = world.planets.get(planet_id)
        if kind == "DOCK":
            if planet is None or planet.owner != race or planet.dock:
                result.problem = ("P04", msg("A new Space Dock needs a friendly planet without a dock."))
            else:
                planet.dock, planet.dock_built = True, turn
                result.placed.append(planet_id)
        elif planet is None or not planet.dock or planet.owner != race or planet.dock_built == turn:
            result.problem = ("P01", msg("Dock on {planet} cannot produce this turn.", planet=planet_id))
        else:
            limit = planet.resources + int(params["production_bonus"])
            if used.get(planet_id, 0) + count > limit:
                result.problem = ("P02", msg("Dock on {planet} may produce {r} units; {n} ordered.", planet=planet_id,
                                             r=limit, n=used.get(planet_id, 0) + count))
            elif kind not in PLANETARY and blockaded(world, planet.system, race, params, dna):
                result.problem = ("P03", msg("Dock on {planet} is blockaded; space units cannot be placed.",
                                             planet=planet_id))
            else:
                used[planet_id] = used.get(planet_id, 0) + count
                for _ in range(count):
                    unit = Unit(world.next_id(race, kind), race, kind, planet.system,
                                planet_id if kind in PLANETARY else "")
                    world.add_unit(unit)
                    result.placed.append(unit.id)
        if result.placed:
            books.record(world, PHASE, msg("New units placed at {planet}.", planet=planet_id), f"purchases:row {row}")
        out.append(result)
    return out


def blockaded(world: World, system: str, race: str, params: dict[str, Any], dna: set[str]) -> bool:
    """Ships of another race in the dock's system (with 'Do not attack' too, by default; G20)."""
    others = [u for u in world.ships(system) if u.race != race]
    if not params["blockade_includes_dna"]:
        others = [u for u in others if u.id not in dna]
    return bool(others)
