"""Who sees which roll in Coordinated Orders: the report's Rolls table shows every roll of the turn to
both players, but a Camouflaged Marker's rolls under its marker only; the purpose names the trooper, so
the roll of a trooper that starts the turn as a Camouflaged Marker goes to its owner alone."""

from __future__ import annotations

from typing import Any

from adjudicator.i18n import Msg, msg
from adjudicator.rulesets.coordinated_orders.state import game_from_tables


def roll_viewers(purposes: list[str], tables: dict[str, Any], factions: list[str]) -> dict[str, set[str]]:
    troopers = game_from_tables(tables).troopers
    seen: dict[str, set[str]] = {}
    for purpose in purposes:
        owner, *_, trooper = purpose.split(":")
        hidden = trooper not in troopers or troopers[trooper].deployment == "CAMO_MARKER"
        seen[purpose] = {owner} & set(factions) if hidden else set(factions)
    return seen


def roll_label(purpose: str) -> Msg | str:
    """What the roll decides, in words."""
    parts = purpose.split(":")
    if len(parts) == 4 and parts[2].startswith("skill"):
        return msg("CO {co}, skill {k}: roll of {trooper}", co=parts[1], k=parts[2].removeprefix("skill"),
                   trooper=parts[3])
    if len(parts) == 4 and parts[2] == "aro":
        return msg("CO {co}: ARO roll of {trooper}", co=parts[1], trooper=parts[3])
    return purpose
