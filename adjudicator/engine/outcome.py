"""What carrying out one order row gives: a :class:`Done` or a :class:`Rejection`, the same types for every
ruleset, and the engine's :class:`~adjudicator.engine.ruleset.OrderOutcome` made from them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from adjudicator.engine.ledger import Amount
from adjudicator.engine.problems import Problem
from adjudicator.engine.ruleset import OrderOutcome, SheetRows, Status
from adjudicator.i18n import Msg


@dataclass(frozen=True)
class Rejection:
    """An order row refused, with a stable ``code`` and the column key of the offending cell (empty: the
    sheet's first column)."""

    code: str
    message: Msg
    column: str = ""
    hint: Msg | None = None
    quiet: bool = False  # a consequence of another row's problem (the rest of a rejected group): not re-reported
    row: int = 0  # the sheet row, when the rejection travels without its row


@dataclass(frozen=True)
class Note:
    """A warning ``check`` shows at a cell of an order carried out all the same (how a text was read, a default
    used): a :class:`Done` may carry several, besides its one ``warning``."""

    code: str
    message: Msg
    column: str = ""


@dataclass(frozen=True)
class Done:
    """An order row carried out (``partial``: only part of it), with what it cost and a warning if any."""

    message: Msg
    partial: bool = False
    cost: Amount = 0
    warning: Msg | None = None  # shown by ``check`` as a warning with ``code`` at ``column``
    code: str = ""
    column: str = ""
    #: A group's own result for some of its rows ((row, Done) pairs: each step of a jumpship's chain); the other
    #: rows of the group get this Done itself.
    each: tuple[tuple[int, Done], ...] = ()
    notes: tuple[Note, ...] = ()  # further warnings of ``check``, each at its own cell; never in the outcome


Result = Done | Rejection


def status_of(result: Result) -> Status:
    if isinstance(result, Rejection):
        return Status.REJECTED
    return Status.PARTIAL if result.partial else Status.DONE


def outcome(faction: str, sheet: str, row: int, result: Result) -> OrderOutcome:
    return OrderOutcome(faction, sheet, row, status_of(result), result.message, result.code)


def outcomes(results: Mapping[tuple[str, str, int], Result]) -> list[OrderOutcome]:
    """{(faction, sheet key, row): result} as the engine's outcomes, in faction, sheet and row order."""
    return [outcome(f, s, r, result) for (f, s, r), result in sorted(results.items())]


def rejection_problem(sheet: SheetRows, row: int, rejection: Rejection) -> Problem:
    """A rejection as a problem at its cell of ``sheet``."""
    column = rejection.column or sheet.schema.columns[0].key
    return sheet.problem(rejection.code, row or rejection.row, column, rejection.message, rejection.hint)
