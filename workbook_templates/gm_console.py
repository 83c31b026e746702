"""The Python side of gm_console.xlsm (keep both files in the same folder, with these names).

The workbook's buttons run xlwings' macro SampleCall, which runs ``import gm_console; gm_console.main()``.
See docs/console.md of adjudicator.
"""

from adjudicator.xl import check, main, make_templates, run_turn

__all__ = ["check", "main", "make_templates", "run_turn"]
