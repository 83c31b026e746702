"""The rules' tables as data: named TOML tables in a ruleset's data package, every value overridable per
campaign in one standard sheet, *Rule tables*.

A ruleset keeps its tables in ``tables.toml`` of its data package (``Ruleset.data_package``)::

    [regiments.VL]          # table "regiments", row "VL"
    purchase = 50           # column "purchase"

    [[research.AERO]]       # a row may hold a list: its items are rows "AERO.1", "AERO.2", ...
    points = 150

The campaign's *Rule tables* sheet (:data:`RULE_TABLES`, a state table the engine gives every ruleset whose data
package ships ``tables.toml``; the ruleset need not list it) holds the GM's
changes, one value a row: ``table | row | column | value`` (``regiments | VL | purchase | 60``). A value takes
the type of the default it replaces (a whole number, a number, TRUE/FALSE or a word); a row that names what
the tables do not have, or a value of the wrong type, is a :class:`RuleTableError` naming the sheet row.
"""

from __future__ import annotations

import copy
import math
import tomllib
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources
from typing import Any

import pandas as pd

from adjudicator.engine.values import ValueTypeError, read_value
from adjudicator.i18n import N_, Msg, fold, msg
from adjudicator.problems import ProblemList
from adjudicator.sheets import Column, TableSchema

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
        Column("table", N_("Table"), required=True, width=16),
        Column("row", N_("Row"), required=True, width=12),
        Column("column", N_("Column"), required=True, width=14),
        Column("value", N_("Value"), width=12),
    ),
)


class RuleTableError(ValueError):
    """Raised when a ruleset's tables cannot be read, or a change of the Rule tables sheet names what they do
    not have or gives a value of the wrong type (``column``: the sheet's column at fault)."""

    def __init__(self, reason: Msg | str, column: str = "table") -> None:
        super().__init__(str(reason))
        self.reason = reason
        self.column = column


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


def rule_tables(package: str, changes: pd.DataFrame | None = None, name: str = TABLES_FILE) -> dict[str, Any]:
    """A ruleset's tables with the campaign's changes (rows of the Rule tables sheet) applied."""
    tables = default_tables(package, name)
    for number, change in _changes(changes):
        apply_change(tables, change, number)
    return tables


def table(package: str, key: str, changes: pd.DataFrame | None = None, name: str = TABLES_FILE) -> Any:
    """One named table of a ruleset (see :func:`rule_tables`)."""
    tables = rule_tables(package, changes, name)
    if key not in tables:
        raise RuleTableError(f"{package}: {name} has no table {key!r}")
    return tables[key]


def _changes(frame: pd.DataFrame | None) -> Iterator[tuple[Any, dict[str, Any]]]:
    if frame is None or frame.empty:
        return
    for number, record in frame.iterrows():
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


def apply_change(tables: dict[str, Any], change: Mapping[str, Any], number: Any = None) -> None:
    """One change laid over ``tables`` (in place): the value replaces the default at table/row/column."""
    where = f"Rule tables row {number}: " if number is not None else ""
    name = _word(change.get("table"))
    if name not in tables:
        raise RuleTableError(f"{where}no table {name!r} (the tables are {', '.join(sorted(tables))})", "table")
    node: Any = tables[name]
    path = _word(change.get("row"))
    for part in path.split(".") if path else []:
        node = _step(node, part, f"{where}table {name} has no row {path!r}")
    if not isinstance(node, dict):
        raise RuleTableError(f"{where}table {name} has no row {path!r}", "row")
    column = _word(change.get("column"))
    if not isinstance(node, dict) or column not in node or isinstance(node[column], (dict, list)):
        known = ", ".join(k for k, v in node.items() if not isinstance(v, (dict, list)))
        raise RuleTableError(f"{where}row {path!r} of table {name} has no column {column!r}"
                             + (f" (its columns are {known})" if known else ""), "column")
    value = change.get("value")
    if _blank(value):
        return
    try:
        node[column] = read_value(node[column], value)
    except ValueTypeError as error:
        raise RuleTableError(msg("{table} | {row} | {column}: {reason}", table=name, row=path, column=column,
                                 reason=error.reason), "value") from None


def _step(node: Any, part: str, failure: str) -> Any:
    if isinstance(node, dict):
        found = next((k for k in node if fold(str(k)) == fold(part)), None)
        if found is not None:
            return node[found]
    if isinstance(node, list) and part.isdigit() and 1 <= int(part) <= len(node):
        return node[int(part) - 1]
    raise RuleTableError(failure, "row")


def check_changes(package: str, sheet: Any, frame: pd.DataFrame | None, problems: ProblemList,
                  file: str) -> None:
    """Every row of a campaign's Rule tables sheet that does not fit the ruleset's tables, as a problem at its
    cell (``sheet``: the :class:`~adjudicator.xlsx.reading.Table` read from the workbook)."""
    try:
        tables = default_tables(package)
    except RuleTableError as error:  # a ruleset that lists the sheet but ships no tables.toml
        tables = {}
        if frame is None or frame.empty:
            return
        problems.error("M11", msg("Rule tables, row {row}: {reason}.", row=int(frame.index[0]), reason=str(error)),
                       None, file=file, sheet=sheet.sheet)
        return
    for number, change in _changes(frame):
        try:
            apply_change(tables, change)
        except RuleTableError as error:
            problems.error("M11", msg("Rule tables, row {row}: {reason}.", row=int(number), reason=error.reason),
                           msg("Correct the row (the ruleset's documentation lists its tables), or delete it."),
                           file=file, sheet=sheet.sheet, cell=sheet.cell(int(number), error.column), row=int(number))


def retired_parameter(key: str, place: tuple[str, str, str], value: Any) -> tuple[Msg, Msg]:
    """The problem and hint for a Parameters row naming a parameter the ruleset retired: its value is now the
    rule tables' cell ``place`` (table, row, column), changed in the Rule tables sheet."""
    table_name, row, column = place
    where = f"{table_name} | {row} | {column}"
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
