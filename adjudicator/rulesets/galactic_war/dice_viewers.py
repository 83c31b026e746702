"""Who sees which roll in Galactic War: every race in a space battle or an invasion sees all of its dice
(the report's battle and invasion rounds list both sides' shots); a tie-break roll, the races it names."""

from __future__ import annotations

from collections.abc import Collection

from adjudicator.dice_visibility import factions_named, shared_by_group

#: Purposes whose rolls are shared by the group of their first N parts: battle:SYSTEM:NUMBER,
#: invasion:PLANET:INVADER:ROW (the defender is named in the defender's shots).
GROUPS = {"battle": 3, "invasion": 4}


def roll_viewers(purposes: list[str], factions: Collection[str]) -> dict[str, set[str]]:
    seen = {p: factions_named(p, factions) for p in purposes}
    for kind, width in GROUPS.items():
        seen.update(shared_by_group([p for p in purposes if p.split(":")[0] == kind], factions, width))
    return seen
