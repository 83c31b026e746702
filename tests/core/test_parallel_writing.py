"""The factions' workbooks written on two cores are the very bytes one process writes."""

from __future__ import annotations

import gc
import hashlib
import os
import re
from pathlib import Path

import pytest

from adjudicator.engine.registry import find_ruleset
from adjudicator.outputs import parallel
from adjudicator.turn import pipeline


def _digests(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.suffix in (".xlsx", ".json", ".svg", ".png")}


def _turn(root: Path) -> dict[str, str]:
    pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
    pipeline.check(root)
    assert pipeline.run(root).status == "resolved"
    return _digests(root)


def test_two_workers_write_the_bytes_one_process_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "LEAST_FOR_WORKERS", 2)  # the example has three factions
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "1")
    alone = _turn(tmp_path / "alone")
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "2")
    used = []
    real = parallel.in_parallel

    def counted(jobs):  # type: ignore[no-untyped-def]
        used.append(len(jobs))
        return real(jobs)

    monkeypatch.setattr(pipeline, "in_parallel", counted)
    shared = _turn(tmp_path / "shared")
    assert used and max(used) >= 2
    assert any("/results/" in name for name in alone) and any(name.endswith(".checked.xlsx") for name in alone)
    assert shared == alone


def _fails() -> int:
    raise ValueError("job failed")


def test_jobs_run_in_other_processes_in_order_and_errors_come_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "2")
    answers = parallel.in_parallel([lambda n=n: (n, os.getpid()) for n in range(6)])
    assert [n for n, _ in answers] == list(range(6))
    assert os.getpid() not in {pid for _, pid in answers}
    with pytest.raises(ValueError, match="job failed"):
        parallel.in_parallel([os.getpid, os.getpid, _fails, os.getpid])
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "1")
    assert {pid for _, pid in parallel.in_parallel([lambda n=n: (n, os.getpid()) for n in range(6)])} == {os.getpid()}


def _collecting() -> bool:
    return gc.isenabled()


@pytest.mark.parametrize("workers", ["2", "1"])
def test_each_job_runs_with_the_collector_held_off(monkeypatch: pytest.MonkeyPatch, workers: str) -> None:
    """What a job makes lives until it ends: collections in between only walk it (parallel.py's docstring); in
    a worker and in one process alike."""
    monkeypatch.setenv("ADJUDICATOR_WORKERS", workers)
    assert gc.isenabled()
    assert parallel.in_parallel([_collecting] * 6) == [False] * 6
    assert gc.isenabled()
    gc.disable()  # a caller that holds it off finds it off after
    try:
        assert parallel.in_parallel([_collecting] * 2) == [False] * 2
        assert not gc.isenabled()
    finally:
        gc.enable()


def _cycles_left() -> int:
    """A thousand cycles left behind as garbage, the number of objects they hold."""
    for n in range(1000):
        pair: list[object] = [n]
        pair.append(pair)
    return 1000


def test_in_one_process_each_jobs_garbage_is_collected_young(monkeypatch: pytest.MonkeyPatch) -> None:
    """After each job, its cycles are collected by a collection of the youngest generation alone: not a whole
    collection, which walks everything the process holds (the campaign, the turn) once a job."""
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "1")
    collections: list[tuple[int, int]] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            collections.append((info["generation"], info["collected"]))

    gc.collect()
    gc.callbacks.append(note)
    try:
        assert parallel.in_parallel([_cycles_left] * 3) == [1000] * 3
    finally:
        gc.callbacks.remove(note)
    assert [generation for generation, _ in collections] == [0, 0, 0]
    assert all(collected >= 1000 for _, collected in collections), collections


def _resident_mb() -> float:
    found = re.search(r"VmRSS:\s+(\d+) kB", Path("/proc/self/status").read_text())
    assert found
    return int(found.group(1)) / 1024


def _garbage_after(label: int) -> tuple[int, int, float]:
    """This worker's pid and resident size as the job starts, then 150 MB or so of garbage in a cycle left behind
    (the collector's usual runs would leave it lying until long after the job)."""
    start = _resident_mb()
    heap: list[object] = [[n] for n in range(1_500_000)]
    heap.append(heap)
    del heap
    return label, os.getpid(), start


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="resident size read from /proc (Linux)")
def test_a_worker_starts_each_job_without_the_last_jobs_garbage(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "2")
    answers = parallel.in_parallel([lambda n=n: _garbage_after(n) for n in range(6)])
    assert [n for n, _, _ in answers] == list(range(6))
    for pid in {pid for _, pid, _ in answers}:
        starts = [start for _, worker, start in answers if worker == pid]
        assert len(starts) > 1
        assert max(starts) - starts[0] < 60, starts  # without the collection after each job: 150 MB and more
    assert not gc.get_freeze_count()  # the parent's objects collectable again once the workers are done


def test_the_state_tables_are_split_by_faction_once_before_the_writers_fork(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Changes tabs' state tables, split by faction (maps/changes.Tables), are made once by the process that
    forks the writers, not again by each writer that writes a faction's results (issue 16)."""
    from adjudicator.outputs.maps import changes

    monkeypatch.setattr(parallel, "LEAST_FOR_WORKERS", 2)  # the example has three factions
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "2")
    made = tmp_path / "made"
    real = changes.Tables.__init__

    def noted(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        with made.open("a") as note:  # the writers are other processes: each notes its own making
            note.write(f"{os.getpid()}\n")
        real(self, *args, **kwargs)

    monkeypatch.setattr(changes.Tables, "__init__", noted)
    digests = _turn(tmp_path / "campaign")
    assert sum("/results/" in name for name in digests) >= 3  # every faction's results written
    assert made.read_text().split() == [str(os.getpid())]


class _Held:
    """An object a test can watch (a weak reference) while it lies in a cycle."""

    def __init__(self) -> None:
        self.me = self


def test_pools_in_a_row_fork_the_next_pool_without_walking_everything_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within pools_in_a_row, what the first pool froze stays frozen: the next pool is forked with no whole
    collection before it (a 40-state turn's resolution: a million objects walked for a few MB). What became
    garbage meanwhile is freed once the block ends, and the collector then sees every object again."""
    import weakref

    monkeypatch.setenv("ADJUDICATOR_WORKERS", "2")
    whole: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            whole.append(1)

    assert not gc.get_freeze_count()
    gc.disable()  # only the collections the pools ask for are counted, none the allocations would start
    gc.callbacks.append(note)
    try:
        with parallel.pools_in_a_row():
            lying = _Held()
            watched = weakref.ref(lying)
            assert parallel.in_parallel([os.getpid] * 4) and len(whole) == 1  # the first pool: collected, frozen
            assert gc.get_freeze_count()
            del lying  # garbage in a cycle, frozen: it waits for the block's end
            with parallel.pools_in_a_row():  # within the block: the outer one unfreezes
                assert parallel.in_parallel([os.getpid] * 4) and len(whole) == 1  # no whole collection
            assert gc.get_freeze_count()
            gc.collect()
            assert watched() is not None  # frozen: not even a whole collection frees it yet
        assert not gc.get_freeze_count()
        gc.collect()
        assert watched() is None
        # outside the block, each pool collects before it forks and unfreezes after, as before
        whole.clear()
        parallel.in_parallel([os.getpid] * 4)
        parallel.in_parallel([os.getpid] * 4)
        assert len(whole) == 2 and not gc.get_freeze_count()
    finally:
        gc.callbacks.remove(note)
        gc.enable()


def test_a_check_and_a_run_fork_their_second_pool_without_a_whole_collection(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check's pools (reading, then writing the checked copies) and the run's (reading, then writing the
    results) are in a row (pipeline.py): the second is forked with no whole collection before it, and once each
    command ends nothing is left frozen."""
    monkeypatch.setattr(parallel, "LEAST_FOR_WORKERS", 2)
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "2")
    collected: list[bool] = []
    real = parallel.release_free_memory

    def noted(collect: bool = True) -> None:
        collected.append(collect)
        real(collect)

    monkeypatch.setattr(parallel, "release_free_memory", noted)
    root = tmp_path / "campaign"
    pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
    pipeline.check(root)
    assert collected == [True, False] and not gc.get_freeze_count()
    collected.clear()
    assert pipeline.run(root).status == "resolved"
    assert collected[0] is True and False in collected and not gc.get_freeze_count()
