"""A Galactic War campaign of any size for benchmarking: legal orders for the most part and a known share of
mistakes, on a galaxy that grows with the races.

The galaxy: a hex map (odd columns shifted down half a hex, six neighbours) cut into blocks of 3 × 3 systems,
one block a race (about as many systems a race as the example's 20 for 3), the blocks laid in a square as near
as can be (40 races: 7 × 6 blocks, 21 × 18 = 378 systems, the blocks no race holds left as empty space). Every
system of a race's block holds one planet of that race, the first one its home with a Space Dock; no
wormholes. Nothing of a race ever leaves its own block, so no two races meet: no battle, no blockade, no
invasion of another race, and the turn needs nothing of the GM but the Rulers' purchases (:func:`answer`).
From 500 systems on (50 races and more) ``run`` cannot draw the galaxy's map: networkx lays out a graph that
large with scipy, which the project does not install.

Each race's units are made for its rows: every legal movement row moves ships no other row names, every
invasion row lands a Ground Force no other row lands (the rules allow a unit one movement order, and a Ground
Force that has landed is no longer aboard). At M rows a sheet a race holds about 2 M units.

What each sheet of every race holds, M rows, every ``round(1 / mistakes)``-th row a deliberate mistake that
``check`` reports as exactly one error:

- Movement: in turn a Cruiser by its ID one step to a neighbour in the race's block; a Cruiser by its ID two
  steps through its own block; a Dreadnought by its ID one step, with "Do not attack"; a Transport by its ID one
  step, loading a Ground Force that waits on the race's planet where it starts (Pickups); a Cruiser by its type
  alone ("Cruiser"), one that no row names. Mistakes, in turn: a unit that does not exist (MV01), a Dreadnought
  (move 1) ordered two steps (MV04), a destination that is not on the map (MV08). All other rows are legal.
- Stance: "Do not attack" in a system of the race's block; mistakes: a system not on the map (MV08).
- Battle plan: a row for every system (the first for ALL), casualty orders, retreat conditions and a retreat
  system next to it. No mistakes: the rules never refuse a plan row, a malformed one is only warning B01 with
  its default used (§4.3), so this sheet holds M legal rows and no mistake row is written in it.
- Invasion: a Ground Force aboard a Transport that stays put, unloaded on the race's own planet in that system
  (a plain unload, G15: no combat, no odds to show). Mistakes, in turn: a planet that is not in the system named
  (I06), Fighters landing without Antigraviton (I02).

So every row but the mistakes is carried out by ``run``; ``check`` warns of nothing.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generated_mistakes import is_mistake, mistake_every

BLOCK = 3  # a race's block of systems: BLOCK × BLOCK hexes
MISSING_SYSTEM = "0"  # system IDs are 1, 2, 3…: 0 is never on the map
HOME_RESOURCES = 5
MOVE_KINDS = ("cruiser", "cruiser_two_steps", "dreadnought_dna", "transport_pickup", "cruiser_by_type")
MOVE_MISTAKES = ("unknown_unit", "dreadnought_two_steps", "off_the_map")
INVASION_MISTAKES = ("planet_elsewhere", "fighters")
SPACE_CASUALTIES = ("Cruiser > Transport > Dreadnought", "Fighter > Cruiser > Dreadnought", "")
RETREAT_IF = ("OWN_SHIPS<=1", "LOSSES>=50%", "AFTER_ROUND 2", "NEVER", "OWN_SHIPS<=2 OR LOSSES>=75%")


# ------------------------------------------------------------------------------------------------ the map
def blocks_across(races: int) -> tuple[int, int]:
    """(blocks across, blocks down): a square as near as can be, with room for every race."""
    across = max(1, math.ceil(math.sqrt(races)))
    return across, max(1, math.ceil(races / across))


def system_id(x: int, y: int, width: int) -> str:
    return str(y * width + x + 1)


def hex_neighbours(x: int, y: int, width: int, height: int) -> list[tuple[int, int]]:
    """The six hexes around (x, y), odd columns shifted down half a hex, that are on the map."""
    down = x % 2  # an odd column's diagonal neighbours are on its row and the one below
    steps = ((0, -1), (0, 1), (-1, down - 1), (-1, down), (1, down - 1), (1, down))
    return [(x + dx, y + dy) for dx, dy in steps if 0 <= x + dx < width and 0 <= y + dy < height]


@dataclass
class Galaxy:
    """The map: its size and each race's block (its systems in row order, and their neighbours in the block)."""

    width: int
    height: int
    blocks: dict[str, list[str]] = field(default_factory=dict)
    inside: dict[str, list[str]] = field(default_factory=dict)  # system → its neighbours in the same block

    def systems_rows(self) -> list[dict[str, Any]]:
        rows = []
        for y in range(self.height):
            for x in range(self.width):
                near = sorted((system_id(a, b, self.width) for a, b in hex_neighbours(x, y, self.width, self.height)),
                              key=int)
                rows.append({"system": system_id(x, y, self.width), "neighbours": ", ".join(near),
                             "wormhole": "NONE"})
        return rows


def galaxy_for(races: list[str]) -> Galaxy:
    """A BLOCK × BLOCK block of hexes for every race, the blocks left over empty; a system's neighbours in its
    block are where the race's ships move."""
    across, down = blocks_across(len(races))
    galaxy = Galaxy(across * BLOCK, down * BLOCK)
    for index, race in enumerate(races):
        bx, by = (index % across) * BLOCK, (index // across) * BLOCK
        cells = [(bx + i, by + j) for j in range(BLOCK) for i in range(BLOCK)]
        galaxy.blocks[race] = [system_id(x, y, galaxy.width) for x, y in cells]
        for x, y in cells:
            galaxy.inside[system_id(x, y, galaxy.width)] = [
                system_id(a, b, galaxy.width) for a, b in hex_neighbours(x, y, galaxy.width, galaxy.height)
                if bx <= a < bx + BLOCK and by <= b < by + BLOCK]
    return galaxy


def planet_of(system: str) -> str:
    return f"P{system}"


# ----------------------------------------------------------------------------------------------- the units
@dataclass
class Forces:
    """One race's units as they are made for its rows: the Units table's rows, numbered by type as the engine
    numbers new ones (RACE-CR1, RACE-GF1…)."""

    race: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, kind: str, system: str, planet: str = "", aboard: str = "") -> str:
        abbreviation = {"CRUISER": "CR", "DREADNOUGHT": "DN", "TRANSPORT": "TR", "GF": "GF"}[kind]
        self.counts[kind] = self.counts.get(kind, 0) + 1
        unit = f"{self.race}-{abbreviation}{self.counts[kind]}"
        self.rows.append({"id": unit, "race": self.race, "type": kind, "system": system,
                          "planet": planet or None, "aboard": aboard or None})
        return unit


# ------------------------------------------------------------------------------------------------- Movement
def two_steps(galaxy: Galaxy, origin: str, rng: random.Random) -> list[str]:
    """A path of two steps inside the block from ``origin``, ending elsewhere than where it began."""
    middle = rng.choice(galaxy.inside[origin])
    return [middle, rng.choice([s for s in galaxy.inside[middle] if s != origin])]


def legal_move(kind: str, origin: str, galaxy: Galaxy, forces: Forces, rng: random.Random) -> dict[str, Any]:
    """A movement row of ``kind`` from ``origin``, with the units it moves made for it."""
    step = rng.choice(galaxy.inside[origin])
    if kind == "cruiser":
        return {"origin": origin, "units": forces.add("CRUISER", origin), "path": step}
    if kind == "cruiser_two_steps":
        return {"origin": origin, "units": forces.add("CRUISER", origin),
                "path": "-".join(two_steps(galaxy, origin, rng))}
    if kind == "dreadnought_dna":
        return {"origin": origin, "units": forces.add("DREADNOUGHT", origin), "path": step, "dna": "Y"}
    if kind == "transport_pickup":
        waiting = forces.add("GF", origin, planet=planet_of(origin))
        return {"origin": origin, "units": forces.add("TRANSPORT", origin), "path": step,
                "pickups": f"{origin}:{waiting}"}
    forces.add("CRUISER", origin)  # named by no row: the one the type takes
    return {"origin": origin, "units": "Cruiser", "path": step}


def wrong_move(kind: str, origin: str, galaxy: Galaxy, forces: Forces, rng: random.Random) -> dict[str, Any]:
    """A movement row with one mistake, which ``check`` reports as one error."""
    if kind == "unknown_unit":  # MV01: the race numbers its Cruisers from 1
        return {"origin": origin, "units": f"{forces.race}-CR0", "path": rng.choice(galaxy.inside[origin])}
    if kind == "dreadnought_two_steps":  # MV04: a Dreadnought moves 1
        return {"origin": origin, "units": forces.add("DREADNOUGHT", origin),
                "path": "-".join(two_steps(galaxy, origin, rng))}
    return {"origin": origin, "units": forces.add("CRUISER", origin), "path": MISSING_SYSTEM}  # MV08


def moves_sheet(orders: int, every: int, galaxy: Galaxy, forces: Forces, rng: random.Random) -> tuple[list, int]:
    """(rows, mistake rows) of the Movement sheet: row r starts in the r-th system of the block (round it)."""
    block = galaxy.blocks[forces.race]
    rows, wrong = [], 0
    for r in range(orders):
        origin = block[r % len(block)]
        if is_mistake(r, every):
            rows.append(wrong_move(MOVE_MISTAKES[wrong % len(MOVE_MISTAKES)], origin, galaxy, forces, rng))
            wrong += 1
        else:
            rows.append(legal_move(MOVE_KINDS[(r - wrong) % len(MOVE_KINDS)], origin, galaxy, forces, rng))
    return rows, wrong


# ------------------------------------------------------------------------------------ Stance, Battle plan
def stance_sheet(orders: int, every: int, galaxy: Galaxy, race: str) -> tuple[list, int]:
    """(rows, mistake rows) of the Stance sheet: "Do not attack" round the block's systems."""
    block = galaxy.blocks[race]
    rows = [{"system": MISSING_SYSTEM if is_mistake(r, every) else block[r % len(block)], "dna": "Y"}
            for r in range(orders)]
    return rows, sum(is_mistake(r, every) for r in range(orders))


def battle_plan_sheet(orders: int, galaxy: Galaxy, race: str, rng: random.Random) -> list[dict[str, Any]]:
    """M plan rows, none a mistake (the rules refuse none: see the module's docstring)."""
    block = galaxy.blocks[race]
    rows = []
    for r in range(orders):
        system = block[(r - 1) % len(block)]
        rows.append({"scope": "ALL" if r == 0 else system, "space_casualties": SPACE_CASUALTIES[r % 3] or None,
                     "ground_casualties": "Fighter > Ground Force" if r % 4 == 0 else None,
                     "retreat_if": RETREAT_IF[r % len(RETREAT_IF)],
                     "retreat_to": rng.choice(galaxy.inside[system])})
    return rows


# ------------------------------------------------------------------------------------------------- Invasion
def invasions_sheet(orders: int, every: int, galaxy: Galaxy, forces: Forces,
                    capacity: int) -> tuple[list[dict[str, Any]], int]:
    """Row r unloads Ground Force r, aboard Transport r // capacity (which no row moves), on the race's planet
    in that Transport's system; a mistake row's Ground Force stays aboard."""
    block = galaxy.blocks[forces.race]
    rows, wrong, transport, system = [], 0, "", ""
    for r in range(orders):
        if r % capacity == 0:
            system = block[(r // capacity) % len(block)]
            transport = forces.add("TRANSPORT", system)
        lander = forces.add("GF", system, aboard=transport)
        row = {"system": system, "planet": planet_of(system), "land": lander}
        if is_mistake(r, every):
            kind = INVASION_MISTAKES[wrong % len(INVASION_MISTAKES)]
            if kind == "planet_elsewhere":  # I06: the race's planet of the next system of its block
                row["planet"] = planet_of(block[(block.index(system) + 1) % len(block)])
            else:  # I02: no race has Antigraviton
                row["land"] = "Fighter"
            wrong += 1
        rows.append(row)
    return rows, wrong


# ------------------------------------------------------------------------------------------------ campaign
def races_named(factions: int) -> list[str]:
    return [f"F{i:03d}" for i in range(factions)]


def planets_of(galaxy: Galaxy, race: str, rng: random.Random) -> list[dict[str, Any]]:
    """A planet of the race in every system of its block; the first, its home, with a Space Dock."""
    rows = []
    for k, system in enumerate(galaxy.blocks[race]):
        home = k == 0
        rows.append({"planet": planet_of(system), "system": system,
                     "resources": HOME_RESOURCES if home else rng.randint(1, 4), "owner": race,
                     "dock": "Y" if home else None, "dock_built": 0 if home else None})
    return rows


def transport_capacity() -> int:
    from adjudicator.rulesets.galactic_war.state import default_stats

    return default_stats()["TRANSPORT"].capacity


def campaign(factions: int, orders: int, seed: int, mistakes: float) -> tuple[dict[str, Any], int]:
    """(data, mistake_rows): the campaign as :func:`adjudicator.scenario.build_from_data` takes it (settings,
    tables, each race's four order sheets of ``orders`` rows) and how many rows were written as mistakes."""
    rng = random.Random(seed)
    races = races_named(factions)
    galaxy = galaxy_for(races)
    every = mistake_every(mistakes)
    capacity = transport_capacity()
    planets, units, sheets, wrong = [], [], {}, 0
    for race in races:
        planets += planets_of(galaxy, race, rng)
        forces = Forces(race)
        moves, wrong_moves = moves_sheet(orders, every, galaxy, forces, rng)
        stance, wrong_stance = stance_sheet(orders, every, galaxy, race)
        invasions, wrong_invasions = invasions_sheet(orders, every, galaxy, forces, capacity)
        sheets[race] = {"moves": moves, "stance": stance, "battle_plan": battle_plan_sheet(orders, galaxy, race, rng),
                        "invasions": invasions}
        units += forces.rows
        wrong += wrong_moves + wrong_stance + wrong_invasions
    data = {
        "settings": {"ruleset": "galactic_war", "campaign": "bench", "seed": seed, "turn": 1, "language": "en",
                     "secret": "bench"},
        "tables": {"factions": [{"id": r, "name": r, "language": "en", "credits": 10, "techs": ""} for r in races],
                   "systems": galaxy.systems_rows(), "planets": planets, "units": units},
        "orders": sheets,
    }
    return data, wrong


# --------------------------------------------------------------------------------------------------- answer
def purchases(tables: dict[str, Any]) -> list[dict[str, Any]]:
    """What the Rulers bought: two Ground Forces and a Cruiser for every race, at each of its Space Docks
    (within the dock's production limit, and no other race's ships are near to blockade it)."""
    rows = []
    for planet in tables["planets"].to_dict("records"):
        if planet.get("dock") == "Y" and planet.get("owner"):
            rows.append({"race": planet["owner"], "type": "GF", "count": 2, "planet": planet["planet"]})
            rows.append({"race": planet["owner"], "type": "CRUISER", "count": 1, "planet": planet["planet"]})
    return rows


def answer(root: Path) -> None:
    """Between run's two passes: the GM's purchase list, the one request of a Galactic War turn (pass 1 writes an
    empty Purchases sheet), filled with :func:`purchases`."""
    import pandas as pd

    from adjudicator.turn import pipeline
    from adjudicator.turn.gm_input import write_gm_input

    folder, campaign_now, ruleset = pipeline.open_campaign(root)
    requests = {s.key: pd.DataFrame(purchases(campaign_now.tables), columns=s.keys()) for s in ruleset.gm_input_schemas}
    write_gm_input(folder.gm_input(campaign_now.turn), ruleset, requests, campaign_now.turn, campaign_now.language)
