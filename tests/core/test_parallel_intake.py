"""The submitted workbooks read on two cores (intake/submissions.py load_submissions): the same submissions,
problems and checked copies as one process, and a ruleset's failure raised as in one process."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from adjudicator.engine.problems import RulesetFailure
from adjudicator.engine.registry import find_ruleset
from adjudicator.intake import submissions as intake
from adjudicator.outputs import parallel
from adjudicator.turn import pipeline


def _checked(root: Path) -> tuple[dict[str, str], list[tuple]]:
    """The checked copies' digests and, for each submission, what the console and the turn take from it."""
    pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
    outcome = pipeline.check(root)
    digests = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in outcome.checked.values()}
    seen = []
    for s in outcome.submissions:
        problems = [(p.code, p.severity, p.sheet, p.cell, p.row, p.message.render("ru"),
                     p.hint.render("es") if p.hint else None) for p in s.problems]
        frames = {k: rows.frame.to_csv() for k, rows in (s.orders.sheets.items() if s.orders else ())}
        seen.append((s.name, s.sha256, s.faction, s.accepted, problems, frames))
    return digests, seen


@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Two workers even for the example's few workbooks; the pids that read them."""
    monkeypatch.setattr(parallel, "LEAST_FOR_WORKERS", 2)
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "2")
    pids: list[int] = []
    real = intake.load_submission

    def noted(*args, **kwargs):  # type: ignore[no-untyped-def]
        pids.append(os.getpid())  # in a worker: its own list, so the parent sees only its own reads
        return real(*args, **kwargs)

    monkeypatch.setattr(intake, "load_submission", noted)
    return pids


def test_two_workers_read_the_submissions_one_process_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            workers: list[int]) -> None:
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "1")
    alone = _checked(tmp_path / "alone")
    assert len(workers) == len(alone[1]) >= 3  # one process: every workbook read here
    workers.clear()
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "2")
    shared = _checked(tmp_path / "shared")
    assert len(workers) == 1  # the first read here (what reading it makes once, the workers inherit); the rest there
    assert alone[0] and any(problems for *_, problems, _ in alone[1])
    assert shared == alone


def test_a_ruleset_failure_in_a_worker_is_raised_as_in_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   workers: list[int]) -> None:
    ruleset = find_ruleset("star_sectors")

    def broken(*_: object) -> None:
        raise ZeroDivisionError("the ruleset's own bug")

    monkeypatch.setattr(type(ruleset), "validate_orders", broken)
    with pytest.raises(RulesetFailure, match="ZeroDivisionError"):
        _checked(tmp_path / "campaign")
    assert workers  # read again in this process, where the failure is raised
