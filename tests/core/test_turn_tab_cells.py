"""campaign.xlsx keeps its turn tabs' cells as data, to write them again in another language: an outcome as its
code and message, a choice as its word. Read back, a cell renders in every language exactly as the cell itself
did; a message whose arguments would not read back the same is kept rendered in every language instead."""

from __future__ import annotations

from decimal import Decimal

import pytest

from adjudicator.i18n import LANGUAGES, Joined, Words, msg, render
from adjudicator.i18n.message_data import InLanguages, dumps, loads
from adjudicator.outputs.faction_workbooks import coded
from adjudicator.store.turn_tabs import kept_as_data

KEPT_WHOLE = [
    coded("E05", msg("Regiment {regiment} is not damaged.", regiment="R12")),
    Joined((coded("E-GEN-OWN", msg("{target} does not belong to you.", target="K1")),
            coded("E-FUNDS", msg("Not enough C: {cost} needed.", cost=Decimal("2.5")))), "; "),
    Words(("Invasion",)),
    msg("{op} on {target} paid ({cost} C).", op=msg("Sabotage"), target="0101", cost=3),
    coded("W01", "a text the turn wrote itself"),
]

NOT_KEPT_WHOLE = [
    msg("Moved along {path}.", path=("0101", "0102")),  # a tuple reads back as a list: "['0101', …]"
    coded("E01", msg("{when}", when=object())),
]


@pytest.mark.parametrize("cell", KEPT_WHOLE)
def test_a_cell_kept_as_data_reads_back_and_renders_the_same_in_every_language(cell: object) -> None:
    kept = kept_as_data(cell)
    assert kept is cell
    again = loads(dumps(kept))
    for lang in LANGUAGES:
        assert render(again, lang) == render(cell, lang), lang


@pytest.mark.parametrize("cell", NOT_KEPT_WHOLE)
def test_a_cell_that_would_not_read_back_the_same_is_kept_rendered_in_every_language(cell: object) -> None:
    kept = kept_as_data(cell)
    assert isinstance(kept, InLanguages)
    again = loads(dumps(kept))
    for lang in LANGUAGES:
        assert again.render(lang) == render(cell, lang), lang


def test_a_code_goes_before_its_message_and_a_cell_without_one_is_as_it_was() -> None:
    message = msg("Regiment {regiment} is not damaged.", regiment="R12")
    for lang in LANGUAGES:
        assert render(coded("E05", message), lang) == f"E05: {message.render(lang)}"
    assert coded("", message) is message and coded("E05", None) is None and coded("E05", 7) == 7
    assert isinstance(coded("E05", message), Joined) and not isinstance(kept_as_data(7), InLanguages)
