"""The hostile corpus (tests/hostile/make_corpus.py): every file checked by the real command in its own
process, under hard limits of memory and CPU time, with the outcome the docs promise."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import sheet_rows, tree_digest
from tests.hostile.make_corpus import ESCAPES, make_corpus
from tests.hostile.run_checks import CPU_SECONDS

ROOT = Path(__file__).resolve().parents[2]
MAX_RSS_MB = 500

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict, dict, dict, dict]:
    folder = tmp_path_factory.mktemp("hostile")
    campaign, cases = make_corpus(folder)
    corpus = folder / "corpus"
    out = folder / "out"
    out.mkdir()
    files_before = tree_digest(corpus)
    campaign_before = tree_digest(campaign)
    groups = [",".join(str(corpus / n) for n in (name, *case.also)) for name, case in cases.items()]
    env = {**os.environ, "COLUMNS": "200", "ADJUDICATOR_LANG": "en"}
    done = subprocess.run([sys.executable, "-m", "tests.hostile.run_checks", str(campaign), str(out), *groups],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=True)
    results = json.loads(done.stdout.strip().splitlines()[-1])
    return campaign, out, cases, results, files_before | {"": ""}, campaign_before


def test_every_file_is_checked_without_a_crash_within_the_limits(checked) -> None:
    _, out, cases, results, _, _ = checked
    assert set(results) == set(cases)
    slowest = max(results, key=lambda n: results[n]["cpu_s"])
    biggest = max(results, key=lambda n: results[n]["max_rss_mb"])
    print(f"\n{len(results)} files; slowest {slowest}: {results[slowest]['cpu_s']:.2f} s CPU, "
          f"{max(r['wall_s'] for r in results.values()):.1f} s wall at most; "
          f"peak memory {biggest}: {results[biggest]['max_rss_mb']:.0f} MB")  # seen with pytest -s
    for name, result in results.items():
        text = (out / f"{name}.out").read_text(encoding="utf-8", errors="replace")
        assert result["signal"] is None, (name, result, text[-2000:])  # no native crash, no limit passed
        assert "Traceback" not in text and "panicked" not in text, (name, text[-2000:])
        assert result["exit"] == cases[name].exit, (name, result, text[-3000:])
        assert result["max_rss_mb"] < MAX_RSS_MB, (name, result)
        assert result["cpu_s"] < CPU_SECONDS, (name, result)


def test_every_file_gets_its_code_at_its_sheet_and_cell(checked) -> None:
    campaign, _, cases, _, _, _ = checked
    for name, case in cases.items():
        copy = campaign / "checks" / "T01" / f"{Path(name).stem}.checked.xlsx"
        if case.code is None:
            if copy.exists():
                rows = sheet_rows(copy, "Errors")[1:]
                assert all(r[1] == "warning" for r in rows), (name, rows)
            continue
        rows = sheet_rows(copy, "Errors")[1:]
        found = [(r[0], r[2] or None, r[3] or None) for r in rows]
        assert (case.code, case.sheet, case.cell) in found, (name, found)


def test_no_submitted_file_and_nothing_of_the_campaign_changed(checked) -> None:
    campaign, _, cases, _, files_before, campaign_before = checked
    corpus = campaign.parent / "corpus"
    assert tree_digest(corpus) == {k: v for k, v in files_before.items() if k}
    after = {k: v for k, v in tree_digest(campaign).items() if not k.startswith("checks/")}
    assert after == campaign_before


def test_text_from_a_workbook_reaches_the_terminal_escaped(checked) -> None:
    _, out, _, _, _, _ = checked
    escapes = (out / "escapes_in_a_header.xlsx.out").read_text(encoding="utf-8")
    assert "\x1b" not in escapes and "\x07" not in escapes
    assert "\\x1b]0;owned\\x07\\x1b[2J" in escapes, escapes
    assert ESCAPES.startswith("_x001B_")
    markup = (out / "markup_in_a_header.xlsx.out").read_text(encoding="utf-8")
    assert "[/] [bold red]fake[/bold red]" in markup
    assert "[red]evil.xlsx" in (out / "[red]evil.xlsx.out").read_text(encoding="utf-8")


def test_the_merged_cell_is_marked_at_its_top_left(checked) -> None:
    import openpyxl

    campaign, _, _, _, _, _ = checked
    ws = openpyxl.load_workbook(campaign / "checks" / "T01" / "merged_cells.checked.xlsx")["Orders"]
    assert "C2:D2" in {str(r) for r in ws.merged_cells.ranges}
    assert ws["C2"].comment is not None and "Amount" in ws["C2"].comment.text
