"""The dice mechanism through a whole turn: a ruleset plugin that rolls, the Dice sheet, replays."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.dice import Dice
from adjudicator.engine import registry
from adjudicator.engine.ruleset import TurnInput, TurnResult
from adjudicator.rulesets.star_sectors.rules import StarSectors
from adjudicator.turn import pipeline
from tests.helpers import make_campaign, scenario, sheet_rows, write_orders


class MoraleSectors(StarSectors):
    """Star Sectors plus a morale roll per faction, as a third-party plugin might add."""

    name = "morale_sectors"
    aliases = ()

    def resolve(self, turn: TurnInput) -> TurnResult:
        for faction in sorted(turn.campaign.factions, reverse=True):  # any order: rolls are keyed
            turn.dice.roll(f"morale:{faction}", 6, count=2)
        return super().resolve(turn)


@pytest.fixture
def plugin(monkeypatch: pytest.MonkeyPatch) -> MoraleSectors:
    ruleset = MoraleSectors()
    found = dict(registry.installed())
    found[ruleset.name] = ruleset
    monkeypatch.setattr(registry, "installed", lambda: found)
    return ruleset


def test_rolls_are_logged_in_the_dice_sheet_and_replay(plugin: MoraleSectors, tmp_path: Path) -> None:
    data = scenario({"ALPHA": 0, "BETA": 0}, [("ALPHA", "A1", 60), ("BETA", "D4", 60)])
    data["settings"]["ruleset"] = plugin.name
    root = make_campaign(tmp_path / "c", data)
    write_orders(root, "ALPHA", [])
    write_orders(root, "BETA", [])
    assert pipeline.run(root, seed=99).status == "resolved"
    rows = sheet_rows(root / "campaign.xlsx", "Dice")
    expected = Dice(99, 1)
    wanted = [expected.roll(f"morale:{f}", 6, count=2) for f in ("ALPHA", "BETA")]
    assert [[r[0], *r[2:5]] for r in rows[1:]] == [  # turn, key, dice, results (the words are the ruleset's)
        [1, roll.purpose, "2d6", " ".join(map(str, roll.values))] for roll in wanted]
    first = rows
    assert pipeline.run(root, reprocess=True).status == "resolved"
    assert sheet_rows(root / "campaign.xlsx", "Dice") == first  # reprocess: same seed, same rolls, not appended twice
    assert pipeline.run(root, reprocess=True, seed=100).status == "resolved"
    assert sheet_rows(root / "campaign.xlsx", "Dice") != first
