"""A turn's rows split by faction once for every reader's report (engine/reporting.py's ``by_faction``)."""

from __future__ import annotations

from adjudicator.engine.reporting import Reporter
from adjudicator.engine.ruleset import ReportTable


class _Rows(Reporter):
    def __init__(self, rows: list[tuple[str, tuple[str | None, ...]]]) -> None:
        self.rows = rows
        self.made = 0

    def made_rows(self) -> list[tuple[str, tuple[str | None, ...]]]:
        self.made += 1
        return sorted(self.rows)

    def split(self) -> dict[str | None, list[tuple[str, tuple[str | None, ...]]]]:
        return self.by_faction("rows", self.made_rows, lambda row: row[1])

    def faction(self, faction: str) -> list[ReportTable]:
        return [ReportTable("rows", "Rows", ["Row"], [[name] for name, _ in self.split().get(faction, [])])]

    def gm(self) -> list[ReportTable]:
        return [ReportTable("rows", "Rows", ["Row"], [[name] for name, _ in self.split()[None]])]


def test_each_faction_gets_its_rows_in_order_once_each_and_the_gm_all_of_them() -> None:
    reporter = _Rows([("d", ("B",)), ("a", ("A", "B")), ("c", ("A", "A")), ("b", (None,)), ("e", ())])
    assert [row[0] for row in reporter.faction("A")[0].rows] == ["a", "c"]  # "c" named A twice: listed once
    assert [row[0] for row in reporter.faction("B")[0].rows] == ["a", "d"]
    assert reporter.faction("C")[0].rows == []
    assert [row[0] for row in reporter.gm()[0].rows] == ["a", "b", "c", "d", "e"]
    assert reporter.made == 1  # the rows made and sorted once, whatever the number of readers


def test_each_name_is_its_own_list() -> None:
    reporter = _Rows([("a", ("A",))])
    other = reporter.by_faction("other", lambda: [("z", ("A",))], lambda row: row[1])
    assert other["A"] == [("z", ("A",))] and reporter.split()["A"] == [("a", ("A",))]
