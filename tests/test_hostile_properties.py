"""Property-based tests (hypothesis) over the order rows of every ruleset: reading and validating any
rows never raises, and a row rejected for a bad cell changes nothing in the turn's result."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.campaign import pipeline
from adjudicator.campaign.submissions import mark_invalid_rows, read_sheets
from adjudicator.dice import Dice
from adjudicator.engine.registry import find_ruleset, installed
from adjudicator.engine.ruleset import FactionOrders, TurnInput
from adjudicator.ledger import Ledger
from adjudicator.problems import ProblemList
from adjudicator.xlsx.reading import ErrorValue, SheetGrid, WorkbookData

RULESETS = sorted(installed())

pytestmark = pytest.mark.slow

#: Anything a cell can hold as read: blanks, text (junk, markup, escapes), numbers of every kind, error values.
CELL = st.one_of(
    st.none(),
    st.text(max_size=12),
    st.sampled_from(["ALL", "[/]", "\x1b[2J", "=1+1", "  ", "1 000", "12,5", "#N/A"]),
    st.integers(min_value=-10**6, max_value=10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.builds(ErrorValue, st.sampled_from(["#DIV/0!", "#N/A", "#VALUE!"])),
)


@pytest.fixture(scope="module")
def campaigns(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = {}
    for name in RULESETS:
        root = tmp_path_factory.mktemp(name)
        pipeline.new_campaign(find_ruleset(name), root / "c", example=True)
        _, campaign, ruleset = pipeline.open_campaign(root / "c")
        out[name] = (campaign, ruleset)
    return out


def _cell_value(schema: Any, column: Any, draw: Any) -> Any:
    """A value for ``column``: often a valid one (a choice, a number in range), else anything."""
    if column.choices and draw(st.booleans()):
        return draw(st.sampled_from([c.code for c in column.choices]))
    return draw(CELL)


def _book(ruleset: Any, sheets: dict[str, list[list[Any]]]) -> WorkbookData:
    book = WorkbookData(Path("orders.xlsx"))
    for schema in ruleset.order_schemas:
        if schema.key in sheets:
            header = [c.header for c in schema.columns]
            book.sheets[schema.title] = SheetGrid(schema.title, [header, *sheets[schema.key]])
    return book


@st.composite
def order_rows(draw: Any, ruleset: Any) -> dict[str, list[list[Any]]]:
    sheets = {}
    for schema in ruleset.order_schemas:
        count = draw(st.integers(min_value=0, max_value=4))
        sheets[schema.key] = [[_cell_value(schema, c, draw) for c in schema.columns] for _ in range(count)]
    return sheets


def _validate(campaign: Any, ruleset: Any, faction: str, sheets: dict[str, list[list[Any]]]) -> tuple[Any, Any]:
    problems = ProblemList()
    orders = FactionOrders(faction, "orders.xlsx", read_sheets(_book(ruleset, sheets), ruleset.order_schemas,
                                                                problems))
    ruleset.validate_orders(campaign, faction, orders, problems)
    problems.supersede("C05")
    mark_invalid_rows(orders, problems)
    return orders, problems


def _tables(campaign: Any, ruleset: Any, faction: str, orders: FactionOrders) -> Any:
    result = ruleset.resolve(TurnInput(campaign, {faction: orders}, None, "gm_input.xlsx",
                                       Dice(campaign.seed, campaign.turn), Ledger(campaign.turn), ProblemList()))
    if result.needs_gm_input:
        return {k: v.to_dict("records") for k, v in (result.gm_requests or {}).items()}
    return {k: v.astype(str).to_dict("records") for k, v in result.tables.items()}


@pytest.mark.parametrize("name", RULESETS)
def test_validating_any_rows_never_raises(campaigns: dict[str, Any], name: str) -> None:
    campaign, ruleset = campaigns[name]
    faction = sorted(campaign.factions)[0]

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(order_rows(ruleset))
    def check(sheets: dict[str, list[list[Any]]]) -> None:
        orders, problems = _validate(campaign, ruleset, faction, sheets)
        for problem in problems:
            assert problem.code and problem.message.render("en")
        for sheet in orders.sheets.values():  # no value a rule reads is a NaN, an infinity or an error value
            for column in sheet.frame.columns:
                for value in sheet.frame[column]:
                    assert not isinstance(value, ErrorValue)
                    assert not (isinstance(value, float) and not math.isfinite(value))

    check()


@pytest.mark.parametrize("name", RULESETS)
def test_a_row_rejected_for_a_bad_cell_changes_nothing(campaigns: dict[str, Any], name: str) -> None:
    campaign, ruleset = campaigns[name]
    faction = sorted(campaign.factions)[0]

    @settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(order_rows(ruleset), st.data())
    def check(sheets: dict[str, list[list[Any]]], data: Any) -> None:
        # One row of junk, whose first cell that is read as a number holds an error value: rejected (C05).
        schema = data.draw(st.sampled_from(list(ruleset.order_schemas)))
        bad = [data.draw(CELL) for _ in schema.columns]
        bad[0] = ErrorValue("#DIV/0!")
        with_bad = {k: [*v] for k, v in sheets.items()}
        with_bad[schema.key] = [*sheets.get(schema.key, []), bad]
        orders, problems = _validate(campaign, ruleset, faction, with_bad)
        bad_row = len(with_bad[schema.key]) + 1
        assert ("C05", bad_row) in {(p.code, p.row) for p in problems}
        frame = orders.sheets[schema.key].frame
        assert bool(frame.loc[bad_row, "_invalid"])
        clean_orders, _ = _validate(campaign, ruleset, faction, sheets)
        assert _tables(campaign, ruleset, faction, orders) == _tables(campaign, ruleset, faction, clean_orders)

    check()


def test_the_strategies_reach_every_ruleset() -> None:
    assert set(RULESETS) >= {"star_sectors", "galactic_war", "inner_sphere", "coordinated_orders"}
