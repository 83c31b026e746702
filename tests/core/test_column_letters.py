"""The column letters of the reading side (adjudicator.intake.columns) are openpyxl's, and reading a workbook
imports neither openpyxl nor the web libraries xml.sax.saxutils brings (urllib.request, http, ssl)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from openpyxl.utils import get_column_letter as openpyxl_letter

from adjudicator.intake.columns import MAX_COLUMN, get_column_letter


def test_every_column_of_a_sheet_has_openpyxls_letters() -> None:
    assert [get_column_letter(i) for i in range(1, MAX_COLUMN + 1)] == [
        openpyxl_letter(i) for i in range(1, MAX_COLUMN + 1)]


@pytest.mark.parametrize("index", [0, -1, MAX_COLUMN + 1])
def test_a_column_outside_a_sheet_is_refused_as_openpyxl_does(index: int) -> None:
    with pytest.raises(ValueError):
        openpyxl_letter(index)
    with pytest.raises(ValueError):
        get_column_letter(index)


def test_the_intake_imports_no_workbook_writer_nor_web_libraries() -> None:
    code = ("import sys, adjudicator.intake.reading, adjudicator.intake.submissions, adjudicator.intake.identity, "
            "adjudicator.intake.deadlines, adjudicator.intake.names, adjudicator.intake.validation; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'openpyxl', 'xlsxwriter', 'PIL', 'matplotlib'}"
            " | {m for m in sys.modules if m in ('urllib.request', 'http.client', 'ssl', 'xml.sax.saxutils')}))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"
