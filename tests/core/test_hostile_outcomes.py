"""What a hostile or broken workbook, or a failing ruleset, leads to: a precise message, its own exit
status, nothing changed; and the same turn run twice gives the same bytes."""

from __future__ import annotations

import hashlib
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from adjudicator.cli import EXIT_RULESET, main
from adjudicator.dice import DiceError
from adjudicator.engine.problems import ProblemList
from adjudicator.engine.registry import find_ruleset
from adjudicator.intake.reading import read_table, read_workbook
from adjudicator.outputs.safe_text import for_terminal
from adjudicator.rulesets.galactic_war import schemas as gw_schemas
from adjudicator.turn import pipeline
from tests.helpers import make_campaign, scenario, tree_digest, write_orders


def test_for_terminal_shows_controls_and_invisible_marks_as_escapes() -> None:
    assert for_terminal("a\x1b]0;x\x07b") == "a\\x1b]0;x\\x07b"
    assert for_terminal("line\nnext\ttab") == "line\nnext\ttab"
    assert for_terminal("\u202eevil\x9b\x7f") == "\\u202eevil\\x9b\\x7f"
    assert for_terminal("[red]plain[/]") == "[red]plain[/]"  # markup is left to rich.Text, never interpreted


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    root = make_campaign(tmp_path / "c", scenario({"ALPHA": 100, "BETA": 100},
                                                  [("ALPHA", "A1", 80), ("BETA", "D4", 90)]))
    write_orders(root, "ALPHA", [{"order": "MOVE", "square": "A1", "to": "A2", "amount": 30}])
    write_orders(root, "BETA", [{"order": "MOVE", "square": "D4", "to": "D3", "amount": 30}])
    return root


@pytest.mark.parametrize("failure", [DiceError("roll 'battle A2' asked for twice"), KeyError("fleets")])
def test_a_ruleset_that_fails_ends_the_run_with_its_own_status_and_changes_nothing(
        campaign: Path, monkeypatch: pytest.MonkeyPatch, failure: Exception) -> None:
    ruleset = type(find_ruleset("star_sectors"))

    def broken(self, turn):  # noqa: ANN001, ANN202
        raise failure

    monkeypatch.setattr(ruleset, "resolve", broken)
    before = tree_digest(campaign)
    result = CliRunner().invoke(main, ["run", str(campaign)])
    assert result.exit_code == EXIT_RULESET == 4, result.output
    assert "star_sectors" in result.output and "turn 1" in result.output
    assert type(failure).__name__ in result.output and "Nothing was changed" in result.output
    assert "Traceback" not in result.output
    assert tree_digest(campaign) == before


def test_a_ruleset_that_fails_while_validating_ends_check_with_its_own_status(
        campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = type(find_ruleset("star_sectors"))
    monkeypatch.setattr(ruleset, "validate_orders", lambda *args: 1 / 0)
    result = CliRunner().invoke(main, ["check", str(campaign)])
    assert result.exit_code == EXIT_RULESET, result.output
    assert "ZeroDivisionError" in result.output


def _digests(root: Path) -> dict[str, str]:
    files = [root / "campaign.xlsx", *sorted((root / "turns").rglob("*"))]
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files if p.is_file()}


def test_the_example_turn_run_twice_gives_the_same_bytes_in_every_file(tmp_path: Path) -> None:
    digests = []
    for name in ("first", "second"):
        root = tmp_path / name
        pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
        assert pipeline.run(root).status == "resolved"
        digests.append(_digests(root))
    assert len(digests[0]) > 10
    assert digests[0] == digests[1]


def test_a_galactic_war_movement_sheet_whose_header_is_cleared_is_f05(tmp_path: Path) -> None:
    path = tmp_path / "orders.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Movement"
    ws.append([None, None, None, None])  # the header row, cleared
    ws.append(["G: cruiser – 7 – 1", "7", "GC1", "1"])
    wb.save(path)
    problems = ProblemList()
    book = read_workbook(path, problems)
    table = read_table(book, gw_schemas.MOVES, problems)
    assert [(p.code, p.sheet, p.cell) for p in problems] == [("F05", "Movement", "A1")]
    assert table is not None and table.frame.empty


def test_every_ruleset_has_problem_codes_of_its_own() -> None:
    core = {f"M{n:02d}" for n in range(11)} | {f"F{n:02d}" for n in range(1, 20)} | {f"C{n:02d}" for n in range(1, 6)}
    for name in ("galactic_war",):
        package = Path(find_ruleset(name).__class__.__module__.replace(".", "/")).parent
        source = "".join(p.read_text() for p in (Path(__file__).parents[2] / package).rglob("*.py"))
        for code in core - {"C03"}:
            assert f'"{code}"' not in source, (name, code)


def _ods_with(tmp_path: Path, cells: str) -> Path:
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body>'
        '<office:spreadsheet><table:table table:name="Movement">'
        "<table:table-row>" + "".join(f'<table:table-cell office:value-type="string"><text:p>{h}</text:p>'
                                      "</table:table-cell>" for h in ("Order text", "Origin", "Units", "Path"))
        + f"</table:table-row><table:table-row>{cells}</table:table-row>"
        "</table:table></office:spreadsheet></office:body></office:document-content>")
    path = tmp_path / "orders.ods"
    import zipfile

    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", content)
        archive.writestr("META-INF/manifest.xml", '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                         'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>')
    return path


def test_an_ods_error_value_is_c05_at_its_cell_not_text(tmp_path: Path) -> None:
    path = _ods_with(tmp_path, '<table:table-cell table:number-columns-repeated="1"/>'
                               '<table:table-cell office:value-type="string" calcext:value-type="error" '
                               'table:formula="of:=1/0"><text:p>#DIV/0!</text:p></table:table-cell>'
                               '<table:table-cell office:value-type="string"><text:p>GC1</text:p></table:table-cell>'
                               '<table:table-cell office:value-type="string"><text:p>3</text:p></table:table-cell>')
    problems = ProblemList()
    book = read_workbook(path, problems)
    table = read_table(book, gw_schemas.MOVES, problems)
    assert [(p.code, p.sheet, p.cell, p.row) for p in problems] == [("C05", "Movement", "B2", 2)]
    assert table.frame.loc[2, "origin"] is None


def test_the_gm_sets_the_sheet_limits_in_the_settings() -> None:
    from adjudicator.intake.safety import counted_limits

    assert counted_limits({"max rows": 10_000, "max cells": "500000", "max columns": 2.5, "max text chars": "x",
                           "max text total": float("inf")}) == {"max_rows": 10_000, "max_cells": 500_000}
