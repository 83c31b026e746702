"""Who sees which roll in Galactic War: every race in a space battle or an invasion sees all of its dice
(the report's battle and invasion rounds list both sides' shots); a tie-break roll, the races it names."""

from __future__ import annotations

from collections.abc import Collection

from adjudicator.dice.visibility import factions_named, shared_by_group
from adjudicator.i18n import N_, Msg, msg

#: Purposes whose rolls are shared by the group of their first N parts: battle:SYSTEM:NUMBER,
#: invasion:PLANET:INVADER:ROW (the defender is named in the defender's shots).
GROUPS = {"battle": 3, "invasion": 4}


def roll_viewers(purposes: list[str], factions: Collection[str]) -> dict[str, set[str]]:
    seen = {p: factions_named(p, factions) for p in purposes}
    for kind, width in GROUPS.items():
        seen.update(shared_by_group([p for p in purposes if p.split(":")[0] == kind], factions, width))
    return seen


#: An invasion's stages as their keys name them (phases/invasion.py): the bombardment, the PDS' fire, rounds r1….
INVASION_STAGES = {"bombard": N_("bombardment"), "pds": N_("PDS fire")}


def invasion_stage(stage: str) -> Msg | str:
    """An invasion stage's words: "bombardment", "PDS fire", "round 2"; the key itself when it is unknown."""
    if stage in INVASION_STAGES:
        return msg(INVASION_STAGES[stage])
    if stage.startswith("r") and stage[1:].isdigit():
        return msg("round {n}", n=stage[1:])
    return stage


def roll_label(purpose: str) -> Msg | str:
    """What the roll decides, in words."""
    kind, *rest = purpose.split(":")
    if kind == "battle" and len(rest) == 5:
        system, number, round_no, race, unit = rest
        return msg("Space battle {battle} in system {system}, round {round}: shot of {race}'s {unit}",
                   battle=number, system=system, round=round_no.removeprefix("r"), race=race, unit=unit)
    if kind == "battle-order" and len(rest) == 2:
        return msg("Order of battle in system {system}: tie roll of {race}", system=rest[0], race=rest[1])
    if kind == "invasion" and len(rest) == 6:
        planet, race, row, stage, who, unit = rest
        return msg("Invasion of {planet} by {race} (order row {row}), {stage}: shot of {who}'s {unit}",
                   planet=planet, race=race, row=row, stage=invasion_stage(stage), who=who, unit=unit)
    if kind == "invasion-order" and len(rest) == 3:
        return msg("Order of the landings on {planet}: tie roll of {race} (order row {row})", planet=rest[0],
                   race=rest[1], row=rest[2])
    return purpose
