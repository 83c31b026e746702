"""A campaign folder with filled inboxes, at any size, for measuring.

    python benchmarks/generate.py RULESET DIR --factions N --orders M [--seed S] [--mistakes 0.05]

star_sectors: N factions on a map that grows with them (about 40 squares a faction: 40 × 40 at 40
factions), each holding 40 squares with a fleet of 100 R; M orders a faction, cycling BUILD, MOVE to a
neighbouring own square and FEASIBILITY, and a known share of mistakes (``--mistakes``, 5 % by default:
every 20th row a MOVE from a square that is not on the map, which `check` reports as an error).

The other rulesets each have a generator of their own (``generate_<ruleset>.py`` beside this file): its
``campaign()`` gives a world that grows with the factions and their orders, legal for the most part with a
known share of mistakes, its ``answer()`` what the GM says between the passes, and its docstring what each
sheet holds. ``--from-example`` takes instead the ruleset's example world and factions, each faction's example
orders repeated to M rows a sheet, including the example's own deliberate mistakes; ``--factions`` may then
not exceed the example's factions (the first N are kept), but for inner_sphere, whose example world is laid
side by side as often as it takes (4 factions on 6 × 6 hexes a copy: 40 factions on 6 × 60).

The folder holds campaign.xlsx, inbox/<faction>.xlsx, and gm_input.xlsx answering what pass 1 asks
(for star_sectors, every feasibility request answered INFEASIBLE by :func:`answer_gm_input`; for a ruleset
with a generator, its ``answer()``).
``expected.json`` records the sizes and the number of rows written as mistakes.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import math
import random
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
if str(HERE) not in sys.path:  # the generators beside this file, however it was imported
    sys.path.insert(0, str(HERE))

from generated_mistakes import is_mistake, mistake_every  # noqa: E402

SQUARES_PER_FACTION = 40
MISSING_SQUARE = "ZZ9999"


def letters(n: int) -> str:
    out = ""
    while True:
        n, r = divmod(n, 26)
        out = chr(65 + r) + out
        if n == 0:
            return out
        n -= 1


def map_size(factions: int) -> int:
    return max(4, math.ceil(math.sqrt(SQUARES_PER_FACTION * factions)))


def _square(index: int, size: int) -> str:
    y, x = divmod(index, size)
    return f"{letters(x)}{y + 1}"


def _own_neighbour(here: int, first: int, size: int) -> int | None:
    """A square orthogonally next to ``here`` in the faction's own block (the run of squares from ``first``):
    right, left, below or above. A move never enters another faction's square, so no battle waits for the GM
    (the blocks are runs of the row-major order, which may wrap onto the next row at any size). None for a
    block's first or last square alone at the edge of its row."""
    x, y = here % size, here // size
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= x + dx < size and 0 <= y + dy < size:
            there = (y + dy) * size + x + dx
            if first <= there < first + SQUARES_PER_FACTION:
                return there
    return None


def star_sectors(factions: int, orders: int, seed: int, mistakes: float) -> tuple[dict[str, Any], int]:
    size = map_size(factions)
    names = [f"F{i:03d}" for i in range(factions)]
    rng = random.Random(seed)
    squares = [{"square": _square(i, size), "x": i % size + 1, "y": i // size + 1, "income": rng.randint(5, 24),
                "passable": "YES"} for i in range(size * size)]
    fleets = [{"faction": name, "square": _square(f * SQUARES_PER_FACTION + k, size), "value": 100}
              for f, name in enumerate(names) for k in range(SQUARES_PER_FACTION)]
    every = mistake_every(mistakes)
    wrong = 0
    sheets: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for f, name in enumerate(names):
        first = f * SQUARES_PER_FACTION
        rows = []
        for r in range(orders):
            k = r % SQUARES_PER_FACTION
            here = first + k
            there = _own_neighbour(here, first, size)
            if is_mistake(r, every):
                rows.append({"order": "MOVE", "square": MISSING_SQUARE, "to": _square(here, size), "amount": 1})
                wrong += 1
            elif r % 3 == 0 or there is None:
                rows.append({"order": "BUILD", "square": _square(here, size), "amount": 1})
            elif r % 3 == 1:
                rows.append({"order": "MOVE", "square": _square(here, size), "to": _square(there, size), "amount": 1})
            else:
                rows.append({"order": "FEASIBILITY", "description": f"request {r}"})
        sheets[name] = {"orders": rows}
    data = {
        "settings": {"ruleset": "star_sectors", "campaign": "bench", "seed": seed, "turn": 1, "language": "en",
                     "secret": "bench"},
        "tables": {"factions": [{"id": n, "name": n, "language": "en", "treasury": 10**7} for n in names],
                   "fleets": fleets, "map": squares, "projects": [], "usages": []},
        "orders": sheets,
    }
    return data, wrong


def from_example(ruleset: str, factions: int, orders: int) -> tuple[dict[str, Any], int]:
    from adjudicator.paths import examples_root
    from adjudicator.scenario import load_scenario

    data = copy.deepcopy(load_scenario(examples_root() / ruleset))
    if ruleset == "inner_sphere" and factions > len(data["tables"]["factions"]):
        data = inner_sphere_copies(data, -(-factions // len(data["tables"]["factions"])))
    kept = sorted(data.get("orders", {}))[:factions]
    if factions > len(data["tables"]["factions"]):
        raise SystemExit(f"{ruleset}: the example has {len(data['tables']['factions'])} factions; "
                         f"only star_sectors grows its world (asked for {factions})")
    data["orders"] = {
        faction: {sheet: [copy.deepcopy(rows[i % len(rows)]) for i in range(orders)] if rows else []
                  for sheet, rows in data["orders"][faction].items()}
        for faction in kept
    }
    return data, -1  # the example's own mistakes, repeated: counted by `check`


INNER_SPHERE_COLUMNS = 6  # the example's map: 6 × 6 hexes (XXYY)


def _copy_names(tables: dict[str, list[dict[str, Any]]], k: int) -> dict[str, str]:
    """What each identifier of Inner Sphere's example world is called in copy ``k`` (none renamed in copy 0)."""
    if not k:
        return {}
    rename = {f["id"]: f"{f['id']}{k + 1}" for f in tables["factions"]}
    rename |= {s["hex"]: f"{int(s['hex'][:2]) + INNER_SPHERE_COLUMNS * k:02d}{s['hex'][2:]}" for s in tables["systems"]}
    rename |= {r["id"]: f"{r['id']}-{k + 1}" for r in tables["regiments"]}
    rename |= {j["id"]: f"{j['id']}-{k + 1}" for j in tables["jumpships"]}
    for table, owner in (("jobs", "faction"), ("commandos", "owner")):
        rename |= {row["id"]: rename[row[owner]] + row["id"][len(row[owner]):] for row in tables[table]}
    rename |= {f["id"]: rename[f["system"]] + f["id"][len(f["system"]):] for f in tables["factories"]}
    return rename


def _renamed(value: Any, rename: dict[str, str]) -> Any:
    """A cell naming identifiers (alone, as a list "0203, 0204" or as "DAVION:IND"), in a copy's names."""
    if not isinstance(value, str) or not rename:
        return value
    if value in rename:
        return rename[value]
    if ", " in value:
        return ", ".join(_renamed(part, rename) for part in value.split(", "))
    if ":" in value:
        return ":".join(_renamed(part, rename) for part in value.split(":"))
    return value


def _copied_row(row: dict[str, Any], rename: dict[str, str], k: int, named: bool = False) -> dict[str, Any]:
    out = {key: _renamed(value, rename) for key, value in row.items()}
    if named and k and row.get("name"):
        out["name"] = f"{row['name']} {k + 1}"
    return out


def inner_sphere_copies(data: dict[str, Any], copies: int) -> dict[str, Any]:
    """Inner Sphere's example world side by side ``copies`` times (copy k: its hexes' columns moved 6k to the
    right, which keeps the odd-q geometry; its factions, regiments, jumpships, jobs and commandos renamed
    with k), each copy's orders and GM answers naming its own copy: 4k factions on a 6 × 6k map, every
    copy's orders (and deliberate mistakes) those of the example."""
    tables, gm = data["tables"], data.get("gm_input", {})
    grown: dict[str, Any] = {**data, "tables": {}, "orders": {}, "gm_input": {}}
    for k in range(copies):
        rename = _copy_names(tables, k)
        for table, rows in tables.items():
            if table == "rule_tables" and k:
                continue
            named = table in ("factions", "systems", "regiments", "jobs")
            grown["tables"].setdefault(table, []).extend(_copied_row(row, rename, k, named) for row in rows)
        for faction, sheets in data.get("orders", {}).items():
            grown["orders"][_renamed(faction, rename)] = {
                sheet: [_copied_row(row, rename, k) for row in rows] for sheet, rows in sheets.items()}
        for key, rows in gm.items():
            grown["gm_input"].setdefault(key, []).extend(_copied_row(row, rename, k) for row in rows)
    return grown


def generator(ruleset: str) -> Any | None:
    """The module ``generate_<ruleset>`` beside this file (its ``campaign`` and ``answer``), or None."""
    if not (HERE / f"generate_{ruleset}.py").exists():
        return None
    return importlib.import_module(f"generate_{ruleset}")


def generate(ruleset: str, out: Path, factions: int, orders: int, seed: int = 1, mistakes: float = 0.05,
             example: bool = False) -> Path:
    """The campaign folder ``out`` (made afresh); ``example``: the example's orders repeated, even for a ruleset
    with a generator of its own."""
    from adjudicator.scenario import build_from_data

    own = None if example else generator(ruleset)
    if ruleset == "star_sectors":
        data, wrong = star_sectors(factions, orders, seed, mistakes)
    elif own is not None:
        data, wrong = own.campaign(factions, orders, seed, mistakes)
    else:
        data, wrong = from_example(ruleset, factions, orders)
    if out.exists():
        shutil.rmtree(out)
    (out / "inbox").mkdir(parents=True)
    gm = data.pop("gm_input", None)
    build_from_data(data, out)
    rows = sum(len(r) for sheets in data["orders"].values() for r in sheets.values())
    expected = {"ruleset": ruleset, "factions": len(data["orders"]), "orders_per_sheet": orders, "rows": rows,
                "mistake_rows": wrong, "seed": seed,
                "orders_from": "generator" if own is not None or ruleset == "star_sectors" else "example"}
    if ruleset == "star_sectors":
        expected["map"] = f"{map_size(factions)}x{map_size(factions)}"
    if gm is not None:
        expected["example_gm_input"] = gm
    (out / "expected.json").write_text(json.dumps(expected, indent=2, ensure_ascii=False) + "\n")
    return out


def answer_gm_input(root: Path) -> None:
    """What the GM says between the two passes: every request answered (feasibility: INFEASIBLE), or the
    example's own answers for the other rulesets."""
    import pandas as pd

    from adjudicator.turn import pipeline
    from adjudicator.turn.gm_input import write_gm_input

    expected = json.loads((root / "expected.json").read_text())
    own = generator(expected["ruleset"]) if expected.get("orders_from") == "generator" else None
    if own is not None:
        own.answer(root)
        return
    folder, campaign, ruleset = pipeline.open_campaign(root)
    path = folder.gm_input(campaign.turn)
    if ruleset.name == "star_sectors":
        from openpyxl import load_workbook

        book = load_workbook(path)
        sheet = book["Feasibility"]
        for row in range(2, sheet.max_row + 1):
            sheet.cell(row=row, column=4, value="INFEASIBLE")
        book.save(path)
        return
    answers = expected.get("example_gm_input", {})
    requests = {s.key: pd.DataFrame(answers.get(s.key, []), columns=s.keys()) for s in ruleset.gm_input_schemas}
    write_gm_input(path, ruleset, requests, campaign.turn, campaign.language)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset")
    parser.add_argument("dir", type=Path)
    parser.add_argument("--factions", type=int, required=True)
    parser.add_argument("--orders", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mistakes", type=float, default=0.05)
    parser.add_argument("--from-example", action="store_true",
                        help="the example's orders repeated, even where the ruleset has a generator of its own")
    args = parser.parse_args()
    print(generate(args.ruleset, args.dir, args.factions, args.orders, args.seed, args.mistakes, args.from_example))


if __name__ == "__main__":
    main()
