"""The adjudicator's own tabs written the old way (openpyxl cells, laid out by layout.py, saved by XlsxWriter)
against streamed (adjudicator/outputs/streamed.py: data laid out and written by XlsxWriter directly).

    python benchmarks/writer_tabs.py [--rows 300] [--workbooks 10] [--runs 3]

Each workbook holds three Outcome-like tables of ``--rows`` rows (a wide, wrapping outcome column) and a
report of two tables; CPU seconds of writing ``--workbooks`` of them, the median of ``--runs``, both ways
alternated. The two files are read back and compared cell for cell first.

    python benchmarks/writer_tabs.py --checked DIR [--runs 3]

The checked copies of campaign DIR's inbox (e.g. ``benchmarks/generate.py inner_sphere DIR --factions 40
--orders 300``), each saved as ``check`` saves it, made the openpyxl way (the player's file reloaded,
``ADJUDICATOR_COMPOSE=0``) against composed of the player's parts (adjudicator/outputs/compose.py): CPU
seconds of all of them in this process, the median of ``--runs``, both ways alternated; the faces of the two
files of each compared first (tests/core/test_writer_same_outputs.py)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import openpyxl  # noqa: E402

from adjudicator.engine.ruleset import ReportTable  # noqa: E402
from adjudicator.outputs import streamed  # noqa: E402
from adjudicator.outputs.fast_save import atomic_save_fast  # noqa: E402
from adjudicator.outputs.writing import write_report_sheet, write_table_sheet  # noqa: E402

HEADERS = ["Row", "Faction", "Order", "From", "To", "Ships", "Status", "Outcome"]
WIDTHS = [6, 10, 10, 10, 10, 8, 12, 70]


def _rows(n: int) -> list[list[object]]:
    return [[i, "ALPHA", "MOVE", f"A{i}", f"B{i}", i % 7, "accepted",
             f"E05: the fleet {i} moved from A{i} to B{i} through the night and arrived before the others"]
            for i in range(2, n + 2)]


def _workbook(stream: bool, rows: list[list[object]]) -> openpyxl.Workbook:
    wb = streamed.stream_new_tabs(openpyxl.Workbook(), stream)
    for n in range(3):
        write_table_sheet(wb, f"Outcome {n} T01", HEADERS, rows, "en", widths=WIDTHS)
    write_report_sheet(wb, "Report T01", [
        ReportTable("fleets", "Fleets", ["Fleet", "Ships", "Where"], [[f"F{i}", i, f"A{i}"] for i in range(60)]),
        ReportTable("notes", "Notes", ["Note"], [[f"note {i} " * 8] for i in range(30)]),
    ], "en")
    return wb


def _cells(path: Path) -> dict[str, list[tuple[object, ...]]]:
    wb = openpyxl.load_workbook(path)
    return {ws.title: [(c.coordinate, c.value, c.alignment.wrap_text, c.alignment.horizontal)
                       for row in ws.iter_rows() for c in row] for ws in wb.worksheets}


def checked_copies(source: Path, runs: int) -> dict[str, object]:
    """CPU seconds of every checked copy of ``source``'s check, the openpyxl way against composed."""
    from adjudicator.outputs.faction_workbooks import COMPOSE_ENV, checked_copy
    from adjudicator.turn import pipeline
    from tests.core.test_writer_same_outputs import workbook_face

    folder = Path(tempfile.mkdtemp())
    root = folder / "campaign"
    shutil.copytree(source, root)
    os.environ[COMPOSE_ENV] = "0"
    submissions = [s for s in pipeline.check(root).submissions if s.problems]
    ways = {"openpyxl copy": "0", "composed": "1"}

    def save_all(way: str, name: str) -> None:
        os.environ[COMPOSE_ENV] = ways[way]
        for number, submission in enumerate(submissions):
            atomic_save_fast(checked_copy(submission, "en", streamed=True), folder / f"{name}{number}.xlsx")

    for way in ways:
        save_all(way, way)
    differing = [n for n in range(len(submissions)) if workbook_face(folder / f"openpyxl copy{n}.xlsx")
                 != workbook_face(folder / f"composed{n}.xlsx")]
    times: dict[str, list[float]] = {way: [] for way in ways}
    for _ in range(runs):
        for way in ways:
            start = time.process_time()
            save_all(way, "x")
            times[way].append(time.process_time() - start)
    medians = {way: round(statistics.median(t), 3) for way, t in times.items()}
    return {"copies": len(submissions), "faces_differing": len(differing), "runs": runs, "cpu_s": medians,
            "ratio": round(medians["openpyxl copy"] / medians["composed"], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--workbooks", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--checked", type=Path, help="a campaign folder: time its checked copies instead")
    args = parser.parse_args()
    if args.checked:
        print(json.dumps(checked_copies(args.checked, args.runs)))
        return
    rows = _rows(args.rows)
    folder = Path(tempfile.mkdtemp())
    for stream in (False, True):
        atomic_save_fast(_workbook(stream, rows), folder / f"{stream}.xlsx")
    if _cells(folder / "False.xlsx") != _cells(folder / "True.xlsx"):
        raise SystemExit("the streamed tabs differ from the openpyxl-built ones")
    times: dict[str, list[float]] = {"openpyxl cells": [], "streamed": []}
    for _ in range(args.runs):
        for stream, name in ((False, "openpyxl cells"), (True, "streamed")):
            start = time.process_time()
            for _n in range(args.workbooks):
                atomic_save_fast(_workbook(stream, rows), folder / "x.xlsx")
            times[name].append(time.process_time() - start)
    medians = {name: round(statistics.median(t), 3) for name, t in times.items()}
    print(json.dumps({"rows": args.rows, "workbooks": args.workbooks, "runs": args.runs, "cpu_s": medians,
                      "ratio": round(medians["openpyxl cells"] / medians["streamed"], 2)}))


if __name__ == "__main__":
    main()
