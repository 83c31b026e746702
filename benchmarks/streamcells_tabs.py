"""The streamed tabs' cells and layout alone, timed and fingerprinted (issue 16).

    python benchmarks/streamcells_tabs.py capture DIR TABS.pickle   # the Errors tabs a check of DIR writes
    python benchmarks/streamcells_tabs.py time TABS.pickle [--rounds N]

``capture`` runs a check of the campaign DIR in this process (``ADJUDICATOR_WORKERS=1``) and keeps each
checked copy's Errors tab as described (``streamed.Tab``). ``time`` lays every tab out and writes its
worksheet XML (``errors_tab``: ``table_cells``, ``lay_out``, the cells, the XML), and prints the CPU seconds
of each step (the best of N rounds) and the sha256 of all the XML written, so that two trees
(``PYTHONPATH=TREE``) are compared on the same tabs, figures and bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import pickle
import time
from pathlib import Path


def capture(campaign: Path, out: Path) -> None:
    os.environ["ADJUDICATOR_WORKERS"] = "1"
    from adjudicator.outputs import errors_tab

    tabs = []
    original = errors_tab.direct_tab

    def keeping(wb):  # noqa: ANN001, ANN202 - errors_tab.direct_tab's own signature
        tab = errors_tab.tab_of(wb.worksheets[0]) if len(wb.worksheets) == 1 else None
        if tab is not None and tab.kind == "table":
            tabs.append(tab)
        return original(wb)

    errors_tab.direct_tab = keeping
    from adjudicator.cli import main

    try:
        main(["check", str(campaign)])
    except SystemExit:
        pass
    out.write_bytes(pickle.dumps(tabs))
    print(f"{len(tabs)} tabs, {sum(len(t.rows) for t in tabs)} rows")


def timed(tabs_file: Path, rounds: int) -> None:
    from adjudicator.outputs import errors_tab, streamed

    tabs = pickle.loads(tabs_file.read_bytes())
    best = {}
    digest = ""
    for _ in range(rounds):
        spent = {"table_cells": 0.0, "lay_out": 0.0, "cells": 0.0, "sheet_xml": 0.0}
        sha = hashlib.sha256()
        for tab in tabs:
            start = time.process_time()
            cells = streamed.table_cells(tab)
            after_cells = time.process_time()
            laid = streamed.lay_out(cells)
            after_layout = time.process_time()
            written, _formats = errors_tab._cells(laid)  # noqa: SLF001 - the step timed
            after_written = time.process_time()
            sha.update(errors_tab.sheet_xml(laid, written, 7))
            sha.update(repr(_formats).encode())
            end = time.process_time()
            spent["table_cells"] += after_cells - start
            spent["lay_out"] += after_layout - after_cells
            spent["cells"] += after_written - after_layout
            spent["sheet_xml"] += end - after_written
        for step, seconds in spent.items():
            best[step] = min(best.get(step, seconds), seconds)
        digest = sha.hexdigest()
    for step, seconds in best.items():
        print(f"{step:12} {seconds:6.3f} s")
    print(f"{'in all':12} {sum(best.values()):6.3f} s")
    print(f"sha256 {digest}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    cap = sub.add_parser("capture")
    cap.add_argument("campaign", type=Path)
    cap.add_argument("out", type=Path)
    tim = sub.add_parser("time")
    tim.add_argument("tabs", type=Path)
    tim.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.what == "capture":
        capture(args.campaign, args.out)
    else:
        timed(args.tabs, args.rounds)


if __name__ == "__main__":
    main()
