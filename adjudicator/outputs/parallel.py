"""Writing the factions' workbooks on both cores.

Each faction's workbook (its checked copy, its results) is built and saved from the turn's data alone,
so they can be written by worker processes forked from the one that resolved the turn: the workers
inherit everything in memory (the campaign, the outcomes, the drawn maps) and only the job's number and
its small answer (a path, a digest) cross between processes. Every workbook is built by the same code
as in a single process, so the files are byte for byte the same (tests/core/test_parallel_writing.py).

``ADJUDICATOR_WORKERS`` sets the number of processes (``1``: everything in this process); by default two
where the machine has two cores or more and can fork, and only for more than one workbook. A worker
dies with the process that forked it, so a killed command leaves no writer behind.

Memory: a forked worker's resident size starts with every page of its parent it maps. Before forking, the
parent collects its garbage, gives the C heap's free pages back (glibc's ``malloc_trim``) and freezes what is
left (``gc.freeze``: the workers' collector never walks, so never copies, the inherited objects). A worker's
collector is held off while a job runs: what a job makes lives until it ends (a workbook's cells, until it is
saved), and the collections in between only walked it again and again (a tenth of the CPU of a 40-state
turn's writing, finding almost nothing). What a job leaves in cycles meanwhile (a drawn map's figure) waits for
its end: the largest worker of a 160-faction turn peaked 25 MB higher (448 MB). After each job the worker
collects that job's garbage (a short walk: only the youngest generation, which holds all the job made), so one
job's workbook is not carried into the next one's peak (the worker column of benchmarks/bench.py's scaling
table). Jobs run in one process (one worker asked for, fewer than four jobs, or a system without ``fork``, as
Windows, where the workbook's button runs the adjudicator) are run the same way: between a 40-state turn's
jobs the collector had walked the whole campaign and turn again and again (the turn's writing in one process:
108 s of CPU before, 94 s so).

A command that starts pools one after another (a check: reading the workbooks, then writing the checked copies;
a run: reading them, then writing the results) runs them within :func:`pools_in_a_row`: what the first pool
froze stays frozen until the command ends, and the next pool is forked with no collection before it. That
collection walked everything made since the first pool (a 40-state Inner Sphere turn's resolution: over a
million objects, 0.6-0.8 s of CPU) to free a few megabytes (17,704 objects of 1,060,000, 1.8 MB); those few
wait for the command's end, frozen, unseen and untouched by the workers.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar

from adjudicator.quiet_collector import collector_paused

T = TypeVar("T")

#: The jobs of the pool being run, inherited by its forked workers (never pickled).
_JOBS: Sequence[Callable[[], object]] = ()
#: Fewer workbooks than this are written in this process: starting workers would cost more.
LEAST_FOR_WORKERS = 4
#: Within :func:`pools_in_a_row`: [whether a pool froze objects since it began], else empty.
_IN_A_ROW: list[bool] = []


def workers_wanted() -> int:
    wanted = os.environ.get("ADJUDICATOR_WORKERS", "").strip()
    if wanted.isdigit() and int(wanted) >= 1:
        return int(wanted)
    return min(os.cpu_count() or 1, 2)


def _die_with_parent() -> None:
    """Ask the kernel to kill this worker when its parent dies (Linux); elsewhere nothing."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except OSError:
            pass


def release_free_memory(collect: bool = True) -> None:
    """Collect the garbage (unless ``collect`` is False) and hand the C heap's free pages back to the kernel
    (glibc; elsewhere only the collection)."""
    if collect:
        gc.collect()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL("libc.so.6").malloc_trim(0)
        except (OSError, AttributeError):
            pass


def _run_one(job: Callable[[], T]) -> T:
    """``job``'s answer, the collector held off while it runs, then its garbage collected (the module's
    docstring). All the job made is young then (no collection ran meanwhile), so collecting the youngest
    generation alone finds it, without walking what lived before the job: in a worker, what its earlier jobs
    kept; in one process, the campaign and the turn's outcome as well (a whole collection after each job walked
    them again and again: a tenth of a 40-state turn's CPU in one process)."""
    with collector_paused(young=True):  # the job's workbook gone before the next job (its pages kept: no trim)
        return job()


@contextmanager
def pools_in_a_row() -> Iterator[None]:
    """Within the block, what a pool froze before forking its workers stays frozen until the block ends, and the
    next pool is forked with no collection before it (the module's docstring). What becomes garbage in a cycle
    meanwhile waits for the block's end; once it ends, the collector sees everything again, as after a pool
    started outside the block."""
    if _IN_A_ROW:  # within an outer block: that one unfreezes
        yield
        return
    _IN_A_ROW.append(False)
    try:
        yield
    finally:
        if _IN_A_ROW.pop():
            gc.unfreeze()


def _run(index: int) -> object:
    return _run_one(_JOBS[index])


def in_parallel(jobs: Sequence[Callable[[], T]], first_here: bool = False) -> list[T]:
    """The answers of ``jobs``, in order, each run once, in forked workers where that pays. The first
    error of a job is raised here, as it would be in one process. ``first_here``: where workers are started,
    the first job is run in this process before they are forked: what every job makes the first time and
    keeps (a ruleset's world of the campaign, a reader's caches) is then made once, and the workers inherit
    it, instead of each worker making it again (for jobs alike: reading the workbooks)."""
    global _JOBS
    workers = min(workers_wanted(), len(jobs))
    if workers < 2 or len(jobs) < LEAST_FOR_WORKERS:
        return [_run_one(job) for job in jobs]
    if first_here:
        first = _run_one(jobs[0])
        return [first, *in_parallel(jobs[1:])]
    import multiprocessing  # here, not at import: a one-workbook check never starts a worker
    from concurrent.futures import ProcessPoolExecutor

    if "fork" not in multiprocessing.get_all_start_methods():
        return [_run_one(job) for job in jobs]
    _JOBS = jobs
    # the workers inherit no garbage and no free pages; after a pool in a row, only no free pages (see below)
    release_free_memory(collect=not (_IN_A_ROW and _IN_A_ROW[0]))
    gc.freeze()  # nor walk the inherited objects: the parent's pages stay shared
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                               initializer=_die_with_parent)
    try:
        futures = [pool.submit(_run, index) for index in range(len(jobs))]
        return [future.result() for future in futures]  # type: ignore[misc]
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)  # as in one process: nothing after the failed job
        raise
    finally:
        pool.shutdown(wait=True)
        if _IN_A_ROW:
            _IN_A_ROW[0] = True  # unfrozen when the block ends
        else:
            gc.unfreeze()
        _JOBS = ()
