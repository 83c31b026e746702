"""Spreadsheet column letters (1 → A, 27 → AA), without importing openpyxl.

Reading a workbook names cells in its problems; ``openpyxl.utils`` would import the whole of openpyxl
(its workbook, writer, styles and Pillow: about 0.4 s of CPU) into `check`, which reads with python-calamine.
The letters are openpyxl's (``tests/core/test_column_letters.py`` compares every column of a sheet).
"""

from __future__ import annotations

from functools import cache

#: The last column of an .xlsx sheet (XFD), as in openpyxl.
MAX_COLUMN = 18_278


@cache
def get_column_letter(index: int) -> str:
    """The letters of the 1-based column ``index`` (1 → ``"A"``, 28 → ``"AB"``)."""
    if not 1 <= index <= MAX_COLUMN:
        raise ValueError(f"Invalid column index {index}")
    letters = ""
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters
