"""Galactic War's words that a General types in the reader's language: the battle plan's scope for every system
(ALL, ВСЕ, TODOS) and the tokens of its retreat conditions (OWN_SHIPS<=2 OR LOSSES>=50%, СВОИ_КОРАБЛИ<=2 ИЛИ
ПОТЕРИ>=50%, NAVES_PROPIAS<=2 O PÉRDIDAS>=50%), and the technologies' names. Every language's word is read,
and English always; each reader is shown the words of their own language."""

from __future__ import annotations

import re
from functools import cache

from adjudicator.i18n import LANGUAGES, N_, Msg, all_spellings, fold, gettext_in, msg

#: The scope of a battle plan row that applies everywhere: its msgid (ВСЕ, TODOS) and more spellings.
ALL = N_("ALL")
ALL_SYNONYMS = ("ВСЁ", "TODO", "TODAS")

#: The tokens of a retreat condition, by language (rules as data): code → the word a reader of that language
#: writes. A condition is read in every language's tokens; the hint shows the reader's own.
RETREAT_TOKENS: dict[str, dict[str, str]] = {
    "en": {"NEVER": "NEVER", "OWN_SHIPS": "OWN_SHIPS", "ENEMY_SHIPS": "ENEMY_SHIPS", "LOSSES": "LOSSES",
           "AFTER_ROUND": "AFTER_ROUND", "OR": "OR"},
    "es": {"NEVER": "NUNCA", "OWN_SHIPS": "NAVES_PROPIAS", "ENEMY_SHIPS": "NAVES_ENEMIGAS", "LOSSES": "PÉRDIDAS",
           "AFTER_ROUND": "TRAS_RONDA", "OR": "O"},
    "ru": {"NEVER": "НИКОГДА", "OWN_SHIPS": "СВОИ_КОРАБЛИ", "ENEMY_SHIPS": "КОРАБЛИ_ВРАГА", "LOSSES": "ПОТЕРИ",
           "AFTER_ROUND": "ПОСЛЕ_РАУНДА", "OR": "ИЛИ"},
}
#: The forms of a condition, with the tokens as codes (n, k and p stand for the numbers the General writes).
RETREAT_FORMS = ("NEVER", "OWN_SHIPS<=n", "OWN_SHIPS<k*ENEMY_SHIPS", "LOSSES>=p%", "AFTER_ROUND n")
#: The hint that lists them, in the reader's words (the catalogs hold each language's tokens: a test checks they
#: are those of :data:`RETREAT_TOKENS`).
RETREAT_HINT = N_("NEVER, OWN_SHIPS<=n, OWN_SHIPS<k*ENEMY_SHIPS, LOSSES>=p%, AFTER_ROUND n; join with OR.")
#: Also "never" for a blank cell or a dash.
NEVER_EXTRA = ("", "-")

#: The technologies: code → msgid of its name, and more spellings.
TECHS = {
    "ASSAULT_CANNON": (N_("Assault Cannon"), ("assault_cannon", "cañon de asalto")),
    "ANTIGRAVITON": (N_("Antigraviton"), ("antigravitón",)),
}
TECHS_HINT = N_("Assault Cannon, Antigraviton, separated by commas.")


def all_word(lang: str) -> str:
    """The reader's word for a battle plan row that applies everywhere (ВСЕ, TODOS, ALL)."""
    return gettext_in(lang, ALL)


@cache
def all_spellings_of_all() -> frozenset[str]:
    """Every folded spelling of ALL, in every language."""
    return frozenset(all_spellings(ALL, ALL_SYNONYMS))


def all_words_elsewhere(lang: str) -> tuple[str, ...]:
    """ALL as readers of the other languages write it (and its other spellings), for the reader of ``lang``."""
    own = all_word(lang)
    return tuple(dict.fromkeys(w for w in (*(gettext_in(other, ALL) for other in LANGUAGES), *ALL_SYNONYMS)
                               if w != own))


def means_all(text: object) -> bool:
    return fold(text or "") in all_spellings_of_all() or not str(text or "").strip()


def retreat_forms(lang: str) -> str:
    """``NEVER, OWN_SHIPS<=n, …, AFTER_ROUND n`` in the tokens of ``lang``: how :data:`RETREAT_HINT` begins there."""
    return ", ".join(in_tokens(form, lang) for form in RETREAT_FORMS)


def in_tokens(condition: str, lang: str) -> str:
    """A condition written with English tokens, in those of ``lang``: ``OWN_SHIPS<=2`` → ``СВОИ_КОРАБЛИ<=2``."""
    words = RETREAT_TOKENS.get(lang, RETREAT_TOKENS["en"])
    return _ENGLISH_TOKEN.sub(lambda found: words[found.group(0)], condition)


_ENGLISH_TOKEN = re.compile(r"(?<![\w])(" + "|".join(sorted(RETREAT_TOKENS["en"], key=len, reverse=True))
                            + r")(?![\w])")


@cache
def _token_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """(pattern of a token in any language, its code), longest first, on folded text (no case, no accent,
    a space for an underscore)."""
    spellings = {(fold(words[code]), code) for words in RETREAT_TOKENS.values() for code in words if code != "OR"}
    ordered = sorted(spellings, key=lambda item: (-len(item[0]), item))
    return tuple((re.compile(r"(?<![\w])" + r"\s*".join(map(re.escape, word.split(" "))) + r"(?![\w])"), code)
                 for word, code in ordered)


#: What joins two conditions: OR in any language (ИЛИ, O), ``|`` or ``;``.
JOIN = re.compile(r"\s+(?:" + "|".join(sorted({re.escape(words["OR"]) for words in RETREAT_TOKENS.values()},
                                             key=len, reverse=True)) + r")\s+|\||;", re.IGNORECASE)


def not_a_condition(text: str) -> Msg:
    """What the General wrote that is no retreat condition (the words in it that are no token, if any), and the
    forms that are, in the reader's tokens."""
    return msg("{value} is not a retreat condition. Write one of: {forms}", value=why_not(text),
               forms=msg(RETREAT_HINT))


def why_not(text: str) -> Msg | str:
    """A part that is no retreat condition, with the words in it that are no token of any language:
    ``NAVES<=1 (NAVES?)``; the part alone when each word is a token (``ПОТЕРИ 50``: the form is wrong)."""
    unknown = unknown_words(text)
    if not unknown:
        return text
    return msg("{value} (not understood: {words})", value=text, words=", ".join(unknown))


def unknown_words(text: str) -> list[str]:
    """The words of ``text`` that are no token of a retreat condition in any language, as read (upper case)."""
    codes = set(RETREAT_TOKENS["en"])
    return list(dict.fromkeys(w for w in re.findall(r"[^\W\d_]+(?:_[^\W\d_]+)*", to_english(text))
                              if w not in codes))


def to_english(condition: str) -> str:
    """One condition in any language's tokens, with the English ones: ``ПОТЕРИ >= 50%`` → ``LOSSES >= 50%``."""
    text = fold(condition)
    for pattern, code in _token_patterns():
        text = pattern.sub(code, text)
    return text.upper()


def never_words() -> frozenset[str]:
    """NEVER in every language, folded."""
    return frozenset({fold(words["NEVER"]) for words in RETREAT_TOKENS.values()} | set(NEVER_EXTRA))


def tech_spellings() -> dict[str, frozenset[str]]:
    """Each technology's folded spellings in every language (its code too)."""
    return {code: frozenset(all_spellings(label, (code, *more))) for code, (label, more) in TECHS.items()}
