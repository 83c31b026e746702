"""restyle_cells finds each marked cell by its reference (issue 16): the same sheet, and the formats asked for
in the same order (the marks' new formats are numbered as they are asked), as a scan of every cell tag."""

from __future__ import annotations

import re
from collections.abc import Callable

from adjudicator.outputs import compose

_TAG = re.compile(rb'<c\b[^>]*?\sr="([A-Z]+\d+)"[^>]*?/?>')


def scanned(sheet: bytes, styles: dict[str, Callable[[int], int]]) -> bytes:
    """Every cell tag read in the sheet's order (restyle_cells before issue 16's change), as the reference."""
    pieces, last, done = [], 0, set()
    for tag in _TAG.finditer(sheet, max(sheet.find(b"<sheetData"), 0)):
        ref = tag.group(1).decode()
        if ref not in styles or ref in done:
            continue
        done.add(ref)
        pieces += [sheet[last:tag.start()], compose._restyled(tag.group(0), styles[ref])]  # noqa: SLF001
        last = tag.end()
    pieces.append(sheet[last:])
    sheet = b"".join(pieces)
    for ref, style in styles.items():
        if ref not in done:
            sheet = compose.restyle_cell(sheet, ref, style)
    return sheet


def numbering() -> tuple[list[str], Callable[[str], Callable[[int], int]]]:
    """Style functions that number each new format in the order they are asked, as Styles.marked_xf does."""
    asked: list[str] = []

    def style_of(ref: str) -> Callable[[int], int]:
        def style(xf: int) -> int:
            asked.append(ref)
            return 100 + len(asked) * 10 + xf
        return style
    return asked, style_of


SHEET = (b'<worksheet><sheetViews><sheetView><selection activeCell="B2" sqref="B2"/></sheetView></sheetViews>'
         b'<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t> r="B2" r="C3"</t></is></c>'
         b'<c s="4" r="B1"/></row>'
         b'<row r="3"><c r="A3" s="2"><v>1</v></c><c r="C3" t="s" s="1"><v>0</v></c></row>'
         b'<row r="2"><c r="B2" s="3"/><c r="C2"><v>2</v></c></row>'  # a row out of order
         b'<row r="4"><c r="A4"/><c r="A4" s="5"/><c r="AA4" s="6"/></row>'  # a reference written twice
         b'<row r="5"><c\tr="B5"/><c r="C5" s="7"/></row>'  # a blank other than a space before the reference
         b"</sheetData></worksheet>")


def test_marked_cells_found_by_reference_equal_a_scan_of_every_tag() -> None:
    marks = ["C3", "B2", "A4", "AA4", "B1", "C2", "D9", "A1", "A3", "C5", "B5"]
    for order in (marks, sorted(marks), list(reversed(marks))):
        asked_found, style_found = numbering()
        asked_scanned, style_scanned = numbering()
        found = compose.restyle_cells(SHEET, {ref: style_found(ref) for ref in order})
        expected = scanned(SHEET, {ref: style_scanned(ref) for ref in order})
        assert found == expected
        assert asked_found == asked_scanned
        assert b'<t> r="B2" r="C3"</t>' in found  # a text that reads like a reference is left as it is
        assert b'<c s="' in found.split(b'<row r="5">')[1][:6]  # the cell after a tab marked too
        first_a4 = str(100 + (asked_found.index("A4") + 1) * 10).encode()
        assert b'<c s="' + first_a4 + b'" r="A4"/><c r="A4" s="5"/>' in found  # the first of a twice written cell
