"""Galactic War in the reader's words: the battle plan's scope for every system is offered as ВСЕ / TODOS / ALL
(the dropdown of the real order workbook), the retreat conditions' tokens and the technologies are shown in the
reader's language and read in every language (English always), with a warning saying what was read when a
word is not the reader's own, and errors listing the valid forms in the reader's tokens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from adjudicator.i18n import gettext_in
from adjudicator.rulesets.galactic_war import schemas, vocabulary
from adjudicator.rulesets.galactic_war.combat import PlanError, parse_retreat
from adjudicator.rulesets.galactic_war.state import parse_techs
from adjudicator.turn import pipeline
from tests.galactic_war.kit import battles, gw, moves, orders, resolve, where
from tests.helpers import make_campaign

ALL_IN = {"en": "ALL", "es": "TODOS", "ru": "ВСЕ"}


def _campaign(root: Path, lang: str) -> Path:
    data = gw([("A1", "ALPHA", "CRUISER", "2"), ("B1", "BETA", "CRUISER", "3")])
    data["settings"]["language"] = lang
    for faction in data["tables"]["factions"]:
        faction["language"] = lang
    return make_campaign(root, data)


def _scope_list(path: Path) -> list[Any]:
    """The values the battle plan's Scope dropdown offers, as LibreOffice and Excel read them: the defined
    name of the cell range that the column's list validation refers to."""
    book = openpyxl.load_workbook(path)
    sheet = next(ws for ws in book.worksheets if ws.title == gettext_in(book_language(book), "Battle plan"))
    validation = next(dv for dv in sheet.data_validations.dataValidation if str(dv.sqref).startswith("A2:"))
    name = validation.formula1.lstrip("=")
    (title, cells), = book.defined_names[name].destinations
    return [c.value for row in book[title][cells.replace("$", "")] for c in row]


def book_language(book: Any) -> str:
    for lang in ("en", "es", "ru"):
        if gettext_in(lang, "Battle plan") in book.sheetnames:
            return lang
    raise AssertionError(book.sheetnames)


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_the_scope_dropdown_offers_all_in_the_reader_s_word(tmp_path: Path, lang: str) -> None:
    root = _campaign(tmp_path / lang, lang)
    path = next(p for p in pipeline.make_templates(root) if p.stem == "ALPHA")
    offered = _scope_list(path)
    assert offered[0] == ALL_IN[lang] and "3" in offered
    assert not set(ALL_IN.values()) - {ALL_IN[lang]} & set(map(str, offered))  # no other language's word


@pytest.mark.parametrize(("lang", "typed", "warned"), [
    ("ru", "ВСЕ", False), ("ru", "ALL", True), ("ru", "todos", True),
    ("es", "TODOS", False), ("es", "ВСЕ", True), ("es", "all", True), ("en", "ВСЁ", True),
])
def test_any_language_s_all_is_read_as_the_reader_s_word(tmp_path: Path, lang: str, typed: str,
                                                         warned: bool) -> None:
    root = _campaign(tmp_path / lang, lang)
    orders(root, "ALPHA", {"battle_plan": [{"scope": typed, "retreat_if": vocabulary.in_tokens("AFTER_ROUND 1",
                                                                                              lang)}]})
    outcome = pipeline.check(root)
    problems = [p for s in outcome.submissions if s.faction == "ALPHA" for p in s.problems]
    assert not [p for p in problems if p.code == "B01"], [p.message.render("en") for p in problems]
    read = [p for p in problems if p.code == "N01"]
    assert bool(read) == warned
    if warned:
        assert read[0].cell == "A2"
        assert read[0].message.render(lang) == gettext_in(lang, "{typed} was read as {value}.").format(
            typed=typed, value=ALL_IN[lang])


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_the_retreat_hint_lists_the_reader_s_own_tokens(lang: str) -> None:
    column = schemas.BATTLE_PLAN.column("retreat_if")
    hint = gettext_in(lang, column.help)
    assert hint.startswith(vocabulary.retreat_forms(lang) + "; ")
    assert hint.endswith(" " + vocabulary.RETREAT_TOKENS[lang]["OR"] + ".")
    others = {word for other, words in vocabulary.RETREAT_TOKENS.items() if other != lang for word in words.values()
              if word not in vocabulary.RETREAT_TOKENS[lang].values() and len(word) > 2}
    assert not [word for word in others if word in hint]
    for text in (schemas.BATTLE_PLAN.help, schemas.BATTLE_PLAN.column("scope").help):  # "Scope ВСЕ applies..."
        assert vocabulary.all_word(lang) in gettext_in(lang, text)
        assert not [w for w in ALL_IN.values() if w != ALL_IN[lang] and w in gettext_in(lang, text).split()]
    techs = gettext_in(lang, schemas.TECHS.help)
    assert all(gettext_in(lang, label) in techs for label, _ in vocabulary.TECHS.values())
    assert "ASSAULT_CANNON" not in techs and "ANTIGRAVITON" not in techs


@pytest.mark.parametrize("condition", ["NEVER", "OWN_SHIPS<=2", "OWN_SHIPS<1.5*ENEMY_SHIPS", "LOSSES>=50%",
                                       "AFTER_ROUND 2", "OWN_SHIPS<=2 OR LOSSES>=50% OR AFTER_ROUND 3"])
def test_a_condition_reads_the_same_in_every_language_s_tokens(condition: str) -> None:
    expected = parse_retreat(condition)
    for lang in vocabulary.RETREAT_TOKENS:
        written = vocabulary.in_tokens(condition, lang)
        assert parse_retreat(written) == expected, written
        assert parse_retreat(written.lower().replace("_", " ")) == expected, written
    assert parse_retreat("naves_propias<=2 o perdidas>=50 %") == parse_retreat("OWN_SHIPS<=2 OR LOSSES>=50%")


def test_a_condition_not_understood_names_the_part_and_lists_the_forms_in_the_reader_s_tokens() -> None:
    with pytest.raises(PlanError) as raised:
        parse_retreat("СВОИ_КОРАБЛИ<=2 ИЛИ ПОТЕРИ 50")
    assert str(raised.value) == "ПОТЕРИ 50"
    text = vocabulary.not_a_condition(str(raised.value)).render("es")
    assert text.startswith("ПОТЕРИ 50 ") and "NAVES_PROPIAS<=n" in text and "OWN_SHIPS" not in text
    with pytest.raises(PlanError) as raised:
        parse_retreat("NAVES<=1 O TRAS_RONDA 2")  # a word that is no token of any language: named
    assert str(raised.value) == "NAVES<=1"
    assert vocabulary.not_a_condition(str(raised.value)).render("ru").startswith("NAVES<=1 (непонятно: NAVES) ")


def test_russian_tokens_retreat_as_the_english_ones_do() -> None:
    data = gw([("A1", "ALPHA", "CRUISER", "2"), ("A2", "ALPHA", "CRUISER", "4"), ("B1", "BETA", "CRUISER", "3")])
    outcomes = []
    for scope, condition in (("ALL", "AFTER_ROUND 1"), ("ВСЕ", "ПОСЛЕ_РАУНДА 1"), ("todos", "tras ronda 1")):
        plan = {"battle_plan": [{"scope": scope, "retreat_if": condition, "retreat_to": "4"}]}
        result, after, _ = resolve(data, {"ALPHA": {**moves(("2", "A1", "3"), ("4", "A2", "3")), **plan}})
        outcomes.append((battles(result), where(after, "A1", "A2", "B1")))
    assert outcomes[0] == ([("3", 1, "ALPHA", "BETA", "BETA", 0, "ALPHA→4")], ["4", "4", "3"])
    assert outcomes[1] == outcomes[0] and outcomes[2] == outcomes[0]


def test_the_technologies_are_read_by_their_names_in_every_language() -> None:
    assert parse_techs("Штурмовое орудие, antigravitón") == {"ASSAULT_CANNON", "ANTIGRAVITON"}
    assert parse_techs("Cañón de asalto; ASSAULT_CANNON") == {"ASSAULT_CANNON"}
    assert parse_techs("Антигравитон") == {"ANTIGRAVITON"} and parse_techs("") == set()


def test_a_russian_plan_saved_by_libreoffice_keeps_its_dropdown_and_reads_english_all(soffice: str,
                                                                                     tmp_path: Path) -> None:
    """The real LibreOffice saves a Russian order workbook whose plan says ALL and LOSSES>=50%: the Scope
    dropdown it keeps still offers ВСЕ, and the check reads ALL as ВСЕ (N01) and the English tokens as they are."""
    from tests.conftest import convert

    root = _campaign(tmp_path / "ru", "ru")
    orders(root, "ALPHA", {"battle_plan": [{"scope": "ALL", "retreat_if": "LOSSES>=50% ИЛИ после раунда 2"}]})
    inbox = root / "inbox" / "ALPHA.xlsx"
    saved = convert(soffice, inbox, "xlsx:Calc MS Excel 2007 XML", tmp_path / "lo")
    assert _scope_list(saved)[0] == "ВСЕ"
    saved.replace(inbox)
    problems = [p for s in pipeline.check(root).submissions if s.faction == "ALPHA" for p in s.problems]
    assert [(p.code, p.cell) for p in problems if p.code in ("N01", "B01")] == [("N01", "A2")]
    read = next(p for p in problems if p.code == "N01")
    assert read.message.render("ru") == gettext_in("ru", "{typed} was read as {value}.").format(typed="ALL",
                                                                                             value="ВСЕ")


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_the_odds_command_s_help_and_errors_use_the_reader_s_tokens(lang: str) -> None:
    from click.testing import CliRunner

    from adjudicator.cli import main

    runner = CliRunner()
    shown = " ".join(runner.invoke(main, ["--lang", lang, "odds", "--help"], terminal_width=400).output.split())
    assert vocabulary.retreat_forms(lang) in shown
    assert vocabulary.in_tokens("OWN_SHIPS<=2 OR LOSSES>=50%", lang) in shown
    assert all(gettext_in(lang, label) in shown for label, _ in vocabulary.TECHS.values())
    bad = runner.invoke(main, ["--lang", lang, "odds", "galactic_war", "--attacker", "GF=3", "--defender", "GF=1",
                               "--attacker-retreat", "СВОИ_КОРАБЛИ<=1 ИЛИ WHEN SAD"])
    assert bad.exit_code == 2
    error = " ".join(bad.output.split())
    assert "WHEN SAD" in error and vocabulary.retreat_forms(lang) in error
    retreat = vocabulary.in_tokens("LOSSES>=50%", lang)
    good = runner.invoke(main, ["--lang", lang, "odds", "galactic_war", "--attacker", "крейсер=2",
                                "--defender", "линкор=1", "--attacker-retreat", retreat,
                                "--attacker-techs", gettext_in(lang, "Assault Cannon")])
    assert good.exit_code == 0, good.output
