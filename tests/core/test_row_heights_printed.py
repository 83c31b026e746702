"""Every row as tall as the lines LibreOffice prints in it, and no taller (issue 10: header rows one line too
tall). Every kind of workbook of the examples (order templates, checked copies, GM input, results, campaign.xlsx,
in each language the example offers: tests/core/test_rendering.py's every_workbook) is printed by the real
LibreOffice with a marker beside each row (tests/row_lines.py); the lines drawn between a row's marker and the
next are counted against the lines its height holds. A row a line or more taller than its lines shows a blank
line (the layout counted a line too many: main had 139 such rows in the examples' outputs, headers of report
tables among them); a row drawn in more lines than it holds is cut. Rows whose lines depend on the print's
scale (layout.LINE_SLACK) are given the line they may need and are not counted as blank, but for the header
rows of titled tables: the plan of stacked tables' columns leaves no header's lines to the scale
(layout.sure_headers), so a header row a line too tall is a blank line, whatever the scale.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adjudicator.engine.registry import installed
from adjudicator.outputs.libreoffice import convert
from tests.core.test_rendering import every_workbook
from tests.pdf_layout import pages
from tests.row_lines import RowLines, marked_copy, row_lines

pytestmark = pytest.mark.libreoffice

#: Rows of the examples' printed workbooks set aside because their lines move with the print's scale
#: (tests/row_lines.py's ``unsure``; benchmarks/headers10_printed_rows.py counts them): 34 of 5,150 on
#: 2026-12-03, none a header; 7 since layout.sure_texts widens a column for its wrapped texts, the 7 long
#: texts of 70- and 90-wide columns that no width within its allowance makes sure
#: (benchmarks/results/sure10-2026-12-03.md). The ceiling keeps their number from growing unseen, and is
#: lowered as they are.
SET_ASIDE_CEILING = 7


def printed_rows(names: list[str], work: Path, soffice: str) -> dict[str, list[RowLines]]:
    """By workbook label: every printed row of every workbook of the examples ``names``, marked and converted
    by one LibreOffice run."""
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) is not installed; .ci/run installs it")
    marked = {}
    out = work / "marked"
    out.mkdir(parents=True)
    for name in names:
        for kind, path in every_workbook(name, work / name):
            label = f"{name}-{kind}"
            marked[label] = marked_copy(path, out / f"{label}.xlsx")
    convert(soffice, [out / f"{label}.xlsx" for label in marked], "pdf", out)
    return {label: row_lines(rows, pages(out / f"{label}.pdf")) for label, rows in marked.items()}


def faults(printed: dict[str, list[RowLines]]) -> list[str]:
    found = [f"{label} {'cut' if row.cut else 'blank line'}: {row}" for label, rows in printed.items()
             for row in rows if row.blank or row.cut]
    measured = [row for rows in printed.values() for row in rows if row.drawn > 1]
    assert len(measured) > 50, "too few wrapped rows found: the markers were not printed"
    return found


def test_every_rulesets_rows_print_as_tall_as_their_lines(tmp_path: Path, soffice: str) -> None:
    """On main, Star Sectors' Russian report's "Перемещения" header and Coordinated Orders' "Participantes y
    Habilidades" had a blank line, and the Instructions, Errors and Parameters sheets 130-odd rows more; later
    Inner Sphere's campaign report "Combates" ("Fuerza de ataque" in a column another table made 10.6 wide)
    and Galactic War's Spanish one "Planetas" (about 25 s on two cores: one LibreOffice run)."""
    printed = printed_rows(sorted(installed()), tmp_path, soffice)
    assert {"en", "es", "ru"} <= {label.rsplit("-", 1)[-1] for label in printed}
    found = faults(printed)
    assert not found, "\n".join(found[:30])
    unsure = [f"{label}: {row}" for label, rows in printed.items() for row in rows if row.unsure]
    assert len(unsure) <= SET_ASIDE_CEILING, (
        f"{len(unsure)} rows whose lines move with the print's scale (were {SET_ASIDE_CEILING}):\n"
        + "\n".join(unsure))
