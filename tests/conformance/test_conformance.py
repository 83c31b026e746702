"""What every registered ruleset must do (run for each one found in the entry-point group)."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.engine.registry import installed
from adjudicator.engine.ruleset import Ruleset
from adjudicator.i18n import LANGUAGES, fold
from adjudicator.turn import pipeline
from tests.helpers import all_values

RULESETS = sorted(installed())


def test_the_built_in_rulesets_are_registered_as_plugins() -> None:
    from adjudicator.engine.registry import broken

    assert broken() == {}
    assert "star_sectors" in RULESETS
    for name, ruleset in installed().items():
        assert isinstance(ruleset, Ruleset) and ruleset.name == name


@pytest.fixture(params=RULESETS)
def campaign(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    ruleset = installed()[request.param]
    root = tmp_path / request.param
    pipeline.new_campaign(ruleset, root, example=True)
    return root


def test_parameters_load_and_have_descriptions(campaign: Path) -> None:
    _, current, ruleset = pipeline.open_campaign(campaign)
    for key, parameter in ruleset.parameters().parameters.items():
        assert parameter.description, key
        assert key in current.parameters


def test_blank_templates_build_and_check_clean(campaign: Path) -> None:
    paths = pipeline.make_templates(campaign)
    _, current, _ = pipeline.open_campaign(campaign)
    assert len(paths) == len(current.factions)
    outcome = pipeline.check(campaign, paths)
    assert [s.problems.codes() for s in outcome.submissions] == [[] for _ in paths]
    assert {s.faction for s in outcome.submissions} == set(current.factions)


def test_example_reports_errors_at_cells(campaign: Path) -> None:
    outcome = pipeline.check(campaign)
    errors = [p for s in outcome.submissions for p in s.problems.errors]
    assert errors, "the example must show check at work"
    assert all(p.file and p.sheet and p.cell for p in errors if p.row)


def test_example_turn_runs_twice_with_identical_results(campaign: Path, tmp_path: Path) -> None:
    name = campaign.name
    twin = tmp_path / "twin"
    pipeline.new_campaign(installed()[name], twin, example=True)
    first, second = pipeline.run(campaign), pipeline.run(twin)
    assert first.status == second.status == "resolved"
    for faction, path in first.results.items():
        assert all_values(path) == all_values(second.results[faction])
    assert all_values(campaign / "campaign.xlsx") == all_values(twin / "campaign.xlsx")


@pytest.mark.parametrize("name", RULESETS)
def test_sheet_and_column_names_are_distinct_in_every_language(name: str) -> None:
    ruleset = installed()[name]
    for schemas in (ruleset.order_schemas, ruleset.gm_input_schemas, ruleset.state_schemas):
        for lang in LANGUAGES:
            titles = [fold(s.title_in(lang)) for s in schemas]
            assert len(set(titles)) == len(titles), (name, lang)
            for schema in schemas:
                headers = [fold(c.header_in(lang)) for c in schema.columns]
                assert len(set(headers)) == len(headers), (name, schema.key, lang)
                assert len(schema.title_in(lang)) <= 25


# ------------------------------------------------------------------- the plugin test kit, as a third party uses it
def _kit_params() -> list[object]:
    from adjudicator import testing

    checks = [*testing.EXAMPLE_CHECKS, *testing.RULESET_CHECKS]
    return [pytest.param(name, check, id=f"{name}-{check.__name__}",
                         marks=[pytest.mark.slow] if name == "inner_sphere" and check in testing.EXAMPLE_CHECKS
                         else [])
            for name in RULESETS for check in checks]


@pytest.mark.parametrize(("name", "check"), _kit_params())
def test_the_test_kit_passes_on_every_bundled_ruleset(name: str, check: object) -> None:
    from adjudicator import testing
    from adjudicator.paths import examples_root

    ruleset = installed()[name]
    if check in testing.RULESET_CHECKS:
        check(ruleset)  # type: ignore[operator]
    else:
        check(ruleset, testing.load_example(examples_root() / name / "scenario.toml"))  # type: ignore[operator]
