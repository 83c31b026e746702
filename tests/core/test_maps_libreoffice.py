"""The map and the charts as LibreOffice prints them: the map picture on a page of the result workbook
and of campaign.xlsx, and a chart that is not blank on the History page."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from adjudicator.engine.registry import find_ruleset
from adjudicator.turn import pipeline
from tests.conftest import convert


@pytest.fixture(scope="module")
def turn_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lo-maps") / "c"
    pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
    outcome = pipeline.run(root)
    assert outcome.status == "resolved" and outcome.turn_dir is not None
    return outcome.turn_dir


@pytest.fixture(scope="module")
def beta_pdf(turn_dir: Path, soffice: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """BETA's result workbook as LibreOffice prints it (converted once for the module's tests)."""
    return convert(soffice, turn_dir / "results" / "BETA.xlsx", "pdf", tmp_path_factory.mktemp("beta-pdf"))


def image_pages(pdf: Path) -> dict[int, tuple[int, int]]:
    """Page number → (width, height) of the images on it, from ``pdfimages -list``."""
    out = subprocess.run(["pdfimages", "-list", str(pdf)], check=True, capture_output=True, text=True).stdout
    pages = {}
    for line in out.splitlines()[2:]:
        cells = line.split()
        if len(cells) > 4 and cells[2] == "image":
            pages[int(cells[0])] = (int(cells[3]), int(cells[4]))
    return pages


def page_texts(pdf: Path) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True,
                          text=True).stdout
    return text.split("\f")


def coloured_share(png: Path) -> float:
    """The share of the page's pixels that are strongly coloured (chart lines and markers, not text)."""
    image = Image.open(png).convert("RGB")
    pixels = list(image.get_flattened_data())
    coloured = sum(1 for r, g, b in pixels if max(r, g, b) - min(r, g, b) > 80)
    return coloured / len(pixels)


@pytest.mark.libreoffice
def test_the_map_is_on_its_page_of_the_result_workbook_and_the_chart_is_drawn(turn_dir: Path, beta_pdf: Path,
                                                                               tmp_path: Path) -> None:
    pdf = beta_pdf
    texts = page_texts(pdf)
    # The Map tab's page, found by its title ("Карта хода 3 (BETA)"); the picture whole on it.
    title = re.compile(r"^\s*Карта хода \d+ \(BETA\)")
    map_pages = [i for i, t in enumerate(texts, start=1) if title.match(t)]
    assert len(map_pages) == 1, [t[:80] for t in texts]
    pages = image_pages(pdf)
    size = Image.open(turn_dir / "results" / "BETA.map.png").size
    assert pages == {map_pages[0]: size}, (pages, map_pages)  # the one picture, on the Map tab's page, whole
    assert "BETA.map.svg" in texts[map_pages[0] - 1]  # the caption under the picture: the same page
    assert texts[map_pages[0]].lstrip().startswith("Изменение")  # then the Changes tab
    # The History tab's page, found by its title; its chart drawn.
    history = next(i for i, t in enumerate(texts, start=1) if re.match(r"\s*История \(BETA\)", t))
    assert re.search(r"Ход\s+Фракция", texts[history - 1]) and "казна" in texts[history - 1]
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", str(history), "-l", str(history), str(pdf),
                    str(tmp_path / "history")], check=True)
    png = next(tmp_path.glob("history*.png"))
    assert coloured_share(png) > 0.0005, "the History chart is blank"


@pytest.mark.libreoffice
def test_the_gm_map_is_in_campaign_xlsx(turn_dir: Path, soffice: str, tmp_path: Path) -> None:
    pdf = convert(soffice, turn_dir / "campaign_after.xlsx", "pdf", tmp_path)
    pages = image_pages(pdf)
    size = Image.open(turn_dir / "gm.map.png").size
    assert list(pages.values()) == [size]
    texts = page_texts(pdf)
    page = next(iter(pages))
    # a page of its own: the picture under its title ("Map of turn 3 (GM)" in the GM's words)
    assert page > 1 and re.match(r"\s*\S+.*\(\S+\)\s*$", texts[page - 1].strip().splitlines()[0])
    assert "gm.map.svg" in texts[page - 1]


NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")


@pytest.mark.libreoffice
def test_each_number_of_the_history_tables_is_in_its_cell_under_its_header(turn_dir: Path, beta_pdf: Path) -> None:
    """The History tab's points table and its chart's table, as printed: every number right-aligned under its
    own header (its right edge at the header's), and a gap before the next column's word, never touching it."""
    import openpyxl

    from tests.pdf_layout import pages

    page = next(p for p in pages(beta_pdf) if any(w.text == "История" for w in p.words))
    faction = next(w for w in page.words if w.text == "Фракция")  # the points table's header row
    headers = [w for w in page.words if abs(w.y0 - faction.y0) < 1]
    rows: dict[int, list] = {}
    for word in page.words:
        if word.y0 > faction.y1 - 1:
            rows.setdefault(round(word.y0), []).append(word)
    printed = []
    for row in rows.values():
        row.sort(key=lambda w: w.x0)
        for i, word in enumerate(row):
            if not NUMBER.fullmatch(word.text):
                continue
            printed.append(word.text)
            header = min(headers, key=lambda h: abs(h.x1 - word.x1))
            assert abs(header.x1 - word.x1) <= 1.5, f"{word.text} is not under a header: {header.text}"
            following = row[i + 1:]
            if following:
                assert following[0].x0 - word.x1 >= 4, f"{word.text} touches {following[0].text}"
    # every number the tables hold was found and checked (turns, values, the chart table's figures)
    book = openpyxl.load_workbook(turn_dir / "results" / "BETA.xlsx", read_only=True)
    sheet = next(ws for ws in book.worksheets if ws.title.startswith("История"))
    held = [str(v) for row in sheet.iter_rows(min_row=3, values_only=True) for v in row
            if isinstance(v, int | float) and not isinstance(v, bool)]
    book.close()
    assert held and sorted(printed) == sorted(held)
