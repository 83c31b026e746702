"""The letter widths the layout counts (letter_widths.py's table) are DejaVu Sans' own, read again from the font
files matplotlib ships; and a text's width is their sum, bold from the bold font."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.outputs import letter_widths
from adjudicator.outputs.layout import (
    BREAK_AFTER,
    LINE_SLACK,
    WRAP_PADDING,
    kept_lines,
    line_pieces,
    text_width,
    wrapped_lines,
)


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


def _pieces_letter_by_letter(paragraph: str) -> list[tuple[str, bool]]:
    """line_pieces as it was first written: each word read letter by letter."""
    pieces: list[tuple[str, bool]] = []
    for number, word in enumerate(paragraph.split(" ")):
        start = 0
        for at, char in enumerate(word[:-1]):
            if char in BREAK_AFTER or (char == "/" and not word[at + 1].isdigit()):
                pieces.append((word[start:at + 1], number > 0 and start == 0))
                start = at + 1
        pieces.append((word[start:], number > 0 and start == 0))
    return pieces


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["a", "Я", " ", "-", "–", "—", "|", "/", "1", "²", "٣", "_", "x"]), max_size=14)
       .map("".join))
def test_a_paragraphs_pieces_are_those_found_letter_by_letter(paragraph: str) -> None:
    """Paragraphs without a dash, a bar or a slash are split at their spaces alone; the others, word by word,
    after each break (a slash before a digit, "²" and "٣" included, is none)."""
    assert line_pieces(paragraph) == _pieces_letter_by_letter(paragraph)


@settings(max_examples=400, deadline=None)
@given(text=st.lists(st.sampled_from(["a", "W", "Ж", " ", "-", "/", "1", "\n", "iiii", "mm"]), max_size=16)
       .map("".join), bold=st.booleans(), size=st.sampled_from([11.0, 12.0, 14.0]),
       slack=st.sampled_from([LINE_SLACK, -LINE_SLACK, 0.0]),
       nudge=st.sampled_from([-1e-6, -1e-12, 0.0, 1e-12, 1e-6, 0.3, -0.3, 5.0]))
def test_lines_kept_are_the_lines_counted(text: str, bold: bool, size: float, slack: float, nudge: float) -> None:
    """kept_lines tells a short text's one line by its whole width alone: the same count as wrapped_lines, also
    where the text just fills its line's room (the width nudged either side of it)."""
    room = text_width(text.replace("\n", ""), bold, size)
    width = room / (1.0 - slack) + WRAP_PADDING[bold] * size / 11.0 + nudge
    assert kept_lines(text, width, bold, size, slack) == wrapped_lines(text, width, bold, size, slack)
