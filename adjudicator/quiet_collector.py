"""Python's cyclic garbage collector paused while a command imports its libraries.

Importing pandas, openpyxl, numpy, XlsxWriter, click and rich makes over a hundred thousand objects (classes,
functions, dicts) that live as long as the process, and almost no garbage: the collector still ran some hundred
times during a one-workbook ``check``'s imports, ~25 ms of its CPU, freeing nothing. With the collector paused
for the imports and what they made then frozen (moved out of the collector's sight for good, as
:func:`gc.freeze` does; the workers of a run are forked after it), later collections no longer walk the
libraries' objects either. What a command computes and writes is the same.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_FROZEN: list[bool] = []  # whether this process froze its objects already


@contextmanager
def collector_paused(freeze: bool = False, young: bool = False) -> Iterator[None]:
    """No collection within the block; after it the collector is as it was. ``freeze``: the objects alive then
    are frozen first, once per process (a process that runs several commands, a test session, freezes only
    the first time: what it made since may still become garbage). ``young``: the youngest generation is
    collected first, which holds all the block made (no collection ran meanwhile), before the collector is on
    again (else the first object made after might start a collection of its own)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if young:
            gc.collect(0)
        if freeze and not _FROZEN:
            gc.freeze()
            _FROZEN.append(True)
        if enabled:
            gc.enable()
