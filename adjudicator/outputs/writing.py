"""Writing workbooks with openpyxl: safe cells, tables, report tabs, atomic saves.

openpyxl is imported by the functions that build its cells, not with this module: a one-workbook ``check``
names its Errors tab here and writes it without openpyxl (faction_workbooks.py, errors_tab.py), and importing
openpyxl is a sixth of that command's time (benchmarks/startup.py). The styles below are made on first use.

Every text that came from a player is written as a string cell, never as a formula, so nothing a
player typed (``=HYPERLINK(…)``, ``=cmd|…``) is evaluated when the GM opens a workbook. Files are
written to a temporary name in the same folder and renamed into place, so a reader never sees half
a file.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.ruleset import ReportTable
from adjudicator.engine.sheets import Column, Kind, TableSchema
from adjudicator.i18n import Msg, msg, render
from adjudicator.outputs.cell_text import ILLEGAL_CHARACTERS_RE
from adjudicator.outputs.reproducible import make_reproducible
from adjudicator.outputs.streamed import OPENPYXL_MARGINS, Tab, cell_value

if TYPE_CHECKING:
    from openpyxl import Workbook
    from openpyxl.worksheet.datavalidation import DataValidation
    from openpyxl.worksheet.worksheet import Worksheet

# Fonts name their face and size: a font without them is drawn in LibreOffice's own default (a serif) in the
# workbooks openpyxl saves (campaign.xlsx, GM input), unlike the body text around it.
BODY_FONT = "Calibri"
#: The openpyxl styles of the tabs built as openpyxl cells: ``writing.HEADER_FONT`` and the others are made when
#: first asked for (the module's ``__getattr__``), so that importing this module does not import openpyxl.
STYLE_NAMES = ("HEADER_FONT", "HEADER_FILL", "TITLE_FONT", "ERROR_FILL", "WARNING_FILL")


@cache
def _styles() -> dict[str, Any]:
    from openpyxl.styles import Font, PatternFill

    return {"HEADER_FONT": Font(name=BODY_FONT, size=11, bold=True, color="FFFFFF"),
            "HEADER_FILL": PatternFill("solid", fgColor="305496"),
            "TITLE_FONT": Font(name=BODY_FONT, bold=True, size=13),
            "ERROR_FILL": PatternFill("solid", fgColor="F8CBAD"),
            "WARNING_FILL": PatternFill("solid", fgColor="FFE699")}


def __getattr__(name: str) -> Any:
    if name in STYLE_NAMES:
        return _styles()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


FORBIDDEN_IN_TITLES = str.maketrans({c: " " for c in "[]:*?/\\"})


def _temporary_beside(path: Path) -> str:
    """A new empty file beside ``path``, with the permissions a plain new file would get."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=path.parent)
    os.close(handle)
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(temporary, 0o666 & ~mask)
    return temporary


def hidden_sheet(wb: Workbook, name: str, fresh: bool = False) -> Worksheet:
    """The hidden sheet ``name`` (data the adjudicator keeps, never shown): the workbook's own, or a new one at
    the end; ``fresh``: an empty one, in the place the old one had among the sheets."""
    index = None
    if name in wb.sheetnames:
        if not fresh:
            return wb[name]
        index = wb.sheetnames.index(name)
        wb.remove(wb[name])
    ws = wb.create_sheet(name, index)
    ws.sheet_state = "hidden"
    return ws


def put(ws: Worksheet, row: int, col: int, value: Any, lang: str = "en") -> None:
    """Write one cell; text is always stored as text, never as a formula. An empty text leaves the cell
    empty (as openpyxl reads back what it saved, and XlsxWriter would otherwise write an empty string)."""
    shown = cell_value(value, lang)
    if shown is None:
        return
    if shown[0] == "":
        existing = ws._cells.get((row, col))  # noqa: SLF001 - the written cells, none created
        if existing is not None:
            existing.value = None
        return
    cell = ws.cell(row=row, column=col)
    cell.value = shown[0]
    if shown[1] == "s":
        cell.data_type = "s"


def sheet_title(wb: Workbook, wanted: str) -> str:
    """A legal sheet name not yet used in ``wb`` (31 characters, no []:*?/\\, no control characters). A turn
    label at the end (" T03") is kept whole: the name before it is what gets shortened."""
    clean = " ".join(ILLEGAL_CHARACTERS_RE.sub("", wanted).translate(FORBIDDEN_IN_TITLES).split()) or "Sheet"
    found = re.match(r"^(.*?)(\s+T\d+)$", clean)
    front, turn = (found.group(1), found.group(2)) if found else (clean, "")

    def fitted(suffix: str) -> str:
        return front[: 31 - len(turn) - len(suffix)].rstrip() + suffix + turn

    title, n = fitted(""), 2
    existing = {ws.title.casefold() for ws in wb.worksheets}
    while title.casefold() in existing:
        title = fitted(f" ({n})")
        n += 1
    return title


def fit_to_page_width(ws: Worksheet) -> None:
    """Print (and export to PDF) landscape, all columns on one page width."""
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True


def error_alert(validation: DataValidation, lang: str, text: Msg) -> None:
    """Turn on a validation's error alert, in the reader's language."""
    validation.showErrorMessage = True
    validation.errorTitle = msg("Not allowed here").render(lang)[:32]
    validation.error = text.render(lang)[:255]


def number_hint(column: Column) -> Msg:
    """What a number column accepts, for its error alert."""
    whole = column.kind is Kind.INT
    low = _shown_number(column.minimum)
    high = _shown_number(column.maximum)
    if low is not None and high is not None:
        return (msg("Write a whole number from {low} to {high}.", low=low, high=high) if whole
                else msg("Write a number from {low} to {high}.", low=low, high=high))
    if low is not None:
        return (msg("Write a whole number of at least {low}.", low=low) if whole
                else msg("Write a number of at least {low}.", low=low))
    return msg("Write a whole number.") if whole else msg("Write a number.")


def _shown_number(value: float | None) -> str | None:
    if value is None:
        return None
    return str(int(value)) if float(value).is_integer() else str(value)


def identifier_columns(columns: Sequence[Column]) -> list[int]:
    """The text and choice columns (from 1): hexes such as 0201, squares, IDs, formatted as text."""
    return [i for i, column in enumerate(columns, start=1) if column.kind in (Kind.TEXT, Kind.CHOICE)]


def identifiers_as_text(ws: Worksheet, columns: Sequence[Column], first: int, last: int) -> None:
    """Text columns (hexes such as 0201, squares, IDs) formatted as text ("@"), the written cells and the
    column itself, so that what the GM or a player types there is not turned into a number."""
    columns_as_text(ws, identifier_columns(columns), first, last)


def schema_table(schema: TableSchema, rows: Sequence[Sequence[Any]], lang: str, wrap_long: bool = False) -> Tab:
    """``schema``'s table tab as data (streamed.py): its headers in ``lang`` and widths, a frozen header row, no
    filter, its identifiers' columns formatted as text, openpyxl's margins (the master's tables, the GM's input's
    request sheets: both were openpyxl sheets); ``wrap_long``: its long columns wrapped."""
    return Tab("table", lang, headers=[c.header_in(lang) for c in schema.columns], rows=list(rows),
               widths=[c.width for c in schema.columns], text_columns=identifier_columns(schema.columns),
               filtered=False, wrap_long=wrap_long, margins=OPENPYXL_MARGINS)


def columns_as_text(ws: Worksheet, indices: Iterable[int], first: int, last: int) -> None:
    """The columns ``indices`` (from 1) formatted as text ("@"): the column itself and its rows ``first`` to
    ``last``."""
    from openpyxl.utils import get_column_letter

    for index in indices:
        ws.column_dimensions[get_column_letter(index)].number_format = "@"
        for row in range(first, last + 1):
            ws.cell(row=row, column=index).number_format = "@"


def header_row(ws: Worksheet, row: int, headers: Sequence[Any], lang: str, widths: Sequence[int] = ()) -> None:
    from openpyxl.styles import Alignment
    from openpyxl.utils import get_column_letter

    styles = _styles()
    for col, header in enumerate(headers, start=1):
        put(ws, row, col, header, lang)
        cell = ws.cell(row=row, column=col)
        cell.font = styles["HEADER_FONT"]
        cell.fill = styles["HEADER_FILL"]
        cell.alignment = Alignment(wrap_text=True, vertical="top")
        width = widths[col - 1] if col - 1 < len(widths) else max(12, min(40, len(str(render(header, lang))) + 4))
        letter = get_column_letter(col)
        ws.column_dimensions[letter].width = max(ws.column_dimensions[letter].width or 0, width)


def spanned_header_row(ws: Worksheet, row: int, headers: Sequence[Any], lang: str,
                       spans: Sequence[tuple[int, int]]) -> None:
    """A stacked table's header row: each header at the first sheet column of its span (layout.py's
    stack_columns), the cells of a span merged; the sheet's widths are the plan's."""
    from openpyxl.styles import Alignment

    styles = _styles()
    for header, (first, last) in zip(headers, spans, strict=False):
        put(ws, row, first, header, lang)
        cell = ws.cell(row=row, column=first)
        cell.font = styles["HEADER_FONT"]
        cell.fill = styles["HEADER_FILL"]
        cell.alignment = Alignment(wrap_text=True, vertical="top")
        if last > first:
            ws.merge_cells(start_row=row, start_column=first, end_row=row, end_column=last)


def write_rows(ws: Worksheet, start: int, rows: Iterable[Sequence[Any]], lang: str,
               spans: Sequence[tuple[int, int]] = ()) -> int:
    """Rows from ``start``, under the header row ``start - 1``; returns the next free row. The numbers of a
    column holding only numbers, and its header, are aligned by layout.py's number_alignment. With ``spans``
    (a stacked table's: layout.py's stack_columns), each value is written at its span's first column and the
    span's cells merged."""
    from adjudicator.outputs.layout import align_number_columns, spanned_alignment, text_columns

    row, columns = start, 0
    for values in rows:
        for index, value in enumerate(values):
            first, last = spans[index] if index < len(spans) else (index + 1, index + 1)
            put(ws, row, first, value, lang)
            if last > first:
                ws.merge_cells(start_row=row, start_column=first, end_row=row, end_column=last)
            columns = max(columns, last)
        row += 1
    align_number_columns(ws, start - 1, start, row - 1, columns)
    cells = ws._cells  # noqa: SLF001 - the written cells, none created
    written = ((r, c, cell.value, cell.data_type) for r in range(start, row) for c in range(1, columns + 1)
               if (cell := cells.get((r, c))) is not None)
    # a number in a text's span, or in a column of texts, stands left, as the texts do
    left = {first for first, last in spans if last > first} | text_columns(written, start, row - 1)
    for col in sorted(left):
        for at in range(start - 1, row):
            cell = cells.get((at, col))
            if cell is not None and cell.has_style and cell.alignment.horizontal == "right":
                cell.alignment = spanned_alignment(cell.alignment)
    return row


def write_table_sheet(
    wb: Workbook, title: Msg | str, headers: Sequence[Any], rows: Iterable[Sequence[Any]], lang: str,
    widths: Sequence[int] = (),
) -> Worksheet:
    """A new tab of ``wb``: one header row, then ``rows``. In a workbook marked by
    :func:`adjudicator.outputs.streamed.stream_new_tabs`, an empty placeholder holding the tab as data
    (XlsxWriter writes its cells when the workbook is saved)."""
    from adjudicator.outputs import streamed

    ws = wb.create_sheet(sheet_title(wb, str(render(title, lang))))
    if streamed.streaming(wb):
        return streamed.describe(ws, streamed.Tab("table", lang, headers=list(headers), rows=list(rows),
                                                  widths=list(widths)))
    fill_table_sheet(ws, headers, rows, lang, widths)
    return ws


def fill_table_sheet(ws: Worksheet, headers: Sequence[Any], rows: Iterable[Sequence[Any]], lang: str,
                     widths: Sequence[int] = ()) -> None:
    from openpyxl.styles import Alignment
    from openpyxl.utils import get_column_letter

    header_row(ws, 1, headers, lang, widths)
    last = write_rows(ws, 2, rows, lang)
    wrap = Alignment(wrap_text=True, vertical="top")
    for col, width in enumerate(widths, start=1):
        if width >= 40:  # long texts (messages, causes) wrap inside their column
            for r in range(2, last):
                ws.cell(row=r, column=col).alignment = wrap
    ws.freeze_panes = "A2"
    fit_to_page_width(ws)
    if headers:
        ws.auto_filter.ref = f"A1:{get_column_letter(len(headers))}{max(last - 1, 1)}"


def write_report_sheet(wb: Workbook, title: str, tables: Sequence[ReportTable], lang: str) -> Worksheet:
    """Several titled tables one below the other on one sheet (a placeholder holding them as data in a
    workbook marked by :func:`adjudicator.outputs.streamed.stream_new_tabs`)."""
    from adjudicator.outputs import streamed

    ws = wb.create_sheet(sheet_title(wb, title))
    if streamed.streaming(wb):
        return streamed.describe(ws, streamed.Tab("report", lang, tables=list(tables)))
    fill_report_sheet(ws, tables, lang)
    return ws


def fill_report_sheet(ws: Worksheet, tables: Sequence[ReportTable], lang: str) -> None:
    """Titled tables one below the other. Several share the sheet's columns as layout.py's stack_columns plans
    them: a column of short texts and numbers is as wide as they are, a long text spans several columns."""
    from openpyxl.utils import get_column_letter

    from adjudicator.outputs.layout import COLUMN_CAPS
    from adjudicator.outputs.streamed import stacked_columns

    fit_to_page_width(ws)
    stacked = len(tables) > 1  # one table keeps the widths of a table tab
    plan = stacked_columns(tables, lang)
    row = 1
    for table, spans in zip(tables, plan.spans, strict=True):
        put(ws, row, 1, table.title, lang)
        ws.cell(row=row, column=1).font = _styles()["TITLE_FONT"]
        if stacked:
            spanned_header_row(ws, row + 1, table.headers, lang, spans)
        else:
            header_row(ws, row + 1, table.headers, lang)
        row = write_rows(ws, row + 2, table.rows, lang, spans)
        if not table.rows:
            put(ws, row, 1, msg("(none)"), lang)
            row += 1
        row += 1
    if stacked:
        for col, width in plan.widths.items():
            ws.column_dimensions[get_column_letter(col)].width = width
        setattr(ws, COLUMN_CAPS, dict(plan.widths))


#: The attribute of a sheet naming the rows whose height :func:`fit_row_heights` estimated: the layout fits
#: them again for the columns' final widths (layout.py widens columns after these heights were guessed).
REFIT_ROWS = "_adjudicator_refit_rows"


def fit_row_heights(ws: Worksheet, first: int, last: int) -> None:
    """Give rows with wrapped text the height of their longest cell, as an office program would; the
    layout fits them again once the columns have their final widths (layout.py)."""
    from openpyxl.utils import get_column_letter

    from adjudicator.outputs.layout import row_points

    refit = getattr(ws, REFIT_ROWS, None)
    if refit is None:
        refit = set()
        setattr(ws, REFIT_ROWS, refit)
    refit.update(range(first, last))
    widths: dict[int, float] = {}
    for row in ws.iter_rows(min_row=first, max_row=last - 1):
        lines = 1
        for cell in row:
            if cell.value is None or not cell.alignment.wrap_text:
                continue
            if cell.column not in widths:
                widths[cell.column] = ws.column_dimensions[get_column_letter(cell.column)].width or 10
            lines = max(lines, -(-len(str(cell.value)) // max(int(widths[cell.column] * 1.1), 1)))
        if lines > 1:
            ws.row_dimensions[row[0].row].height = row_points(lines)


def _atomic(target: Path, write: Callable[[str], None]) -> None:
    """Let ``write`` fill a temporary file beside ``target``, flush it to disk, then rename it into place:
    a reader sees the old file or the new one, never half of one."""
    temporary = _temporary_beside(target)
    try:
        write(temporary)
        with open(temporary, "rb+") as written:
            os.fsync(written.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def atomic_save(wb: Workbook, path: Path) -> None:
    """Lay the workbook out (widths, row heights, print setup: see layout.py) and save it atomically, with
    fixed zip dates and order so that the same workbook gives the same bytes."""
    from adjudicator.outputs.layout import lay_out
    from adjudicator.outputs.streamed import materialize

    materialize(wb)  # openpyxl saves it: every tab as openpyxl cells
    lay_out(wb)

    def save(temporary: str) -> None:
        wb.save(temporary)
        make_reproducible(temporary)

    _atomic(path, save)


def atomic_copy(source: Path, target: Path) -> None:
    _atomic(target, lambda temporary: shutil.copyfile(source, temporary))


def atomic_write_text(target: Path, text: str) -> None:
    _atomic(target, lambda temporary: Path(temporary).write_text(text, encoding="utf-8"))
