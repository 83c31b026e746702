"""CPU seconds of each step of ``write_master`` (campaign.xlsx of the next turn), run pass 1 and pass 2.

    ADJUDICATOR_WORKERS=1 python benchmarks/master_steps.py DIR [--second-turn]

DIR is a campaign (e.g. made by ``python benchmarks/generate.py star_sectors DIR --factions 20 --orders 300``);
a copy of it is run, DIR is left as it is. With ``ADJUDICATOR_WORKERS=1`` the master is written in this
process, so each step's ``process_time`` is its own: the functions ``write_master`` calls are wrapped with a
clock (open_master, stream_new_tabs, write_state, append_ledger_and_dice, add_turn_tabs, decorate_master,
atomic_save_fast, and within it layout.lay_out and fast_save.save_workbook; composed: read_old_master, open_stubbed,
save_composed, and within it lay_out, save_fast, compose_master); ``rest`` is the rest of
``write_master`` (the outcome rows in every language).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def _timed(times: dict[str, float], name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function``, adding the CPU seconds of each call made inside ``write_master`` (or of ``write_master``
    itself) to ``times[name]``: the same functions also write the factions' workbooks, not counted."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        counted = name == "write_master" or _INSIDE_MASTER
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            if counted:
                times[name] = times.get(name, 0.0) + time.process_time() - start
    return wrapper


_INSIDE_MASTER = False
#: totals, or parts of a step counted already (of atomic_save_fast, of save_composed, of compose_master)
PARTS = ("write_master", "run", "lay_out", "save_workbook", "save_fast", "compose_master")


def _inside_master(job: Callable[[], Any]) -> Callable[[], Any]:
    """``job`` (write_master) with the steps it calls counted."""
    def wrapper() -> Any:
        global _INSIDE_MASTER
        _INSIDE_MASTER = True
        try:
            return job()
        finally:
            _INSIDE_MASTER = False
    return wrapper


def _profiled_pass(root: Path, times: dict[str, float]) -> None:
    """One ``run`` of the campaign in ``root``, the steps of its master timed into ``times``."""
    from adjudicator.outputs import fast_save, layout
    from adjudicator.outputs.maps.turn import TurnPictures
    from adjudicator.store import master
    from adjudicator.turn import pipeline

    try:
        from adjudicator.store import master_compose  # the composed master's steps
    except ImportError:  # the code before the master was composed
        master_compose = None

    patched = [(master, "open_master"), (master, "write_state"), (master, "append_ledger_and_dice"),
               (master, "add_turn_tabs"), (TurnPictures, "decorate_master"), (pipeline, "stream_new_tabs"),
               (pipeline, "atomic_save_fast"), (layout, "lay_out"),
               (fast_save, "save_workbook"), (fast_save, "save_fast"), (master_compose, "read_old_master"),
               (master_compose, "open_stubbed"), (master_compose, "save_composed"), (master_compose, "compose_master")]
    originals = [(owner, name, getattr(owner, name)) for owner, name in patched if hasattr(owner, name)]
    in_parallel = pipeline.in_parallel

    def first_job_timed(jobs: list[Callable[[], Any]]) -> list[Any]:
        return in_parallel([_timed(times, "write_master", _inside_master(jobs[0])), *jobs[1:]])

    try:
        for owner, name, original in originals:
            setattr(owner, name, _timed(times, name, original))
        pipeline.in_parallel = first_job_timed
        start = time.process_time()
        pipeline.run(root)
        times["run"] = time.process_time() - start
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)
        pipeline.in_parallel = in_parallel
    if "write_master" in times:  # a pass that stops for the GM's answers writes no master
        times["rest"] = times["write_master"] - sum(v for k, v in times.items() if k not in PARTS)


def measure(campaign: Path, second_turn: bool = False) -> dict[str, Any]:
    """Run pass 1, the GM's answers, run pass 2 of a copy of ``campaign``; the step times of each pass (with
    ``second_turn``, and of the next turn's run, every faction sending its blank order workbook)."""
    from generate import answer_gm_input

    if os.environ.get("ADJUDICATOR_WORKERS", "").strip() != "1":
        raise SystemExit("set ADJUDICATOR_WORKERS=1: the master must be written in this process to be timed")
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "campaign"
        shutil.copytree(campaign, root)
        out["master_kb_before"] = round((root / "campaign.xlsx").stat().st_size / 1024)
        for name in ("run_pass1", "run_pass2"):
            if name == "run_pass2":
                answer_gm_input(root)
            times: dict[str, float] = {}
            _profiled_pass(root, times)
            out[name] = {k: round(v, 3) for k, v in times.items()}
        out["master_kb_after"] = round((root / "campaign.xlsx").stat().st_size / 1024)
        if second_turn:
            _blank_orders_in_inbox(root)
            times = {}
            _profiled_pass(root, times)
            out["turn2_blank_orders"] = {k: round(v, 3) for k, v in times.items()}
            out["master_kb_after_turn2"] = round((root / "campaign.xlsx").stat().st_size / 1024)
    return out


def _blank_orders_in_inbox(root: Path) -> None:
    """Every faction's blank order workbook of the campaign's turn put in its inbox: a turn with no orders,
    whose master is reloaded grown by the turn before (its Ledger, its tabs)."""
    from adjudicator.turn import pipeline

    for template in pipeline.make_templates(root):
        shutil.copyfile(template, root / "inbox" / template.name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--second-turn", action="store_true",
                        help="then run the next turn, every faction sending its blank order workbook")
    args = parser.parse_args()
    print(json.dumps(measure(args.dir, args.second_turn), indent=2))


if __name__ == "__main__":
    main()
