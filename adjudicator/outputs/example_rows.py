"""The example rows of a faction's Instructions sheet, as rows that faction could send this turn.

A ruleset's presentation proposes one example per order type (``Presentation.example_rows``); a value the
faction has its own list of (its units, its systems: ``Presentation.choice_lists``) is taken from that list.
Then the rows are put through the ruleset's own checks, the ones a submitted workbook meets
(:func:`adjudicator.engine.validity.check_orders`), every sheet's examples together, as a player copying them
all would send them. Where a row is refused, other values are tried in its cells, one cell at a time (the
faction's own list, a choice's other words, a smaller number), and kept where they leave fewer errors; the
first column, which says what order the example shows, is kept. A row still refused then is left out where
that leaves fewer errors, but never a sheet's last example (the sheet's form is still shown: an order type the
faction cannot give this turn). A warning counts too, far less than an error: of two rows without errors, the
one without a warning is kept. No rule is written here: what is valid is what the checks accept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.engine.presentation import offered_in
from adjudicator.engine.problems import ProblemList
from adjudicator.engine.ruleset import Campaign, FactionOrders, Ruleset
from adjudicator.engine.sheets import Kind
from adjudicator.i18n import render

#: The other values tried in one cell of a refused example (the first of the faction's list).
VALUES_TRIED = 40
#: The checks one faction's examples may cost in all (a template is made for every faction).
CHECKS_ALLOWED = 400
#: What an error weighs against a warning when two versions of the examples are compared.
ERROR_WEIGHT = 1000


def for_this_faction(values: Mapping[str, Any], columns: Sequence[Any], offered: Mapping[str, Sequence[str]]
                     ) -> dict[str, Any]:
    """An example row with every value the faction has its own list of (its units, systems...: ``offered``, by
    the sheet's column keys) taken from that list, so the example names what the faction has."""
    row = dict(values)
    for column in columns:
        choices = list(offered.get(column.key) or [])
        value = row.get(column.key)
        if value is None or not choices or column.choices:
            continue
        if str(value).strip().casefold() not in {str(c).casefold() for c in choices}:
            row[column.key] = choices[0]
    return row


class _Checker:
    """The problems of the examples under the ruleset's checks, weighed row by row; a budget of checks."""

    def __init__(self, ruleset: Ruleset, campaign: Campaign, faction: str, lang: str) -> None:
        self.ruleset, self.campaign, self.faction, self.lang = ruleset, campaign, faction, lang
        self.left = CHECKS_ALLOWED

    def weights(self, tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, list[int]]:
        """By sheet key, the weight of each row's problems (:data:`ERROR_WEIGHT` an error, 1 a warning) when
        ``tables`` are the faction's orders, every sheet's examples together as a player would copy them."""
        from adjudicator.cases import sheets_of  # the rows of a case, typed as a workbook's are
        from adjudicator.engine.validity import check_orders

        self.left -= 1
        file = f"{self.faction}.xlsx"
        problems = ProblemList()
        written = {key: [{k: v if isinstance(v, str | int | float | bool) or v is None else render(v, self.lang)
                          for k, v in row.items()} for row in rows] for key, rows in tables.items()}
        out = {key: [0] * len(rows) for key, rows in tables.items()}
        try:
            sheets = sheets_of(self.ruleset.order_schemas, written, file, problems)
            check_orders(self.ruleset, self.campaign, FactionOrders(self.faction, file, sheets), problems)
        except Exception:  # noqa: BLE001 - examples a check cannot even read count as refused, every row
            return {key: [ERROR_WEIGHT] * len(rows) for key, rows in tables.items()}
        key_of = {sheet.sheet: key for key, sheet in sheets.items()}
        for problem in problems:
            counts = out.get(key_of.get(problem.sheet or "", ""), [])
            index = (problem.row or 0) - 2  # the rows sit from row 2 on, as on the order sheet
            if 0 <= index < len(counts):
                counts[index] += ERROR_WEIGHT if problem.is_error else 1
        return out


def sendable(ruleset: Ruleset, campaign: Campaign, faction: str, lang: str,
             examples: Mapping[str, Sequence[Mapping[str, Any]]], offered: Mapping[str, Sequence[str]]
             ) -> dict[str, list[dict[str, Any]]]:
    """``examples`` (by sheet key) made rows the faction could send: see the module's docstring."""
    checker = _Checker(ruleset, campaign, faction, lang)
    tables: dict[str, list[dict[str, Any]]] = {}
    columns = {s.key: [c for c in s.columns if not c.computed] for s in ruleset.order_schemas}
    lists = {key: {c.key: offered_in(offered, key, c.key) for c in shown} for key, shown in columns.items()}
    for key, shown in columns.items():
        tables[key] = [for_this_faction(values, shown, lists[key]) for values in examples.get(key) or []]
    weights = checker.weights(tables)
    for key, shown in columns.items():
        if any(weights[key]):
            tables, weights = _mended(checker, key, shown, tables, weights, lists[key])
    return tables


def _candidates(column: Any, value: Any, offered: Sequence[str]) -> list[Any]:
    """The other values tried in a refused example's cell: the faction's own list, a choice's other codes, a
    smaller number."""
    if column.kind is Kind.CHOICE:
        return [c.code for c in column.choices]
    if column.kind in (Kind.INT, Kind.NUMBER) and isinstance(value, int | float) and not isinstance(value, bool):
        least = int(column.minimum) if column.minimum is not None else 1
        return sorted({n for n in (least, 1, int(value) // 2) if least <= n < value})
    return list(offered)[:VALUES_TRIED]


def _total(weights: Mapping[str, Sequence[int]]) -> int:
    return sum(sum(counts) for counts in weights.values())


def _mended(checker: _Checker, key: str, columns: Sequence[Any], tables: dict[str, list[dict[str, Any]]],
            weights: dict[str, list[int]], offered: Mapping[str, Sequence[str]]
            ) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[int]]]:
    """The examples of the sheet ``key`` (its ``columns`` a player fills) mended cell by cell, then the rows still
    refused left out (the other sheets' examples beside them, as they are)."""
    for index in range(len(tables[key])):
        for column in columns[1:]:  # the first column says which order the example shows: kept
            if not weights[key][index] or checker.left <= 0:
                break
            value = tables[key][index].get(column.key)
            if value is None:
                continue
            for other in _candidates(column, value, offered.get(column.key) or []):
                if checker.left <= 0 or other == value:
                    continue
                trial = {**tables, key: [dict(row) for row in tables[key]]}
                trial[key][index][column.key] = other
                tried = checker.weights(trial)
                if _total(tried) < _total(weights):
                    tables, weights = trial, tried
                    break
    while len(tables[key]) > 1 and checker.left > 0:  # a row still refused is left out, where that leaves fewer
        refused = [i for i, n in enumerate(weights[key]) if n >= ERROR_WEIGHT]
        if not refused:
            break
        fewer = {**tables, key: tables[key][:refused[-1]] + tables[key][refused[-1] + 1:]}
        tried = checker.weights(fewer)
        if _total(tried) >= _total(weights):
            break
        tables, weights = fewer, tried
    return tables, weights
