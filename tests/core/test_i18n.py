"""adjudicator.i18n: folding words, languages, and lazily rendered messages.

Translations are being written while these tests are: no test asserts a Spanish or Russian text.
Where a test needs a translation, it installs a fake catalog with monkeypatch.
"""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest

from adjudicator import i18n
from adjudicator.i18n import (
    LANGUAGES,
    N_,
    Msg,
    UnsupportedLanguageError,
    all_spellings,
    fold,
    msg,
    msg_n,
    normalise_language,
    render,
    translations,
)

UNKNOWN = "A message no catalog will ever hold: {count} xyzzy"


class Tagged(gettext.NullTranslations):
    """A fake catalog that translates every message by prefixing its language."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def gettext(self, message: str) -> str:
        return f"[{self.lang}]{message}"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"[{self.lang}]{msgid1 if n == 1 else msgid2}"


class Broken(gettext.NullTranslations):
    """A fake catalog whose translations have a broken placeholder."""

    def gettext(self, message: str) -> str:
        return "{not_a_parameter}"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return "{not_a_parameter}"


# --- fold ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spelling",
    ["Reparación", "reparacion", "REPARACIÓN", "  reparación ", "RePaRaCiOn", "réparàcîon"],
)
def test_fold_ignores_case_and_latin_accents(spelling: str) -> None:
    assert fold(spelling) == fold("reparacion") == "reparacion"


def test_fold_ignores_spacing_and_underscores() -> None:
    assert fold("  Research   Pay ") == fold("research pay") == "research pay"
    assert fold("RESEARCH_PAY") == "research pay"
    assert fold("research\tpay\n") == "research pay"


def test_fold_spanish_letters() -> None:
    assert fold("Ñandú") == fold("nandu")
    assert fold("Él está aquí") == "el esta aqui"


def test_fold_keeps_russian_short_i_distinct() -> None:
    assert fold("й") != fold("и")
    assert fold("Й") == fold("й") == "й"
    assert fold("Свойство") != fold("Своиство")
    assert fold("БОЙ") == fold("бой") == "бой"


def test_fold_treats_yo_as_ye() -> None:
    assert fold("ё") == fold("е") == "е"
    assert fold("Ё") == "е"
    assert fold("ВСЁ") == fold("все") == "все"
    assert fold("Ещё") == fold("еще")


def test_fold_accepts_non_text() -> None:
    assert fold(12) == "12"
    assert fold(None) == "none"


def test_fold_drops_the_spanish_diaeresis() -> None:
    assert fold("Pingüino") == fold("pinguino")
    assert fold("Antigüedad") == fold("antiguedad")


# --- languages ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "lang"),
    [
        ("ES", "es"),
        ("es", "es"),
        ("es_AR", "es"),
        ("es-AR", "es"),
        (" Español ", "es"),
        ("Русский", "ru"),
        ("русский", "ru"),
        ("ru_RU", "ru"),
        ("RU", "ru"),
        ("en", "en"),
        ("EN-gb", "en"),
        ("English", "en"),
    ],
)
def test_normalise_language_accepts(code: str, lang: str) -> None:
    assert normalise_language(code) == lang


@pytest.mark.parametrize("code", ["fr", "FR", "fr_FR", "", None, "e", "esp", "rus", "Deutsch"])
def test_normalise_language_rejects(code: object) -> None:
    with pytest.raises(UnsupportedLanguageError):
        normalise_language(code)


def test_unsupported_language_error_is_a_value_error() -> None:
    assert issubclass(UnsupportedLanguageError, ValueError)


def test_catalogs_compile_for_every_language() -> None:
    for lang in LANGUAGES:
        assert isinstance(translations(lang), gettext.NullTranslations)


def test_translations_refuses_an_unknown_language() -> None:
    with pytest.raises(UnsupportedLanguageError):
        translations("fr")


# --- messages -----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_unknown_msgid_falls_back_to_english(lang: str) -> None:
    assert msg(UNKNOWN, count=3).render(lang) == "A message no catalog will ever hold: 3 xyzzy"


def test_str_is_english() -> None:
    assert str(msg(UNKNOWN, count=7)) == "A message no catalog will ever hold: 7 xyzzy"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_msg_parameter_is_rendered(lang: str) -> None:
    inner = msg("Inner xyzzy {value}", value=5)
    outer = msg("Outer xyzzy: {inner}.", inner=inner)
    text = outer.render(lang)
    assert text == "Outer xyzzy: Inner xyzzy 5."
    assert "Msg(" not in text


def test_msg_parameter_is_rendered_in_the_same_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "translations", Tagged)
    outer = msg("Outer {inner}", inner=msg("Inner {value}", value=msg("Deepest")))
    assert outer.render("es") == "[es]Outer [es]Inner [es]Deepest"
    assert outer.render("ru") == "[ru]Outer [ru]Inner [ru]Deepest"


def test_plural_in_english() -> None:
    assert msg_n("{n} fleet", "{n} fleets", 1).render("en") == "1 fleet"
    assert msg_n("{n} fleet", "{n} fleets", 3).render("en") == "3 fleets"
    assert msg_n("{n} fleet in {square}", "{n} fleets in {square}", 0, square="A1").render("en") == (
        "0 fleets in A1"
    )


def test_plural_uses_ngettext(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "translations", Tagged)
    assert msg_n("{n} fleet", "{n} fleets", 2).render("ru") == "[ru]2 fleets"


def test_broken_translation_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "translations", lambda lang: Broken())
    assert msg("{file} is damaged.", file="a.xlsx").render("es") == "a.xlsx is damaged."


def test_broken_plural_translation_falls_back_to_the_english_plural(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "translations", lambda lang: Broken())
    assert msg_n("{n} fleet", "{n} fleets", 3).render("es") == "3 fleets"


def test_msg_helpers() -> None:
    assert msg("Hello {who}", who="GM") == Msg("Hello {who}", {"who": "GM"})
    assert msg_n("a", "b", 2) == Msg("a", {}, plural="b", n=2)
    assert N_("Move") == "Move"


def test_render_passes_other_values_through() -> None:
    assert render(5, "es") == 5
    assert render("text", "ru") == "text"
    assert render(None, "en") is None
    assert render(msg(UNKNOWN, count=1), "ru") == "A message no catalog will ever hold: 1 xyzzy"


def test_render_renders_a_list_of_messages() -> None:
    assert render([msg("First xyzzy"), msg("Second xyzzy")], "en") == ["First xyzzy", "Second xyzzy"]


def test_all_spellings_holds_the_english_form_and_synonyms() -> None:
    words = all_spellings("Repair Order Xyzzy", ["Ремонт", "REPARACIÓN"])
    assert {"repair order xyzzy", "ремонт", "reparacion"} <= words
    assert all(word == fold(word) for word in words)


def _fold_char_by_char(text: object) -> str:
    """fold as it was first written (every character normalised on its own), the reference of its fast paths."""
    import unicodedata

    out = []
    for char in unicodedata.normalize("NFC", str(text)).casefold():
        if char == "й":
            out.append(char)
            continue
        if char == "ё":
            char = "е"
        out.append("".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)))
    return " ".join("".join(out).replace("_", " ").split())


def test_fold_is_the_char_by_char_fold_for_every_word_of_the_catalogs_and_every_character() -> None:
    import adjudicator

    package = Path(adjudicator.__file__).parent
    words = [line.split('"', 1)[1].rsplit('"', 1)[0] for po in package.rglob("*.po")
             for line in po.read_text(encoding="utf-8").splitlines() if line.startswith(("msgid ", "msgstr "))]
    characters = [chr(c) for c in range(0x3400) if not 0xD800 <= c < 0xE000]
    mixed = ["Ё_ёЙй\tİstanbul", "ǅungla  ﬁn", "A\u0301 B\u0308", "x" * 150 + "é", 7, None, 3.5, "  Reparación  "]
    for text in [*words, *characters, "".join(characters[:300]), *mixed, *mixed]:  # twice: the cached path
        assert fold(text) == _fold_char_by_char(text), repr(text)
