"""The galaxy a check builds once and copies for every race: copies equal to deepcopy's, sharing nothing that
can change, and a shared start galaxy built again as soon as the tables are other frames or the parameters
change."""

from __future__ import annotations

import copy
from typing import Any

from adjudicator.paths import examples_root
from adjudicator.rulesets.galactic_war.state import start_world, world_from_tables
from adjudicator.turn import pipeline
from tests.helpers import mutables


def _example() -> tuple[dict[str, Any], dict[str, Any]]:
    _, campaign, _ = pipeline.open_campaign(examples_root() / "galactic_war")
    return campaign.tables, campaign.parameters


def test_a_galaxy_copy_equals_deepcopy_and_shares_nothing_mutable() -> None:
    tables, params = _example()
    world = world_from_tables(tables, params)
    world.techs.setdefault(next(iter(world.credits)), set()).add("ANTIGRAVITON")
    twin = world.copy()
    assert twin == copy.deepcopy(world)
    assert world.units and world.planets and world.systems and world.stats
    originals = {id(o) for o in mutables(world)}
    assert not originals & {id(o) for o in mutables(twin)}
    unit = next(iter(twin.units.values()))
    unit.system = "elsewhere"
    next(iter(twin.techs.values())).add("ASSAULT_CANNON")
    twin.params["changed"] = True
    assert twin != world and world == copy.deepcopy(world) and "changed" not in world.params


def test_the_start_galaxy_is_built_once_for_the_same_frames_and_parameters() -> None:
    tables, params = _example()
    first = start_world(tables, params)
    assert start_world(tables, params) is first
    assert first == world_from_tables(tables, params)
    changed = dict(tables)
    planets = tables["planets"].copy()
    planets.loc[planets.index[0], "resources"] = 99
    changed["planets"] = planets
    other = start_world(changed, params)
    assert other is not first and 99 in {p.resources for p in other.planets.values()}
    tweaked = {**params, "wormholes_adjacent": not params.get("wormholes_adjacent")}
    assert start_world(changed, tweaked) is not other
    assert start_world(changed, tweaked).params["wormholes_adjacent"] == tweaked["wormholes_adjacent"]
    params_again = start_world(changed, tweaked)
    tweaked["wormholes_adjacent"] = not tweaked["wormholes_adjacent"]  # the same dict, changed in place
    assert start_world(changed, tweaked) is not params_again
