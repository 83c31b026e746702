"""Rows of data kept on a hidden sheet as Python values, not as openpyxl cells.

The master keeps what it must write again in another language, or read back next turn, on hidden sheets: every
ledger line, every order row and report line of a turn, every map's view, each as a JSON text in a cell (tens of
thousands of rows a turn). Made as openpyxl cells by ``ws.append``, then read again cell by cell to be written by
XlsxWriter, they were some 7 % of the master's CPU. :func:`append_plain` keeps a row as its values instead;
:mod:`adjudicator.outputs.fast_save` writes them after the sheet's cells, as it would write the cells
``ws.append`` makes of them (the same bytes), and :func:`materialize_plain` makes them those cells when openpyxl
saves the workbook after all. :func:`sheet_rows` reads a sheet's rows, its cells' and then its plain ones, so
that whatever reads such a sheet again before it is saved reads what was appended.

A sheet's plain rows follow its cells: once a row is appended plainly, no cell is added to the sheet.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from adjudicator.outputs.cell_text import ILLEGAL_CHARACTERS_RE

#: The attribute of a sheet holding its plain rows: (the first one's row number, the rows).
PLAIN_ROWS = "_adjudicator_plain_rows"
#: What a plain row may hold: the values ``ws.append`` makes texts, numbers or nothing of.
_PLAIN = (str, int, float, type(None))
#: The most characters a cell holds (openpyxl cuts a longer text so).
CELL_CHARACTERS = 32767


def append_plain(ws: Any, values: Sequence[Any]) -> None:
    """Append ``values`` as ``ws``'s next row, kept as data (the module's docstring): only texts, numbers and None,
    a text cut and refused as ``ws.append`` cuts it (to a cell's 32,767 characters) and refuses it (a character
    no spreadsheet holds)."""
    row = []
    for value in values:
        if not isinstance(value, _PLAIN):
            raise TypeError(f"a plain row holds texts and numbers, not {type(value).__name__}")
        if isinstance(value, str):
            value = value[:CELL_CHARACTERS]
            if ILLEGAL_CHARACTERS_RE.search(value):
                from openpyxl.utils.exceptions import IllegalCharacterError

                raise IllegalCharacterError(f"{value} cannot be used in worksheets.")
        row.append(value)
    plain = ws.__dict__.get(PLAIN_ROWS)
    if plain is None:
        plain = ws.__dict__[PLAIN_ROWS] = (ws._current_row + 1, [])  # noqa: SLF001 - where ws.append writes next
    plain[1].append(tuple(row))


def plain_rows(ws: Any) -> tuple[int, list[tuple[Any, ...]]] | None:
    """The first row number of ``ws``'s plain rows and the rows; None when it has none."""
    return ws.__dict__.get(PLAIN_ROWS)


def sheet_rows(ws: Any, max_col: int) -> Iterator[tuple[Any, ...]]:
    """The values of ``ws``'s first ``max_col`` columns, row by row from the first: its cells', then its plain
    rows' (as ``ws.iter_rows(min_row=1, max_col=max_col, values_only=True)`` would read them as cells). Reading
    changes nothing: a sheet without cells is not read by ``iter_rows``, which would give it a cell A1 (and the
    rows appended next would start below it)."""
    plain = plain_rows(ws)
    if ws._cells:  # noqa: SLF001 - the written cells, none created
        last = plain[0] - 1 if plain is not None else ws.max_row  # the cells' rows, above the first plain one
        if last >= 1:
            yield from ws.iter_rows(min_row=1, max_row=last, max_col=max_col, values_only=True)
    if plain is None:
        return
    for values in plain[1]:
        yield tuple(values[:max_col]) + (None,) * (max_col - len(values))


def materialize_plain(ws: Any) -> None:
    """Make ``ws``'s plain rows its cells, as ``ws.append`` makes them (for a save by openpyxl)."""
    plain = ws.__dict__.pop(PLAIN_ROWS, None)
    if plain is None:
        return
    first, rows = plain
    for index, values in enumerate(rows, start=first):
        for col, value in enumerate(values, start=1):
            if value is not None:
                ws.cell(row=index, column=col, value=value)
