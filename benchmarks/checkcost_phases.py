"""Where a `check` spends its CPU, phase by phase, in one process and without a profiler (issue 16).

    python benchmarks/checkcost_phases.py DIR [--code TREE]

DIR is a campaign (``benchmarks/generate.py``), copied to a temporary folder first so that its own ``checks``
folder is untouched; the check runs with ``ADJUDICATOR_WORKERS=1`` (every phase in this process) and
``ADJUDICATOR_CACHE=off`` (every workbook read, none found kept from before) and each phase
is timed with ``time.process_time`` around the functions below (a phase inside another is indented). Run it
with ``PYTHONPATH=TREE`` to measure another checkout; a function a checkout does not have is left out.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

#: (module, attribute, label): the attribute is replaced where it is called from.
PHASES = [
    ("adjudicator.intake.submissions", "load_submission", "intake: each workbook, all of it"),
    ("adjudicator.intake.safety", "survey_xlsx", "  the safety survey (expat)"),
    ("adjudicator.intake.submissions", "read_workbook", "  the survey and calamine's read"),
    ("adjudicator.intake.submissions", "read_table", "  read_table"),
    ("adjudicator.intake.submissions", "validate_table", "  validate_table"),
    ("adjudicator.intake.submissions", "read_names", "  read_names"),
    ("adjudicator.engine.ruleset", "Ruleset.validate_orders", "  the ruleset's validate_orders"),
    ("adjudicator.rulesets.inner_sphere.rules", "InnerSphere.order_state", "    Inner Sphere: each state's world"),
    ("adjudicator.engine.orders", "carry_out_orders", "    the orders read, checked and carried out"),
    ("adjudicator.turn.pipeline", "_write_checked", "write: the checked copies, all of it"),
    ("adjudicator.turn.pipeline", "checked_copy", "  the new tabs described, the marks made"),
    ("adjudicator.outputs.compose", "compose_bytes", "  composed"),
    ("adjudicator.outputs.fast_save", "save_fast", "    the Errors tab"),
    ("adjudicator.outputs.streamed", "table_cells", "      its cells"),
    ("adjudicator.outputs.streamed", "lay_out", "      its layout"),
    ("xlsxwriter.workbook", "Workbook.close", "      XlsxWriter's writing"),
    ("adjudicator.outputs.compose", "_comment_parts", "    the comments (cell_comments.py)"),
    ("adjudicator.outputs.compose", "restyle_cells", "    the marked cells' fills"),
    ("adjudicator.outputs.compose", "inline_strings", "    the tab's strings inline"),
    ("adjudicator.outputs.compose", "_zip", "    zipped"),
]


def _timed(spent: Counter[str], module_name: str, attribute: str, label: str) -> None:
    import importlib

    owner: Any = importlib.import_module(module_name)
    *path, name = attribute.split(".")
    for part in path:
        owner = getattr(owner, part)
    original = getattr(owner, name, None)
    if original is None:
        return

    @functools.wraps(original)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[label] += time.process_time() - started

    setattr(owner, name, timed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    args = parser.parse_args()
    os.environ["ADJUDICATOR_WORKERS"] = "1"
    # nothing kept read nor written: a check measured reads every workbook and surveys campaign.xlsx, and the
    # user's own cache is left alone (with it, a second measure found the first one's readings)
    os.environ["ADJUDICATOR_CACHE"] = "off"
    spent: Counter[str] = Counter()
    for module_name, attribute, label in PHASES:
        _timed(spent, module_name, attribute, label)
    from adjudicator import cli
    from adjudicator.turn.pipeline import check

    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch) / "campaign"
        shutil.copytree(args.dir, work)
        started = time.process_time()
        outcome = check(work)
        total = time.process_time() - started
        started = time.process_time()
        with contextlib.redirect_stdout(io.StringIO()):
            cli.summary(outcome.submissions, outcome.missing, outcome.checked, "en", 50)
        printed = time.process_time() - started
    print(f"{total:6.2f} s CPU  check (imports excluded; load {os.getloadavg()[0]:.2f})")
    for _, _, label in PHASES:
        if label in spent:
            print(f"{spent[label]:6.2f}        {label}")
    print(f"{printed:6.2f}        printing (--max-problems 50)")


if __name__ == "__main__":
    main()
