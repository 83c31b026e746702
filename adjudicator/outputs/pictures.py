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
from openpyxl.utils import get_column_letter
from openpyxl.utils.cell import range_boundaries
from openpyxl.worksheet.print_settings import PrintArea
from openpyxl.worksheet.worksheet import Worksheet

from adjudicator.engine.registry import installed
from adjudicator.i18n import gettext_in
from adjudicator.outputs.libreoffice import convert
from adjudicator.turn import pipeline

#: The text height, in pixels, that a picture is scaled to (about that of 11-point text on a screen).
READABLE_PIXELS = 15.0
#: The smallest text height a wide picture is shrunk to before it is cropped at WIDEST instead.
SMALLEST_READABLE = 12.0
MARGIN_POINTS = 6.0
TALLEST = 1400
#: The widest picture, in pixels: what a page of the docs shows without shrinking it.
WIDEST = 1600
#: What a sheet's tables may take in a picture at SMALLEST_READABLE or more (in widths of a "0" and in points of row
#: height, as LibreOffice prints 11-point text): the tables that fit are shown, the rest left out.
PICTURE_COLUMNS = 215.0
PICTURE_ROW_POINTS = 900.0
DEFAULT_ROW_POINTS = 12.8
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


def only_sheet(source: Path, wanted: str, target: Path, tables_that_fit: bool = False) -> Path:
    """A copy of ``source`` in which only the first sheet whose name contains ``wanted`` is visible; with
    ``tables_that_fit``, its print area is only its first tables that a picture shows at a readable scale."""
    book = openpyxl.load_workbook(source)
    keep = next(ws for ws in book.worksheets if wanted in ws.title)
    book.active = book.worksheets.index(keep)
    for ws in book.worksheets:
        ws.sheet_state = "visible" if ws is keep else "hidden"
        ws.sheet_view.tabSelected = ws is keep
        if ws is not keep:  # LibreOffice prints the print area of a hidden sheet
            ws._print_area = PrintArea()
            ws._print_rows = None
    if tables_that_fit:
        fitting = tables_fitting(keep)
        if fitting:
            keep.print_area = f"A1:{get_column_letter(fitting[1])}{fitting[0]}"
            keep.page_setup.fitToHeight = 1  # the tables shown on the first page, none cut at its foot
            keep.page_setup.fitToWidth = 1
            keep.sheet_properties.pageSetUpPr.fitToPage = True
    book.save(target)
    return target


def tables_fitting(ws: Worksheet, columns: float = PICTURE_COLUMNS, points: float = PICTURE_ROW_POINTS
                   ) -> tuple[int, int] | None:
    """(last row, last column) of the sheet's first tables (runs of rows between empty ones) that together
    are at most ``columns`` wide and ``points`` tall; the first table always, however wide (None when it is
    taller). A wide report is shown by its first tables at a readable scale rather than whole and shrunk."""
    used: dict[int, int] = {}
    for (row, col), cell in ws._cells.items():  # noqa: SLF001 - the written cells, none created
        if cell.value is not None:
            used[row] = max(used.get(row, 0), col)
    for merged in ws.merged_cells.ranges:  # a long text's span (layout.stack_columns) is shown whole
        if merged.min_row in used:
            used[merged.min_row] = max(used[merged.min_row], merged.max_col)
    if not used:
        return None
    blocks: list[tuple[int, int, int]] = []  # (first row, last row, last column)
    for row in sorted(used):
        if blocks and row == blocks[-1][1] + 1:
            first, _, last_col = blocks[-1]
            blocks[-1] = (first, row, max(last_col, used[row]))
        else:
            blocks.append((row, row, used[row]))

    def width(last_col: int) -> float:
        return sum(ws.column_dimensions[get_column_letter(c)].width or 8.43 for c in range(1, last_col + 1))

    def height(first: int, last: int) -> float:
        return sum(ws.row_dimensions[r].height or DEFAULT_ROW_POINTS for r in range(first, last + 1))

    last_row, last_col = blocks[0][1], blocks[0][2]
    if height(1, last_row) > points:
        return None  # a table taller than a picture: the top of the sheet as printed
    for _, block_last, block_col in blocks[1:]:
        wider = max(last_col, block_col)
        if width(wider) > columns or height(1, block_last) > points:
            break
        last_row, last_col = block_last, wider
    return last_row, last_col


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
    """The first page's content as a PNG, scaled so that its text is READABLE_PIXELS tall; a picture wider
    than WIDEST is shrunk to it, its text down to SMALLEST_READABLE, then cropped to its left WIDEST
    pixels; a taller one than TALLEST shows its top."""
    _, pdftoppm, _ = tools()
    content = first_page_content(pdf)
    word_height = max(content.word_height, 1.0)
    width_points = content.x1 - content.x0 + 2 * MARGIN_POINTS
    pixels = max(SMALLEST_READABLE, min(READABLE_PIXELS, WIDEST * word_height / width_points))
    dpi = max(60, min(300, round(pixels * 72 / word_height)))
    scale = dpi / 72
    x, y = max(content.x0 - MARGIN_POINTS, 0) * scale, max(content.y0 - MARGIN_POINTS, 0) * scale
    width = min(width_points * scale, WIDEST)
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
    found["orders"] = only_sheet(kept, ruleset.order_schemas[0].title_in(lang), work / f"{name}-orders.xlsx",
                                 True)
    checked = pipeline.check(root).checked
    if checked:
        with_errors = checked.get(filled.name) or next(iter(checked.values()))
        stem = with_errors.name.split(".")[0]
        errors = gettext_in(campaign.factions[stem].language if stem in campaign.factions else lang, "Errors")
        found["checked"] = only_sheet(with_errors, errors, work / f"{name}-checked.xlsx", True)
    pending = sorted((root / "pending").rglob("gm_input.xlsx"))
    if pending and ruleset.gm_input_schemas:
        first = ruleset.gm_input_schemas[0].title_in(campaign.language)
        found["gm-input"] = only_sheet(pending[0], first, work / f"{name}-gm-input.xlsx", True)
    outcome = pipeline.run(root)
    if outcome.status == "resolved":
        report = gettext_in(lang, "Report")
        found["report"] = only_sheet(outcome.results[faction], report, work / f"{name}-report.xlsx", True)
        gm_report = f"T{campaign.turn:02d} {gettext_in(campaign.language, 'Report')}"
        found["campaign"] = only_sheet(root / "campaign.xlsx", gm_report, work / f"{name}-campaign.xlsx", True)
    return found


def column_parts(source: Path, columns: float = PICTURE_COLUMNS) -> list[Path]:
    """``source`` (a copy showing one sheet) as one workbook per part of its printed columns, each at most
    ``columns`` wide: a sheet too wide for one readable picture is split, each part after the first repeating
    the first column (the row's name or ID) beside the columns it shows, the others hidden."""
    book = openpyxl.load_workbook(source)
    ws = next(ws for ws in book.worksheets if ws.sheet_state == "visible")
    area = str(ws.print_area or "").split("!")[-1].replace("$", "")
    if not area:
        return [source]
    min_col, _, max_col, _ = range_boundaries(area)

    def width(col: int) -> float:
        return float(ws.column_dimensions[get_column_letter(col)].width or 8.43)

    parts: list[list[int]] = [[min_col]]
    used = width(min_col)
    for col in range(min_col + 1, max_col + 1):
        if used + width(col) > columns and len(parts[-1]) > (1 if len(parts) > 1 else 0):
            parts.append([min_col])
            used = width(min_col)
        parts[-1].append(col)
        used += width(col)
    if len(parts) == 1:
        return [source]
    made = []
    for number, shown in enumerate(parts, start=1):
        book = openpyxl.load_workbook(source)
        ws = next(ws for ws in book.worksheets if ws.sheet_state == "visible")
        for col in range(min_col, max_col + 1):
            ws.column_dimensions[get_column_letter(col)].hidden = col not in shown
        target = source.with_name(f"{source.stem}-{number}.xlsx")
        book.save(target)
        made.append(target)
    return made


def pictures(out: Path, names: list[str] | None = None) -> list[Path]:
    """The pictures of every ruleset with a bundled example (or of ``names``): ``<ruleset>-<kind>.png``, and
    ``<ruleset>-<kind>-2.png``... for the further parts of a sheet too wide for one."""
    soffice, _, _ = tools()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        sources: list[tuple[str, str, int, Path]] = []  # (ruleset, kind, part, workbook)
        for name, ruleset in installed().items():
            if (names and name not in names) or not (ruleset.example_dir() / "campaign.xlsx").exists():
                continue
            for kind, path in _sources(name, work).items():
                for stale in out.glob(f"{name}-{kind}-[0-9].png"):
                    stale.unlink()
                sources += [(name, kind, n, part) for n, part in enumerate(column_parts(path), start=1)]
        pdfs = work / "pdf"
        convert(soffice, [s[3] for s in sources], "pdf", pdfs, timeout=600)
        order = {kind: i for i, kind in enumerate(KINDS)}
        return [crop(pdfs / f"{path.stem}.pdf", out / (f"{name}-{kind}.png" if n == 1 else f"{name}-{kind}-{n}.png"))
                for name, kind, n, path in sorted(sources, key=lambda s: (s[0], order[s[1]], s[2]))]


if __name__ == "__main__":  # pragma: no cover
    for made in pictures(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"), sys.argv[2:] or None):
        print(made)
