"""The worlds of a check's states share the start world's systems, factories, regiments and jumpships, read-only
(``World.for_orders``): the orders only read those. Every kind of order a player may write, legal and mistaken,
is checked here on the shared world: the check tells exactly what it told on whole copies, and leaves the start
world every state shares as it was built."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from adjudicator.engine.problems import Severity
from adjudicator.paths import examples_root
from adjudicator.rulesets.inner_sphere import state
from adjudicator.rulesets.inner_sphere.state import READ_BY_ORDERS, Job, World, world_from_tables
from adjudicator.turn import pipeline
from tests.helpers import generated_campaign
from tests.inner_sphere.test_inner_sphere_generated import FACTIONS, MISTAKES, ORDERS, SEED, campaign


def _told(outcome: pipeline.CheckOutcome) -> list[tuple[Any, ...]]:
    """Every problem of a check, as the player reads it (in English), faction by faction."""
    return [(s.faction, p.code, p.severity, p.sheet, p.cell, str(p.message), str(p.hint or ""))
            for s in outcome.submissions for p in s.problems]


@pytest.fixture(scope="module")
def campaigns(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The bundled example, and a generated campaign holding every kind of legal row and of mistake."""
    example = tmp_path_factory.mktemp("example") / "inner_sphere"
    shutil.copytree(examples_root() / "inner_sphere", example)
    generated = generated_campaign(tmp_path_factory, "inner_sphere", campaign, FACTIONS, ORDERS, SEED, MISTAKES)
    return [example, generated.folder]


def _check(folder: Path, tmp_path: Path, name: str) -> pipeline.CheckOutcome:
    work = tmp_path / name
    shutil.copytree(folder, work)
    return pipeline.check(work)


@pytest.mark.parametrize("which", [0, 1], ids=["example", "generated"])
def test_a_check_on_the_shared_world_tells_what_whole_copies_tell_and_leaves_the_start_world_as_built(
        campaigns: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, which: int) -> None:
    shared_from: list[World] = []
    for_orders = World.for_orders

    def noted(world: World) -> World:
        shared_from.append(world)
        return for_orders(world)

    monkeypatch.setattr(World, "for_orders", noted)
    shared = _check(campaigns[which], tmp_path, "shared")
    monkeypatch.setattr(World, "for_orders", World.copy)  # what a check did before: a whole copy for each state
    copied = _check(campaigns[which], tmp_path, "copied")
    assert shared_from and all(world is shared_from[0] for world in shared_from), "one start world, shared"
    assert len(shared_from) == len([s for s in shared.submissions if s.orders is not None]) > 1
    assert _told(shared) == _told(copied)
    if which:  # the generated campaign's mistakes: every kind of error the orders find
        assert sum(severity is Severity.ERROR for _, _, severity, *_ in _told(shared)) > 10
    assert shared_from[0] == world_from_tables(shared.campaign.tables), "the orders changed the start world"


def test_a_state_world_shares_the_four_read_only_and_copies_the_rest() -> None:
    _, opened, _ = pipeline.open_campaign(examples_root() / "inner_sphere")
    start = state.start_world(opened.tables)
    world = start.for_orders()
    for name in READ_BY_ORDERS:
        mine, theirs = getattr(world, name), getattr(start, name)
        assert mine == theirs and len(mine) > 0
        some = next(iter(theirs))
        assert mine[some] is theirs[some]
        with pytest.raises(TypeError):
            mine[some] = theirs[some]  # type: ignore[index]
    regiment = next(iter(start.regiments.values()))
    assert world.regiments_named(state.key(regiment.name)) == start.regiments_named(state.key(regiment.name))
    assert world.factories_in(next(iter(start.factories.values())).system)
    jobs = len(start.jobs)
    world.treasury[regiment.owner] = -1
    world.jobs.append(Job("J-TEST", regiment.owner, "REPAIR", item="R-TEST"))
    assert start.treasury[regiment.owner] != -1 and len(start.jobs) == jobs
    assert world.jobs_by("REPAIR", "item")["R-TEST"] and "R-TEST" not in start.jobs_by("REPAIR", "item")
    assert start == world_from_tables(opened.tables)
