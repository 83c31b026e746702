"""Declarative descriptions of the tables in workbooks: sheets, columns, kinds of values.

A :class:`TableSchema` names a sheet and its columns by English msgids; a workbook may use the
English, Spanish or Russian form of any of them, in any column order. These descriptions know
nothing of a workbook library or of any game rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from adjudicator.engine.row_table import RowTable, table_rows
from adjudicator.i18n import all_spellings, fold, gettext_in


class Kind(StrEnum):
    TEXT = "text"
    INT = "int"  # a whole number
    NUMBER = "number"  # a decimal number
    CHOICE = "choice"  # one of a fixed list of words, in any language
    INT_OR_ALL = "int_or_all"  # a whole number, or the word ALL


@dataclass(frozen=True)
class Choice:
    """One allowed value: its canonical code, its English label (a msgid) and extra synonyms."""

    code: str
    label: str
    synonyms: tuple[str, ...] = ()


@dataclass(frozen=True)
class Column:
    key: str
    header: str  # English msgid
    kind: Kind = Kind.TEXT
    required: bool = False
    choices: tuple[Choice, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    help: str = ""  # English msgid shown as the input message
    width: int = 14
    synonyms: tuple[str, ...] = ()
    #: A spreadsheet formula for a computed column (a preview for the player, never read back): see
    #: :func:`adjudicator.outputs.templates.expand_formula` for its placeholders.
    formula: str = ""
    #: A computed column whose formulas the ruleset writes itself (``Ruleset.decorate_template``).
    preview: bool = False

    @property
    def computed(self) -> bool:
        """Filled by the workbook's own formulas: locked, and never read back by the engine."""
        return bool(self.formula) or self.preview

    def header_in(self, lang: str) -> str:
        return gettext_in(lang, self.header)

    def spellings(self) -> set[str]:
        return all_spellings(self.header, self.synonyms) | {fold(self.key)}

    def choice_lookup(self) -> dict[str, str]:
        """Folded word (code, label in any language, synonym) → canonical code."""
        table: dict[str, str] = {}
        for choice in self.choices:
            for word in all_spellings(choice.label, (choice.code, *choice.synonyms)):
                table[word] = choice.code
        return table

    def choice_label(self, code: str, lang: str) -> str:
        label = self.choice_msgid(code)
        return code if label is None else gettext_in(lang, label)

    def choice_msgid(self, code: str) -> str | None:
        """The label (an English msgid) of the choice ``code``; None for a code that is not a choice."""
        return next((choice.label for choice in self.choices if choice.code == code), None)


@dataclass(frozen=True)
class TableSchema:
    key: str
    title: str  # English msgid of the sheet name
    columns: tuple[Column, ...]
    synonyms: tuple[str, ...] = ()
    help: str = ""
    optional: bool = False  # a missing sheet is not an error
    extra: dict[str, object] = field(default_factory=dict)
    #: Key of a computed cost column: the template adds a budget block (treasury, spent, left) beside it.
    budget: str = ""

    def title_in(self, lang: str) -> str:
        return gettext_in(lang, self.title)

    def spellings(self) -> set[str]:
        return all_spellings(self.title, self.synonyms) | {fold(self.key)}

    def column(self, key: str) -> Column:
        for column in self.columns:
            if column.key == key:
                return column
        raise KeyError(key)

    def keys(self) -> list[str]:
        return [c.key for c in self.columns]


def choices(*items: tuple[str, str] | tuple[str, str, Sequence[str]]) -> tuple[Choice, ...]:
    """``choices(("MOVE", N_("Move"), ["переместить"]), …)``."""
    out = []
    for item in items:
        code, label, *rest = item
        out.append(Choice(code, label, tuple(rest[0]) if rest else ()))
    return tuple(out)


#: Values ``DataFrame.to_dict`` hands back as they are (exact types): no boxing needed.
_NATIVE = frozenset({str, int, float, bool, type(None)})


def records(frame: Any) -> list[tuple[int, dict[str, Any]]]:
    """(sheet row, values) of a table's rows, values exactly as stored (None stays None).

    ``DataFrame.iterrows`` infers a dtype per row and turns None into NaN; this does not. The values are
    those of ``frame.to_dict("records")`` (numpy scalars of object columns as Python's, ``pd.NA`` as None),
    gathered from one object array: a table is read many times, and pandas' own row-by-row boxing cost more than
    the rest. A :class:`~adjudicator.engine.row_table.RowTable` gives its rows as kept, no frame made."""
    if isinstance(frame, RowTable):
        return frame.records()
    columns = list(frame.columns)
    if len(set(columns)) != len(columns):  # duplicate names: pandas' own rules (and its warning)
        return [(int(index), record) for index, record in zip(frame.index, frame.to_dict("records"), strict=True)]
    index = [int(number) for number in frame.index]
    if not columns:
        return [(number, {}) for number in index]
    from pandas.core.dtypes.cast import maybe_box_native

    native = _NATIVE
    rows = [[v if type(v) in native else maybe_box_native(v) for v in row]
            for row in frame.to_numpy(dtype=object).tolist()]  # numbers, bools, Timestamps as to_dict gives them
    return [(number, dict(zip(columns, row, strict=True))) for number, row in zip(index, rows, strict=True)]


def plain_rows(frame: Any) -> list[dict[str, Any]]:
    """The rows of a state table as dicts, with pandas' missing values (NaN, NA) as None (of a
    :class:`~adjudicator.engine.row_table.RowTable`, no frame made)."""
    if isinstance(frame, RowTable):
        return [{k: (None if _missing(v) else v) for k, v in row.items()} for _, row in frame.records()]
    if frame is None or frame.empty:
        return []
    return [{k: (None if _missing(v) else v) for k, v in row.items()} for row in frame.to_dict("records")]


def state_rows(tables: Mapping[str, Any], key: str) -> list[dict[str, Any]]:
    """:func:`plain_rows` of table ``key`` of a campaign's state tables (none when there is no such table), read as
    kept: no frame made (:func:`~adjudicator.engine.row_table.table_rows`)."""
    return plain_rows(table_rows(tables, key))


def _missing(value: Any) -> bool:
    try:
        return value is None or bool(value != value)  # NaN is the one value unequal to itself
    except (TypeError, ValueError):
        return False
