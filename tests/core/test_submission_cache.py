"""A check's readings of the workbooks, found again by the run that follows (intake/submission_cache.py, issue 16):
the same bytes out as reading every workbook again, found only for the very same workbook, campaign and program,
kept outside the campaign's folder, a damaged entry read anew. Real campaigns, real workbooks, real files."""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import time
from pathlib import Path

import pytest

from adjudicator.intake import submission_cache, submissions
from adjudicator.intake.safety import DEFAULT_LIMITS
from adjudicator.intake.submission_cache import CACHE_ENV, KEPT_DAYS, SubmissionCache
from adjudicator.turn import pipeline
from tests.helpers import example_campaign, tree_digest, write_orders


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the workbooks read anew (not found kept), every one in this process (one process: the
    workers' reads would not be counted here)."""
    read: list[str] = []
    real = submissions.load_submission

    def counted(path: Path, *args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        read.append(path.name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(submissions, "load_submission", counted)
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "1")  # the reads counted in this process
    return read


def _entries(folder: Path) -> list[Path]:
    return sorted((folder / "submissions").glob("*.pickle"))


def test_a_run_after_a_check_reads_no_workbook_again_and_writes_the_same_bytes(
        tmp_path: Path, kept: Path, reads: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    with_cache = example_campaign(tmp_path / "with")
    inbox = sorted(p.name for p in (with_cache / "inbox").iterdir())
    pipeline.check(with_cache)
    assert sorted(reads) == inbox and len(_entries(kept)) == len(inbox)
    reads.clear()
    assert pipeline.check(with_cache).submissions  # checked again: every reading found
    assert reads == []
    assert pipeline.run(with_cache).status == "resolved"
    assert reads == []

    monkeypatch.setenv(CACHE_ENV, "off")
    without = example_campaign(tmp_path / "without")
    pipeline.check(without)
    pipeline.run(without)
    assert sorted(reads) == sorted(inbox * 2)  # read by the check and by the run
    assert tree_digest(with_cache) == tree_digest(without)  # every file of both campaigns, byte for byte


def test_a_reading_is_found_only_for_the_same_workbook_name_campaign_and_program(
        tmp_path: Path, kept: Path, reads: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    root = example_campaign(tmp_path / "c")
    pipeline.check(root)
    reads.clear()

    write_orders(root, "BETA", [], name="BETA.xlsx")  # sent again, other orders
    (root / "inbox" / "GAMMA.xlsx").rename(root / "inbox" / "GAMMA-2.xlsx")  # the same bytes, another name
    outcome = pipeline.check(root)
    assert sorted(reads) == ["BETA.xlsx", "GAMMA-2.xlsx"]
    gamma = next(s for s in outcome.submissions if s.name == "GAMMA-2.xlsx")
    assert all(p.file == "GAMMA-2.xlsx" for p in gamma.problems if p.file), "a message names the file as sent"
    reads.clear()

    with (root / "campaign.xlsx").open("ab") as master:  # campaign.xlsx changed (a byte more at its end)
        master.write(b"\0")
    pipeline.check(root)
    assert len(reads) == 4
    reads.clear()

    monkeypatch.setattr(submission_cache, "program_fingerprint", lambda: "another version of the program")
    pipeline.check(root)
    assert len(reads) == 4


def test_found_readings_name_the_workbook_where_it_is_now(tmp_path: Path, kept: Path, reads: list[str]) -> None:
    first, second = example_campaign(tmp_path / "a"), example_campaign(tmp_path / "b")
    pipeline.check(first)
    reads.clear()
    outcome = pipeline.check(second)  # another folder, the same campaign.xlsx and workbooks: found
    assert reads == []
    assert {s.path.parent for s in outcome.submissions} == {second / "inbox"}
    assert {s.book.path.parent for s in outcome.submissions if s.book} == {second / "inbox"}


def test_a_damaged_or_foreign_entry_is_read_anew_and_replaced(tmp_path: Path, kept: Path, reads: list[str]) -> None:
    root = example_campaign(tmp_path / "c")
    pipeline.check(root)
    entries = _entries(kept)
    damaged, foreign, empty = entries[0], entries[1], entries[2]
    data = damaged.read_bytes()
    assert b".xlsx" in data[32:]
    damaged.write_bytes(data[:32] + data[32:].replace(b".xlsx", b".xlsy", 1))  # unpickles, but not as kept

    payload = pickle.dumps({"not": "a submission"})
    foreign.write_bytes(hashlib.sha256(payload).digest() + payload)
    empty.write_bytes(b"")
    reads.clear()
    pipeline.check(root)
    assert len(reads) == 3
    reads.clear()
    pipeline.check(root)
    assert reads == [], "each entry read anew was replaced"


def test_an_entry_of_another_workbook_under_a_workbooks_key_is_read_anew(tmp_path: Path, kept: Path,
                                                                          reads: list[str]) -> None:
    root = example_campaign(tmp_path / "c")
    pipeline.check(root)
    first, second = _entries(kept)[:2]
    one, other = first.read_bytes(), second.read_bytes()
    first.write_bytes(other)  # whole and sound, but the reading of another workbook's bytes
    second.write_bytes(one)
    reads.clear()
    pipeline.check(root)
    assert len(reads) == 2


def test_the_campaign_folder_holds_nothing_of_the_cache(tmp_path: Path, kept: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    with_cache = example_campaign(tmp_path / "with")
    pipeline.check(with_cache)
    monkeypatch.setenv(CACHE_ENV, "off")
    without = example_campaign(tmp_path / "without")
    pipeline.check(without)
    assert tree_digest(with_cache) == tree_digest(without)
    assert _entries(kept)


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX's")
def test_the_readings_kept_are_the_users_alone(tmp_path: Path, kept: Path) -> None:
    pipeline.check(example_campaign(tmp_path / "c"))  # the players' orders are in them
    assert all(entry.stat().st_mode & 0o077 == 0 for entry in _entries(kept))


def test_off_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    pipeline.check(example_campaign(tmp_path / "c"))
    assert not (tmp_path / "user-cache").exists()


def test_by_default_the_users_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    pipeline.check(example_campaign(tmp_path / "c"))
    assert len(_entries(tmp_path / "user-cache" / "adjudicator")) == 4


def test_a_ruleset_failure_keeps_nothing(tmp_path: Path, kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.engine.problems import RulesetFailure
    from adjudicator.rulesets.star_sectors.rules import StarSectors

    def broken(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise KeyError("a bug of the ruleset")

    root = example_campaign(tmp_path / "c")
    monkeypatch.setattr(StarSectors, "validate_orders", broken)
    with pytest.raises(RulesetFailure):
        pipeline.check(root)
    assert not _entries(kept)


def test_readings_unused_for_kept_days_are_removed(tmp_path: Path, kept: Path) -> None:
    root = example_campaign(tmp_path / "c")
    pipeline.check(root)
    entries = _entries(kept)
    old = time.time() - (KEPT_DAYS + 1) * 86400
    os.utime(entries[0], (old, old))
    (kept / "submissions" / "left.part").write_bytes(b"a write that never ended")
    os.utime(kept / "submissions" / "left.part", (old, old))
    stray = kept / "submissions" / f"{'0' * 64}.pickle"  # kept for a campaign.xlsx of long ago
    stray.write_bytes(b"")
    os.utime(stray, (old, old))
    pipeline.check(root)  # a command removes what no command used for KEPT_DAYS
    assert not stray.exists() and not (kept / "submissions" / "left.part").exists()
    assert _entries(kept) == entries  # the old entry of a workbook checked again: kept anew
    os.utime(entries[0], (old, old))
    cache = SubmissionCache(kept / "submissions", "any", DEFAULT_LIMITS)
    cache.prune()
    assert _entries(kept) == entries[1:]
    cache.prune(now=time.time() + (KEPT_DAYS + 1) * 86400)
    assert not _entries(kept)


def test_the_program_is_another_when_one_of_its_files_changes(tmp_path: Path) -> None:
    package = tmp_path / "adjudicator"
    (package / "rulesets" / "__pycache__").mkdir(parents=True)
    (package / "rulesets" / "rules.py").write_text("ORDERS = 1\n")
    (package / "tables.toml").write_text("cost = 5\n")
    fingerprint = submission_cache.program_fingerprint.__wrapped__
    before = fingerprint(package)
    (package / "rulesets" / "__pycache__" / "rules.cpython-311.pyc").write_bytes(b"compiled")
    assert fingerprint(package) == before, "a compiled copy is not another program"
    (package / "tables.toml").write_text("cost = 6\n")  # the same size, written later
    os.utime(package / "tables.toml", ns=(1, 1))
    changed = fingerprint(package)
    assert changed != before
    (package / "rulesets" / "rules.py").write_text("ORDERS = 12\n")
    assert fingerprint(package) != changed


def test_a_reading_that_cannot_be_kept_is_not_and_the_check_goes_on(tmp_path: Path, kept: Path, reads: list[str],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    real = submissions.Submission.__reduce_ex__

    def unpicklable(self, protocol):  # noqa: ANN001, ANN202
        raise pickle.PicklingError("a value no pickle holds")

    monkeypatch.setattr(submissions.Submission, "__reduce_ex__", unpicklable)
    root = example_campaign(tmp_path / "c")
    assert len(pipeline.check(root).submissions) == 4
    assert not _entries(kept)
    monkeypatch.setattr(submissions.Submission, "__reduce_ex__", real)
    assert not (kept / "submissions").exists()
    shutil.rmtree(kept)  # (campaign.xlsx's survey is kept beside: kept_survey.py)
    kept.write_text("a file where the folder should be")
    reads.clear()
    assert len(pipeline.check(root).submissions) == 4  # nothing kept, nothing found: every workbook read
    assert len(reads) == 4


def test_a_workbook_named_twice_is_two_submissions_as_without_the_cache(tmp_path: Path, kept: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def codes(outcome: pipeline.CheckOutcome) -> list[list[str]]:
        return [sorted(p.code for p in s.problems) for s in outcome.submissions]

    with_cache = example_campaign(tmp_path / "with")
    alpha = with_cache / "inbox" / "ALPHA.xlsx"
    first = pipeline.check(with_cache, [alpha, alpha])
    assert first.submissions[0] is not first.submissions[1]
    found = pipeline.check(with_cache, [alpha, alpha])  # found kept, each its own
    assert found.submissions[0] is not found.submissions[1]
    monkeypatch.setenv(CACHE_ENV, "off")
    without = example_campaign(tmp_path / "without")
    plain = pipeline.check(without, [without / "inbox" / "ALPHA.xlsx"] * 2)
    assert codes(first) == codes(found) == codes(plain)
