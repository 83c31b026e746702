"""Pictures of the workbooks players and the GM get, for the docs, rendered through LibreOffice (to
PDF) and pdftoppm (to PNG), cropped to the printed content at a scale where its text is readable.

    python -m adjudicator.outputs.pictures docs/images        (or: make pictures)

For each ruleset with a bundled example: a player's filled order sheet, the checked copy of a workbook
with errors (its Errors tab), that player's results report, the GM input of the turn and the GM's
campaign.xlsx after the turn (the turn's report tab). All come from the example campaign, so the
pictures are made again whenever the workbooks change.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import openpyxl
from openpyxl.worksheet.print_settings import PrintArea

from adjudicator.engine.registry import installed
from adjudicator.i18n import gettext_in
from adjudicator.turn import pipeline

#: The text height, in pixels, that a picture is scaled to (about that of 11-point text on a screen).
READABLE_PIXELS = 15.0
MARGIN_POINTS = 6.0
TALLEST = 1400
XHTML = "{http://www.w3.org/1999/xhtml}"
KINDS = ("orders", "checked", "report", "gm-input", "campaign")


class MissingToolError(RuntimeError):
    """Raised when LibreOffice (soffice), pdftoppm or pdftotext is not installed."""


def tools() -> tuple[str, str, str]:
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    pdftoppm, pdftotext = shutil.which("pdftoppm"), shutil.which("pdftotext")
    if not soffice or not pdftoppm or not pdftotext:
        raise MissingToolError("pictures need LibreOffice (soffice) and pdftoppm, pdftotext (poppler-utils)")
    return soffice, pdftoppm, pdftotext


def only_sheet(source: Path, wanted: str, target: Path) -> Path:
    """A copy of ``source`` in which only the first sheet whose name contains ``wanted`` is visible."""
    book = openpyxl.load_workbook(source)
    keep = next(ws for ws in book.worksheets if wanted in ws.title)
    book.active = book.worksheets.index(keep)
    for ws in book.worksheets:
        ws.sheet_state = "visible" if ws is keep else "hidden"
        ws.sheet_view.tabSelected = ws is keep
        if ws is not keep:  # LibreOffice prints the print area of a hidden sheet
            ws._print_area = PrintArea()
            ws._print_rows = None
    book.save(target)
    return target


@dataclass(frozen=True)
class Content:
    """Where the words of a PDF's first page are, in points, and how tall they are."""

    x0: float
    y0: float
    x1: float
    y1: float
    word_height: float


def first_page_content(pdf: Path) -> Content:
    _, _, pdftotext = tools()
    out = subprocess.run([pdftotext, "-f", "1", "-l", "1", "-bbox", str(pdf), "-"], check=True,
                         capture_output=True, timeout=120).stdout
    boxes = [(float(w.get("xMin")), float(w.get("yMin")), float(w.get("xMax")), float(w.get("yMax")))
             for w in ET.fromstring(out).iter(f"{XHTML}word")]
    if not boxes:
        raise ValueError(f"{pdf.name}: the first page has no text")
    return Content(min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                   max(b[3] for b in boxes), statistics.median(b[3] - b[1] for b in boxes))


def crop(pdf: Path, png: Path) -> Path:
    """The first page's content as a PNG, scaled so that its text is READABLE_PIXELS tall."""
    _, pdftoppm, _ = tools()
    content = first_page_content(pdf)
    dpi = max(60, min(300, round(READABLE_PIXELS * 72 / max(content.word_height, 1.0))))
    scale = dpi / 72
    x, y = max(content.x0 - MARGIN_POINTS, 0) * scale, max(content.y0 - MARGIN_POINTS, 0) * scale
    width = (content.x1 - content.x0 + 2 * MARGIN_POINTS) * scale
    height = min((content.y1 - content.y0 + 2 * MARGIN_POINTS) * scale, TALLEST)  # long reports: their top
    subprocess.run([pdftoppm, "-png", "-r", str(dpi), "-f", "1", "-l", "1", "-singlefile", "-x", str(int(x)),
                    "-y", str(int(y)), "-W", str(int(width)), "-H", str(int(height)), str(pdf),
                    str(png.with_suffix(""))], check=True, capture_output=True, timeout=120)
    return png


def _sources(name: str, work: Path) -> dict[str, Path]:
    """One workbook per kind of picture, each with only the sheet to show."""
    ruleset = installed()[name]
    root = work / name
    pipeline.new_campaign(ruleset, root, example=True)
    _, campaign, _ = pipeline.open_campaign(root)
    filled = sorted((root / "inbox").iterdir())[0]  # a player's filled order workbook
    faction = filled.stem
    lang = campaign.factions[faction].language
    found: dict[str, Path] = {}
    kept = shutil.copyfile(filled, work / f"{name}-filled.xlsx")
    found["orders"] = only_sheet(kept, ruleset.order_schemas[0].title_in(lang), work / f"{name}-orders.xlsx")
    checked = pipeline.check(root).checked
    if checked:
        with_errors = checked.get(filled.name) or next(iter(checked.values()))
        stem = with_errors.name.split(".")[0]
        errors = gettext_in(campaign.factions[stem].language if stem in campaign.factions else lang, "Errors")
        found["checked"] = only_sheet(with_errors, errors, work / f"{name}-checked.xlsx")
    pending = sorted((root / "pending").rglob("gm_input.xlsx"))
    if pending and ruleset.gm_input_schemas:
        first = ruleset.gm_input_schemas[0].title_in(campaign.language)
        found["gm-input"] = only_sheet(pending[0], first, work / f"{name}-gm-input.xlsx")
    outcome = pipeline.run(root)
    if outcome.status == "resolved":
        report = gettext_in(lang, "Report")
        found["report"] = only_sheet(outcome.results[faction], report, work / f"{name}-report.xlsx")
        gm_report = f"T{campaign.turn:02d} {gettext_in(campaign.language, 'Report')}"
        found["campaign"] = only_sheet(root / "campaign.xlsx", gm_report, work / f"{name}-campaign.xlsx")
    return found


def pictures(out: Path, names: list[str] | None = None) -> list[Path]:
    soffice, _, _ = tools()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        sources: list[tuple[str, str, Path]] = []
        for name, ruleset in installed().items():
            if (names and name not in names) or not (ruleset.example_dir() / "campaign.xlsx").exists():
                continue
            sources += [(name, kind, path) for kind, path in _sources(name, work).items()]
        pdfs = work / "pdf"
        subprocess.run([soffice, f"-env:UserInstallation=file://{work / 'profile'}", "--headless", "--convert-to",
                        "pdf", "--outdir", str(pdfs), *(str(p) for _, _, p in sources)],
                       check=True, capture_output=True, timeout=600)
        order = {kind: i for i, kind in enumerate(KINDS)}
        return [crop(pdfs / f"{path.stem}.pdf", out / f"{name}-{kind}.png")
                for name, kind, path in sorted(sources, key=lambda s: (s[0], order[s[1]]))]


if __name__ == "__main__":  # pragma: no cover
    for made in pictures(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"), sys.argv[2:] or None):
        print(made)
