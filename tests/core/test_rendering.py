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
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from adjudicator.engine.registry import installed
from adjudicator.i18n import ruleset_catalog
from adjudicator.outputs.libreoffice import convert
from adjudicator.turn import pipeline
from tests.pdf_layout import cell_words, overlaps, past_the_edge, printed_lines, touching
from tests.pdf_layout import pages as read_pages

pytestmark = pytest.mark.libreoffice

RULESETS = sorted(installed())
pages = cache(read_pages)  # each PDF's word boxes read once, for every test of the module
OFFERED: dict[str, list[str]] = {}  # by ruleset: the languages its example offers (factions' and campaign's)
FACTION_LANGUAGES: dict[str, list[str]] = {}


def _one_per_language(paths: dict[str, Path], languages: dict[str, str]) -> dict[str, Path]:
    chosen: dict[str, Path] = {}
    for faction, path in sorted(paths.items()):
        chosen.setdefault(languages.get(faction, "?"), path)
    return chosen


def offered_languages(campaign: Any) -> list[str]:
    """The languages an example offers: its factions' and the campaign's."""
    return sorted({f.language for f in campaign.factions.values()} | {campaign.language})


def every_workbook(name: str, root: Path) -> list[tuple[str, Path]]:
    """(kind, path) of every kind of workbook of ``name``'s example, in each language the example offers: the
    templates and results in each faction's language, a checked copy with errors, the GM input (as the turn
    wrote it) and campaign.xlsx in the campaign's language, and campaign.xlsx written again in each other
    language the example offers (the GM changing the campaign's: every earlier tab and map rewritten)."""
    from adjudicator.outputs.faction_workbooks import checked_copy
    from adjudicator.outputs.writing import atomic_save
    from adjudicator.store import master

    pipeline.new_campaign(installed()[name], root, example=True)
    _, campaign, ruleset = pipeline.open_campaign(root)
    languages = {f: campaign.factions[f].language for f in campaign.factions}
    offered = offered_languages(campaign)
    OFFERED[name], FACTION_LANGUAGES[name] = offered, sorted(set(languages.values()))
    found: list[tuple[str, Path]] = []
    templates = {p.stem: p for p in pipeline.make_templates(root)}
    found += [(f"template-{lang}", p) for lang, p in _one_per_language(templates, languages).items()]
    checking = pipeline.check(root)
    by_faction = {Path(k).stem: v for k, v in checking.checked.items()}
    checked = _one_per_language(by_faction, languages)
    with_errors = [s for s in checking.submissions if s.problems.has_errors()]
    assert with_errors, f"{name}'s example has a workbook with errors"
    for lang in (lang for lang in offered if lang not in checked):  # the same errors told in that language
        checked[lang] = root.parent / f"{root.name}-checked-{lang}.xlsx"
        with ruleset_catalog(ruleset.locale()):
            atomic_save(checked_copy(with_errors[0], lang), checked[lang])
    found += [(f"checked-{lang}", p) for lang, p in sorted(checked.items())]
    for gm_input in sorted((root / "pending").rglob("gm_input.xlsx"))[:1]:  # the run takes it away
        found.append((f"gm-input-{campaign.language}",
                      shutil.copyfile(gm_input, root.parent / f"{root.name}-gm_input.xlsx")))
        found += gm_input_in_other_languages(gm_input, ruleset, campaign, offered, root)
    outcome = pipeline.run(root)
    assert outcome.status == "resolved", (name, outcome.status)
    found += [(f"results-{lang}", p) for lang, p in _one_per_language(outcome.results, languages).items()]
    found.append((f"campaign-{campaign.language}", root / "campaign.xlsx"))
    _, after, ruleset = pipeline.open_campaign(root)
    for lang in (lang for lang in offered if lang != campaign.language):
        book = master.open_master(root / "campaign.xlsx")
        after.language = lang
        with ruleset_catalog(ruleset.locale()):
            master.write_state(book, ruleset, after, after.tables, after.turn)
        path = root.parent / f"{root.name}-campaign-{lang}.xlsx"
        atomic_save(book, path)
        found.append((f"campaign-{lang}", path))
    return found


def gm_input_in_other_languages(gm_input: Path, ruleset: Any, campaign: Any, offered: list[str],
                                root: Path) -> list[tuple[str, Path]]:
    """The example's GM input as the adjudicator writes it for a GM of each other language offered."""
    from adjudicator.engine.problems import ProblemList
    from adjudicator.turn.gm_input import read_gm_input, write_gm_input

    sheets = read_gm_input(gm_input, ruleset, ProblemList()) or {}
    requests = {}
    for schema in ruleset.gm_input_schemas:
        if schema.key in sheets:
            frame = sheets[schema.key].frame
            requests[schema.key] = frame[[k for k in schema.keys() if k in frame.columns]]
    found = []
    for lang in (lang for lang in offered if lang != campaign.language):
        path = root.parent / f"{root.name}-gm_input-{lang}.xlsx"
        with ruleset_catalog(ruleset.locale()):
            write_gm_input(path, ruleset, requests, campaign.turn, lang, ProblemList())
        found.append((f"gm-input-{lang}", path))
    return found


def _alnum(word: str) -> str:
    return re.sub(r"\W", "", word)


def render_all(names: list[str], work: Path, soffice: str) -> list[tuple[str, Path, Path]]:
    """(label, workbook, pdf) of every workbook of the rulesets ``names``, converted by ONE LibreOffice run."""
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) is not installed; .ci/run installs it")
    sources: list[tuple[str, Path]] = []
    for name in names:
        for kind, path in every_workbook(name, work / name):
            label = f"{name}-{kind}"
            copy = work / "all" / f"{label}.xlsx"
            copy.parent.mkdir(exist_ok=True)
            shutil.copyfile(path, copy)
            sources.append((label, copy))
    pdfs = convert(soffice, [path for _, path in sources], "pdf", work / "pdf")
    return [(label, path, pdf) for (label, path), pdf in zip(sources, pdfs, strict=True)]


def page_faults(rendered: list[tuple[str, Path, Path]]) -> list[str]:
    """Pages without text, words over each other or touching (two cells' texts read as one), words past the
    page's edge."""
    faults = []
    for label, _, pdf in rendered:
        for page in pages(pdf):
            if not page.words:
                faults.append(f"{label} page {page.number}: no text")
            for a, b in overlaps(page):
                faults.append(f"{label} page {page.number}: {a.text!r} over {b.text!r}")
            for a, b in touching(page):
                faults.append(f"{label} page {page.number}: {a.text!r} touches {b.text!r} "
                              f"({b.x0 - a.x1:.2f} pt apart)")
            for word in past_the_edge(page):
                faults.append(f"{label} page {page.number}: {word.text!r} past the page's edge")
    return faults


def cut_words(rendered: list[tuple[str, Path, Path]]) -> list[str]:
    """The words a printed cell holds but the PDF lacks: cut at a cell's edge (or hidden by a short row)."""
    faults = []
    for label, workbook, pdf in rendered:
        printed = Counter(_alnum(w) for w in _joined_at_hyphens(pages(pdf)))
        wanted: Counter[str] = Counter()
        for words in cell_words(workbook).values():
            wanted.update(w for w in map(_alnum, words) if w)
        short = {w: n for w, n in wanted.items() if printed[w] < n}
        if short:
            faults.append(f"{label}: {sorted(short)[:10]}")
        cut = clipped(printed, wanted) + links_past_their_cell(workbook)
        if cut:
            faults.append(f"{label}: cut at a cell's edge: {cut[:10]}")
    return faults


def _joined_at_hyphens(pdf_pages: list[Any]) -> list[str]:
    """The printed words, a word that a wrapped cell broke after its hyphen ("G-" at a line's end, "PDS1"
    beginning the cell's next line, as spreadsheets wrap) joined again. The rest of a broken word is the first
    word after it that lies on a later line and starts left of the hyphen (in the same cell), not the next
    word in reading order, which may be the next column's text on the same line."""
    words: list[str] = []
    for page in pdf_pages:
        page_words = list(page.words)
        taken: set[int] = set()
        for i, word in enumerate(page_words):
            if i in taken:
                continue
            text = word.text
            if len(text) > 1 and text.endswith("-") and text[-2].isalnum():
                rest = next((j for j in range(i + 1, len(page_words)) if j not in taken
                             and page_words[j].y0 >= word.y1 - 1 and page_words[j].x0 <= word.x1
                             and page_words[j].y0 < word.y1 + 2 * (word.y1 - word.y0)), None)
                if rest is not None:
                    taken.add(rest)
                    text += page_words[rest].text
            words.append(text)
    return words


def links_past_their_cell(workbook: Path) -> list[str]:
    """Cells holding a link whose text is wider than their column: LibreOffice never wraps such a cell, and
    prints it cut at the cell's edge (its PDF keeps the whole text under a clip, so no word box shows it)."""
    import openpyxl
    from openpyxl.utils import get_column_letter

    book = openpyxl.load_workbook(workbook)
    found = []
    for ws in book.worksheets:
        if ws.sheet_state != "visible":
            continue
        for row in ws.iter_rows():
            for cell in row:
                if cell.hyperlink is None or not isinstance(cell.value, str):
                    continue
                width = ws.column_dimensions[get_column_letter(cell.column)].width or 8.43
                if len(cell.value) * 1.2 > width:  # as LibreOffice prints it: a letter is wider than a "0"
                    found.append(f"{ws.title}!{cell.coordinate} ({len(cell.value)} characters, column {width:g})")
    return found


def clipped(printed: Counter[str], wanted: Counter[str]) -> list[str]:
    """Printed words that no cell holds but that begin a word a cell holds ("размещен" of "размещено"): the
    rest of the word was cut at the cell's edge (a word printed whole elsewhere does not hide it)."""
    by_start: dict[str, list[str]] = {}
    for word in wanted:
        for n in range(3, len(word)):
            by_start.setdefault(word[:n], []).append(word)
    return sorted(f"{w}… ({by_start[w][0]})" for w in printed
                  if w not in wanted and w in by_start and re.search(r"[^\W\d]", w))


NUMBER = re.compile(r"^[-+]?\d+(?:[.,]\d+)?$")


def example_tables(workbook: Path) -> list[tuple[list[str], list[list[str]]]]:
    """(headers, rows of shown texts) of every example table of a template's Instructions sheet (its first
    sheet): a row of header-filled cells and the rows under it, up to the first empty one."""
    import openpyxl

    from adjudicator.outputs.writing import HEADER_FILL

    ws = openpyxl.load_workbook(workbook).worksheets[0]
    tables: list[tuple[list[str], list[list[str]]]] = []
    row = 1
    while row <= ws.max_row:
        cells = [c for c in ws[row] if c.value is not None]
        if cells and all(c.fill.fgColor.rgb.endswith(HEADER_FILL.fgColor.rgb[-6:]) for c in cells):
            headers = [str(c.value) for c in cells]
            rows = []
            while row + 1 <= ws.max_row and any(c.value is not None for c in ws[row + 1]):
                row += 1
                rows.append([_as_shown(ws.cell(row=row, column=i).value) for i in range(1, len(headers) + 1)])
            tables.append((headers, rows))
        row += 1
    return tables


def _as_shown(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return "" if value is None else str(value)


def _header_edges(line: list[Any], headers: list[str]) -> list[float] | None:
    """The left edge of each header's cell on ``line`` (its first word's left), or None when the line is not
    that header row."""
    edges, at = [], 0
    for header in headers:
        first = header.split()[0] if header.split() else ""
        while at < len(line) and line[at].text != first:
            at += 1
        if at == len(line):
            return None
        edges.append(line[at].x0)
        at += 1
    return edges


def numbers_out_of_their_cells(rendered: list[tuple[str, Path, Path]]) -> list[str]:
    """The numbers of the Instructions sheet's example rows that are not printed inside their own cell, apart
    from the next one: each must lie between its header's left edge and the next header's, at least a space
    (a quarter of the text's height) before it. A number wider than its cell (printed ###), one pushed over
    the next column, or one aligned right against the next cell's text fails."""
    faults = []
    for label, workbook, pdf in rendered:
        if "-template-" not in label:
            continue
        lines = printed_lines(pages(pdf), by_top=True)
        for headers, rows in example_tables(workbook):
            at = next((i for i, line in enumerate(lines) if _header_edges(line, headers)), None)
            if at is None:
                faults.append(f"{label}: example table {headers} not printed")
                continue
            edges = _header_edges(lines[at], headers) or []
            below = [w for line in lines[at + 1: at + 1 + 3 * len(rows)] for w in line]
            for values in rows:
                for i, value in enumerate(values):
                    if not NUMBER.match(value):
                        continue
                    left, right = edges[i], edges[i + 1] if i + 1 < len(edges) else float("inf")
                    printed = [w for w in below if w.text == value]
                    if not any(w.x0 >= left - 0.5 and w.x1 <= right - 0.25 * (w.y1 - w.y0) for w in printed):
                        where = ", ".join(f"{w.x0:.1f}-{w.x1:.1f}" for w in printed) or "nowhere"
                        faults.append(f"{label}: {value!r} of {headers[i]!r} printed at {where}, its cell "
                                      f"{left:.1f}-{right:.1f}")
    return faults


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory, soffice: str) -> list[tuple[str, Path, Path]]:
    """Every workbook of every ruleset, converted by ONE LibreOffice run (slow: see tests/conftest.py)."""
    return render_all(RULESETS, tmp_path_factory.mktemp("rendering"), soffice)


def test_every_kind_of_workbook_of_every_ruleset_is_rendered(rendered: list[tuple[str, Path, Path]]) -> None:
    """Every kind, of every ruleset; the checked copy and campaign.xlsx in each language its example offers,
    the templates and results in each of its factions' languages."""
    labels = {label for label, _, _ in rendered}
    for name in RULESETS:
        for kind in ("template", "checked", "results", "gm-input", "campaign"):
            assert any(label.startswith(f"{name}-{kind}") for label in labels), (name, kind)
    for name, offered in OFFERED.items():
        for lang in offered:
            for kind in ("checked", "gm-input", "campaign"):
                assert f"{name}-{kind}-{lang}" in labels, (name, kind, lang)
        for lang in FACTION_LANGUAGES[name]:
            for kind in ("template", "results"):
                assert f"{name}-{kind}-{lang}" in labels, (name, kind, lang)
    assert {"en", "es", "ru"} <= {label.rsplit("-", 1)[-1] for label in labels}
    assert all(pdf.exists() for _, _, pdf in rendered)


def test_no_blank_page_no_overlap_no_touching_words_nothing_past_the_page(
        rendered: list[tuple[str, Path, Path]]) -> None:
    faults = page_faults(rendered)
    assert not faults, "\n".join(faults[:40])


def test_every_word_of_the_printed_cells_is_printed_whole(rendered: list[tuple[str, Path, Path]]) -> None:
    """A word that a cell holds but the PDF lacks was cut at a cell's edge (or hidden by a short row)."""
    faults = cut_words(rendered)
    assert not faults, "\n".join(faults)


def test_the_instructions_examples_print_every_number_inside_its_own_cell(
        rendered: list[tuple[str, Path, Path]]) -> None:
    faults = numbers_out_of_their_cells(rendered)
    assert not faults, "\n".join(faults)
