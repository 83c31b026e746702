"""The bundled examples' GM input shows each asked row as a run writes it: the scenario's answers sit on
the rows the turn asks, beside what the turn says of them (scenario.described)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pandas as pd

from adjudicator.scenario import build, described

ROOT = Path(__file__).resolve().parents[2]


def test_an_answer_takes_the_asked_row_it_does_not_contradict() -> None:
    asked = pd.DataFrame([{"id": "A", "side": "X", "result": None}, {"id": "B", "side": "Y", "result": None}])
    answers = pd.DataFrame([{"id": "B", "side": None, "result": "won"}, {"id": "C", "side": None, "result": "lost"}])
    shown = described(answers, asked).to_dict("records")
    assert shown[0] == {"id": "B", "side": "Y", "result": "won"}
    assert shown[1]["id"] == "C" and shown[1]["result"] == "lost"  # asked by no row: kept as given
    assert len(shown) == 2  # a row nobody answered is not added


def test_the_inner_sphere_example_shows_each_combat_whole(tmp_path: Path) -> None:
    example = tmp_path / "inner_sphere"
    example.mkdir()
    (example / "scenario.toml").write_bytes((ROOT / "examples/inner_sphere/scenario.toml").read_bytes())
    build(example)
    sheet = openpyxl.load_workbook(example / "gm_input.xlsx").worksheets[1]  # Combates: after the instructions
    rows = [row for row in sheet.iter_rows(min_row=2, values_only=True) if row[0]]
    assert rows, "the example asks the GM about combats"
    for row in rows:
        assert row[-1], row  # the scenario's answer
        assert all(value not in (None, "") for value in row[1:6]), row  # type, system, step, attacker, jumpship


def test_an_asked_id_in_the_reader_s_words_takes_the_answer_given_by_its_key() -> None:
    from adjudicator.rulesets.inner_sphere.gm import shown_id

    asked = pd.DataFrame([{"id": shown_id("RAID:0404:D-NS1:7"), "result": None},
                          {"id": shown_id("INVASION:0204:K-NS3:5"), "result": None}])
    answers = pd.DataFrame([{"id": "INVASION:0204:K-NS3:5", "result": "DISPUTED"}])
    shown = described(answers, asked).to_dict("records")
    assert len(shown) == 1 and shown[0]["result"] == "DISPUTED"
    assert shown[0]["id"].render("es") == "INVASIÓN:0204:K-NS3:5"  # the GM reads the asked row's words


def test_the_inner_sphere_example_answers_sit_on_their_own_combats(tmp_path: Path) -> None:
    example = tmp_path / "inner_sphere"
    example.mkdir()
    (example / "scenario.toml").write_bytes((ROOT / "examples/inner_sphere/scenario.toml").read_bytes())
    build(example)
    sheet = openpyxl.load_workbook(example / "gm_input.xlsx").worksheets[1]
    results = {row[0]: row[-1] for row in sheet.iter_rows(min_row=2, values_only=True) if row[0]}
    assert results["INVASIÓN:0204:K-NS3:5"] == "Sistema disputado"  # the scenario's DISPUTED, on its invasion
