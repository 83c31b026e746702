"""Property-based tests (hypothesis) over the order rows of every ruleset: reading and validating any
rows never raises, and a row rejected for a bad cell changes nothing in the turn's result."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.cases import campaign_of, resolve_case
from adjudicator.dice import Dice
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.problems import ProblemList
from adjudicator.engine.registry import find_ruleset, installed
from adjudicator.engine.ruleset import FactionOrders, TurnInput
from adjudicator.intake.reading import ErrorValue, SheetGrid, WorkbookData
from adjudicator.intake.submissions import mark_invalid_rows, read_sheets
from adjudicator.paths import examples_root
from adjudicator.scenario import load_scenario
from adjudicator.testing import BAD_CELL, RULES, fingerprint
from adjudicator.turn import pipeline

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


# ------------------------------------------------------------------------------ whole turns, in memory
# Turns of each ruleset's example campaign with generated rows for one faction (mutations of the example's own
# rows, so that many pass), resolved through intake and the ruleset (adjudicator.cases.resolve_case).


@pytest.fixture(scope="module")
def examples() -> dict[str, Any]:
    out = {}
    for name in RULESETS:
        data = load_scenario(examples_root() / name)
        ruleset = find_ruleset(name)
        out[name] = (data, ruleset, campaign_of(ruleset, data))
    return out


def _faction(data: dict[str, Any]) -> str:
    return sorted(data.get("orders", {}))[0]


@st.composite
def turn_rows(draw: Any, data: dict[str, Any], ruleset: Any, campaign: Any) -> dict[str, list[dict[str, Any]]]:
    """Rows for every order sheet: each a row of the example (of any faction), with some cells replaced by a
    legal value of the column (a choice, a name of the dropdown, a value another row holds) or by anything."""
    faction = _faction(data)
    lists = ruleset.choice_lists(campaign, faction, campaign.factions[faction].language)
    out: dict[str, list[dict[str, Any]]] = {}
    for schema in ruleset.order_schemas:
        examples = [r for sheets in data.get("orders", {}).values() for r in sheets.get(schema.key, [])]
        rows = []
        for _ in range(draw(st.integers(min_value=0, max_value=3))):
            row = dict(draw(st.sampled_from(examples))) if examples and draw(st.integers(0, 4)) else {}
            for column in schema.columns:
                if column.computed or draw(st.integers(0, 3)):
                    continue
                legal = [c.code for c in column.choices] + list(lists.get(column.key, []))[:50] + [
                    r[column.key] for r in examples if r.get(column.key) not in (None, "")]
                if legal and draw(st.booleans()):
                    row[column.key] = draw(st.sampled_from(legal))
                else:
                    row[column.key] = draw(CELL)
            rows.append(row)
        out[schema.key] = rows
    return out


def _turn(data: dict[str, Any], ruleset: Any, faction: str, sheets: dict[str, list[dict[str, Any]]]) -> Any:
    changed = dict(data)
    changed["orders"] = {**data.get("orders", {}), faction: sheets}
    return resolve_case(changed, ruleset)


@pytest.mark.parametrize("name", RULESETS)
def test_every_row_that_passes_check_resolves_and_gets_an_outcome(examples: dict[str, Any], name: str) -> None:
    data, ruleset, campaign = examples[name]
    faction = _faction(data)

    @settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.data())
    def check(drawn: Any) -> None:
        sheets = drawn.draw(turn_rows(data, ruleset, campaign))
        turn = _turn(data, ruleset, faction, sheets)  # raises nothing, whatever the rows hold
        if turn.result.needs_gm_input:
            return  # the turn waits for the GM: nothing resolved yet, nothing to account for
        frames = turn.orders[faction].sheets
        for schema in ruleset.order_schemas:
            for row in frames[schema.key].frame.index:
                status, _ = turn.status(faction, schema.key, int(row))
                assert status, (name, schema.key, int(row), sheets[schema.key])  # rejected, or an outcome

    check()


@pytest.mark.parametrize("name", RULESETS)
def test_a_rejected_row_changes_no_state_ledger_or_dice(examples: dict[str, Any], name: str) -> None:
    data, ruleset, campaign = examples[name]
    faction = _faction(data)
    groups = dict(getattr(ruleset, "row_groups", {}) or {})

    @settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.data())
    def check(drawn: Any) -> None:
        sheets = drawn.draw(turn_rows(data, ruleset, campaign))
        schema = drawn.draw(st.sampled_from(list(ruleset.order_schemas)))
        numbers = [c for c in schema.columns if not c.computed and c.key != groups.get(schema.key)
                   and c.kind.name in ("INT", "NUMBER", "INT_OR_ALL", "CHOICE")]
        if not numbers:
            return  # no cell of this sheet the engine reads as a number or a choice (galactic_war's text sheets)
        column = drawn.draw(st.sampled_from(numbers))
        base = drawn.draw(st.sampled_from([*sheets[schema.key], {}])) if sheets[schema.key] else {}
        bad = {**base, column.key: BAD_CELL}
        if schema.key in groups:
            bad[groups[schema.key]] = "OWN-GROUP"  # a group of its own: it takes no other row down with it
        with_bad = {**sheets, schema.key: [*sheets[schema.key], bad]}
        clean = fingerprint(_turn(data, ruleset, faction, sheets))
        turn = _turn(data, ruleset, faction, with_bad)
        row = 2 + len(sheets[schema.key])
        assert turn.status(faction, schema.key, row)[0] == "rejected", (name, schema.key, bad)
        after = fingerprint(turn)
        after["outcomes"] = [o for o in after["outcomes"] if (o[0], o[1], o[2]) != (faction, schema.key, row)]
        assert {k: after[k] for k in RULES} == {k: clean[k] for k in RULES}, (name, schema.key, bad)

    check()
