"""The adjudicator's own tabs written the old way (openpyxl cells, laid out by layout.py, saved by XlsxWriter)
against streamed (adjudicator/outputs/streamed.py: data laid out and written by XlsxWriter directly).

    python benchmarks/writer_tabs.py [--rows 300] [--workbooks 10] [--runs 3]

Each workbook holds three Outcome-like tables of ``--rows`` rows (a wide, wrapping outcome column) and a
report of two tables; CPU seconds of writing ``--workbooks`` of them, the median of ``--runs``, both ways
alternated. The two files are read back and compared cell for cell first."""

from __future__ import annotations

import argparse
import json
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--workbooks", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
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
