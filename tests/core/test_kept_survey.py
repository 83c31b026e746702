"""The survey of campaign.xlsx found again while its bytes stay the same (intake/kept_survey.py, issue 16): every
command of a turn opens the master, and its survey is most of that after a large turn. Real campaigns, real
files: what is found kept is what a survey finds, found only for the same bytes, limits and program."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
import time
from pathlib import Path

import openpyxl
import pytest

from adjudicator.intake import kept_survey, submission_cache
from adjudicator.intake.safety import Inspection, inspect
from adjudicator.intake.submission_cache import CACHE_ENV, KEPT_DAYS
from adjudicator.store.master import MASTER_LIMITS
from adjudicator.turn import pipeline
from tests.helpers import example_campaign, tree_digest


@pytest.fixture
def surveyed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the files surveyed by kept_survey (not found kept)."""
    names: list[str] = []

    def counted(path: Path, limits: object) -> Inspection:
        names.append(path.name)
        return inspect(path, limits)  # type: ignore[arg-type]

    monkeypatch.setattr(kept_survey, "inspect", counted)
    return names


def _entries(folder: Path) -> list[Path]:
    return sorted((folder / kept_survey.KIND).glob("*.pickle"))


def _with_error_cell(root: Path) -> Path:
    """The campaign's master with a sheet of the GM's own holding an error value: a finding of the survey."""
    master = root / "campaign.xlsx"
    book = openpyxl.load_workbook(master)
    book.create_sheet("Notes")["B3"] = "#REF!"
    book.save(master)
    return master


def test_every_command_after_the_first_finds_the_masters_survey(tmp_path: Path, kept: Path,
                                                                 surveyed: list[str]) -> None:
    root = example_campaign(tmp_path / "c")
    surveyed.clear()  # the example's making opens it (its GM's input): a survey to find
    pipeline.open_campaign(root)
    assert surveyed == [] and len(_entries(kept)) == 1
    (entry,) = _entries(kept)
    entry.unlink()
    pipeline.open_campaign(root)
    assert surveyed == ["campaign.xlsx"] and _entries(kept) == [entry]
    before = tree_digest(root)
    pipeline.open_campaign(root)
    pipeline.check(root)
    assert surveyed == ["campaign.xlsx"], "the same bytes: found, not surveyed again"
    assert pipeline.run(root).status == "resolved"
    assert surveyed == ["campaign.xlsx"]
    assert tree_digest(root) != before  # the turn written: campaign.xlsx is another file now
    pipeline.open_campaign(root)
    assert surveyed == ["campaign.xlsx"] * 2 and len(_entries(kept)) == 2
    assert not list(root.rglob("*.pickle")) and not list(root.rglob(kept_survey.KIND)), "nothing kept in the campaign"


def test_what_is_found_is_what_the_survey_finds(tmp_path: Path, kept: Path, surveyed: list[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    master = _with_error_cell(example_campaign(tmp_path / "c"))
    surveyed.clear()
    fresh = inspect(master, MASTER_LIMITS)
    assert fresh.errors == {"Notes": {(3, 2): "#REF!"}}
    first = kept_survey.inspected(master, MASTER_LIMITS)
    found = kept_survey.inspected(master, MASTER_LIMITS)
    assert surveyed == ["campaign.xlsx"]
    assert first == found == fresh
    assert found is not first  # read back from its entry

    # the campaign opened on the survey found is the one opened on a survey made anew
    with_kept = pipeline.open_campaign(master.parent)[1]
    assert surveyed == ["campaign.xlsx"]
    monkeypatch.setenv(CACHE_ENV, "off")
    anew = pipeline.open_campaign(master.parent)[1]
    assert (with_kept.settings, with_kept.parameters, with_kept.factions) == (anew.settings, anew.parameters,
                                                                            anew.factions)
    assert with_kept.tables.keys() == anew.tables.keys()
    assert all(with_kept.tables[key].equals(anew.tables[key]) for key in anew.tables)
    assert surveyed == ["campaign.xlsx"] * 2


def test_only_the_same_bytes_limits_and_program_find_a_survey(tmp_path: Path, kept: Path, surveyed: list[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    master = example_campaign(tmp_path / "c") / "campaign.xlsx"
    surveyed.clear()
    kept_survey.inspected(master, MASTER_LIMITS)
    assert surveyed == []  # surveyed when the example was made
    other_limits = dataclasses.replace(MASTER_LIMITS, max_cells=MASTER_LIMITS.max_cells - 1)
    kept_survey.inspected(master, other_limits)
    assert len(surveyed) == 1

    copy = example_campaign(tmp_path / "d") / "campaign.xlsx"  # the same bytes elsewhere: found
    kept_survey.inspected(copy, MASTER_LIMITS)
    assert len(surveyed) == 1

    with master.open("ab") as handle:  # a byte more at its end
        handle.write(b"\0")
    kept_survey.inspected(master, MASTER_LIMITS)
    assert len(surveyed) == 2

    monkeypatch.setattr(submission_cache, "program_fingerprint", lambda: "another version of the program")
    monkeypatch.setattr(kept_survey, "program_fingerprint", lambda: "another version of the program")
    kept_survey.inspected(copy, MASTER_LIMITS)
    assert len(surveyed) == 3


def test_a_master_saved_again_during_its_survey_is_not_kept(tmp_path: Path, kept: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    master = example_campaign(tmp_path / "c") / "campaign.xlsx"
    for entry in _entries(kept):  # the example's making surveyed it
        entry.unlink()
    calls: list[bytes] = []

    def saved_meanwhile(path: Path, limits: object) -> Inspection:
        found = inspect(path, limits)  # type: ignore[arg-type]
        calls.append(path.read_bytes())
        if len(calls) == 1:
            with path.open("ab") as handle:
                handle.write(b"\0")
        return found

    monkeypatch.setattr(kept_survey, "inspect", saved_meanwhile)
    kept_survey.inspected(master, MASTER_LIMITS)
    assert _entries(kept) == []  # neither the bytes before nor those after
    kept_survey.inspected(master, MASTER_LIMITS)
    assert len(calls) == 2 and len(_entries(kept)) == 1


def test_a_damaged_or_foreign_entry_is_surveyed_anew_and_replaced(tmp_path: Path, kept: Path,
                                                                  surveyed: list[str]) -> None:
    master = example_campaign(tmp_path / "c") / "campaign.xlsx"
    surveyed.clear()
    (entry,) = _entries(kept)
    data = entry.read_bytes()
    for damaged in (data[:-1], data[:32] + data[33:], b""):  # torn, changed, empty
        entry.write_bytes(damaged)
        kept_survey.inspected(master, MASTER_LIMITS)
        assert entry.read_bytes() == data, "replaced by the survey made anew"
    payload = pickle.dumps({"not": "a survey"})
    entry.write_bytes(hashlib.sha256(payload).digest() + payload)
    assert kept_survey.inspected(master, MASTER_LIMITS) == inspect(master, MASTER_LIMITS)
    assert len(surveyed) == 4
    kept_survey.inspected(master, MASTER_LIMITS)
    assert len(surveyed) == 4


def test_off_keeps_nothing(tmp_path: Path, surveyed: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, "off")
    root = example_campaign(tmp_path / "c")
    surveyed.clear()
    pipeline.open_campaign(root)
    pipeline.open_campaign(root)
    assert surveyed == ["campaign.xlsx"] * 2


def test_findings_no_pickle_holds_are_not_kept(tmp_path: Path, kept: Path, surveyed: list[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    def unpicklable(self, protocol):  # noqa: ANN001, ANN202
        raise pickle.PicklingError("a value no pickle holds")

    monkeypatch.setattr(Inspection, "__reduce_ex__", unpicklable, raising=False)
    root = example_campaign(tmp_path / "c")
    surveyed.clear()
    assert pipeline.open_campaign(root)[1].turn == 3
    assert _entries(kept) == [] and surveyed == ["campaign.xlsx"]


def test_surveys_unused_for_kept_days_are_removed(tmp_path: Path, kept: Path, surveyed: list[str]) -> None:
    master = example_campaign(tmp_path / "c") / "campaign.xlsx"
    (used,) = _entries(kept)
    old = time.time() - (KEPT_DAYS + 1) * 86400
    os.utime(used, (old, old))
    kept_survey.inspected(master, MASTER_LIMITS)  # found: used now
    unused = kept / kept_survey.KIND / ("0" * 64 + ".pickle")
    unused.write_bytes(used.read_bytes())
    os.utime(unused, (old, old))
    with master.open("ab") as handle:
        handle.write(b"\0")
    kept_survey.inspected(master, MASTER_LIMITS)  # another survey kept: the folder pruned
    assert used.exists() and not unused.exists() and len(_entries(kept)) == 2
