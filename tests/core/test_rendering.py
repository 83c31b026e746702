"""Every kind of workbook the project writes, as LibreOffice prints it: nothing overlapping, nothing cut,
no blank page.

For each ruleset's bundled example, in each language its factions use: the order template, the checked
copy (the examples' inboxes hold errors), the results workbook, and in the campaign's language the GM
input and campaign.xlsx. All are converted to PDF by one LibreOffice run; the PDF's word boxes
(``pdftotext -bbox-layout``) are then checked.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from adjudicator.campaign import pipeline
from adjudicator.engine.registry import installed
from tests.pdf_layout import cell_words, overlaps, past_the_edge
from tests.pdf_layout import pages as read_pages

pytestmark = pytest.mark.libreoffice

RULESETS = sorted(installed())
pages = cache(read_pages)  # each PDF's word boxes read once, for every test of the module


def _one_per_language(paths: dict[str, Path], languages: dict[str, str]) -> dict[str, Path]:
    chosen: dict[str, Path] = {}
    for faction, path in sorted(paths.items()):
        chosen.setdefault(languages.get(faction, "?"), path)
    return chosen


def every_workbook(name: str, root: Path) -> list[tuple[str, Path]]:
    """(kind, path) of every kind of workbook of ``name``'s example, one per language."""
    pipeline.new_campaign(installed()[name], root, example=True)
    _, campaign, _ = pipeline.open_campaign(root)
    languages = {f: campaign.factions[f].language for f in campaign.factions}
    found: list[tuple[str, Path]] = []
    templates = {p.stem: p for p in pipeline.make_templates(root)}
    found += [(f"template-{lang}", p) for lang, p in _one_per_language(templates, languages).items()]
    checked = pipeline.check(root).checked
    by_faction = {Path(k).stem: v for k, v in checked.items()}
    found += [(f"checked-{lang}", p) for lang, p in _one_per_language(by_faction, languages).items()]
    for gm_input in sorted((root / "pending").rglob("gm_input.xlsx"))[:1]:  # the run takes it away
        found.append(("gm-input", shutil.copyfile(gm_input, root.parent / f"{root.name}-gm_input.xlsx")))
    outcome = pipeline.run(root)
    assert outcome.status == "resolved", (name, outcome.status)
    found += [(f"results-{lang}", p) for lang, p in _one_per_language(outcome.results, languages).items()]
    found.append(("campaign", root / "campaign.xlsx"))
    return found


def _alnum(word: str) -> str:
    return re.sub(r"\W", "", word)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory, soffice: str) -> list[tuple[str, Path, Path]]:
    """(label, workbook, pdf) of every workbook of every ruleset, converted by ONE LibreOffice run."""
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) is not installed; .ci/run installs it")
    work = tmp_path_factory.mktemp("rendering")
    sources: list[tuple[str, Path]] = []
    for name in RULESETS:
        for kind, path in every_workbook(name, work / name):
            label = f"{name}-{kind}"
            copy = work / "all" / f"{label}.xlsx"
            copy.parent.mkdir(exist_ok=True)
            shutil.copyfile(path, copy)
            sources.append((label, copy))
    out = work / "pdf"
    subprocess.run([soffice, f"-env:UserInstallation=file://{work / 'profile'}", "--headless", "--convert-to",
                    "pdf", "--outdir", str(out), *(str(p) for _, p in sources)],
                   check=True, capture_output=True, timeout=600)
    return [(label, path, out / f"{label}.pdf") for label, path in sources]


def test_every_kind_of_workbook_of_every_ruleset_is_rendered(rendered: list[tuple[str, Path, Path]]) -> None:
    labels = {label for label, _, _ in rendered}
    for name in RULESETS:
        for kind in ("template", "checked", "results", "gm-input", "campaign"):
            assert any(label.startswith(f"{name}-{kind}") for label in labels), (name, kind)
    assert any(label.endswith("-es") for label in labels) and any(label.endswith("-ru") for label in labels)
    assert all(pdf.exists() for _, _, pdf in rendered)


def test_no_blank_page_no_overlap_nothing_past_the_page(rendered: list[tuple[str, Path, Path]]) -> None:
    faults = []
    for label, _, pdf in rendered:
        for page in pages(pdf):
            if not page.words:
                faults.append(f"{label} page {page.number}: no text")
            for a, b in overlaps(page):
                faults.append(f"{label} page {page.number}: {a.text!r} over {b.text!r}")
            for word in past_the_edge(page):
                faults.append(f"{label} page {page.number}: {word.text!r} past the page's edge")
    assert not faults, "\n".join(faults[:40])


def test_every_word_of_the_printed_cells_is_printed_whole(rendered: list[tuple[str, Path, Path]]) -> None:
    """A word that a cell holds but the PDF lacks was cut at a cell's edge (or hidden by a short row)."""
    faults = []
    for label, workbook, pdf in rendered:
        printed = Counter(_alnum(w.text) for page in pages(pdf) for w in page.words)
        wanted: Counter[str] = Counter()
        for words in cell_words(workbook).values():
            wanted.update(w for w in map(_alnum, words) if w)
        short = {w: n for w, n in wanted.items() if printed[w] < n}
        if short:
            faults.append(f"{label}: {sorted(short)[:10]}")
    assert not faults, "\n".join(faults)
