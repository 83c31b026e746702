"""A bounded problems list keeps a workbook's errors before its warnings: forty warnings listed first never
push the error that refuses the workbook off the terminal."""

from __future__ import annotations

from pathlib import Path

from adjudicator.engine.problems import ProblemList
from adjudicator.i18n import msg
from adjudicator.outputs.bounded_problems import bounded


def _workbook(warnings: int, errors: int) -> ProblemList:
    problems = ProblemList()
    for row in range(warnings):
        problems.warning("W01", msg("Unknown unit."), file="ALPHA.xlsx", sheet="Orders", row=row + 2)
    for row in range(errors):
        problems.error("E01", msg("Unknown unit."), file="ALPHA.xlsx", sheet="Orders", row=100 + row)
    return problems


def test_the_bound_keeps_errors_listed_after_many_warnings() -> None:
    problems = list(_workbook(warnings=40, errors=3))
    shown, unshown = bounded([("ALPHA.xlsx", problems)], {"ALPHA.xlsx": Path("ALPHA.checked.xlsx")}, 10)
    assert [p.code for p in shown] == ["W01"] * 7 + ["E01"] * 3  # in the workbook's own order
    assert [p.row for p in shown[:7]] == [2, 3, 4, 5, 6, 7, 8]
    assert unshown[0].count == 33


def test_fewer_errors_than_the_bound_all_shown_and_nothing_unshown() -> None:
    problems = list(_workbook(warnings=2, errors=3))
    shown, unshown = bounded([("ALPHA.xlsx", problems)], {}, 10)
    assert shown == problems and unshown == []


def test_more_errors_than_the_bound_only_errors_shown() -> None:
    problems = list(_workbook(warnings=5, errors=12))
    shown, _ = bounded([("ALPHA.xlsx", problems)], {}, 10)
    assert [p.row for p in shown] == list(range(100, 110))
