"""Shared fixtures: campaigns built from scenario data, real workbooks, LibreOffice when required."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import example_campaign


@pytest.fixture
def example(tmp_path: Path) -> Path:
    """A fresh copy of the bundled star_sectors example campaign (orders in inbox/, GM input pending)."""
    return example_campaign(tmp_path / "example")


@pytest.fixture(scope="session")
def soffice() -> str:
    """The LibreOffice binary. Missing: skip here, fail in CI (where .ci/run installs it)."""
    found = shutil.which("soffice") or shutil.which("libreoffice")
    if found:
        return found
    if os.environ.get("ADJUDICATOR_REQUIRE_LIBREOFFICE"):
        pytest.fail("LibreOffice (soffice) is required here but is not installed")
    pytest.skip("LibreOffice (soffice) is not installed; .ci/run installs it")


def convert(soffice: str, source: Path, target_ext: str, out_dir: Path) -> Path:
    """Convert a workbook with the real LibreOffice, headless, with a throwaway profile."""
    out_dir.mkdir(parents=True, exist_ok=True)
    profile = out_dir / ".lo-profile"
    subprocess.run(
        [soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--calc", "--convert-to", target_ext,
         "--outdir", str(out_dir), str(source)],
        check=True, capture_output=True, timeout=180,
    )
    return out_dir / f"{source.stem}.{target_ext.split(':')[0]}"
