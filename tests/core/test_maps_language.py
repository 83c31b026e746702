"""Every word of the pictures in the reader's language: the History charts' captions and axes (read back from
the chart XML of written workbooks), and the map pictures of campaign.xlsx drawn again when the GM changes the
campaign's language; the tabs an old campaign cannot rewrite are named to the GM."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from adjudicator.dice.source import use_verifiable_dice
from adjudicator.engine.registry import installed
from adjudicator.i18n import gettext_in, msg, render, ruleset_catalog
from adjudicator.outputs.maps.draw import render as draw
from adjudicator.outputs.maps.stored import MAP_SOURCE, kept_views, map_tab_of
from adjudicator.store import master
from adjudicator.turn import pipeline
from tests.core.test_campaign_language import _set_language

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
LATIN = re.compile("[a-z]", re.IGNORECASE)
RUNS: dict[str, Path] = {}


def resolved(name: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example's campaign folder after its turn, resolved once for the module (copy it to change it)."""
    if name not in RUNS:
        root = tmp_path_factory.mktemp(name) / "c"
        pipeline.new_campaign(installed()[name], root, example=True)
        assert pipeline.run(root).status == "resolved"
        RUNS[name] = root
    return RUNS[name]


def copied(name: str, tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> Path:
    root = tmp_path / "c"
    shutil.copytree(resolved(name, tmp_path_factory), root)
    return root


def chart_texts(path: Path) -> list[str]:
    """Every text of every chart of a workbook, as its XML holds it (titles, axis titles, series names)."""
    texts = []
    with zipfile.ZipFile(path) as book:
        for part in sorted(n for n in book.namelist() if n.startswith("xl/charts/chart")):
            xml = book.read(part).decode("utf-8")
            texts += re.findall(r"<a:t>([^<]*)</a:t>", xml)
            texts += [t for t in re.findall(r"<c:v>([^<]*)</c:v>", xml) if not re.fullmatch(r"[\d.]+", t)]
    return texts


def english_words(name: str) -> set[str]:
    """The words a chart would show an English reader: the rulesets' balance accounts, as they are and in
    English words, "forces", "Turn", "History"."""
    ruleset = installed()[name]
    with ruleset_catalog(ruleset.locale()):
        words = {msg(w).render("en") for w in ("forces", "Turn", "History", "treasury")}
        for account in ("credits", "treasury", "command_tokens"):
            words |= {account, str(render(ruleset.account_label(account), "en"))}
    return {w.casefold() for w in words}


@pytest.mark.parametrize("name", ["galactic_war", "coordinated_orders"])
def test_every_word_of_every_chart_is_in_the_readers_language(name: str,
                                                               tmp_path_factory: pytest.TempPathFactory) -> None:
    root = resolved(name, tmp_path_factory)
    _, campaign, _ = pipeline.open_campaign(root)
    lang = campaign.language
    assert lang in ("ru", "es")
    typed = set(campaign.factions) | {f.name for f in campaign.factions.values()}
    english = english_words(name)
    books = {root / "campaign.xlsx": campaign.language}  # the GM's, and each faction's in its own language
    books |= {p: campaign.factions[p.stem].language for p in sorted((root / "turns").glob("T*/results/*.xlsx"))}
    assert len(books) > 2
    for book, lang in books.items():
        texts = chart_texts(book)
        assert texts, f"{book.name} has charts"
        words = [t for t in texts if t not in typed]
        assert any(gettext_in(lang, "Turn") == t for t in words), (book.name, words)
        assert not [t for t in words if t.casefold() in english], (book.name, words)
        if lang == "ru":
            assert not [t for t in words if LATIN.search(t)], (book.name, words)


def picture_of(ws: Any) -> bytes:
    images = ws._images  # noqa: SLF001 - openpyxl keeps a sheet's pictures there
    assert len(images) == 1
    return bytes(images[0]._data())  # noqa: SLF001


def test_a_new_language_draws_the_earlier_map_pictures_again(tmp_path_factory: pytest.TempPathFactory,
                                                             tmp_path: Path) -> None:
    """A Russian turn's GM map, the campaign switched to Spanish: the map tab of campaign.xlsx holds the map
    drawn again in Spanish, from the same view the turn drew (its Russian drawing is the turn's own gm.map.svg
    byte for byte), with no Cyrillic left in its text but the names players typed; the charts follow."""
    root = copied("galactic_war", tmp_path_factory, tmp_path)
    _, campaign, _ = pipeline.open_campaign(root)
    assert campaign.language == "ru"
    before = openpyxl.load_workbook(root / "campaign.xlsx")
    (turn, (drawn_in, view)), = kept_views(before).items()
    assert drawn_in == "ru"
    turn_dir = root / "turns" / f"T{turn:02d}"
    russian = draw(view, "ru")
    assert russian.svg == (turn_dir / "gm.map.svg").read_bytes(), "the kept view is the one the turn drew"
    assert picture_of(map_tab_of(before, turn)) == russian.png

    _set_language(root / "campaign.xlsx", "es")
    use_verifiable_dice(root)  # the next command that writes campaign.xlsx

    after = openpyxl.load_workbook(root / "campaign.xlsx")
    tab = map_tab_of(after, turn)
    assert tab.title == f"T{turn:02d} {gettext_in('es', 'Map')}"
    assert before.sheetnames.index(map_tab_of(before, turn).title) == after.sheetnames.index(tab.title)
    spanish = draw(view, "es")
    assert picture_of(tab) == spanish.png != russian.png
    assert tab.cell(1, 1).value == msg("Map of turn {turn} ({reader})", turn=turn, reader=msg("GM")).render("es")
    typed = set(campaign.factions) | {f.name for f in campaign.factions.values()}
    typed |= {p.label for p in view.places} | {u.label for u in view.units}
    texts = [t.strip() for t in re.findall(r">([^<>]+)</text>", spanish.svg.decode("utf-8"))]
    assert texts and gettext_in("es", "Legend") in texts
    assert not [t for t in texts if CYRILLIC.search(t) and t not in typed]
    assert CYRILLIC.search(" ".join(re.findall(r">([^<>]+)</text>", russian.svg.decode("utf-8"))))
    assert kept_views(after)[turn][0] == "es"
    charts = [t for t in chart_texts(root / "campaign.xlsx") if t not in typed]
    assert charts and not [t for t in charts if CYRILLIC.search(t)], charts


def test_an_old_campaigns_tabs_that_cannot_be_rewritten_are_named_to_the_gm(
        tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> None:
    """A campaign whose earlier turn tabs were written before their contents were kept as data (no hidden
    source sheets): switched from Russian to Spanish, its tabs stay Russian and the GM is told which, in his
    words; the same campaign with its data kept is told nothing."""
    from adjudicator.store.turn_tabs import SOURCE

    root = copied("galactic_war", tmp_path_factory, tmp_path)
    book = openpyxl.load_workbook(root / "campaign.xlsx")
    russian_tabs = [t for t in book.sheetnames if re.match(r"T\d\d ", t)]
    assert len(russian_tabs) >= 3 and all(CYRILLIC.search(t) for t in russian_tabs), russian_tabs
    _, campaign, ruleset = pipeline.open_campaign(root)
    campaign.language = "es"
    kept = openpyxl.load_workbook(root / "campaign.xlsx")
    assert master.write_state(kept, ruleset, campaign, campaign.tables, campaign.turn) == []
    assert not [t for t in kept.sheetnames if CYRILLIC.search(t)]

    for hidden in (SOURCE, MAP_SOURCE):  # an old campaign's workbook
        book.remove(book[hidden])
    with ruleset_catalog(ruleset.locale()):
        notes = master.write_state(book, ruleset, campaign, campaign.tables, campaign.turn)
    left = [t for t in book.sheetnames if re.match(r"T\d\d ", t)]
    assert len(notes) == 1
    told = render(notes[0], "es")
    map_tab = f"T{campaign.turn - 1:02d} {gettext_in('es', 'Map')}"  # renamed, its picture still Russian
    for tab in left:
        assert tab in told, (tab, told)
    assert map_tab in left and all(t in left for t in russian_tabs if t != f"T{campaign.turn - 1:02d} Карта")
    assert told != render(notes[0], "en") and "campaign.xlsx" in told
