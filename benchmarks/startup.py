"""`check` of one workbook, the whole process, against python + openpyxl import + a calamine read of it.

    python benchmarks/startup.py [--ruleset star_sectors] [--workbook ALPHA.xlsx] [--runs 5]

Paired runs, alternating: ``adjudicator check <copy of the example> inbox/<workbook>`` in a fresh process
(so every import and every catalog it loads counts), then the floor, a fresh ``python`` that imports openpyxl
and reads every sheet of the same workbook with python-calamine. CPU seconds (user + sys of the child) and
wall seconds; the medians and their ratio. Target (issue 16): within 1.5×.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TARGET = 1.5
FLOOR = ("import sys, openpyxl, python_calamine as pc; b = pc.CalamineWorkbook.from_path(sys.argv[1]); "
         "[b.get_sheet_by_name(n).to_python() for n in b.sheet_names]")


def _timed(args: list[str], cwd: Path) -> tuple[float, float]:
    """CPU (user + sys) and wall seconds of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env={**os.environ, "COLUMNS": "80"})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def measure(ruleset: str = "star_sectors", workbook: str = "ALPHA.xlsx", runs: int = 5) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from adjudicator.paths import examples_root

    example = examples_root() / ruleset
    adjudicator = Path(sys.executable).with_name("adjudicator")
    command = [str(adjudicator)] if adjudicator.exists() else [sys.executable, "-m", "adjudicator"]
    project, floor = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs + 1):  # the first pair warms the disk cache and the .pyc files; not counted
            root = Path(tmp) / f"c{i}"
            shutil.copytree(example, root)
            path = root / "inbox" / workbook
            one = _timed([*command, "check", str(root), str(path)], root)
            two = _timed([sys.executable, "-c", FLOOR, str(path)], root)
            if i:
                project.append(one)
                floor.append(two)
    cpu = statistics.median(c for c, _ in project), statistics.median(c for c, _ in floor)
    wall = statistics.median(w for _, w in project), statistics.median(w for _, w in floor)
    return {"command": f"adjudicator check examples/{ruleset} inbox/{workbook}", "runs": runs,
            "project": {"cpu_s": round(cpu[0], 3), "wall_s": round(wall[0], 3)},
            "floor": {"cpu_s": round(cpu[1], 3), "wall_s": round(wall[1], 3)},
            "ratio_cpu": round(cpu[0] / cpu[1], 2), "ratio_wall": round(wall[0] / wall[1], 2),
            "load": os.getloadavg()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="star_sectors")
    parser.add_argument("--workbook", default="ALPHA.xlsx")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    result = measure(args.ruleset, args.workbook, args.runs)
    print(json.dumps(result, indent=2))
    sys.exit(0 if result["ratio_cpu"] <= TARGET else 1)


if __name__ == "__main__":
    main()
