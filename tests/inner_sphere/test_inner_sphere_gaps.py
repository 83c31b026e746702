"""Inner Sphere: the GM-decided accident effect (A6, ``accident_effect = gm_table``), every cfg value of the
spec's table as a parameter, bread and circuses on a regiment aboard an own jumpship, and rumours reported
under the system they name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjudicator.engine.registry import find_ruleset
from adjudicator.turn import pipeline
from tests.helpers import make_campaign, sheet_rows, write_gm
from tests.inner_sphere.kit import W1_CHAIN, W1_LINKS, W1_REGIMENTS, W1_SYSTEMS, orders, problems_of, table, world_data

# The cfg values of the spec's table of GM-configurable values (§10), and where each lives when it is not a
# parameter of its own: a table of the package's data (tables.toml, overridable by the campaign), scenario
# data the GM enters in campaign.xlsx, or one parameter per value.
SPEC_CFG = (
    "money_decimals", "hex_layout", "adjacency_override", "auto_path", "accident_pct", "accident_effect",
    "refund_unexecuted", "reject_whole_chain", "retreat_tie", "embark_block_stops_chain",
    "raid_triggers_defence_fire", "load_in_disputed", "build_in_disputed", "ns_purchase_enabled",
    "ns_charge_can_go_negative", "units_per_line", "repair_exp_cost_mode", "repair_extra_turns",
    "repair_blocks_movement", "defence_upkeep_mode", "clamp_rolls", "detection_roll", "detected_commando_removed",
    "protection_timing", "attach_requires_roll", "military_sabotage_mode", "sabotage_commando_in_system_ok",
    "comm_protect_ops", "comm_sabotage_ops", "revolt_mod_sign", "revolt_no_troops", "silence_mode",
    "bread_10_mode", "aggravate_mod", "espionage_tiers", "research_die_floor", "lab_unlock_mode",
    "icna_rolls_per_turn", "research_levels", "new_factory_turns", "max_factories_per_system",
    "max_factory_stake", "dice_per_lab", "unrest_mods_apply_to", "icna_system", "factory_income",
    "disputed_income_factor", "discontent_income_factor",
)
ELSEWHERE = {
    "adjacency_override": "the campaign's Map links table (links)",
    "repair_extra_turns": "repair_extra_turns_green / _regular / _veteran / _elite",
    "research_levels": "tables.toml [research]",
    "factory_income": "tables.toml [factories.*] income (the Rule tables sheet changes it)",
    "icna_system": "the ICNA flag of the systems table",
    "espionage_tiers": "tables.toml [espionage] and [double_agent] (the Rule tables sheet changes them)",
}
# Named by the spec but with no alternative implemented: the ruling's reading is fixed (see the report).
FIXED = {"refund_unexecuted": False, "reject_whole_chain": True, "ns_purchase_enabled": False}


def test_every_cfg_value_of_the_spec_is_a_parameter_or_has_its_place() -> None:
    params = find_ruleset("inner_sphere").parameters().defaults()
    missing = [k for k in SPEC_CFG if k not in params and k not in ELSEWHERE and k not in FIXED]
    assert missing == []
    assert not set(FIXED) & set(params)
    assert params["discontent_income_factor"] == 1.0 and params["sabotage_commando_in_system_ok"] is False
    assert params["accident_effect"] == "none"
    for name in ("repair_extra_turns_green", "repair_extra_turns_regular", "repair_extra_turns_veteran",
                 "repair_extra_turns_elite"):
        assert name in params


# ------------------------------------------------------------------------------------ accident_effect
def _accident_campaign(tmp_path: Path, effect: str | None) -> Path:
    parameters: dict[str, Any] = {"accident_pct": 100}
    if effect is not None:
        parameters["accident_effect"] = effect
    data = world_data({"K": 1000, "D": 0}, [{**s, "income": 0} for s in W1_SYSTEMS], regiments=W1_REGIMENTS,
                      jumpships=[{"id": "N", "owner": "K", "class": "NS3", "hex": "0305"}],
                      research_points=[{"faction": "K", "line": "AERO", "points": 150}], links=W1_LINKS,
                      parameters=parameters)
    root = make_campaign(tmp_path / "c", data)
    orders(root, "K", {"movement": [{"ship": "N", **s} for s in W1_CHAIN]})
    orders(root, "D", {})
    return root


def test_accident_effect_none_resolves_at_once_and_harms_nothing(tmp_path: Path) -> None:
    root = _accident_campaign(tmp_path, None)
    done = pipeline.run(root)
    assert done.status == "resolved"
    assert {r["id"] for r in table(root, "regiments")} == {"J1", "J2", "J3", "V1", "V2", "V3", "A1"}
    assert table(root, "jumpships")[0]["hex"] == "0306"


@pytest.mark.parametrize(("result", "ships", "regiments", "damaged"), [
    ("NONE", ["N"], {"J1", "J2", "J3", "V1", "V2", "V3", "A1"}, set()),
    ("DAMAGED", ["N"], {"J1", "J2", "J3", "V1", "V2", "V3", "A1"}, {"V1", "V2", "V3"}),
    ("CARGO_LOST", ["N"], {"J1", "J2", "J3", "A1"}, set()),
    ("DESTROYED", [], {"J1", "J2", "J3", "A1"}, set()),
])
def test_accident_effect_gm_table_waits_for_the_gm_and_applies_the_verdict(
        tmp_path: Path, result: str, ships: list[str], regiments: set[str], damaged: set[str]) -> None:
    """AERO 150: safe 6, so the move to Archemar (step 7) has the accident, with V1–V3 aboard at Valexa."""
    root = _accident_campaign(tmp_path, "gm_table")
    assert problems_of(root) == set()
    first = pipeline.run(root)
    assert first.status == "waiting"
    rows = sheet_rows(first.gm_input, "Accidents", "es")
    assert rows[1][:6] == ["ACCIDENTE:N:7", "K", "N", "0306", 7, "V1, V2, V3"]  # the kind in the GM's words
    assert rows[1][6] == "" and len(rows) == 2
    write_gm(root, {"accidents": [{"id": "ACCIDENT:N:7", "result": result}]})
    done = pipeline.run(root)
    assert done.status == "resolved"
    assert [s["id"] for s in table(root, "jumpships")] == ships
    got = {r["id"]: r for r in table(root, "regiments")}
    assert set(got) == regiments
    assert {k for k, r in got.items() if r.get("damaged") == "YES"} == damaged
    report = " ".join(str(r) for r in sheet_rows(done.results["K"], "Informe", "es"))
    assert "N" in report and "0306" in report


def test_accident_row_without_result_or_unknown_is_reported_at_its_cell(tmp_path: Path) -> None:
    root = _accident_campaign(tmp_path, "gm_table")
    assert pipeline.run(root).status == "waiting"
    write_gm(root, {"accidents": [{"id": "ACCIDENT:N:7"}, {"id": "ACCIDENT:X:3", "result": "NONE"}]})
    again = pipeline.run(root)
    assert again.status == "waiting"
    cells = {(p.code, p.cell) for p in again.gm_problems if p.code == "E-GM"}
    assert cells == {("E-GM", "G2"), ("E-GM", "A3")}


def test_discontent_income_factor_scales_the_income_of_a_restless_system() -> None:
    import pandas as pd

    from adjudicator.rulesets.inner_sphere.data import tariffs
    from adjudicator.rulesets.inner_sphere.phases.economy import income_of
    from adjudicator.rulesets.inner_sphere.state import world_from_tables

    params = find_ruleset("inner_sphere").parameters().defaults()
    tables = {"factions": pd.DataFrame([{"id": "K", "treasury": 0}]),
              "systems": pd.DataFrame([{"hex": "0101", "name": "A", "owner": "K", "income": 100},
                                       {"hex": "0102", "name": "B", "owner": "K", "income": 40}]),
              "unrest": pd.DataFrame([{"hex": "0102", "civil": "YES", "military": "NO"}])}
    world = world_from_tables(tables)
    assert income_of(world, "K", tariffs(None), params).systems == 140
    assert income_of(world, "K", tariffs(None), {**params, "discontent_income_factor": 0.5}).systems == 120


# ------------------------------------------------------------------- 352 and the state's own jumpship chains
def test_352_commits_a_regiment_named_in_an_own_chain_and_the_chain_is_refused_regdup(tmp_path: Path) -> None:
    """Spec §4.3: E-MOV-REGDUP "regiment R is named in more than one ship's chain, or also in another sheet's
    order"; §5: 352 commits own regiments on the planet at the start of the turn. The 352 stands (paid 50 C),
    the Load row is refused at its Regiments cell, and the regiment stays on the planet."""
    data = world_data({"D": 1000}, [{"hex": "0101", "name": "A", "owner": "D", "income": 0},
                                    {"hex": "0102", "name": "B", "owner": "D", "income": 0}],
                      regiments=[{"id": "R1", "owner": "D", "type": "VL", "experience": "GREEN", "system": "0101"}],
                      jumpships=[{"id": "S", "owner": "D", "class": "NS2", "hex": "0101"}],
                      unrest=[{"hex": "0101", "civil": "YES"}], parameters={"accident_pct": 0})
    root = make_campaign(tmp_path / "c", data)
    orders(root, "D", {"movement": [{"ship": "S", "action": "START", "hexes": "0101"},
                                    {"ship": "S", "action": "LOAD", "regiments": "R1"},
                                    {"ship": "S", "action": "MOVE", "hexes": "0102"}],
                       "agency": [{"op": "352", "target": "0101", "status": "CIVIL", "regiments": "R1"}]})
    found = problems_of(root)
    assert [(c, f) for c, f, _ in found] == [("E-MOV-REGDUP", "D")]
    assert next(iter(found))[2].endswith("3")  # the Load row
    done = pipeline.run(root)
    assert done.status == "resolved"
    regiment = table(root, "regiments")[0]
    assert regiment["system"] == "0101" and not regiment.get("jumpship")


# --------------------------------------------------------------------------------- 354 rumour subject
@pytest.mark.parametrize(("text", "subject"), [
    ("Liao masses at Chara.", "Chara (0505)"),
    ("Troops leave 0103 for chara", "Hesperus (0103)"),  # the first system named, by hex or name
    ("Skyeward thoughts", "D"),  # no system named (a name must be a whole word): the state aimed at
])
def test_354_rumour_report_is_headed_by_the_system_it_names(text: str, subject: str) -> None:
    from adjudicator.rulesets.inner_sphere.orders.agency.common import Op
    from adjudicator.rulesets.inner_sphere.orders.agency.intel import rumour_subject
    from adjudicator.rulesets.inner_sphere.state import world_from_tables
    from tests.inner_sphere.kit import tables

    op = Op("K", 2, "354", "D")
    op.target, op.text = "D", text
    assert rumour_subject(world_from_tables(tables()), op) == subject


def test_sabotage_commando_in_system_ok_lets_a_commando_in_the_regiments_system_do_345() -> None:
    from tests.inner_sphere.kit import code, tables, turn

    frames = tables(commandos=[{"id": "KC", "owner": "K", "system": "0103", "established_turn": 1}])
    _, outcomes, _, _ = turn({"K": [{"op": "345", "target": "D1"}]}, {"agency:345:K:2": 9}, frames)
    assert code(outcomes, "K") == ("E-AG-NOCOM", "target")  # A29: an attached commando is required
    _, outcomes, result, _ = turn({"K": [{"op": "345", "target": "D1"}, {"op": "345", "target": "D2"}]},
                                  {"agency:345:K:2": 9}, frames, params={"sabotage_commando_in_system_ok": True})
    assert code(outcomes, "K", 2) == ("OK", "") and result.ops[0].commandos == ("KC",)
    assert code(outcomes, "K", 3) == ("E-AG-NOCOM", "target")  # D2 is at Skye, where K has no commando
