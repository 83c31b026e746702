"""CPU, wall and peak memory of consecutive turns of a campaign, each `run` as a GM runs it (the master composed of
the old one's parts from the second turn on: adjudicator/store/master_compose.py).

    python benchmarks/master_turns.py DIR [--turns 3]

DIR is a campaign (e.g. made by ``python benchmarks/generate.py star_sectors DIR --factions 40 --orders 300``); a
copy of it is run, DIR is left as it is. Turn 1: pass 1, the GM's answers (generate.answer_gm_input), pass 2;
each later turn: every faction sends its blank order workbook (the cost of carrying the grown master). For each
run, in a process of its own: CPU seconds of that process and its workers (both cores, as a GM's run), wall
seconds, its peak resident size and its largest worker's (the master is written by the first worker; a worker's
pages shared with the process are not to be added), the master's size after it, and the run's notes (a master
made the slow way says so there).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def _run(root: Path) -> dict[str, Any]:
    """One ``run`` of the campaign in ``root``, in a process of its own (so that its workers' peak is its own)."""
    code = ("import json, sys, time; from pathlib import Path; from floor import cpu, peak_mb, reset_peak, "
            "workers_peak_mb; from adjudicator.turn import pipeline; own = reset_peak(); "
            "start, wall = cpu(), time.perf_counter(); outcome = pipeline.run(Path(sys.argv[1])); "
            "print(json.dumps({'status': outcome.status, 'cpu_s': round(cpu() - start, 2), "
            "'wall_s': round(time.perf_counter() - wall, 2), 'peak_mb': peak_mb() if own else None, "
            "'largest_worker_mb': workers_peak_mb(), 'notes': [n.render('en') for n in outcome.notes]}))")
    done = subprocess.run([sys.executable, "-c", code, str(root)], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "benchmarks")])})
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    answer["master_kb"] = round((root / "campaign.xlsx").stat().st_size / 1024)
    return answer


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
