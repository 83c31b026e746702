"""Galactic War through real workbooks and turns: movement, space battles, invasions, placement (spec §5–§7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjudicator.dice import Dice
from adjudicator.rulesets.galactic_war.combat import Contest, Member, Side, fight, parse_retreat
from adjudicator.rulesets.galactic_war.orders.move import parse_free_text
from adjudicator.turn import pipeline
from tests.galactic_war.kit import gw, orders, transport_capacity, units
from tests.helpers import make_campaign, report_table, state, write_gm

# A line of systems 1-2-3-4-5 with 6 beside 3; alpha wormholes at 1 and 5.




def combat(**values: int) -> list[dict[str, object]]:
    """Rows of the Rule tables sheet that change the combat value of unit types."""
    return [{"table": "units", "row": kind, "column": "combat", "value": v} for kind, v in values.items()]




def run(tmp_path: Path, data: dict[str, Any], sheets: dict[str, dict[str, list[dict[str, Any]]]],
        gm: dict[str, list[dict[str, Any]]] | None = None) -> tuple[Path, pipeline.RunOutcome]:
    root = make_campaign(tmp_path / "c", data)
    for faction in ("ALPHA", "BETA", "GAMMA"):
        orders(root, faction, sheets.get(faction, {}))
    write_gm(root, gm or {})  # the turn waits for the Rulers' purchase list, even an empty one
    outcome = pipeline.run(root)
    assert outcome.status == "resolved", outcome.status
    return root, outcome




def credits(root: Path) -> dict[str, int]:
    return {r["id"]: int(r["credits"]) for r in state(root).tables["factions"].to_dict("records")}


def owners(root: Path) -> dict[str, Any]:
    return {r["planet"]: r for r in state(root).tables["planets"].to_dict("records")}


def check_codes(tmp_path: Path, data: dict[str, Any], faction: str, sheets: dict[str, list[dict[str, Any]]]
                ) -> list[tuple[str, str | None]]:
    root = make_campaign(tmp_path / "chk", data)
    orders(root, faction, sheets)
    outcome = pipeline.check(root)
    return [(p.code, p.cell) for s in outcome.submissions for p in s.problems]


def rolls(outcome: pipeline.RunOutcome, faction: str) -> list[dict[str, Any]]:
    """The rows of the faction's "Battle rounds" report table, read under their headers; none when the table
    holds only its "(none)" line."""
    rows = report_table(outcome.results[faction], "Battle rounds")
    return [] if [r["System"] for r in rows] == ["(none)"] else rows


# ------------------------------------------------------------------------------------ W1 and G3
# W1's readings and its two outcomes (both "do not attack", one alone) are the ruleset's cases w1_*.toml.
def test_w1_the_documents_example_order_parses() -> None:
    prefix, wanted, systems, dna = parse_free_text("G: крейсер – 7 – 1. Не атаковать")
    assert (prefix, [(w.unit_type, w.count) for w in wanted], systems, dna) == ("G", [("CRUISER", 1)], ["7", "1"], True)


# ------------------------------------------------------------------------------ movement checks
@pytest.mark.parametrize(("row", "code", "cell"), [
    ({"origin": "2", "units": "B1", "path": "3"}, "MV01", "C2"),
    ({"origin": "2", "units": "A1", "path": "4"}, "MV03", "D2"),
    ({"origin": "2", "units": "A3", "path": "3-4"}, "MV04", "D2"),
    ({"origin": "2", "units": "A4", "path": "3"}, "MV05", "C2"),
    ({"origin": "2", "units": "A1", "path": "3-4"}, "MV06", "D2"),
    ({"origin": "2", "units": "A2", "path": "3", "pickups": "3:A5,A6,A7"}, "MV07", "F2"),
    ({"origin": "2", "units": "A1", "path": "9"}, "MV08", "D2"),
    ({"text": "nothing readable"}, "MV09", "A2"),
])
def test_movement_rows_are_checked_at_their_cells(tmp_path: Path, row: dict[str, Any], code: str, cell: str) -> None:
    data = gw([("A1", "ALPHA", "CRUISER", "2"), ("A2", "ALPHA", "TRANSPORT", "2"), ("A3", "ALPHA", "DREADNOUGHT", "2"),
               ("A4", "ALPHA", "FIGHTER", "2"), ("B1", "BETA", "CRUISER", "3"), ("A5", "ALPHA", "GF", "4/P4")],
              planets=[{"planet": "P4", "system": "4", "resources": 1, "owner": "ALPHA"}],
              rule_tables=[transport_capacity(1)])
    assert check_codes(tmp_path, data, "ALPHA", {"moves": [row]}) == [(code, cell)]


def test_a_unit_ordered_twice_is_m02_and_the_row_is_rejected_whole(tmp_path: Path) -> None:
    data = gw([("A1", "ALPHA", "CRUISER", "2")])
    codes = check_codes(tmp_path, data, "ALPHA", {"moves": [{"origin": "2", "units": "A1", "path": "3"},
                                                            {"origin": "2", "units": "A1", "path": "1"}]})
    assert codes == [("MV02", "C3")]


def test_same_type_wormholes_are_neighbours_for_movement(tmp_path: Path) -> None:
    root, _ = run(tmp_path, gw([("A1", "ALPHA", "TRANSPORT", "1")]),
                  {"ALPHA": {"moves": [{"origin": "1", "units": "Transport", "path": "5"}]}})
    assert units(root)["A1"]["system"] == "5"


def test_a_transport_picks_up_on_its_way_and_cargo_moves_with_it(tmp_path: Path) -> None:
    data = gw([("T1", "ALPHA", "TRANSPORT", "2"), ("G1", "ALPHA", "GF", "2/P2"), ("F1", "ALPHA", "FIGHTER", "2"),
               ("G0", "ALPHA", "GF", "2>T1")],
              planets=[{"planet": "P2", "system": "2", "resources": 1, "owner": "ALPHA"}])
    root, _ = run(tmp_path, data, {"ALPHA": {"moves": [{"origin": "2", "units": "T1", "path": "3",
                                                        "pickups": "2:G1, F1"}]}})
    moved = units(root)
    assert {moved[u]["system"] for u in ("T1", "G1", "F1", "G0")} == {"3"}
    assert moved["G1"]["aboard"] == "T1" and not moved["G1"]["planet"]


def test_moves_are_simultaneous_crossing_fleets_do_not_fight(tmp_path: Path) -> None:
    data = gw([("A1", "ALPHA", "CRUISER", "2"), ("B1", "BETA", "CRUISER", "3")])
    root, outcome = run(tmp_path, data, {"ALPHA": {"moves": [{"origin": "2", "units": "A1", "path": "3"}]},
                                         "BETA": {"moves": [{"origin": "3", "units": "B1", "path": "2"}]}})
    assert (units(root)["A1"]["system"], units(root)["B1"]["system"]) == ("3", "2")
    assert rolls(outcome, "ALPHA") == []


# -------------------------------------------------------------------------------- space battles
def test_battle_trophies_retreat_and_every_roll_logged(tmp_path: Path) -> None:
    # Deterministic whatever the dice: Dreadnoughts and Fighters hit on 1+, Cruisers and Transports on 11+ (never).
    data = gw([("D1", "ALPHA", "DREADNOUGHT", "2"), ("D2", "ALPHA", "DREADNOUGHT", "2"),
               ("B1", "BETA", "CRUISER", "3"), ("B2", "BETA", "CRUISER", "3"), ("B3", "BETA", "CRUISER", "3"),
               ("B4", "BETA", "FIGHTER", "3"), ("B5", "BETA", "TRANSPORT", "3")])
    data["tables"]["rule_tables"] = combat(DREADNOUGHT=1, FIGHTER=1, CRUISER=11, TRANSPORT=11)
    root, outcome = run(tmp_path, data, {
        "ALPHA": {"moves": [{"origin": "2", "units": "D1, D2", "path": "3"}]},
        "BETA": {"battle_plan": [{"scope": "ALL", "retreat_if": "OWN_SHIPS<=2", "retreat_to": "6"}]}})
    # Round 1: Alpha hits twice (B4, then B1: Fighter, then Cruiser), B4 hits once (D1). Beta keeps 3 ships.
    # Round 2: D2 hits B2; Beta misses; Beta has 2 ships left and declares its retreat. Round 3: only D2 fires
    # (B3); B5 leaves for 6. Alpha holds 3 and earns 2 credits for each of B1, B2, B3 (none for the Fighter).
    after = units(root)
    assert {u: after[u]["system"] for u in after} == {"D2": "3", "B5": "6"}
    assert credits(root) == {"ALPHA": 6, "BETA": 0, "GAMMA": 0}
    battle = next(r for r in report_table(outcome.results["BETA"], "Space battles") if r["System"] == "3")
    assert ([battle[h] for h in ("Attacker", "Defender", "Result", "Winner", "Trophies", "Retreats")]
            == ["ALPHA", "BETA", "the attacker holds the system", "ALPHA", 6, "BETA→6"])
    lost = [(r["Round"], r["Race"], r["Unit"]) for r in rolls(outcome, "BETA") if str(r["Unit"]).startswith("lost")]
    assert lost == [(1, "ALPHA", "lost: D1"), (1, "BETA", "lost: B4, B1"), (2, "BETA", "lost: B2"),
                    (3, "BETA", "lost: B3")]
    purposes = sorted(r.purpose for r in outcome_dice(root))
    assert purposes == sorted(
        [f"battle:3:1:r1:{race}:{u}" for race, us in (("ALPHA", "D1 D2"), ("BETA", "B1 B2 B3 B4 B5"))
         for u in us.split()]
        + [f"battle:3:1:r2:{race}:{u}" for race, us in (("ALPHA", "D2"), ("BETA", "B2 B3 B5")) for u in us.split()]
        + ["battle:3:1:r3:ALPHA:D2"])


def outcome_dice(root: Path) -> list[Any]:
    """The rolls of the master workbook's dice log (turn, what the roll decides, key, dice, faces, total)."""
    from types import SimpleNamespace

    from tests.helpers import all_values

    return [SimpleNamespace(purpose=row[2]) for sheet in all_values(root / "campaign.xlsx").values() for row in sheet
            if len(row) > 3 and str(row[2]).startswith(("battle:", "invasion:"))]


def test_same_seed_same_battles(tmp_path: Path) -> None:
    data = gw([("A1", "ALPHA", "CRUISER", "2"), ("A2", "ALPHA", "DREADNOUGHT", "2"), ("B1", "BETA", "CRUISER", "3"),
               ("B2", "BETA", "FIGHTER", "3")])
    sheets = {"ALPHA": {"moves": [{"origin": "2", "units": "A1, A2", "path": "3"}]}}
    _, first = run(tmp_path / "a", data, sheets)
    _, second = run(tmp_path / "b", data, sheets)
    assert rolls(first, "ALPHA") == rolls(second, "ALPHA") != []


def fixed_roller(faces: dict[int, list[int]]):  # noqa: ANN201
    def roll(round_no: int, side: str, shots: tuple[tuple[str, int], ...]) -> list[int]:
        return [faces.get(round_no, [1])[0]] * len(shots) if side == "A" else [1] * len(shots)
    return roll


def test_casualties_follow_the_owners_priority_list() -> None:
    attacker = Side("A", (Member("a1", "CRUISER", 7),))
    defender = Side("D", (Member("f1", "FIGHTER", 9, fighter=True), Member("c1", "CRUISER", 7),
                          Member("d1", "DREADNOUGHT", 5)))
    fought = fight(Contest("space", attacker, defender, max_rounds=2), fixed_roller({1: [10], 2: [10]}))
    assert [r.defender_lost for r in fought.rounds if r.round_no >= 1] == [["f1"], ["c1"]]


def test_defender_retreat_round_only_the_attacker_fires() -> None:
    attacker = Side("A", (Member("a1", "CRUISER", 7), Member("a2", "CRUISER", 7)))
    defender = Side("D", (Member("d1", "CRUISER", 7), Member("d2", "CRUISER", 7)),
                    retreat_if=parse_retreat("AFTER_ROUND 1"), can_retreat=True, immediate_retreat=False)
    fought = fight(Contest("space", attacker, defender), fixed_roller({1: [1], 2: [1]}))
    assert [(r.round_no, len(r.attacker_rolls), len(r.defender_rolls)) for r in fought.rounds] == [
        (0, 0, 0), (1, 2, 2), (2, 2, 0)]
    assert fought.end.defender_left and fought.end.outcome == "ATTACKER_HOLDS"


def test_hits_beyond_the_targets_are_lost_and_cargo_dies_with_its_transport(tmp_path: Path) -> None:
    data = gw([("D1", "ALPHA", "DREADNOUGHT", "2"), ("D2", "ALPHA", "DREADNOUGHT", "2"),
               ("D3", "ALPHA", "DREADNOUGHT", "2"), ("T1", "BETA", "TRANSPORT", "3"), ("G1", "BETA", "GF", "3>T1")],
              seed=3)
    data["tables"]["rule_tables"] = combat(DREADNOUGHT=1, TRANSPORT=11)
    root, outcome = run(tmp_path, data, {"ALPHA": {"moves": [{"origin": "2", "units": "Dreadnought x3",
                                                              "path": "3"}]}})
    after = units(root)
    assert sorted(after) == ["D1", "D2", "D3"]  # three hits, one target: T1 and the GF aboard it
    assert [r["Unit"] for r in rolls(outcome, "ALPHA") if str(r["Unit"]).startswith("lost")] == ["lost: T1"]
    assert credits(root)["ALPHA"] == 2


# ----------------------------------------------------------------------------------- invasions
def invasion_data(defenders: list[tuple[str, str, str, str]], techs: dict[str, str] | None = None,
                  dock: bool = True) -> dict[str, Any]:
    return gw([("T1", "ALPHA", "TRANSPORT", "3"), ("G1", "ALPHA", "GF", "3>T1"), ("G2", "ALPHA", "GF", "3>T1"),
               ("G3", "ALPHA", "GF", "3>T1"), ("P1", "ALPHA", "PDS", "3>T1"), ("F1", "ALPHA", "FIGHTER", "3>T1"),
               ("N1", "ALPHA", "DREADNOUGHT", "3"), *defenders],
              planets=[{"planet": "MARS", "system": "3", "resources": 2, "owner": "BETA", "dock": "Y" if dock else None,
                        "dock_built": 0}], techs=techs)


def test_invasion_conquers_destroys_pds_and_dock_and_shows_the_odds(tmp_path: Path) -> None:
    data = invasion_data([("B1", "BETA", "PDS", "3/MARS")])  # no defending GF: falls if a GF survives the PDS
    data["tables"]["rule_tables"] = combat(PDS=11)  # the PDS cannot hit: the outcome is certain
    root, outcome = run(tmp_path, data, {"ALPHA": {"invasions": [{"system": "3", "planet": "MARS",
                                                                  "land": "G1, G2, G3, P1"}]}})
    planet = owners(root)["MARS"]
    after = units(root)
    assert (planet["owner"], planet["dock"]) == ("ALPHA", None)
    assert "B1" not in after and {u: after[u]["planet"] for u in ("G1", "G2", "G3", "P1")} == dict.fromkeys(
        ("G1", "G2", "G3", "P1"), "MARS")
    assert "MARS conquered (chance beforehand: 100.0%)." in results_text(outcome, "ALPHA")
    assert [r.purpose for r in outcome_dice(root)] == ["invasion:MARS:ALPHA:2:pds:BETA:B1"]


def test_invasion_fails_against_pds_that_destroy_the_landing(tmp_path: Path) -> None:
    data = invasion_data([("B1", "BETA", "PDS", "3/MARS"), ("B2", "BETA", "PDS", "3/MARS")])
    data["tables"]["rule_tables"] = combat(PDS=1)  # every PDS shot hits
    root, outcome = run(tmp_path, data, {"ALPHA": {"invasions": [{"system": "3", "planet": "MARS",
                                                                  "land": "G1, G2, P1"}]}})
    after = units(root)
    assert owners(root)["MARS"]["owner"] == "BETA" and owners(root)["MARS"]["dock"] == "Y"
    assert [u for u in ("G1", "G2", "P1", "B1", "B2") if u in after] == ["B1", "B2"]  # the landed PDS too
    assert "The invasion of MARS failed (chance beforehand: 0.0%)." in results_text(outcome, "ALPHA")


def test_check_shows_the_exact_chance_beside_the_invasion(tmp_path: Path) -> None:
    data = invasion_data([("B1", "BETA", "GF", "3/MARS")])
    codes = check_codes(tmp_path, data, "ALPHA", {"invasions": [{"system": "3", "planet": "MARS", "land": "G1"}]})
    assert codes == [("I00", "E2")]


@pytest.mark.parametrize(("row", "code", "techs"), [
    ({"land": "F1, G1"}, "I02", {}),
    ({"land": "G1", "bombard": "N1"}, "I03", {}),
    ({"land": "P1"}, "I05", {}),
    ({"land": "G9"}, "I01", {}),
])
def test_invasion_rules_refuse_rows(tmp_path: Path, row: dict[str, Any], code: str, techs: dict[str, str]) -> None:
    data = invasion_data([("B1", "BETA", "PDS", "3/MARS"), ("B2", "BETA", "GF", "3/MARS")], techs)
    root, outcome = run(tmp_path, data, {"ALPHA": {"invasions": [{"system": "3", "planet": "MARS", **row}]}})
    assert owners(root)["MARS"]["owner"] == "BETA"
    assert fragment[code] in results_text(outcome, "ALPHA")


fragment = {"I02": "Antigraviton", "I03": "cannot bomb MARS: the planet is protected by PDS",
            "I05": "needs at least one Ground Force", "I01": "are not aboard a Transport", "I04": "enemy ships remain"}


def results_text(outcome: pipeline.RunOutcome, faction: str) -> str:
    from tests.helpers import all_values

    return " ".join(str(c) for sheet in all_values(outcome.results[faction]).values() for row in sheet for c in row)


def test_invasion_impossible_while_the_owner_has_ships_there(tmp_path: Path) -> None:
    data = invasion_data([("B1", "BETA", "GF", "3/MARS")])
    data["settings"]["seed"] = 1
    data["tables"]["units"].append({"id": "BX", "race": "BETA", "type": "CRUISER", "system": "3"})
    root, _ = run(tmp_path, data, {"ALPHA": {"stance": [{"system": "3", "dna": "Y"}],
                                             "invasions": [{"system": "3", "planet": "MARS", "land": "G1"}]},
                                   "BETA": {"stance": [{"system": "3", "dna": "Y"}]}})
    assert owners(root)["MARS"]["owner"] == "BETA" and "G1" in units(root)


# ----------------------------------------------------------------------------------- placement
def test_placement_at_docks_limits_blockade_and_new_docks(tmp_path: Path) -> None:
    data = gw([("B1", "BETA", "CRUISER", "4")],
              planets=[{"planet": "HOME", "system": "2", "resources": 2, "owner": "ALPHA", "dock": "Y",
                        "dock_built": 0},
                       {"planet": "NEW", "system": "1", "resources": 3, "owner": "ALPHA"},
                       {"planet": "FAR", "system": "4", "resources": 5, "owner": "ALPHA", "dock": "Y",
                        "dock_built": 0}])
    _, outcome = run(tmp_path, data, {}, gm={"purchases": [
        {"race": "ALPHA", "type": "CRUISER", "count": 2, "planet": "HOME"},
        {"race": "ALPHA", "type": "GF", "count": 1, "planet": "HOME"},      # P02: 3 > 2
        {"race": "ALPHA", "type": "DOCK", "count": 1, "planet": "NEW"},
        {"race": "ALPHA", "type": "GF", "count": 1, "planet": "NEW"},       # P01: built this turn
        {"race": "ALPHA", "type": "CRUISER", "count": 1, "planet": "FAR"},  # P03: Beta blockades 4
        {"race": "ALPHA", "type": "GF", "count": 1, "planet": "FAR"},       # planetary units are not blockaded
        {"race": "ALPHA", "type": "DOCK", "count": 1, "planet": "HOME"},    # P04: already a dock
    ]})
    assert [p.code for p in outcome.gm_problems] == ["P02", "P01", "P03", "P04"]
    root = tmp_path / "c"
    placed = [u for u in units(root).values() if u["race"] == "ALPHA"]
    assert sorted((u["type"], u["system"]) for u in placed) == [("CRUISER", "2"), ("CRUISER", "2"), ("GF", "4")]
    assert owners(root)["NEW"]["dock"] == "Y" and owners(root)["NEW"]["dock_built"] == 2


def test_dice_purposes_do_not_depend_on_processing_order() -> None:
    dice = Dice(5, 1)
    a = dice.d(10, "battle:3:1:r1:ALPHA:A1")
    assert Dice(5, 1).d(10, "battle:3:1:r1:ALPHA:A1") == a
