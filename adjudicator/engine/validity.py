"""The engine's promise about rejected rows: a ruleset is handed only the rows that passed.

Intake (typing in :mod:`adjudicator.intake.validation`, the ruleset's own checks, then
:func:`adjudicator.intake.submissions.mark_invalid_rows`) marks every row that has an error. At the
boundary to the ruleset the marked rows leave the table: :func:`passed` gives a :class:`SheetRows`
whose ``rows`` hold only the rows that passed, and no validity column. A rejected row cannot reach
the ledger, the dice or the state through the rows a ruleset reads; what the outcome tab says about
it (status *rejected*, its codes and messages) comes from its problems, not from the ruleset.

The refused rows stay readable in ``SheetRows.rejected`` for the few rules about a group of rows
(a bad cell rejects a jumpship's whole chain; a coordinated order with a refused row is illegal).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from adjudicator.engine.problems import ProblemList
from adjudicator.engine.row_table import RowTable
from adjudicator.engine.ruleset import Campaign, FactionOrders, Ruleset, SheetRows
from adjudicator.engine.sheets import records

#: The column intake uses to mark a row with an error; it never leaves intake.
INVALID = "_invalid"


def passed(sheet: SheetRows) -> SheetRows:
    """``sheet`` with only the rows that passed in ``rows``; the others in ``rejected``."""
    table = sheet.rows
    if not isinstance(table, RowTable):  # a frame a test or a ruleset made
        return _passed_frame(sheet)
    if INVALID not in table:
        return sheet
    bad = [bool(flag) for flag in table.column(INVALID)]
    rejected = dict(sheet.rejected)
    kept = table.without(INVALID)
    for number, values in kept.select(bad).records():
        rejected[number] = values
    return dataclasses.replace(sheet, rows=kept.select([not flag for flag in bad]), rejected=rejected)


def _passed_frame(sheet: SheetRows) -> SheetRows:
    frame = sheet.rows
    if INVALID not in frame.columns:
        return sheet
    bad = frame[INVALID].fillna(False).astype(bool)
    rejected = dict(sheet.rejected)
    for number, values in records(frame.loc[bad].drop(columns=[INVALID])):
        rejected[number] = values
    return dataclasses.replace(sheet, rows=frame.loc[~bad].drop(columns=[INVALID]), rejected=rejected)


def passed_sheets(sheets: Mapping[str, SheetRows] | None) -> dict[str, SheetRows] | None:
    return None if sheets is None else {key: passed(sheet) for key, sheet in sheets.items()}


def passed_orders(orders: FactionOrders) -> FactionOrders:
    """A faction's orders as a ruleset receives them (the submitted workbook's rows are left untouched)."""
    return FactionOrders(orders.faction, orders.file, {key: passed(s) for key, s in orders.sheets.items()})


def rejected_rows(sheet: SheetRows) -> set[int]:
    """Sheet rows of ``sheet`` marked rejected so far."""
    marked = {number for number, values in records(sheet.rows) if values.get(INVALID) is True}
    return marked | set(sheet.rejected)


def with_rejected(sheet: SheetRows) -> list[tuple[int, dict[str, Any]]]:
    """Every row of ``sheet`` in sheet order, the refused ones included: only for a rule about a group of rows."""
    return sorted([*records(sheet.rows), *sheet.rejected.items()], key=lambda item: item[0])


def mark_rejected(orders: FactionOrders, problems: ProblemList) -> None:
    """Mark every row of ``orders`` that has an error among ``problems``."""
    bad: dict[str, set[int]] = {}
    for problem in problems.errors:
        if problem.sheet and problem.row:
            bad.setdefault(problem.sheet, set()).add(problem.row)
    for sheet in orders.sheets.values():
        rows = bad.get(sheet.sheet, set())
        if not rows:
            continue
        table = sheet.rows
        if isinstance(table, RowTable):
            sheet.rows = table = table.flagged(INVALID)
            for number in table.index:
                if number in rows:
                    table.set(number, INVALID, True)
        else:  # a frame a test or a ruleset made
            table.loc[table.index.isin(list(rows)), INVALID] = True


def check_orders(ruleset: Ruleset, campaign: Campaign, orders: FactionOrders, problems: ProblemList) -> None:
    """The ruleset's checks against the state, on the rows that passed typing; then every row with an error
    is marked rejected (the same steps for a submitted workbook and a scenario case)."""
    ruleset.validate_orders(campaign, orders.faction, passed_orders(orders), problems)
    mark_rejected(orders, problems)
