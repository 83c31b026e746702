"""The words of the *Rule tables* sheet: the tables, rows and columns of a ruleset's ``tables.toml`` are written
in the campaign's language, with the words the reader sees elsewhere (a row ``CRUISER`` of the units table is the
unit type's dropdown label, "Крейсер"), and read back from what the GM types as a careful GM would read it: his
words in any of the campaign's languages, in any case, with or without accents or Cyrillic look-alike letters, or
the code itself (see :mod:`adjudicator.intake.names`).

A row's words are the labels of the ruleset's choices whose code is the row's key (the dropdowns of its order,
GM input and state sheets); the tables' and columns' words are the ruleset's ``rule_table_words`` (msgids by
key). A key with no words is shown as it is.

A value is shown in the reader's words too: a switch as the catalog's YES or NO, and a column whose values are a
few words (Galactic War's unit ``class``: ship, fighter...) as the ruleset's ``rule_table_values`` name them
(``{column: {code: msgid}}``); such a column takes only those codes, typed in any of their spellings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from adjudicator.engine.close_matches import close_matches
from adjudicator.i18n import LANGUAGES, Joined, Msg, gettext_in, ruleset_catalog
from adjudicator.intake.names import NameReader, key


@dataclass(frozen=True)
class TableWords:
    """The msgid of each key of a ruleset's tables (code → English label), and the ruleset's catalog."""

    labels: Mapping[str, str] = field(default_factory=dict)
    locale: Any = None  # the ruleset's locale folder (its own catalog first), or None
    synonyms: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # other words a dropdown accepts
    values: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # a column's value codes → msgid

    def _scope(self) -> Any:
        return ruleset_catalog(self.locale) if self.locale is not None else nullcontext()

    def shown(self, code: str, lang: str) -> str:
        """``code`` in the reader's words (the code itself when it has none)."""
        label = self.labels.get(code)
        if label is None:
            return code
        with self._scope():
            return gettext_in(lang, label)

    def spellings(self, code: str) -> list[str]:
        """Every way ``code`` is written: its label in each language, and its dropdown's synonyms."""
        label = self.labels.get(code)
        more = list(self.synonyms.get(code, ()))
        if label is None:
            return more
        with self._scope():
            return [label, *(gettext_in(lang, label) for lang in LANGUAGES), *more]

    def reader(self, legal: Sequence[str]) -> NameReader:
        return _reader(self, tuple(legal))

    def read(self, typed: Any, legal: Sequence[str]) -> str | None:
        """The one key of ``legal`` that ``typed`` means, or None."""
        if typed is None:
            return None
        return self.reader(legal).read(_text(typed))

    def closest(self, typed: Any, legal: Sequence[str], n: int = 3) -> list[str]:
        """The keys of ``legal`` nearest to ``typed`` in any of their spellings (a "did you mean")."""
        spelled: dict[str, str] = {}
        for code in legal:
            for spelling in (code, *self.spellings(code)):
                spelled.setdefault(key(spelling), code)
        near = close_matches(key(_text(typed)), spelled, n=n * 3, cutoff=0.6)
        return list(dict.fromkeys(spelled[k] for k in near))[:n]

    def listed(self, codes: Iterable[str]) -> Joined:
        """Several keys as one text in the reader's words (the closest values of a "did you mean")."""
        return Joined(tuple(Msg(self.labels[c]) if c in self.labels else c for c in codes), ", ")

    def within(self, table: str) -> TableWords:
        """The words inside ``table``: a key of ``rule_table_words`` or ``rule_table_values`` written
        ``table.key`` names that table's column ``key`` (a column whose key is also a table's, or that means
        something else in another table: Inner Sphere's ``research.research``). The table's own name is the outer
        words' (``self.shown(table)``)."""
        return _within(self, table)

    # ------------------------------------------------------------------ values
    def value_codes(self, column: str) -> list[str]:
        """The codes a column of few words takes (none: any value of the default's type)."""
        return list(self.values.get(column, {}))

    def _value_words(self, column: str) -> TableWords:
        return _value_words(self, column)

    def read_choice(self, column: str, typed: Any) -> str | None:
        """The code of ``column`` that ``typed`` means, in any of its spellings, or None."""
        return self._value_words(column).read(typed, self.value_codes(column))

    def closest_choices(self, column: str, typed: Any) -> list[str]:
        return self._value_words(column).closest(typed, self.value_codes(column))

    def listed_choices(self, column: str, codes: Iterable[str]) -> Joined:
        return self._value_words(column).listed(codes)

    def shown_value(self, column: str, default: Any, value: Any, lang: str) -> Any:
        """A value of ``column`` (whose default is ``default``) in the reader's words: a switch as YES or NO, a
        number as a number, a code of a column of few words as its label; any other value, or one that does not
        read, as it is."""
        from adjudicator.engine.values import NO, YES, ValueTypeError, read_switch, read_value

        if isinstance(default, bool):
            try:
                return gettext_in(lang, YES if read_switch(value) else NO)
            except ValueTypeError:
                return value
        if isinstance(default, (int, float)):
            try:
                return read_value(default, value)
            except ValueTypeError:
                return value
        if column in self.values and value is not None:
            code = self.read_choice(column, value)
            return self._value_words(column).shown(code, lang) if code is not None else value
        return value

    def __hash__(self) -> int:
        return id(self)


@cache
def _within(words: TableWords, table: str) -> TableWords:
    prefix = table + "."
    if not any(k.startswith(prefix) for k in (*words.labels, *words.values)):
        return words
    labels = {**words.labels, **{k[len(prefix):]: v for k, v in words.labels.items() if k.startswith(prefix)}}
    values = {**words.values, **{k[len(prefix):]: v for k, v in words.values.items() if k.startswith(prefix)}}
    return TableWords(labels, words.locale, words.synonyms, values)


@cache
def _value_words(words: TableWords, column: str) -> TableWords:
    codes = words.values.get(column, {})
    return TableWords(codes, words.locale, {c: words.synonyms[c] for c in codes if c in words.synonyms})


@cache
def _reader(words: TableWords, legal: tuple[str, ...]) -> NameReader:
    return NameReader(list(legal), {code: words.spellings(code) for code in legal})


def _text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


NO_WORDS = TableWords()


def ruleset_words(ruleset: Any) -> TableWords:
    """The words of ``ruleset``'s tables: its choices' labels by code, and its ``rule_table_words``."""
    labels: dict[str, str] = {}
    synonyms: dict[str, tuple[str, ...]] = {}
    for schema in (*ruleset.order_schemas, *ruleset.gm_input_schemas, *ruleset.state_schemas):
        for column in schema.columns:
            for choice in column.choices:
                labels.setdefault(choice.code, choice.label)
                synonyms[choice.code] = (*synonyms.get(choice.code, ()), *choice.synonyms)
    labels.update(getattr(ruleset, "rule_table_words", {}) or {})
    values = {column: dict(codes) for column, codes in (getattr(ruleset, "rule_table_values", {}) or {}).items()}
    try:
        locale = ruleset.locale() if ruleset.data_package else None
    except (ModuleNotFoundError, TypeError):
        locale = None
    return TableWords(labels, locale, synonyms, values)


@cache
def package_words(package: str) -> TableWords:
    """The words of the installed ruleset whose data package is ``package`` (none for an unknown package): the
    rulesets already loaded first (the campaign's, when its master is read), every installed one only if need be."""
    from adjudicator.engine.registry import installed, loaded

    for rulesets in (loaded, lambda: installed().values()):
        for ruleset in rulesets():
            if ruleset.data_package == package:
                return ruleset_words(ruleset)
    return NO_WORDS
