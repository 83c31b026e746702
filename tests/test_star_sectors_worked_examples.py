"""Every worked example of the Star Sectors rules (spec §9, X1–X7), through real workbooks and turns."""

from __future__ import annotations

from pathlib import Path

from adjudicator.campaign import pipeline
from adjudicator.rulesets.star_sectors.phases.income import controllers
from adjudicator.rulesets.star_sectors.state import Square, World
from tests.helpers import (
    fleets_of,
    make_campaign,
    scenario,
    sheet_rows,
    state,
    treasuries,
    write_gm,
    write_orders,
)


def one_square_world(values: dict[str, int]) -> World:
    fleets = {(f, "A1"): v for f, v in values.items()}
    return World({"A1": Square("A1", 1, 1, 30)}, {f: 0 for f in values}, fleets)


def test_x1_fifty_against_seven_alpha_controls() -> None:
    assert controllers(one_square_world({"ALPHA": 50, "BETA": 7}), 50) == {"A1": "ALPHA"}


def test_x1_edge_forty_nine_controls_nothing() -> None:
    assert controllers(one_square_world({"ALPHA": 49}), 50) == {}


def test_x2_three_states_at_fifty_or_more_nobody_controls() -> None:
    assert controllers(one_square_world({"ALPHA": 55, "BETA": 67, "BORYA": 17}), 50) == {}


def test_x5_battle_losses_and_control(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", scenario(
        {"ALPHA": 0, "BETA": 0}, [("ALPHA", "B2", 1000), ("BETA", "B2", 50)]))
    write_orders(root, "ALPHA", [])
    write_orders(root, "BETA", [])
    first = pipeline.run(root)
    assert first.status == "waiting"
    battles = sheet_rows(first.gm_input, "Battles")
    assert battles[1][:2] == ["ALPHA", "BETA"]
    write_gm(root, {"battles": [{"faction_a": "ALPHA", "faction_b": "BETA", "winner": "BETA", "pct_a": 75,
                                 "pct_b": 25}]})
    outcome = pipeline.run(root)
    assert outcome.status == "resolved"
    assert fleets_of(root) == {("ALPHA", "B2"): 963}  # 1000 - floor(0.75 * 50); Beta loses 125 of 50
    assert treasuries(root) == {"ALPHA": 10, "BETA": 0}  # Alpha receives the square's income
    report = sheet_rows(outcome.results["BETA"], "Report")
    battle_row = next(r for r in report if r[:3] == ["ALPHA", "BETA", "B2"])
    assert battle_row[3:] == [1000, 50, "BETA", 75, 25, 37, 125]


def test_x3_payment_during_the_turn_makes_the_gizmo_usable_next_turn(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", scenario(
        {"ALPHA": 1500}, [("ALPHA", "A1", 100)], turn=4,
        projects=[{"project": "ALPHA-T03-1", "faction": "ALPHA", "description": "gizmo", "status": "FEASIBLE",
                   "price": 1000, "paid": 0, "origin": "RESEARCH"}]))
    write_orders(root, "ALPHA", [])
    write_gm(root, {"payments": [{"faction": "ALPHA", "project": "ALPHA-T03-1", "amount": 1000,
                                  "timing": "BEFORE_INCOME"}]})
    outcome = pipeline.run(root, stop_for_gm=True)
    assert outcome.status == "resolved"
    project = state(root).tables["projects"].to_dict("records")[0]
    assert (project["status"], project["paid"], project["available_from"]) == ("PAID", 1000, 5)
    assert treasuries(root)["ALPHA"] == 1500 - 1000 + 10
    report = sheet_rows(outcome.results["ALPHA"], "Report")
    start = report.index(["Components usable from next turn"] + [""] * (len(report[0]) - 1))
    assert report[start + 2][:2] == ["ALPHA", "ALPHA-T03-1"]


def test_x3_payment_after_income_is_refused_e12(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", scenario(
        {"ALPHA": 1500}, [("ALPHA", "A1", 100)],
        projects=[{"project": "P", "faction": "ALPHA", "description": "gizmo", "status": "FEASIBLE",
                   "price": 1000, "paid": 0}]))
    write_orders(root, "ALPHA", [])
    write_gm(root, {"payments": [{"faction": "ALPHA", "project": "P", "amount": 1000, "timing": "AFTER_INCOME"}]})
    outcome = pipeline.run(root)
    assert outcome.status == "waiting"
    assert [(p.code, p.cell) for p in outcome.gm_problems] == [("E12", "D2")]


def test_x4_into_the_enemy_square_yes_onward_no(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", scenario(
        {"ALPHA": 0, "BETA": 0}, [("ALPHA", "A1", 100), ("BETA", "B1", 60)]))
    write_orders(root, "ALPHA", [{"order": "MOVE", "square": "A1", "to": "B1", "amount": 100}])
    write_orders(root, "BETA", [])
    write_gm(root, {"battles": [{"faction_a": "ALPHA", "faction_b": "BETA", "winner": "DRAW", "pct_a": 0,
                                 "pct_b": 0}]})
    assert pipeline.run(root).status == "resolved"
    assert fleets_of(root) == {("ALPHA", "B1"): 100, ("BETA", "B1"): 60}
    write_orders(root, "ALPHA", [{"order": "MOVE", "square": "B1", "to": "C1", "amount": 50}])
    write_orders(root, "BETA", [])
    checked = pipeline.check(root)
    alpha = next(s for s in checked.submissions if s.faction == "ALPHA")
    assert [(p.code, p.cell) for p in alpha.problems] == [("E03", "B2")]


def test_x6_feasibility_fee_refunded_only_when_too_specific(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", scenario(
        {"ALPHA": 100}, [("ALPHA", "A1", 10)]))
    write_orders(root, "ALPHA", [
        {"order": "FEASIBILITY", "description": "a gun like the ordinary one, only bigger"},
        {"order": "FEASIBILITY", "description": "a weapon with 95% accuracy and 40 damage"},
        {"order": "FEASIBILITY", "description": "a teleporter"},
    ])
    write_gm(root, {"feasibility": [
        {"project": "ALPHA-T01-1", "answer": "FEASIBLE", "price": 700},
        {"project": "ALPHA-T01-2", "answer": "REJECTED"},
        {"project": "ALPHA-T01-3", "answer": "INFEASIBLE"},
    ]})
    assert pipeline.run(root).status == "resolved"
    projects = {r["project"]: r for r in state(root).tables["projects"].to_dict("records")}
    assert {k: (v["status"], v["price"]) for k, v in projects.items()} == {
        "ALPHA-T01-1": ("FEASIBLE", 700), "ALPHA-T01-2": ("REJECTED", 0), "ALPHA-T01-3": ("INFEASIBLE", 0)}
    assert treasuries(root)["ALPHA"] == 100 - 30 + 10  # three fees, one refunded (A13); no income below 50R


def test_feasibility_without_answer_waits_for_the_gm(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", scenario({"ALPHA": 100}, [("ALPHA", "A1", 10)]))
    write_orders(root, "ALPHA", [{"order": "FEASIBILITY", "description": "a bigger gun"}])
    outcome = pipeline.run(root)
    assert outcome.status == "waiting"
    assert sheet_rows(outcome.gm_input, "Feasibility")[1][:2] == ["ALPHA-T01-1", "ALPHA"]


def test_x7_superkiller_stolen_in_turn_2_usable_in_turn_3(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", scenario(
        {"ALPHA": 0, "BETA": 600}, [("ALPHA", "A1", 100), ("BETA", "B1", 100)],
        projects=[{"project": "ALPHA-T00-1", "faction": "ALPHA", "description": "Superkiller 2000",
                   "status": "PAID", "price": 1000, "paid": 1000, "available_from": 1}]))
    # Turn 1: Alpha fields the Superkiller against Beta.
    write_orders(root, "ALPHA", [{"order": "MOVE", "square": "A1", "to": "B1", "amount": 100}])
    write_orders(root, "BETA", [{"order": "THEFT", "project": "ALPHA-T00-1", "victim": "ALPHA"}])
    checked = pipeline.check(root)
    beta = next(s for s in checked.submissions if s.faction == "BETA")
    assert [p.code for p in beta.problems] == ["E09"]  # not yet used in battle
    write_orders(root, "BETA", [])
    write_gm(root, {"battles": [{"faction_a": "ALPHA", "faction_b": "BETA", "winner": "DRAW", "pct_a": 0,
                                 "pct_b": 0}],
                    "components": [{"faction": "ALPHA", "project": "ALPHA-T00-1", "opponent": "BETA"}]})
    assert pipeline.run(root).status == "resolved"
    # Turn 2: Beta steals it openly for half its price.
    write_orders(root, "ALPHA", [])
    write_orders(root, "BETA", [{"order": "THEFT", "project": "ALPHA-T00-1", "victim": "ALPHA"}])
    write_gm(root, {"battles": [{"faction_a": "ALPHA", "faction_b": "BETA", "winner": "DRAW", "pct_a": 0,
                                 "pct_b": 0}]})
    outcome = pipeline.run(root)
    assert outcome.status == "resolved"
    stolen = next(r for r in state(root).tables["projects"].to_dict("records") if r["faction"] == "BETA")
    assert (stolen["origin"], stolen["source"], stolen["price"], stolen["status"], stolen["available_from"]) == (
        "THEFT", "ALPHA-T00-1", 500, "PAID", 3)
    assert treasuries(root)["BETA"] == 600 - 500
    for faction in ("ALPHA", "BETA"):  # the theft is announced to everyone
        report = sheet_rows(outcome.results[faction], "Report")
        assert ["BETA", "ALPHA-T00-1", "ALPHA"] in [r[:3] for r in report]
    # Turn 3: stealing it again is refused (E10).
    write_orders(root, "BETA", [{"order": "THEFT", "project": "ALPHA-T00-1", "victim": "ALPHA"}])
    checked = pipeline.check(root)
    beta = next(s for s in checked.submissions if s.faction == "BETA")
    assert [p.code for p in beta.problems] == ["E10"]
