"""Who sees which roll in Coordinated Orders: the report's Rolls table shows every roll of the turn to
both players, but a Camouflaged Marker's rolls under its marker only; the purpose names the trooper, so
the roll of a trooper that starts the turn as a Camouflaged Marker goes to its owner alone."""

from __future__ import annotations

from typing import Any

from adjudicator.rulesets.coordinated_orders.state import game_from_tables


def roll_viewers(purposes: list[str], tables: dict[str, Any], factions: list[str]) -> dict[str, set[str]]:
    troopers = game_from_tables(tables).troopers
    seen: dict[str, set[str]] = {}
    for purpose in purposes:
        owner, *_, trooper = purpose.split(":")
        hidden = trooper not in troopers or troopers[trooper].deployment == "CAMO_MARKER"
        seen[purpose] = {owner} & set(factions) if hidden else set(factions)
    return seen
