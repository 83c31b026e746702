"""The exact odds equal the figures of the dense-matrix chain they replaced, and a plain recursion written apart.

``galactic_war_odds_reference.json`` holds every end's probability as the states × states matrices computed
them (before the sparse chain); the recursion below walks the contest's rules state by state, with its own
hit distribution, and shares nothing with :func:`exact` but :class:`Contest`.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from adjudicator.rulesets.galactic_war.combat import End, hit_chance
from adjudicator.rulesets.galactic_war.odds import exact
from tests.galactic_war.kit import CASES, contest_of

REFERENCE = json.loads((Path(__file__).parent / "galactic_war_odds_reference.json").read_text())


def _key(case: list) -> str:
    return f"{case[0]}-v-{case[1]}-{case[2]}-{case[3]}-{'invasion' if case[4] else 'space'}-dna:{case[5]}"


@pytest.mark.parametrize("ref", REFERENCE, ids=lambda r: _key(r["case"]))
def test_the_figures_of_the_dense_chain_to_1e_12(ref: dict) -> None:
    odds = exact(contest_of(tuple(ref["case"])))
    expected = {End(o, la, ld, al, dl): p for o, la, ld, al, dl, p in ref["ends"]}
    assert set(odds.ends) == set(expected)
    for end, p in expected.items():
        assert odds.ends[end] == pytest.approx(p, abs=1e-12, rel=0), end
    for key, p in ref["outcomes"].items():
        assert odds.outcomes[key] == pytest.approx(p, abs=1e-12, rel=0)
    left = {str(k): v for k, v in odds.attacker_survivors.items()}
    assert left == pytest.approx(ref["attacker_survivors"], abs=1e-12)
    left = {str(k): v for k, v in odds.defender_survivors.items()}
    assert left == pytest.approx(ref["defender_survivors"], abs=1e-12)
    if ref["invasion_success"] is not None:
        assert odds.invasion_success == pytest.approx(ref["invasion_success"], abs=1e-12, rel=0)


def plain_recursion(contest) -> dict[End, float]:  # noqa: ANN001
    """Every end's probability by a memoized recursion over (state, round): each die hits or misses."""

    def hits(values: tuple[int, ...]) -> list[float]:
        dist = [1.0]
        for value in values:
            p = hit_chance(value)
            dist = [(dist[k] if k < len(dist) else 0.0) * (1 - p) + (dist[k - 1] * p if k else 0.0)
                    for k in range(len(dist) + 1)]
        return dist

    @cache
    def ends_from(state: tuple[int, int, int], round_no: int) -> tuple[tuple[End, float], ...]:
        a_shots, d_shots = contest.firing(state, round_no)
        out: dict[End, float] = {}
        for a_hits, pa in enumerate(hits(tuple(v for _, v in a_shots))):
            for d_hits, pd in enumerate(hits(tuple(v for _, v in d_shots))):
                nxt = contest.step(state, round_no, a_hits, d_hits)
                for end, q in ([(nxt, 1.0)] if isinstance(nxt, End) else ends_from(nxt, round_no + 1)):
                    out[end] = out.get(end, 0.0) + pa * pd * q
        return tuple(out.items())

    return dict(ends_from(contest.initial(), contest.first_round))


@pytest.mark.parametrize("case", CASES[:4] + [({"CRUISER": 3, "FIGHTER": 1}, {"CRUISER": 3}, "NEVER",
                                                "OWN_SHIPS<=1", False, "defender")],
                         ids=lambda c: f"{c[0]}-v-{c[1]}")
def test_a_plain_recursion_gives_the_same_ends(case: tuple) -> None:
    contest = contest_of(case)
    expected = {e: p for e, p in plain_recursion(contest).items() if p > 0}
    odds = exact(contest)
    assert set(odds.ends) == set(expected)
    for end, p in expected.items():
        assert odds.ends[end] == pytest.approx(p, abs=1e-12, rel=0), end
