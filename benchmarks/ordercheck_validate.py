"""The rulesets' own order checks alone: what ``validate_orders`` costs on a campaign, and what it finds (issue 16).

    python benchmarks/ordercheck_validate.py DIR [--rounds 3]

DIR is a campaign (``benchmarks/generate.py``), copied to a temporary folder first. A check runs in this process
(``ADJUDICATOR_WORKERS=1``) and every call of the ruleset's ``validate_orders`` is recorded (its campaign, faction,
orders as the ruleset receives them); then those calls are made again ``--rounds`` times, each round timed with
``time.process_time``, on fresh problem lists. Printed: the CPU seconds of each round, and a sha256 of every
problem found (code, severity, file, sheet, cell, row, message and hint in English, in order), which must be
the same on any tree that finds the same problems. Run with ``PYTHONPATH=TREE`` to measure another checkout.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any


def _capture(directory: Path) -> tuple[list[tuple[Any, Any, str, Any]], Any]:
    """Every (ruleset, campaign, faction, orders) a check of ``directory`` hands to ``validate_orders``."""
    os.environ["ADJUDICATOR_WORKERS"] = "1"
    from adjudicator.engine.ruleset import Ruleset
    from adjudicator.turn.pipeline import check

    calls: list[tuple[Any, Any, str, Any]] = []
    original = Ruleset.validate_orders

    def recording(ruleset: Any, campaign: Any, faction: str, orders: Any, problems: Any) -> None:
        calls.append((ruleset, campaign, faction, orders))
        original(ruleset, campaign, faction, orders, problems)

    Ruleset.validate_orders = recording  # type: ignore[method-assign] # no ruleset overrides it
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch) / "campaign"
        shutil.copytree(directory, work)
        check(work)
    Ruleset.validate_orders = original  # type: ignore[method-assign]
    return calls, original


def _digest(found: list[Any]) -> str:
    from adjudicator.i18n import render

    sha = hashlib.sha256()
    for problems in found:
        for p in problems._items:
            text = [p.code, str(p.severity), p.file, p.sheet, p.cell, p.row, render(p.message, "en"),
                    render(p.hint, "en") if p.hint is not None else ""]
            sha.update(repr(text).encode())
    return sha.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    calls, original = _capture(args.dir)
    from adjudicator.engine.problems import ProblemList

    times, digests = [], set()
    for _ in range(args.rounds):
        found = [ProblemList() for _ in calls]
        started = time.process_time()
        for (ruleset, campaign, faction, orders), problems in zip(calls, found, strict=True):
            original(ruleset, campaign, faction, orders, problems)
        times.append(time.process_time() - started)
        digests.add(_digest(found))
    rounds = ", ".join(f"{t:.3f}" for t in times)
    print(f"validate_orders of {len(calls)} workbooks: {rounds} s CPU (load {os.getloadavg()[0]:.2f})")
    print(f"problems {sum(len(p._items) for p in found)}, sha256 {' '.join(sorted(digests))}")


if __name__ == "__main__":
    main()
