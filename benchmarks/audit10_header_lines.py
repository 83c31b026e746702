"""Header rows of report tables against what LibreOffice draws in them (issue 10: header rows one line too tall).

    python benchmarks/audit10_header_lines.py [OUT]

Runs `adjudicator demo` into OUT (a temporary folder by default), prints every example's results workbooks and
campaign.xlsx to PDF with LibreOffice, and for each titled table (a title row, its header row, a first data row)
compares the header row's written height with the lines LibreOffice draws in it: the lines between the title's
printed line and the first data row's. A row written one line (13.5 pt) or more taller than its drawn lines has a
blank line inside it ("BLANK LINE"). Then it measures the room LibreOffice gives a wrapped cell's text: texts of
digits (every digit is one "0" wide in DejaVu Sans, which LibreOffice draws where Calibri and Carlito are
missing) in columns a fifth of a "0" apart, and prints the padding the widest text drawn on one line leaves,
against the padding layout.wrapped_lines takes off (layout.WRAP_PADDING). Last, three texts within a letter of
their column's width printed at twelve page-width scales: whether LibreOffice wraps them moves with the scale
(layout.LINE_SLACK).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import openpyxl
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adjudicator.outputs.layout import LINE_POINTS, WRAP_PADDING, inset, text_width  # noqa: E402
from tests.conftest import convert  # noqa: E402
from tests.pdf_layout import pages, printed_lines  # noqa: E402

DIGITS = "023456789"  # the model counts a "1" narrow; DejaVu Sans draws it as wide as the others


def to_pdf(source: Path, out: Path) -> Path:
    return convert("soffice", source, "pdf", out)


def titled_tables(path: Path) -> list[tuple[str, str, float, str]]:
    """(sheet, title, header row's height in points, first word of the first data row) of every titled table (a
    header row of two cells or more)."""
    found = []
    for ws in openpyxl.load_workbook(path).worksheets:
        if ws.sheet_state != "visible":
            continue
        for (cell,) in ws.iter_rows(max_col=1):
            if isinstance(cell.value, str) and cell.font.sz and float(cell.font.sz) > 11:
                header = [c.value for c in ws[cell.row + 1] if c.value is not None]
                data = ws.cell(cell.row + 2, 1).value
                if len(header) > 1 and data is not None and str(data).split():  # a table, not a titled text
                    found.append((ws.title, cell.value, ws.row_dimensions[cell.row + 1].height or 15.0,
                                  str(data).split()[0]))
    return found


def header_lines(path: Path, out: Path) -> list[str]:
    """One line of findings per titled table of the workbook at ``path``."""
    tables = titled_tables(path)
    if not tables:
        return []
    lines = printed_lines(pages(to_pdf(path, out)))
    texts = [" ".join(w.text for w in line) for line in lines]
    report, start = [], 0
    for sheet, title, height, first_word in tables:
        at = next((k for k in range(start, len(lines)) if texts[k].startswith(title)), None)
        if at is None:
            continue
        start = at + 1
        left = lines[at][0].x0
        data = next((k for k in range(at + 1, min(at + 15, len(lines)))
                     if lines[k][0].page == lines[at][0].page
                     and any(w.text == first_word and w.x0 < left + 60 for w in lines[k][:2])), None)
        if data is None or data == at + 1:
            continue  # the table breaks across a page, or its first data row was not found
        drawn = data - at - 1
        written = round((height - 2) / LINE_POINTS) if height > 15 else 1
        flag = "BLANK LINE" if written - drawn >= 1 else ("CUT" if drawn > written else "")
        report.append(f"{path.stem}\t{sheet}\t{title}\twritten {height:.1f} pt ({written} lines)\t"
                      f"drawn {drawn}\t{flag}")
    return report


def padding_probe(out: Path) -> list[str]:
    """The padding LibreOffice leaves beside a wrapped text, in "0" widths, by font weight and indent."""
    wb = Workbook()
    ws = wb.active
    columns = [(base + step / 5, bold, indent) for bold in (False, True) for indent in (0, 1)
               for base in (9.0, 14.0, 20.0) for step in range(5)]
    cells = {}
    for col, (width, bold, indent) in enumerate(columns, start=1):
        ws.column_dimensions[get_column_letter(col)].width = width
        for row, n in enumerate(range(4, 22), start=1):
            tag = DIGITS[col // 9] + DIGITS[col % 9] + DIGITS[row // 9] + DIGITS[row % 9]
            first, second = tag + "0" * (n - 4), "9" + tag
            cell = ws.cell(row, col, f"{first} {second}")
            cell.font = Font(name="Calibri", b=bold)
            cell.alignment = Alignment(wrap_text=True, vertical="top", horizontal="right" if indent else None,
                                       indent=indent)
            cells[col, row] = (first, second, text_width(f"{first} {second}", bold))
            ws.row_dimensions[row].height = 30
    wb.save(out / "padding_probe.xlsx")
    words = {w.text: w for page in pages(to_pdf(out / "padding_probe.xlsx", out)) for w in page.words}
    bounds: dict[tuple[bool, int], tuple[float, float]] = {}
    for col, (width, bold, indent) in enumerate(columns, start=1):
        one, two = [], []
        for row in range(1, 19):
            first, second, width_of = cells[col, row]
            a, b = words.get(first), words.get(second)
            if a and b:
                (one if abs(a.y1 - b.y1) < 1 else two).append(width_of)
        if not one:
            continue
        room = width - inset(indent)
        low, high = bounds.get((bold, indent), (-99.0, 99.0))
        bounds[bold, indent] = (max(low, room - min(two)), min(high, room - max(one)))
    return [f"{'bold' if bold else 'regular'}, indent {indent}: LibreOffice's padding {low:.2f} to {high:.2f} "
            f"\"0\" (the model takes {WRAP_PADDING[bold]:.2f})" for (bold, indent), (low, high) in bounds.items()]


#: Texts whose width is within a letter of their column's (70, 70, 50 "0"s): 70.47, 69.70 and 49.89.
NEAR_EDGE = (("V04: Como máximo 4 Tropas pueden participar en una Orden Coordinada (5 declaradas).", 70),
             ("E-REP-LOC: El regimiento D5 debe estar en el planeta de un sistema propio o disputado.", 70),
             ("Income: systems 330 C, factories 200 C (+0%), economy +0%.", 50))


def scale_probe(out: Path) -> list[str]:
    """The lines LibreOffice breaks each NEAR_EDGE text in, printed one page wide at twelve scales (a third
    column, empty but for an "x", widens the page)."""
    books = []
    for extra in (1, 20, 40, 60, 80, 100, 130, 160, 200, 250, 300, 400):
        wb = Workbook()
        ws = wb.active
        for row, (text, width) in enumerate(NEAR_EDGE, start=1):
            cell = ws.cell(2 * row - 1, 1 if width == 70 else 2, text)
            cell.font = Font(name="Calibri")
            cell.alignment = Alignment(wrap_text=True, vertical="top")
            ws.row_dimensions[2 * row - 1].height = 30
        for letter, width in (("A", 70), ("B", 50), ("C", extra)):
            ws.column_dimensions[letter].width = width
        ws.cell(1, 3, "x")
        ws.page_setup.orientation = "landscape"
        ws.page_setup.fitToWidth, ws.page_setup.fitToHeight = 1, 0
        ws.sheet_properties.pageSetUpPr.fitToPage = True
        ws.print_area = "A1:C6"
        books.append(out / f"scale_{extra:03d}.xlsx")
        wb.save(books[-1])
    report = []
    for book in books:
        page = pages(to_pdf(book, out))[0]
        baselines = {w.text: w.y1 for w in reversed(page.words)}
        unit = next((w.x1 - w.x0) / text_width("Income:") for w in page.words if w.text == "Income:")
        lines = ["1" if abs(baselines[text.split()[0]] - baselines[text.split()[-1]]) < 1 else "2"
                 for text, _ in NEAR_EDGE]
        report.append(f"scale {unit / 7.0:.2f}: lines {' '.join(lines)}")
    widths = ", ".join(f"{text_width(text):.2f} in {width}" for text, width in NEAR_EDGE)
    return [f"near-edge texts ({widths}), as printed at each scale:", *report]


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="header-lines-"))
    demo = out / "demo"
    if not demo.exists():
        subprocess.run([sys.executable, "-m", "adjudicator", "demo", "--out", str(demo)], check=True,
                       capture_output=True, timeout=600)
    books = sorted(demo.glob("*/turns/*/results/*.xlsx")) + sorted(demo.glob("*/campaign.xlsx"))
    flagged = 0
    for book in books:
        target = out / "pdf" / book.relative_to(demo).parts[0]
        target.mkdir(parents=True, exist_ok=True)
        for line in header_lines(book, target):
            flagged += "BLANK LINE" in line or "CUT" in line
            print(f"{book.relative_to(demo).parts[0]}\t{line}")
    print(f"{flagged} header rows whose height differs from their drawn lines by a line or more")
    for line in padding_probe(out) + scale_probe(out):
        print(line)


if __name__ == "__main__":
    main()
