"""What composing saves when a turn writes the factions' results: each results workbook made both ways, paired.

    python benchmarks/results_compose.py DIR

DIR is a campaign made by ``benchmarks/generate.py``. A copy of it is checked and run (both passes, the GM's
answers given between them, as ``benchmarks/floor.py`` does), in one process. Each faction's results workbook is
made as the run makes it, composed of the player's parts and the new tabs (adjudicator/outputs/compose.py), and,
right after, today's way (the player's workbook reloaded by openpyxl and every sheet written again); the CPU
seconds of each (building the workbook and saving it) are summed over the factions. The run's own figures
stay the composed ones; the paired sums show the writing of results alone, whatever else the machine runs.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def measure(campaign: Path) -> dict[str, Any]:
    import os

    from generate import answer_gm_input

    from adjudicator.turn import pipeline

    os.environ["ADJUDICATOR_WORKERS"] = "1"  # one process: the paired times are this process's CPU
    real_compose, real_save = pipeline.composed_results, pipeline.atomic_save_fast
    built: list[tuple[Any, float]] = []
    figures = {"composed_cpu_s": 0.0, "today_cpu_s": 0.0, "workbooks": 0, "slow_way": 0}

    def composed_results(submission: Any, build: Any) -> Any:
        start = time.process_time()
        wb = real_compose(submission, build)
        built.append((build, time.process_time() - start))
        return wb

    def atomic_save_fast(wb: Any, target: Path) -> Any:
        if not built:  # the master
            return real_save(wb, target)
        build, building = built.pop()
        start = time.process_time()
        saved = real_save(wb, target)
        figures["composed_cpu_s"] += building + time.process_time() - start
        figures["slow_way"] += bool(saved.slow_way)
        start = time.process_time()
        real_save(build(False), target.with_name(target.stem + ".today.xlsx"))
        figures["today_cpu_s"] += time.process_time() - start
        target.with_name(target.stem + ".today.xlsx").unlink()
        figures["workbooks"] += 1
        return saved

    pipeline.composed_results, pipeline.atomic_save_fast = composed_results, atomic_save_fast  # type: ignore
    try:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "campaign"
            shutil.copytree(campaign, root)
            pipeline.check(root)
            if pipeline.run(root).status == "waiting":
                answer_gm_input(root)
                pipeline.run(root)
    finally:
        pipeline.composed_results, pipeline.atomic_save_fast = real_compose, real_save  # type: ignore
    figures["composed_cpu_s"] = round(figures["composed_cpu_s"], 2)
    figures["today_cpu_s"] = round(figures["today_cpu_s"], 2)
    figures["ratio"] = round(figures["today_cpu_s"] / max(figures["composed_cpu_s"], 1e-9), 2)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    args = parser.parse_args()
    print(json.dumps(measure(args.dir), indent=2))


if __name__ == "__main__":
    main()
