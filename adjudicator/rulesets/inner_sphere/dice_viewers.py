"""Who sees which roll in Inner Sphere: the faction a roll belongs to, as the report's dice table shows it.

An operation's dice (its detection roll included) go to the faction that ordered it, never to its
target; espionage (353) dice stay with the GM, since they would tell a spy whether its report came
from a double agent; a recruit's roll goes to the faction whose job it is (``recruits:FACTION-…``).
"""

from __future__ import annotations

from collections.abc import Collection

from adjudicator.dice.visibility import factions_named
from adjudicator.i18n import Msg, msg

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


def roll_label(purpose: str) -> Msg | str:
    """What the roll decides, in words."""
    kind, *rest = purpose.split(":")
    if kind == "agency" and len(rest) >= 3:
        op, _, row, *detail = rest
        if detail:
            return msg("Agency operation {op} of order row {row}: {detail}", op=op, row=row, detail=":".join(detail))
        return msg("Agency operation {op} of order row {row}", op=op, row=row)
    if kind == "research" and len(rest) == 2:
        return msg("Research dice of line {line}", line=rest[1])
    if kind == "icna" and len(rest) == 2:
        return msg("ICNA roll of order row {row}", row=rest[1].removeprefix("row"))
    if kind == "new_factory" and len(rest) == 2:
        return msg("New factory attempt in {system}", system=rest[1])
    if kind == "accident" and len(rest) == 3:
        return msg("Jump accident roll of {ship} at step {step}", ship=rest[1], step=rest[2].removeprefix("step"))
    if kind == "recruits" and len(rest) == 1:
        return msg("Training of the recruits {job}", job=rest[0])
    return purpose
