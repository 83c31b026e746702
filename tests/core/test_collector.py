"""The collector's thresholds raised within a check (engine/collector.py) and put back after it; the collector off
while a turn is resolved, and on again after it, however it ends."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from adjudicator.engine import collector
from adjudicator.engine.registry import find_ruleset
from adjudicator.turn import pipeline


def test_collections_are_rare_within_the_block_and_the_thresholds_come_back() -> None:
    before = gc.get_threshold()
    with collector.fewer_collections():
        assert gc.get_threshold()[0] >= collector.FIRST_THRESHOLD > before[0]
    assert gc.get_threshold() == before
    with pytest.raises(KeyError), collector.fewer_collections():
        raise KeyError("a failed check")
    assert gc.get_threshold() == before


def test_a_check_runs_with_rare_collections(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    real = pipeline._write_checked  # noqa: SLF001

    def noted(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(gc.get_threshold()[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "_write_checked", noted)
    pipeline.new_campaign(find_ruleset("star_sectors"), tmp_path / "campaign", example=True)
    before = gc.get_threshold()
    pipeline.check(tmp_path / "campaign")
    assert seen == [collector.FIRST_THRESHOLD]
    assert gc.get_threshold() == before


def test_a_turn_is_resolved_with_the_collector_off_and_on_again_after(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = find_ruleset("star_sectors")
    kind = type(ruleset)
    real = kind.resolve
    enabled = []

    def noted(self, turn):  # type: ignore[no-untyped-def]
        enabled.append(gc.isenabled())
        return real(self, turn)

    monkeypatch.setattr(kind, "resolve", noted)
    root = tmp_path / "campaign"
    pipeline.new_campaign(ruleset, root, example=True)
    assert gc.isenabled()
    assert pipeline.run(root).status == "resolved"
    assert enabled == [False] and gc.isenabled()
    assert pipeline.run(root, reprocess=True).status == "resolved"  # the turn resolved again, as it was
    assert enabled == [False, False] and gc.isenabled()

    def failing(self, turn):  # type: ignore[no-untyped-def]
        enabled.append(gc.isenabled())
        raise ZeroDivisionError("the ruleset's own failure")

    monkeypatch.setattr(kind, "resolve", failing)
    again = tmp_path / "again"
    pipeline.new_campaign(ruleset, again, example=True)
    with pytest.raises(pipeline.RulesetFailure):
        pipeline.run(again)
    assert enabled == [False, False, False] and gc.isenabled()
