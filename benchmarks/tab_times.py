"""CPU seconds of writing each streamed tab of a run, summed by the tab's kind and title (issue 16).

    python benchmarks/tab_times.py DIR [--tree TREE]

DIR is a campaign waiting for its run (e.g. a copy of one made by ``benchmarks/generate.py inner_sphere DIR
--factions 40 --orders 300``, checked, run once and its GM's input answered: the run then resolves the turn).
A copy of it is run in this process (``ADJUDICATOR_WORKERS=1``: every workbook written here), DIR is left as it
is. Each call of ``streamed.write_tab`` (laying a tab out and writing its rows) is timed; the tabs are summed by
kind and by title, a faction's code in a title (``Report F007``) read as ``F#``. ``--tree`` runs the code of
another checkout instead (run the two alternately: the machine's load moves the figures by a tenth and more).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    os.environ["ADJUDICATOR_WORKERS"] = "1"
    os.environ["ADJUDICATOR_CACHE"] = "off"
    sys.path.insert(0, str(args.tree.resolve()))
    from adjudicator.outputs import streamed
    from adjudicator.turn import pipeline

    seconds: dict[tuple[str, str], float] = defaultdict(float)
    count: Counter[tuple[str, str]] = Counter()
    write_tab = streamed.write_tab

    def timed(tab: Any, sheet: Any, formats: Any, out: Any) -> None:
        start = time.process_time()
        write_tab(tab, sheet, formats, out)
        key = (tab.kind, re.sub(r"F\d{3}", "F#", sheet.name))
        seconds[key] += time.process_time() - start
        count[key] += 1

    streamed.write_tab = timed
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "campaign"
        shutil.copytree(args.dir, root)
        start = time.process_time()
        pipeline.run(root)
        total = time.process_time() - start
    print(f"run {total:.2f} s CPU, of which streamed tabs {sum(seconds.values()):.2f} s")
    for (kind, title), spent in sorted(seconds.items(), key=lambda item: -item[1])[:args.top]:
        print(f"{spent:8.2f} s  {count[kind, title]:4d} × {kind:7s} {title}")


if __name__ == "__main__":
    main()
