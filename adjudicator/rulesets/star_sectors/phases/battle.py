"""Step 2: the pairs that must fight, and the fleet they lose (S6, §5.3, A9–A11, A14, A16)."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations

from adjudicator.rulesets.star_sectors.state import World


@dataclass(frozen=True)
class Contest:
    """A pair of factions and the squares they share, with the values there after movement."""

    a: str
    b: str
    squares: tuple[tuple[str, int, int], ...]  # (square, F(a,s), F(b,s))

    @property
    def key(self) -> tuple[str, str]:
        return (self.a, self.b)


@dataclass(frozen=True)
class Result:
    winner: str  # a faction id, or "DRAW"
    pct_a: float
    pct_b: float


def contests(world: World) -> list[Contest]:
    """Every pair with at least one shared square, in a stable order (A10, A16)."""
    shared: dict[tuple[str, str], list[tuple[str, int, int]]] = defaultdict(list)
    for square in sorted(world.squares):
        present = world.present(square)
        for a, b in combinations(sorted(present), 2):
            shared[(a, b)].append((square, present[a], present[b]))
    return [Contest(a, b, tuple(rows)) for (a, b), rows in sorted(shared.items())]


def factor(side: str, winner: str, params: dict) -> float:
    if winner == "DRAW":
        return float(params["draw_factor"])
    return float(params["winner_factor"] if side == winner else params["loser_factor"])


def loss(pct_own: float, k: float, enemy_value: int) -> int:
    """floor(p/100 × k × F(enemy, s)), each term rounded down on its own (S6, A12).

    Computed in exact rational steps so that 75% of 50 is 37, never 37.499… or 38."""
    from fractions import Fraction

    return math.floor(Fraction(str(pct_own)) / 100 * Fraction(str(k)) * enemy_value)


def losses(
    world: World,
    fights: list[Contest],
    results: dict[tuple[str, str], Result],
    square_results: dict[tuple[str, str, str], Result],
    params: dict,
) -> dict[tuple[str, str], list[tuple[str, int]]]:
    """Loss terms by (faction, square): a list of (opponent, R lost to that opponent)."""
    terms: dict[tuple[str, str], list[tuple[str, int]]] = defaultdict(list)
    for fight in fights:
        for square, value_a, value_b in fight.squares:
            result = results[fight.key]
            if params["allow_per_square_results"]:
                result = square_results.get((square, fight.a, fight.b), result)
            terms[(fight.a, square)].append(
                (fight.b, loss(result.pct_a, factor(fight.a, result.winner, params), value_b))
            )
            terms[(fight.b, square)].append(
                (fight.a, loss(result.pct_b, factor(fight.b, result.winner, params), value_a))
            )
    return dict(terms)
