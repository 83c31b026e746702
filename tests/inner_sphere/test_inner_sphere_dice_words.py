"""A player's dice table says what each roll decides, in the player's words, beside the roll's key.

The key stays verbatim (``adjudicator verify`` recomputes it); the words beside it name the operation, the
research line, the ship and the step, and every detail of an agency roll, in Spanish or Russian."""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl
import pytest

from adjudicator.engine.registry import installed
from adjudicator.i18n import gettext_in, render
from adjudicator.rulesets.inner_sphere import dice_viewers
from adjudicator.rulesets.inner_sphere.dice_viewers import roll_label
from adjudicator.turn import pipeline

KEY = re.compile(r"[\w-]+(?::[\w-]+)+")
#: One key of every kind Inner Sphere rolls, each agency detail included (see the ruleset's orders/agency).
EVERY_KIND = [
    "agency:351:DAVION:8", "agency:351:DAVION:8:detect", "agency:351:DAVION:8:outcome",
    "agency:351:DAVION:8:loyal:D-R2", "agency:352:DAVION:2:unit:D-R1", "agency:353:DAVION:3:agent",
    "agency:353:DAVION:3:false:count", "agency:353:DAVION:3:false:factory", "agency:353:DAVION:3:false:defence",
    "agency:343:DAVION:4:2", "agency:343:DAVION:4:d4:1", "agency:343:DAVION:4:2:d4:2",
    "agency:344:DAVION:5:reroll", "agency:341:DAVION:6:pick", "research:DAVION:IND", "icna:DAVION:row3",
    "new_factory:DAVION:0201", "accident:DAVION:D-NS1:step8", "recruits:DAVION-T05-1",
]


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_every_kind_of_roll_is_named_in_the_readers_words(lang: str) -> None:
    english_details = {*dice_viewers.AGENCY_DETAILS.values(), *dice_viewers.FALSE_REPORT.values()}
    for key in EVERY_KIND:
        words = render(roll_label(key), lang)
        assert words != key and not KEY.search(words), (key, words)
        assert not any(detail in words for detail in english_details), (key, words)
        assert render(roll_label(key), "en") != words, (key, words)


def test_a_spanish_report_shows_each_rolls_words_beside_its_key(tmp_path: Path) -> None:
    root = tmp_path / "campaign"
    pipeline.new_campaign(installed()["inner_sphere"], root, example=True)
    _, campaign, _ = pipeline.open_campaign(root)
    outcome = pipeline.run(root)
    assert outcome.status == "resolved"
    shown = 0
    for faction, path in outcome.results.items():
        lang = campaign.factions[faction].language
        if lang == "en":
            continue
        words_header, key_header = gettext_in(lang, "What the roll decides"), gettext_in(lang, "Roll key")
        book = openpyxl.load_workbook(path)
        for ws in book.worksheets:
            for row in ws.iter_rows():
                texts = [c.value for c in row]
                if key_header not in texts:
                    continue
                words_col, key_col = texts.index(words_header), texts.index(key_header)
                assert words_col < key_col  # the words first, the key beside them
                for below in ws.iter_rows(min_row=row[0].row + 1):
                    key, words = below[key_col].value, below[words_col].value
                    if key is None:
                        break
                    assert KEY.fullmatch(key), (path.name, ws.title, key)
                    assert words == render(roll_label(key), lang) and not KEY.search(words), (key, words)
                    shown += 1
    assert shown, "the example's turn shows Spanish or Russian readers some of their dice"
