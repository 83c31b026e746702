"""Translated messages: gettext catalogs (compiled by Babel) and lazy, parameterised messages.

Every string a player or GM reads is written in English in the code, marked with :func:`msg`,
:func:`msg_n` or :func:`N_`, extracted by Babel into ``locale/adjudicator.pot`` and translated in
``locale/<lang>/LC_MESSAGES/adjudicator.po``; each ruleset has its own catalog beside its code
(``rulesets/<name>/locale/``). Each ``.po`` is read from the ``.mo`` compiled beside it at install
(``make``) time, or compiled in memory when that is missing or older (:mod:`adjudicator.i18n.catalogs`), so a
catalog can never be stale; the catalogs of a language are merged when first needed.
"""

from __future__ import annotations

import gettext
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from adjudicator.i18n import catalogs

LANGUAGES: tuple[str, ...] = ("en", "es", "ru")
LANGUAGE_NAMES = {"en": "English", "es": "Español", "ru": "Русский"}
DOMAIN = "adjudicator"


class UnsupportedLanguageError(ValueError):
    """Raised when a language code is not one of :data:`LANGUAGES`."""


def normalise_language(code: object) -> str:
    """Map ``"ES"``, ``"es_AR"``, ``"Русский"`` … to one of :data:`LANGUAGES`."""
    text = str(code or "").strip().casefold().replace("-", "_")
    for lang, name in LANGUAGE_NAMES.items():
        if text in (lang, name.casefold()) or text.startswith(lang + "_"):
            return lang
    raise UnsupportedLanguageError(f"unsupported language: {code!r}")


def catalog_files(lang: str) -> list[Traversable]:
    """The ``.po`` files of ``lang``: the core catalog first, then the other catalogs of the core
    (``click.po``), then each built-in ruleset's own
    (``adjudicator/rulesets/<name>/locale/<lang>/LC_MESSAGES/<name>.po``)."""
    package = resources.files("adjudicator")
    core = package / "locale" / lang / "LC_MESSAGES"
    found = [core / f"{DOMAIN}.po"]
    found += sorted((p for p in core.iterdir() if p.name.endswith(".po") and p.name != f"{DOMAIN}.po"),
                    key=lambda p: p.name)  # e.g. click.po: the command-line library's own messages
    for folder in sorted((package / "rulesets").iterdir(), key=lambda p: p.name):
        po = folder / "locale" / lang / "LC_MESSAGES" / f"{folder.name}.po"
        if po.is_file():
            found.append(po)
    return found


#: The catalog folder (``<package>/locale``) of the ruleset being worked for, if any: its texts are looked up in
#: its own catalog first, then in the core's, and never in another ruleset's.
_RULESET_LOCALE: ContextVar[Traversable | None] = ContextVar("ruleset_locale", default=None)


@contextmanager
def ruleset_catalog(locale: Traversable | None) -> Iterator[None]:
    """Within the block, messages are translated with the catalogs of ``locale`` (a ruleset's ``locale``
    folder) first, then the core's; no other ruleset's catalog is used."""
    token = _RULESET_LOCALE.set(locale)
    try:
        yield
    finally:
        _RULESET_LOCALE.reset(token)


def scoped_locale() -> Traversable | None:
    """The catalog folder of the ruleset being worked for (inside :func:`ruleset_catalog`), else ``None``."""
    return _RULESET_LOCALE.get()


def scoped_catalog_files(lang: str, locale: Traversable) -> list[Traversable]:
    """A ruleset's own ``.po`` files of ``lang`` (any domain), then the core's catalogs."""
    folder = locale / lang / "LC_MESSAGES"
    own = sorted((p for p in folder.iterdir() if p.name.endswith(".po")), key=lambda p: p.name) \
        if folder.is_dir() else []
    core = resources.files("adjudicator") / "locale" / lang / "LC_MESSAGES"
    return [*own, core / f"{DOMAIN}.po",
            *sorted((p for p in core.iterdir() if p.name.endswith(".po") and p.name != f"{DOMAIN}.po"),
                    key=lambda p: p.name)]


def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogs of ``lang``, merged (English is the source language); inside
    :func:`ruleset_catalog`, the ruleset's own catalog first and no other ruleset's."""
    locale = _RULESET_LOCALE.get()
    last = _LAST_BY_LANGUAGE.get(lang)
    if last is not None and last[0] is locale:  # the very folder object as the last time: no path compared
        return last[1]
    merged = _translations(lang, locale)
    _LAST_BY_LANGUAGE[lang] = (locale, merged)
    return merged


#: The catalogs ``translations`` gave last for each language, and the ruleset folder object they were for: every
#: message rendered looks its catalogs up, and ``_translations``' cache compares the folders' paths (issue 16).
#: One entry a language (a supported one: others raise first), so it never grows.
_LAST_BY_LANGUAGE: dict[str, tuple[Traversable | None, gettext.NullTranslations]] = {}


@cache
def _translations(lang: str, locale: Traversable | None) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    if lang not in LANGUAGES:
        raise UnsupportedLanguageError(f"unsupported language: {lang!r}")
    files = catalog_files(lang) if locale is None else scoped_catalog_files(lang, locale)
    return catalogs.merged([catalogs.compiled(po, lang) for po in files])


def gettext_in(lang: str, text: str) -> str:
    return translations(lang).gettext(text)


def N_(text: str) -> str:  # noqa: N802 - the conventional gettext marker
    """Mark a string for extraction; it is translated later, where it is shown."""
    return text


@dataclass(frozen=True)
class Msg:
    """A message to be rendered later in the reader's language.

    ``text`` is the English msgid with ``{named}`` placeholders. Parameters that are themselves
    :class:`Msg` are rendered in the same language.
    """

    text: str
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    n: int | None = None

    def render(self, lang: str = "en") -> str:
        tr = translations(lang)
        if self.plural is not None and self.n is not None:
            template = tr.ngettext(self.text, self.plural, self.n)
        else:
            template = tr.gettext(self.text)
        values = {k: v if v.__class__ in _AS_THEY_ARE else render(v, lang) for k, v in self.params.items()}
        if self.n is not None:
            values.setdefault("n", self.n)
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            # A translation with a broken placeholder must not hide the message itself.
            english = self.plural if self.plural is not None and self.n is not None and self.n != 1 else self.text
            return english.format(**values)

    def __str__(self) -> str:
        return self.render("en")


def msg(text: str, **params: Any) -> Msg:
    """A translatable message (extraction keyword ``msg``)."""
    return Msg(text, params)  # a new dict at every call already: not copied again


def msg_n(singular: str, plural: str, n: int, **params: Any) -> Msg:
    """A translatable message with plural forms (extraction keyword ``msg_n``)."""
    return Msg(singular, params, plural=plural, n=n)


@dataclass(frozen=True)
class Words:
    """Several translatable words (msgids) shown as one list, each in the reader's language: the
    choices a hint lists are then the very words of the reader's dropdown."""

    words: tuple[str, ...]
    separator: str = ", "

    def render(self, lang: str = "en") -> str:
        return self.separator.join(gettext_in(lang, word) for word in self.words)

    def __str__(self) -> str:
        return self.render("en")


@dataclass(frozen=True)
class Joined:
    """Several parts (messages, words or plain text) shown as one text, each in the reader's language."""

    parts: tuple[Any, ...]
    separator: str = "; "

    def render(self, lang: str = "en") -> str:
        return self.separator.join(str(render(part, lang)) for part in self.parts)

    def __str__(self) -> str:
        return self.render("en")


#: The types of values :func:`render` returns as they are, found at once: most of a message's parameters (a name, a
#: count) are, and a turn's reports render over a million messages (issue 16).
_AS_THEY_ARE = frozenset({str, int, float, bool, type(None)})


def render(value: Any, lang: str) -> Any:
    """Render a :class:`Msg`, :class:`Words` or :class:`Joined` (or a list of them); other values are returned
    as they are."""
    if value.__class__ in _AS_THEY_ARE:
        return value
    if isinstance(value, (Msg, Words, Joined)):
        return value.render(lang)
    if isinstance(value, (list, tuple)):
        return type(value)(render(item, lang) for item in value)
    return value


def fold(text: object) -> str:
    """Case-, accent- and space-insensitive key used to recognise words in any language.

    Latin accents are dropped (``Reparación`` = ``reparacion``, ``Pingüino`` = ``pinguino``); Russian
    ``й`` stays distinct from ``и``, and ``ё`` is read as ``е``, as Russian writers do."""
    text = str(text)
    if text.isascii():  # nothing to normalise (the same key, far cheaper: every header and cell is folded)
        return " ".join(text.lower().replace("_", " ").split())
    return _fold_word(text) if len(text) <= 100 else _fold_unicode(text)  # words and names recur: kept


def _fold_unicode(text: str) -> str:
    out = []
    for char in unicodedata.normalize("NFC", text).casefold():
        if char == "й":
            out.append(char)
            continue
        if char == "ё":
            char = "е"
        out.append("".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)))
    return " ".join("".join(out).replace("_", " ").split())


_fold_word = lru_cache(maxsize=1 << 14)(_fold_unicode)


def all_spellings(msgid: str, extra: Iterable[str] = ()) -> set[str]:
    """The folded forms of ``msgid`` in every language, plus ``extra`` synonyms."""
    words = {fold(msgid)} | {fold(gettext_in(lang, msgid)) for lang in LANGUAGES}
    return words | {fold(word) for word in extra}
