"""The tutorial ruleset of docs/plugins.md, built from the page as a separate package, installed beside the
adjudicator (a dist-info with its entry point on the path) and put through the test kit; and two broken
plugins the kit catches."""

from __future__ import annotations

import dataclasses
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from adjudicator import testing
from adjudicator.engine import registry
from adjudicator.engine.outcome import Done, outcomes
from adjudicator.engine.ruleset import Ruleset, TurnInput, TurnResult
from adjudicator.engine.sheets import records
from adjudicator.engine.validity import with_rejected
from adjudicator.i18n import msg, ruleset_catalog

DOC = Path(__file__).resolve().parents[2] / "docs" / "plugins.md"
FILE = re.compile(r"^`(my_rulesets/harvest/[^`]+)`[^\n]*:\n\n```\w*\n(.*?)\n```", re.MULTILINE | re.DOTALL)


def tutorial_files() -> dict[str, str]:
    files = {path: text + "\n" for path, text in FILE.findall(DOC.read_text(encoding="utf-8"))}
    ru = "my_rulesets/harvest/locale/ru/LC_MESSAGES/harvest.po"
    assert ru in files and "my_rulesets/harvest/__init__.py" in files
    return files


def install(site: Path, files: dict[str, str]) -> None:
    """The package as pip would leave it: its files, and a dist-info that declares the entry point."""
    for path, text in files.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(text, encoding="utf-8")
    (site / "my_rulesets" / "__init__.py").write_text("", encoding="utf-8")
    info = site / "my_harvest-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-harvest\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[adjudicator.rulesets]\nharvest = my_rulesets.harvest:ruleset\n",
                                           encoding="utf-8")


@pytest.fixture
def harvest(tmp_path: Path) -> Iterator[Ruleset]:
    install(tmp_path, tutorial_files())
    monkey = pytest.MonkeyPatch()
    monkey.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    registry._load.cache_clear()
    try:
        yield registry.find_ruleset("harvest")
    finally:
        monkey.undo()
        for name in [m for m in list(__import__("sys").modules) if m.startswith("my_rulesets")]:
            del __import__("sys").modules[name]
        registry._load.cache_clear()


def example(ruleset: Ruleset) -> dict[str, object]:
    return testing.load_example(ruleset.example_dir() / "scenario.toml")


def test_the_tutorial_ruleset_is_small_and_keeps_no_validity_flag_nor_books() -> None:
    code = tutorial_files()["my_rulesets/harvest/__init__.py"]
    assert len(code.splitlines()) <= 60
    for internal in ("_invalid", "opening_balances", "closing_balances", "rejected", "unreconciled"):
        assert internal not in code


def test_the_installed_tutorial_ruleset_passes_the_test_kit(harvest: Ruleset) -> None:
    assert registry.broken() == {} and "harvest" in registry.installed()
    assert testing.conformance_failures(harvest, example(harvest)) == {}


def test_the_tutorial_translates_with_its_own_catalog_only(harvest: Ruleset) -> None:
    text = msg("{field} gave {r}R.", field="Llano", r=20)
    with ruleset_catalog(harvest.locale()):
        assert text.render("es") == "Llano dio 20R."
        assert text.render("ru") == "Llano дало 20R."
    with ruleset_catalog(registry.find_ruleset("star_sectors").locale()):
        assert text.render("es") == "Llano gave 20R."  # never another ruleset's translation


# ------------------------------------------------------------------------------------------ broken plugins
def _harvest_class(harvest: Ruleset) -> type[Ruleset]:
    return type(harvest)


def test_a_plugin_that_applies_every_row_it_sees_is_caught(harvest: Ruleset) -> None:
    class Greedy(_harvest_class(harvest)):  # type: ignore[misc]
        """Harvests every row of the sheet, the refused ones included, each as a field of its own."""

        def resolve(self, turn: TurnInput) -> TurnResult:
            for orders in turn.orders.values():
                sheet = orders.sheets["orders"]
                rows = with_rejected(sheet)
                sheet.frame = pd.DataFrame([{**values, "order": "HARVEST", "field": f"{values['field']} {row}"}
                                            for row, values in rows], index=[row for row, _ in rows])
            return super().resolve(turn)

    honest = example(harvest)
    honest["orders"]["SOUTH"]["orders"].pop()  # the example's own mistake would already break the turn
    failures = testing.conformance_failures(Greedy(), honest)
    assert "check_rejected_rows" in failures and "a rejected row changed the turn's" in failures["check_rejected_rows"]
    assert testing.conformance_failures(harvest, honest) == {}


def test_check_and_run_refuse_the_same_rows_by_the_same_step(harvest: Ruleset) -> None:
    """The player's check reports exactly the rows the order type refuses in the GM's run: one step, both."""
    from adjudicator.cases import resolve_case
    from adjudicator.dice import Dice
    from adjudicator.engine.ledger import Ledger
    from adjudicator.engine.orders import carry_out_orders
    from adjudicator.engine.ruleset import FactionOrders

    data = example(harvest)
    data["orders"]["NORTH"]["orders"] += [{"order": "HARVEST", "field": "oakfield"},
                                          {"order": "HARVEST", "field": "Hill"}, {"order": "HARVEST", "field": "Dale"}]
    turn = resolve_case(data, harvest)
    checked = {(p.row, p.code) for p in turn.problems["NORTH"].errors}
    assert checked == {(4, "E01"), (6, "E01")}  # Oakfield twice; a fourth field
    submitted = turn.orders["NORTH"]  # every row, as the workbook gave them
    every_row = FactionOrders("NORTH", submitted.file, {
        key: dataclasses.replace(sheet, rows=sheet.frame.drop(columns=["_invalid"], errors="ignore"))
        for key, sheet in submitted.sheets.items()})
    campaign = turn.campaign
    state = harvest.order_state(campaign, "NORTH", Ledger(campaign.turn), Dice(campaign.seed, campaign.turn))
    carried = carry_out_orders(harvest, campaign.parameters, state, every_row)
    refused = {(row, c.rejections[0].code) for c in carried if not c.accepted for row in c.rows}
    assert refused == checked


def test_a_plugin_that_applies_every_row_of_its_frame_is_safe_by_construction(harvest: Ruleset) -> None:
    """What ``if values["_invalid"]: continue`` used to guard: the engine hands over no rejected row."""
    seen: list[int] = []

    class Trusting(_harvest_class(harvest)):  # type: ignore[misc]
        def resolve(self, turn: TurnInput) -> TurnResult:
            seen.extend(row for o in turn.orders.values() for row, _ in records(o.sheets["orders"].frame))
            return super().resolve(turn)

    testing.check_rejected_rows(Trusting(), example(harvest))
    assert seen


def test_a_plugin_whose_dice_depend_on_row_order_is_caught(harvest: Ruleset) -> None:
    class Counting(_harvest_class(harvest)):  # type: ignore[misc]
        """Rolls dice named by a counter over the rows in the order they come in."""

        def resolve(self, turn: TurnInput) -> TurnResult:
            done, count = {}, 0
            for faction, orders in turn.orders.items():
                for row, _ in records(orders.sheets["orders"].frame):
                    count += 1
                    done[(faction, "orders", row)] = Done(msg("{n}", n=turn.dice.d(6, f"harvest:{count}")))
            return TurnResult(outcomes=outcomes(done))

    failures = testing.conformance_failures(Counting(), example(harvest))
    assert "check_order_independence" in failures
    assert "the order of the submitted files changed the turn's outcomes" in failures["check_order_independence"]
