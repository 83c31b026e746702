"""The lookups a world keeps (jobs by kind and field, factories by system, regiments by name, the regiments aboard
each jumpship):
always what a scan of the world gives, whatever was appended, added, removed or copied in between."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.paths import examples_root
from adjudicator.rulesets.inner_sphere.orders.common import Context
from adjudicator.rulesets.inner_sphere.state import Commando, Factory, Job, Regiment, World, key, world_from_tables
from adjudicator.turn import pipeline

KINDS = ("REPAIR", "REGIMENT", "DEFENCE", "FACTORY_REPAIR", "NEW_FACTORY")
FIELDS = ("item", "factory", "system")
HEXES = ("0101", "0102", "0203", "0204")
NAMES = ("Ryuken-ni", "ryuken-NI ", "Fourth Davion Guards", "New One")


def _example_world() -> World:
    _, campaign, _ = pipeline.open_campaign(examples_root() / "inner_sphere")
    return world_from_tables(campaign.tables)


def _scanned_jobs(world: World, kind: str, field: str) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for job in world.jobs:
        if job.kind == kind:
            found.setdefault(getattr(job, field), []).append(id(job))
    return found


def _looked_up_jobs(world: World, kind: str, field: str) -> dict[str, list[int]]:
    return {value: [id(j) for j in jobs] for value, jobs in world.jobs_by(kind, field).items() if jobs}


def _scanned_factories(world: World, hex_: str) -> list[str]:
    return sorted(f.id for f in world.factories.values() if f.system == hex_)


_steps = st.lists(st.one_of(
    st.tuples(st.just("job"), st.sampled_from(KINDS), st.sampled_from(HEXES), st.integers(0, 3)),
    st.tuples(st.just("replace jobs"), st.integers(0, 3)),
    st.tuples(st.just("add factory"), st.sampled_from(HEXES), st.integers(0, 5)),
    st.tuples(st.just("remove factory"), st.integers(0, 50)),
    st.tuples(st.just("set factory"), st.sampled_from(HEXES), st.integers(0, 5)),
    st.tuples(st.just("del factory"), st.integers(0, 50)),
    st.tuples(st.just("add regiment"), st.sampled_from(NAMES)),
    st.tuples(st.just("del regiment"), st.integers(0, 500)),
    st.tuples(st.just("copy"),),
    st.tuples(st.just("make lookups"),),
    st.tuples(st.just("look"), st.sampled_from(KINDS), st.sampled_from(FIELDS), st.sampled_from(HEXES)),
), max_size=30)


def _apply(world: World, step: tuple[Any, ...], n: int) -> World:
    """One change of a world (or its copy, which goes on from there), as the orders and phases make them."""
    what = step[0]
    if what == "job":
        _, kind, hex_, k = step
        world.jobs.append(Job(f"J{n}", "KURITA", kind, hex_, f"F{k}", f"R{k}"))
    elif what == "replace jobs":  # end of turn: the jobs still running, a list of their own
        world.jobs = [j for i, j in enumerate(world.jobs) if i % (step[1] + 2)]
    elif what in ("add factory", "set factory"):
        _, hex_, k = step
        factory = Factory(f"{hex_}-X{n}-{k}", hex_, "LIGHT")
        if what == "add factory":
            world.add_factory(factory)
        else:  # straight into the dict: the lookup sees the number change
            world.factories[factory.id] = factory
    elif what in ("remove factory", "del factory") and world.factories:
        gone = sorted(world.factories)[step[1] % len(world.factories)]
        if what == "remove factory":
            world.remove_factory(gone)
        else:
            del world.factories[gone]
            world.add_factory(Factory(f"{gone}-again{n}", "0101", "LIGHT"))  # the same number as before
            world.remove_factory(f"{gone}-again{n}")
            world.add_factory(Factory(f"{gone}-new{n}", "0102", "LIGHT"))
    elif what == "add regiment":  # as the end of a turn adds one, straight into the dict
        world.regiments[f"R{n}"] = Regiment(f"R{n}", step[1], "KURITA", "MEDIUM", "REGULAR", "0101")
    elif what == "del regiment" and world.regiments:  # as a combat or the GM takes one away
        del world.regiments[sorted(world.regiments)[step[1] % len(world.regiments)]]
    elif what == "copy":
        world = world.copy()
    elif what == "make lookups":
        world.make_lookups()
    elif what == "look":
        world.jobs_by(step[1], step[2])
        world.factories_in(step[3])
        world.regiments_named(key(NAMES[0]))
    return world


@settings(max_examples=60, deadline=None)
@given(_steps)
def test_the_lookups_are_what_a_scan_gives_after_any_changes(steps: list[tuple[Any, ...]]) -> None:
    world = _example_world()
    original = world
    for n, step in enumerate(steps):
        world = _apply(world, step, n)
        for kind in KINDS:
            for field in FIELDS:
                assert _looked_up_jobs(world, kind, field) == _scanned_jobs(world, kind, field)
        for hex_ in {*HEXES, *(f.system for f in world.factories.values())}:
            assert [f.id for f in world.factories_in(hex_)] == _scanned_factories(world, hex_)
            assert all(world.factories[f.id] is f for f in world.factories_in(hex_))
        for name in {*map(key, NAMES), *(key(r.name) for r in world.regiments.values())}:
            assert [r.id for r in world.regiments_named(name)] == \
                sorted(r.id for r in world.regiments.values() if key(r.name) == name)
    if world is not original:  # a copy's changes never reach the world it was copied from
        for kind in KINDS:
            assert _looked_up_jobs(original, kind, "item") == _scanned_jobs(original, kind, "item")
        for hex_ in HEXES:
            assert [f.id for f in original.factories_in(hex_)] == _scanned_factories(original, hex_)
        for name in map(key, NAMES):
            assert [r.id for r in original.regiments_named(name)] == \
                sorted(r.id for r in original.regiments.values() if key(r.name) == name)


def test_a_copy_shares_the_lookups_by_id_not_the_jobs_and_equals_its_world() -> None:
    world = _example_world()
    world.jobs_by("REPAIR", "item")
    world.make_lookups()
    twin = world.copy()
    assert twin == world
    assert "_jobs_by" in world.__dict__ and "_jobs_by" not in twin.__dict__
    for name, field in (("_factories_by_system", "factories"), ("_regiments_by_name", "regiments")):
        held = twin.__dict__[name]  # handed over: the copy's own dict, the same IDs
        assert held[0] is getattr(twin, field) and held[2] is world.__dict__[name][2]
    twin.jobs.append(Job("J", "KURITA", "REPAIR", "0101", "", "K1"))
    assert "K1" in twin.jobs_by("REPAIR", "item") and "K1" not in world.jobs_by("REPAIR", "item")
    gone = next(iter(twin.factories))
    system = twin.factories[gone].system
    twin.remove_factory(gone)
    assert gone not in [f.id for f in twin.factories_in(system)] and gone in [f.id for f in world.factories_in(system)]
    regiment = next(iter(twin.regiments.values()))
    del twin.regiments[regiment.id]
    assert regiment.id not in [r.id for r in twin.regiments_named(key(regiment.name))]
    assert regiment.id in [r.id for r in world.regiments_named(key(regiment.name))]


def test_a_copy_is_not_handed_lookups_its_world_had_outgrown() -> None:
    world = _example_world()
    world.make_lookups()
    world.factories["NEW"] = Factory("NEW", "0101", "LIGHT")  # straight into the dicts, no lookup since
    world.regiments["NEW"] = Regiment("NEW", "Brand New", "KURITA", "MEDIUM", "REGULAR", "0101")
    twin = world.copy()
    assert "NEW" in [f.id for f in twin.factories_in("0101")]
    assert [r.id for r in twin.regiments_named("BRAND NEW")] == ["NEW"]


def test_the_regiments_aboard_are_those_of_the_start_of_the_turn() -> None:
    world = _example_world()
    ctx = Context({}, 1, None, None, world)  # type: ignore[arg-type]
    scanned: dict[str, set[str]] = {}
    for regiment in world.regiments.values():
        if regiment.jumpship:
            scanned.setdefault(regiment.jumpship, set()).add(regiment.id)
    assert scanned, "the example has regiments aboard a jumpship"
    assert {ship: set(ids) for ship, ids in ctx.aboard.items()} == scanned


def test_the_commandos_that_may_act_are_a_factions_own_from_before_the_turn_by_id() -> None:
    world = _example_world()
    world.commandos = {c.id: c for c in (
        Commando("C9", "DAVION", system="0101", established_turn=2),
        Commando("C2", "DAVION", regiment="R1", established_turn=1),
        Commando("C5", "DAVION", system="0202", established_turn=3),  # introduced this turn: not yet
        Commando("C1", "KURITA", system="0101", established_turn=1),
    )}
    ctx = Context({}, 3, None, None, world)  # type: ignore[arg-type]
    assert [c.id for c in ctx.established("DAVION")] == ["C2", "C9"]
    assert [c.id for c in ctx.established("KURITA")] == ["C1"]
    assert ctx.established("STEINER") == ()
    assert all(c is world.commandos[c.id] for c in ctx.established("DAVION"))  # the start of the turn's own


def test_a_factions_own_systems_are_those_it_held_at_the_start_of_the_turn() -> None:
    world = _example_world()
    ctx = Context({}, 1, None, None, world)  # type: ignore[arg-type]
    owners = {system.owner for system in world.systems.values() if system.owner}
    assert len(owners) > 1, "the example has systems of several states"
    for owner in owners:
        assert set(ctx.own_systems(owner)) == {h for h, s in world.systems.items() if s.owner == owner}
    assert ctx.own_systems("NOBODY") == ()


def _scanned_choices(world: World, faction: str) -> dict[str, list[str]]:
    """The dropdowns of a state, by scans of the whole world (as they were made for every state)."""
    damaged = sorted(r.id for r in world.regiments.values() if r.owner == faction and r.damaged)
    broken = sorted({f.system for f in world.factories.values() if f.damaged and world.owner(f.system) == faction})
    return {"repairs.target": damaged + broken,
            "system": sorted(h for h, s in world.systems.items() if s.owner == faction),
            "ship": sorted(s.id for s in world.jumpships.values() if s.owner == faction)}


def test_each_states_dropdowns_are_what_a_scan_of_the_start_world_gives() -> None:
    import dataclasses

    from adjudicator.engine.registry import find_ruleset
    from adjudicator.rulesets.inner_sphere.state import world_to_tables

    _, campaign, _ = pipeline.open_campaign(examples_root() / "inner_sphere")
    world = world_from_tables(campaign.tables)
    for n, regiment in enumerate(sorted(world.regiments.values(), key=lambda r: r.id)):
        regiment.damaged = n % 3 == 0
    for n, factory in enumerate(sorted(world.factories.values(), key=lambda f: f.id)):
        factory.damaged = n % 2 == 0
    world.systems[next(iter(world.systems))].owner = ""  # a system of nobody's
    campaign = dataclasses.replace(campaign, tables={**campaign.tables, **world_to_tables(world, campaign.tables)})
    ruleset = find_ruleset("inner_sphere")
    shown = {f: ruleset.choice_lists(campaign, f, "es") for f in [*sorted(campaign.factions), "NOBODY"]}
    assert any(lists["repairs.target"] for lists in shown.values())
    for faction, lists in shown.items():
        assert lists == _scanned_choices(world_from_tables(campaign.tables), faction), faction
    shown["NOBODY"]["system"].append("0000")  # what a caller does with its lists is not kept for the next
    assert ruleset.choice_lists(campaign, "NOBODY", "es")["system"] == []
