"""The squares a faction's order workbook offers in its dropdowns: those it can legally name, not the whole map.

``Square`` (MOVE's origin, BUILD, DISBAND): the squares of its own fleets at the start of the turn and the
squares it may build in (by ``build_rule``: fully controlled or own-fleet squares are among its fleets'; with
``GM_LIST``, the squares that list it as a builder). ``To`` (MOVE's destination): every passable square within
``max_steps`` orthogonal steps of its fleets. What the adjudicator accepts is always in the list (each of
those orders checks against the same snapshot); the list grows with the faction, not with the map.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.rulesets.star_sectors.state import World

_INDEX: list[Any] = []  # (the world, its squares by faction: fleets, builders), for the world last asked about


def _by_faction(world: World) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    if _INDEX and _INDEX[0] is world:
        return _INDEX[1]
    fleets: dict[str, set[str]] = {}
    for (faction, square), value in world.fleets.items():
        if value > 0:
            fleets.setdefault(faction, set()).add(square)
    builders: dict[str, set[str]] = {}
    for square in world.squares.values():
        if square.passable:
            for faction in square.builders:
                builders.setdefault(faction, set()).add(square.id)
    _INDEX[:] = [world, (fleets, builders)]
    return fleets, builders


def fleet_squares(world: World) -> dict[str, set[str]]:
    """The squares of each faction's fleets (a value above 0), indexed once a world."""
    return _by_faction(world)[0]


def square_lists(world: World, faction: str, params: Mapping[str, Any]) -> dict[str, list[str]]:
    """``{"square": […], "to": […]}`` for ``faction``, sorted as the map's squares are listed."""
    fleets, builders = _by_faction(world)
    own = {s for s in fleets.get(faction, set()) if s in world.squares}
    named = set(own)
    if params.get("build_rule") == "GM_LIST":
        named |= builders.get(faction.upper(), set())
    reach: set[str] = set()
    frontier = {s for s in own if world.squares[s].passable}
    for _ in range(int(params.get("max_steps", 1))):  # every square of a legal route is passable
        frontier = {n for s in frontier for n in world.neighbours(s) if world.squares[n].passable} - reach
        reach |= frontier
    return {"square": sorted(named), "to": sorted(reach)}
