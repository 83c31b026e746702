"""Benchmarks of the whole pipeline on a large synthetic star_sectors campaign.

    python benchmarks/run.py [--factions 20] [--rows 500] [--size 20]

Builds a campaign of FACTIONS factions on a SIZE x SIZE map, one filled order workbook per faction
with ROWS orders, then times `check` and `run` (both passes) and reports peak memory. Results are
printed and written to benchmarks/results/<date>.json. Targets (2 cores): check and run of 20
factions x 500 rows within 60 s each, peak memory under 1 GiB.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudicator.campaign import pipeline  # noqa: E402
from tests.helpers import make_campaign, write_orders  # noqa: E402

TARGET_SECONDS = 60.0
TARGET_MEMORY_MB = 1024


def letters(n: int) -> str:
    out = ""
    while True:
        n, r = divmod(n, 26)
        out = chr(65 + r) + out
        if n == 0:
            return out
        n -= 1


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--factions", type=int, default=20)
    parser.add_argument("--rows", type=int, default=500)
    parser.add_argument("--size", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = make_campaign(Path(tmp) / "bench", scenario(args.factions, args.size))
        start = time.perf_counter()
        names = [f"F{i:02d}" for i in range(args.factions)]
        for i, name in enumerate(names):
            write_orders(root, name, orders(i, args.factions, args.size, args.rows))
        build_s = time.perf_counter() - start
        start = time.perf_counter()
        checked = pipeline.check(root)
        check_s = time.perf_counter() - start
        errors = sum(len(s.problems.errors) for s in checked.submissions)
        start = time.perf_counter()
        first = pipeline.run(root)
        pass1_s = time.perf_counter() - start
        # Answer every feasibility request so that the second pass resolves the turn.
        from openpyxl import load_workbook

        book = load_workbook(first.gm_input)
        sheet = book["Feasibility"]
        for row in range(2, sheet.max_row + 1):
            sheet.cell(row=row, column=4, value="INFEASIBLE")
        book.save(first.gm_input)
        start = time.perf_counter()
        second = pipeline.run(root)
        pass2_s = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    result = {
        "date": dt.datetime.now().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "factions": args.factions, "rows_per_faction": args.rows, "map": f"{args.size}x{args.size}",
        "build_workbooks_s": round(build_s, 2), "check_s": round(check_s, 2), "check_errors": errors,
        "run_pass1_s": round(pass1_s, 2), "run_pass2_s": round(pass2_s, 2), "status": second.status,
        "peak_rss_mb": round(peak_mb, 1),
        "targets": {"seconds": TARGET_SECONDS, "memory_mb": TARGET_MEMORY_MB},
    }
    ok = (second.status == "resolved" and max(check_s, pass2_s) <= TARGET_SECONDS and peak_mb <= TARGET_MEMORY_MB)
    result["within_targets"] = ok
    out = ROOT / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{dt.date.today().isoformat()}.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
