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
from threadpoolctl import ThreadpoolController

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


@lru_cache(maxsize=4096)
def _pmf_rows(values: tuple[int, ...], width: int) -> np.ndarray:
    """Row ``k`` (``k`` = the target's losses so far): where the hits of dice needing ``values`` take them,
    clamped at the last."""
    pmf = hits_pmf(values)
    rows = np.zeros((width, width))
    for k in range(width):
        clamped = _clamped(pmf, width - 1 - k)
        rows[k, k:k + len(clamped)] = clamped
    return rows


class _RoundRules:
    """One kind of round's rules from one phase, worked out for the states the chain reaches, as it reaches them.

    ``on_a[la, ld, la2]`` is the chance that the attacker's losses go from ``la`` to ``la2`` in state
    ``(la, ld, phase)`` (the defender's dice), ``on_d[la, ld, ld2]`` the same for the defender's; both sides roll
    independently, so a state's transitions are their product. ``to_state`` and ``to_end`` say what
    :meth:`Contest.settle` makes of every ``(la2, ld2)`` after the hits (flattened): a state's flat index
    (or -1) and an :class:`End`'s index (or -1).
    """

    def __init__(self, contest: Contest, round_no: int, phase: int, ends: list[End], end_index: dict[End, int]):
        self.contest, self.round_no, self.phase = contest, round_no, phase
        self.ends, self.end_index = ends, end_index
        na, nd = len(contest.attacker.members), len(contest.defender.members)
        self.na, self.nd = na, nd
        self.on_a = np.zeros((na + 1, nd + 1, na + 1))
        self.on_d = np.zeros((na + 1, nd + 1, nd + 1))
        self.fired = np.zeros((na + 1, nd + 1), dtype=bool)
        self.settled = np.zeros((na + 1) * (nd + 1), dtype=bool)
        self.to_state = np.full((na + 1) * (nd + 1), -1, dtype=np.intp)
        self.to_end = np.full((na + 1) * (nd + 1), -1, dtype=np.intp)

    def fire(self, live: np.ndarray) -> None:
        """Work out the dice of every live state not seen yet."""
        for la, ld in zip(*np.nonzero((live > 0) & ~self.fired), strict=True):
            a_shots, d_shots = self.contest.firing((int(la), int(ld), self.phase), self.round_no)
            a_values = tuple(sorted(v for _, v in a_shots))
            d_values = tuple(sorted(v for _, v in d_shots))
            self.on_a[la, ld] = _pmf_rows(d_values, self.na + 1)[la]
            self.on_d[la, ld] = _pmf_rows(a_values, self.nd + 1)[ld]
            self.fired[la, ld] = True

    def settle(self, after: np.ndarray) -> None:
        """Work out what follows every reached ``(la2, ld2)`` not seen yet."""
        size = (self.na + 1) * (self.nd + 1)
        for flat in np.nonzero((after > 0) & ~self.settled)[0]:
            la, ld = divmod(int(flat), self.nd + 1)
            nxt = self.contest.settle((la, ld, self.phase), self.round_no)
            if isinstance(nxt, End):
                if nxt not in self.end_index:
                    self.end_index[nxt] = len(self.ends)
                    self.ends.append(nxt)
                self.to_end[flat] = self.end_index[nxt]
            else:
                self.to_state[flat] = nxt[2] * size + nxt[0] * (self.nd + 1) + nxt[1]
            self.settled[flat] = True


def exact(contest: Contest) -> Odds:
    """The exact distribution of the contest's ends (a Markov chain over ``(losses A, losses D, phase)``).

    The chance of every state is carried forward round by round. A state's transitions are the product of
    the two sides' independent hit distributions, so a round is a broadcast product and one contraction
    over ``(la, ld) → (la2, ld2)``, a ``(na+1) × states`` by ``states × (nd+1)`` matrix product (no
    ``states × states`` matrix: memory grows as ``n³``, time as ``n⁴`` per round). The product runs on one
    BLAS thread (:func:`_one_blas_thread`): BLAS's threads gain nothing on matrices this small and, on a
    busy machine, contend with the other programs, which made the time swing tenfold with the load. Each
    state's dice and settlement are worked out once per kind of round (:meth:`Contest.round_key`), when the
    chain first reaches it.
    """
    with _one_blas_thread():
        return _exact(contest)


@lru_cache(maxsize=1)
def _blas() -> ThreadpoolController:
    return ThreadpoolController()


def _one_blas_thread() -> object:
    """A context in which numpy's BLAS uses one thread (threadpoolctl; its libraries are looked up once)."""
    return _blas().limit(limits=1, user_api="blas")


def _exact(contest: Contest) -> Odds:
    started = time.perf_counter()
    na, nd = len(contest.attacker.members), len(contest.defender.members)
    size = (na + 1) * (nd + 1)
    ends: list[End] = []
    end_index: dict[End, int] = {}
    built: dict[tuple[int | str, int], _RoundRules] = {}
    live = np.zeros((2, na + 1, nd + 1))
    live[contest.initial()[2], 0, 0] = 1.0
    mass = np.zeros(0)
    for round_no in range(contest.first_round, contest.max_rounds + 1):
        key = contest.round_key(round_no)
        following = np.zeros(2 * size)
        for phase in range(2):
            if not live[phase].any():
                continue
            if (key, phase) not in built:
                built[key, phase] = _RoundRules(contest, round_no, phase, ends, end_index)
            rules = built[key, phase]
            rules.fire(live[phase])
            weighted = (live[phase][:, :, None] * rules.on_a).reshape(size, na + 1)
            after = (weighted.T @ rules.on_d.reshape(size, nd + 1)).reshape(size)
            rules.settle(after)
            going = rules.to_state >= 0
            following += np.bincount(rules.to_state[going], weights=after[going], minlength=2 * size)
            ending = rules.to_end >= 0
            if len(mass) < len(ends):
                mass = np.append(mass, np.zeros(len(ends) - len(mass)))
            mass += np.bincount(rules.to_end[ending], weights=after[ending], minlength=len(ends))
        live = following.reshape(2, na + 1, nd + 1)
        if not live.any():
            break
    result = {ends[i]: float(p) for i, p in enumerate(mass) if p > 0}
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
