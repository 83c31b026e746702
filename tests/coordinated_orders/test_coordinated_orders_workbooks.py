"""Coordinated Orders: each player's order workbook shows its roster, its weapons, its Command Tokens and
Regular Orders, and the enemy it may see, on protected read-only sheets, and nothing else: no trooper in
Hidden Deployment or off the table, no trooper behind a Camouflaged Marker, anywhere in the file."""

from __future__ import annotations

import re
import zipfile
from datetime import datetime
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from adjudicator.i18n import gettext_in
from adjudicator.paths import examples_root
from adjudicator.rulesets.coordinated_orders.state import HIDDEN, Game, game_from_tables
from adjudicator.turn import pipeline
from tests.coordinated_orders.kit import RULESET, data
from tests.helpers import make_campaign, state

EXAMPLE = examples_root() / RULESET
REFERENCE_SHEETS = ("Your roster", "Your weapons and Equipment", "Command Tokens and Orders", "Enemy troopers in sight")


def grid(ws: Any) -> list[list[Any]]:
    return [list(r) for r in ws.iter_rows(values_only=True)]


def table(book: Any, title: str, lang: str) -> list[dict[str, Any]]:
    """The rows of the reference sheet ``title`` as {English header: value}."""
    rows = grid(book[gettext_in(lang, title)[:31]])
    assert rows[0][0] == gettext_in(lang, title)
    headers = rows[1]
    out = []
    for values in rows[2:]:
        if all(v is None for v in values):
            break
        out.append(dict(zip(headers, values, strict=False)))
    return out


def secrets(game: Game, reader: str) -> tuple[set[str], set[str], set[int]]:
    """What ``reader`` may not know: (IDs, names, numbers) of enemy troopers it cannot see, minus whatever
    a trooper it can see shares with them (a unit name, a weapon, an attribute value)."""
    hidden = [t for t in game.troopers.values()
              if t.faction != reader and (t.deployment in HIDDEN or t.deployment == "CAMO_MARKER")]
    seen = [t for t in game.troopers.values() if t not in hidden]
    public_names = {t.unit for t in seen} | {x.name for t in seen for x in t.tools.values()}
    public_numbers = {v for t in seen for v in t.attributes.values()}
    ids = {t.id for t in hidden}
    names = {n for t in hidden for n in (t.unit, *(x.name for x in t.tools.values())) if n} - public_names
    numbers = {v for t in hidden for v in t.attributes.values()} - public_numbers
    return ids, names, numbers


def words(text: str) -> set[str]:
    return {w for w in re.split(r"[^0-9A-Za-zÀ-ÿА-я_]+", text.upper()) if w}


def leaks(path: Path, ids: set[str], names: set[str], numbers: set[int]) -> list[str]:
    """Every place in the file where a secret shows: cells of every sheet (hidden ones too), comments,
    defined names, document properties, and any text part of the zip."""
    found = []
    book = openpyxl.load_workbook(path)

    def look(where: str, value: Any) -> None:
        if value is None or isinstance(value, datetime):  # a timestamp's minutes are no attribute
            return
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if value in numbers:
                found.append(f"{where}: {value}")
            return
        text = str(value)
        tokens = words(text)
        found.extend(f"{where}: {text!r}" for i in ids if i in tokens)
        found.extend(f"{where}: {text!r}" for n in names if n.casefold() in text.casefold())
        found.extend(f"{where}: {text!r}" for n in numbers if str(n) in tokens)

    for ws in book.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                look(f"{ws.title}!{cell.coordinate}", cell.value)
                if cell.comment is not None:
                    look(f"comment {ws.title}!{cell.coordinate}", cell.comment.text)
    for name, defined in book.defined_names.items():
        look(f"defined name {name}", name)
        look(f"defined name {name}", re.sub(r"\$[A-Z]+\$\d+", "", defined.attr_text or ""))
    for key, value in vars(book.properties).items():
        look(f"property {key}", value)
    for prop in book.custom_doc_props.props:
        look(f"custom property {prop.name}", f"{prop.name} {prop.value}")
    with zipfile.ZipFile(path) as z:
        for part in z.namelist():
            if part.startswith(("docProps/", "xl/comments", "xl/sharedStrings", "customXml/")):
                raw = z.read(part).decode("utf-8", "replace")
                text = re.sub(r"<[^>]+>", " ", raw)
                found.extend(f"{part}: {n}" for n in names if n.casefold() in text.casefold())
                found.extend(f"{part}: {i}" for i in ids if i in words(text))
    return found


# ----------------------------------------------------------------------------- a test campaign
@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Path]]:
    root = make_campaign(tmp_path_factory.mktemp("wb") / "c", data(tokens=3, cg1=6, cg2=2))
    paths = pipeline.make_templates(root)
    return root, {p.stem: p for p in paths}


def test_each_workbook_has_its_roster_weapons_and_orders_on_protected_sheets(
        templates: tuple[Path, dict[str, Path]]) -> None:
    _, paths = templates
    book = openpyxl.load_workbook(paths["PANO"])
    for title in REFERENCE_SHEETS:
        ws = book[title]
        assert ws.protection.sheet and ws.sheet_state == "visible"
    roster = {r["Trooper"]: r for r in table(book, "Your roster", "en")}
    assert set(roster) == {"G1", "F1", "F2", "F3", "F4", "C1", "C2", "S1", "A1", "H1", "I1", "I2", "I3", "P1", "R1",
                           "T1", "X1", "K1", "K2", "HK1", "HK2"}  # its own hidden troopers too
    assert roster["H1"]["Deployment"] == "Hidden Deployment" and roster["A1"]["Deployment"] == "Airborne, off the table"
    assert (roster["C1"]["Deployment"], roster["C1"]["Marker"]) == ("Camouflaged Marker", "M1")
    assert (roster["T1"]["Fireteam"], roster["P1"]["Peripheral or Controller"]) == ("FT-1", "Peripheral")
    assert (roster["I1"]["Training"], roster["I1"]["Own Irregular Orders"], roster["K1"]["Combat Group"]) == (
        "Irregular", 1, 2)
    assert (roster["S1"]["Super-Jump"], roster["X1"]["Can receive Orders"]) == ("YES", "NO")
    assert [roster["A1"][a] for a in ("BS", "CC", "PH", "WIP")] == [41, 42, 43, 44]
    assert roster["A1"]["Weapons and Equipment"] == "Combi Rifle B3; CCW B1; Spitfire B4+1"
    weapons = {(r["Trooper"], r["Weapon or Equipment"]): r for r in table(book, "Your weapons and Equipment", "en")}
    spitfire = weapons[("A1", "Spitfire")]
    assert (spitfire["Burst"], spitfire["Burst bonus"], spitfire["Burst as Spearhead"], spitfire["Burst of the others"]
            ) == (4, 1, 3, 1)  # ⌈(4 + 1) / 2⌉
    assert weapons[("F4", "Chain Rifle")]["Properties"] == "TEMPLATE"
    orders = {r["Resource"]: r["Available"] for r in table(book, "Command Tokens and Orders", "en")}
    assert orders == {"Command Tokens": 3, "Regular Orders of Combat Group 1": 6, "Regular Orders of Combat Group 2": 2}
    enemy = {r["Trooper"]: r for r in table(book, "Enemy troopers in sight", "en")}
    assert set(enemy) == {"MZ1", "KN1"} and enemy["MZ1"]["BS"] == 14


def test_the_enemy_is_shown_as_the_player_may_see_it(templates: tuple[Path, dict[str, Path]]) -> None:
    _, paths = templates
    book = openpyxl.load_workbook(paths["JSA"])
    assert {r["Trooper"] for r in table(book, "Your roster", "en")} == {"MZ1", "KN1", "NJ1"}
    enemy = {r["Trooper"]: r for r in table(book, "Enemy troopers in sight", "en")}
    assert not set(enemy) & {"A1", "H1", "I2", "I3", "C1", "C2"}
    assert {k: (r["Unit"], r["BS"]) for k, r in enemy.items() if k in ("M1", "M2")} == {
        "M1": ("Camouflaged Marker", None), "M2": ("Camouflaged Marker", None)}
    assert {r["Resource"] for r in table(book, "Command Tokens and Orders", "en")} == {
        "Command Tokens", "Regular Orders of Combat Group 1"}  # its own, not the PanOceanian's


@pytest.mark.parametrize("faction", ["PANO", "JSA"])
def test_nothing_the_player_may_not_see_is_anywhere_in_its_workbook(
        templates: tuple[Path, dict[str, Path]], faction: str) -> None:
    root, paths = templates
    ids, names, numbers = secrets(game_from_tables(state(root).tables), faction)
    assert ids and names and numbers  # the test campaign has secrets to keep
    assert leaks(paths[faction], ids, names, numbers) == []


def test_the_leak_finder_finds_a_leak(templates: tuple[Path, dict[str, Path]], tmp_path: Path) -> None:
    root, paths = templates
    ids, names, numbers = secrets(game_from_tables(state(root).tables), "JSA")
    book = openpyxl.load_workbook(paths["JSA"])
    book["_lists"]["Z9"] = "H1"
    book.properties.keywords = "Crusader"
    path = tmp_path / "leaky.xlsx"
    book.save(path)
    assert len(leaks(path, ids, names, numbers)) >= 2


def test_a_marker_without_a_label_does_not_give_its_trooper_away(tmp_path: Path) -> None:
    settings = data()
    for row in settings["tables"]["troopers"]:
        if row["trooper"] == "C2":
            row.pop("marker")
    root = make_campaign(tmp_path / "c", settings)
    paths = {p.stem: p for p in pipeline.make_templates(root)}
    enemy = table(openpyxl.load_workbook(paths["JSA"]), "Enemy troopers in sight", "en")
    assert sorted(r["Trooper"] for r in enemy if r["Unit"] == "Camouflaged Marker") == ["CAMO1", "M1"]
    assert leaks(paths["JSA"], {"C2"}, set(), set()) == []


# ------------------------------------------------------------------------ the committed example
@pytest.mark.parametrize("faction", ["PANO", "JSA"])
def test_the_example_workbooks_show_the_roster_and_keep_the_secrets(faction: str) -> None:
    path = EXAMPLE / "inbox" / f"{faction}.xlsx"
    book = openpyxl.load_workbook(path)
    lang = "es"
    for title in REFERENCE_SHEETS:
        assert book[gettext_in(lang, title)[:31]].protection.sheet
    from adjudicator.scenario import campaign_from_data, load_scenario

    _, campaign = campaign_from_data(load_scenario(EXAMPLE))
    game = game_from_tables(campaign.tables)
    trooper = gettext_in(lang, "Trooper")
    assert {r[trooper] for r in table(book, "Your roster", lang)} == {t.id for t in game.roster(faction)}
    ids, names, numbers = secrets(game, faction)
    assert ids and names
    assert leaks(path, ids, names, numbers) == []
