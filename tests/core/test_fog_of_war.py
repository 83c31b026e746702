"""No faction's results reveal what it may not see (spec §6): checked on every faction of the example."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from adjudicator.i18n import fold
from adjudicator.intake.identity import META_SHEET
from adjudicator.outputs.templates import LISTS_SHEET
from adjudicator.rulesets.star_sectors.schemas import ORDERS
from adjudicator.turn import pipeline
from tests.core.kit import every_text, private_facts
from tests.helpers import example_data

FACTIONS = ("ALPHA", "BETA", "BORYA", "GAMMA")


@pytest.fixture(scope="module")
def resolved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.helpers import example_campaign

    root = example_campaign(tmp_path_factory.mktemp("fog") / "example")
    assert pipeline.run(root).status == "resolved"
    return root






@pytest.mark.parametrize("reader", FACTIONS)
def test_results_reveal_nothing_private_of_another_faction(resolved: Path, reader: str) -> None:
    texts = every_text(resolved / "turns" / "T03" / "results" / f"{reader}.xlsx")
    stolen = {"BETA": ["Суперубийца 2000"]}.get(reader, [])  # Beta stole it: it is Beta's project now
    for other in FACTIONS:
        if other == reader:
            continue
        for fact in private_facts(other):
            if fact in stolen:
                continue
            leaks = [t for t in texts if fact in t]
            assert not leaks, f"{reader} can read {other}'s {fact!r}: {leaks[:3]}"


@pytest.mark.parametrize("reader", FACTIONS)
def test_no_campaign_secret_and_no_hidden_extras(resolved: Path, reader: str) -> None:
    path = resolved / "turns" / "T03" / "results" / f"{reader}.xlsx"
    texts = every_text(path)
    secret = example_data()["settings"]["secret"]
    assert not [t for t in texts if secret in t]
    book = openpyxl.load_workbook(path)
    # Only the template's dropdown lists and lookup tables (squares, factions, components seen in battle and
    # what stealing them costs: all public).
    assert all(name.startswith(("list_", "lookup_")) for name in book.defined_names)
    identity = {r[0].value: r[1].value for r in book[META_SHEET].iter_rows()}
    assert identity["faction"] == reader
    assert book.properties.creator == "adjudicator"


@pytest.mark.parametrize("reader", FACTIONS)
def test_other_factions_appear_only_where_they_met_the_reader(resolved: Path, reader: str) -> None:
    """A row naming another faction is a battle the reader fought, or a public theft announcement.
    (The hidden dropdown lists name every faction and every component fielded: that is public.)"""
    book = openpyxl.load_workbook(resolved / "turns" / "T03" / "results" / f"{reader}.xlsx")
    public = {("BETA", "ALPHA-T01-1", "ALPHA")}
    rows = [tuple(c.value for c in row) for ws in book.worksheets if ws.title not in (META_SHEET, LISTS_SHEET)
            for row in ws.iter_rows()]
    order_words = ORDERS.column("order").choice_lookup()
    for row in rows:
        others = {v for v in row if v in FACTIONS and v != reader}
        own_order = any(isinstance(v, str) and fold(v) in order_words for v in row)  # e.g. its THEFT row
        # the Changes tab's enemy seen: its cause cites the report's row of the battle the reader fought
        cites_battle = any(isinstance(v, str) and reader in v.split(" · ") for v in row)
        if others and reader not in row and not own_order and not cites_battle:
            assert tuple(v for v in row if v is not None)[:3] in public, (reader, row)


def test_the_gm_sees_everything(resolved: Path) -> None:
    texts = every_text(resolved / "campaign.xlsx")
    for faction in FACTIONS:
        for fact in private_facts(faction, langs=("ru",)):  # the campaign's language
            if "→" not in fact:  # rejected moves are shown as their cells, not as an arrow
                assert any(fact in t for t in texts), (faction, fact)
