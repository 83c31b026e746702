"""The hostile corpus of every ruleset (tests/hostile/make_corpus.py, ``make_corpora``): each ruleset's example
campaign, a genuine workbook of one of its factions, and its cases (a header row cleared or moved on every
order sheet, wrong types, fractions, NaN, infinities and error values in the columns read as numbers or
choices, merged cells over a problem cell, confusable letters, forged identity, duplicates, escapes, sheet
bounds), each checked by the real command in its own process under hard limits, with its code asserted at its
sheet and cell. Both tests are slow (make test-slow): the whole corpus through the real command, and a few files per
ruleset checked in memory (a quick look when changing the corpus)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.engine.registry import find_ruleset
from adjudicator.intake.submissions import load_submission
from tests.helpers import sheet_rows, tree_digest
from tests.hostile.make_corpus import RULESETS, Corpus, make_ruleset_corpus
from tests.hostile.run_checks import CPU_SECONDS

ROOT = Path(__file__).resolve().parents[2]
MAX_RSS_MB = 500


def _found(corpus: Corpus, name: str) -> list[tuple[str, str | None, str | None]]:
    copy = corpus.campaign / "checks" / f"T{corpus.turn:02d}" / f"{Path(name).stem}.checked.xlsx"
    if not copy.exists():
        return []
    return [(r[0], r[2] or None, r[3] or None) for r in sheet_rows(copy, "Errors", corpus.language)[1:]]


@pytest.fixture(scope="module", params=RULESETS)
def checked(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Corpus, dict, dict,
                                                                                              dict, Path]:
    folder = tmp_path_factory.mktemp(request.param)
    corpus = make_ruleset_corpus(request.param, folder)
    out = folder / "out"
    out.mkdir()
    files_before = tree_digest(corpus.folder)
    campaign_before = tree_digest(corpus.campaign)
    groups = [",".join(str(corpus.folder / n) for n in (c.name, *c.also)) for c in corpus.cases]
    env = {**os.environ, "COLUMNS": "200", "ADJUDICATOR_LANG": "en"}
    done = subprocess.run([sys.executable, "-m", "tests.hostile.run_checks", str(corpus.campaign), str(out),
                           *groups], cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800, check=True)
    results = json.loads(done.stdout.strip().splitlines()[-1])
    return corpus, results, files_before, campaign_before, out


@pytest.mark.slow
def test_every_file_of_every_ruleset_is_checked_as_documented(checked) -> None:
    corpus, results, files_before, campaign_before, out = checked
    assert set(results) == {c.name for c in corpus.cases}
    slowest = max(results, key=lambda n: results[n]["cpu_s"])
    biggest = max(results, key=lambda n: results[n]["max_rss_mb"])
    print(f"\n{len(results)} files; slowest {slowest}: {results[slowest]['cpu_s']:.2f} s CPU, "
          f"{max(r['wall_s'] for r in results.values()):.1f} s wall at most; "
          f"peak memory {biggest}: {results[biggest]['max_rss_mb']:.0f} MB")  # seen with pytest -s
    assert len(corpus.cases) >= 20, corpus.ruleset
    for case in corpus.cases:
        result = results[case.name]
        text = (out / f"{case.name}.out").read_text(encoding="utf-8", errors="replace")
        where = (corpus.ruleset, case.name, result)
        assert result["signal"] is None, (*where, text[-2000:])  # no native crash, no limit passed
        assert "Traceback" not in text and "panicked" not in text, (*where, text[-2000:])
        assert "\x1b" not in text, where  # no escape of a workbook reaches the terminal
        assert result["exit"] == case.exit, (*where, text[-3000:])
        assert result["max_rss_mb"] < MAX_RSS_MB, where
        assert result["cpu_s"] < CPU_SECONDS, where
        found = _found(corpus, case.name)
        if case.code is not None:
            assert (case.code, case.sheet, case.cell) in found, (*where, found)
    assert tree_digest(corpus.folder) == files_before  # no submitted file changed
    after = {k: v for k, v in tree_digest(corpus.campaign).items() if not k.startswith("checks/")}
    assert after == campaign_before  # nor anything of the campaign


QUICK = ("genuine.xlsx", "_header_cleared.xlsx", "_merged_over_wrong_type.xlsx", "forged_faction.xlsx")


@pytest.mark.slow  # cheap in its files, not in building four campaigns: ~25 s a ruleset on a busy machine
@pytest.mark.parametrize("name", RULESETS)
def test_a_few_files_of_each_ruleset_get_their_code_at_their_cell(name: str, tmp_path: Path) -> None:
    corpus = make_ruleset_corpus(name, tmp_path, subset=True)
    ruleset = find_ruleset(name)
    from adjudicator.turn import pipeline

    _, campaign, _ = pipeline.open_campaign(corpus.campaign)
    assert {c.name for c in corpus.cases if c.name.endswith(QUICK[1])}, corpus.cases
    for case in corpus.cases:
        problems = load_submission(corpus.folder / case.name, campaign, ruleset).problems
        assert problems.has_errors() == (case.exit == 1), (name, case.name, [(p.code, p.cell) for p in problems])
        if case.code:
            assert (case.code, case.sheet, case.cell) in {(p.code, p.sheet, p.cell) for p in problems}, (
                name, case.name, [(p.code, p.sheet, p.cell) for p in problems])
