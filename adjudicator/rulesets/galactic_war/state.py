"""The galaxy between turns, as plain values: systems, planets, units, races, unit statistics."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adjudicator.engine import rules_data
from adjudicator.engine.plain_copy import BuiltOnce, plain_copy
from adjudicator.engine.row_table import table_rows
from adjudicator.engine.sheets import state_rows

if TYPE_CHECKING:  # pandas is imported where the tables after a turn are made: checking orders needs none
    import pandas as pd

PACKAGE = "adjudicator.rulesets.galactic_war"  # the data package: tables.toml

SHIP_CLASSES = ("ship", "fighter")
TECHS = ("ASSAULT_CANNON", "ANTIGRAVITON")


def sid(value: Any) -> str:
    """System, planet and unit IDs are the GM's; they are compared without case or surrounding spaces."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip().upper()


def split_list(text: Any) -> list[str]:
    return [sid(p) for p in re.split(r"[,;\s]+", str(text or "")) if p.strip()]


@dataclass(frozen=True)
class UnitStats:
    type: str
    cls: str
    combat: int
    move: int
    capacity: int
    enabled: bool

    @property
    def is_ship(self) -> bool:
        return self.cls in SHIP_CLASSES


def default_stats(changes: Any = None) -> dict[str, UnitStats]:
    """The statistics of each unit type: the units table of tables.toml, with the campaign's changes (rows of
    the Rule tables sheet) applied."""
    units = rules_data.table(PACKAGE, "units", changes)
    return {k: UnitStats(k, v["class"], int(v["combat"]), int(v["move"]), int(v["capacity"]), bool(v["enabled"]))
            for k, v in units.items()}


@dataclass(frozen=True)
class System:
    id: str
    neighbours: frozenset[str]
    wormhole: str = "NONE"


@dataclass
class Planet:
    id: str
    system: str
    resources: int
    owner: str = ""
    dock: bool = False
    dock_built: int | None = None


@dataclass
class Unit:
    id: str
    race: str
    type: str
    system: str
    planet: str = ""
    aboard: str = ""


@dataclass
class World:
    systems: dict[str, System]
    planets: dict[str, Planet]
    units: dict[str, Unit]
    credits: dict[str, int]
    techs: dict[str, set[str]]
    stats: dict[str, UnitStats]
    params: dict[str, Any] = field(default_factory=dict)

    #: Tests set this: every lookup of units by system or by carrier is then compared with a scan of all the
    #: units, and the books' accounts with a count of them (``tests/galactic_war/conftest.py``).
    verify_lookups = False

    def copy(self) -> World:
        """A galaxy of its own: the same values as ``copy.deepcopy`` gives, made field by field (a check copies
        the galaxy for every race). Its lookups, when true of this galaxy, are copied with it: they hold IDs
        and counts only, and copying them costs a tenth of making them from the units (a check's copies are
        handed the start galaxy's, made once: :func:`start_world`)."""
        kept = self.__dict__.pop(_LOOKUPS, None)
        try:
            twin = plain_copy(self)
        finally:
            if kept is not None:
                self.__dict__[_LOOKUPS] = kept
        if kept is not None and kept.units is self.units and kept.size == len(self.units):
            twin.__dict__[_LOOKUPS] = kept.copy_for(twin.units)
        return twin

    # ------------------------------------------------------- units' changes
    # A unit changes its system or its carrier, comes or goes, through these: they keep the lookups of units
    # by system and by carrier, and the count of each race's units of each type in each system (the books'
    # accounts), up to date. Units added to or taken from ``units`` straight are seen by their number: the
    # lookups are made again (one straight in and one straight out between two lookups would not be seen).
    def add_unit(self, unit: Unit) -> None:
        self.units[unit.id] = unit
        lookups = self._held_lookups(before=-1)
        if lookups is not None:
            lookups.add(unit)

    def remove_unit(self, unit_id: str) -> Unit | None:
        unit = self.units.pop(unit_id, None)
        lookups = self._held_lookups(before=+1 if unit is not None else 0)
        if lookups is not None and unit is not None:
            lookups.remove(unit)
        return unit

    def move_unit(self, unit: Unit, system: str) -> None:
        self._set(unit, "system", system)

    def set_carrier(self, unit: Unit, carrier: str) -> None:
        """``unit`` aboard ``carrier`` ("": aboard nothing)."""
        self._set(unit, "aboard", carrier)

    def _set(self, unit: Unit, name: str, value: str) -> None:
        lookups = self._held_lookups()
        if lookups is not None:
            lookups.remove(unit)
        setattr(unit, name, value)
        if lookups is not None:
            lookups.add(unit)

    def unit_lookups(self) -> UnitLookups:
        """The lookups of units by system and by carrier, and the accounts' counts (made when first asked, and
        again whenever ``units`` is another dict or holds another number of units than they were kept for)."""
        lookups = self.__dict__.get(_LOOKUPS)
        if lookups is None or lookups.units is not self.units or lookups.size != len(self.units):
            lookups = self.__dict__[_LOOKUPS] = UnitLookups(self.units)
        return lookups

    def _held_lookups(self, before: int = 0) -> UnitLookups | None:
        """The lookups to keep up to date with a change just made to ``units``, if they are held and were true
        before it (else they are dropped, to be made again when asked): ``before`` is the change's own part in
        the number of units, the lookups kept for one more (+1, a unit taken away) or one fewer (-1, added)."""
        lookups = self.__dict__.get(_LOOKUPS)
        if lookups is None or lookups.units is not self.units or lookups.size != len(self.units) + before:
            self.__dict__.pop(_LOOKUPS, None)
            return None
        lookups.size = len(self.units)
        return lookups

    # ------------------------------------------------------------------ map
    def neighbours(self, system: str, wormholes: bool) -> set[str]:
        here = self.systems[system]
        out = set(here.neighbours)
        if wormholes and here.wormhole != "NONE":
            out |= {s.id for s in self.systems.values() if s.wormhole == here.wormhole and s.id != system}
        return out

    def adjacent(self, a: str, b: str, wormholes: bool) -> bool:
        return b in self.neighbours(a, wormholes)

    def planets_in(self, system: str) -> list[Planet]:
        return sorted((p for p in self.planets.values() if p.system == system), key=lambda p: p.id)

    # ---------------------------------------------------------------- units
    def stat(self, unit_type: str) -> UnitStats:
        return self.stats[unit_type]

    def capacity(self, unit_type: str) -> int:
        """Units one ship of the type carries: the capacity of its row of the units table (the Rule tables sheet
        changes it; for a Transport, G21)."""
        return self.stats[unit_type].capacity

    def in_system(self, system: str) -> list[Unit]:
        found = [self.units[i] for i in sorted(self.unit_lookups().by_system.get(system, ()))]
        if self.verify_lookups:
            assert found == sorted((u for u in self.units.values() if u.system == system), key=lambda u: u.id), system
        return found

    def ships(self, system: str, race: str | None = None) -> list[Unit]:
        """Space units (ships and Fighters, aboard or not) in ``system``."""
        return [u for u in self.in_system(system) if self.stat(u.type).is_ship and not u.planet
                and (race is None or u.race == race)]

    def races_with_ships(self, system: str) -> set[str]:
        return {u.race for u in self.ships(system)}

    def cargo(self, transport: str) -> list[Unit]:
        found = [self.units[i] for i in sorted(self.unit_lookups().by_carrier.get(transport, ()))] if transport else \
            sorted((u for u in self.units.values() if not u.aboard), key=lambda u: u.id)
        if self.verify_lookups:
            assert found == sorted((u for u in self.units.values() if u.aboard == transport), key=lambda u: u.id)
        return found

    def count(self, race: str, unit_type: str, system: str) -> int:
        return sum(1 for u in self.units.values() if u.race == race and u.type == unit_type and u.system == system)

    def has_tech(self, race: str, tech: str) -> bool:
        return tech in self.techs.get(race, set())

    def owns_planet_in(self, race: str, system: str) -> bool:
        return any(p.owner == race for p in self.planets_in(system))

    def next_id(self, race: str, unit_type: str) -> str:
        prefix = f"{race}-{ABBREVIATIONS.get(unit_type, unit_type[:2])}"
        used = [int(u.id[len(prefix):]) for u in self.units.values()
                if u.id.startswith(prefix) and u.id[len(prefix):].isdigit()]
        return f"{prefix}{max(used, default=0) + 1}"


_LOOKUPS = "_unit_lookups"  # the key of a world's UnitLookups in its __dict__ (not a field: never compared)


class UnitLookups:
    """The units of one ``units`` dict by system and by carrier, and the count of each (race, "TYPE@system")
    account; with the accounts changed since :meth:`take_changed` last gave them (None: every account, as when
    the lookups were made from the units afresh)."""

    def __init__(self, units: dict[str, Unit]) -> None:
        self.units = units
        self.size = len(units)
        self.by_system: dict[str, set[str]] = {}
        self.by_carrier: dict[str, set[str]] = {}
        self.counts: dict[tuple[str, str], int] = {}
        self.changed: set[tuple[str, str]] | None = None
        for unit in units.values():
            self.add(unit)
        self.changed = None

    def add(self, unit: Unit) -> None:
        self.by_system.setdefault(unit.system, set()).add(unit.id)
        if unit.aboard:
            self.by_carrier.setdefault(unit.aboard, set()).add(unit.id)
        account = (unit.race, f"{unit.type}@{unit.system}")
        self.counts[account] = self.counts.get(account, 0) + 1
        if self.changed is not None:
            self.changed.add(account)

    def remove(self, unit: Unit) -> None:
        self.by_system.get(unit.system, set()).discard(unit.id)
        if unit.aboard:
            self.by_carrier.get(unit.aboard, set()).discard(unit.id)
        account = (unit.race, f"{unit.type}@{unit.system}")
        self.counts[account] -= 1
        if self.changed is not None:
            self.changed.add(account)

    def copy_for(self, units: dict[str, Unit]) -> UnitLookups:
        """These lookups for ``units``, a copy of the dict they were kept for (every account changed, as when
        made afresh)."""
        twin = object.__new__(UnitLookups)
        twin.units, twin.size = units, self.size
        twin.by_system = {system: set(ids) for system, ids in self.by_system.items()}
        twin.by_carrier = {carrier: set(ids) for carrier, ids in self.by_carrier.items()}
        twin.counts = dict(self.counts)
        twin.changed = None
        return twin

    def take_changed(self) -> set[tuple[str, str]] | None:
        """The accounts changed since the last call (None: any may have), and from now on none."""
        changed, self.changed = self.changed, set()
        return changed


ABBREVIATIONS = {"CRUISER": "CR", "TRANSPORT": "TR", "DREADNOUGHT": "DN", "FIGHTER": "FT", "GF": "GF", "PDS": "PDS",
                 "DESTROYER": "DS", "WAR_SUN": "WS"}


def parse_techs(text: Any) -> set[str]:
    """``"Штурмовое орудие, antigraviton"`` → the technologies' codes (their names in any language)."""
    from adjudicator.i18n import fold
    from adjudicator.rulesets.galactic_war.vocabulary import tech_spellings

    spellings = tech_spellings()
    found = set()
    for part in re.split(r"[,;]+", str(text or "")):
        word = fold(part)
        found |= {tech for tech, words in spellings.items() if word and word in words}
    return found


def world_from_tables(tables: dict[str, pd.DataFrame], params: dict[str, Any]) -> World:
    systems: dict[str, System] = {}
    links: dict[str, set[str]] = {}
    for row in state_rows(tables, "systems"):
        s = sid(row["system"])
        links.setdefault(s, set()).update(split_list(row.get("neighbours")))
        systems[s] = System(s, frozenset(), str(row.get("wormhole") or "NONE"))
    for s, others in list(links.items()):  # adjacency is symmetric
        for o in others:
            if o in systems:
                links.setdefault(o, set()).add(s)
    systems = {s: System(s, frozenset(o for o in links.get(s, set()) if o in systems and o != s), v.wormhole)
               for s, v in systems.items()}
    planets = {}
    for row in state_rows(tables, "planets"):
        p = sid(row["planet"])
        planets[p] = Planet(p, sid(row["system"]), int(row.get("resources") or 0), sid(row.get("owner")),
                            row.get("dock") == "Y", int(row["dock_built"]) if row.get("dock_built") else None)
    units = {}
    for row in state_rows(tables, "units"):
        u = sid(row["id"])
        units[u] = Unit(u, sid(row["race"]), str(row["type"]), sid(row["system"]), sid(row.get("planet")),
                        sid(row.get("aboard")))
    credits = {sid(r["id"]): int(r.get("credits") or 0) for r in state_rows(tables, "factions")}
    techs = {sid(r["id"]): parse_techs(r.get("techs")) for r in state_rows(tables, "factions")}
    stats = default_stats(table_rows(tables, "rule_tables"))
    return World(systems, planets, units, credits, techs, stats, dict(params))


def world_to_tables(world: World, factions: pd.DataFrame, rule_tables: pd.DataFrame | None,
                    systems: pd.DataFrame | None) -> dict[str, pd.DataFrame]:
    import pandas as pd

    factions = factions.copy()
    factions["credits"] = [world.credits.get(sid(f), 0) for f in factions["id"]]
    planets = pd.DataFrame(
        [{"planet": p.id, "system": p.system, "resources": p.resources, "owner": p.owner or None,
          "dock": "Y" if p.dock else None, "dock_built": p.dock_built if p.dock else None}
         for p in sorted(world.planets.values(), key=lambda p: p.id)],
        columns=["planet", "system", "resources", "owner", "dock", "dock_built"])
    units = pd.DataFrame(
        [{"id": u.id, "race": u.race, "type": u.type, "system": u.system, "planet": u.planet or None,
          "aboard": u.aboard or None} for u in sorted(world.units.values(), key=lambda u: (u.race, u.id))],
        columns=["id", "race", "type", "system", "planet", "aboard"])
    out = {"factions": factions, "planets": planets, "units": units}
    if systems is not None:
        out["systems"] = systems
    if rule_tables is not None:
        out["rule_tables"] = rule_tables
    return out


def _start(tables: dict[str, pd.DataFrame], params: dict[str, Any]) -> World:
    world = world_from_tables(tables, params)
    world.unit_lookups()  # once, for every race's copy
    return world


_START = BuiltOnce(_start)


def start_world(tables: dict[str, pd.DataFrame], params: dict[str, Any]) -> World:
    """The galaxy of ``tables`` under ``params`` (see :func:`world_from_tables`), built once for as long as the
    very same frames and parameters are asked about (a check asks for every race; an order workbook's example
    rows are checked again and again), and SHARED: read it, or ``copy()`` it before changing anything."""
    return _START(tables, params)

