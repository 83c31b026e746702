"""Where ``run`` pass 2 spends its CPU, in one process: a cProfile of it, the heaviest functions printed.

    ADJUDICATOR_WORKERS=1 python benchmarks/runcost_profile.py DIR [--top 45]

DIR is a campaign (e.g. ``python benchmarks/generate.py star_sectors DIR --factions 40 --orders 300``); a copy of
it is run (pass 1, the GM's answers by ``generate.answer_gm_input``, then pass 2 under the profiler), DIR is left
as it is. With ``ADJUDICATOR_WORKERS=1`` the writer's jobs run in this process, so the profile holds all of them.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--top", type=int, default=45, help="how many functions to print in each order")
    args = parser.parse_args()
    if os.environ.get("ADJUDICATOR_WORKERS", "").strip() != "1":
        raise SystemExit("set ADJUDICATOR_WORKERS=1: the writer's jobs must run in this process to be profiled")
    from generate import answer_gm_input

    from adjudicator.turn import pipeline

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "campaign"
        shutil.copytree(args.dir, root)
        pipeline.run(root)
        answer_gm_input(root)
        profile = cProfile.Profile()
        profile.enable()
        pipeline.run(root)
        profile.disable()
    stats = pstats.Stats(profile)
    stats.sort_stats("cumulative").print_stats(args.top)
    stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
