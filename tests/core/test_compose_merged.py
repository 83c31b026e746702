"""Marks on merged cells land on the range's top-left cell (compose.py): the sheet's merged ranges read once
give the same cell as a search of the sheet's XML for each mark."""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
import pytest

from adjudicator.outputs import compose


def _sheet_xml(tmp_path: Path) -> bytes:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.merge_cells("B2:D3")
    ws.merge_cells("F10:F12")
    ws.merge_cells("AA100:AC100")
    path = tmp_path / "merged.xlsx"
    wb.save(path)
    with zipfile.ZipFile(path) as archive:
        return archive.read("xl/worksheets/sheet1.xml")


@pytest.mark.parametrize(("ref", "top_left"), [
    ("B2", "B2"), ("C3", "B2"), ("$D$3", "B2"), ("d2", "B2"), ("E3", "E3"), ("F11", "F10"), ("F13", "F13"),
    ("AB100", "AA100"), ("A1", "A1"), ("$a$1", "A1"),
])
def test_a_mark_on_a_merged_cell_goes_to_its_top_left_cell(tmp_path: Path, ref: str, top_left: str) -> None:
    sheet = _sheet_xml(tmp_path)
    ranges = compose.merged_ranges(sheet)
    assert sorted(r[4] for r in ranges) == ["AA100", "B2", "F10"]
    assert compose.top_left_in(ranges, ref) == top_left
    assert compose.merged_top_left(sheet, ref) == top_left


def test_a_range_no_cell_can_name_is_refused_when_a_search_reaches_it() -> None:
    sheet = b'<mergeCells><mergeCell ref="A1:B2"/><mergeCell ref="ABCD1:ABCD2"/></mergeCells>'
    ranges = compose.merged_ranges(sheet)
    assert compose.top_left_in(ranges, "B1") == "A1"  # found before the bad range, as a search of the XML did
    with pytest.raises(compose.CannotCompose, match="ABCD1"):
        compose.top_left_in(ranges, "C3")
