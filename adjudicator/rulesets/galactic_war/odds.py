"""Exact odds of a space battle or an invasion, and a Monte Carlo check of them through the engine.

The exact odds walk the contest's states round by round: the chance of every number of hits of each
side comes from the dice each unit rolls (:meth:`Contest.firing`), and where those hits lead is
decided by :meth:`Contest.apply_hits` and :meth:`Contest.settle`, the functions the engine's own
:func:`~.combat.fight` uses. The result is exact up to floating-point rounding, with no sampling.
The Monte Carlo mode plays the engine's :func:`~.combat.fight` with random dice.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from adjudicator.rulesets.galactic_war.combat import (
    ATTACKER_HOLDS,
    BOTH_DESTROYED,
    BOTH_RETREATED,
    CAPPED,
    DEFENDER_HOLDS,
    Contest,
    End,
    fight,
    hit_chance,
    invasion_succeeds,
    survivors,
)

OUTCOMES = (ATTACKER_HOLDS, DEFENDER_HOLDS, BOTH_DESTROYED, BOTH_RETREATED, CAPPED)


@dataclass
class Odds:
    """Probabilities of each end, and of the number of units each side has left."""

    outcomes: dict[str, float]
    attacker_survivors: dict[int, float]
    defender_survivors: dict[int, float]
    invasion_success: float | None = None
    samples: int | None = None  # None: exact
    seconds: float = 0.0
    ends: dict[End, float] = field(default_factory=dict)

    @property
    def attacker_wins(self) -> float:
        return self.invasion_success if self.invasion_success is not None else self.outcomes[ATTACKER_HOLDS]


@lru_cache(maxsize=4096)
def hits_pmf(values: tuple[int, ...]) -> np.ndarray:
    """Distribution of the number of hits of dice needing ``values`` (one die each)."""
    pmf = np.array([1.0])
    for value in values:
        p = hit_chance(value)
        pmf = np.append(pmf * (1 - p), 0.0) + np.append(0.0, pmf * p)
    return pmf


def _clamped(pmf: np.ndarray, targets: int) -> np.ndarray:
    if len(pmf) <= targets + 1:
        return pmf
    out = pmf[: targets + 1].copy()
    out[targets] += pmf[targets + 1:].sum()
    return out


def _summarise(contest: Contest, ends: dict[End, float], samples: int | None, seconds: float) -> Odds:
    outcomes = dict.fromkeys(OUTCOMES, 0.0)
    a_left: dict[int, float] = defaultdict(float)
    d_left: dict[int, float] = defaultdict(float)
    success = 0.0
    for end, p in ends.items():
        outcomes[end.outcome] += p
        a_left[survivors(contest.attacker, end.attacker_losses, end.attacker_left)] += p
        d_left[survivors(contest.defender, end.defender_losses, end.defender_left)] += p
        if contest.kind == "ground" and invasion_succeeds(contest, end):
            success += p
    return Odds(outcomes, dict(sorted(a_left.items())), dict(sorted(d_left.items())),
                success if contest.kind == "ground" else None, samples, seconds, ends)


def exact(contest: Contest) -> Odds:
    """The exact distribution of the contest's ends (a Markov chain over ``(losses A, losses D, phase)``)."""
    started = time.perf_counter()
    na, nd = len(contest.attacker.members), len(contest.defender.members)
    shape = (2, na + 1, nd + 1)
    size = 2 * (na + 1) * (nd + 1)
    states = [(la, ld, ph) for ph in range(2) for la in range(na + 1) for ld in range(nd + 1)]
    ends: list[End] = []
    end_index: dict[End, int] = {}
    built: dict[int | str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}

    def build(round_no: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        hits = np.zeros((size, size))
        for i, state in enumerate(states):
            la, ld, phase = state
            a_shots, d_shots = contest.firing(state, round_no)
            on_d = _clamped(hits_pmf(tuple(sorted(v for _, v in a_shots))), nd - ld)
            on_a = _clamped(hits_pmf(tuple(sorted(v for _, v in d_shots))), na - la)
            block = hits[i].reshape(shape)
            block[phase, la:la + len(on_a), ld:ld + len(on_d)] = np.outer(on_a, on_d)
        going, going_to, ending, ending_to = [], [], [], []
        for i, state in enumerate(states):
            after = contest.settle(state, round_no)
            if isinstance(after, End):
                if after not in end_index:
                    end_index[after] = len(ends)
                    ends.append(after)
                ending.append(i)
                ending_to.append(end_index[after])
            else:
                going.append(i)
                going_to.append((after[2] * (na + 1) + after[0]) * (nd + 1) + after[1])
        return (hits, np.array(going, dtype=int), np.array(going_to, dtype=int), np.array(ending, dtype=int),
                np.array(ending_to, dtype=int))

    live = np.zeros(size)
    live[0] = 1.0  # (0, 0, NORMAL)
    mass: dict[int, float] = defaultdict(float)
    for round_no in range(contest.first_round, contest.max_rounds + 1):
        key = contest.round_key(round_no)
        if key not in built:
            built[key] = build(round_no)
        hits, going, going_to, ending, ending_to = built[key]
        after = live @ hits
        live = np.bincount(going_to, weights=after[going], minlength=size)
        for index, p in zip(ending_to, after[ending], strict=True):
            if p:
                mass[int(index)] += float(p)
        if not live.any():
            break
    result = {ends[i]: p for i, p in mass.items() if p > 0}
    return _summarise(contest, result, None, time.perf_counter() - started)


def simulate(contest: Contest, battles: int, seed: int = 1) -> Odds:
    """``battles`` plays of the engine's own :func:`fight`, with random d10s."""
    started = time.perf_counter()
    rng = random.Random(seed)
    uniform = rng.random

    def roll(round_no: int, side: str, shots: tuple[tuple[str, int], ...]) -> list[int]:
        return [int(uniform() * 10) + 1 for _ in shots]

    counts: dict[End, int] = defaultdict(int)
    for _ in range(battles):
        counts[fight(contest, roll).end] += 1
    return _summarise(contest, {e: c / battles for e, c in counts.items()}, battles,
                      time.perf_counter() - started)
