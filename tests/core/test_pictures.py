"""The docs' pictures of the workbooks are rendered through the real LibreOffice and pdftoppm, cropped to
their content at a scale where the text is readable."""

from __future__ import annotations

import os
import shutil
import struct
from pathlib import Path

import pytest

from adjudicator.outputs.libreoffice import convert
from adjudicator.outputs.pictures import (
    KINDS,
    READABLE_PIXELS,
    WIDEST,
    column_parts,
    first_page_content,
    pictures,
    tables_fitting,
)

pytestmark = pytest.mark.libreoffice


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", header[16:24])


def test_pictures_of_every_kind_of_workbook(soffice: str, tmp_path: Path) -> None:
    if not shutil.which("pdftoppm") or not shutil.which("pdftotext"):
        if os.environ.get("ADJUDICATOR_REQUIRE_LIBREOFFICE"):
            pytest.fail("pdftoppm and pdftotext (poppler-utils) are required here but are not installed")
        pytest.skip("pdftoppm (poppler-utils) is not installed; .ci/run installs it")
    made = pictures(tmp_path, ["star_sectors"])
    assert [p.name for p in made] == [f"star_sectors-{kind}.png" for kind in KINDS]
    sizes = {p.name: png_size(p) for p in made}
    assert len({p.read_bytes() for p in made}) == len(made), "every picture shows another sheet"
    for name, (width, height) in sizes.items():
        assert width > 300 and height > 50, name
        assert width <= WIDEST, name  # shown in the docs at its own size
    assert sizes["star_sectors-report.png"][1] > sizes["star_sectors-orders.png"][1]  # the report holds more


def test_a_picture_is_cropped_to_its_content_at_a_readable_scale(soffice: str, tmp_path: Path) -> None:
    """A page with a few words in a corner gives a small picture whose words are READABLE_PIXELS tall."""

    from openpyxl import Workbook

    from adjudicator.outputs.pictures import crop

    book = Workbook()
    book.active["A1"] = "Hello"
    book.active["B2"] = "world"
    book.save(tmp_path / "small.xlsx")
    convert(soffice, [tmp_path / "small.xlsx"], "pdf", tmp_path, timeout=300)
    content = first_page_content(tmp_path / "small.pdf")
    width, height = png_size(crop(tmp_path / "small.pdf", tmp_path / "small.png"))
    dpi = round(READABLE_PIXELS * 72 / content.word_height)
    assert abs(width - (content.x1 - content.x0 + 12) * dpi / 72) < 3
    assert abs(height - (content.y1 - content.y0 + 12) * dpi / 72) < 3
    assert width < 400 and height < 150  # not a whole page


def _sheet(widths: list[float], rows: dict[int, int]) -> object:
    """A sheet with columns of ``widths`` and, for each row, values in its first ``rows[row]`` columns."""
    from openpyxl import Workbook
    from openpyxl.utils import get_column_letter

    ws = Workbook().active
    for col, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(col)].width = width
    for row, used in rows.items():
        for col in range(1, used + 1):
            ws.cell(row=row, column=col, value=f"r{row}c{col}")
    return ws


def test_a_wide_report_shows_its_first_tables_that_fit() -> None:
    """Tables are runs of rows between empty ones: the first always; the next only while all fit."""
    ws = _sheet([20] * 3 + [60] * 5, {1: 1, 2: 3, 3: 3, 5: 1, 6: 2, 7: 2, 9: 1, 10: 8})
    assert tables_fitting(ws) == (7, 3)  # the third table is 320 wide
    assert tables_fitting(ws, columns=1000) == (10, 8)
    assert tables_fitting(ws, columns=10) == (3, 3)  # the first table even when it is wider
    assert tables_fitting(ws, points=20) is None  # a first table taller than a picture: the sheet as printed


def test_a_sheet_too_wide_for_one_picture_is_split_each_part_with_the_first_column(tmp_path: Path) -> None:
    import openpyxl

    ws = _sheet([40] * 10, {1: 10, 2: 10})
    ws.print_area = "A1:J2"
    ws.parent.save(tmp_path / "wide.xlsx")
    parts = column_parts(tmp_path / "wide.xlsx")
    shown = []
    for part in parts:
        sheet = openpyxl.load_workbook(part).active
        shown.append([c for c in "ABCDEFGHIJ" if not sheet.column_dimensions[c].hidden])
    assert shown == [list("ABCDE"), list("AFGHI"), list("AJ")]  # at most 215 wide each
    narrow = _sheet([10] * 4, {1: 4})
    narrow.print_area = "A1:D1"
    narrow.parent.save(tmp_path / "narrow.xlsx")
    assert column_parts(tmp_path / "narrow.xlsx") == [tmp_path / "narrow.xlsx"]
