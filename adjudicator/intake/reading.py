"""Reading workbooks: values only (python-calamine), sheets and columns found by their names.

A sheet is found by its title in English, Spanish or Russian; its header row is the row among the
first :data:`HEADER_SEARCH_ROWS` that names the most known columns; columns may come in any order,
blank rows are skipped, and unknown columns are reported as warnings. Cached values are read, never
formulas: the engine recomputes whatever a workbook computes.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from python_calamine import CalamineError, CalamineWorkbook

from adjudicator.engine.problems import Problem, ProblemList, Severity
from adjudicator.engine.row_table import RowTable
from adjudicator.engine.sheets import TableSchema
from adjudicator.i18n import fold, msg, msg_n
from adjudicator.intake.columns import get_column_letter
from adjudicator.intake.safety import DEFAULT_LIMITS, Inspection, Limits, corrupt_file_problem, inspect

if TYPE_CHECKING:  # pandas is imported when a table's frame is made: reading a workbook does not need it
    import pandas as pd

HEADER_SEARCH_ROWS = 15
#: Unknown headers named one by one in the F06 warning; the rest are counted.
UNKNOWN_HEADERS_NAMED = 5


@dataclass(frozen=True)
class ErrorValue:
    """A cell holding a spreadsheet error (``#DIV/0!``, ``#N/A``…): a formula that failed, never a blank."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass
class SheetGrid:
    name: str
    rows: list[list[Any]]
    visible: bool = True

    def value(self, row: int, col: int) -> Any:
        """1-based cell value, or None."""
        if 1 <= row <= len(self.rows) and 1 <= col <= len(self.rows[row - 1]):
            return clean(self.rows[row - 1][col - 1])
        return None


@dataclass
class WorkbookData:
    path: Path
    sheets: dict[str, SheetGrid] = field(default_factory=dict)
    #: A lazy reading's sheets (``read_workbook(..., lazy=True)``): each sheet's reader, in the workbook's order,
    #: called when :meth:`find` first finds it (its grid then kept in ``sheets``).
    readers: dict[str, Callable[[], SheetGrid]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.path.name

    def find(self, schema: TableSchema) -> SheetGrid | None:
        wanted = schema.spellings()
        for sheet_name in self.readers or self.sheets:
            if fold(sheet_name) in wanted:
                grid = self.sheets.get(sheet_name)
                if grid is None:
                    grid = self.sheets[sheet_name] = self.readers[sheet_name]()
                return grid
        return None


@dataclass
class Table:
    """The data rows of one sheet: raw cell values keyed by column key, indexed by sheet row (``rows``; as a
    DataFrame, ``frame``)."""

    schema: TableSchema
    sheet: str
    rows: RowTable
    letters: dict[str, str]

    @property
    def frame(self) -> pd.DataFrame:
        return self.rows.frame

    def cell(self, row: int, key: str) -> str:
        return f"{self.letters.get(key, 'A')}{row}"


def clean(value: Any) -> Any:
    """Blank strings become None; text is stripped; whole floats stay floats (checked later)."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip()
        return text or None
    if isinstance(value, dt.time):
        return value.isoformat()
    return value


def read_workbook(path: Path, problems: ProblemList, limits: Limits = DEFAULT_LIMITS,
                  lazy: bool = False, survey: Callable[[Path, Limits], Inspection] = inspect) -> WorkbookData | None:
    """All sheets of a workbook as value grids, or None (with problems) when it cannot be read. ``lazy``: each
    sheet read only when it is first found (:meth:`WorkbookData.find`): the master, whose turn tabs, ledger and
    hidden sheets (most of it after a large turn) its reading never asks for; a sheet that cannot be read then
    is told as the damaged file it is (F01), and read as empty. ``survey``: what surveys the file first
    (safety.inspect; the master's is kept by its bytes, kept_survey.py)."""
    inspection = survey(path, limits)
    problems.extend(inspection.problems)
    if any(p.is_error for p in inspection.problems):
        return None
    try:
        if inspection.skip_sheets:
            book = CalamineWorkbook.from_filelike(without_sheets(path, inspection.skip_sheets))
        else:
            book = CalamineWorkbook.from_path(str(path))
        data = WorkbookData(path)
        for meta in book.sheets_metadata:
            if meta.name in inspection.skip_sheets:
                continue  # an Excel 4.0 macro sheet: never read (warning F14)
            read = partial(_grid, book, meta, inspection.errors.get(meta.name, {}))
            if lazy:
                data.readers[meta.name] = partial(_read_later, read, meta.name, path.name, problems)
            else:
                data.sheets[meta.name] = read()
        return data
    except (CalamineError, Exception) as exc:  # noqa: B014 - calamine raises several error types
        if isinstance(exc, (KeyboardInterrupt, SystemExit, MemoryError)):
            raise
        problems.add(corrupt_file_problem(path.name))
        return None


def _grid(book: CalamineWorkbook, meta: Any, errors: dict[tuple[int, int], str]) -> SheetGrid:
    """One sheet's grid, its error cells (the survey's) as :class:`ErrorValue`."""
    rows = book.get_sheet_by_name(meta.name).to_python(skip_empty_area=False)
    for (row, col), text in errors.items():
        if row <= len(rows) and col <= len(rows[row - 1]):
            rows[row - 1][col - 1] = ErrorValue(text)
    return SheetGrid(meta.name, rows, visible=str(meta.visible).endswith("Visible"))


def _read_later(read: Callable[[], SheetGrid], name: str, file: str, problems: ProblemList) -> SheetGrid:
    """A lazy reading's sheet; one calamine cannot read is told as the whole reading tells it (F01, once), and
    read as empty."""
    try:
        return read()
    except (CalamineError, Exception) as exc:  # noqa: B014 - calamine raises several error types
        if isinstance(exc, (KeyboardInterrupt, SystemExit, MemoryError)):
            raise
        damaged = corrupt_file_problem(file)
        if damaged not in problems:
            problems.add(damaged)
        return SheetGrid(name, [])


def without_sheets(path: Path, names: list[str]) -> IO[bytes]:
    """A temporary copy of the .xlsx/.xlsm at ``path`` whose workbook no longer lists the sheets ``names``
    (Excel 4.0 macro sheets, which calamine refuses to open a workbook with); the parts stay, unread."""
    from xml.sax.saxutils import escape as xml_escape  # imports urllib.request, http and ssl: only here

    copy = tempfile.TemporaryFile()
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as out:
        for info in source.infolist():
            with source.open(info) as member:
                if info.filename == "xl/workbook.xml":
                    xml = member.read().decode("utf-8")
                    for name in names:
                        xml = re.sub(r"<(\w+:)?sheet\b[^>]*\bname=\"" + re.escape(xml_escape(name, {'"': "&quot;"}))
                                     + r"\"[^>]*/>", "", xml)
                    out.writestr(info.filename, xml)
                elif info.filename.lower().startswith("xl/macrosheets/"):
                    continue
                else:
                    with out.open(info.filename, "w") as target:
                        shutil.copyfileobj(member, target, 1 << 20)
    copy.seek(0)
    return copy


def read_table(
    book: WorkbookData,
    schema: TableSchema,
    problems: ProblemList,
    sheet_grid: SheetGrid | None = None,
) -> Table | None:
    """The rows of ``schema``'s sheet, with problems for a missing sheet or columns."""
    grid = sheet_grid or book.find(schema)
    if grid is None:
        if not schema.optional:
            problems.add(
                Problem(
                    "F04",
                    Severity.ERROR,
                    msg("The sheet {sheet} is missing.", sheet=msg(schema.title)),
                    msg("Use the order workbook the GM sent you; do not rename or delete its sheets."),
                    file=book.name,
                )
            )
        return None
    spellings = {column.key: column.spellings() for column in schema.columns}
    header_row, mapping = _find_header(grid, spellings)
    where = {"file": book.name, "sheet": grid.name}
    if header_row == 0:
        header_row = 1
        if any(clean(v) is not None for row in grid.rows for v in row):  # optional: may be absent, not headless
            problems.add(
                Problem(
                    "F05",
                    Severity.ERROR,
                    msg("No header of the sheet {sheet} was found in its first {rows} rows; its rows cannot be "
                        "read.", sheet=grid.name, rows=HEADER_SEARCH_ROWS),
                    msg("Put the header row of the order workbook back where the template has it, above the "
                        "orders."),
                    cell="A1",
                    **where,
                )
            )
    letters = {key: get_column_letter(col) for key, col in mapping.items()}
    for column in schema.columns:
        if column.required and column.key not in mapping:
            problems.add(
                Problem(
                    "F05",
                    Severity.ERROR,
                    msg("The column {column} is missing.", column=msg(column.header)),
                    msg("Put the header {column} back in row {row}.", column=msg(column.header), row=header_row),
                    cell=f"A{header_row}",
                    **where,
                )
            )
    known = set(mapping.values())
    header_cells = grid.rows[header_row - 1] if len(grid.rows) >= header_row else []
    unknown = [(col, str(text)) for col, raw in enumerate(header_cells, start=1)
               if (text := clean(raw)) is not None and col not in known]
    if unknown:
        problems.add(_unknown_headers(unknown, header_row, where))
    records: list[dict[str, Any]] = []
    index: list[int] = []
    columns = list(mapping.items())
    entered = [key for key in mapping if not schema.column(key).computed]  # what the player typed
    for row_number in range(header_row + 1, len(grid.rows) + 1):
        cells = grid.rows[row_number - 1]
        width = len(cells)
        record = {}
        for key, col in columns:  # clean() of each cell, a text cell without the call (every cell comes here)
            value = cells[col - 1] if col <= width else None
            if value.__class__ is str:
                value = value.strip() or None
            elif value is not None:
                value = clean(value)
            record[key] = value
        if all(record[key] is None for key in entered):
            continue  # blank, apart from the template's own formulas
        for key in entered:
            value = record[key]
            if value is not None and value.__class__ is not str and _unusable(value):  # most cells: a text
                problems.add(_unusable_problem(value, f"{get_column_letter(mapping[key])}{row_number}",
                                               row_number, where))
                record[key] = None
        records.append(record)
        index.append(row_number)
    return Table(schema, grid.name, RowTable(index, {key: [r[key] for r in records] for key in mapping}), letters)


def top_left(ws: Any, ref: str) -> Any:
    """The openpyxl cell at ``ref``, or the top-left cell of the merged range that covers it (a merged
    cell's value and marks live there; the others are read-only)."""
    cell = ws[ref]
    if type(cell).__name__ == "MergedCell":
        for merged in ws.merged_cells.ranges:
            if cell.coordinate in merged:
                return ws.cell(row=merged.min_row, column=merged.min_col)
    return cell


def _unusable(value: Any) -> bool:
    return isinstance(value, ErrorValue) or (isinstance(value, float) and not math.isfinite(value))


def _unusable_problem(value: Any, cell: str, row: int, where: dict[str, str]) -> Problem:
    """C05: a cell holding an error value (a formula that failed) or a number that is not finite."""
    if isinstance(value, ErrorValue):
        message = msg("The cell holds the error {value}: its formula failed.", value=value.text)
        hint = msg("Correct the formula, or type the value itself.")
    else:
        message = msg("The cell holds {value}, which is not a number that can be used.", value=str(value))
        hint = msg("Type an ordinary number, or leave the cell empty.")
    return Problem("C05", Severity.ERROR, message, hint, cell=cell, row=row, **where)


def _unknown_headers(unknown: list[tuple[int, str]], header_row: int, where: dict[str, str]) -> Problem:
    """One F06 warning for every header the adjudicator does not know, at the first of them."""
    named = ", ".join(text[:40] for _, text in unknown[:UNKNOWN_HEADERS_NAMED])
    cell = f"{get_column_letter(unknown[0][0])}{header_row}"
    if len(unknown) == 1:
        message = msg("The column {column} is not used by the adjudicator and was ignored.", column=named)
    else:
        message = msg_n("{n} column is not used by the adjudicator and was ignored: {columns}.",
                        "{n} columns are not used by the adjudicator and were ignored: {columns}.", len(unknown),
                        columns=named + (", …" if len(unknown) > UNKNOWN_HEADERS_NAMED else ""))
    return Problem("F06", Severity.WARNING, message, None, cell=cell, **where)


def _find_header(grid: SheetGrid, spellings: dict[str, set[str]]) -> tuple[int, dict[str, int]]:
    best_row, best_map = 0, {}
    for row_number in range(1, min(HEADER_SEARCH_ROWS, len(grid.rows)) + 1):
        mapping: dict[str, int] = {}
        for col, raw in enumerate(grid.rows[row_number - 1], start=1):
            text = clean(raw)
            if text is None:
                continue
            word = fold(text)
            for key, words in spellings.items():
                if key not in mapping and word in words:
                    mapping[key] = col
                    break
        if len(mapping) > len(best_map):
            best_row, best_map = row_number, mapping
    return best_row, best_map


def read_key_values(grid: SheetGrid) -> dict[str, Any]:
    """A two-column key/value sheet (settings, template metadata) as a dict keyed by folded key."""
    out: dict[str, Any] = {}
    for row_number in range(1, len(grid.rows) + 1):
        key = grid.value(row_number, 1)
        if key is not None:
            out[fold(key)] = grid.value(row_number, 2)
    return out
