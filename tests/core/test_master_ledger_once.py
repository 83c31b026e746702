"""The run writes the master's Ledger and Dice once a turn (write_state leaves them to the turn's append), and
the master is the same, byte for byte, as when they were written twice: in the campaign's language and after
the GM changed it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import openpyxl
import pytest

from adjudicator.engine.problems import ProblemList
from adjudicator.engine.registry import find_ruleset
from adjudicator.outputs.fast_save import atomic_save_fast
from adjudicator.outputs.streamed import stream_new_tabs
from adjudicator.store import master
from adjudicator.turn import pipeline


def _written(path: Path, target: Path, language: str | None, ledger: bool) -> bytes:
    loaded = master.load_campaign(path, find_ruleset, ProblemList())
    assert loaded is not None
    campaign, ruleset = loaded
    if language is not None:
        campaign = dataclasses.replace(campaign, language=language)
    wb = stream_new_tabs(master.open_master(path))
    master.write_state(wb, ruleset, campaign, campaign.tables, campaign.turn + 1, ledger=ledger)
    master.append_ledger_and_dice(wb, [], [], campaign.language)
    atomic_save_fast(wb, target)
    return target.read_bytes()


@pytest.mark.parametrize("language", [None, "es"])
def test_the_ledger_written_once_gives_the_same_master(example: Path, tmp_path: Path, language: str | None) -> None:
    assert pipeline.run(example).status == "resolved"
    path = example / "campaign.xlsx"
    ledger = master._sheet_of(openpyxl.load_workbook(path, read_only=False), master.LEDGER)  # noqa: SLF001
    assert ledger is not None and ledger.max_row > 10  # earlier turns' lines to write again
    twice = _written(path, tmp_path / "twice.xlsx", language, ledger=True)
    once = _written(path, tmp_path / "once.xlsx", language, ledger=False)
    assert once == twice


def test_a_new_turns_tabs_are_kept_after_the_earlier_ones_and_all_rewritten_in_a_new_language(
        example: Path, tmp_path: Path) -> None:
    from adjudicator.engine.ruleset import ReportTable
    from adjudicator.i18n import gettext_in, msg
    from adjudicator.store import turn_tabs

    assert pipeline.run(example).status == "resolved"
    path = tmp_path / "next.xlsx"
    wb = stream_new_tabs(master.open_master(example / "campaign.xlsx"))
    earlier = turn_tabs._tabs(wb)  # noqa: SLF001
    assert earlier and {t["turn"] for t in earlier} == {3}
    turn_tabs.add_turn_tabs(wb, 4, {"o": ("Orders", [msg("Faction"), "a"], [["ALPHA", msg("done")]])},
                            [ReportTable("k", msg("Report"), ["h"], [[msg("done")]])], "ru")
    atomic_save_fast(wb, path)
    again = stream_new_tabs(master.open_master(path))
    kept = turn_tabs._tabs(again)  # noqa: SLF001
    assert kept[: len(earlier)] == earlier and [t["turn"] for t in kept[len(earlier):]] == [4, 4]
    assert kept[-2]["tables"][0]["rows"] == [["ALPHA", kept[-2]["tables"][0]["rows"][0][1]]]
    turn_tabs.rewrite_turn_tabs(again, "es")
    rewritten = turn_tabs._tabs(again)  # noqa: SLF001
    assert all(t["lang"] == "es" and t["sheet"] in again.sheetnames for t in rewritten)
    assert f"T04 {gettext_in('es', 'Orders')}" in again.sheetnames
