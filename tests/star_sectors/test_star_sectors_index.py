"""The world's indexes answer exactly what a scan of every fleet and every square answers, after any change."""

from __future__ import annotations

import copy
import random

from adjudicator.rulesets.star_sectors.state import Square, World


def scan_present(world: World, square: str) -> dict[str, int]:
    return {f: v for (f, s), v in world.fleets.items() if s == square and v > 0}


def scan_neighbours(world: World, square: str) -> set[str]:
    here = world.squares[square]
    return {s.id for s in world.squares.values() if abs(s.x - here.x) + abs(s.y - here.y) == 1}


def test_indexes_follow_every_change_and_every_copy() -> None:
    rng = random.Random(3)
    squares = {f"S{x}-{y}": Square(f"S{x}-{y}", x, y, 10) for x in range(1, 7) for y in range(1, 7)}
    world = World(squares, {}, {})
    names = sorted(squares)
    for step in range(3000):
        faction, square = rng.choice("ABCD"), rng.choice(names)
        action = rng.random()
        if action < 0.5:
            world.set_value(faction, square, rng.randint(0, 5))
        elif action < 0.7:
            world.fleets[(faction, square)] = rng.randint(0, 3)  # as tests and old code may write
        elif action < 0.8:
            world.fleets.pop((faction, square), None)
        elif action < 0.85:
            moved = Square(square, rng.randint(1, 7), rng.randint(1, 7), 10)
            world.squares[square] = moved
        elif action < 0.9:
            world = world.copy() if step % 2 else copy.deepcopy(world)
        for probe in rng.sample(names, 4):
            assert world.present(probe) == scan_present(world, probe)
            assert list(world.present(probe)) == list(scan_present(world, probe))  # same order
            assert world.neighbours(probe) == scan_neighbours(world, probe)


def test_a_copy_and_its_original_keep_their_own_squares() -> None:
    """A copy shares the squares' index until one of them is written to: a write to either leaves the other
    answering as its own squares do (moved, removed, cleared, on both sides, over several generations)."""
    rng = random.Random(5)
    squares = {f"S{x}-{y}": Square(f"S{x}-{y}", x, y, 10) for x in range(1, 6) for y in range(1, 6)}
    worlds = [World(dict(squares), {}, {})]
    for _ in range(400):
        world = rng.choice(worlds)
        action = rng.random()
        names = sorted(world.squares)
        if action < 0.3:
            worlds.append(world.copy())
        elif action < 0.7 and names:
            square = rng.choice(names)
            world.squares[square] = Square(square, rng.randint(1, 6), rng.randint(1, 6), 10)
        elif action < 0.9 and names:
            world.squares.pop(rng.choice(names))
        elif action < 0.95:
            world.squares.clear()
        else:
            world.squares.update({"N": Square("N", 3, 3, 1)})
        for each in worlds:
            for probe in sorted(each.squares)[:6]:
                assert each.neighbours(probe) == scan_neighbours(each, probe)


def test_a_copy_and_its_original_keep_their_own_fleets() -> None:
    """A copy shares each square's fleets until one of them writes there: a write to either, over several
    generations of copies, leaves every other answering as its own fleets do (same values, same order)."""
    rng = random.Random(11)
    squares = {f"S{x}-{y}": Square(f"S{x}-{y}", x, y, 10) for x in range(1, 5) for y in range(1, 5)}
    names = sorted(squares)
    worlds = [World(squares, {}, {(f, s): rng.randint(1, 4) for f in "AB" for s in rng.sample(names, 6)})]
    for _ in range(1500):
        world = rng.choice(worlds)
        faction, square, action = rng.choice("ABC"), rng.choice(names), rng.random()
        if action < 0.15:
            worlds.append(world.copy() if rng.random() < 0.8 else copy.deepcopy(world))
        elif action < 0.55:
            world.set_value(faction, square, rng.randint(0, 5))
        elif action < 0.75:
            world.fleets[(faction, square)] = rng.randint(0, 3)
        elif action < 0.85:
            world.fleets.pop((faction, square), None)
        elif action < 0.9 and (faction, square) in world.fleets:
            del world.fleets[(faction, square)]
        elif action < 0.93 and world.fleets:
            world.fleets.popitem()
        elif action < 0.95:
            world.fleets.setdefault((faction, square), 2)
        elif action < 0.96:
            world.fleets.clear()
        for each in worlds:
            for probe in names:
                assert list(each.present(probe).items()) == list(scan_present(each, probe).items())


def test_a_copy_of_the_world_has_projects_of_its_own() -> None:
    from adjudicator.rulesets.star_sectors.state import Project

    shared = Project("A-T01-1", "A", "a gun", "FEASIBLE", price=30)
    world = World({}, {}, {}, projects={"A-T01-1": shared, "alias": shared, "B-T01-1": Project("B-T01-1", "B", "x",
                                                                                              "PAID", 5, 5, 2)})
    copied, deep = world.copy(), copy.deepcopy(world)
    assert copied.projects == deep.projects == world.projects
    assert copied.projects["A-T01-1"] is copied.projects["alias"]  # one project under two keys stays one
    copied.projects["A-T01-1"].status = "PAID"
    copied.projects["B-T01-1"].paid = 0
    assert world.projects["A-T01-1"].status == "FEASIBLE" and world.projects["B-T01-1"].paid == 5
    assert copied.projects["alias"].status == "PAID"
