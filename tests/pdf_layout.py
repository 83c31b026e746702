"""Word boxes of a PDF (from poppler's ``pdftotext -bbox-layout``) and the faults a reader would see:
words drawn over each other or against each other, words past the page's edge, pages without text."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

NS = "{http://www.w3.org/1999/xhtml}"


@dataclass(frozen=True)
class Word:
    page: int
    text: str
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class Page:
    number: int
    width: float
    height: float
    words: tuple[Word, ...]


def pages(pdf: Path) -> list[Page]:
    out = subprocess.run(["pdftotext", "-bbox-layout", str(pdf), "-"], check=True, capture_output=True,
                         timeout=120).stdout
    root = ET.fromstring(out)
    found = []
    for number, page in enumerate(root.iter(f"{NS}page"), start=1):
        words = tuple(
            Word(number, w.text or "", float(w.get("xMin")), float(w.get("yMin")), float(w.get("xMax")),
                 float(w.get("yMax")))
            for w in page.iter(f"{NS}word"))
        found.append(Page(number, float(page.get("width")), float(page.get("height")), words))
    return found


def overlaps(page: Page, tolerance: float = 0.25) -> list[tuple[Word, Word]]:
    """Pairs of words whose boxes cover each other by more than ``tolerance`` of the smaller's height
    and a fifth of the narrower one's width (letters touching are not an overlap)."""
    words = sorted(page.words, key=lambda w: w.y0)
    pairs = []
    for i, a in enumerate(words):
        for b in words[i + 1:]:
            if b.y0 >= a.y1:
                break
            dy = min(a.y1, b.y1) - max(a.y0, b.y0)
            dx = min(a.x1, b.x1) - max(a.x0, b.x0)
            if dy > tolerance * min(a.y1 - a.y0, b.y1 - b.y0) and dx > 0.2 * min(a.x1 - a.x0, b.x1 - b.x0):
                pairs.append((a, b))
    return pairs


#: The widest gap, as a share of the word boxes' height, between two words on one line that reads as no gap
#: at all. A space between two words of one cell is wider: 0.318 em in DejaVu Sans (what LibreOffice draws
#: where Calibri and Carlito are missing; pdftotext measures 0.24 of the box's height), 0.226 em in Carlito
#: (0.185 of its box). Two cells' texts drawn against each other (a right-aligned number and the next
#: column's left-aligned text, without an indent between them) measure 0.13 to 0.16.
TOUCHING = 0.17


def touching(page: Page, gap: float = TOUCHING) -> list[tuple[Word, Word]]:
    """Pairs of neighbouring words on one line (the same baseline and size) less than ``gap`` of their height
    apart but not over each other (that is :func:`overlaps`): the texts of two cells that touch, which the
    reader takes for one ("50BETA")."""
    lines: list[list[Word]] = []
    for word in sorted(page.words, key=lambda w: (w.y1, w.x0)):
        height = word.y1 - word.y0
        line = next((line for line in lines if abs(line[0].y1 - word.y1) < 0.5
                     and abs((line[0].y1 - line[0].y0) - height) < 0.1 * height), None)
        if line is None:
            lines.append([word])
        else:
            line.append(word)
    pairs = []
    for line in lines:
        line.sort(key=lambda w: w.x0)
        for a, b in zip(line, line[1:], strict=False):
            space = b.x0 - a.x1
            if -0.2 * min(a.x1 - a.x0, b.x1 - b.x0) < space < gap * (a.y1 - a.y0):
                pairs.append((a, b))
    return pairs


def past_the_edge(page: Page) -> list[Word]:
    return [w for w in page.words if w.x0 < 0 or w.y0 < 0 or w.x1 > page.width + 0.5 or w.y1 > page.height + 0.5]


def words_of(pdf_pages: list[Page]) -> set[str]:
    return {w.text for page in pdf_pages for w in page.words}


def cell_words(xlsx: Path) -> dict[str, set[str]]:
    """The words of every text cell inside the print area of each visible sheet, by sheet."""
    import openpyxl
    from openpyxl.utils.cell import range_boundaries

    book = openpyxl.load_workbook(xlsx)
    found: dict[str, set[str]] = {}
    for ws in book.worksheets:
        if ws.sheet_state != "visible":
            continue
        area = ws.print_area
        bounds = range_boundaries(str(area).split("!")[-1].replace("$", "").split(",")[0]) if area else None
        words: set[str] = set()
        for row in ws.iter_rows():
            for cell in row:
                if not isinstance(cell.value, str) or cell.data_type == "f":
                    continue
                if bounds and not (bounds[0] <= cell.column <= bounds[2] and bounds[1] <= cell.row <= bounds[3]):
                    continue
                words.update(cell.value.split())
        found[ws.title] = words
    return found


def printed_lines(pages: list[Page], by_top: bool = False) -> list[list[Word]]:
    """The words of every page by printed line (the same baseline, or the same top with ``by_top``, within a
    point), top to bottom, left to right."""
    found = []
    for page in pages:
        lines: list[list[Word]] = []
        for word in sorted(page.words, key=lambda w: ((w.y0 if by_top else w.y1), w.x0)):
            edge = word.y0 if by_top else word.y1
            if lines and abs((lines[-1][0].y0 if by_top else lines[-1][0].y1) - edge) < 1.0:
                lines[-1].append(word)
            else:
                lines.append([word])
        found += [sorted(line, key=lambda w: w.x0) for line in lines]
    return found
