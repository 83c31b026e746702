"""What the collections before a command's pools cost: each one's CPU and the objects it walked (issue 16).

    python benchmarks/pool_collections.py DIR [--step check|run]

DIR is a campaign (``benchmarks/generate.py``; for ``run``, one waiting for its second pass: checked, run once
and its GM's input answered). A copy of it is checked or run in this process, with two workers and no reading
kept from before (``ADJUDICATOR_CACHE=off``); DIR is left as it is. Before it forks a pool's workers, the
command hands its free memory back (``parallel.release_free_memory``): a whole collection before the first pool
of a command, none before the next ones (``parallel.pools_in_a_row``). Each is printed: whether it collected,
its CPU, the objects the collector then tracked (those not frozen: what a whole collection walks) and those it
freed. Run it with ``PYTHONPATH=TREE`` to measure another checkout (one without ``pools_in_a_row`` collects
before every pool).
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--step", choices=("check", "run"), default="check")
    args = parser.parse_args()
    os.environ["ADJUDICATOR_WORKERS"] = "2"
    os.environ["ADJUDICATOR_CACHE"] = "off"
    from adjudicator.outputs import parallel
    from adjudicator.turn import pipeline

    real = parallel.release_free_memory
    seen: list[tuple[bool, float, int, int]] = []

    def timed(*args: Any, **kwargs: Any) -> None:
        collects = kwargs.get("collect", args[0] if args else True)
        tracked = len(gc.get_objects())
        freed_before = sum(stat["collected"] for stat in gc.get_stats())
        started = time.process_time()
        real(*args, **kwargs)
        spent = time.process_time() - started
        seen.append((collects, spent, tracked, sum(stat["collected"] for stat in gc.get_stats()) - freed_before))

    parallel.release_free_memory = timed
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch) / "campaign"
        shutil.copytree(args.dir, work)
        started = time.process_time()
        (pipeline.check if args.step == "check" else pipeline.run)(work)
        total = time.process_time() - started
    print(f"{args.step}: {total:.2f} s of this process's CPU (the workers' apart; load {os.getloadavg()[0]:.2f})")
    for number, (collects, spent, tracked, freed) in enumerate(seen, start=1):
        what = "whole collection" if collects else "no collection"
        print(f"  before pool {number}: {what}, {spent:.3f} s, {tracked:,} objects tracked, {freed:,} freed",
              file=sys.stdout)


if __name__ == "__main__":
    main()
