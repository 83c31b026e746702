"""Maps, charts, the Changes tab and the reprocess diff, on the bundled examples run through the pipeline."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest

from adjudicator.campaign import master, pipeline
from adjudicator.campaign.gm_input import write_gm_input
from adjudicator.campaign.store import CampaignFolder
from adjudicator.engine.registry import find_ruleset
from adjudicator.i18n import msg
from adjudicator.maps.view import GM, PUBLIC
from adjudicator.problems import ProblemList
from adjudicator.scenario import load_scenario
from adjudicator.xlsx.writing import atomic_save

MAPPED = ("star_sectors", "galactic_war", "inner_sphere")


def run_example(root: Path, name: str, spy: list[Any] | None = None, plant: Any = None) -> Path:
    ruleset = find_ruleset(name)
    pipeline.new_campaign(ruleset, root, example=True)
    if plant is not None:
        plant(root)
    outcome = pipeline.run(root)
    assert outcome.status == "resolved"
    assert outcome.turn_dir is not None
    return outcome.turn_dir


def svg_ids(path: Path) -> set[str]:
    """The units marked in an SVG map: a labelled unit's id, or the link of a unit's mark."""
    return set(re.findall(r'(?:id|xlink:href)="#?(unit:[^"]+)"', path.read_text(encoding="utf-8")))


def state_after(turn_dir: Path) -> Any:
    loaded = master.load_campaign(turn_dir / "campaign_after.xlsx", find_ruleset, ProblemList())
    assert loaded is not None
    return loaded[0]


def state_before(turn_dir: Path) -> Any:
    loaded = master.load_campaign(turn_dir / "state_before.xlsx", find_ruleset, ProblemList())
    assert loaded is not None
    return loaded[0]


def own_units(name: str, campaign: Any, faction: str) -> set[str]:
    """The IDs the map gives a faction's own units, from the state tables (independently of the map code)."""
    t = campaign.tables
    if name == "star_sectors":
        return {f"{faction}@{r['square']}" for r in t["fleets"].to_dict("records")
                if r["faction"] == faction and int(r["value"]) > 0}
    if name == "galactic_war":
        return {r["id"] for r in t["units"].to_dict("records") if r["race"] == faction}
    ships = {r["id"] for r in t["jumpships"].to_dict("records") if r["owner"] == faction}
    regiments = {r["id"] for r in t["regiments"].to_dict("records") if r["owner"] == faction
                 and (isinstance(r.get("system"), str) and r["system"] or isinstance(r.get("jumpship"), str)
                      and r["jumpship"])}
    return ships | regiments


RUNS: dict[str, Path] = {}
DRAWN: dict[str, Any] = {}  # star_sectors: every reader's MapView, as the pipeline drew them


def example_turn(name: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example's turn folder after its turn, resolved once for the whole module (never changed). The
    star_sectors example has a hidden GAMMA fleet planted, and the views its maps are drawn from recorded."""
    if name not in RUNS:
        root = tmp_path_factory.mktemp(name) / "c"
        if name != "star_sectors":
            RUNS[name] = run_example(root, name)
            return RUNS[name]
        ruleset_type = type(find_ruleset("star_sectors"))
        real = ruleset_type.map_view

        def spy(self: Any, campaign: Any, result: Any, reader: str) -> Any:
            DRAWN[reader] = real(self, campaign, result, reader)
            return DRAWN[reader]

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(ruleset_type, "map_view", spy)
            RUNS[name] = run_example(root, name, plant=plant_hidden_fleet)
    return RUNS[name]


@pytest.fixture(scope="module", params=MAPPED)
def resolved(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    return request.param, example_turn(request.param, tmp_path_factory)


def test_a_map_per_faction_a_public_map_and_the_gms(resolved: tuple[str, Path]) -> None:
    name, turn_dir = resolved
    after = state_after(turn_dir)
    label = master.turn_label(after.turn - 1)
    for faction, info in after.factions.items():
        for suffix in ("png", "svg"):
            assert (turn_dir / "results" / f"{faction}.map.{suffix}").stat().st_size > 1000
        wb = openpyxl.load_workbook(turn_dir / "results" / f"{faction}.xlsx")
        tab = f"{msg('Map').render(info.language)} {label}"
        assert tab in wb.sheetnames and len(wb[tab]._images) == 1
        assert f"{msg('Changes').render(info.language)} {label}" in wb.sheetnames
        history = wb[msg("History").render(info.language)]
        assert len(history._charts) == 1
    assert (turn_dir / "results" / "public.map.png").exists()
    assert (turn_dir / "gm.map.svg").exists() and not (turn_dir / "results" / "gm.map.svg").exists()
    wb = openpyxl.load_workbook(turn_dir / "campaign_after.xlsx")
    assert len(wb[f"{label} {msg('Map').render(after.language)}"]._images) == 1
    assert wb[msg("History").render(after.language)]._charts


def test_each_faction_map_shows_every_unit_of_its_own(resolved: tuple[str, Path]) -> None:
    name, turn_dir = resolved
    after = state_after(turn_dir)
    every = set()
    for faction in after.factions:
        ids = svg_ids(turn_dir / "results" / f"{faction}.map.svg")
        mine = own_units(name, after, faction)
        every |= {f"unit:{faction}:{u}" for u in mine}
        assert mine, f"{faction} has no unit in the example"
        assert {f"unit:{faction}:{u}" for u in mine} <= ids
    assert every <= svg_ids(turn_dir / "gm.map.svg")
    assert not svg_ids(turn_dir / "results" / "public.map.svg")


def plant_hidden_fleet(root: Path) -> None:
    """A GAMMA fleet alone in H1, far from every other fleet: nobody fights it, nobody else may see it."""
    path = root / "campaign.xlsx"
    wb = openpyxl.load_workbook(path)
    ws = next(w for w in wb.worksheets if w.title.casefold() in ("флоты", "fleets"))
    ws.append(["GAMMA", "H1", 77])
    atomic_save(wb, path)


def test_a_hidden_enemy_unit_is_on_the_gms_map_only(star_sectors: Path) -> None:
    turn_dir = star_sectors / "turns" / "T03"
    drawn = DRAWN
    hidden = "unit:GAMMA:GAMMA@H1"
    assert "GAMMA@H1" in drawn[GM].unit_ids() and hidden in svg_ids(turn_dir / "gm.map.svg")
    assert "GAMMA@H1" in drawn["GAMMA"].unit_ids()
    assert hidden in svg_ids(turn_dir / "results" / "GAMMA.map.svg")
    for faction in ("ALPHA", "BETA", "BORYA"):
        assert "GAMMA@H1" not in drawn[faction].unit_ids()
        assert hidden not in svg_ids(turn_dir / "results" / f"{faction}.map.svg")
        assert "GAMMA@H1" not in (turn_dir / "results" / f"{faction}.map.svg").read_text(encoding="utf-8")
    assert not drawn[PUBLIC].units


def changes_of(path: Path, lang: str) -> list[tuple[Any, ...]]:
    wb = openpyxl.load_workbook(path)
    ws = next(w for w in wb.worksheets if w.title.startswith(msg("Changes").render(lang)))
    return [tuple(c.value for c in row) + (row[5].hyperlink.location if row[5].hyperlink else None,)
            for row in ws.iter_rows(min_row=2)]


def test_changes_list_every_change_of_units_and_balances_with_a_cause(resolved: tuple[str, Path]) -> None:
    name, turn_dir = resolved
    before, after = state_before(turn_dir), state_after(turn_dir)
    for faction, info in after.factions.items():
        rows = changes_of(turn_dir / "results" / f"{faction}.xlsx", info.language)
        assert all(r[5] for r in rows), "a change without a cause"
        whats = " | ".join(str(r[2]) for r in rows)
        old, new = own_units(name, before, faction), own_units(name, after, faction)
        for unit in old ^ new:  # gained or lost
            assert unit.split("@")[-1] in whats, f"{faction}: {unit} gained/lost but not listed"
        ledger = openpyxl.load_workbook(turn_dir / "results" / f"{faction}.xlsx")
        tab = next(w for w in ledger.worksheets if w.title.startswith(msg("Ledger").render(info.language) + " T"))
        lines = [r for r in tab.iter_rows(min_row=2, values_only=True) if r[0] is not None]
        balances = [r for r in rows if r[0] == msg("balance").render(info.language)]
        assert len(balances) == len(lines)
        assert [(b[3], b[4]) for b in balances] == [(line[5] - line[4], line[5]) for line in lines]
        assert all(b[6] for b in balances), "a balance without a link to its row"


def test_star_sectors_changes_name_the_order_row_and_the_battle(star_sectors: Path) -> None:
    turn_dir = star_sectors / "turns" / "T03"
    rows = changes_of(turn_dir / "results" / "BETA.xlsx", "ru")
    moved = [r for r in rows if r[2] == "F7"][0]
    assert "3" in str(moved[5]) and moved[6].endswith("!A3")  # the MOVE of order row 3, on the Outcome tab
    fought = [r for r in rows if str(r[2]).startswith("D7")][0]
    assert "D7" in str(fought[5]) and "Отчёт" in fought[6]
    before, after = state_before(turn_dir), state_after(turn_dir)
    def value(campaign: Any) -> int:
        return next(int(r["value"]) for r in campaign.tables["fleets"].to_dict("records")
                    if (r["faction"], r["square"]) == ("BETA", "D7"))

    assert (fought[3], fought[4]) == (value(before), value(after))


@pytest.fixture(scope="module")
def star_sectors(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The star_sectors example after its turn (copied by each test that changes it)."""
    return example_turn("star_sectors", tmp_path_factory).parents[1]


def copy_of_campaign(root: Path, target: Path) -> Path:
    shutil.copytree(root, target)
    return target


def test_reprocess_with_the_same_inputs_changes_nothing(star_sectors: Path, tmp_path: Path) -> None:
    root = copy_of_campaign(star_sectors, tmp_path / "c")
    turn_dir = root / "turns" / "T03"
    maps = {p.name: p.read_bytes() for p in (turn_dir / "results").glob("*.map.*")}
    outcome = pipeline.run(root, reprocess=True)
    assert outcome.status == "resolved" and outcome.reprocess_diff is not None
    assert [d.faction for d in outcome.reprocess_diff] == ["ALPHA", "BETA", "BORYA", "GAMMA"]
    assert all(d.empty for d in outcome.reprocess_diff)
    assert maps == {p.name: p.read_bytes() for p in (turn_dir / "results").glob("*.map.*")}  # same bytes
    text = (turn_dir / "reprocess_diff.txt").read_text(encoding="utf-8")
    assert text.count("\n") == 4


def test_reprocess_with_a_changed_gm_input_shows_exactly_the_changed_results(star_sectors: Path,
                                                                               tmp_path: Path) -> None:
    root = copy_of_campaign(star_sectors, tmp_path / "c")
    turn_dir = root / "turns" / "T03"
    old = {p.stem: openpyxl.load_workbook(p) for p in (turn_dir / "results").glob("*.xlsx")}
    ruleset = find_ruleset("star_sectors")
    data = load_scenario(ruleset.example_dir())["gm_input"]
    data["battles"][0]["pct_a"] = 50  # ALPHA loses half its fleet at C3 instead of three quarters
    requests = {s.key: pd.DataFrame(data.get(s.key, []), columns=s.keys()) for s in ruleset.gm_input_schemas}
    folder = CampaignFolder(root)
    folder.pending_dir(3).mkdir(parents=True, exist_ok=True)
    write_gm_input(folder.gm_input(3), ruleset, requests, 3, "ru")
    outcome = pipeline.run(root, reprocess=True)
    diffs = {d.faction: d for d in outcome.reprocess_diff or []}
    assert diffs["ALPHA"].cells and diffs["BETA"].cells
    assert diffs["GAMMA"].empty and diffs["BORYA"].empty
    for faction, diff in diffs.items():  # every changed cell listed, and only those
        new = openpyxl.load_workbook(turn_dir / "results" / f"{faction}.xlsx")
        actual = {(ws.title, c.coordinate) for ws in new.worksheets for row in ws.iter_rows() for c in row
                  if c.value != (old[faction][ws.title][c.coordinate].value if ws.title in old[faction].sheetnames
                                 else None)}
        assert {(s, c) for s, c, _, _ in diff.cells} == actual
    assert "ALPHA" in (turn_dir / "reprocess_diff.txt").read_text(encoding="utf-8")
