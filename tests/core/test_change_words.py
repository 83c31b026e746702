"""The words by which the Changes tab finds the order or report row behind a change (``maps/changes.py``'s
``_words``): read in one pass of the text, the very words the reading mark by mark found, a report row's words
those of all its cells."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from adjudicator.engine.ruleset import ReportTable
from adjudicator.i18n import msg
from adjudicator.outputs.maps.changes import Causes, _words

#: Letters, digits, every mark that parts words, spaces of several kinds, and letters whose capitals are longer.
_TEXT = st.text(alphabet=st.sampled_from("aZ09-_.,;:·→()[] \t\n\u00a0\u2003ßﬁéЖж"), max_size=40)


def _words_mark_by_mark(value: str) -> set[str]:
    """The words as the Changes tab first found them: each mark replaced by a space, then split."""
    for mark in ",;:·→()[]":
        value = value.replace(mark, " ")
    return {w.strip().upper() for w in value.split() if w.strip()}


@given(_TEXT)
def test_the_words_of_a_text_are_those_found_mark_by_mark(text: str) -> None:
    assert _words(text) == _words_mark_by_mark(text)


@given(st.lists(_TEXT, max_size=6))
def test_a_rows_words_are_the_words_of_its_cells(cells: list[str]) -> None:
    assert _words(" ".join(cells)) == set().union(*(_words_mark_by_mark(c) for c in cells))


def test_a_change_s_terms_are_read_as_words() -> None:
    assert _words("F000-R0001, 0101 (Dieron)→[x]; ok·straße") == {"F000-R0001", "0101", "DIERON", "X", "OK",
                                                                   "STRASSE"}


def test_a_change_is_explained_by_the_report_row_naming_it_in_any_cell() -> None:
    battles = ReportTable("battles", msg("Battles"), [msg("System"), msg("Hex")],
                          [[msg("Dieron"), "0101"], ["Hachiman", "0203"]])
    causes = Causes(None, {}, [battles], "Report T01", "en")
    cause, link = causes.of(["0203"], orders=False)
    assert (str(cause), link) == ("Battles: Hachiman · 0203", "'Report T01'!A4")
    cause, link = causes.of(["dieron"], orders=False)
    assert (str(cause), link) == ("Battles: Dieron · 0101", "'Report T01'!A3")
    assert causes.of(["Dieron0101"], orders=False) == (msg("the turn's resolution"), None)
