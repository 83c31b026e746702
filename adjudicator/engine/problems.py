"""Problems found in a workbook or an order: a stable code, a severity, where, what, and what to do.

Validation never stops at the first problem: every check appends to a :class:`ProblemList`,
and the whole list is reported at once (on the terminal, and as an Errors tab in a copy of the
workbook). Tests compare codes and cells, never prose.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from enum import StrEnum

from adjudicator.i18n import Msg, msg


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    code: str
    severity: Severity
    message: Msg
    hint: Msg | None = None
    file: str | None = None
    sheet: str | None = None
    cell: str | None = None
    row: int | None = None

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def located(self, **where: object) -> Problem:
        return replace(self, **where)  # type: ignore[arg-type]

    def where(self) -> str:
        parts = [p for p in (self.file, self.sheet, self.cell) if p]
        return " › ".join(parts)


class ProblemList:
    """An ordered collection of problems with the location they share filled in."""

    def __init__(self, problems: Iterable[Problem] = ()) -> None:
        self._items: list[Problem] = list(problems)

    def add(self, problem: Problem) -> None:
        self._items.append(problem)

    def extend(self, problems: Iterable[Problem]) -> None:
        self._items.extend(problems)

    def error(self, code: str, message: Msg, hint: Msg | None = None, **where: object) -> None:
        self.add(Problem(code, Severity.ERROR, message, hint, **where))  # type: ignore[arg-type]

    def warning(self, code: str, message: Msg, hint: Msg | None = None, **where: object) -> None:
        self.add(Problem(code, Severity.WARNING, message, hint, **where))  # type: ignore[arg-type]

    def supersede(self, code: str) -> None:
        """Drop every other problem of a cell that has a ``code`` problem (a cell holding an error value is
        reported as that, not also as empty or of the wrong kind)."""
        cells = {(p.file, p.sheet, p.cell) for p in self._items if p.code == code and p.cell}
        self._items = [p for p in self._items if p.code == code or (p.file, p.sheet, p.cell) not in cells]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self._items if p.is_error]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self._items if not p.is_error]

    def has_errors(self) -> bool:
        return any(p.is_error for p in self._items)

    def sort(self) -> None:
        """Workbook-level problems first, then by sheet, row and column (stable otherwise)."""

        def key(p: Problem) -> tuple[int, str, int, int, str]:
            letters = "".join(ch for ch in (p.cell or "") if ch.isalpha())
            return (0 if p.row is None else 1, p.sheet or "", p.row or 0, len(letters), letters)

        self._items.sort(key=key)

    def codes(self) -> list[str]:
        return [p.code for p in self._items]

    def __iter__(self) -> Iterator[Problem]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __bool__(self) -> bool:
        return bool(self._items)


# Hints shared by the core checks: what the player or GM should do.
HINT_USE_TEMPLATE = msg("Fill in the order workbook the GM sent you for this turn, and send it back as it is.")
HINT_ASK_GM = msg("Ask the GM for a new order workbook.")


class RulesetFailure(RuntimeError):
    """Raised when a ruleset itself fails (an exception in its validation or resolution, a dice conflict):
    the command stops with its own exit status, nothing changed, naming the ruleset and the turn."""

    def __init__(self, ruleset: str, turn: int, error: BaseException) -> None:
        super().__init__(f"{ruleset}, turn {turn}: {type(error).__name__}: {error}")
        self.ruleset = ruleset
        self.turn = turn
        self.detail = f"{type(error).__name__}: {error}"
