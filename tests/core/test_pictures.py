"""The docs' pictures of the workbooks are rendered through the real LibreOffice and pdftoppm, cropped to
their content at a scale where the text is readable."""

from __future__ import annotations

import os
import shutil
import struct
from pathlib import Path

import pytest

from adjudicator.outputs.pictures import KINDS, READABLE_PIXELS, first_page_content, pictures

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
    assert sizes["star_sectors-report.png"][1] > sizes["star_sectors-orders.png"][1]  # the report holds more


def test_a_picture_is_cropped_to_its_content_at_a_readable_scale(soffice: str, tmp_path: Path) -> None:
    """A page with a few words in a corner gives a small picture whose words are READABLE_PIXELS tall."""
    import subprocess

    from openpyxl import Workbook

    from adjudicator.outputs.pictures import crop

    book = Workbook()
    book.active["A1"] = "Hello"
    book.active["B2"] = "world"
    book.save(tmp_path / "small.xlsx")
    subprocess.run([soffice, f"-env:UserInstallation=file://{tmp_path / 'profile'}", "--headless", "--convert-to",
                    "pdf", "--outdir", str(tmp_path), str(tmp_path / "small.xlsx")], check=True, capture_output=True,
                   timeout=300)
    content = first_page_content(tmp_path / "small.pdf")
    width, height = png_size(crop(tmp_path / "small.pdf", tmp_path / "small.png"))
    dpi = round(READABLE_PIXELS * 72 / content.word_height)
    assert abs(width - (content.x1 - content.x0 + 12) * dpi / 72) < 3
    assert abs(height - (content.y1 - content.y0 + 12) * dpi / 72) < 3
    assert width < 400 and height < 150  # not a whole page
