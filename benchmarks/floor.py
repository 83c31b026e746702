"""The I/O floor of a campaign's `check` and `run`: the same workbooks read, the same cells written, nothing else.

    python benchmarks/floor.py DIR [--check-only]

For each step (``check``, ``run`` pass 1, ``run`` pass 2 after the GM's answers) the project runs once on a
copy of DIR to learn what it reads (the master, the inbox, the GM's input) and what it writes. The floor then
reads every one of those input workbooks with python-calamine (every sheet, every cell) and writes every
workbook the project wrote with XlsxWriter, cell for cell (values only: no styles), and copies the files the
project copied. Times are CPU seconds of this process (``resource.getrusage``) and wall seconds; memory is each
step's own peak, the project's apart from its floor's (the peak resident size is reset before each, on Linux).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from adjudicator.intake.submission_cache import CACHE_ENV  # noqa: E402 - the path is set above


def cpu() -> float:
    """CPU seconds of this process and of the workers it has waited for (the writer's, parallel.py)."""
    usage, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime + workers.ru_utime + workers.ru_stime


def reset_peak() -> bool:
    """Start this process's peak resident size afresh (Linux: ``/proc/self/clear_refs``); whether it could."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def peak_mb() -> float:
    """This process's peak resident size in MB since :func:`reset_peak` (else since it started)."""
    try:
        found = re.search(r"VmHWM:\s+(\d+) kB", Path("/proc/self/status").read_text())
    except OSError:
        found = None
    kib = int(found.group(1)) if found else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(kib / 1024, 1)


def workers_peak_mb() -> float:
    """The peak resident size of the largest worker process waited for so far. The writer's workers are forked
    from this process: the pages they share with it count in both, so the two are not to be added up."""
    return round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1)


class Clock:
    """CPU and wall seconds of a block, and its own peak memory (when the peak can be reset)."""

    def __enter__(self) -> Clock:
        self.own_peak = reset_peak()
        self.cpu, self.wall = cpu(), time.perf_counter()
        return self

    def __exit__(self, *_: object) -> None:
        self.cpu, self.wall = cpu() - self.cpu, time.perf_counter() - self.wall
        self.peak = peak_mb()

    def figures(self) -> dict[str, float]:
        figures = {"cpu_s": round(self.cpu, 3), "wall_s": round(self.wall, 3)}
        if self.own_peak:
            figures["peak_mb"] = self.peak
        return figures


def _digests(root: Path) -> dict[Path, str]:
    return {p: hashlib.sha1(p.read_bytes()).hexdigest() for p in root.rglob("*") if p.is_file()}


def _inputs(root: Path) -> list[Path]:
    """The workbooks a step of the project reads: the master, the inbox, the pending GM input."""
    found = [root / "campaign.xlsx", *sorted((root / "inbox").glob("*.xlsx"))]
    found += sorted((root / "pending").rglob("gm_input.xlsx")) if (root / "pending").exists() else []
    return [p for p in found if p.exists()]


def grids(path: Path) -> dict[str, list[list[Any]]]:
    import python_calamine as pc

    book = pc.CalamineWorkbook.from_path(str(path))
    return {name: book.get_sheet_by_name(name).to_python() for name in book.sheet_names}


def write_cells(path: Path, sheets: dict[str, list[list[Any]]]) -> None:
    import xlsxwriter

    book = xlsxwriter.Workbook(str(path), {"constant_memory": True, "strings_to_numbers": False,
                                           "strings_to_formulas": False, "strings_to_urls": False})
    for name, rows in sheets.items():
        sheet = book.add_worksheet(name[:31])
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if value not in ("", None):
                    sheet.write(r, c, value)
    book.close()


class Step:
    """What one step of the project read and wrote, learnt by running it on the campaign."""

    def __init__(self, root: Path, action: Callable[[Path], Any], scratch: Path) -> None:
        (scratch / "inputs").mkdir(parents=True)
        self.inputs = []  # copies: a step may move its inputs (the inbox is archived)
        for i, path in enumerate(_inputs(root)):
            self.inputs.append(scratch / "inputs" / f"{i}-{path.name}")
            shutil.copyfile(path, self.inputs[-1])
        self.scratch = scratch / "floor"
        before = _digests(root)
        with Clock() as clock:
            action(root)
        self.project = clock
        after = _digests(root)
        changed = [p for p, d in after.items() if before.get(p) != d]
        self.copied = [(next(q for q, e in before.items() if e == after[p]), p) for p in changed
                       if after[p] in before.values()]
        copies = {p for _, p in self.copied}
        self.written = {p: grids(p) for p in changed if p.suffix == ".xlsx" and p not in copies}
        self.other = [p for p in changed if p.suffix != ".xlsx" and p not in copies]

    def floor(self) -> Clock:
        scratch = self.scratch
        scratch.mkdir(parents=True, exist_ok=True)
        with Clock() as clock:
            for path in self.inputs:
                grids(path)
            for i, (path, sheets) in enumerate(self.written.items()):
                write_cells(scratch / f"{i}-{path.name}", sheets)
            for i, (_, copy) in enumerate(self.copied):  # the copy itself: its source may have moved
                shutil.copyfile(copy, scratch / f"copy{i}-{copy.name}")
        return clock

    def summary(self, floor: Clock) -> dict[str, Any]:
        """The figures of the step; the grids it wrote are let go (the next step's peak memory is its own)."""
        written, self.written = self.written, {}
        return {"project": self.project.figures(), "floor": floor.figures(),
                "ratio_cpu": round(self.project.cpu / max(floor.cpu, 1e-9), 2),
                "ratio_wall": round(self.project.wall / max(floor.wall, 1e-9), 2),
                "read": len(self.inputs), "written": len(written), "copied": len(self.copied),
                "cells_written": sum(sum(1 for row in s for v in row if v not in ("", None))
                                     for sheets in written.values() for s in sheets.values())}


def measure(campaign: Path, check_only: bool = False, warm: bool = False) -> dict[str, Any]:
    """check, run pass 1, the GM's answers, run pass 2 of a copy of ``campaign``: project and floor of each
    (with ``check_only``, the check alone). With ``warm``, a check of another copy is made first and not
    measured: what a process pays once (imports, the first call's caches) is left out of the figures, as a
    scaling table needs (a few seconds of the run, a third of a small check). The check measured reads every
    workbook and keeps its readings for the run's passes, as a GM's check does (submission_cache.py), in a
    folder of its own: never the user's."""
    from generate import answer_gm_input

    from adjudicator.turn import pipeline

    with tempfile.TemporaryDirectory() as tmp, readings_kept_in(None):
        if warm:
            shutil.copytree(campaign, Path(tmp) / "warm-up")
            pipeline.check(Path(tmp) / "warm-up")  # keeps no reading: the check measured reads every workbook
        os.environ[CACHE_ENV] = str(Path(tmp) / "kept")  # the check's readings, found by the run's passes
        root = Path(tmp) / "campaign"
        shutil.copytree(campaign, root)
        out: dict[str, Any] = {"turn_before": pipeline.open_campaign(root)[1].turn}
        check = Step(root, pipeline.check, Path(tmp) / "check")
        out["check"] = check.summary(check.floor())
        if check_only:
            return out
        first = Step(root, pipeline.run, Path(tmp) / "run1")
        out["run_pass1"] = first.summary(first.floor())
        answer_gm_input(root)
        second = Step(root, pipeline.run, Path(tmp) / "run2")
        out["run_pass2"] = second.summary(second.floor())
        # The next turn's commands open the master the run wrote: the first surveys it, the next ones find its
        # survey kept (kept_survey.py); against the floor's reading of it, every sheet by calamine.
        with Clock() as opened:
            out["turn_after"] = pipeline.open_campaign(root)[1].turn
        with Clock() as again:
            pipeline.open_campaign(root)
        with Clock() as read:
            grids(root / "campaign.xlsx")
        out["next_turn_open"] = {"first": opened.figures(), "again": again.figures(), "floor": read.figures()}
    return out


@contextmanager
def readings_kept_in(folder: Path | None) -> Iterator[None]:
    """The readings of submissions kept in ``folder`` meanwhile (None: none kept), as a GM's check keeps them
    for the run that follows (submission_cache.py); the user's own cache is never read nor written here."""
    before = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(folder) if folder is not None else "off"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(CACHE_ENV, None)
        else:
            os.environ[CACHE_ENV] = before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--check-only", action="store_true", help="measure the check alone")
    args = parser.parse_args()
    print(json.dumps(measure(args.dir, args.check_only), indent=2))


if __name__ == "__main__":
    main()
