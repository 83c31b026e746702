"""On an 80-column terminal or through a pipe, every problem's message and hint is printed whole and readable
(wrapped at words, not a few letters a line), with its code, file, sheet and cell whole on one line, and any
text that looks like rich markup printed as it was written."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest
from rich.console import Console
from rich.text import Text

from adjudicator.engine.problems import Problem, Severity
from adjudicator.engine.registry import installed
from adjudicator.i18n import msg
from adjudicator.outputs.problem_blocks import print_problems, print_table, problems_table, too_narrow
from adjudicator.turn import pipeline


def _check(root: Path, columns: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "ADJUDICATOR_LANG")}
    env["COLUMNS"] = columns
    shown = subprocess.run([sys.executable, "-m", "adjudicator", "check", str(root)], env=env, capture_output=True,
                           text=True, timeout=300)
    assert shown.returncode == 1, shown.stderr
    return shown.stdout


def test_every_problem_reads_whole_at_80_columns_and_through_a_pipe(tmp_path: Path) -> None:
    root = tmp_path / "is"
    pipeline.new_campaign(installed()["inner_sphere"], root, example=True)  # long codes, long sheet names
    outcome = pipeline.check(root)
    lang = outcome.campaign.language
    problems = [p for s in outcome.submissions for p in s.problems]
    assert len(problems) > 5
    narrow = _check(root, "80")
    lines = narrow.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(problems[0].code))
    assert max(len(line.rstrip()) for line in lines[first:]) <= 80  # (a path above is printed whole, unwrapped)
    flowing = " ".join(narrow.split())  # the text as a reader reads it, whatever the line breaks
    for p in problems:
        head = "  ".join(v for v in (p.code, p.file, p.sheet, p.cell) if v)
        assert any(line.strip() == head for line in lines), head
        assert " ".join(p.message.render(lang).split()) in flowing, p.code
        if p.hint:
            assert " ".join(p.hint.render(lang).split()) in flowing, p.code


def _printed(problems: list[Problem], terminal: bool) -> str:
    out = io.StringIO()
    console = Console(file=out, width=80, highlight=False, soft_wrap=True, force_terminal=terminal,
                      color_system="standard" if terminal else None)
    assert print_problems(console, problems, "en")
    return Text.from_ansi(out.getvalue()).plain  # what the reader reads, without the colours


@pytest.mark.parametrize("terminal", [True, False], ids=["terminal", "pipe"])
def test_markup_and_a_long_code_print_literally_and_whole_at_80_columns(terminal: bool) -> None:
    code = "E-" + "LONG" * 30  # 122 characters, no space: wider than the terminal
    problems = [Problem(code, Severity.ERROR, msg("Unit [bold]x[/] is not yours [red]really[/red].  " * 4),
                        msg("Write [b]y[/b] in\tthe cell " + "Z" * 100), file="A.xlsx", sheet="[i]Orders[/i]",
                        cell="B2"),
                Problem("W1", Severity.WARNING, msg("[link=http://x]click[/link]"), file="A.xlsx", cell="C3")]
    lines = _printed(problems, terminal).splitlines()
    assert lines[0] == f"{code}  A.xlsx  [i]Orders[/i]  B2"  # whole on its line, however long, markup as typed
    assert all(len(line) <= 80 for line in lines[1:])
    flowing = " ".join(" ".join(lines).split())
    for shown in ("[bold]x[/]", "[red]really[/red]", "Write [b]y[/b] in the cell", "[link=http://x]click[/link]"):
        assert shown in flowing, shown
    assert "".join(line.strip() for line in lines).count("Z" * 100) == 1  # a long word folded, every letter kept
    assert "W1  A.xlsx  C3" in lines


def test_markup_typed_in_a_workbook_prints_literally(tmp_path: Path) -> None:
    root = tmp_path / "star"
    pipeline.new_campaign(installed()["star_sectors"], root, example=True)
    path = root / "inbox" / "ALPHA.xlsx"
    workbook = openpyxl.load_workbook(path)
    sheet = workbook[next(n for n in workbook.sheetnames if workbook[n]["B1"].value and n != "_lists")]
    sheet["B2"] = "[bold]x[/]"
    workbook.save(path)
    problem = next(p for s in pipeline.check(root).submissions for p in s.problems if p.cell == "B2")
    shown = " ".join(_check(root, "80").split())
    assert " ".join(problem.message.render("ru").split()) in shown
    assert "[BOLD]X[/]" in shown



def _table(problems: list[Problem], width: int, terminal: bool, ours: bool) -> str:
    """The problems table as the CLI prints it (``ours``), or as rich's own Table prints the same table."""
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False, soft_wrap=True, emoji=False, force_terminal=terminal,
                      color_system="standard" if terminal else None)
    table, rows = problems_table(problems, "es")
    if ours:
        print_table(console, table, rows)
    else:
        for cells, style in rows:
            table.add_row(*map(Text, cells), style=style)
        console.print(table)
    return out.getvalue()


@pytest.mark.parametrize("width", [140, 160, 200, 320])
def test_the_wide_table_is_rich_s_table_character_for_character(width: int) -> None:
    problems = [Problem("E-AG-BRIBE", Severity.ERROR, msg("El soborno debe ser de 0 a 100 en pasos de 20."),
                        file="DAVION.xlsx", sheet="Agencia", cell="F9"),
                Problem("W-ЯКОРЬ", Severity.WARNING, msg("Слово " * 30 + "Ж" * 70 + "\n\nпосле\tпустой строки"),
                        msg("[bold]Escriba[/] 東京 en la celda " * 3), file="КУРИТА.xlsx", sheet="Приказы",
                        cell="AB1234"),
                Problem("E1", Severity.ERROR, msg("x"), msg("Z" * 150), file="a\tb.xlsx"),
                Problem("E-" + "LARGO" * 8, Severity.ERROR, msg(""), None, sheet="S", cell="A1")]
    assert not too_narrow(problems, width, "es")  # the width of a table, not of blocks
    for terminal in (False, True):
        ours, reference = (_table(problems, width, terminal, ours) for ours in (True, False))
        if not terminal:
            assert ours == reference
        else:  # the same characters in the same colours (rich may split its escape codes elsewhere)
            mine, theirs = Text.from_ansi(ours), Text.from_ansi(reference)
            assert mine.plain == theirs.plain
            assert _visible_styles(mine) == _visible_styles(theirs)
            assert "\x1b[31m" in ours and "\x1b[1m" in ours  # coloured indeed


def _visible_styles(text: Text) -> list[tuple[int, str]]:
    styles = [""] * len(text.plain)
    for span in text.spans:
        for index in range(span.start, span.end):
            styles[index] = str(span.style)
    return [(i, s) for i, s in enumerate(styles) if not text.plain[i].isspace()]
