"""The turn pipeline on a real campaign folder: atomic, reproducible, order-independent, reconciled."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from adjudicator.engine.ledger import unreconciled
from adjudicator.i18n import gettext_in
from adjudicator.rulesets.star_sectors.rules import StarSectors
from adjudicator.store.folder import CampaignFolder
from adjudicator.turn import pipeline
from tests.helpers import (
    all_values,
    example_data,
    make_campaign,
    scenario,
    sheet_rows,
    tree_digest,
    write_orders,
)

RU = "ru"  # the example campaign's language


def results_values(root: Path, turn: str = "T03") -> dict[str, dict[str, list[list[object]]]]:
    results = root / "turns" / turn / "results"
    return {p.name: all_values(p) for p in sorted(results.glob("*.xlsx"))}


def master_values(root: Path) -> dict[str, list[list[object]]]:
    return all_values(root / "campaign.xlsx")


def test_example_turn_resolves_with_the_expected_state(example: Path) -> None:
    outcome = pipeline.run(example)
    assert outcome.status == "resolved"
    turn = json.loads((example / "turns" / "T03" / "turn.json").read_text())
    assert turn["seed"] == 20261130 and set(turn["submitted"]) == {"ALPHA", "BETA", "BORYA", "GAMMA"}
    settings = dict((r[0], r[1]) for r in sheet_rows(example / "campaign.xlsx", "Settings", RU)[1:])
    assert settings["turn"] == 4
    assert not list((example / "inbox").iterdir()), "used workbooks leave the inbox"
    assert sorted(p.name for p in (example / "turns" / "T03" / "inbox").iterdir()) == [
        "ALPHA.xlsx", "BETA.xlsx", "BORYA.xlsx", "GAMMA.xlsx"]


def test_submitted_workbooks_are_kept_exactly_as_received(example: Path) -> None:
    received = {p.name: p.read_bytes() for p in (example / "inbox").iterdir()}
    pipeline.run(example)
    submitted = example / "turns" / "T03" / "submitted"
    for name, data in received.items():
        assert (submitted / name).read_bytes() == data
        assert (example / "turns" / "T03" / "inbox" / name).read_bytes() == data
    sums = (submitted / "SHA256SUMS").read_text().split("\n")
    assert len([line for line in sums if line]) == 4


def test_ledger_reconciles_for_every_faction(example: Path) -> None:
    ruleset = StarSectors()
    captured = {}
    original = ruleset.resolve

    def spy(turn):  # noqa: ANN001 - the TurnInput
        result = original(turn)
        captured["result"], captured["ledger"] = result, turn.ledger
        return result

    from adjudicator.engine import registry
    installed = registry.installed()
    monkey = pytest.MonkeyPatch()
    monkey.setattr(installed["star_sectors"], "resolve", spy)
    try:
        pipeline.run(example)
    finally:
        monkey.undo()
    result, ledger = captured["result"], captured["ledger"]
    assert ledger.lines, "the example turn moves R"
    assert result.opening_balances, "the engine read the books before the turn"
    assert unreconciled(result.opening_balances, ledger.lines, result.closing_balances) == []
    # And in the GM's workbook: per faction, opening treasury + treasury changes = closing treasury.
    before = {r[0]: r[3] for r in sheet_rows(example / "turns" / "T03" / "state_before.xlsx", "Factions", RU)[1:]}
    after = {r[0]: r[3] for r in sheet_rows(example / "campaign.xlsx", "Factions", RU)[1:]}
    lines = sheet_rows(example / "campaign.xlsx", "Ledger", RU)[1:]
    for faction in before:
        change = sum(r[4] for r in lines if r[2] == faction and r[3] == gettext_in(RU, "treasury"))
        assert before[faction] + change == after[faction], faction


def test_same_seed_same_results_twice(tmp_path: Path) -> None:
    from tests.helpers import example_campaign

    first, second = example_campaign(tmp_path / "a"), example_campaign(tmp_path / "b")
    pipeline.run(first)
    pipeline.run(second)
    assert results_values(first) == results_values(second)
    assert master_values(first) == master_values(second)


def test_order_of_files_and_of_unrelated_rows_changes_nothing(tmp_path: Path) -> None:
    data = example_data()
    from adjudicator.scenario import build_from_data
    from tests.helpers import example_campaign

    reference = example_campaign(tmp_path / "ref")
    pipeline.run(reference)

    shuffled_data = example_data()
    # Rows of unrelated orders swapped: Beta's move and its build touch different squares and accounts.
    beta = shuffled_data["orders"]["BETA"]["orders"]
    beta[1], beta[2] = beta[2], beta[1]
    built = tmp_path / "build"
    build_from_data(shuffled_data, built)
    shuffled = tmp_path / "shuffled"
    shuffled.mkdir()
    shutil.copyfile(built / "campaign.xlsx", shuffled / "campaign.xlsx")
    names = sorted(p.name for p in (built / "inbox").iterdir())
    random.Random(3).shuffle(names)
    files = []
    for index, name in enumerate(names):  # other names, other order on disk and on the command line
        target = shuffled / "inbox" / f"{index}-{name}"
        target.parent.mkdir(exist_ok=True)
        shutil.copyfile(built / "inbox" / name, target)
        files.append(target)
    CampaignFolder(shuffled).pending_dir(3).mkdir(parents=True)
    shutil.copyfile(built / "gm_input.xlsx", CampaignFolder(shuffled).gm_input(3))
    assert pipeline.run(shuffled, files).status == "resolved"

    assert data["orders"]["BETA"]["orders"] != beta
    for sheet in ("Fleets", "Factions", "Projects"):
        name = gettext_in(RU, sheet)
        assert master_values(reference)[name] == master_values(shuffled)[name]
    for faction in ("ALPHA", "BORYA", "GAMMA"):
        ref = results_values(reference)[f"{faction}.xlsx"]
        new = results_values(shuffled)[f"{faction}.xlsx"]
        assert ref == new, faction


def test_a_failing_turn_leaves_the_campaign_exactly_as_it_was(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = tree_digest(example)
    from adjudicator.outputs import faction_workbooks as outputs

    def broken(*args, **kwargs):  # noqa: ANN002, ANN003
        raise OSError("disk full")

    monkeypatch.setattr(pipeline, "results_workbook", broken)
    with pytest.raises(OSError):
        pipeline.run(example)
    assert tree_digest(example) == before
    assert outputs.results_workbook is not broken


def test_an_interrupted_commit_is_rolled_forward(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.store import folder as store

    def crash(*args, **kwargs):  # noqa: ANN002, ANN003
        raise KeyboardInterrupt

    monkeypatch.setattr(store, "atomic_copy", crash)  # dies after turn.json, before campaign.xlsx
    with pytest.raises(KeyboardInterrupt):
        pipeline.run(example)
    monkeypatch.undo()
    assert (example / "turns" / "T03" / "turn.json").exists()
    assert sheet_rows(example / "campaign.xlsx", "Settings", RU)[5][1] == 3  # not yet replaced
    _, campaign, _ = pipeline.open_campaign(example)  # any command recovers
    assert campaign.turn == 4
    assert all_values(example / "campaign.xlsx") == all_values(example / "turns" / "T03" / "campaign_after.xlsx")


def test_partial_files_of_an_interrupted_run_are_moved_aside(example: Path) -> None:
    (example / "turns" / "T03" / "results").mkdir(parents=True)
    (example / "turns" / "T03" / "results" / "ALPHA.xlsx").write_bytes(b"half")
    staging = example / "turns" / ".T03.staging-1"
    staging.mkdir()
    outcome = pipeline.run(example)
    assert outcome.status == "resolved"
    assert (example / "turns" / "T03" / "interrupted-1" / "results" / "ALPHA.xlsx").read_bytes() == b"half"
    assert not staging.exists()


def test_running_a_resolved_turn_again_is_refused_and_changes_nothing(example: Path) -> None:
    originals = {p.name: p.read_bytes() for p in (example / "inbox").iterdir()}
    pipeline.run(example)
    for name, data in originals.items():
        (example / "inbox" / name).write_bytes(data)
    before = tree_digest(example)
    outcome = pipeline.run(example)
    assert outcome.status == "invalid"
    assert all("F09" in s.problems.codes() for s in outcome.submissions)
    after = tree_digest(example)
    assert {k: v for k, v in after.items() if not k.startswith("checks/")} == before


def test_reprocess_restores_the_state_before_and_gives_identical_results(example: Path) -> None:
    pipeline.run(example)
    first_results = results_values(example)
    first_master = master_values(example)
    outcome = pipeline.run(example, reprocess=True)
    assert outcome.status == "resolved"
    assert results_values(example) == first_results
    assert master_values(example) == first_master
    assert (example / "turns" / "T03" / "superseded-1" / "turn.json").exists()


def test_missing_faction_blocks_the_turn_unless_allowed(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", scenario({"ALPHA": 0, "BETA": 0}, [("ALPHA", "A1", 60)]))
    write_orders(root, "ALPHA", [])
    before = tree_digest(root)
    assert pipeline.run(root).status == "missing"
    assert tree_digest(root) == before
    outcome = pipeline.run(root, allow_missing=True)
    assert outcome.status == "resolved"
    assert sheet_rows(outcome.results["BETA"], "Report")[0][0] == "Treasury"


def test_templates_one_per_faction_with_identity(example: Path) -> None:
    from adjudicator.engine.problems import ProblemList
    from adjudicator.intake.identity import read_identity
    from adjudicator.intake.reading import read_workbook

    paths = pipeline.make_templates(example)
    assert [p.name for p in paths] == ["ALPHA.xlsx", "BETA.xlsx", "BORYA.xlsx", "GAMMA.xlsx"]
    identity = read_identity(read_workbook(paths[3], ProblemList()))
    assert (identity.faction, identity.turn, identity.language) == ("GAMMA", 3, "es")


def test_an_interrupted_reprocess_puts_the_earlier_results_back(example: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.store import folder as store

    pipeline.run(example)
    before = tree_digest(example)
    real_write = store.atomic_write_text
    calls = {"n": 0}

    def crash_at_manifest(path, text):  # noqa: ANN001
        calls["n"] += 1
        if path.name == "turn.json":
            raise KeyboardInterrupt  # new results half moved in, earlier ones set aside
        return real_write(path, text)

    monkeypatch.setattr(store, "atomic_write_text", crash_at_manifest)
    with pytest.raises(KeyboardInterrupt):
        pipeline.run(example, reprocess=True)
    monkeypatch.undo()
    assert not (example / "turns" / "T03" / "turn.json").exists()
    recovered = pipeline.check(example)  # any command recovers, and says so
    assert [n.text for n in recovered.notes][-1].startswith("Restored the results of turn {turn}")
    after = tree_digest(example)
    restored = {k: v for k, v in after.items() if "interrupted-" not in k and not k.startswith("checks/")}
    assert restored == before
    assert any("interrupted-1" in k for k in after), "the half-written new results are kept aside"


def test_an_interrupted_reprocess_after_its_manifest_is_rolled_forward(example: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.store import folder as store

    pipeline.run(example)
    first = master_values(example)
    monkeypatch.setattr(store, "atomic_copy", lambda *a: (_ for _ in ()).throw(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        pipeline.run(example, reprocess=True, seed=5)
    monkeypatch.undo()
    pipeline.check(example)
    assert master_values(example) == all_values(example / "turns" / "T03" / "campaign_after.xlsx")
    assert json.loads((example / "turns" / "T03" / "turn.json").read_text())["seed"] == 5
    assert first.keys() == master_values(example).keys()


def test_one_adjudicator_at_a_time(example: Path) -> None:
    import os

    from adjudicator.store.folder import CampaignBusyError

    lock = example / ".adjudicator.lock"
    lock.write_text(str(os.getppid()))  # a live process holds the campaign
    with pytest.raises(CampaignBusyError):
        pipeline.run(example)
    with pytest.raises(CampaignBusyError):
        pipeline.check(example)
    lock.write_text("999999999")  # its process is gone: the lock is stale
    assert pipeline.run(example).status == "resolved"
    assert not lock.exists()


def test_an_interrupted_setting_aside_is_undone(example: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reprocessing dies while it moves the earlier results aside: they are all put back."""
    import os as real_os

    from adjudicator.store import folder as store

    pipeline.run(example)
    before = tree_digest(example)
    moved = {"n": 0}
    real_replace = real_os.replace

    def die_on_second_move(src, dst):  # noqa: ANN001
        if "superseded-" in str(dst):
            moved["n"] += 1
            if moved["n"] == 2:
                raise KeyboardInterrupt
        return real_replace(src, dst)

    monkeypatch.setattr(store.os, "replace", die_on_second_move)
    with pytest.raises(KeyboardInterrupt):
        pipeline.run(example, reprocess=True)
    monkeypatch.undo()
    pipeline.check(example)
    after = {k: v for k, v in tree_digest(example).items() if not k.startswith("checks/")}
    assert after == before


def test_size_limits_set_by_the_gm(example: Path) -> None:
    import openpyxl

    book = openpyxl.load_workbook(example / "campaign.xlsx")
    settings = book.worksheets[0]
    settings.append(["max_file_mb", 0.001])
    book.save(example / "campaign.xlsx")
    outcome = pipeline.check(example)
    assert all("F02" in s.problems.codes() for s in outcome.submissions)
    settings.cell(row=settings.max_row, column=2, value="lots")
    book.save(example / "campaign.xlsx")
    with pytest.raises(pipeline.CampaignError) as error:
        pipeline.check(example)
    assert [(p.code, p.cell) for p in error.value.problems] == [("M02", f"B{settings.max_row}")]
