"""The Instructions sheet of every ruleset's order workbook, in each language, printed through the real
LibreOffice: no page begins with example rows whose headers are on the page before (an example table is kept
on one page by a page break before it), found from the PDF's word boxes."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from adjudicator.i18n import gettext_in
from adjudicator.outputs.blank_templates import build_all
from adjudicator.outputs.templates import INSTRUCTIONS
from tests.core.test_libreoffice import convert_all
from tests.pdf_layout import Page, pages


def example_rows(path: Path, lang: str) -> tuple[list[set[str]], list[set[str]]]:
    """(the words of each example row, the words of each example table's headers) of a workbook's
    Instructions sheet, which it keeps alone in its file for printing."""
    book = openpyxl.load_workbook(path)
    for ws in book.worksheets[1:]:
        book.remove(ws)
    book.save(path)
    ws = book.worksheets[0]
    assert ws.title == gettext_in(lang, INSTRUCTIONS)
    rows = [[str(v) for v in row if v not in (None, "")] for row in ws.iter_rows(values_only=True)]
    examples, headers = [], []
    label = gettext_in(lang, "Examples")
    for number, row in enumerate(rows):
        if row != [label]:
            continue
        headers.append({word for cell in rows[number + 1] for word in cell.split()})
        for values in rows[number + 2:]:
            if not values:
                break
            examples.append({word for cell in values for word in cell.split()})
    return examples, headers


def first_line(page: Page) -> set[str]:
    top = min(word.y0 for word in page.words)
    return {word.text for word in page.words if word.y0 < top + 3}


def test_no_page_of_the_instructions_begins_with_example_rows_without_their_headers(
        soffice: str, tmp_path: Path) -> None:
    templates = build_all(tmp_path / "templates")
    tables = {path: example_rows(path, path.suffixes[0].strip(".")) for path in templates}
    flat = []
    for path in templates:  # one file a template: LibreOffice names its PDF after the file's stem
        target = tmp_path / "flat" / f"{path.parent.name}.{path.name}"
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(path.read_bytes())
        flat.append(target)
    pdfs = convert_all(soffice, flat, "pdf", tmp_path / "pdf")
    faults, breaks = [], 0
    for path, pdf in zip(templates, pdfs, strict=True):
        examples, headers = tables[path]
        assert examples, f"{path}: the Instructions show example rows"
        printed = pages(pdf)
        assert all(page.words for page in printed), f"{pdf.name}: a page without text"
        for page in printed[1:]:
            breaks += 1
            line = first_line(page)
            if any(line <= row for row in examples) and not any(line <= header for header in headers):
                faults.append(f"{pdf.name} page {page.number} begins with the example row {sorted(line)}")
    assert breaks, "some Instructions sheet runs over several pages"
    assert not faults, "\n".join(faults)
