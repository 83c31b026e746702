"""One thread for numpy's linear algebra (OpenBLAS) unless the user chose otherwise.

numpy's OpenBLAS starts a pool of worker threads when numpy is imported, and they spin for a while on
every core; no command multiplies matrices (the odds use single-threaded einsum loops, see
rulesets/galactic_war/odds.py), so the pool only burns CPU: a one-workbook ``check`` spent ~0.11 s of its
~0.67 s CPU in it (benchmarks/results/startup-2026-12-02-night.md). The variables are read once, when numpy's
OpenBLAS loads, so this must run before anything imports numpy (``adjudicator --version`` imports none:
tests/core/test_lazy_imports.py). The commands' worker processes inherit the setting with the environment.
"""

from __future__ import annotations

import os

#: The variables OpenBLAS reads for its pool size, in its own order of precedence.
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def one_blas_thread() -> None:
    """Set ``OPENBLAS_NUM_THREADS=1`` unless one of :data:`THREAD_VARIABLES` is set already."""
    if not any(os.environ.get(name) for name in THREAD_VARIABLES):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
