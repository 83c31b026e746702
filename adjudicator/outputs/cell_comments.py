"""The comments of a checked copy's offending cells, written straight from its marks: each marked sheet's comments
part (``xl/commentsN.xml``) and the VML drawing that places their boxes (``xl/drawings/vmlDrawingN.vml``).

They are the parts XlsxWriter wrote before for a sheet holding only those comments (``write_comment`` with the
author ``adjudicator`` and a box of 320 × 120 pixels, hidden until the cell is hovered), byte for byte: the same
text, author, font, box size and place, so Excel and LibreOffice show what they showed, without tens of thousands
of openpyxl ``Comment`` objects on helper sheets and XlsxWriter's per-comment layers (issue 16).
``tests/core/test_cell_comments.py`` compares them with XlsxWriter's own parts.

What XlsxWriter does that is kept: comments in row, then column order; a text longer than Excel's 32,767 UTF-16
units gets no comment; the box put one column right of the cell and a row above it (at the sheet's edges
elsewhere), on a sheet of default column widths (64 px) and row heights (20 px); the VML shape ids of each
drawing starting at the next block of 1,024 after the previous drawing's (``o:idmap`` names every block it uses).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from adjudicator.outputs.cell_text import ILLEGAL_CHARACTERS_RE

AUTHOR = "adjudicator"
WIDTH, HEIGHT = 320, 120  # pixels, the box of every comment
#: A sheet's default column width and row height in pixels (XlsxWriter's, the helper sheets' before).
COLUMN_PIXELS, ROW_PIXELS = 64, 20
ROW_MAX, COLUMN_MAX = 1_048_576, 16_384
TEXT_MAX = 32_767  # UTF-16 code units
#: The font Excel lists in the styles of a workbook with comments (XlsxWriter appended it to its fonts; no cell
#: format uses it).
COMMENT_FONT = b'<font><sz val="8"/><color indexed="81"/><name val="Tahoma"/><family val="2"/></font>'

XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
COMMENTS_HEAD = (XML_DECLARATION + '<comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                 f"<authors><author>{AUTHOR}</author></authors><commentList>")
COMMENT = ('<comment ref="{ref}" authorId="0"><text><r><rPr><sz val="8"/><color indexed="81"/>'
           '<rFont val="Tahoma"/><family val="2"/></rPr>{text}</r></text></comment>')
VML_HEAD = ('<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" '
            'xmlns:x="urn:schemas-microsoft-com:office:excel"><o:shapelayout v:ext="edit">'
            '<o:idmap v:ext="edit" data="{data}"/></o:shapelayout><v:shapetype id="_x0000_t202" '
            'coordsize="21600,21600" o:spt="202" path="m,l,21600r21600,l21600,xe"><v:stroke joinstyle="miter"/>'
            '<v:path gradientshapeok="t" o:connecttype="rect"/></v:shapetype>')
SHAPE = ('<v:shape id="_x0000_s{id}" type="#_x0000_t202" style="position:absolute;margin-left:{left:.15g}pt;'
         'margin-top:{top:.15g}pt;' + f"width:{WIDTH * 0.75:.15g}pt;height:{HEIGHT * 0.75:.15g}pt;"
         'z-index:{z};visibility:hidden" '
         'fillcolor="#ffffe1" o:insetmode="auto"><v:fill color2="#ffffe1"/><v:shadow on="t" color="black" '
         'obscured="t"/><v:path o:connecttype="none"/><v:textbox style="mso-direction-alt:auto">'
         '<div style="text-align:left"></div></v:textbox><x:ClientData ObjectType="Note"><x:MoveWithCells/>'
         "<x:SizeWithCells/><x:Anchor>{anchor}</x:Anchor><x:AutoFill>False</x:AutoFill><x:Row>{row}</x:Row>"
         "<x:Column>{column}</x:Column></x:ClientData></v:shape>")

_CELL = re.compile(r"\$?([A-Za-z]{1,3})\$?([0-9]{1,7})")
_ESCAPED = re.compile(r'["&<>\n]')
_ESCAPE_LOOKALIKE = re.compile(r"(_x[0-9a-fA-F]{4}_)")
_CONTROL = re.compile(r"([\x00-\x08\x0b-\x1f])")
_EDGE_SPACE = re.compile(r"^\s|\s$")


@dataclass(frozen=True)
class CellComment:
    """One comment: its cell (0-based row and column) and its text."""

    row: int
    column: int
    text: str


def cell_comment(ref: str, text: str) -> CellComment | None:
    """The comment of cell ``ref`` (``B7``) saying ``text`` (without the control characters openpyxl refused),
    or None where XlsxWriter wrote none (a cell outside the sheet's bounds, a text over :data:`TEXT_MAX` UTF-16
    units)."""
    text = ILLEGAL_CHARACTERS_RE.sub("", text)  # what openpyxl's ``Comment`` refused: taken out first
    found = _CELL.fullmatch(ref)
    if found is None:
        raise ValueError(f"not a cell: {ref!r}")
    column = 0
    for letter in found.group(1).upper():
        column = column * 26 + ord(letter) - 64
    row, column = int(found.group(2)) - 1, column - 1
    if not (0 <= row < ROW_MAX and 0 <= column < COLUMN_MAX):
        return None
    if len(text.encode("utf-16-le")) // 2 > TEXT_MAX:
        return None
    return CellComment(row, column, text)


def _cell_name(row: int, column: int) -> str:
    letters = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return f"{letters}{row + 1}"


@lru_cache(maxsize=4096)  # a check's comments repeat a few hundred texts
def _text_element(text: str) -> str:
    """A comment's ``<t>`` element as XlsxWriter writes it: ``xml:space="preserve"`` for a text with space at
    either end; ``& < >`` escaped, then what looks like an escape (``_x0041_``) and the control characters
    other than tab and newline written as ``_xHHHH_``."""
    space = ' xml:space="preserve"' if _EDGE_SPACE.search(text) else ""
    if _ESCAPED.search(text):
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _ESCAPE_LOOKALIKE.sub(r"_x005F\1", text)
    text = _CONTROL.sub(lambda found: f"_x{ord(found.group(1)):04X}_", text)
    text = text.replace("\ufffe", "_xFFFE_").replace("\uffff", "_xFFFF_")
    return f"<t{space}>{text}</t>"


def comments_xml(comments: Sequence[CellComment]) -> bytes:
    """The comments part of one sheet, its comments in row then column order."""
    rows = [COMMENT.format(ref=_cell_name(c.row, c.column), text=_text_element(c.text)) for c in _in_order(comments)]
    return (COMMENTS_HEAD + "".join(rows) + "</commentList></comments>").encode()


def _in_order(comments: Sequence[CellComment]) -> list[CellComment]:
    return sorted(comments, key=lambda c: (c.row, c.column))


def _box(comment: CellComment) -> tuple[str, tuple[int, int]]:
    """Where a comment's box goes: its VML anchor (start column, x offset, start row, y offset, end column,
    x offset, end row, y offset) and the top-left corner's absolute place in pixels."""
    if comment.row == 0:
        start_row, y = 0, 2
    elif comment.row >= ROW_MAX - 3:  # the last three rows: the box kept on the sheet
        start_row, y = comment.row - 4, (16 if comment.row < ROW_MAX - 1 else 14)
    else:
        start_row, y = comment.row - 1, 10
    if comment.column >= COLUMN_MAX - 3:
        start_column, x = comment.column - 3, 49  # the last three columns: the box kept on the sheet
    else:
        start_column, x = comment.column + 1, 15
    end_column, x_end = divmod(WIDTH + x, COLUMN_PIXELS)
    end_row, y_end = divmod(HEIGHT + y, ROW_PIXELS)
    anchor = (f"{start_column}, {x}, {start_row}, {y}, {start_column + end_column}, {x_end}, "
              f"{start_row + end_row}, {y_end}")
    return anchor, (COLUMN_PIXELS * start_column + x, ROW_PIXELS * start_row + y)


def vml_xml(comments: Sequence[CellComment], data_id: int) -> bytes:
    """The VML drawing of one sheet's comment boxes, its shapes numbered from block ``data_id`` (1, 2, ...) on."""
    blocks = len(comments) // 1024
    data = ",".join(str(data_id + i) for i in range(blocks + 1))
    shapes = []
    for z, comment in enumerate(_in_order(comments), start=1):
        anchor, (left, top) = _box(comment)
        shapes.append(SHAPE.format(id=1024 * data_id + z, left=left * 0.75, top=top * 0.75, z=z, anchor=anchor,
                                   row=comment.row, column=comment.column))
    return (VML_HEAD.format(data=data) + "".join(shapes) + "</xml>").encode()


def comment_parts(sheets: Sequence[Sequence[CellComment]]) -> list[tuple[bytes, bytes]]:
    """The comments part and VML drawing of each sheet's comments, in the sheets' order (each drawing's shape
    ids in blocks after the previous drawing's, as XlsxWriter numbers the drawings of one workbook)."""
    parts = []
    data_id = 1
    for comments in sheets:
        parts.append((comments_xml(comments), vml_xml(comments, data_id)))
        data_id += (1024 + len(comments)) // 1024
    return parts
