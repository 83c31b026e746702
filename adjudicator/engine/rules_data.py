"""The rules' tables as data: named TOML tables in a ruleset's data package, every value overridable per
campaign in one standard sheet, *Rule tables*.

A ruleset keeps its tables in ``tables.toml`` of its data package (``Ruleset.data_package``)::

    [regiments.VL]          # table "regiments", row "VL"
    purchase = 50           # column "purchase"

    [[research.AERO]]       # a row may hold a list: its items are rows "AERO.1", "AERO.2", ...
    points = 150

The campaign's *Rule tables* sheet (:data:`RULE_TABLES`, a state table the engine gives every ruleset whose data
package ships ``tables.toml``; the ruleset need not list it) holds the GM's
changes, one value a row: ``table | row | column | value`` (``regiments | VL | purchase | 60``), written in the
campaign's words and read back from the GM's in any language (:mod:`adjudicator.engine.rule_table_words`). A value takes
the type of the default it replaces (:func:`adjudicator.engine.values.read_value`, as the Parameters sheet reads
its values); a row that names what the tables do not have, or a value of the wrong type, is a
:class:`RuleTableError` naming the sheet row, with the closest names.
"""

from __future__ import annotations

import copy
import math
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from adjudicator.engine.problems import ProblemList
from adjudicator.engine.rule_table_words import NO_WORDS, TableWords, package_words, ruleset_words
from adjudicator.engine.sheets import Column, TableSchema, records
from adjudicator.engine.values import ValueTypeError, read_value
from adjudicator.i18n import N_, Joined, Msg, msg

#: The file of a ruleset's data package that holds its tables.
TABLES_FILE = "tables.toml"

#: The campaign's one sheet of changes to the rule tables (in campaign.xlsx, beside Parameters).
RULE_TABLES = TableSchema(
    key="rule_tables",
    title=N_("Rule tables"),
    optional=True,
    help=N_("Changes to the tables of the rules, one value a row: table, row, column and the new value "
            "(the ruleset's documentation lists its tables). A blank value keeps the default."),
    columns=(
        Column("table", N_("Table"), required=True, width=18),
        Column("row", N_("Row"), required=True, width=30),  # the reader's words: "Saltar (Habilidad Corta Básica)"
        Column("column", N_("Column"), required=True, width=22),
        Column("value", N_("Value"), width=12),
    ),
)


class RuleTableError(ValueError):
    """Raised when a ruleset's tables cannot be read, or a change of the Rule tables sheet names what they do
    not have or gives a value of the wrong type (``column``: the sheet's column at fault)."""

    def __init__(self, reason: Msg | str, column: str = "table", hint: Msg | None = None) -> None:
        super().__init__(str(reason))
        self.reason = reason
        self.column = column
        self.hint = hint


@cache
def _defaults(package: str, name: str) -> dict[str, Any]:
    source = resources.files(package) / name
    try:
        return tomllib.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RuleTableError(f"the ruleset has no rule tables ({name} of {package})") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise RuleTableError(f"{name} of {package} does not read: {error}") from error


def ships_tables(package: str, name: str = TABLES_FILE) -> bool:
    """Whether a ruleset's data package holds rule tables (and so its campaigns the Rule tables sheet)."""
    if not package:
        return False
    try:
        return (resources.files(package) / name).is_file()
    except (ModuleNotFoundError, TypeError):
        return False


def default_tables(package: str, name: str = TABLES_FILE) -> dict[str, Any]:
    """A ruleset's tables as its data file gives them (a copy the caller may change)."""
    return copy.deepcopy(_defaults(package, name))


def rule_tables(package: str, changes: Any = None, name: str = TABLES_FILE) -> dict[str, Any]:
    """A ruleset's tables with the campaign's changes (rows of the Rule tables sheet) applied."""
    tables = default_tables(package, name)
    words = package_words(package) if changes is not None and len(changes) else NO_WORDS
    for number, change in _changes(changes):
        apply_change(tables, change, number, words)
    return tables


def table(package: str, key: str, changes: Any = None, name: str = TABLES_FILE) -> Any:
    """One named table of a ruleset (see :func:`rule_tables`)."""
    tables = rule_tables(package, changes, name)
    if key not in tables:
        raise RuleTableError(f"{package}: {name} has no table {key!r}")
    return tables[key]


def _changes(frame: Any) -> Iterator[tuple[Any, dict[str, Any]]]:
    if frame is None:
        return
    for number, record in records(frame):
        if "_invalid" in record and bool(record["_invalid"]):
            continue
        values = {k: (None if _blank(record.get(k)) else record.get(k)) for k in ("table", "row", "column", "value")}
        if values["table"] is None and values["row"] is None and values["column"] is None:
            continue
        yield number, values


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or str(value).strip() == ""


def _word(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value or "").strip()


def apply_change(tables: dict[str, Any], change: Mapping[str, Any], number: Any = None,
                 words: TableWords | None = None) -> None:
    """One change laid over ``tables`` (in place): the value replaces the default at table/row/column, each read
    as the GM may type it (``words``: the ruleset's, see :mod:`adjudicator.engine.rule_table_words`)."""
    try:
        place = find_place(tables, change, words or NO_WORDS)
    except RuleTableError as error:
        raise _numbered(error, number) from None
    node, column = place.node, place.column
    value = change.get("value")
    if _blank(value):
        return
    table_name = (words or NO_WORDS).listed([place.table])
    words = (words or NO_WORDS).within(place.table)
    shown = Joined((table_name, Joined(tuple(words.listed([p]) for p in place.row), "."),
                    words.listed([column])), " | ")
    if words.value_codes(column):  # a column of few words: one of its codes, typed in any of its spellings
        code = words.read_choice(column, value)
        if code is None:
            near = words.closest_choices(column, value)
            reason = msg("expected one of {choices}, got {value}", value=_word(value),
                         choices=words.listed_choices(column, words.value_codes(column)))
            hint = msg("Did you mean {values}?", values=words.listed_choices(column, near)) if near else None
            raise _numbered(RuleTableError(msg("{place}: {reason}", place=shown, reason=reason), "value", hint),
                            number) from None
        node[column] = code
        return
    try:
        node[column] = read_value(node[column], value)
    except ValueTypeError as error:
        raise _numbered(RuleTableError(msg("{place}: {reason}", place=shown, reason=error.reason), "value"),
                        number) from None


def _numbered(error: RuleTableError, number: Any) -> RuleTableError:
    if number is None:
        return error
    return RuleTableError(msg("Rule tables, row {row}: {reason}.", row=_word(number), reason=error.reason),
                          error.column, error.hint)


@dataclass
class Place:
    """Where a change of the Rule tables sheet goes: the codes of its table, row (the path of keys) and
    column, and the row's values (``node``)."""

    table: str
    row: list[str]
    column: str
    node: dict[str, Any]


def _nearest(words: TableWords, typed: Any, legal: list[str]) -> Msg | None:
    near = words.closest(typed, legal)
    return msg("Did you mean {values}?", values=words.listed(near)) if near else None


def _all(words: TableWords, what: str, legal: list[str]) -> Msg | None:
    if not legal or len(legal) > 30:
        return None
    return msg(what, values=words.listed(legal))


def find_place(tables: Mapping[str, Any], change: Mapping[str, Any], words: TableWords = NO_WORDS) -> Place:
    """The table, row and column a change names, read tolerantly (:class:`RuleTableError` at the column at
    fault, with the closest names in its hint)."""
    typed_table = _word(change.get("table"))
    names = list(tables)
    name = words.read(typed_table, names)
    if name is None:
        raise RuleTableError(msg("there is no table {name}", name=typed_table or "…"), "table",
                             _nearest(words, typed_table, names) or _all(words, N_("The tables are {values}."), names))
    node: Any = tables[name]
    table_name = words.listed([name])
    words = words.within(name)  # its columns' own words ("research.research")
    typed_row = _word(change.get("row"))

    def no_row(hint: Msg | None) -> RuleTableError:
        return RuleTableError(msg("table {table} has no row {row}", table=table_name, row=typed_row or "…"),
                              "row", hint)

    parts = typed_row.split(".") if typed_row else []  # "AERO.1": an item of a row that holds a list
    path: list[str] = []
    i = 0
    while i < len(parts):
        if isinstance(node, dict):
            rows = [str(k) for k, v in node.items() if isinstance(v, (dict, list))]
            for j in range(len(parts), i, -1):  # the longest run of parts that names a row ("F. Ligera" is one)
                found = words.read(".".join(parts[i:j]).strip(), rows)
                if found is not None:
                    node, i = node[found], j
                    path.append(found)
                    break
            else:
                raise no_row(_nearest(words, parts[i].strip(), rows) or _all(words, N_("Its rows are {values}."), rows))
        elif isinstance(node, list) and parts[i].strip().isdigit() and 1 <= int(parts[i]) <= len(node):
            node = node[int(parts[i]) - 1]
            path.append(parts[i].strip())
            i += 1
        else:
            raise no_row(msg("Write the item's number after a point, from 1 to {n}.", n=len(node))
                         if isinstance(node, list) else None)
    if not isinstance(node, dict):
        raise no_row(None)
    typed_column = _word(change.get("column"))
    columns = [str(k) for k, v in node.items() if not isinstance(v, (dict, list))]
    column = words.read(typed_column, columns)
    if column is None:
        raise RuleTableError(msg("row {row} of table {table} has no column {column}", row=typed_row or "…",
                                 table=table_name, column=typed_column or "…"), "column",
                             _nearest(words, typed_column, columns) or _all(words, N_("Its columns are {values}."),
                                                                            columns))
    return Place(name, path, column, node)


def shown_change(tables: Mapping[str, Any], change: Mapping[str, Any], words: TableWords, lang: str) -> list[Any]:
    """A change's table, row and column in the reader's words (as typed where they name nothing), and its value."""
    try:
        place = find_place(tables, change, words)
    except RuleTableError:
        return [change.get(k) for k in ("table", "row", "column", "value")]
    table_name = words.shown(place.table, lang)
    words = words.within(place.table)
    return [table_name, ".".join(words.shown(p, lang) for p in place.row),
            words.shown(place.column, lang),
            words.shown_value(place.column, place.node[place.column], change.get("value"), lang)]


def shown_rows(ruleset: Any, frame: Any, lang: str) -> list[list[Any]]:
    """The rows of the Rule tables sheet of ``ruleset``'s campaign, written in ``lang``."""
    if frame is None or not len(frame) or not ships_tables(ruleset.data_package):
        return []
    words, tables = ruleset_words(ruleset), default_tables(ruleset.data_package)
    rows = []
    for _, record in records(frame):
        change = {k: (None if _blank(record.get(k)) else record.get(k)) for k in ("table", "row", "column", "value")}
        if all(v is None for v in change.values()):
            continue
        value = change["value"]
        if isinstance(value, float) and value.is_integer():
            change["value"] = int(value)
        rows.append(shown_change(tables, change, words, lang))
    return rows


def check_changes(package: str, sheet: Any, frame: Any, problems: ProblemList,
                  file: str) -> None:
    """Every row of a campaign's Rule tables sheet that does not fit the ruleset's tables, as a problem at its
    cell (``sheet``: the :class:`~adjudicator.intake.reading.Table` read from the workbook)."""
    try:
        tables = default_tables(package)
    except RuleTableError as error:  # a ruleset that lists the sheet but ships no tables.toml
        tables = {}
        if frame is None or not len(frame):
            return
        problems.error("M11", msg("Rule tables, row {row}: {reason}.", row=records(frame)[0][0], reason=str(error)),
                       None, file=file, sheet=sheet.sheet)
        return
    words = package_words(package)
    for number, change in _changes(frame):
        try:
            apply_change(tables, change, words=words)
        except RuleTableError as error:
            correct = msg("Correct the row (the ruleset's documentation lists its tables), or delete it.")
            problems.error("M11", msg("Rule tables, row {row}: {reason}.", row=int(number), reason=error.reason),
                           msg("{hint} {more}", hint=error.hint, more=correct) if error.hint else correct,
                           file=file, sheet=sheet.sheet, cell=sheet.cell(int(number), error.column), row=int(number))


def retired_parameter(key: str, place: tuple[str, str, str], value: Any,
                      words: TableWords | None = None) -> tuple[Msg, Msg]:
    """The problem and hint for a Parameters row naming a parameter the ruleset retired: its value is now the
    rule tables' cell ``place`` (table, row, column), changed in the Rule tables sheet (named in the reader's
    words, ``words``: the ruleset's)."""
    words = words or NO_WORDS
    inside = words.within(place[0])
    where = Joined((words.listed([place[0]]), *(inside.listed([part]) for part in place[1:])), " | ")
    shown = _word(value) or "…"
    return (msg("Parameter {key} no longer exists: its value is now the rule tables' {where}.", key=key, where=where),
            msg("Delete this row and write the value in the Rule tables sheet: {where} | {value}.", where=where,
                value=shown))


def rows_of(tables: Mapping[str, Any], key: str) -> dict[str, dict[str, Any]]:
    """The rows of a table keyed by row name (TOML keys are text: ``[defences.1]`` is row ``"1"``)."""
    found = tables.get(key)
    if not isinstance(found, dict):
        raise RuleTableError(f"no table {key!r}")
    return found
