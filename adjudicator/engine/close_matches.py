"""The names closest to a mistyped one, as :func:`difflib.get_close_matches` finds them, found sooner.

A check suggests the nearest legal names for every unknown name a player typed ("did you mean …"), and
difflib scores every legal name in full (its ``ratio``) once its two cheap bounds pass: with a cutoff of 0.5,
and legal names sharing a faction's prefix, nearly all of them did, and the suggestions were a twelfth of a
40-state Inner Sphere check's CPU (issue 16). Here the same bounds are taken first, the hopeful names scored
from the highest bound down, and scoring stops when no bound left can reach the n-th best score found (a
name's score never exceeds its bound), so that only the names that may rank are scored. The answer is the
very list difflib gives, ties and repeated names included (``tests/core/test_close_matches.py`` compares the
two).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from difflib import SequenceMatcher


def close_matches(word: str, possibilities: Iterable[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    """:func:`difflib.get_close_matches` ``(word, possibilities, n, cutoff)``: the best ``n`` of
    ``possibilities`` scoring at least ``cutoff`` against ``word``, best first (equal scores: the later name in
    sort order first)."""
    if not n > 0:
        raise ValueError(f"n must be > 0: {n!r}")
    if not 0.0 <= cutoff <= 1.0:
        raise ValueError(f"cutoff must be in [0.0, 1.0]: {cutoff!r}")
    matcher = SequenceMatcher()
    matcher.set_seq2(word)
    hopeful: list[tuple[float, str]] = []  # difflib's two bounds passed: (the upper bound of its score, name)
    for name in possibilities:
        matcher.set_seq1(name)
        if matcher.real_quick_ratio() >= cutoff:
            bound = matcher.quick_ratio()
            if bound >= cutoff:
                hopeful.append((bound, name))
    hopeful.sort(key=lambda hope: hope[0], reverse=True)  # stable: equal bounds in the given order
    best: list[tuple[float, str]] = []  # the n best (score, name) so far, the n-th first
    for bound, name in hopeful:
        if len(best) == n and bound < best[0][0]:
            break  # this name, and every one after it, scores below the n-th best: none of them ranks
        matcher.set_seq1(name)
        score = matcher.ratio()
        if score < cutoff:
            continue
        if len(best) < n:
            heapq.heappush(best, (score, name))
        elif (score, name) > best[0]:
            heapq.heapreplace(best, (score, name))
    return [name for _, name in sorted(best, reverse=True)]
