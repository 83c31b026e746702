"""Order types as the unit of a ruleset: the player's check and the GM's run refuse the same rows by the same
step; the presentation is apart from the rules; the engine core knows no workbook library and no ruleset."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from adjudicator import testing
from adjudicator.cases import resolve_case
from adjudicator.dice import Dice
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.orders import carry_out_orders
from adjudicator.engine.presentation import Presentation
from adjudicator.engine.registry import find_ruleset
from adjudicator.engine.ruleset import Campaign, FactionOrders, Ruleset, TurnInput, TurnResult
from adjudicator.rulesets.star_sectors.orders.common import FactionState

ROOT = Path(__file__).resolve().parents[2]


def _example(name: str) -> dict[str, Any]:
    return testing.load_example(ROOT / "examples" / name / "scenario.toml")


def test_star_sectors_check_and_run_refuse_the_same_rows() -> None:
    """The E-codes check reports are the rejections the run's own steps give the rows that passed typing, with
    the factions carried out in run's order on one shared world; and run's outcomes refuse no row check passed."""
    ruleset = find_ruleset("star_sectors")
    turn = resolve_case(_example("star_sectors"), ruleset)
    campaign = turn.campaign
    snapshot = ruleset.order_state(campaign, "", Ledger(campaign.turn), Dice(campaign.seed, campaign.turn)).snapshot
    world, ctx = snapshot.copy(), ruleset._context(campaign, Ledger(campaign.turn))
    in_total = 0
    for faction in sorted(turn.orders):
        submitted, problems = turn.orders[faction], turn.problems[faction]
        untyped = [p.row for p in problems.errors if p.code.startswith("C")]
        typed = FactionOrders(faction, submitted.file, {key: dataclasses.replace(sheet, rows=sheet.frame.drop(
            columns=["_invalid"], errors="ignore").drop(index=untyped, errors="ignore"))
            for key, sheet in submitted.sheets.items()})
        carried = carry_out_orders(ruleset, campaign.parameters, FactionState(snapshot, world, ctx, faction), typed)
        in_run = {(row, c.rejections[0].code) for c in carried if not c.accepted for row in c.rows}
        in_check = {(p.row, p.code) for p in problems.errors if p.code.startswith("E")}
        assert in_run == in_check, faction
        in_total += len(in_check)
    assert in_total >= 3  # the example shows check at work
    assert not turn.result.needs_gm_input
    assert [o for o in turn.result.outcomes if o.status == "rejected"] == []  # run refused nothing check passed


def test_the_engine_core_imports_no_workbook_library_and_names_no_ruleset() -> None:
    code = ("import sys, adjudicator.engine.ruleset, adjudicator.engine.orders, adjudicator.engine.presentation, "
            "adjudicator.engine.reporting, adjudicator.engine.books, adjudicator.engine.validity, "
            "adjudicator.engine.ledger, adjudicator.engine.problems, adjudicator.engine.sheets, "
            "adjudicator.engine.rules_data, adjudicator.engine.values; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('openpyxl', 'python_calamine')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"
    names = re.compile(r"star_sectors|Star Sectors|fleet@|\bDRAW\b|galactic_war|inner_sphere|coordinated_orders")
    core = [*sorted((ROOT / "adjudicator" / "engine").glob("*.py")), ROOT / "adjudicator" / "turn" / "gm_input.py"]
    found = {p.name: names.findall(p.read_text(encoding="utf-8")) for p in core}
    assert {name: hits for name, hits in found.items() if hits} == {}
    assert "openpyxl" not in "".join(p.read_text(encoding="utf-8") for p in core if p.parent.name == "engine")


class _Legacy(Ruleset):
    """A ruleset of the former shape: presentation hooks overridden on the ruleset itself."""

    name = "legacy_test"

    def choice_lists(self, campaign: Campaign, faction: str) -> dict[str, list[str]]:
        return {"square": ["A1", faction]}

    def resolve(self, turn: TurnInput) -> TurnResult:
        return TurnResult()


def test_a_ruleset_of_the_former_shape_keeps_its_presentation_hooks() -> None:
    legacy = _Legacy()
    presentation = legacy.presentation()
    assert isinstance(presentation, Presentation)
    assert presentation.choice_lists(None, "ALPHA", "ru") == {"square": ["A1", "ALPHA"]}  # type: ignore[arg-type]
    assert presentation.template_budget(None, "ALPHA") is None  # type: ignore[arg-type] - the default


@pytest.mark.parametrize("name", ["star_sectors", "coordinated_orders"])
def test_a_converted_ruleset_keeps_its_hooks_on_its_presentation_only(name: str) -> None:
    ruleset = find_ruleset(name)
    presentation = ruleset.presentation()
    assert type(presentation) is not Presentation and type(presentation).__module__.endswith(".presentation")
    own = {hook for hook in ("choice_lists", "template_budget", "preview_cost", "example_rows", "reference_tables",
                             "template_lookups") if hook in type(presentation).__dict__}
    assert own and not own & set(type(ruleset).__dict__)  # the rules module holds none of them
    campaign = resolve_case(_example(name), ruleset).campaign
    faction = sorted(campaign.factions)[0]
    assert ruleset.choice_lists(campaign, faction, "es") == presentation.choice_lists(campaign, faction, "es")
