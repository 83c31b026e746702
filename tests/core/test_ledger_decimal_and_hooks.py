"""Decimal amounts in the ledger, and the template hooks rulesets use for read-only tables and previews."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import openpyxl

from adjudicator.engine.ledger import Ledger, exact, unreconciled
from adjudicator.engine.ruleset import ReportTable
from adjudicator.i18n import msg
from adjudicator.outputs.templates import build_order_workbook
from adjudicator.outputs.writing import atomic_save
from adjudicator.rulesets.star_sectors.rules import StarSectors
from tests.helpers import make_campaign, scenario, state


def test_decimal_amounts_reconcile_exactly() -> None:
    ledger = Ledger(1)
    ledger.post("step 4", "A", "treasury", 0.1, Decimal("10.1"), msg("income"))
    ledger.post("step 4", "A", "treasury", Decimal("0.2"), Decimal("10.3"), msg("income"))
    assert [line.change for line in ledger.lines] == [Decimal("0.1"), Decimal("0.2")]
    assert unreconciled({("A", "treasury"): 10}, ledger.lines, {("A", "treasury"): Decimal("10.3")}) == []
    assert unreconciled({("A", "treasury"): 10}, ledger.lines, {("A", "treasury"): 10.31}) != []
    assert exact(Decimal("3.00")) == 3 and isinstance(exact(Decimal("3.00")), int)


class WithRoster(StarSectors):
    def reference_tables(self, campaign, faction):  # noqa: ANN001, ANN201
        return [ReportTable("roster", msg("Fleets"), [msg("Square"), msg("Value")], [["A1", Decimal("12.5")]])]

    def decorate_template(self, wb, campaign, faction):  # noqa: ANN001, ANN201
        wb["Orders"]["Z1"] = "=1+1"


def test_reference_tables_and_decoration_reach_the_template(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", scenario({"ALPHA": 0}, [("ALPHA", "A1", 60)]))
    campaign = state(root)
    path = tmp_path / "t.xlsx"
    atomic_save(build_order_workbook(WithRoster(), campaign, "ALPHA"), path)
    book = openpyxl.load_workbook(path)
    roster = book["Fleets"]
    assert roster.protection.sheet and roster["A3"].value == "A1" and roster["B3"].value == 12.5
    assert book["Orders"]["Z1"].value == "=1+1"
