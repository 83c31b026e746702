"""Players' and GMs' mistakes: every problem reported at its cell, in one go, with no traceback, and
nothing in the campaign changed."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.intake.identity import META_SHEET
from adjudicator.turn import pipeline
from tests.helpers import make_campaign, scenario, sheet_rows, tree_digest, write_orders


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    return make_campaign(tmp_path / "c", scenario(
        {"ALPHA": 100, "BETA": 100},
        [("ALPHA", "A1", 80), ("ALPHA", "B2", 30), ("BETA", "B2", 20), ("BETA", "D4", 90)],
        projects=[{"project": "BETA-T00-1", "faction": "BETA", "description": "shield", "status": "FEASIBLE",
                   "price": 50, "paid": 0}]))


def problems_of(outcome: pipeline.CheckOutcome, name: str) -> list[tuple[str, str | None]]:
    submission = next(s for s in outcome.submissions if s.name == name)
    return [(p.code, p.cell) for p in submission.problems]


def test_every_mistake_of_a_workbook_is_reported_at_its_cell(campaign: Path) -> None:
    path = write_orders(campaign, "ALPHA", [
        {"order": "MOVE", "square": "A1", "to": "A2", "amount": "forty"},      # row 2: text in a number column
        {"order": "FLY", "square": "A1", "to": "A2", "amount": 10},            # row 3: unknown order
        {"order": "MOVE", "square": "A1", "amount": 10},                       # row 4: To missing
        {"order": "BUILD", "square": "A1", "amount": -5},                      # row 5: not positive
        {"order": "MOVE", "square": "Z9", "to": "A2", "amount": 10},           # row 6: no such square
        {"order": "MOVE", "square": "A1", "to": "B2", "amount": 10},           # row 7: diagonal
        {"order": "MOVE", "square": "B2", "to": "B3", "amount": 10},           # row 8: B2 contested
        {"order": "MOVE", "square": "C3", "to": "C4", "amount": 10},           # row 9: no fleet of ours there
        {"order": "BUILD", "square": "D4", "amount": 10},                      # row 10: not ours
        {"order": "RESEARCH_PAY", "project": "BETA-T00-1", "amount": 10},      # row 11: not our project
        {"order": "THEFT", "project": "BETA-T00-1", "victim": "BETA"},         # row 12: never seen in battle
        {"order": "BUILD", "square": "A1", "amount": 500},                     # row 13: more than the treasury
        {"order": "MOVE", "square": "A1", "to": "A2", "amount": 30},           # row 14: fine
    ])
    book = openpyxl.load_workbook(path)
    book["Orders"]["J1"] = "Notes"  # a column the adjudicator does not know
    book.save(path)
    before = tree_digest(campaign)
    outcome = pipeline.check(campaign)
    assert problems_of(outcome, "ALPHA.xlsx") == [
        ("F06", "J1"),
        ("C01", "D2"),
        ("C02", "A3"),
        ("C03", "C4"),
        ("C04", "D5"),
        ("E01", "B6"),
        ("E02", "C7"),
        ("E03", "B8"),
        ("E04", "D9"),
        ("E06", "B10"),
        ("E07", "E11"),
        ("E09", "E12"),
        ("E05", "D13"),
    ]
    changed = {k for k, v in tree_digest(campaign).items() if before.get(k) != v}
    assert changed == {"checks/T01/ALPHA.checked.xlsx"}
    errors = sheet_rows(outcome.checked["ALPHA.xlsx"], "Errors")
    assert [(r[0], r[3]) for r in errors[1:]] == problems_of(outcome, "ALPHA.xlsx")
    marked = openpyxl.load_workbook(outcome.checked["ALPHA.xlsx"])["Orders"]
    assert marked["D2"].fill.fgColor.rgb.endswith("F8CBAD") and marked["D2"].comment is not None
    assert marked["D14"].comment is None


def test_the_turn_rejects_only_the_bad_rows(campaign: Path) -> None:
    write_orders(campaign, "ALPHA", [
        {"order": "MOVE", "square": "A1", "to": "A2", "amount": "forty"},
        {"order": "MOVE", "square": "A1", "to": "A2", "amount": 30},
    ])
    write_orders(campaign, "BETA", [])
    from tests.helpers import write_gm

    write_gm(campaign, {"battles": [{"faction_a": "ALPHA", "faction_b": "BETA", "winner": "DRAW",
                                     "pct_a": 0, "pct_b": 0}]})
    outcome = pipeline.run(campaign)
    assert outcome.status == "resolved"
    rows = sheet_rows(outcome.results["ALPHA"], "Outcome")
    assert [r[-2] for r in rows[1:]] == ["rejected", "done"]


def tamper(path: Path, key_row: int, value: object) -> None:
    book = openpyxl.load_workbook(path)
    book[META_SHEET].cell(row=key_row, column=2, value=value)
    book.save(path)


@pytest.mark.parametrize(
    ("mistake", "code"),
    [
        ("corrupt", "F01"),
        ("csv", "F03"),
        ("no_sheet", "F04"),
        ("no_column", "F05"),
        ("not_a_template", "F07"),
        ("other_campaign", "F08"),
        ("wrong_turn", "F09"),
        ("as_another_faction", "F10"),
        ("unknown_faction", "F11"),
    ],
)
def test_workbook_level_mistakes(campaign: Path, mistake: str, code: str) -> None:
    path = write_orders(campaign, "ALPHA", [{"order": "MOVE", "square": "A1", "to": "A2", "amount": 30}])
    if mistake == "corrupt":
        path.write_bytes(b"PK\x03\x04 this is not a workbook")
    elif mistake == "csv":
        path.unlink()
        path = path.with_suffix(".csv")
        path.write_text("order,square\nMOVE,A1\n")
    elif mistake == "no_sheet":
        book = openpyxl.load_workbook(path)
        del book["Orders"]
        book.save(path)
    elif mistake == "no_column":
        book = openpyxl.load_workbook(path)
        book["Orders"]["A1"] = None
        book.save(path)
    elif mistake == "not_a_template":
        book = openpyxl.load_workbook(path)
        del book[META_SHEET]
        book.save(path)
    elif mistake == "other_campaign":
        tamper(path, 2, "someone-elses-campaign")
    elif mistake == "wrong_turn":  # a genuine workbook, handed out for another turn
        import dataclasses

        from adjudicator.outputs.templates import build_order_workbook
        from adjudicator.outputs.writing import atomic_save

        _, current, ruleset = pipeline.open_campaign(campaign)
        atomic_save(build_order_workbook(ruleset, dataclasses.replace(current, turn=2), "ALPHA"), path)
    elif mistake == "as_another_faction":
        tamper(path, 3, "BETA")  # ALPHA's workbook claiming to be BETA's: its token is ALPHA's
    elif mistake == "unknown_faction":
        tamper(path, 3, "OMEGA")
    before = tree_digest(campaign)
    result = CliRunner().invoke(main, ["check", str(campaign), str(path)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert code in result.output
    outcome = pipeline.check(campaign, [path])
    assert code in outcome.submissions[0].problems.codes()
    changed = {k for k, v in tree_digest(campaign).items() if before.get(k) != v}
    assert all(k.startswith("checks/") for k in changed)
    run = pipeline.run(campaign, [path], allow_missing=True)
    assert run.status == "invalid"
    assert {k for k, v in tree_digest(campaign).items() if before.get(k) != v} == changed


def test_two_workbooks_for_one_faction_are_both_refused(campaign: Path) -> None:
    write_orders(campaign, "ALPHA", [], name="ALPHA-first.xlsx")
    write_orders(campaign, "ALPHA", [], name="ALPHA-second.xlsx")
    outcome = pipeline.check(campaign)
    assert [s.problems.codes() for s in outcome.submissions] == [["F12"], ["F12"]]


def test_formula_text_from_a_player_is_never_a_formula_for_the_gm(campaign: Path) -> None:
    write_orders(campaign, "ALPHA", [{"order": "FEASIBILITY", "description": '=HYPERLINK("http://x","y")'}])
    write_orders(campaign, "BETA", [])
    from tests.helpers import write_gm

    write_gm(campaign, {"battles": [{"faction_a": "ALPHA", "faction_b": "BETA", "winner": "DRAW", "pct_a": 0,
                                     "pct_b": 0}],
                        "feasibility": [{"project": "ALPHA-T01-1", "answer": "INFEASIBLE"}]})
    assert pipeline.run(campaign).status == "resolved"
    for path in (campaign / "campaign.xlsx", campaign / "turns" / "T01" / "results" / "ALPHA.xlsx"):
        book = openpyxl.load_workbook(path)
        found = [c for ws in book.worksheets for row in ws.iter_rows() for c in row
                 if isinstance(c.value, str) and c.value.startswith("=HYPERLINK")]
        assert found and all(c.data_type == "s" for c in found), path
        with zipfile.ZipFile(path) as archive:
            sheets = "".join(archive.read(n).decode() for n in archive.namelist() if n.startswith("xl/worksheets/"))
        formulas = re.findall(r"<f>(.*?)</f>", sheets)
        assert not [f for f in formulas if "HYPERLINK" in f], "a player's text became a formula"


def test_macros_in_an_xlsm_are_ignored_and_dropped(campaign: Path) -> None:
    path = write_orders(campaign, "ALPHA", [{"order": "MOVE", "square": "A1", "to": "A2", "amount": 30}])
    xlsm = path.with_suffix(".xlsm")
    path.rename(xlsm)
    with zipfile.ZipFile(xlsm, "a") as archive:
        archive.writestr("xl/vbaProject.bin", b"\xd0\xcf\x11\xe0 pretend VBA")
    write_orders(campaign, "BETA", [])
    outcome = pipeline.check(campaign)
    alpha = next(s for s in outcome.submissions if s.faction == "ALPHA")
    assert alpha.problems.codes() == ["F14"] and not alpha.problems.has_errors()
    from tests.helpers import write_gm

    write_gm(campaign, {"battles": [{"faction_a": "ALPHA", "faction_b": "BETA", "winner": "DRAW", "pct_a": 0,
                                     "pct_b": 0}]})
    result = pipeline.run(campaign)
    assert result.status == "resolved"
    with zipfile.ZipFile(result.results["ALPHA"]) as archive:
        assert not [n for n in archive.namelist() if "vba" in n.lower()]
    received = campaign / "turns" / "T01" / "inbox" / "ALPHA.xlsm"  # moved out of the inbox, unchanged
    assert received.read_bytes() == (campaign / "turns" / "T01" / "submitted" / "ALPHA.xlsm").read_bytes()


def test_a_broken_campaign_workbook_is_reported_at_its_cells(campaign: Path) -> None:
    book = openpyxl.load_workbook(campaign / "campaign.xlsx")
    book["Parameters"]["B2"] = "lots"  # control_threshold
    book["Map"]["D3"] = "ten"  # an income
    book.save(campaign / "campaign.xlsx")
    result = CliRunner().invoke(main, ["check", str(campaign)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    with pytest.raises(pipeline.CampaignError) as error:
        pipeline.check(campaign)
    assert [(p.code, p.sheet, p.cell) for p in error.value.problems] == [
        ("M05", "Parameters", "B2"), ("C01", "Map", "D3")]


@pytest.mark.parametrize(("faction", "lang"), [("GAMMA", "es"), ("ALPHA", "ru")])
def test_problems_are_written_in_the_players_language(example: Path, faction: str, lang: str) -> None:
    outcome = pipeline.check(example)
    submission = next(s for s in outcome.submissions if s.faction == faction)
    rows = sheet_rows(outcome.checked[f"{faction}.xlsx"], "Errors", lang)
    first = submission.problems.errors[0]
    assert rows[1][4] == first.message.render(lang)
    assert rows[1][5] == first.hint.render(lang)
    assert first.message.render(lang) != first.message.render("en")
