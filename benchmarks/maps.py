"""What the pictures cost in a large campaign's turn: maps, History charts and Changes tabs.

    python benchmarks/maps.py [--factions 20] [--rows 500] [--size 20] [--workers 1]

Builds a large star_sectors campaign (FACTIONS factions on a SIZE x SIZE map, each holding a column,
ROWS orders each), resolves its turn, and measures the time spent drawing the maps (one per faction,
the GM's and the public one) and adding the Map, Changes and History tabs, against the whole turn.
Target: the maps under 15 % of the turn's CPU time (the pictures' whole work, Changes and History tabs
included, is reported beside it).

The shares are measured in one process (``--workers 1``, the default): the timed functions run in the
parallel writer's workers otherwise, where this process's timers do not see them. CPU time is the
process's and its finished workers' (``resource.getrusage``); the load average is recorded beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import letters  # noqa: E402 - the spreadsheet's column letters, as the generator names squares
from openpyxl import load_workbook  # noqa: E402

from adjudicator.outputs.maps import turn  # noqa: E402
from adjudicator.turn import pipeline  # noqa: E402
from tests.helpers import make_campaign, write_orders  # noqa: E402

MAPS_TARGET = 0.15


def cpu_time() -> float:
    """CPU seconds of this process and of the workers it waited for."""
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def scenario(factions: int, size: int) -> dict:
    names = [f"F{i:02d}" for i in range(factions)]
    squares = [{"square": f"{letters(x - 1)}{y}", "x": x, "y": y, "income": 5 + (x * y) % 20, "passable": "YES"}
               for y in range(1, size + 1) for x in range(1, size + 1)]
    fleets = []
    for i, name in enumerate(names):  # each faction holds a column of the map
        x = 1 + (i * size) // factions
        fleets += [{"faction": name, "square": f"{letters(x - 1)}{y}", "value": 100} for y in range(1, size + 1)]
    return {
        "settings": {"ruleset": "star_sectors", "campaign": "bench", "seed": 1, "turn": 1, "language": "en",
                     "secret": "bench"},
        "tables": {"factions": [{"id": n, "name": n, "language": "en", "treasury": 10**7} for n in names],
                   "fleets": fleets, "map": squares, "projects": [], "usages": []},
    }


def orders(index: int, factions: int, size: int, rows: int) -> list[dict]:
    x = 1 + (index * size) // factions
    col = letters(x - 1)
    out = []
    for r in range(rows):
        y = 1 + r % size
        kind = r % 3
        if kind == 0:
            out.append({"order": "BUILD", "square": f"{col}{y}", "amount": 1})
        elif kind == 1:
            out.append({"order": "MOVE", "square": f"{col}{y}", "to": f"{col}{1 + y % size}", "amount": 1})
        else:
            out.append({"order": "FEASIBILITY", "description": f"request {r}"})
    return out


class Timer:
    """Adds up the time spent in a function, wall clock and CPU (the function itself is unchanged). The
    shares are reported by CPU time too, which other programs on a busy machine disturb less."""

    def __init__(self, owner: object, name: str) -> None:
        self.seconds = 0.0
        self.cpu = 0.0
        real = getattr(owner, name)

        def timed(*args: object, **kwargs: object) -> object:
            start, cpu = time.perf_counter(), cpu_time()
            try:
                return real(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start
                self.cpu += cpu_time() - cpu

        setattr(owner, name, timed)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--factions", type=int, default=20)
    parser.add_argument("--rows", type=int, default=500)
    parser.add_argument("--size", type=int, default=20)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    os.environ["ADJUDICATOR_WORKERS"] = str(args.workers)
    drawing = Timer(turn, "render_many")  # draws a reader's map (PNG and SVG), in the job writing its workbook
    # the pictures' tabs (a faction's map drawn in decorate_results, the GM's and the public one before the master)
    tabs = [Timer(turn.TurnPictures, "decorate_results"), Timer(turn.TurnPictures, "draw_master_maps"),
            Timer(turn.TurnPictures, "decorate_master")]
    embedding = Timer(turn, "add_map_tab")
    changes = Timer(turn, "write_changes")  # the Changes tab's sheet (its rows computed before, in decorate_results)
    with tempfile.TemporaryDirectory() as tmp:
        root = make_campaign(Path(tmp) / "bench", scenario(args.factions, args.size))
        for i in range(args.factions):
            write_orders(root, f"F{i:02d}", orders(i, args.factions, args.size, args.rows))
        first = pipeline.run(root)
        book = load_workbook(first.gm_input)
        sheet = book["Feasibility"]
        for row in range(2, sheet.max_row + 1):
            sheet.cell(row=row, column=4, value="INFEASIBLE")
        book.save(first.gm_input)
        load = os.getloadavg()[0]
        start, cpu = time.perf_counter(), cpu_time()
        second = pipeline.run(root)
        turn_s, turn_cpu = time.perf_counter() - start, cpu_time() - cpu
    pictures_s = sum(t.seconds for t in tabs)  # every map is drawn inside one of them
    pictures_cpu = sum(t.cpu for t in tabs)
    result = {
        "factions": args.factions, "rows_per_faction": args.rows, "map": f"{args.size}x{args.size}",
        "status": second.status, "turn_s": round(turn_s, 2), "maps_s": round(drawing.seconds, 2),
        "map_tabs_s": round(embedding.seconds, 2), "changes_sheets_cpu_s": round(changes.cpu, 2),
        "pictures_s": round(pictures_s, 2),
        "turn_cpu_s": round(turn_cpu, 2), "maps_cpu_s": round(drawing.cpu, 2), "pictures_cpu_s": round(pictures_cpu, 2),
        "maps_share": round(drawing.seconds / turn_s, 3), "pictures_share": round(pictures_s / turn_s, 3),
        "maps_cpu_share": round(drawing.cpu / turn_cpu, 3), "pictures_cpu_share": round(pictures_cpu / turn_cpu, 3),
        "targets": {"maps_cpu_share": MAPS_TARGET}, "workers": args.workers,
        "load_average": [round(load, 1), round(os.getloadavg()[0], 1)],
    }
    result["within_targets"] = second.status == "resolved" and result["maps_cpu_share"] < MAPS_TARGET
    print(json.dumps(result, indent=2))
    sys.exit(0 if result["within_targets"] else 1)


if __name__ == "__main__":
    main()
