"""``check`` and ``run`` print at most ``--max-problems`` problems of each workbook, then one line in the
reader's language saying how many more its checked copy's Errors tab lists, that tab named as its player sees it
(in the workbook's language); that tab keeps them all. At 80 columns (blocks), wide (a table) and through a pipe
with no width given."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from adjudicator.engine.registry import installed
from adjudicator.i18n import gettext_in
from adjudicator.outputs.bounded_problems import DEFAULT_LIMIT
from adjudicator.turn import pipeline
from tests.core.test_cli_width import adjudicator


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pipeline.CheckOutcome]:
    root = tmp_path_factory.mktemp("bounded") / "star"
    pipeline.new_campaign(installed()["star_sectors"], root, example=True)  # a Russian GM
    return root, pipeline.check(root)


def _rows_of(out: str, file: str) -> list[list[str]]:
    """The tokens of each line naming ``file`` (a table row or a block's first line)."""
    return [line.replace("│", " ").split() for line in out.splitlines() if file in line.replace("│", " ").split()]


def _errors_tab(path: Path) -> str:
    """The name of the checked copy's Errors tab, as its player sees it (its first tab)."""
    book = openpyxl.load_workbook(path, read_only=True)
    name = book.sheetnames[0]
    book.close()
    return name


def _more_line(count: int, path: Path, lang: str = "ru") -> str:
    return gettext_in(lang, "… and {count} more in {path} ({tab} tab).").format(count=count, path=path,
                                                                                 tab=_errors_tab(path))


@pytest.mark.parametrize("columns", ["80", "200", None])
def test_check_prints_the_first_problem_of_each_workbook_and_how_many_more(
        campaign: tuple[Path, pipeline.CheckOutcome], columns: str | None) -> None:
    root, outcome = campaign
    shown = adjudicator("check", str(root), "--max-problems", "1", columns=columns)
    assert shown.returncode == 1, shown.stderr
    lines = shown.stdout.splitlines()
    bounded = [s for s in outcome.submissions if len(s.problems) > 1]
    assert bounded, "the example has workbooks with several problems"
    for submission in outcome.submissions:
        problems = list(submission.problems)
        first, rest = problems[0], problems[1:]
        rows = _rows_of(shown.stdout, submission.name)
        assert any(first.code in row and (first.cell or first.code) in row for row in rows), submission.name
        for problem in rest:
            if problem.cell and problem.cell != first.cell:
                assert not any(problem.cell in row and problem.code in row for row in rows), (submission.name,
                                                                                                problem.cell)
        more = _more_line(len(rest), outcome.checked[submission.name])
        assert (more in lines) == bool(rest), (more, shown.stdout)
    assert "вкладка" in shown.stdout and "Errors tab" not in shown.stdout  # in the GM's language


def test_the_line_names_the_errors_tab_in_the_workbook_s_language(
        campaign: tuple[Path, pipeline.CheckOutcome]) -> None:
    root, outcome = campaign
    shown = adjudicator("check", str(root), "--max-problems", "1")
    tabs = {name: _errors_tab(path) for name, path in outcome.checked.items()}
    assert {"Ошибки", "Errores"} <= set(tabs.values()), tabs  # a Russian GM, Russian and Spanish workbooks
    for name, tab in tabs.items():
        line = next(line for line in shown.stdout.splitlines() if str(outcome.checked[name]) in line and "…" in line)
        assert f"«{tab}»" in line, (name, line)


def test_the_errors_tab_keeps_every_problem(campaign: tuple[Path, pipeline.CheckOutcome]) -> None:
    root, outcome = campaign
    assert adjudicator("check", str(root), "--max-problems", "1").returncode == 1
    for submission in outcome.submissions:
        book = openpyxl.load_workbook(outcome.checked[submission.name], read_only=True)
        errors_tab = book.worksheets[0]  # the Errors tab, put first
        codes = [row[0] for row in errors_tab.iter_rows(values_only=True) if row and row[0]]
        book.close()
        for problem in submission.problems:
            assert problem.code in codes, (submission.name, problem.code)
        assert sum(code in {p.code for p in submission.problems} for code in codes) >= len(submission.problems)


def test_zero_and_the_default_print_every_problem_of_the_example(campaign: tuple[Path, pipeline.CheckOutcome]) -> None:
    root, outcome = campaign
    for args in ((), ("--max-problems", "0")):
        shown = adjudicator("check", str(root), *args)
        assert shown.returncode == 1, shown.stderr
        assert "…" not in shown.stdout
        for submission in outcome.submissions:
            rows = _rows_of(shown.stdout, submission.name)
            for problem in submission.problems:
                assert any(problem.code in row for row in rows), (args, problem.code)


def test_run_is_bounded_as_check_and_a_negative_bound_is_refused(campaign: tuple[Path, pipeline.CheckOutcome],
                                                                 tmp_path: Path) -> None:
    _, outcome = campaign
    root = tmp_path / "star"
    pipeline.new_campaign(installed()["star_sectors"], root, example=True)
    ran = adjudicator("run", str(root), "--max-problems", "1")
    assert ran.returncode == 0, ran.stderr  # resolved: the rows it rejected, bounded, and no checked copies
    lines = ran.stdout.splitlines()
    for submission in outcome.submissions:
        rest = len(submission.problems) - 1
        more = gettext_in("ru", "… and {count} more of {file} (--max-problems 0 prints them all).").format(
            count=rest, file=submission.name)
        assert (more in lines) == bool(rest), (more, ran.stdout)
    refused = adjudicator("check", str(root), "--max-problems", "-1")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr and "--max-problems" in refused.stderr


@pytest.mark.parametrize("columns", ["80", None])
def test_the_default_prints_fifty_problems_of_a_workbook_with_more(tmp_path: Path, columns: str | None) -> None:
    root = tmp_path / "generated"
    made = subprocess.run([sys.executable, "benchmarks/generate.py", "star_sectors", str(root), "--factions", "2",
                           "--orders", "1100"], cwd=Path(__file__).resolve().parents[2], capture_output=True,
                          text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    outcome = pipeline.check(root)
    shown = adjudicator("check", str(root), columns=columns)
    assert shown.returncode == 1, shown.stderr
    lines = shown.stdout.splitlines()
    for submission in outcome.submissions:
        problems = list(submission.problems)
        assert len(problems) == 55, len(problems)  # every 20th of 1,100 rows a mistake
        rows = [row for row in _rows_of(shown.stdout, submission.name) if any(p.code in row for p in problems)]
        assert len(rows) == DEFAULT_LIMIT
        assert all(problem.cell in row for row, problem in zip(rows, problems[:DEFAULT_LIMIT], strict=True))
        assert _more_line(5, outcome.checked[submission.name], "en") in lines
