"""Shared fixtures: campaigns built from scenario data, real workbooks, LibreOffice when required."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.helpers import example_campaign

#: No test finds a reading of a workbook kept by another (nor the user's own: submission_cache.py): tests of
#: the same example would find each other's readings, and a test that breaks a ruleset on purpose would find
#: the reading made before it broke it. The cache's own tests name a folder of their own.
os.environ["ADJUDICATOR_CACHE"] = "off"


@pytest.fixture
def example(tmp_path: Path) -> Path:
    """A fresh copy of the bundled star_sectors example campaign (orders in inbox/, GM input pending)."""
    return example_campaign(tmp_path / "example")


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of the test's own for what is kept between commands (the readings of submissions, the surveys of
    campaign.xlsx: submission_cache.py, kept_survey.py), where every other test keeps nothing."""
    folder = tmp_path / "kept"
    monkeypatch.setenv("ADJUDICATOR_CACHE", str(folder))
    return folder


@pytest.fixture(scope="session")
def soffice() -> str:
    """The LibreOffice binary. Missing: skip here, fail in CI (where .ci/run installs it)."""
    found = shutil.which("soffice") or shutil.which("libreoffice")
    if found:
        return found
    if os.environ.get("ADJUDICATOR_REQUIRE_LIBREOFFICE"):
        pytest.fail("LibreOffice (soffice) is required here but is not installed")
    pytest.skip("LibreOffice (soffice) is not installed; .ci/run installs it")


def convert(soffice: str, source: Path, target_ext: str, out_dir: Path) -> Path:
    """Convert a workbook with the real LibreOffice, headless, with a throwaway profile (outputs/libreoffice.py)."""
    from adjudicator.outputs import libreoffice

    return libreoffice.convert(soffice, [source], target_ext, out_dir, timeout=180)[0]


#: Tests that take tens of seconds each on two cores: run by ``make test-slow`` (and CI), not ``make test``. Each
#: capability keeps a cheaper test of its own in ``make test`` (the rendering test for LibreOffice, the
#: star_sectors example for the pipeline). An entry is a test's node id, or its beginning (every parameter).
SLOW_TESTS = (
    "tests/core/test_cli.py::test_demo_runs_every_example",
    "tests/inner_sphere/test_inner_sphere.py::test_three_turns_of_the_example_from_the_cli_reconcile",
    "tests/inner_sphere/test_inner_sphere.py::test_defence_levels_in_sequence_and_upkeep_of_the_current_level",
    "tests/inner_sphere/test_inner_sphere.py::test_technology_sale_takes_effect_two_turns_later",
    "tests/inner_sphere/test_inner_sphere.py::test_purchase_arrives_at_the_factory_system_when_its_turns_are_done",
    "tests/inner_sphere/test_inner_sphere.py::test_research_validations_at_their_cells",
    "tests/inner_sphere/test_inner_sphere.py::test_new_light_factory_at_industrial_500",
    "tests/inner_sphere/test_inner_sphere.py::test_jumpships_pay_one_hex_minimum_even_into_debt",
    "tests/inner_sphere/test_inner_sphere.py::test_icna_die_is_a_plain_d10",
    "tests/inner_sphere/test_inner_sphere_movement.py::test_example_replay_same_seed",
    "tests/inner_sphere/test_inner_sphere_movement.py::test_example_fog_of_war",
    "tests/inner_sphere/test_inner_sphere_gaps.py::test_accident_effect_gm_table_waits_for_the_gm",
    "tests/core/test_verifiable_dice.py::test_verify_passes_on_every_faction_and_shows_the_dice_of_the_dice_sheet[inner",
    "tests/core/test_verifiable_dice.py::test_verify_passes_on_every_faction_and_shows_the_dice_of_the_dice_sheet[gala",
    "tests/conformance/test_conformance.py::test_example_turn_runs_twice_with_identical_results[inner_sphere",
    "tests/conformance/test_conformance.py::test_the_test_kit_passes_on_every_bundled_ruleset[inner_sphere",
    "tests/core/test_workbook_safeguards.py::test_every_visible_sheet_prints_its_used_cells_one_page_wide",
    "tests/core/test_libreoffice.py::test_every_rulesets_filled_orders_round_trip_through_libreoffice",
    "tests/core/test_libreoffice.py::test_every_rulesets_safeguards_survive_a_libreoffice_save",
    "tests/core/test_libreoffice.py::test_inner_sphere_cost_preview_recalculated_by_libreoffice",
    "tests/core/test_libreoffice.py::test_orders_saved_by_libreoffice_are_read_identically",
    "tests/core/test_libreoffice.py::test_results_open_in_libreoffice",
    "tests/galactic_war/test_galactic_war.py::test_same_seed_same_battles",
    "tests/galactic_war/test_galactic_war.py::test_placement_at_docks_limits_blockade_and_new_docks",
    "tests/galactic_war/test_galactic_war.py::test_moves_are_simultaneous_crossing_fleets_do_not_fight",
    "tests/galactic_war/test_galactic_war.py::test_invasion_rules_refuse_rows",
    "tests/galactic_war/test_galactic_war.py::test_same_type_wormholes_are_neighbours_for_movement",
    "tests/galactic_war/test_galactic_war.py::test_battle_trophies_retreat_and_every_roll_logged",
    "tests/core/test_pipeline.py::test_an_interrupted_reprocess",
    "tests/core/test_hostile_outcomes.py::test_the_example_turn_run_twice_gives_the_same_bytes_in_every_file",
    "tests/core/test_publish.py::test_the_public_post_passes_the_fog_of_war_scan[inner_sphere",
    "tests/conformance/test_templates_every_ruleset.py::test_filled_only_through_dropdowns_and_number_cells_no_type_error[inn",
    "tests/core/test_deadlines.py::test_policies_at_the_deadline",
    "tests/core/test_rendering.py::",  # every ruleset's workbooks through LibreOffice; make test renders one's
    "tests/core/test_stacked_tables.py::test_no_table_of_any_rulesets_report",  # make test prints star_sectors'
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(SLOW_TESTS):
            item.add_marker(pytest.mark.slow)
