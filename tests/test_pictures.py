"""The docs' pictures of the workbooks are rendered through the real LibreOffice and pdftoppm."""

from __future__ import annotations

import os
import shutil
import struct
from pathlib import Path

import pytest

from adjudicator.pictures import pictures

pytestmark = pytest.mark.libreoffice


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", header[16:24])


def test_pictures_of_an_order_sheet_and_a_report(soffice: str, tmp_path: Path) -> None:
    if not shutil.which("pdftoppm"):
        if os.environ.get("ADJUDICATOR_REQUIRE_LIBREOFFICE"):
            pytest.fail("pdftoppm (poppler-utils) is required here but is not installed")
        pytest.skip("pdftoppm (poppler-utils) is not installed; .ci/run installs it")
    made = pictures(tmp_path, ["star_sectors"])
    assert [p.name for p in made] == ["star_sectors-orders.png", "star_sectors-report.png"]
    for path in made:
        width, height = png_size(path)
        assert width > 500 and height > 300
    assert made[1].stat().st_size > made[0].stat().st_size  # the report holds much more than the orders
