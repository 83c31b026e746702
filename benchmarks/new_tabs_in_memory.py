"""CPU of writing each faction's new tabs before they are composed, in memory and through temporary files (issue 16).

    python benchmarks/new_tabs_in_memory.py DIR

DIR is a campaign waiting for its run (e.g. one made by ``benchmarks/generate.py``, checked, run once and its GM's
input answered: the run then resolves the turn and writes every faction's results). A copy of it is run in this
process (``ADJUDICATOR_WORKERS=1``); each time compose.py has a faction's new tabs written by XlsxWriter
(fast_save.py's ``save_fast``), they are written twice, in memory (``in_memory=True``, the project's way) and
through temporary files (as before), in alternating order, each timed with ``time.process_time`` (its system
time included: the files' making, writing, reading and removal), and the two packages' parts compared. DIR is
left as it is.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    args = parser.parse_args()
    os.environ["ADJUDICATOR_WORKERS"] = "1"
    os.environ.setdefault("ADJUDICATOR_CACHE", "off")
    from adjudicator.outputs import fast_save
    from adjudicator.turn import pipeline

    save_fast = fast_save.save_fast
    spent = {True: 0.0, False: 0.0}
    counted = {"calls": 0, "same": 0}

    def both_ways(wb: Any, target: Any, composed_cells: Any = None, deflated: bool = True,
                  in_memory: bool = False) -> None:
        if not in_memory:  # not a composed faction's new tabs: as the project writes it
            save_fast(wb, target, composed_cells, deflated, in_memory)
            return
        written = {}
        for way in ((True, False) if counted["calls"] % 2 else (False, True)):
            buffer, cells = io.BytesIO(), None if composed_cells is None else (composed_cells[0], [])
            start = time.process_time()
            save_fast(wb, buffer, cells, deflated, way)
            spent[way] += time.process_time() - start
            written[way] = (buffer.getvalue(), cells)
        counted["calls"] += 1
        with zipfile.ZipFile(io.BytesIO(written[True][0])) as memory, \
                zipfile.ZipFile(io.BytesIO(written[False][0])) as files:
            if memory.namelist() == files.namelist() and written[True][1] == written[False][1] and \
                    all(memory.read(part) == files.read(part) for part in memory.namelist()):
                counted["same"] += 1
        target.write(written[True][0])
        if composed_cells is not None:
            composed_cells[1].extend(written[True][1][1])

    fast_save.save_fast = both_ways
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "campaign"
        shutil.copytree(args.dir, root)
        pipeline.run(root)
    print(f"{counted['calls']} factions' new tabs, the same parts both ways: {counted['same']}")
    print(f"  in memory        {spent[True]:7.2f} s CPU")
    print(f"  temporary files  {spent[False]:7.2f} s CPU")


if __name__ == "__main__":
    main()
