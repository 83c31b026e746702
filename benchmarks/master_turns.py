"""CPU, wall and peak memory of consecutive turns of a campaign, each `run` as a GM runs it (the master composed of
the old one's parts from the second turn on: adjudicator/store/master_compose.py).

    python benchmarks/master_turns.py DIR [--turns 3]

DIR is a campaign (e.g. made by ``python benchmarks/generate.py star_sectors DIR --factions 40 --orders 300``); a
copy of it is run, DIR is left as it is. Turn 1: pass 1, the GM's answers (generate.answer_gm_input), pass 2;
each later turn: every faction sends its blank order workbook (the cost of carrying the grown master). For each
run: CPU seconds of this process and its workers (both cores, as a GM's run), wall seconds, this process's peak
resident size since the run began (floor.py's ``reset_peak``; a worker's pages it shares are not added), the
master's size after it, and whether the master was composed (no "made the slow way" line for it).
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


def _run(root: Path) -> dict[str, Any]:
    from floor import cpu, peak_mb, reset_peak, workers_peak_mb

    from adjudicator.turn import pipeline

    own_peak = reset_peak()
    start_cpu, start_wall = cpu(), time.perf_counter()
    outcome = pipeline.run(root)
    return {"status": outcome.status, "cpu_s": round(cpu() - start_cpu, 2),
            "wall_s": round(time.perf_counter() - start_wall, 2),
            "peak_mb": peak_mb() if own_peak else None, "largest_worker_mb": workers_peak_mb(),
            "master_kb": round((root / "campaign.xlsx").stat().st_size / 1024),
            "notes": [note.render("en") for note in outcome.notes]}


def measure(campaign: Path, turns: int) -> dict[str, Any]:
    from generate import answer_gm_input

    from adjudicator.turn import pipeline

    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "campaign"
        shutil.copytree(campaign, root)
        out["turn1_pass1"] = _run(root)
        answer_gm_input(root)
        out["turn1_pass2"] = _run(root)
        for number in range(2, turns + 1):
            for template in pipeline.make_templates(root):
                shutil.copyfile(template, root / "inbox" / template.name)
            out[f"turn{number}"] = _run(root)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--turns", type=int, default=3)
    args = parser.parse_args()
    print(json.dumps(measure(args.dir, args.turns), indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
