"""On an 80-column terminal or through a pipe, every problem's message and hint is printed whole and readable
(wrapped at words, not a few letters a line), with its code, file, sheet and cell whole on one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from adjudicator.engine.registry import installed
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
