"""The name the GM's console imports: ``gm_console.py``, copied into every campaign folder, calls
``adjudicator.xl``, so that upgrading adjudicator upgrades the buttons of consoles already written.
The buttons themselves are :mod:`adjudicator.console.buttons`."""

from adjudicator.blas_threads import one_blas_thread

one_blas_thread()  # before the buttons' imports load numpy (see blas_threads.py)

from adjudicator.console.buttons import check, main, make_templates, run_turn  # noqa: E402

__all__ = ["check", "main", "make_templates", "run_turn"]
