"""Wrapped texts whose lines no longer move with the print's scale (issue 10): a text within layout.LINE_SLACK of
its room wraps in one line more in some prints than in others (LibreOffice and Excel print to fit the page's
width, at a scale of their own), so its row shows a blank line or a cut one; its column (or its merged span's
last column) is widened by the few tenths of a "0" that fix its lines (layout.sure_texts), by both writers
alike. Real workbooks written and read back."""

from __future__ import annotations

import math
from pathlib import Path

import openpyxl
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from adjudicator.engine.ruleset import ReportTable
from adjudicator.outputs import streamed
from adjudicator.outputs.fast_save import atomic_save_fast
from adjudicator.outputs.layout import (
    LINE_SLACK,
    WrappedText,
    lines_in_room,
    scale_allowance,
    sure_texts,
    wrapped_lines,
)
from adjudicator.outputs.writing import write_report_sheet, write_table_sheet
from tests.core.test_writer_same_outputs import workbook_face
from tests.row_lines import unsure_rows

#: An inner_sphere Ledger note: in its 50-wide column, two lines at one scale and one at another.
NOTE = "Income: systems 310 C, factories 250 C (+0%), economy +0%."
LONG = " ".join(["Battle at C3: the fleet of BETA held its ground and lost two frigates"] * 3)


def _unsure(text: str, width: float) -> bool:
    return wrapped_lines(text, width) != wrapped_lines(text, width, slack=-LINE_SLACK)


def test_a_text_whose_lines_move_with_the_scale_widens_its_column_a_little() -> None:
    assert _unsure(NOTE, 50.0)
    widths = sure_texts({1: 16.0, 2: 8.0, 3: 50.0}, [WrappedText(3, 3, NOTE)])
    assert (widths[1], widths[2]) == (16.0, 8.0)
    assert 50.0 < widths[3] <= 50.0 + scale_allowance(50.0) / 10
    assert not _unsure(NOTE, widths[3])


def test_a_merged_spans_text_widens_the_spans_last_column() -> None:
    widths = sure_texts({1: 25.0, 2: 25.0}, [WrappedText(1, 2, NOTE)])
    assert widths[1] == 25.0 and widths[2] > 25.0
    assert not _unsure(NOTE, widths[1] + widths[2])


def test_a_wide_columns_allowance_is_wider_and_a_sure_text_keeps_its_width() -> None:
    assert scale_allowance(90.0) > scale_allowance(50.0) >= 10
    assert _unsure(LONG, 79.9)
    widened = sure_texts({1: 79.9}, [WrappedText(1, 1, LONG)])[1]
    assert 79.9 + 1.0 < widened <= 79.9 + scale_allowance(79.9) / 10  # more than a narrow column's "0"
    assert not _unsure(LONG, widened)
    assert sure_texts({1: widened}, [WrappedText(1, 1, LONG)]) == {1: widened}


def test_a_widening_that_would_unsettle_another_text_of_the_column_is_not_made() -> None:
    """The column's width is the one leaving the fewest of its texts unsure: widening it for one text must not
    leave another's lines to the scale instead."""
    texts = [WrappedText(1, 1, NOTE), WrappedText(1, 1, LONG)]
    for width in (50.0, 52.6, 53.3):
        before = sum(_unsure(text.text, width) for text in texts)
        after = sure_texts({1: width}, texts)[1]
        assert sum(_unsure(text.text, after) for text in texts) <= before
        assert after >= width


def _ledger_and_report(stream: bool) -> openpyxl.Workbook:
    wb = streamed.stream_new_tabs(openpyxl.Workbook(), stream)
    wb.active.title = "Orders"
    wb.active["A1"] = "the player's sheet"
    write_table_sheet(wb, "Ledger T05", ["Account", "Change", "Note"],
                      [["Credits", 560, NOTE], ["Frigates", -2, LONG]], "en", widths=[16, 8, 50])
    write_report_sheet(wb, "Report T05", [
        ReportTable("fleets", "Fleets", ["Fleet", "Ships", "Where"], [["F1", 12, "A1"], ["F2", 3, "B2"]]),
        ReportTable("notes", "Notes", ["Note", "Turn"], [[LONG, "T05"], [NOTE, "T05"]]),
    ], "en")
    return wb


def test_both_writers_print_the_wrapped_texts_whatever_the_scale(tmp_path: Path) -> None:
    built, written = tmp_path / "built.xlsx", tmp_path / "streamed.xlsx"
    atomic_save_fast(_ledger_and_report(stream=False), built)
    assert atomic_save_fast(_ledger_and_report(stream=True), written)
    assert workbook_face(written) == workbook_face(built)
    book = openpyxl.load_workbook(written)
    ledger = book["Ledger T05"]
    assert 50 < ledger.column_dimensions["C"].width < 52  # the notes' column, a little wider than asked
    for ws in book.worksheets:
        assert not unsure_rows(ws), ws.title


def _every_column_every_pass(widths: dict[int, float], texts: list[WrappedText]) -> dict[int, float]:
    """sure_texts as it was first written, the reference: every column searched in every pass until a pass
    changes nothing."""
    from adjudicator.outputs.layout import DEFAULT_WIDTH

    def _unsure(texts: list[WrappedText], widths: dict[int, float], enough: int | None = None) -> int:
        count = 0
        for text in texts:
            room = text.room(widths)
            if wrapped_lines(text.text, room, text.bold, text.size) != wrapped_lines(text.text, room, text.bold,
                                                                                     text.size, -LINE_SLACK):
                count += 1
                if enough is not None and count >= enough:
                    break
        return count

    widths, texts = dict(widths), list(dict.fromkeys(texts))
    allowance: dict[int, int] = {}
    for text in texts:
        allowance[text.last] = max(allowance.get(text.last, 0), scale_allowance(text.room(widths)))
    given = {col: widths.get(col) or DEFAULT_WIDTH for col in allowance}
    held = {col: [text for text in texts if text.first <= col <= text.last] for col in allowance}
    for _ in range(len(allowance) + 2):
        changed = False
        for col in sorted(allowance):
            current = widths.get(col) or DEFAULT_WIDTH
            best = (_unsure(held[col], widths), current)
            if best[0]:
                for step in range(allowance[col] + 1):
                    widths[col] = round(given[col] + step / 10, 1)
                    count = _unsure(held[col], widths, best[0] + 1)
                    best = min(best, (count, widths[col]))
                    if not count:
                        break
                widths[col] = best[1]
            changed = changed or best[1] != current
        if not changed:
            break
    return widths


WORDS = ["Battle", "at", "C3:", "the", "fleet", "of", "BETA", "held", "its", "ground", "Кредиты", "systems", "310",
         "factories", "(+0%),", "economy", "agency:351:DAVION:8:outcome", "and/or", "D-NS1"]


#: A case where widening a column unsettles a span over an earlier column, which is searched again and changes
#: (found among 20,000 random cases: about one in 3,000 needs it).
UNSETTLED = ([(1, 0, "C3: Кредиты and/or its economy of economy economy 310 C3: at (+0%), systems its of 310 "
                     "agency:351:DAVION:8:outcome 310 and/or factories its agency:351:DAVION:8:outcome BETA of "
                     "of".split(), False),
              (2, 1, "factories Battle and/or C3: economy economy fleet agency:351:DAVION:8:outcome D-NS1 Кредиты "
                     "D-NS1 held".split(), False),
              (1, 1, "economy of agency:351:DAVION:8:outcome".split(), False),
              (1, 1, "systems its D-NS1 Кредиты systems the the its at economy factories and/or 310".split(), False),
              (2, 2, ["Battle"], False),
              (2, 0, "and/or its its D-NS1 its ground and/or of systems systems its ground the its economy ground at "
                     "310 and/or its the held 310 BETA BETA of".split(), True),
              (4, 0, "Battle D-NS1 systems (+0%), fleet fleet (+0%), of".split(), False),
              (2, 1, "Кредиты BETA Кредиты economy (+0%), 310 economy its C3: held factories of C3: BETA economy "
                     "systems economy".split(), False)],
             [14.5, 9.5, 38.9, 22.5, 9.1, 7.1])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(*UNSETTLED)
@given(st.lists(st.tuples(st.integers(1, 4), st.integers(0, 2), st.lists(st.sampled_from(WORDS), min_size=1,
                                                                         max_size=30), st.booleans()),
                min_size=1, max_size=40),
       st.lists(st.floats(6.0, 60.0).map(lambda w: round(w, 1)), min_size=6, max_size=6))
def test_columns_searched_again_only_when_unsettled_give_the_widths_of_searching_every_pass(
        cells: list[tuple[int, int, list[str], bool]], given_widths: list[float]) -> None:
    """layout.sure_texts searches a column again only when a width its texts depend on changed; the widths are
    those of the search of every column in every pass, with texts in their own column and over merged spans."""
    widths = dict(enumerate(given_widths, start=1))
    texts = [WrappedText(first, first + span, " ".join(words), bold) for first, span, words, bold in cells]
    assert sure_texts(widths, texts) == _every_column_every_pass(widths, texts)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*WORDS, "x" * 90, "a-b-c-d", "1/2", "and/or/either", "\n", "W" * 12]),
                min_size=1, max_size=40),
       st.floats(1.0, 120.0), st.floats(0.0, 40.0), st.booleans(), st.sampled_from([LINE_SLACK, -LINE_SLACK, 0.0]))
def test_a_text_takes_no_more_lines_in_a_wider_room(words: list[str], width: float, more: float, bold: bool,
                                                     slack: float) -> None:
    """What layout.sure_texts relies on to leave aside a text on one line: widening never adds a line."""
    text = " ".join(words)
    assert wrapped_lines(text, width + more, bold, slack=slack) <= wrapped_lines(text, width, bold, slack=slack)


def _lines_counted(pieces: tuple[tuple[tuple[float, bool], ...], ...], room: float, space: float) -> int:
    """layout.lines_of's count as it was first written, the reference."""
    total = 0
    for paragraph in pieces:
        lines, used = 1, 0.0
        for w, spaced in paragraph:
            needed = w if used == 0 else used + (space if spaced else 0.0) + w
            if needed <= room:
                used = needed
                continue
            if used > 0:
                lines += 1
            if w > room:
                lines += math.ceil(w / room) - 1
                used = w - (math.ceil(w / room) - 1) * room
            else:
                used = w
        total += lines
    return total


PIECE = st.tuples(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.25, 3.0, 4.75, 7.0, 12.5]), st.booleans())


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(PIECE, min_size=1, max_size=12).map(tuple), min_size=1, max_size=3).map(tuple),
       st.floats(1.0, 30.0), st.sampled_from([0.5, 0.6]), st.lists(st.floats(0.0, 1.0), min_size=1, max_size=6))
def test_a_rooms_band_takes_as_many_lines(pieces: tuple[tuple[tuple[float, bool], ...], ...], room: float,
                                          space: float, places: list[float]) -> None:
    """lines_in_room counts the lines as they were counted, and every room of the band it gives (its edges
    included, its top excluded) takes as many: a column's search counts a text again only outside it."""
    lines, low, high = lines_in_room(pieces, room, space)
    assert lines == _lines_counted(pieces, room, space)
    if low == high:  # a piece broken inside: no band
        return
    assert low <= room < high
    top = min(high, low + 100.0)
    for place in [0.0, *places]:
        other = low + place * (top - low)
        if other < high:
            assert _lines_counted(pieces, other, space) == lines, (other, low, high)
    below = math.nextafter(high, -math.inf)
    assert _lines_counted(pieces, below, space) == lines
    if high < math.inf:  # just past the band, some piece's choice is another
        assert lines_in_room(pieces, high, space)[1:] != (low, high)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.lists(st.sampled_from([*WORDS, "x" * 40, "D-NS1"]), min_size=1, max_size=25),
                          st.booleans(), st.integers(0, 1)), min_size=1, max_size=12),
       st.floats(5.0, 40.0).map(lambda w: round(w, 1)), st.integers(5, 60), st.floats(5.0, 50.0))
def test_a_columns_search_counts_as_many_unsure_texts_with_the_bands_it_keeps(
        cells: list[tuple[list[str], bool, int]], start: float, steps: int, current: float) -> None:
    """At the column's current width, then width after width from its given one (as sure_texts tries them),
    the texts counted unsure with the bands kept from the widths before are those counted afresh."""
    from adjudicator.outputs.layout import _unsure, measured_pieces

    texts = [WrappedText(2 - span, 2, " ".join(words), bold) for words, bold, span in cells]
    measured = {text: measured_pieces(text.text, text.bold, text.size) for text in texts}
    widths, bands = {1: 9.5, 2: current}, {}
    assert _unsure(texts, widths, measured, bands=bands) == _unsure(texts, widths, measured)
    for step in range(steps + 1):
        widths[2] = round(start + step / 10, 1)
        assert _unsure(texts, widths, measured, bands=bands) == _unsure(texts, widths, measured), widths[2]
