"""Who is shown a roll: the rule every ruleset starts from, and helpers for the rulesets' own rules.

A faction's results carry the proof of exactly the rolls it is shown (:meth:`Ruleset.roll_viewers`),
so fog of war holds for the dice too: a proof reveals its purpose and value to whoever holds it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable


def parts(purpose: str) -> list[str]:
    return purpose.split(":")


def factions_named(purpose: str, factions: Collection[str]) -> set[str]:
    """The factions whose ID is one of the ``:``-separated parts of ``purpose``."""
    return {part for part in parts(purpose) if part in factions}


def shared_by_group(purposes: Iterable[str], factions: Collection[str], width: int) -> dict[str, set[str]]:
    """Every roll seen by all the factions named in any roll of its group (the purposes that share their
    first ``width`` parts: e.g. every round and shot of one battle)."""
    groups: dict[tuple[str, ...], set[str]] = {}
    chosen = list(purposes)
    for purpose in chosen:
        groups.setdefault(tuple(parts(purpose)[:width]), set()).update(factions_named(purpose, factions))
    return {purpose: set(groups[tuple(parts(purpose)[:width])]) for purpose in chosen}
