"""The resident size of each step of writing campaign.xlsx: before, after and the step's own peak, in MB.

    ADJUDICATOR_WORKERS=1 python benchmarks/master_memory.py DIR

DIR is a campaign (e.g. ``python benchmarks/generate.py star_sectors DIR --factions 160 --orders 50``); a copy
of it is run (pass 1, the GM's answers, pass 2), DIR is left as it is. With ``ADJUDICATOR_WORKERS=1`` the master
is written first, in this process, so what it adds to the resident size at the fork is its own (Linux only:
``/proc/self/status``, the peak reset before each step through ``/proc/self/clear_refs``).
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

def rss() -> tuple[int, int]:
    """(resident size, its peak since the last reset), MB."""
    status = Path("/proc/self/status").read_text()
    found = [re.search(rf"{key}:\s+(\d+)", status) for key in ("VmRSS", "VmHWM")]
    return int(found[0].group(1)) // 1024, int(found[1].group(1)) // 1024  # type: ignore[union-attr]


inside = [False]


def wrap(owner: Any, name: str) -> None:
    """``owner.name`` printing the resident size around each call made while the master is written."""
    f = getattr(owner, name)

    def w(*a: Any, **k: Any) -> Any:
        if not inside[0] and name != "write_master":
            return f(*a, **k)
        before = rss()
        Path("/proc/self/clear_refs").write_text("5")
        try:
            return f(*a, **k)
        finally:
            after = rss()
            print(f"{name:28} rss {before[0]:5} -> {after[0]:5}  peak in step {after[1]:5}", flush=True)
    setattr(owner, name, w)


def main() -> None:
    from generate import answer_gm_input

    from adjudicator.outputs import fast_save, layout
    from adjudicator.outputs.maps.turn import TurnPictures
    from adjudicator.store import master, master_compose
    from adjudicator.turn import pipeline

    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    steps = [(master, "open_master"), (master, "write_state"), (master, "append_ledger_and_dice"),
             (master, "add_turn_tabs"), (TurnPictures, "decorate_master"), (pipeline, "atomic_save_fast"),
             (master_compose, "read_old_master"), (master_compose, "open_stubbed"),
             (master_compose, "save_composed"), (master_compose, "compose_master"),
             (fast_save, "save_fast"), (layout, "lay_out")]
    for owner, name in steps:
        if hasattr(owner, name):
            wrap(owner, name)
    in_parallel = pipeline.in_parallel

    def master_first(jobs: list[Callable[[], Any]]) -> list[Any]:
        write_master = jobs[0]

        def measured() -> Any:
            inside[0] = True
            print(f"at the fork: rss {rss()[0]}", flush=True)
            Path("/proc/self/clear_refs").write_text("5")
            try:
                return write_master()
            finally:
                inside[0] = False
                now, peak = rss()
                print(f"the master written: rss {now}, peak {peak}", flush=True)
        return in_parallel([measured, *jobs[1:]])

    pipeline.in_parallel = master_first
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "campaign"
        shutil.copytree(sys.argv[1], root)
        pipeline.run(root)  # pass 1: the GM's questions
        answer_gm_input(root)
        pipeline.run(root)  # pass 2: the turn, its master


if __name__ == "__main__":
    main()
