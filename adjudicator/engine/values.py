"""A value the GM types in a sheet of campaign.xlsx (*Parameters*, *Rule tables*), read in the type of the
default it replaces: a switch, a whole number, a number, one of a few words, or a word.

Both sheets read their values here, so that a GM types the same words in either. A switch is read in any of
the campaign's languages, in any case and with or without accents:

- yes: the catalog's word for YES (SÍ, ДА), TRUE and the spreadsheets' own boolean (VERDADERO, ИСТИНА), Y, S,
  Д, and any number equal to 1 (1, 1.0, "1,0");
- no: NO, НЕТ, FALSE, FALSO, ЛОЖЬ, N, Н, and any number equal to 0.

A value that does not fit is a :class:`ValueTypeError` whose ``reason`` is a translatable message; the sheet's
reader puts it at the cell, with the sheet's own problem code.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from adjudicator.i18n import LANGUAGES, N_, Msg, fold, gettext_in, msg

YES, NO = N_("YES"), N_("NO")
#: The spreadsheets' own boolean words (Excel and LibreOffice show a TRUE cell as VERDADERO, ИСТИНА).
TRUE, FALSE = N_("TRUE"), N_("FALSE")
#: Words a GM may type for a switch besides the catalog's (short forms, and the words typed without a catalog).
MORE_YES = ("yes", "y", "true", "si", "s", "verdadero", "да", "д", "истина")
MORE_NO = ("no", "n", "false", "falso", "нет", "н", "ложь")


class ValueTypeError(ValueError):
    """Raised when a value typed by the GM does not fit the type of the default it replaces (``reason``: what
    was expected and what was typed, translatable)."""

    def __init__(self, reason: Msg | str) -> None:
        super().__init__(str(reason))
        self.reason = reason


def _spellings(words: Sequence[str], more: Sequence[str]) -> frozenset[str]:
    found = {fold(word) for word in more}
    found |= {fold(gettext_in(lang, word)) for word in words for lang in LANGUAGES}
    return frozenset(found)


_YES_NO: dict[bool, frozenset[str]] = {}


def switch_words() -> dict[bool, frozenset[str]]:
    """The folded words read as yes (True) and as no (False)."""
    if not _YES_NO:
        _YES_NO[True] = _spellings((YES, TRUE), MORE_YES)
        _YES_NO[False] = _spellings((NO, FALSE), MORE_NO)
    return _YES_NO


def _number(value: Any) -> float | None:
    if isinstance(value, bool):  # a TRUE cell is no number
        return None
    try:
        number = float(str(value).strip().replace(",", "."))
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def shown(value: Any) -> str:
    """The typed value as the messages quote it (201.0 from a spreadsheet as 201)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def read_switch(value: Any) -> bool:
    """A yes/no value typed by the GM (see the module's words); :class:`ValueTypeError` otherwise."""
    if isinstance(value, bool):
        return value
    number = _number(value)
    if number in (0.0, 1.0):
        return number == 1.0
    word = fold(value)
    for meaning, words in switch_words().items():
        if word in words:
            return meaning
    raise ValueTypeError(msg("expected YES or NO (or TRUE or FALSE, 1 or 0), got {value}", value=shown(value)))


def read_value(default: Any, value: Any, *, minimum: float | None = None, maximum: float | None = None,
               choices: Sequence[str] = ()) -> Any:
    """``value`` (as a workbook cell gives it) in the type of ``default``: a switch, a whole number, a number
    (a decimal comma or point) within ``minimum``/``maximum``, one of ``choices`` (any case and accents), or a
    word; :class:`ValueTypeError` when it does not fit."""
    if isinstance(default, bool):
        return read_switch(value)
    if isinstance(default, (int, float)):
        number = _number(value)
        if number is None:
            raise ValueTypeError(msg("expected a number, got {value}", value=shown(value)))
        if isinstance(default, int):
            if not number.is_integer():
                raise ValueTypeError(msg("expected a whole number, got {value}", value=shown(value)))
            number = int(number)
        if minimum is not None and number < minimum:
            raise ValueTypeError(msg("expected at least {minimum}, got {value}", minimum=shown(minimum),
                                     value=shown(value)))
        if maximum is not None and number > maximum:
            raise ValueTypeError(msg("expected at most {maximum}, got {value}", maximum=shown(maximum),
                                     value=shown(value)))
        return number
    text = shown(value)
    if choices:
        for choice in choices:
            if fold(choice) == fold(text):
                return choice
        raise ValueTypeError(msg("expected one of {choices}, got {value}", choices=", ".join(choices), value=text))
    return text
