"""Inner Sphere, part 1: repairs, purchases, production, jumpship charges, research and the economy,
through real workbooks and turns (spec §2, §4.1, §4.2, §4.5, §6, §9, worked examples W1–W8)."""

from __future__ import annotations

import copy
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from adjudicator.engine.ledger import unreconciled
from adjudicator.i18n import gettext_in
from adjudicator.paths import examples_root
from adjudicator.rulesets.inner_sphere import hexmap
from adjudicator.rulesets.inner_sphere.data import bonuses, tariffs
from adjudicator.rulesets.inner_sphere.orders.common import ACCOUNT
from adjudicator.rulesets.inner_sphere.orders.repair import regiment_repair_cost, regiment_repair_turns
from adjudicator.scenario import load_scenario
from adjudicator.turn import pipeline
from tests.helpers import all_values, make_campaign, report_table, sheet_rows, state, write_gm
from tests.inner_sphere.kit import RULESET, orders, problems_of, table, treasury, world_data

PARAMS = RULESET.parameters().defaults()
EXAMPLE = examples_root() / "inner_sphere"


# ----------------------------------------------------------------------------------------- helpers




def resolve(root: Path) -> None:
    assert pipeline.run(root).status == "resolved"








# -------------------------------------------------------------------------- worked examples and tables
# W1-W8 are the ruleset's scenario cases (adjudicator/rulesets/inner_sphere/cases/w*.toml).
@pytest.mark.parametrize(("code", "green", "regular", "veteran", "elite"), [
    ("VL", 25, 25, 31.25, 37.5), ("VM", 50, 50, 62.5, 75), ("VH", 100, 100, 125, 150), ("VA", 150, 150, 187.5, 225),
    ("ML", 75, 75, 93.75, 112.5), ("MM", 125, 125, 156.25, 187.5), ("MH", 175, 175, 218.75, 262.5),
    ("MA", 250, 250, 312.5, 375),
])
def test_repair_cost_table_of_the_spec(code: str, green: float, regular: float, veteran: float, elite: float) -> None:
    purchase = tariffs(None).units[code].purchase
    got = [regiment_repair_cost(purchase, exp, PARAMS) for exp in ("GREEN", "REGULAR", "VETERAN", "ELITE")]
    assert got == [Decimal(str(v)) for v in (green, regular, veteran, elite)]
    assert all(isinstance(v, (int, Decimal)) for v in got)


def test_repair_cost_additive_mode_veteran_75_elite_100_percent() -> None:
    params = {**PARAMS, "repair_exp_cost_mode": "additive"}
    assert regiment_repair_cost(500, "VETERAN", params) == 375
    assert regiment_repair_cost(500, "ELITE", params) == 500


def test_repair_durations_own_and_disputed() -> None:
    own = [regiment_repair_turns(e, False, PARAMS) for e in ("GREEN", "REGULAR", "VETERAN", "ELITE")]
    disputed = [regiment_repair_turns(e, True, PARAMS) for e in ("GREEN", "REGULAR", "VETERAN", "ELITE")]
    assert own == [1, 2, 3, 3] and disputed == [2, 3, 4, 4]


def test_hex_geometry_odd_q() -> None:
    assert hexmap.distance("0305", "0407") == 2  # W1: expanded through 0306
    assert "0306" in hexmap.neighbours("0407") and "0407" not in hexmap.neighbours("0305")
    assert hexmap.distance("0100", "0700") == 6  # W4 Dieron → Kandis
    assert hexmap.neighbours("0202") == {"0201", "0203", "0101", "0301", "0102", "0302"}


def test_research_bonuses_add_up_and_percentages_take_the_highest() -> None:
    got = bonuses({"COMM": 600, "ECO": 600, "IND": 450, "AERO": 500})
    assert got["protect"] == 4 and got["research"] == 2 and got["regular_pct"] == 30
    assert got["income_pct"] == 40 and got["factory_income_pct"] == 75 and got["safe_hexes"] == 3
    assert got["fortress"] == 2 and got["new_factories"] == 0


# ----------------------------------------------------------------------------------- through turns


def test_repair_completes_and_regiment_keeps_its_experience(tmp_path: Path) -> None:
    regiments = [{"id": "R1", "owner": "A", "type": "VL", "experience": "VETERAN", "system": "0101", "damaged": "YES"}]
    root = make_campaign(tmp_path / "c", world_data({"A": 100}, regiments=regiments, parameters={
        "repair_extra_turns_veteran": 0}))
    orders(root, "A", {"repairs": [{"kind": "Regimiento", "target": "R1"}]})
    assert pipeline.run(root).status == "resolved"
    regiment = table(root, "regiments")[0]
    assert (regiment["damaged"], regiment["experience"]) == ("NO", "VETERAN")
    assert treasury(root, "A") == 100 - 31.25 - 2.5


def test_purchase_arrives_at_the_factory_system_when_its_turns_are_done(tmp_path: Path) -> None:
    """A heavy mech (5 turns) ordered in turn 3 exists from turn 8; each turn's report says so."""
    factories = [{"id": "F", "system": "0101", "type": "MEDIUM"}]
    root = make_campaign(tmp_path / "c", world_data({"A": 400}, turn=3, factories=factories))
    orders(root, "A", {"purchases": [{"kind": "Regimiento", "system": "0101", "unit_type": "Mechs Pesado",
                                      "name": "Hesperus Guard"}]})
    first = pipeline.run(root)
    assert treasury(root, "A") == 400 - 350 + 100  # a medium factory earns 100
    rows = sheet_rows(first.results["A"], "Report", "es")
    assert any(str(r[0]).startswith("Mechs Pesado, fábrica de S1, llega en el turno 8") for r in rows), rows
    for turn in (4, 5, 6, 7):
        orders(root, "A", {})
        assert pipeline.run(root).status == "resolved"
        assert table(root, "regiments") == [] if turn < 7 else True
    regiments = table(root, "regiments")
    assert [(r["name"], r["type"], r["system"], r["experience"]) for r in regiments] == [
        ("Hesperus Guard", "MH", "0101", "GREEN")]


def test_production_lines_light_one_medium_two_heavy_three(tmp_path: Path) -> None:
    factories = [{"id": "L", "system": "0101", "type": "LIGHT"}, {"id": "H", "system": "0102", "type": "HEAVY"}]
    systems = [{"hex": "0101", "name": "L", "owner": "A"}, {"hex": "0102", "name": "H", "owner": "A"}]
    root = make_campaign(tmp_path / "c", world_data({"A": 5000}, systems, factories=factories))
    buy = [{"kind": "Regimiento", "system": "0101", "unit_type": "VL"},
           {"kind": "Regimiento", "system": "0101", "unit_type": "VL"}] + [
        {"kind": "Regimiento", "system": "0102", "unit_type": "MA"} for _ in range(4)]
    orders(root, "A", {"purchases": buy})
    assert problems_of(root) == {("E-BUY-LINE", "A", "B3"), ("E-BUY-LINE", "A", "B7")}


def test_defence_levels_in_sequence_and_upkeep_of_the_current_level(tmp_path: Path) -> None:
    systems = [{"hex": "0101", "name": "A", "owner": "A", "defence": 1}]
    root = make_campaign(tmp_path / "c", world_data({"A": 500}, systems, parameters={}))
    orders(root, "A", {"purchases": [{"kind": "Defensa", "system": "0101", "level": 3},
                                     {"kind": "Defensa", "system": "0101", "level": 2},
                                     {"kind": "Defensa", "system": "0101"}]})
    assert problems_of(root) == {("E-DEF-SEQ", "A", "D2"), ("E-DEF-BUSY", "A", "B4")}
    resolve(root)
    assert treasury(root, "A") == 500 - 20 - 100  # level 1 upkeep, level 2 bought
    for _ in range(4):
        orders(root, "A", {})
        resolve(root)
    assert table(root, "systems")[0]["defence"] == 2
    assert treasury(root, "A") == 500 - 20 - 100 - 3 * 20 - 50  # level 2 pays from the turn it exists


def test_jumpships_pay_one_hex_minimum_even_into_debt_and_cannot_be_bought(tmp_path: Path) -> None:
    ships = [{"id": "N5", "owner": "A", "class": "NS5", "hex": "0101"}]
    root = make_campaign(tmp_path / "c", world_data({"A": 10}, jumpships=ships))
    orders(root, "A", {"purchases": [{"kind": "Nave de salto", "system": "0101"}]})
    assert problems_of(root) == {("E-BUY-NS", "A", "A2")}
    resolve(root)
    assert treasury(root, "A") == -30


def test_orders_are_paid_in_the_order_listed_and_what_cannot_be_paid_is_refused(tmp_path: Path) -> None:
    factories = [{"id": "F", "system": "0101", "type": "LIGHT"}]
    regiments = [{"id": "R", "owner": "A", "type": "MM", "experience": "GREEN", "system": "0101", "damaged": "YES"}]
    root = make_campaign(tmp_path / "c", world_data({"A": 205}, factories=factories, regiments=regiments,
                                                    labs=[{"faction": "A", "lab": 1, "line": "ECO"}]))
    # 205 + 50 income - 10 upkeep = 245: the repair (125) is paid, the purchase (150) is not, the dice (100) are.
    orders(root, "A", {"repairs": [{"kind": "Regimiento", "target": "R"}],
                       "purchases": [{"kind": "Regimiento", "system": "0101", "unit_type": "ML"}],
                       "research": [{"kind": "Tirada", "line": "Economía", "dice": 1}]})
    outcome = pipeline.check(root)
    funds = [p for s in outcome.submissions for p in s.problems if p.code == "E-FUNDS"]
    assert [(p.sheet, p.cell) for p in funds] == [("Compras", "A2")]
    assert funds[0].message.render("es").startswith("Fondos insuficientes")
    run = pipeline.run(root)
    assert treasury(root, "A") == 245 - 125 - 100  # the purchase cost nothing
    assert "Fondos insuficientes" in str(all_values(run.results["A"]))


def test_negative_treasury_refuses_every_order_that_costs_money(tmp_path: Path) -> None:
    regiments = [{"id": "R", "owner": "A", "type": "VL", "experience": "GREEN", "system": "0101", "damaged": "YES"}]
    root = make_campaign(tmp_path / "c", world_data({"A": -5}, regiments=regiments))
    orders(root, "A", {"repairs": [{"kind": "Regimiento", "target": "R"}]})
    assert problems_of(root) == {("E-FUNDS", "A", "A2")}


def test_income_with_industrial_and_economy_bonuses(tmp_path: Path) -> None:
    systems = [{"hex": "0101", "name": "A", "owner": "A", "income": 100},
               {"hex": "0102", "name": "B", "owner": "A", "income": 40, "disputed": "YES"}]
    factories = [{"id": "F1", "system": "0101", "type": "HEAVY"}, {"id": "F2", "system": "0102", "type": "LIGHT",
                                                                  "damaged": "YES"}]
    points = [{"faction": "A", "line": "IND", "points": 300}, {"faction": "A", "line": "ECO", "points": 450}]
    root = make_campaign(tmp_path / "c", world_data({"A": 0}, systems, factories=factories, research_points=points,
                                                    parameters={"disputed_income_factor": 0.5}))
    orders(root, "A", {})
    resolve(root)
    # (100 + 40 × 0.5 + 150 × 1.5) × 1.3; the damaged factory earns nothing
    assert treasury(root, "A") == pytest.approx((100 + 20 + 225) * 1.3)


def test_rule_tables_sheet_of_campaign_xlsx_changes_the_tables(tmp_path: Path) -> None:
    factories = [{"id": "F1", "system": "0101", "type": "LIGHT"}]
    regiments = [{"id": "R", "owner": "A", "type": "VL", "experience": "GREEN", "system": "0101"}]
    changes = [{"table": "factories", "row": "LIGHT", "column": "income", "value": 80},
               {"table": "regiments", "row": "VL", "column": "upkeep", "value": 4}]
    root = make_campaign(tmp_path / "c", world_data({"A": 0}, factories=factories, regiments=regiments,
                                                    rule_tables=changes))
    orders(root, "A", {})
    resolve(root)
    assert treasury(root, "A") == 76


# ------------------------------------------------------------------------------------------ research
def labs_for(faction: str, line: str, n: int) -> list[dict[str, Any]]:
    return [{"faction": faction, "lab": k, "line": line, "unlock_at": 100} for k in range(1, n + 1)]


def test_research_validations_at_their_cells(tmp_path: Path) -> None:
    systems = [{"hex": "0101", "name": "A", "owner": "A"}, {"hex": "0102", "name": "N", "owner": "B", "icna": "YES"}]
    root = make_campaign(tmp_path / "c", world_data(
        {"A": 5000, "B": 0}, systems, labs=[*labs_for("A", "ARM", 5)],
        research_points=[{"faction": "A", "line": "ARM", "points": 10, "opened": "YES"}]))
    lab_locked = {"kind": "Laboratorio", "lab": 1, "line": "ECO"}
    orders(root, "A", {"research": [
        lab_locked,
        {"kind": "Tirada", "line": "ECO", "dice": 1},
        {"kind": "Tirada", "line": "ARM", "dice": 5},
        {"kind": "Laboratorio", "lab": 2, "line": "ECO", "dismantle": "SI"},
        {"kind": "Tirada", "line": "ECO", "dice": 1},
        {"kind": "ICNA", "line": "ECO"},
        {"kind": "Nueva factoría", "system": "0101", "stake": 100},
        {"kind": "Tirada", "line": "ARM", "dice": 1},
    ]})
    assert problems_of(root) == {
        ("E-RES-LOCK", "A", "E2"), ("E-RES-DICE", "A", "D3"), ("E-RES-TOTAL", "A", "D6"), ("E-RES-ICNA", "A", "A7"),
        ("E-RES-FACLVL", "A", "A8"), ("E-RES-DICE", "A", "D9")}
    orders(root, "B", {})
    assert pipeline.run(root).status == "resolved"
    # 5 ARM dice 250 (opened), dismantle 150, nothing else
    assert treasury(root, "A") == 5000 - 250 - 150


def test_icna_die_is_a_plain_d10_and_does_not_open_the_line(tmp_path: Path) -> None:
    systems = [{"hex": "0101", "name": "New Avalon", "owner": "A", "icna": "YES"}]
    root = make_campaign(tmp_path / "c", world_data({"A": 500}, systems))
    orders(root, "A", {"research": [{"kind": "ICNA", "line": "AERO"}, {"kind": "ICNA", "line": "ECO"}]})
    assert problems_of(root) == {("E-RES-ICNA", "A", "A3")}
    outcome = pipeline.run(root)
    assert treasury(root, "A") == 400
    row = table(root, "research_points")[0]
    icna = next(r for r in your_dice(outcome.results["A"]) if r["key"].startswith("icna:A:"))
    assert (row["line"], row["points"], row["opened"]) == ("AERO", icna["total"], "NO")


def test_lab_unlocks_when_its_line_reaches_the_next_level(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", world_data(
        {"A": 500}, labs=[{"faction": "A", "lab": 1, "line": "ECO", "unlock_at": 150}],
        research_points=[{"faction": "A", "line": "ECO", "points": 150, "opened": "YES"}]))
    orders(root, "A", {"research": [{"kind": "Laboratorio", "lab": 1, "line": "ARM"}]})
    assert problems_of(root) == set()
    resolve(root)
    assert table(root, "labs")[0]["line"] == "ARM" and table(root, "labs")[0]["unlock_at"] == 100


def test_new_light_factory_at_industrial_500(tmp_path: Path) -> None:
    systems = [{"hex": "0101", "name": "A", "owner": "A"}, {"hex": "0102", "name": "B", "owner": "A"},
               {"hex": "0103", "name": "C", "owner": "A", "disputed": "YES"}]
    root = make_campaign(tmp_path / "c", world_data(
        {"A": 5000}, systems, factories=[{"id": "F", "system": "0102", "type": "LIGHT"}],
        research_points=[{"faction": "A", "line": "IND", "points": 500, "opened": "YES"}]))
    orders(root, "A", {"research": [{"kind": "Nueva factoría", "system": "0101", "stake": 2000},
                                    {"kind": "Nueva factoría", "system": "0102", "stake": 100},
                                    {"kind": "Nueva factoría", "system": "0103", "stake": 100},
                                    {"kind": "Nueva factoría", "system": "0101", "stake": 150}]})
    assert problems_of(root) == {("E-RES-FACSYS", "A", "F3"), ("E-RES-FACSYS", "A", "F4"),
                                 ("E-RES-STAKE", "A", "G5")}
    pipeline.run(root)  # 2000 staked = 100% chance
    assert [f["system"] for f in table(root, "factories")] == ["0101", "0102"]


def test_technology_sale_takes_effect_two_turns_later(tmp_path: Path) -> None:
    points = [{"faction": "S", "line": "COMM", "points": 210, "opened": "YES"}]
    root = make_campaign(tmp_path / "c", world_data({"S": 0, "B": 300}, research_points=points))
    for faction in ("S", "B"):
        orders(root, faction, {})
    write_gm(root, {"sales_agreed": [{"seller": "S", "buyer": "B", "line": "COMM", "price": 100}]})
    resolve(root)
    assert (treasury(root, "S"), treasury(root, "B")) == (100, 200)
    assert table(root, "sales")[0]["effective_turn"] == 3
    for _ in range(2):
        for faction in ("S", "B"):
            orders(root, faction, {})
        resolve(root)
    bought = {(r["faction"], r["line"]): r["points"] for r in table(root, "research_points")}
    assert bought[("B", "COMM")] == 210 and table(root, "sales") == []


def test_comm_research_makes_some_new_regiments_regular(tmp_path: Path) -> None:
    """COMM 600: d10 ≤ 3 → REGULAR; the roll is logged and decides."""
    factories = [{"id": "F", "system": "0101", "type": "LIGHT"}]
    points = [{"faction": "A", "line": "COMM", "points": 600}]
    root = make_campaign(tmp_path / "c", world_data({"A": 100}, factories=factories, research_points=points))
    orders(root, "A", {"purchases": [{"kind": "Regimiento", "system": "0101", "unit_type": "VL"}]})
    outcome = pipeline.run(root)
    roll = next(r for r in your_dice(outcome.results["A"]) if r["key"].startswith("recruits:"))
    assert table(root, "regiments")[0]["experience"] == ("REGULAR" if roll["total"] <= 3 else "GREEN")


def your_dice(path: Path) -> list[dict[str, Any]]:
    """A Spanish player's "Your dice" table: each roll's key and total."""
    key, total = gettext_in("es", "Roll key"), gettext_in("es", "Total")
    return [{"key": r[key], "total": r[total]} for r in report_table(path, "Your dice", "es")]


# ------------------------------------------------------------------------------------ the example
def test_example_check_reports_every_mistake_at_its_cell_in_spanish(tmp_path: Path) -> None:
    root = tmp_path / "ex"
    pipeline.new_campaign(RULESET, root, example=True)
    outcome = pipeline.check(root)
    found = {(s.faction, p.code, p.sheet, p.cell) for s in outcome.submissions for p in s.problems}
    assert found == {
        ("KURITA", "E-REP-NOTDAMAGED", "Reparación", "B4"), ("KURITA", "E-GEN-OWN", "Reparación", "B5"),
        ("KURITA", "E-BUY-FACTORY", "Compras", "C3"), ("KURITA", "E-BUY-LINE", "Compras", "B5"),
        ("KURITA", "E-DEF-SEQ", "Compras", "D6"), ("KURITA", "E-RES-ICNA", "Investigación", "A3"),
        ("DAVION", "E-REP-BUSY", "Reparación", "B2"), ("DAVION", "E-REP-LOC", "Reparación", "B4"),
        ("DAVION", "E-BUY-NS", "Compras", "A4"), ("DAVION", "E-RES-LOCK", "Investigación", "E6"),
        ("STEINER", "E-DEF-BUSY", "Compras", "B3"), ("STEINER", "E-RES-DICE", "Investigación", "D8"),
        ("LIAO", "E-REP-LOC", "Repairs", "B3"), ("LIAO", "E-BUY-SYS", "Purchases", "B2"),
        ("LIAO", "E-FUNDS", "Research", "A2"),
        ("DAVION", "W-MOV-PATH", "Movimiento", "D6"), ("STEINER", "E-MOV-NOTHERE", "Movimiento", "E3"),
        ("LIAO", "E-MOV-SHIP", "Jumpship movement", "A2"),
        ("KURITA", "E-AG-NOCOM", "Agencia", "B7"), ("DAVION", "E-AG-BRIBE", "Agencia", "F9"),
        ("STEINER", "E-AG-NOSTATUS", "Agencia", "G5"),
    }
    kurita = next(s for s in outcome.submissions if s.faction == "KURITA")
    assert next(p for p in kurita.problems if p.code == "E-REP-NOTDAMAGED").message.render("es") == \
        "El regimiento K2 no está dañado."


def fill_next_turn(root: Path, turn: int) -> None:
    """Orders for turns 6 and 7 of the example, written from the state the previous turn left."""
    current = state(root)
    regiments = current.tables["regiments"].to_dict("records")
    jobs = {j["item"] for j in current.tables["jobs"].to_dict("records")}
    for faction in sorted(current.factions):
        damaged = [r["id"] for r in regiments if r["owner"] == faction and r["damaged"] == "YES"
                   and r["id"] not in jobs and r.get("system")]
        labs = [lab for lab in current.tables["labs"].to_dict("records") if lab["faction"] == faction and lab["line"]]
        sheets: dict[str, list[dict[str, Any]]] = {"repairs": [{"kind": "Regimiento", "target": r} for r in damaged]}
        if labs:
            line = labs[0]["line"]
            sheets["research"] = [{"kind": "Tirada", "line": line, "dice": 1}]
        own = [s["hex"] for s in current.tables["systems"].to_dict("records") if s["owner"] == faction]
        sheets["purchases"] = [{"kind": "Regimiento", "system": own[turn % len(own)], "unit_type": "VL"}]
        orders(root, faction, sheets)


def test_three_turns_of_the_example_from_the_cli_reconcile(tmp_path: Path) -> None:
    from adjudicator.cli import main

    root = tmp_path / "ex"
    runner = CliRunner()
    assert runner.invoke(main, ["new", "inner_sphere", str(root), "--example"]).exit_code == 0
    opening = {f: exact_treasury(root, f) for f in state(root).factions}
    for turn in (5, 6, 7):
        if turn > 5:
            fill_next_turn(root, turn)
            assert runner.invoke(main, ["templates", str(root)]).exit_code == 0
        result = runner.invoke(main, ["run", str(root)])
        assert result.exit_code == 0, result.output
        assert state(root).turn == turn + 1
    # The campaign's ledger holds every change of every treasury over the three turns.
    ledger = state_ledger(root)
    closing = {f: exact_treasury(root, f) for f in opening}
    assert ACCOUNT == "treasury"
    for faction in opening:
        changes = sum((row[4] for row in ledger if row[2] == faction), Decimal(0))
        assert opening[faction] + changes == closing[faction], faction  # exact: Decimal, never float sums
    assert {row[0] for row in ledger} == {5, 6, 7}
    assert any(row[4] != row[4].to_integral_value() for row in ledger)  # 2.5 upkeeps, 31.25 repairs...
    lines = [_Line(row) for row in ledger]
    assert unreconciled({(f, ACCOUNT): opening[f] for f in opening}, lines,
                        {(f, ACCOUNT): closing[f] for f in opening}) == []


def exact_treasury(root: Path, faction: str) -> Decimal:
    frame = state(root).tables["factions"]
    return Decimal(str(next(r["treasury"] for r in frame.to_dict("records") if r["id"] == faction)))


class _Line:
    def __init__(self, row: list[Any]) -> None:
        self.faction, self.account, self.change, self.balance = row[2], ACCOUNT, row[4], row[5]


def state_ledger(root: Path) -> list[list[Any]]:
    """The campaign's ledger with its amounts read back as exact decimals (the workbook holds numbers)."""
    rows = sheet_rows(root / "campaign.xlsx", "Ledger", "es")
    assert all(isinstance(r[4], (int, float)) and isinstance(r[5], (int, float)) for r in rows[1:])
    return [[int(r[0]), r[1], r[2], r[3], Decimal(str(r[4])), Decimal(str(r[5]))] for r in rows[1:]]


def test_example_spanish_words_are_read(tmp_path: Path) -> None:
    data = copy.deepcopy(load_scenario(EXAMPLE))
    assert data["orders"]["KURITA"]["purchases"][0]["unit_type"] == "Mechs Asalto"
    column = RULESET.order_schemas[1].column("unit_type")
    lookup = column.choice_lookup()
    from adjudicator.i18n import fold

    assert lookup[fold("Mechs Pesado")] == "MH" and lookup[fold("Vehículos Ligero")] == "VL"
    experience = RULESET.state_schemas[2].column("experience").choice_lookup()
    assert experience[fold("Veterano")] == "VETERAN" and experience[fold("Élite")] == "ELITE"
    assert fold("Reparación") in RULESET.order_schemas[0].spellings()


def test_cost_preview_formulas_are_in_the_templates_adjudicator_templates_writes(tmp_path: Path) -> None:
    root = tmp_path / "ex"
    from adjudicator.cli import main

    pipeline.new_campaign(RULESET, root, example=True)
    assert RULESET.commands() == []  # no extra command: the ordinary `templates` decorates
    result = CliRunner().invoke(main, ["templates", str(root)])
    assert result.exit_code == 0, result.output
    import openpyxl

    path = root / "turns" / "T05" / "templates" / "KURITA.xlsx"
    wb = openpyxl.load_workbook(path)
    ws = wb["Compras"]
    assert str(ws["G2"].value).startswith("=IF($A2=\"\"") and "VLOOKUP" in str(ws["G2"].value)
    assert "SUM" in str(ws["H2"].value) and "_costs" in str(ws["I2"].value)
    assert wb["_costs"]["B1"].value == 1637.5  # 1200 + 560 income − 107.5 upkeep − 15 jumpship
    outcome = pipeline.check(root, [path])
    assert [s.problems.codes() for s in outcome.submissions] == [[]]
