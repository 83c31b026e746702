"""The Inner Sphere between turns, as plain values, and its conversion to and from the state tables.

Money is kept in C as exact amounts (``int``, or ``Decimal`` such as ``Decimal("31.25")``), never floats,
so that a 2.5 upkeep or a 31.25 repair reconcile exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from adjudicator.engine import rules_data
from adjudicator.engine.ledger import Amount, exact
from adjudicator.engine.plain_copy import BuiltOnce, plain_copy
from adjudicator.engine.row_table import table_rows
from adjudicator.engine.sheets import state_rows
from adjudicator.rulesets.inner_sphere.schemas import (
    COMMANDOS,
    FACTORIES,
    JOBS,
    JUMPSHIPS,
    KNOWN,
    LABS,
    LINE_ORDER,
    NEUTRAL,
    REGIMENTS,
    RESEARCH_POINTS,
    SALES,
    SYSTEMS,
    UNREST,
    UNREST_MODS,
)

if TYPE_CHECKING:  # pandas is imported where the tables after a turn are made: checking orders needs none
    import pandas as pd

PACKAGE = "adjudicator.rulesets.inner_sphere"  # the data package: tables.toml


def hex_id(value: Any) -> str:
    """``305``, ``"0305"``, ``" 0305 "`` → ``"0305"`` (XXYY, zero-padded)."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    if text.isdigit() and len(text) < 4:
        text = text.zfill(4)
    return text.upper()


def key(value: Any) -> str:
    return str(value or "").strip().upper()


def amount(value: Any) -> Amount:
    """A cell's number as an exact amount of C: ``2.5`` → ``Decimal("2.5")``, ``50.0`` → ``50``, blank → 0."""
    if value is None or value == "" or (isinstance(value, float) and value != value):  # value != value: NaN
        return 0
    return exact(value)


@dataclass
class System:
    hex: str
    name: str
    owner: str = ""
    disputed: bool = False
    income: Amount = 0
    defence: int = 0
    icna: bool = False


@dataclass
class Factory:
    id: str
    system: str
    type: str
    damaged: bool = False
    halted_until: int | None = None


@dataclass
class Regiment:
    id: str
    name: str
    owner: str
    type: str
    experience: str
    system: str = ""
    jumpship: str = ""
    damaged: bool = False


@dataclass
class Jumpship:
    id: str
    owner: str
    cls: str
    hex: str


@dataclass
class Job:
    """Something that takes turns: a regiment or defence level in production, a repair, a new factory."""

    id: str
    faction: str
    kind: str  # REGIMENT, DEFENCE, REPAIR, FACTORY_REPAIR, NEW_FACTORY
    system: str = ""
    factory: str = ""
    item: str = ""
    name: str = ""
    turns_left: int = 0
    ordered_turn: int = 0


@dataclass
class Sale:
    seller: str
    buyer: str
    line: str
    points: int
    effective_turn: int


@dataclass
class Commando:
    """An agent of ``owner``: in a system, or attached to a regiment that it follows (spec §1, §5 342)."""

    id: str
    owner: str
    system: str = ""
    regiment: str = ""
    established_turn: int = 0


@dataclass
class Unrest:
    """A system's unrest statuses (349–352): discontent, revolt severity and instigator, quiet, force only."""

    civil: bool = False
    military: bool = False
    revolt: int | None = None  # severity 0, 1 or 3
    instigator: str = ""
    quiet_until: int | None = None
    force_only: bool = False

    def empty(self) -> bool:
        return self == Unrest()


@dataclass
class World:
    systems: dict[str, System]
    treasury: dict[str, Amount]
    factories: dict[str, Factory] = field(default_factory=dict)
    regiments: dict[str, Regiment] = field(default_factory=dict)
    jumpships: dict[str, Jumpship] = field(default_factory=dict)
    jobs: list[Job] = field(default_factory=list)
    points: dict[tuple[str, str], int] = field(default_factory=dict)
    opened: set[tuple[str, str]] = field(default_factory=set)
    labs: dict[tuple[str, int], tuple[str, int | None]] = field(default_factory=dict)  # line, unlock_at
    sales: list[Sale] = field(default_factory=list)
    commandos: dict[str, Commando] = field(default_factory=dict)
    unrest: dict[str, Unrest] = field(default_factory=dict)
    unrest_mods: list[tuple[str, int, int, int]] = field(default_factory=list)  # hex, value, first, last turn
    known: set[tuple[str, str]] = field(default_factory=set)  # (faction, foreign regiment) names learned
    neutral: dict[str, str] = field(default_factory=dict)  # regiment → system it stays neutral in (352)
    #: The research levels of the campaign's rule tables (the Rule tables sheet laid over tables.toml).
    research: dict[str, list[dict[str, int]]] = field(default_factory=dict)

    def copy(self) -> World:
        """A world of its own: the same values as ``copy.deepcopy`` gives, made field by field (deepcopy's
        bookkeeping was most of the cost of a copy). The lookups by ID (factories by system, regiments by name)
        are handed to the copy when they are true of this world: they hold IDs only and are never changed once
        made, so the two share them until either changes. The jobs' lookup is not copied: the copy makes its
        own when it is asked."""
        return self._twin(())

    def for_orders(self) -> World:
        """A world for one state's orders in a ``check``: its systems, factories, regiments and jumpships are
        this world's own, read-only (:data:`READ_BY_ORDERS`), and the rest a copy of its own (as :meth:`copy`
        makes it). The orders only read those four (they change treasuries, jobs, research, labs and their
        plans: what a system, a factory, a regiment or a jumpship becomes is the turn's phases' work, in
        ``run``), so a check of 40 states no longer copies the Inner Sphere's thousands of them 40 times (issue
        16). A mapping of the four refuses any change (``TypeError``); their records are shared with this
        world, the start world every state of a check shares (:func:`start_world`):
        ``tests/inner_sphere/test_check_world.py`` checks that every kind of order leaves it as it was built."""
        return self._twin(READ_BY_ORDERS)

    def _twin(self, shared: tuple[str, ...]) -> World:
        """:meth:`copy`, the fields ``shared`` this world's own as read-only mappings (:meth:`for_orders`)."""
        kept = {name: self.__dict__.pop(name) for name in (*shared, *_LOOKUPS) if name in self.__dict__}
        try:
            twin = plain_copy(self)
        finally:
            self.__dict__.update(kept)
        for name in shared:
            twin.__dict__[name] = MappingProxyType(kept[name])
        for name, field_name in (("_factories_by_system", "factories"), ("_regiments_by_name", "regiments")):
            lookup = kept.get(name)
            mine, theirs = getattr(self, field_name), getattr(twin, field_name)
            if lookup is not None and lookup[0] is mine and lookup[1] == len(mine):
                twin.__dict__[name] = (theirs, len(theirs), lookup[2])
        return twin

    def make_lookups(self) -> None:
        """Make the lookups by ID now, for every copy to share (:meth:`copy`)."""
        self.factories_in("")
        self.regiments_named("")

    def owner(self, hex_: str) -> str:
        system = self.systems.get(hex_)
        return system.owner if system else ""

    def factories_in(self, hex_: str) -> list[Factory]:
        """The factories of a system, by ID (a lookup by system, made again whenever ``factories`` is another
        dict or holds another number of factories than it was made of, and dropped by :meth:`add_factory`
        and :meth:`remove_factory`: a factory never changes its system)."""
        lookup = self.__dict__.get("_factories_by_system")
        if lookup is None or lookup[0] is not self.factories or lookup[1] != len(self.factories):
            by_system: dict[str, list[str]] = {}
            for factory in sorted(self.factories.values(), key=lambda f: f.id):
                by_system.setdefault(factory.system, []).append(factory.id)
            lookup = self.__dict__["_factories_by_system"] = (self.factories, len(self.factories), by_system)
        return [self.factories[i] for i in lookup[2].get(hex_, ())]

    def regiments_named(self, name_key: str) -> list[Regiment]:
        """The regiments whose name's :func:`key` is ``name_key``, by ID (a lookup by name, made again whenever
        ``regiments`` is another dict or holds another number of regiments; each regiment found is checked to
        be still in the world under that name). The orders look regiments up before any is added (the end of
        the turn adds them): one taken away and one added between two lookups would not be seen."""
        lookup = self.__dict__.get("_regiments_by_name")
        if lookup is None or lookup[0] is not self.regiments or lookup[1] != len(self.regiments):
            by_name: dict[str, list[str]] = {}
            for regiment in sorted(self.regiments.values(), key=lambda r: r.id):
                by_name.setdefault(key(regiment.name), []).append(regiment.id)
            lookup = self.__dict__["_regiments_by_name"] = (self.regiments, len(self.regiments), by_name)
        found = [self.regiments.get(i) for i in lookup[2].get(name_key, ())]
        return [r for r in found if r is not None and key(r.name) == name_key]

    def add_factory(self, factory: Factory) -> None:
        """Add ``factory``; the lookup by system, if true of this world, is given it (a new lookup: a copy of
        this world may share the old one). Made again instead, it was a sort of every factory for each new one
        (a 40-state turn's 252 new factories: 0.17 s of CPU, now 0.03 s; growing as the square of the states)."""
        lookup = self.__dict__.pop("_factories_by_system", None)
        new = factory.id not in self.factories
        self.factories[factory.id] = factory
        if new and lookup is not None and lookup[0] is self.factories and lookup[1] == len(self.factories) - 1:
            self._factories_now(lookup[2], factory.system, [*lookup[2].get(factory.system, ()), factory.id])

    def remove_factory(self, factory_id: str) -> None:
        """Take the factory away; the lookup by system, if true of this world, made without it (as above)."""
        lookup = self.__dict__.pop("_factories_by_system", None)
        system = self.factories[factory_id].system
        del self.factories[factory_id]
        if lookup is not None and lookup[0] is self.factories and lookup[1] == len(self.factories) + 1:
            self._factories_now(lookup[2], system, [i for i in lookup[2].get(system, ()) if i != factory_id])

    def _factories_now(self, by_system: dict[str, list[str]], system: str, ids: list[str]) -> None:
        """The lookup by system as :meth:`factories_in` would make it again: ``by_system`` with ``system``'s
        factories ``ids`` (by ID, as there; none: no entry)."""
        changed = dict(by_system)
        if ids:
            changed[system] = sorted(ids)
        else:
            changed.pop(system, None)
        self.__dict__["_factories_by_system"] = (self.factories, len(self.factories), changed)

    def jobs_of(self, kind: str) -> list[Job]:
        return [j for j in self.jobs if j.kind == kind]

    def jobs_by(self, kind: str, field: str) -> dict[str, list[Job]]:
        """The jobs of ``kind`` by the value of their ``field`` ("item", "factory", "system"), each list in the
        order of ``jobs``; not to be changed. ``jobs`` is only ever appended to (or replaced whole), and a
        job's kind, system, factory and item never change: the lookup is kept between calls and given the jobs
        appended since (a check or a turn asks it for every order; a scan of every job was quadratic)."""
        lookups = self.__dict__.setdefault("_jobs_by", {})
        jobs = self.jobs
        kept = lookups.get((kind, field))
        if kept is None or kept[0] is not jobs or kept[1] > len(jobs):
            kept = (jobs, 0, {})
        _, seen, by_value = kept
        for job in jobs[seen:]:
            if job.kind == kind:
                by_value.setdefault(getattr(job, field), []).append(job)
        lookups[(kind, field)] = (jobs, len(jobs), by_value)
        return by_value

    def line_points(self, faction: str, line: str) -> int:
        return self.points.get((faction, line), 0)

    def where(self, commando: Commando) -> str:
        """The system a commando is in: its own, or its regiment's planet (blank while aboard a jumpship)."""
        if not commando.regiment:
            return commando.system
        regiment = self.regiments.get(commando.regiment)
        return "" if regiment is None or regiment.jumpship else regiment.system

    def status(self, hex_: str) -> Unrest:
        return self.unrest.setdefault(hex_, Unrest())

    def unrest_mod(self, hex_: str, turn: int) -> int:
        """U(S): the sum of the active unrest modifiers of a system (positive helps instigators)."""
        return sum(v for h, v, first, last in self.unrest_mods if h == hex_ and first <= turn <= last)


#: What a world keeps to look things up, made again when needed; a copy is handed those by ID only (World.copy).
_LOOKUPS = ("_factories_by_system", "_jobs_by", "_regiments_by_name")
#: What a state's orders only read: shared, read-only, by the worlds of a check's states (World.for_orders).
READ_BY_ORDERS = ("systems", "factories", "regiments", "jumpships")

def _int(value: Any, default: int | None = 0) -> int | None:
    if value is None or value == "":
        return default
    return int(float(value))


def treasury_from_tables(tables: dict[str, pd.DataFrame]) -> dict[str, Amount]:
    """Each faction's treasury, in C, from the factions' table alone (the ledger's balances need no world)."""
    return {key(r["id"]): amount(r.get("treasury")) for r in state_rows(tables, "factions")}


def world_from_tables(tables: dict[str, pd.DataFrame]) -> World:
    systems = {}
    for r in state_rows(tables, "systems"):
        h = hex_id(r["hex"])
        systems[h] = System(h, str(r.get("name") or h), key(r.get("owner")), r.get("disputed") == "YES",
                            amount(r.get("income")), _int(r.get("defence")) or 0, r.get("icna") == "YES")
    world = World(systems, treasury_from_tables(tables))
    world.research = rules_data.rule_tables(PACKAGE, table_rows(tables, "rule_tables"))["research"]
    for r in state_rows(tables, "factories"):
        f = Factory(key(r["id"]), hex_id(r["system"]), str(r["type"]), r.get("damaged") == "YES",
                    _int(r.get("halted_until"), None))
        world.factories[f.id] = f
    for r in state_rows(tables, "regiments"):
        g = Regiment(key(r["id"]), str(r.get("name") or r["id"]), key(r["owner"]), str(r["type"]),
                     str(r["experience"]), hex_id(r.get("system")), key(r.get("jumpship")),
                     r.get("damaged") == "YES")
        world.regiments[g.id] = g
    for r in state_rows(tables, "jumpships"):
        s = Jumpship(key(r["id"]), key(r["owner"]), str(r["class"]), hex_id(r["hex"]))
        world.jumpships[s.id] = s
    for r in state_rows(tables, "jobs"):
        world.jobs.append(Job(str(r["id"]), key(r["faction"]), str(r["kind"]), hex_id(r.get("system")),
                              key(r.get("factory")), str(r.get("item") or ""), str(r.get("name") or ""),
                              _int(r.get("turns_left")) or 0, _int(r.get("ordered_turn")) or 0))
    for r in state_rows(tables, "research_points"):
        k = (key(r["faction"]), str(r["line"]))
        world.points[k] = _int(r.get("points")) or 0
        if r.get("opened") == "YES":
            world.opened.add(k)
    for r in state_rows(tables, "labs"):
        world.labs[(key(r["faction"]), int(r["lab"]))] = (str(r.get("line") or ""), _int(r.get("unlock_at"), None))
    for r in state_rows(tables, "sales"):
        world.sales.append(Sale(key(r["seller"]), key(r["buyer"]), str(r["line"]), int(r["points"]),
                                int(r["effective_turn"])))
    for r in state_rows(tables, "commandos"):
        c = Commando(key(r["id"]), key(r["owner"]), hex_id(r.get("system")), key(r.get("regiment")),
                     _int(r.get("established_turn")) or 0)
        world.commandos[c.id] = c
    for r in state_rows(tables, "unrest"):
        world.unrest[hex_id(r["hex"])] = Unrest(r.get("civil") == "YES", r.get("military") == "YES",
                                               _int(r.get("revolt"), None), key(r.get("instigator")),
                                               _int(r.get("quiet_until"), None), r.get("force_only") == "YES")
    for r in state_rows(tables, "unrest_mods"):
        world.unrest_mods.append((hex_id(r["hex"]), int(r["value"]), int(r["first_turn"]), int(r["last_turn"])))
    for r in state_rows(tables, "known_regiments"):
        world.known.add((key(r["faction"]), key(r["regiment"])))
    for r in state_rows(tables, "neutral"):
        world.neutral[key(r["regiment"])] = hex_id(r["system"])
    return world


def _start(tables: dict[str, pd.DataFrame]) -> World:
    world = world_from_tables(tables)
    world.make_lookups()  # once, for every faction's copy
    return world


_START = BuiltOnce(_start)


def start_world(tables: dict[str, pd.DataFrame]) -> World:
    """The world of ``tables`` (see :func:`world_from_tables`), built once for as long as the very same
    frames are asked about (a check asks for every faction, twice), and SHARED: read it, or ``copy()`` it
    before changing anything."""
    return _START(tables)


def _yes(flag: bool) -> str:
    return "YES" if flag else "NO"


def _frame(rows: list[dict[str, Any]], columns: list[str]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(rows, columns=columns)


def world_to_tables(world: World, tables: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The state tables after a turn (the rule tables are the GM's and kept as they are)."""
    factions = tables["factions"].copy()
    factions["treasury"] = [amount(world.treasury.get(key(f), 0)) for f in factions["id"]]
    out = {"factions": factions}
    out["systems"] = _frame([
        {"hex": s.hex, "name": s.name, "owner": s.owner or None, "disputed": _yes(s.disputed),
         "income": amount(s.income), "defence": s.defence, "icna": _yes(s.icna)}
        for s in sorted(world.systems.values(), key=lambda s: s.hex)], SYSTEMS.keys())
    out["factories"] = _frame([
        {"id": f.id, "system": f.system, "type": f.type, "damaged": _yes(f.damaged), "halted_until": f.halted_until}
        for f in sorted(world.factories.values(), key=lambda f: f.id)], FACTORIES.keys())
    out["regiments"] = _frame([
        {"id": g.id, "name": g.name, "owner": g.owner, "type": g.type, "experience": g.experience,
         "system": g.system or None, "jumpship": g.jumpship or None, "damaged": _yes(g.damaged)}
        for g in sorted(world.regiments.values(), key=lambda g: g.id)], REGIMENTS.keys())
    out["jumpships"] = _frame([
        {"id": s.id, "owner": s.owner, "class": s.cls, "hex": s.hex}
        for s in sorted(world.jumpships.values(), key=lambda s: s.id)], JUMPSHIPS.keys())
    out["jobs"] = _frame([
        {"id": j.id, "faction": j.faction, "kind": j.kind, "system": j.system or None, "factory": j.factory or None,
         "item": j.item or None, "name": j.name or None, "turns_left": j.turns_left, "ordered_turn": j.ordered_turn}
        for j in world.jobs], JOBS.keys())
    rank = {line: i for i, line in enumerate(LINE_ORDER)}
    keys = sorted(set(world.points) | world.opened, key=lambda k: (k[0], rank.get(k[1], 9)))
    out["research_points"] = _frame([
        {"faction": f, "line": line, "points": world.points.get((f, line), 0),
         "opened": _yes((f, line) in world.opened)}
        for f, line in keys], RESEARCH_POINTS.keys())
    out["labs"] = _frame([
        {"faction": f, "lab": n, "line": line or None, "unlock_at": unlock}
        for (f, n), (line, unlock) in sorted(world.labs.items())], LABS.keys())
    out["sales"] = _frame([
        {"seller": s.seller, "buyer": s.buyer, "line": s.line, "points": s.points, "effective_turn": s.effective_turn}
        for s in world.sales], SALES.keys())
    out["commandos"] = _frame([
        {"id": c.id, "owner": c.owner, "system": c.system or None, "regiment": c.regiment or None,
         "established_turn": c.established_turn}
        for c in sorted(world.commandos.values(), key=lambda c: c.id)], COMMANDOS.keys())
    out["unrest"] = _frame([
        {"hex": h, "civil": _yes(u.civil), "military": _yes(u.military), "revolt": u.revolt,
         "instigator": u.instigator or None, "quiet_until": u.quiet_until, "force_only": _yes(u.force_only)}
        for h, u in sorted(world.unrest.items()) if not u.empty()], UNREST.keys())
    out["unrest_mods"] = _frame([
        {"hex": h, "value": v, "first_turn": first, "last_turn": last}
        for h, v, first, last in sorted(world.unrest_mods)], UNREST_MODS.keys())
    out["neutral"] = _frame([{"regiment": r, "system": h} for r, h in sorted(world.neutral.items())], NEUTRAL.keys())
    out["known_regiments"] = _frame([{"faction": f, "regiment": r} for f, r in sorted(world.known)], KNOWN.keys())
    return out
