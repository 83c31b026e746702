"""`check` of one workbook, the whole process, against python + openpyxl import + a calamine read of it.

    python benchmarks/startup.py [--ruleset star_sectors] [--workbook ALPHA.xlsx] [--runs 5] [--code DIR ...]

Paired runs, alternating: ``adjudicator check <copy of the example> inbox/<workbook>`` in a fresh process
(so every import and every catalog it loads counts), then the floor, a fresh ``python`` that imports openpyxl
and reads every sheet of the same workbook with python-calamine. CPU seconds (user + sys of the child) and
wall seconds; the medians and their ratio. Target (issue 16): within 1.5×.

``--code DIR`` (repeatable) measures the adjudicator package of each DIR instead (a checkout of another
commit, put first on ``PYTHONPATH``), every DIR's run beside the others' and the floor's in each round:
before and after, at the same load.
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


def _timed(args: list[str], cwd: Path, code: Path | None = None,
           extra: dict[str, str] | None = None) -> tuple[float, float]:
    """CPU (user + sys) and wall seconds of one child process (``code``: the adjudicator package's checkout;
    ``extra``: variables added to its environment)."""
    env = {**os.environ, "COLUMNS": "80", **(extra or {})}
    # The floor's libraries are byte-compiled when installed, as an installed adjudicator is: with
    # PYTHONDONTWRITEBYTECODE set, an editable checkout would compile its own modules in every run instead.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if code is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(code), *filter(None, [os.environ.get("PYTHONPATH")])])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def measure(ruleset: str = "star_sectors", workbook: str = "ALPHA.xlsx", runs: int = 5,
            code: list[Path] | None = None) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from adjudicator.paths import examples_root

    example = examples_root() / ruleset
    adjudicator = Path(sys.executable).with_name("adjudicator")
    command = [str(adjudicator)] if adjudicator.exists() else [sys.executable, "-m", "adjudicator"]
    if code:
        command = [sys.executable, "-m", "adjudicator"]  # the package on PYTHONPATH, not the installed one
    codes: list[Path | None] = list(code or [None])
    project: dict[int, list[tuple[float, float]]] = {k: [] for k in range(len(codes))}
    floor, floor_one = [], []
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs + 1):  # the first round warms the disk cache and the .pyc files; not counted
            for k, checkout in enumerate(codes):
                root = Path(tmp) / f"c{i}-{k}"
                shutil.copytree(example, root)
                path = root / "inbox" / workbook
                # a check of a workbook never read before: no reading kept by an earlier round (submission_cache.py)
                one = _timed([*command, "check", str(root), str(path)], root, checkout,
                             extra={"ADJUDICATOR_CACHE": str(Path(tmp) / f"kept{i}-{k}")})
                if i:
                    project[k].append(one)
            two = _timed([sys.executable, "-c", FLOOR, str(path)], root)
            three = _timed([sys.executable, "-c", FLOOR, str(path)], root, extra={"OPENBLAS_NUM_THREADS": "1"})
            if i:
                floor.append(two)
                floor_one.append(three)
    floor_cpu, floor_wall = statistics.median(c for c, _ in floor), statistics.median(w for _, w in floor)
    one_cpu, one_wall = statistics.median(c for c, _ in floor_one), statistics.median(w for _, w in floor_one)
    results = []
    for k, checkout in enumerate(codes):
        cpu, wall = statistics.median(c for c, _ in project[k]), statistics.median(w for _, w in project[k])
        results.append({"command": f"adjudicator check examples/{ruleset} inbox/{workbook}", "runs": runs,
                        "code": str(checkout) if checkout else None,
                        "project": {"cpu_s": round(cpu, 3), "wall_s": round(wall, 3)},
                        "floor": {"cpu_s": round(floor_cpu, 3), "wall_s": round(floor_wall, 3)},
                        "ratio_cpu": round(cpu / floor_cpu, 2), "ratio_wall": round(wall / floor_wall, 2),
                        "floor_one_blas_thread": {"cpu_s": round(one_cpu, 3), "wall_s": round(one_wall, 3)},
                        "ratio_cpu_one_blas_thread_floor": round(cpu / one_cpu, 2),
                        "load": os.getloadavg(), "load_before": load_before})
    return results[0] if not code else {"compared": results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="star_sectors")
    parser.add_argument("--workbook", default="ALPHA.xlsx")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--code", type=Path, action="append",
                        help="a checkout whose adjudicator package is measured (repeat to compare)")
    args = parser.parse_args()
    result = measure(args.ruleset, args.workbook, args.runs, args.code)
    print(json.dumps(result, indent=2))
    ratios = [r["ratio_cpu"] for r in result.get("compared", [result])]
    sys.exit(0 if min(ratios) <= TARGET else 1)


if __name__ == "__main__":
    main()
