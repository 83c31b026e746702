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


def test_star_sectors_and_galactic_war_ship_at_least_twenty_cases() -> None:
    for name in ("star_sectors", "galactic_war"):
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


def test_the_example_of_docs_cases_md_passes_as_written(tmp_path: Path) -> None:
    import re

    page = (Path(__file__).resolve().parent.parent / "docs" / "cases.md").read_text(encoding="utf-8")
    example = re.search(r"## A case a GM can copy.*?```toml\n(.*?)\n```", page, re.DOTALL)
    assert example is not None
    (tmp_path / "build-beyond-the-treasury.toml").write_text(example.group(1), encoding="utf-8")
    assert run_case(load_case(tmp_path / "build-beyond-the-treasury.toml")) == []
