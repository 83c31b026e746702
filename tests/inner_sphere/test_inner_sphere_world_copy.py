"""The world a check builds once and copies for every faction: copies equal to deepcopy's, sharing nothing
that can change, and a shared start world rebuilt as soon as the tables are other frames."""

from __future__ import annotations

import copy
from typing import Any

from adjudicator.paths import examples_root
from adjudicator.rulesets.inner_sphere.state import Unrest, start_world, world_from_tables
from adjudicator.turn import pipeline
from tests.helpers import mutables


def _example_tables() -> dict[str, Any]:
    _, campaign, _ = pipeline.open_campaign(examples_root() / "inner_sphere")
    return campaign.tables


def test_a_world_copy_equals_deepcopy_and_shares_nothing_mutable() -> None:
    world = world_from_tables(_example_tables())
    world.unrest["0101"] = Unrest(civil=True, revolt=1)
    world.unrest_mods.append(("0101", 2, 1, 3))
    twin = world.copy()
    assert twin == copy.deepcopy(world)
    assert len(world.regiments) and len(world.systems) and world.research
    originals = {id(o) for o in mutables(world)}
    assert not originals & {id(o) for o in mutables(twin)}
    next(iter(twin.regiments.values())).damaged = not next(iter(world.regiments.values())).damaged
    twin.research[next(iter(twin.research))][0]["points"] = -1
    assert twin != world and world == copy.deepcopy(world)


def test_the_start_world_is_built_once_for_the_same_frames_and_again_for_new_ones() -> None:
    tables = _example_tables()
    first = start_world(tables)
    assert start_world(tables) is first
    assert first == world_from_tables(tables)
    changed = dict(tables)
    systems = tables["systems"].copy()
    systems.loc[systems.index[0], "name"] = "Renamed"
    changed["systems"] = systems
    other = start_world(changed)
    assert other is not first
    assert "Renamed" in {s.name for s in other.systems.values()}
    assert start_world(tables) is not other and start_world(tables) == first
