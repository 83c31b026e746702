"""star_sectors' order workbooks offer in their Square and To dropdowns what the faction can legally name:
every square the adjudicator accepts there is listed, the lists do not grow with the map, and the workbook's
_lists sheet holds them."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from openpyxl import load_workbook

from adjudicator.outputs.templates import LISTS_SHEET, build_order_workbook
from adjudicator.paths import examples_root
from adjudicator.rulesets.star_sectors.dropdowns import square_lists
from adjudicator.rulesets.star_sectors.orders import build, disband, move
from adjudicator.rulesets.star_sectors.orders.common import OrderRow
from adjudicator.rulesets.star_sectors.state import world_from_tables
from adjudicator.turn import pipeline

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from generate import generate  # noqa: E402


def _accepted_squares(world, faction: str, params: dict) -> tuple[set[str], set[str]]:
    """Where the adjudicator accepts the faction's MOVE origin, BUILD or DISBAND square; and MOVE destination
    (one step: the default max_steps), each tried against every square of the map."""
    squares, destinations = set(), set()
    for square in world.squares:
        build_ok = build.check(world, OrderRow(faction, 2, "BUILD", square=square, amount=1), params) is None
        disband_ok = world.value(faction, square) > 0 and disband.check(
            world, OrderRow(faction, 2, "DISBAND", square=square, amount=1), {**params, "allow_disband": True}) is None
        moves = [move.check(world, OrderRow(faction, 2, "MOVE", square=square, to=to, amount=1), params)
                 for to in world.neighbours(square)]
        if build_ok or disband_ok or any(m is None for m in moves):
            squares.add(square)
        destinations |= {to for to in world.neighbours(square)
                         if move.check(world, OrderRow(faction, 2, "MOVE", square=square, to=to, amount=1), params)
                         is None}
    return squares, destinations


@pytest.mark.parametrize("build_rule", ["FC", "OWN_STACK", "GM_LIST"])
def test_every_square_the_adjudicator_accepts_is_offered(tmp_path: Path, build_rule: str) -> None:
    root = tmp_path / "c"
    shutil.copytree(examples_root() / "star_sectors", root)
    _, campaign, _ = pipeline.open_campaign(root)
    world = world_from_tables(campaign.tables)
    params = {**campaign.parameters, "build_rule": build_rule}
    assert params["max_steps"] == 1
    for faction in campaign.factions:
        lists = square_lists(world, faction, params)
        accepted, destinations = _accepted_squares(world, faction, params)
        assert accepted, faction
        assert accepted <= set(lists["square"]), faction
        assert destinations <= set(lists["to"]), faction
        assert set(lists["to"]) <= {n for s in lists["square"] for n in world.neighbours(s)}
        assert len(lists["to"]) < len(world.squares)


@pytest.mark.slow  # generates two campaigns (tens of seconds on a busy machine)
def test_the_lists_sheet_does_not_grow_with_the_map(tmp_path: Path) -> None:
    sizes = {}
    for factions in (3, 12):
        root = generate("star_sectors", tmp_path / f"c{factions}", factions, 1)
        _, campaign, ruleset = pipeline.open_campaign(root)
        path = tmp_path / f"F000-{factions}.xlsx"
        build_order_workbook(ruleset, campaign, "F000").save(path)
        lists = load_workbook(path)[LISTS_SHEET]
        squares = {lists.cell(row=r, column=c).value for r in range(1, lists.max_row + 1)
                   for c in range(1, lists.max_column + 1)} & set(world_from_tables(campaign.tables).squares)
        sizes[factions] = (len(squares), lists.max_row, len(campaign.tables["map"]))
    assert sizes[12][2] >= 4 * sizes[3][2]  # the map grows with the factions
    # The squares one faction's dropdowns offer (its 40 squares and their neighbours) do not; the sheet
    # grows only by the other factions (THEFT's victims).
    assert sizes[12][0] <= 1.5 * sizes[3][0] and sizes[12][0] < sizes[12][2] / 4
    assert sizes[12][1] <= 1.5 * sizes[3][1] + 9


def test_a_two_step_move_reaches_two_squares_away(tmp_path: Path) -> None:
    root = tmp_path / "c"
    shutil.copytree(examples_root() / "star_sectors", root)
    _, campaign, _ = pipeline.open_campaign(root)
    world = world_from_tables(campaign.tables)
    faction = sorted(campaign.factions)[0]
    one = square_lists(world, faction, {**campaign.parameters, "max_steps": 1})
    two = square_lists(world, faction, {**campaign.parameters, "max_steps": 2})
    assert set(one["to"]) < set(two["to"])
    origin = next(s for s in one["square"] if world.value(faction, s) > 0)
    for middle in world.neighbours(origin):
        for far in world.neighbours(middle):
            order = OrderRow(faction, 2, "MOVE", square=origin, to=far, path=(middle,), amount=1)
            if move.check(world, order, {**campaign.parameters, "max_steps": 2}) is None:
                assert far in two["to"]
