"""Every printed row of every example's workbooks against the lines LibreOffice draws in it, counted (issue 10).

    python benchmarks/headers10_printed_rows.py [OUT]

The measure of tests/core/test_row_heights_printed.py (tests/row_lines.py: a marker beside each row, one
LibreOffice run), as counts: rows measured, rows with a blank line, rows cut, rows set aside because their lines
depend on the print's scale (layout.LINE_SLACK), and among them the header rows of titled tables (which the test
no longer sets aside: layout.sure_headers widens their columns until their lines no longer move). Each faulty
row is listed.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adjudicator.engine.registry import installed  # noqa: E402
from tests.core.test_row_heights_printed import printed_rows  # noqa: E402


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="printed-rows-"))
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if not soffice:
        sys.exit("LibreOffice (soffice) is not installed")
    printed = printed_rows(sorted(installed()), out, soffice)
    rows = [(label, row) for label, found in printed.items() for row in found]
    for label, row in rows:
        if row.blank or row.cut:
            print(f"{label}\t{'cut' if row.cut else 'blank line'}\t{row}")
    headers = [row for _, row in rows if row.header]
    unsure = [row for _, row in rows if row.unsure]
    print(f"{len(printed)} workbooks, {len(rows)} printed rows: {sum(row.blank for _, row in rows)} with a blank line, "
          f"{sum(row.cut for _, row in rows)} cut, {len(unsure)} whose lines move with the print's scale "
          f"(set aside unless a header row)")
    print(f"{len(headers)} header rows of titled tables: {sum(row.unsure for row in headers)} whose lines move "
          f"with the scale, {sum(row.blank for row in headers)} with a blank line, {sum(row.cut for row in headers)} "
          f"cut")


if __name__ == "__main__":
    main()
