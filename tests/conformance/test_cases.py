"""Every scenario case a bundled ruleset ships runs and passes; the harness reports what differs."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.cases import Case, bundled_cases, load_case, run_case
from adjudicator.cli import main
from adjudicator.engine.registry import find_ruleset, installed

BUNDLED = [case for name in sorted(installed()) for case in bundled_cases(find_ruleset(name))]


@pytest.mark.parametrize("case", BUNDLED, ids=[f"{Path(c.path).parent.parent.name}/{c.name}" for c in BUNDLED])
def test_bundled_case(case: Case) -> None:
    assert run_case(case) == []


def test_every_bundled_ruleset_ships_at_least_twenty_cases() -> None:
    for name in ("star_sectors", "galactic_war", "inner_sphere", "coordinated_orders"):
        assert len(bundled_cases(find_ruleset(name))) >= 20, name


def test_a_case_that_expects_the_wrong_outcome_fails_with_each_difference(tmp_path: Path) -> None:
    source = Path(next(c.path for c in BUNDLED if c.name == "x5_battle_losses_and_control"))
    wrong = source.read_text(encoding="utf-8").replace("value = 963", "value = 964").replace(
        "change = -37", "change = -36")
    (tmp_path / "mine.toml").write_text(wrong, encoding="utf-8")
    failures = run_case(load_case(tmp_path / "mine.toml"))
    assert failures == ["table fleets: no row with faction='ALPHA', square='B2', value=964",
                        "ledger: no line with faction='ALPHA', account='fleet@B2', change=-36"]


def test_the_cases_command_on_a_gms_folder(tmp_path: Path) -> None:
    from click.testing import CliRunner

    source = Path(next(c.path for c in BUNDLED if c.name == "e05_build_beyond_the_treasury"))
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "good.toml").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "house" / "bad.toml").write_text(
        source.read_text(encoding="utf-8").replace('code = "E05"', 'code = "E04"'), encoding="utf-8")
    result = CliRunner().invoke(main, ["cases", str(tmp_path / "house")])
    assert result.exit_code == 1
    assert "row 2: code 'E05', expected 'E04'" in result.output
    assert result.output.strip().splitlines()[-1] == "1 passed, 1 failed"
    (tmp_path / "house" / "bad.toml").unlink()
    result = CliRunner().invoke(main, ["cases", str(tmp_path / "house")])
    assert (result.exit_code, result.output.strip().splitlines()[-1]) == (0, "1 passed, 0 failed")


def test_the_cases_command_runs_a_rulesets_bundled_cases() -> None:
    from click.testing import CliRunner

    result = CliRunner().invoke(main, ["cases", "star_sectors"])
    count = len(bundled_cases(find_ruleset("star_sectors")))
    assert (result.exit_code, result.output.strip().splitlines()[-1]) == (0, f"{count} passed, 0 failed")
    result = CliRunner().invoke(main, ["cases", "no_such_ruleset"])
    assert result.exit_code == 2


def docs_example() -> str:
    import re

    page = (Path(__file__).resolve().parents[2] / "docs" / "cases.md").read_text(encoding="utf-8")
    example = re.search(r"## A case a GM can copy.*?```toml\n(.*?)\n```", page, re.DOTALL)
    assert example is not None
    return example.group(1)


def test_the_example_of_docs_cases_md_passes_as_written(tmp_path: Path) -> None:
    (tmp_path / "build-beyond-the-treasury.toml").write_text(docs_example(), encoding="utf-8")
    assert run_case(load_case(tmp_path / "build-beyond-the-treasury.toml")) == []


def test_a_gms_case_folder_as_docs_cases_md_says(tmp_path: Path) -> None:
    """The docs' example copied into a folder of one's own: `adjudicator cases FOLDER` passes it (exit 0); a
    broken copy exits 1 and prints what differs, in the language asked for."""
    from click.testing import CliRunner

    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "build-beyond-the-treasury.toml").write_text(docs_example(), encoding="utf-8")
    result = CliRunner().invoke(main, ["cases", str(folder)])
    assert (result.exit_code, result.output.strip().splitlines()[-1]) == (0, "1 passed, 0 failed")
    (folder / "house").mkdir()
    (folder / "house" / "broken.toml").write_text(docs_example().replace("treasury = 20 }", "treasury = 25 }"),
                                                 encoding="utf-8")
    result = CliRunner().invoke(main, ["cases", str(folder)])
    assert result.exit_code == 1
    assert "table factions: no row with id='ALPHA', treasury=25" in result.output
    assert result.output.strip().splitlines()[-1] == "1 passed, 1 failed"
    result = CliRunner().invoke(main, ["--lang", "es", "cases", str(folder)])
    assert result.exit_code == 1
    assert "tabla factions: ninguna fila con id='ALPHA', treasury=25" in result.output
    result = CliRunner().invoke(main, ["--lang", "ru", "cases", str(folder)])
    assert "таблица factions: нет строки с id='ALPHA', treasury=25" in result.output
    assert result.output.strip().splitlines()[-1] == "1 passed, 1 failed"


def test_a_change_of_the_rule_tables_that_does_not_fit_is_reported_at_its_cell(tmp_path: Path) -> None:
    case = next(c for c in BUNDLED if c.name == "rule_tables_sheet_changes")
    wrong = Path(case.path).read_text(encoding="utf-8").replace('column = "upkeep", value = 4',
                                                                'column = "upkeep", value = "cheap"')
    (tmp_path / "wrong.toml").write_text(wrong, encoding="utf-8")
    assert run_case(load_case(tmp_path / "wrong.toml")) == [
        "the case cannot be run: the state does not read: rule_tables D3: Rule tables, row 3: Regiments | "
        "Light vehicles | Upkeep: expected a number, got cheap."]  # the GM's words, not the codes
