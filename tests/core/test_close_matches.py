"""The names closest to a mistyped one are the very list difflib gives (engine/close_matches.py), found sooner."""

from __future__ import annotations

import difflib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine.close_matches import close_matches

#: Few letters, short names: equal scores, names met twice and names scoring just at the cutoff are common.
_NAMES = st.text(alphabet="ab-01", max_size=7)


@settings(max_examples=400, deadline=None)
@given(word=_NAMES, possibilities=st.lists(_NAMES, max_size=25), n=st.integers(1, 5),
       cutoff=st.sampled_from([0.0, 0.25, 0.5, 0.6, 2 / 3, 0.8, 1.0]))
def test_the_same_names_in_the_same_order_as_difflib(word: str, possibilities: list[str], n: int,
                                                     cutoff: float) -> None:
    assert close_matches(word, possibilities, n, cutoff) == difflib.get_close_matches(word, possibilities, n, cutoff)


def test_a_player_s_mistyped_regiment_among_a_state_s_regiments() -> None:
    """What a 40-state check asks (a made-up name among names sharing the state's prefix), and a name met twice."""
    legal = [f"F000-R{i:04d}" for i in range(285)] + ["F000-LOST1", "F000-LOST1"]
    for typed in ("F000-LOST19", "F000-GHOST39", "0105", "F000-R0278", "F00-R027"):
        expected = difflib.get_close_matches(typed, legal, 3, 0.5)
        assert close_matches(typed, legal, 3, 0.5) == expected
    assert close_matches("F000-LOST19", legal, 3, 0.5)[:2] == ["F000-LOST1", "F000-LOST1"]


def test_the_same_refusals_as_difflib() -> None:
    for n, cutoff in ((0, 0.5), (3, 1.5), (3, -0.1)):
        with pytest.raises(ValueError):
            difflib.get_close_matches("a", ["a"], n, cutoff)
        with pytest.raises(ValueError):
            close_matches("a", ["a"], n, cutoff)
