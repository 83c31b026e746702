"""Cell-level validation of a table read from a workbook, collecting every failure.

Each column's kind becomes element-wise checks named by our stable problem codes (a required cell
left blank, C01/C02 a value of the wrong type, C04 out of range), applied to every cell as pandera's
lazy validation did (column by column, the blank check first, a check only on filled cells); each
failure becomes a :class:`Problem` at its cell. The valid values are then converted (whole numbers
to ``int``, choices to their canonical code) and the rows with a failed cell are marked ``_invalid``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

from adjudicator.engine.problems import Problem, ProblemList, Severity
from adjudicator.engine.row_table import RowTable
from adjudicator.engine.sheets import Column, Kind
from adjudicator.i18n import Msg, Words, fold, msg
from adjudicator.intake.reading import Table

ALL_WORDS = {fold(w) for w in ("ALL", "ВСЕ", "ВСЁ", "TODO", "TODOS", "TODA")}


def as_number(value: Any) -> float | None:
    """A finite number from a cell: ``12``, ``12.5``, ``"12,5"``, ``"1 000"``; None otherwise."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        number = float(value)
    else:
        try:
            number = float(str(value).replace(",", ".").replace("\u00a0", "").replace(" ", ""))
        except ValueError:
            return None
    return number if math.isfinite(number) else None


def as_whole(value: Any) -> int | None:
    number = as_number(value)
    if number is None or not number.is_integer():
        return None
    return int(number)


def is_all(value: Any) -> bool:
    return isinstance(value, str) and fold(value) in ALL_WORDS


def _converter(column: Column) -> Callable[[Any], Any]:
    if column.kind is Kind.INT:
        return as_whole
    if column.kind is Kind.NUMBER:
        return as_number
    if column.kind is Kind.INT_OR_ALL:
        return lambda v: "ALL" if is_all(v) else as_whole(v)
    if column.kind is Kind.CHOICE:
        lookup = column.choice_lookup()
        return _remembered(lambda v: lookup.get(fold(v)))
    text = lambda v: str(v) if not isinstance(v, float) or not v.is_integer() else str(int(v))  # noqa: E731
    if column.choices:  # words or free text (a unit type or a regiment's ID): a word read back as its code
        lookup = column.choice_lookup()
        return _remembered(lambda v: lookup.get(fold(v), text(v)))
    return text


def _remembered(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``convert``, each distinct value (of its type: 1, 1.0 and True apart) folded once: a column repeats
    a few words down all its rows."""
    seen: dict[tuple[type, Any], Any] = {}

    def remembered(value: Any) -> Any:
        try:
            return seen[(type(value), value)]
        except KeyError:
            seen[(type(value), value)] = found = convert(value)
            return found
        except TypeError:  # unhashable
            return convert(value)

    return remembered


def _in_range(column: Column, number: Any) -> bool:
    """Whether a converted value is within the column's range (a value that is not a number: reported by the
    type check, never here)."""
    if not isinstance(number, (int, float)):
        return True
    if column.minimum is not None and number < column.minimum:
        return False
    return column.maximum is None or number <= column.maximum


def _blank(value: Any) -> bool:
    """An empty cell (a table's cells come from :func:`adjudicator.intake.reading.read_table`: None, never NaN or
    pandas' NaT, but a NaN is taken for one all the same)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def _converters(table: Table) -> dict[str, Callable[[Any], Any]]:
    """The converter of each column of ``table`` that is read back (not a computed one)."""
    out = {}
    for key in table.rows.keys():
        column = table.schema.column(key)
        if not column.computed:
            out[key] = _converter(column)
    return out


def _converted(table: Table, converters: dict[str, Callable[[Any], Any]]) -> dict[str, list[Any]]:
    """Each read-back column's values converted (None for an empty cell): each cell converted once, for its
    checks and for the typed table."""
    return {key: [None if value is None else convert(value) for value in table.rows.column(key)]
            for key, convert in converters.items()}


def _failures(table: Table, converted: dict[str, list[Any]] | None = None) -> Iterator[tuple[int, str, str]]:
    """``(row, column key, check)`` of every failing cell: by column; in a column the blank cells of a
    required column (``not_nullable``), then each check of the column (``C01``, ``C04``) on the filled cells,
    in row order (``converted``: :func:`_converted` of the table, when it is already made)."""
    cells = table.rows
    converted = _converted(table, _converters(table)) if converted is None else converted
    rows = cells.index
    for key in cells.keys():
        column = table.schema.column(key)
        if column.computed:
            continue
        values, typed = cells.column(key), converted[key]
        # a text or None answered without a call (most cells); anything else by _blank
        filled = [value is not None and (value.__class__ is str or not _blank(value)) for value in values]
        if column.required:
            yield from ((row, key, "not_nullable") for row, full in zip(rows, filled, strict=True) if not full)
        if column.kind is not Kind.TEXT:
            yield from ((row, key, "C01") for row, full, number in zip(rows, filled, typed, strict=True)
                        if full and number is None)
        if column.minimum is not None or column.maximum is not None:
            yield from ((row, key, "C04") for row, full, number in zip(rows, filled, typed, strict=True)
                        if full and not _in_range(column, number))


def _type_message(column: Column, value: Any) -> tuple[Msg, Msg]:
    shown = str(value)
    if column.kind is Kind.INT:
        return (
            msg("{value} is not a whole number.", value=shown),
            msg("Write a whole number such as 40, without units or decimals."),
        )
    if column.kind is Kind.INT_OR_ALL:
        return (
            msg("{value} is not a whole number or ALL.", value=shown),
            msg("Write a whole number such as 40, or the word ALL."),
        )
    if column.kind is Kind.NUMBER:
        return msg("{value} is not a number.", value=shown), msg("Write a number such as 75 or 12.5.")
    allowed = Words(tuple(c.label for c in column.choices))  # the reader's dropdown words
    return (
        msg("{value} is not one of the allowed values.", value=shown),
        msg("Choose one of: {allowed}.", allowed=allowed),
    )


def validate_table(table: Table, problems: ProblemList, file: str) -> RowTable:
    """Typed values of ``table``: invalid cells become None, their rows get ``_invalid`` True."""
    cells = table.rows
    converted = _converted(table, _converters(table))
    invalid_rows: set[int] = set()
    bad_cells: set[tuple[int, str]] = set()
    for row, key, check in _failures(table, converted):
        column = table.schema.column(key)
        where = {"file": file, "sheet": table.sheet, "cell": table.cell(row, column.key), "row": row}
        label = msg(column.header)
        if check == "not_nullable":
            message = msg("{column} is required here.", column=label)
            hint = msg("Fill in {column} or delete the row.", column=label)
            code = "C03"
        elif check == "C04":
            code, message = "C04", msg("{value} is out of range.", value=str(cells.value(row, column.key)))
            hint = _range_hint(column)
        else:
            code = "C02" if column.kind is Kind.CHOICE else "C01"
            message, hint = _type_message(column, cells.value(row, column.key))
        problems.add(Problem(code, Severity.ERROR, message, hint, **where))  # type: ignore[arg-type]
        invalid_rows.add(row)
        bad_cells.add((row, column.key))
    columns: dict[str, list[Any]] = {}
    rows = cells.index
    for key in cells.keys():
        if key not in converted:
            continue  # a workbook's own computations are never trusted
        typed = converted[key]
        if bad_cells:
            typed = [None if (row, key) in bad_cells else number for row, number in zip(rows, typed, strict=True)]
        columns[key] = typed
    columns["_invalid"] = [row in invalid_rows for row in rows]
    return RowTable(list(rows), columns, booleans=["_invalid"])


def _range_hint(column: Column) -> Msg:
    if column.minimum is not None and column.maximum is not None:
        return msg("Write a value from {low} to {high}.", low=_fmt(column.minimum), high=_fmt(column.maximum))
    if column.minimum is not None:
        return msg("Write a value of at least {low}.", low=_fmt(column.minimum))
    return msg("Write a value of at most {high}.", high=_fmt(column.maximum))


def _fmt(number: float | None) -> str:
    if number is None:
        return ""
    return str(int(number)) if float(number).is_integer() else str(number)
