"""Who sees which roll in Inner Sphere: the faction a roll belongs to, as the report's dice table shows it.

An operation's dice (its detection roll included) go to the faction that ordered it, never to its
target; espionage (353) dice stay with the GM, since they would tell a spy whether its report came
from a double agent; a recruit's roll goes to the faction whose job it is (``recruits:FACTION-…``).
"""

from __future__ import annotations

from collections.abc import Collection

from adjudicator.dice_visibility import factions_named

GM_ONLY = ("agency:353:",)


def roll_viewers(purposes: list[str], factions: Collection[str]) -> dict[str, set[str]]:
    seen: dict[str, set[str]] = {}
    for purpose in purposes:
        if purpose.startswith(GM_ONLY):
            seen[purpose] = set()
            continue
        named = factions_named(purpose, factions)
        if purpose.startswith("recruits:"):
            named |= {f for f in factions if purpose.startswith(f"recruits:{f}-")}
        seen[purpose] = named
    return seen
