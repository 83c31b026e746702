"""A checked copy's Errors tab written straight as worksheet XML, not through XlsxWriter (issue 16).

The Errors tab is one streamed table tab (:mod:`adjudicator.outputs.streamed`): its cells, widths, heights and
print setup come from :func:`streamed.lay_out`, as when XlsxWriter wrote it. This module writes the worksheet
XML XlsxWriter wrote for it (fast_save.py's exact widths and heights), its strings inline and its cell formats'
indexes moved past the player's (what :func:`adjudicator.outputs.compose.inline_strings` made of XlsxWriter's),
so that the composed checked copy is byte for byte the one made through XlsxWriter. Only the tab's few cell
formats still go through XlsxWriter's own styles writer (once per distinct set of formats in a process), with
its defined names (filter, print area, print titles) and document properties, written as XlsxWriter writes them.

:func:`direct_tab` answers ``None`` for any workbook other than one streamed table tab (results, the openpyxl
way): those keep going through XlsxWriter.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from adjudicator.outputs.reproducible import fixed_dates
from adjudicator.outputs.streamed import Laid, Style, lay_out, tab_of, table_cells
from adjudicator.outputs.xlsx_package import WORKSHEET_TYPE, Theirs

#: The part name XlsxWriter gives the only sheet of a workbook.
SHEET_PART = "xl/worksheets/sheet1.xml"
_HEAD = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.'
         'openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/'
         '2006/relationships"><sheetPr><pageSetUpPr fitToPage="1"/></sheetPr>')
_FROZEN_FIRST_ROW = ('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>'
                     '<selection pane="bottomLeft"/>')
_PRINT_SETUP = ('<pageMargins left="0.75" right="0.75" top="1" bottom="1" header="0.5" footer="0.5"/>'
                '<pageSetup paperSize="9" fitToHeight="0" orientation="{}"/><headerFooter></headerFooter></worksheet>')


def direct_tab(wb: Any) -> Theirs | None:
    """What :func:`adjudicator.outputs.compose.compose_bytes` takes from XlsxWriter's workbook of the new tabs,
    made without it, when ``wb`` holds one streamed table tab laid out as XlsxWriter writes it (a checked
    copy's Errors tab); else ``None``. The sheet's XML is written for the cell formats' offset
    (:attr:`Theirs.written`)."""
    from adjudicator.outputs.fast_save import _only_a_placeholder
    from adjudicator.outputs.new_tabs import TabSheet

    if len(wb.worksheets) != 1:
        return None
    ws = wb.worksheets[0]
    tab = tab_of(ws)
    if tab is None or tab.kind != "table" or not tab.headers or ws.sheet_state != "visible" or \
            not (isinstance(ws, TabSheet) or _only_a_placeholder(ws)):  # a TabSheet holds nothing else
        return None
    laid = lay_out(table_cells(tab))
    if laid.freeze != "A2" or laid.merges or not laid.a4:
        return None
    made = _cells(laid)
    if made is None:
        return None
    cells, formats = made
    props = wb.properties
    theirs = Theirs({SHEET_PART: b"", "xl/workbook.xml": _defined_names(ws.title, laid),
                     "xl/styles.xml": styles_xml(formats),
                     "docProps/core.xml": core_xml(props.title or "", props.creator or "")},
                    [(ws.title, SHEET_PART, "visible")], {}, {SHEET_PART: WORKSHEET_TYPE})
    theirs.written[SHEET_PART] = lambda offset: sheet_xml(laid, cells, offset)
    return theirs


@dataclass(frozen=True)
class Written:
    """The tab's ``<sheetData>`` and ``<dimension>``, written in one pass over the laid-out cells, with each cell
    format's index left as a field (``{N}``, N the format's number; braces of the texts doubled) for
    :func:`sheet_xml` to fill in once the offset past the player's formats is known."""

    sheet_data: str  # a str.format template
    dimension: str
    formats: int  # formats 0..formats-1 are used as fields


def _cells(laid: Laid) -> tuple[Written, tuple[tuple[tuple[str, Any], ...], ...]] | None:
    """The cells XlsxWriter writes, in row order, as a :class:`Written` (each row with its span, the columns of
    its block of 16 rows, and its exact height), and the distinct cell formats in the order it numbers them
    (first use): format 0 is the workbook's default. ``None`` for a tab holding a number that is not finite
    (XlsxWriter writes none)."""
    from xlsxwriter.utility import _utf16_len, _utf16_truncate, xl_col_to_name

    numbers: dict[tuple[tuple[str, Any], ...], int] = {}
    by_style: dict[Style, int] = {}
    rendered: dict[str, str] = {}
    opened: dict[int, str] = {}  # a cell's opening up to its format's field, by column: '<c r="B' ... '" s="{'
    pieces = ["<sheetData>"]
    block_rows: list[tuple[int, int, str]] = []  # (piece index, row, height attributes) of the rows of a block
    block, low, high = -1, 0, 0
    first = last = None  # (row, lowest column, highest column) of the first block, and of all
    lowest = highest = 0
    current = 0
    heights = laid.heights

    def close_block() -> None:
        for at, number, shown in block_rows:
            pieces[at] = f'<row r="{number}" spans="{low}:{high}"{shown}>'
        block_rows.clear()

    for (row, col), (value, kind, style) in laid.cells:
        xf = 0
        if style is not None:
            xf = by_style.get(style, -1)
            if xf < 0:
                key = tuple(style.xlsxwriter().items())
                xf = by_style[style] = (numbers.setdefault(key, len(numbers) + 1) if key else 0)
        if value is None:
            if not xf:
                continue
            rest = "/>"
        elif kind == "s":
            rest = rendered.get(value)
            if rest is None:
                text = value
                if len(text) > 16383 and _utf16_len(text) > 32767:
                    text = _utf16_truncate(text, 32767)
                rest = rendered[value] = (' t="inlineStr"><is>' + shared_string(text) + "</is></c>").replace(
                    "{", "{{").replace("}", "}}")
        elif kind == "b":
            rest = f' t="b"><v>{1 if value else 0}</v></c>'
        else:
            if isinstance(value, float) and not math.isfinite(value):
                return None
            rest = f"><v>{float(value) if isinstance(value, Decimal) else value:.16G}</v></c>"
        if row != current:
            if current:
                pieces.append("</row>")
            if (row - 1) // 16 != block:
                if block >= 0:
                    close_block()
                block, low, high = (row - 1) // 16, col, col
            height = heights.get(row)
            block_rows.append((len(pieces), row, "" if height is None else
                               f' ht="{float(height):.16g}" customHeight="1"'))
            pieces.append("")
            if first is None:
                first, lowest, highest = row, col, col
            current = row
        if col < low:
            low = col
        elif col > high:
            high = col
        if col < lowest:
            lowest = col
        elif col > highest:
            highest = col
        last = row
        start = opened.get(col)
        if start is None:
            start = opened[col] = '<c r="' + xl_col_to_name(col - 1)
        pieces.append(f'{start}{row}" s="{{{xf}}}"{rest}')
    if current:
        close_block()
        pieces.append("</row>")
    pieces.append("</sheetData>")
    return Written("".join(pieces), _dimension(first, last, lowest, highest), len(numbers) + 1), tuple(numbers)


def _dimension(first: int | None, last: int | None, lowest: int, highest: int) -> str:
    """``<dimension>`` of the cells written (their first and last rows, lowest and highest columns)."""
    from xlsxwriter.utility import xl_rowcol_to_cell

    if first is None or last is None:
        return '<dimension ref="A1"/>'
    start = xl_rowcol_to_cell(first - 1, lowest - 1)
    end = xl_rowcol_to_cell(last - 1, highest - 1)
    return f'<dimension ref="{start if start == end else start + ":" + end}"/>'


#: A character XlsxWriter escapes in ``<t>``: a control character or a non-character (written ``_xHHHH_``), and
#: ``& < >``. It also escapes a text already shaped ``_xHHHH_`` (its ``_``) and keeps a blank at a text's start or
#: end (``xml:space``; its ``\s$`` is true exactly when the last character is a blank, ``str.isspace``).
_ESCAPED = re.compile(r"[\x00-\x08\x0b-\x1f\ufffe\uffff&<>]")


def shared_string(text: str) -> str:
    """``text`` as XlsxWriter writes it in ``<si>`` (what compose writes inline): control characters as
    ``_xHHHH_``, ``& < >`` escaped, leading or trailing blanks preserved. Most texts need none of it (no such
    character, no ``_x``, no blank at either end) and are written as they are, told by a few quick looks (the
    shared strings of an Inner Sphere 40 × 300 master: 2.41 s written XlsxWriter's way, 0.36 s so)."""
    if _ESCAPED.search(text) is None and "_x" not in text and not text[:1].isspace() and not text[-1:].isspace():
        return "<t>" + text + "</t>"
    from xlsxwriter.utility import _preserve_whitespace
    from xlsxwriter.xmlwriter import XMLwriter

    text = XMLwriter._escape_control_characters(text)  # noqa: SLF001 - XlsxWriter's own escaping
    space = ' xml:space="preserve"' if _preserve_whitespace(text) else ""
    if "&" in text or "<" in text or ">" in text:
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f"<t{space}>{text}</t>"


def sheet_xml(laid: Laid, written: Written, offset: int) -> bytes:
    """The tab's worksheet as XlsxWriter wrote it, each cell format moved by ``offset`` and strings inline (the
    only sheet of XlsxWriter's workbook, so its active and selected one)."""
    pieces = [_HEAD, written.dimension]
    pieces.append('<sheetViews><sheetView tabSelected="1" workbookViewId="0">' + _FROZEN_FIRST_ROW
                  + '</sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/>')
    widths = [(col, laid.widths[col]) for col in sorted(laid.widths) if laid.widths[col]]
    if widths:
        pieces.append("<cols>")
        pieces += [f'<col min="{col}" max="{col}" width="{float(width):.16g}" customWidth="1"/>'
                   for col, width in widths]
        pieces.append("</cols>")
    pieces.append(written.sheet_data.format(*range(offset, offset + written.formats)))
    if laid.autofilter:
        pieces.append(f'<autoFilter ref="{laid.autofilter}"/>')
    pieces.append(_PRINT_SETUP.format("landscape" if laid.landscape else "portrait"))
    return "".join(pieces).encode()


def _defined_names(title: str, laid: Laid) -> bytes:
    """The tab's filter, print area and print titles as XlsxWriter names them (in its workbook part)."""
    from xlsxwriter.utility import quote_sheetname, xl_rowcol_to_cell

    sheet = quote_sheetname(title).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    names = []
    if laid.autofilter:
        first, _, last = laid.autofilter.partition(":")
        area = "$" + first.rstrip("0123456789") + "$" + first.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        if last:
            area += ":$" + last.rstrip("0123456789") + "$" + last.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        names.append(f'<definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">{sheet}!{area}'
                     "</definedName>")
    if laid.print_area:
        first = xl_rowcol_to_cell(0, 0, True, True)
        last = xl_rowcol_to_cell(laid.print_area[0] - 1, laid.print_area[1] - 1, True, True)
        area = first if first == last else first + ":" + last
        names.append(f'<definedName name="_xlnm.Print_Area" localSheetId="0">{sheet}!{area}</definedName>')
    if laid.title_rows:
        names.append(f'<definedName name="_xlnm.Print_Titles" localSheetId="0">{sheet}!$1:$1</definedName>')
    return ("<definedNames>" + "".join(names) + "</definedNames>").encode()


@lru_cache(maxsize=64)
def styles_xml(formats: tuple[tuple[tuple[str, Any], ...], ...]) -> bytes:
    """XlsxWriter's ``styles.xml`` of a workbook whose cells use ``formats`` (properties), numbered 1, 2, ...
    in this order: written by XlsxWriter's own styles writer."""
    import xlsxwriter
    from xlsxwriter.styles import Styles as XStyles

    out = xlsxwriter.Workbook(io.BytesIO(), {"in_memory": True})
    for properties in formats:
        out.add_format(dict(properties))._get_xf_index()  # noqa: SLF001 - numbered in order of use
    out._prepare_format_properties()  # noqa: SLF001
    styles = XStyles()
    styles._set_style_properties([out.xf_formats, out.palette, out.font_count, out.num_formats,  # noqa: SLF001
                                  out.border_count, out.fill_count, out.custom_colors, out.dxf_formats,
                                  out.has_comments])
    return _written(styles)


@lru_cache(maxsize=16)
def core_xml(title: str, author: str) -> bytes:
    """XlsxWriter's ``docProps/core.xml`` for fast_save.py's properties, its dates fixed."""
    from xlsxwriter.core import Core

    from adjudicator.outputs.fast_save import FIXED_CREATED

    core = Core()
    core._set_properties({"title": title, "author": author, "created": FIXED_CREATED})  # noqa: SLF001
    return fixed_dates(_written(core))


def _written(part: Any) -> bytes:
    handle = io.StringIO()
    part._set_filehandle(handle)  # noqa: SLF001 - XlsxWriter's part writers, without its package
    part._assemble_xml_file()  # noqa: SLF001
    return handle.getvalue().encode()

