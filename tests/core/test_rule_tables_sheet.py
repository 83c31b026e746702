"""The engine gives the Rule tables sheet to every ruleset whose data package ships tables.toml, unlisted."""

from __future__ import annotations

from adjudicator.engine.registry import find_ruleset
from adjudicator.engine.rules_data import RULE_TABLES, ships_tables
from adjudicator.engine.ruleset import Campaign, Ruleset, TurnInput, TurnResult


def _keys(ruleset: Ruleset | type[Ruleset]) -> list[str]:
    return [s.key for s in ruleset.state_schemas]


def test_every_ruleset_with_tables_toml_has_the_sheet_once_and_the_others_none() -> None:
    for name in ("star_sectors", "galactic_war", "inner_sphere", "coordinated_orders"):
        ruleset = find_ruleset(name)
        expected = 1 if ships_tables(ruleset.data_package) else 0
        assert _keys(ruleset).count(RULE_TABLES.key) == expected, name
    assert ships_tables("adjudicator.rulesets.coordinated_orders")  # its Skills
    assert not ships_tables("adjudicator.rulesets.star_sectors")


def test_a_new_ruleset_gets_the_sheet_from_its_data_package_without_listing_it() -> None:
    class WithTables(Ruleset):
        name = "with_tables"
        data_package = "adjudicator.rulesets.coordinated_orders"

        def resolve(self, turn: TurnInput) -> TurnResult:
            raise NotImplementedError

    class WithoutTables(WithTables):
        data_package = "adjudicator.rulesets.star_sectors"
        state_schemas = ()

    assert _keys(WithTables) == [RULE_TABLES.key]
    assert _keys(WithoutTables) == []
    assert set(WithTables().rule_tables(_campaign())) == {"skills"}
    assert WithoutTables().rule_tables(_campaign()) == {}


def _campaign() -> Campaign:
    return Campaign("c", "c", "with_tables", 1, 1, "en", "s", {}, {}, {})
