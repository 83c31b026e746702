"""The battle plan (§4.3): the owner's in-battle decisions declared in advance, and the order in which a
side loses its units, built once for the engine and the odds alike."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.i18n import fold
from adjudicator.rulesets.galactic_war.combat import Condition, Member, PlanError, parse_retreat
from adjudicator.rulesets.galactic_war.schemas import UNIT_TYPES
from adjudicator.rulesets.galactic_war.state import Unit, UnitStats, sid, split_list

#: Default casualty order: cheapest first (G11).
DEFAULT_SPACE = ("FIGHTER", "DESTROYER", "CRUISER", "TRANSPORT", "DREADNOUGHT", "WAR_SUN")
DEFAULT_GROUND = ("FIGHTER", "GF")


def type_lookup() -> dict[str, str]:
    table: dict[str, str] = {}
    for choice in UNIT_TYPES:
        from adjudicator.i18n import all_spellings

        for word in all_spellings(choice.label, (choice.code, *choice.synonyms)):
            table[word] = choice.code
    return table


_TYPES: dict[str, str] = {}


def unit_type_of(word: str) -> str | None:
    if not _TYPES:
        _TYPES.update(type_lookup())
    return _TYPES.get(fold(word))


def parse_priority(text: Any) -> list[str]:
    """``"Fighter > Cruiser > DN-3"`` → ``["FIGHTER", "CRUISER", "DN-3"]`` (types as codes, other words as IDs)."""
    out = []
    for part in str(text or "").replace(">", ",").replace(";", ",").split(","):
        word = part.strip()
        if word:
            out.append(unit_type_of(word) or sid(word))
    return out


@dataclass
class BattlePlan:
    space: list[str] = field(default_factory=list)
    ground: list[str] = field(default_factory=list)
    retreat_if: tuple[Condition, ...] = ()
    retreat_to: list[str] = field(default_factory=list)


@dataclass
class PlanBook:
    """A race's plans: the ALL row and the rows for single systems."""

    default: BattlePlan = field(default_factory=BattlePlan)
    systems: dict[str, BattlePlan] = field(default_factory=dict)

    def for_system(self, system: str) -> BattlePlan:
        return self.systems.get(system, self.default)


def read_plan(values: dict[str, Any]) -> tuple[BattlePlan, list[tuple[str, str]]]:
    """A plan row; malformed fields fall back to their default and are returned as (column, bad text)."""
    bad = []
    plan = BattlePlan(parse_priority(values.get("space_casualties")), parse_priority(values.get("ground_casualties")))
    try:
        plan.retreat_if = parse_retreat(values.get("retreat_if"))
    except PlanError as error:
        bad.append(("retreat_if", str(error)))
    plan.retreat_to = split_list(values.get("retreat_to"))
    return plan, bad


def order_units(units: Iterable[Unit], priority: Sequence[str], default: Sequence[str],
                within: dict[str, int] | None = None) -> list[Unit]:
    """Units in the order they are lost: the first entry of the list (an ID or a type) that names a unit
    ranks it; types the list leaves out follow in the default order; Transports with less cargo first."""
    entries = [*priority, *default]
    within = within or {}

    def rank(unit: Unit) -> tuple[int, int, str]:
        for index, entry in enumerate(entries):
            if entry == unit.id or entry == unit.type:
                return index, within.get(unit.id, 0), unit.id
        return len(entries), within.get(unit.id, 0), unit.id

    return sorted(units, key=rank)


def space_members(units: Iterable[Unit], stats: dict[str, UnitStats], plan: BattlePlan, params: dict[str, Any],
                  cargo: dict[str, int], capacity: int) -> tuple[Member, ...]:
    """A side's space units in the order it loses them (Sustain Damage absorbers first, G14)."""
    ordered = order_units(units, plan.space, DEFAULT_SPACE, cargo)
    count_fighters = bool(params["count_fighters"])
    no_fighter_trophy = bool(params["trophy_excludes_fighters"])
    members = []
    if params["sustain_damage"]:
        members += [Member(f"{u.id}:damage", u.type, None, absorber=True, trophy=False)
                    for u in ordered if u.type == "DREADNOUGHT"]
    for u in ordered:
        fighter = u.type == "FIGHTER"
        room = max(0, capacity - cargo.get(u.id, 0)) if u.type == "TRANSPORT" else (
            stats[u.type].capacity if u.type == "WAR_SUN" else 0)
        members.append(Member(u.id, u.type, stats[u.type].combat, is_ship=count_fighters or not fighter,
                              fighter=fighter, trophy=not (fighter and no_fighter_trophy), room=room))
    return tuple(members)


def ground_members(units: Iterable[Unit], stats: dict[str, UnitStats], priority: Sequence[str]) -> tuple[Member, ...]:
    ordered = order_units(units, priority, DEFAULT_GROUND)
    return tuple(Member(u.id, u.type, stats[u.type].combat, is_ship=False, fighter=u.type == "FIGHTER",
                        trophy=False, ground=u.type == "GF") for u in ordered)
