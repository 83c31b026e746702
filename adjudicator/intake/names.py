"""Reading the names a player types as a careful GM would: a square, a system, a project ID or a faction
typed with Cyrillic look-alike letters ("А1" for A1), in another case ("alpha-t01-1"), without its
accents, as a number (201 for hex 0201) or as the faction's name in another language ("АЛЬФА",
"Империя Альфа" for ALPHA) is read as the one legal value meant, with a warning that says what was
read. A name still unknown, that the ruleset refuses, gets the closest legal values in the hint of the
ruleset's error ("did you mean …").

The legal values of a column are those the order template offers in its dropdown
(``Presentation.choice_lists``, in the reader's language), and the other languages' words for those that
are words (``Presentation.choice_aliases``: ALL for a Russian reader's ВСЕ); the ruleset's own checks then see
the legal value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from adjudicator.engine.close_matches import close_matches
from adjudicator.engine.presentation import offered_in
from adjudicator.engine.problems import Problem, ProblemList, Severity
from adjudicator.engine.row_table import RowTable
from adjudicator.engine.sheets import Kind, records
from adjudicator.i18n import fold, msg

#: Cyrillic letters drawn like Latin ones (upper and lower case), as keyboards mix them.
LOOK_ALIKES = str.maketrans({
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S",
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "х": "x", "у": "y", "і": "i", "ј": "j", "ѕ": "s",
})
#: How a Russian writes a Latin name in Cyrillic, letter by letter (for faction names: АЛЬФА = ALPHA).
TRANSLITERATION = str.maketrans({
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z", "и": "i",
    "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t",
    "у": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "sch", "ъ": "", "ы": "y", "ь": "",
    "э": "e", "ю": "yu", "я": "ya",
})

READ_AS = "N01"
UNKNOWN = "N02"


def key(text: object) -> str:
    """The spelling-insensitive key of a name: look-alike letters as Latin, no case, no accents."""
    return fold(str(text).translate(LOOK_ALIKES))


def sound_key(text: object) -> str:
    """A looser key for names written in another alphabet: АЛЬФА and ALPHA both give "alfa"."""
    latin = fold(str(text)).translate(TRANSLITERATION)
    latin = latin.replace("ph", "f").replace("th", "t").replace("w", "v").replace("c", "k").replace("q", "k")
    return re.sub(r"[^a-z0-9]", "", latin)


def numeric_key(text: object) -> str | None:
    """A hex or number typed as a number (201 for 0201, 201.0 from a spreadsheet): its digits."""
    shown = str(text).strip()
    if isinstance(text, float) and text.is_integer():
        shown = str(int(text))
    if not shown.isdigit():
        return None
    return shown.lstrip("0") or "0"


class NameReader:
    """The legal values of one column, and how each may be typed."""

    def __init__(self, legal: Sequence[str], aliases: Mapping[str, Iterable[str]] | None = None) -> None:
        self.legal = [str(v) for v in legal]
        self._legal = set(self.legal)
        self._aliases = aliases or {}
        self._keys: dict[str, str] | None = None
        self._near: dict[tuple[str, int], list[str]] = {}  # closest of each key asked: a name mistyped on many rows
        self._exact: dict[str, set[str]] = {}
        self._loose: dict[str, set[str]] = {}
        self._digits: dict[str, set[str]] = {}
        self._indexed = False  # the spellings are indexed at the first name that is not a legal value

    def _index(self) -> None:
        for value in self.legal:
            spellings = [value, *self._aliases.get(value, ())]
            for spelling in spellings:
                self._exact.setdefault(key(spelling), set()).add(value)
                self._loose.setdefault(sound_key(spelling), set()).add(value)
            digits = numeric_key(value)
            if digits is not None:
                self._digits.setdefault(digits, set()).add(value)
        self._indexed = True

    def read(self, typed: Any) -> str | None:
        """The one legal value ``typed`` means, or None."""
        if typed is None:
            return None
        text = str(typed)
        if text in self._legal:
            return text
        if not self._indexed:
            self._index()
        for table, found in ((self._exact, key(text)), (self._loose, sound_key(text)),
                             (self._digits, numeric_key(typed))):
            if found is None or not found:
                continue
            meant = table.get(found, set())
            if len(meant) == 1:
                return next(iter(meant))
        return None

    def closest(self, typed: Any, n: int = 3) -> list[str]:
        if self._keys is None:  # made once a reader, at its first unknown name
            self._keys = {key(v): v for v in self.legal}
        keys, typed_key = self._keys, key(typed)
        near = self._near.get((typed_key, n))
        if near is None:
            near = self._near[typed_key, n] = [keys[k] for k in close_matches(typed_key, keys, n=n, cutoff=0.5)]
        return list(near)


def read_names(sheets: Mapping[str, Any], offered: Mapping[str, Sequence[str]],
               factions: Mapping[str, Iterable[str]], problems: ProblemList,
               aliases: Mapping[str, Mapping[str, Iterable[str]]] | None = None) -> list[Problem]:
    """Rewrite, in every order sheet, the text cells that have legal values (``offered``, by column key, in the
    reader's words) to the legal value meant, with a warning at the cell. For a name that fits none, returns a
    warning with the closest values, for :func:`suggest` to add where the ruleset found no error at that cell
    (its error says it better). ``factions`` gives the other spellings of each faction ID, ``aliases`` those
    of an offered word (by column key, then value: TODOS and ALL for a Russian reader's ВСЕ)."""
    suggestions: list[Problem] = []
    for sheet in sheets.values():
        table = sheet.rows
        rows = None  # read once a sheet: each column below changes only its own cells
        for column in sheet.schema.columns:
            legal = offered_in(offered, sheet.schema.key, column.key)
            if not legal or column.kind is not Kind.TEXT or column.key not in _keys(table):
                continue
            words = (aliases or {}).get(column.key, {})
            reader = NameReader(legal, {v: (*factions.get(v, ()), *words.get(v, ())) for v in legal})
            rows = records(table) if rows is None else rows
            for row, values in rows:
                typed = values.get(column.key)
                if typed is None or (isinstance(typed, str) and not typed.strip()) or str(typed) in reader._legal:
                    continue
                if isinstance(typed, float) and typed != typed:  # NaN: an empty cell
                    continue
                meant = reader.read(typed)
                if meant is not None:
                    _set(table, row, column.key, meant)
                    problems.add(sheet.problem(READ_AS, row, column.key,
                                               msg("{typed} was read as {value}.", typed=str(typed), value=meant),
                                               msg("Write {value} to be sure.", value=meant), Severity.WARNING))
                    continue
                near = reader.closest(typed)
                if near:
                    suggestions.append(sheet.problem(UNKNOWN, row, column.key,
                                                     msg("{typed} is not a known value here.", typed=str(typed)),
                                                     msg("Did you mean {values}?", values=", ".join(near)),
                                                     Severity.WARNING))
    return suggestions


def _keys(table: Any) -> list[str]:
    return table.keys() if isinstance(table, RowTable) else list(table.columns)


def _set(table: Any, row: int, key: str, value: Any) -> None:
    """Set a cell of a sheet's rows (intake's RowTable; a test's frame, its column made ``object`` first)."""
    if isinstance(table, RowTable):
        table.set(row, key, value)
        return
    if table[key].dtype != object:
        table[key] = table[key].astype(object)
    table.at[row, key] = value


def suggest(problems: ProblemList, suggestions: Iterable[Problem]) -> None:
    """Add the "did you mean" of each name that fits none to the hint of the ruleset's error at that cell
    (one message per cell). Where the ruleset found no error the name is legal after all (a dropdown
    may offer only part of what a column takes), and nothing is added."""
    items = problems._items  # noqa: SLF001 - the list's own order is kept; only a hint grows
    first_error: dict[tuple[object, object], int] = {}  # the first error at each cell, found in one pass
    for i, p in enumerate(items):
        if p.is_error:
            first_error.setdefault((p.sheet, p.cell), i)
    for suggestion in suggestions:
        at = first_error.get((suggestion.sheet, suggestion.cell))
        if at is None:
            continue
        error = items[at]
        hint = msg("{hint} {more}", hint=error.hint, more=suggestion.hint) if error.hint else suggestion.hint
        items[at] = replace(error, hint=hint)
