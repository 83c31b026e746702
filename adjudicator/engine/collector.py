"""Fewer runs of Python's cyclic garbage collector while a command builds many objects that live on.

A check of 40 factions makes millions of small objects that stay alive (rows, problems, the cells of the
Errors tabs): with the collector's default first threshold (700 allocations) it ran about 5,400 times and
took over a quarter of the check's CPU, finding almost nothing to free. Counting the objects of only every
20,000 allocations keeps the collections rare; what they free and what the command writes are the same.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: Allocations between two collections of the youngest objects (Python's default is 700).
FIRST_THRESHOLD = 20_000
#: Collections of a generation between two of the next (Python's default is 10).
LATER_THRESHOLD = 10


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Within the block the collector runs rarely; its thresholds are put back after it, however it ends."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], FIRST_THRESHOLD), max(before[1], LATER_THRESHOLD),
                     max(before[2], LATER_THRESHOLD))
    try:
        yield
    finally:
        gc.set_threshold(*before)
