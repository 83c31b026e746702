"""The galaxy's lookups (its units by system and by carrier, the count of every race's units of each type in each
system) and the books kept from them: always what a scan of every unit gives, and the ledger lines the books
post always those of comparing every account before and after, whatever units came, went, moved, boarded or
landed, through the world's methods or straight in its dict, in the world or in a copy of it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine.ledger import Ledger
from adjudicator.i18n import msg
from adjudicator.paths import examples_root
from adjudicator.rulesets.galactic_war.phases.books import Books, balances
from adjudicator.rulesets.galactic_war.state import Unit, World, world_from_tables
from adjudicator.turn import pipeline

TYPES = ("CRUISER", "TRANSPORT", "FIGHTER", "GF")


@pytest.fixture(autouse=True)
def not_verified() -> Any:
    """These tests compare with the scans themselves: the lookups are not checked inside (conftest.py), so that
    a wrong lookup fails here, on the comparison, rather than inside the world."""
    World.verify_lookups = False
    yield


def _example_world() -> World:
    _, campaign, _ = pipeline.open_campaign(examples_root() / "galactic_war")
    return world_from_tables(campaign.tables, campaign.parameters)


WORLD = _example_world()
SYSTEMS = sorted(WORLD.systems)
RACES = sorted(WORLD.credits)

_steps = st.lists(st.one_of(
    st.tuples(st.just("add"), st.sampled_from(RACES), st.sampled_from(TYPES), st.sampled_from(SYSTEMS)),
    st.tuples(st.just("add straight"), st.sampled_from(RACES), st.sampled_from(TYPES), st.sampled_from(SYSTEMS)),
    st.tuples(st.just("remove"), st.integers(0, 500)),
    st.tuples(st.just("remove straight"), st.integers(0, 500)),
    st.tuples(st.just("move"), st.integers(0, 500), st.sampled_from(SYSTEMS)),
    st.tuples(st.just("board"), st.integers(0, 500), st.integers(0, 500)),
    st.tuples(st.just("land"), st.integers(0, 500)),
    st.tuples(st.just("credits"), st.sampled_from(RACES), st.integers(-5, 5)),
    st.tuples(st.just("dock"), st.integers(0, 500), st.sampled_from(["", *RACES])),
    st.tuples(st.just("copy"),),
    st.tuples(st.just("record"),),
    st.tuples(st.just("new books"),),
), max_size=40)


def _nth(world: World, n: int) -> Unit | None:
    return world.units[sorted(world.units)[n % len(world.units)]] if world.units else None


def _apply(world: World, step: tuple[Any, ...], n: int) -> World:
    """One change of the galaxy (or of its copy, which goes on from there), as the orders and phases make them."""
    what = step[0]
    if what in ("add", "add straight"):
        _, race, kind, system = step
        unit = Unit(f"{race}-X{n}", race, kind, system)
        if what == "add":
            world.add_unit(unit)
        else:
            world.units[unit.id] = unit
    elif what in ("remove", "remove straight") and world.units:
        gone = _nth(world, step[1])
        assert gone is not None
        if what == "remove":
            world.remove_unit(gone.id)
        else:  # straight out of the dict, and one unit in through the methods: the same number as before
            del world.units[gone.id]
            world.add_unit(Unit(f"{gone.id}-again{n}", gone.race, gone.type, SYSTEMS[0]))
    elif what == "move" and world.units:
        unit = _nth(world, step[1])
        world.move_unit(unit, step[2])  # type: ignore[arg-type]
    elif what == "board" and world.units:
        unit, carrier = _nth(world, step[1]), _nth(world, step[2])
        world.set_carrier(unit, carrier.id)  # type: ignore[union-attr]
    elif what == "land" and world.units:
        world.set_carrier(_nth(world, step[1]), "")  # type: ignore[arg-type]
    elif what == "credits":
        world.credits[step[1]] = world.credits.get(step[1], 0) + step[2]
    elif what == "dock" and world.planets:
        planet = world.planets[sorted(world.planets)[step[1] % len(world.planets)]]
        planet.owner, planet.dock = step[2], bool(step[2])
    elif what == "copy":
        world = world.copy()
    return world


def _scan_system(world: World, system: str) -> list[str]:
    return sorted(u.id for u in world.units.values() if u.system == system)


def _scan_carrier(world: World, carrier: str) -> list[str]:
    return sorted(u.id for u in world.units.values() if u.aboard == carrier)


def _expected_lines(before: dict[tuple[str, str], int], after: dict[tuple[str, str], int]) -> list[tuple[Any, ...]]:
    """The lines of comparing every account (how the books worked before they kept counts)."""
    return [(key[0], key[1], after.get(key, 0) - before.get(key, 0), after.get(key, 0))
            for key in sorted(set(before) | set(after)) if after.get(key, 0) != before.get(key, 0)]


@settings(max_examples=80, deadline=None)
@given(_steps)
def test_lookups_and_books_are_what_a_scan_gives_after_any_changes(steps: list[tuple[Any, ...]]) -> None:
    world = _example_world()
    copied: list[tuple[World, dict[str, tuple[str, str]]]] = []  # each world copied, as it was then
    ledger = Ledger(1)
    books = Books(ledger, world)
    last = balances(world)
    for n, step in enumerate(steps):
        if step[0] == "copy":
            copied.append((world, {u.id: (u.system, u.aboard) for u in world.units.values()}))
        world = _apply(world, step, n)
        if step[0] == "new books":  # as a phase or a check opens the books on a galaxy already changed
            books = Books(ledger, world)
            assert books.last == balances(world)
            last = balances(world)
        if step[0] == "record":
            posted = len(ledger.lines)
            books.record(world, "P", msg("Movement."), f"step {n}")
            now = balances(world)
            got = [(line.faction, line.account, line.change, line.balance) for line in ledger.lines[posted:]]
            assert got == _expected_lines(last, now)
            last = now
        for system in SYSTEMS:
            assert [u.id for u in world.in_system(system)] == _scan_system(world, system)
        for carrier in {u.aboard for u in world.units.values() if u.aboard} | {u.id for u in world.units.values()}:
            assert [u.id for u in world.cargo(carrier)] == _scan_carrier(world, carrier)
    for earlier, then in copied:  # a copy's changes never reach the galaxy it was copied from
        assert {u.id: (u.system, u.aboard) for u in earlier.units.values()} == then


def test_a_copy_carries_lookups_of_its_own_and_equals_its_world() -> None:
    world = _example_world()
    world.in_system(SYSTEMS[0])
    twin = world.copy()
    assert twin == world
    mine, theirs = world.__dict__["_unit_lookups"], twin.__dict__["_unit_lookups"]
    assert theirs.units is twin.units and theirs.counts == mine.counts and theirs.counts is not mine.counts
    assert not {id(s) for s in theirs.by_system.values()} & {id(s) for s in mine.by_system.values()}
    unit = next(iter(twin.units.values()))
    twin.move_unit(unit, "ELSEWHERE")
    assert [u.id for u in twin.in_system("ELSEWHERE")] == [unit.id] and not world.in_system("ELSEWHERE")
    assert [u.id for u in world.in_system(world.units[unit.id].system)] == \
        _scan_system(world, world.units[unit.id].system)


def test_a_copy_is_not_handed_lookups_its_world_had_outgrown() -> None:
    world = _example_world()
    world.in_system(SYSTEMS[0])
    race = RACES[0]
    world.units["NEW"] = Unit("NEW", race, "CRUISER", SYSTEMS[0])  # straight into the dict, no lookup since
    twin = world.copy()
    assert "NEW" in [u.id for u in twin.in_system(SYSTEMS[0])]
    books = Books(Ledger(1), twin)
    assert books.last == balances(twin)


def test_books_opened_after_an_account_emptied_hold_no_empty_account() -> None:
    world = _example_world()
    world.in_system(SYSTEMS[0])
    unit = next(iter(world.units.values()))
    for other in [u for u in list(world.units.values()) if (u.race, u.type, u.system) == (unit.race, unit.type,
                                                                                            unit.system)]:
        world.remove_unit(other.id)  # through the lookups: the account's count goes down to 0
    assert world.unit_lookups().counts[(unit.race, f"{unit.type}@{unit.system}")] == 0
    assert Books(Ledger(1), world).last == balances(world)
