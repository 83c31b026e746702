"""The letter widths the layout counts (letter_widths.py's table) are DejaVu Sans' own, read again from the font
files matplotlib ships; and a text's width is their sum, bold from the bold font."""

from __future__ import annotations

import pytest

from adjudicator.outputs import letter_widths
from adjudicator.outputs.layout import line_pieces, text_width, wrapped_lines


def test_the_table_is_the_fonts_advance_widths() -> None:
    from pathlib import Path

    assert Path(letter_widths.TABLE).read_text(encoding="utf-8") == letter_widths.table_source()


def test_widths_in_zeros_of_the_regular_font() -> None:
    assert text_width("0000") == 4.0
    assert text_width("0", bold=True) == pytest.approx(1425 / 1303)  # DejaVu Sans Bold's "0"
    assert text_width("i") == pytest.approx(569 / 1303) and text_width("m") == pytest.approx(1995 / 1303)
    assert text_width("Ж") > text_width("ж") > text_width("и")
    assert letter_widths.letter_width("中") == 2.0  # outside the table: a wide East Asian letter
    assert letter_widths.letter_width("\U0001d400") == letter_widths.UNKNOWN_WIDTH


def test_lines_end_at_spaces_and_after_dashes_as_libreoffice_breaks_them() -> None:
    assert line_pieces("D-NS1 and/or 1/2") == [("D-", False), ("NS1", False), ("and/", True), ("or", False),
                                               ("1/2", True)]
    # "Fuerza de" (8.75 "0" bold) fits a header 10 wide; "Fuerza de ataque" does not
    assert wrapped_lines("Fuerza de ataque", 10.0, bold=True) == 2
    assert wrapped_lines("aa bbbbbb-cccccc", 10.0) == 2  # "aa bbbbbb-" and "cccccc": broken after the dash
    assert wrapped_lines("aa bbbbbb_cccccc", 10.0) == 3  # no dash: the word starts a line, and breaks inside
