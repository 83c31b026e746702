"""Tables stacked one below the other on one sheet (a faction's report tab, the GM's turn report in campaign.xlsx)
share the sheet's columns: a number or a code of one table must not sit in a column made wide for another's
text. The reports of the examples (results and campaign.xlsx, in Spanish and Russian, and English where the
example has it) are printed by LibreOffice, and from the PDF's word boxes the empty band between each column of
each table and the next (from the right of the column's widest text to the left of the next column's leftmost)
is measured: none is wider than BAND text heights (Star Sectors' in make test, every ruleset's in the slow
set). When every table took the widths of the widest text sharing its columns, the widest band of every report
was 15 to 32 text heights; layout.stack_columns makes it at most about 9."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adjudicator.engine.registry import installed
from adjudicator.outputs.libreoffice import convert
from adjudicator.outputs.pictures import only_sheet
from tests.core.test_rendering import every_workbook
from tests.pdf_layout import pages
from tests.stacked_tables import report_sheet, stacked_tables, widest_bands

#: The widest empty band, in heights of the printed text, between two neighbouring columns of one table (about 18
#: widths of a "0": a column of short texts is at most layout.LONG_COLUMN wide).
BAND = 10.0


def test_short_columns_set_the_widths_and_a_long_one_spans_them() -> None:
    """Numbers beside short codes in one table, a long text in another: the text spans columns as wide as
    the short ones, the table's next column following the span; no column is made wide for it."""
    from adjudicator.outputs.layout import stack_columns

    plan = stack_columns([[9.0, 10.0, 12.0, 9.0], [9.0, 40.0, 10.0]])
    assert plan.widths[2] == 10.0 and plan.widths[3] == 12.0  # set by the first table's short columns
    first, last = plan.spans[1][1]
    assert first == 2 and sum(plan.widths[c] for c in range(first, last + 1)) >= 0.9 * 40.0
    assert plan.spans[1][2] == (last + 1, last + 1)  # the column after the text follows its span
    assert plan.spans[0] == ((1, 1), (2, 2), (3, 3), (4, 4))
    assert max(plan.widths.values()) <= 40.0
    header_only = stack_columns([[9.0, 19.0], [9.0, 8.4]], [[False, False], [False, False]])
    assert header_only.spans[0] == ((1, 1), (2, 2)) and header_only.widths[2] == 19.0  # a long header word
    alone = stack_columns([[9.0, 40.0]])  # one table keeps its own columns
    assert alone.spans == (((1, 1), (2, 2)),) and alone.widths == {1: 9.0, 2: 40.0}


def test_a_header_in_a_column_another_table_widened_keeps_lines_the_print_cannot_move() -> None:
    """Inner Sphere's campaign report, table "Combates": "Fuerza de ataque" (bold, indented as its numbers) sat
    in a column another table made 10.6 wide, where "Fuerza de" ends within layout.LINE_SLACK of its room: its
    row was given 3 lines and LibreOffice drew 2. The plan knows the headers and widens such a column (and a
    long column's span, by its last column) to where the lines no longer depend on the print's scale."""
    from adjudicator.outputs.layout import LINE_SLACK, ColumnHeader, stack_columns, wrapped_lines

    def moves(text: str, width: float) -> bool:
        return wrapped_lines(text, width, True) != wrapped_lines(text, width, True, slack=-LINE_SLACK)

    needs = [[9.0, 10.6], [9.0, 9.8]]
    headers = [[ColumnHeader("ID"), ColumnHeader("Puntos")],
               [ColumnHeader("ID"), ColumnHeader("Fuerza de ataque", 1.5)]]
    assert moves("Fuerza de ataque", stack_columns(needs).widths[2] - 1.5)  # main's plan, blind to the headers
    plan = stack_columns(needs, headers=headers)
    assert plan.widths == {1: 9.0, 2: 10.8} and not moves("Fuerza de ataque", 10.8 - 1.5)
    assert wrapped_lines("Fuerza de ataque", 10.8 - 1.5, True) == 2  # its fewer lines kept
    spanned = [[ColumnHeader("ID"), ColumnHeader("A"), ColumnHeader("B")],
               [ColumnHeader("ID"), ColumnHeader("Regimientos defensores Sistemas")]]
    long = [[False] * 3, [False, True]]
    blind = stack_columns([[9.0, 10.0, 12.0], [9.0, 30.0]], long)
    assert blind.spans[1][1] == (2, 4) and moves("Regimientos defensores Sistemas", 30.4)
    plan = stack_columns([[9.0, 10.0, 12.0], [9.0, 30.0]], long, spanned)
    assert plan.spans == blind.spans
    assert {col: plan.widths[col] for col in (1, 2, 3)} == {1: 9.0, 2: 10.0, 3: 12.0}  # the short columns kept
    assert plan.widths[4] > blind.widths[4] and not moves("Regimientos defensores Sistemas",
                                                          sum(plan.widths[col] for col in (2, 3, 4)))


def print_reports(names: list[str], work: Path, soffice: str) -> list[tuple[str, Path]]:
    """(label, workbook holding only its report sheet visible) of the results and campaign.xlsx of the examples
    of ``names`` in each language they offer, converted to PDF by one LibreOffice run."""
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) is not installed; .ci/run installs it")
    found = []
    (work / "reports").mkdir(parents=True, exist_ok=True)
    for name in names:
        for kind, path in every_workbook(name, work / name):
            if kind.split("-")[0] not in ("results", "campaign"):
                continue
            label = f"{name}-{kind}"
            found.append((label, only_sheet(path, report_sheet(path).title, work / "reports" / f"{label}.xlsx")))
    convert(soffice, [path for _, path in found], "pdf", work / "reports")
    return found


def wide_bands(names: list[str], printed: list[tuple[str, Path]]) -> list[str]:
    """Every band wider than BAND between two neighbouring columns of a table of the printed reports (each
    ruleset's results and campaign.xlsx in Spanish or Russian, at least, and every table found)."""
    labels = {label for label, _ in printed}
    for name in names:
        for kind in ("results", "campaign"):
            assert {f"{name}-{kind}-es", f"{name}-{kind}-ru"} & labels, (name, kind)
    faults, measured = [], 0
    for label, workbook in printed:
        ws = report_sheet(workbook)
        assert len(stacked_tables(ws)) > 1, label
        for table, column, after, band in widest_bands(ws, pages(workbook.with_suffix(".pdf"))):
            measured += 1
            if band > BAND:
                faults.append(f"{label} / {table}: {band:.1f} text heights between {column!r} and {after!r}")
    assert measured > 20 * len(names)
    return faults


@pytest.mark.libreoffice
def test_star_sectors_reports_leave_no_wide_empty_band_between_columns(tmp_path: Path, soffice: str) -> None:
    """Star Sectors' reports in Spanish and Russian (make test's; every ruleset's: the slow test below)."""
    printed = print_reports(["star_sectors"], tmp_path, soffice)
    assert {label.rsplit("-", 1)[-1] for label, _ in printed} == {"es", "ru"}
    faults = wide_bands(["star_sectors"], printed)
    assert not faults, "\n".join(faults)


@pytest.mark.libreoffice
def test_no_table_of_any_rulesets_report_leaves_a_wide_empty_band_between_its_columns(
        tmp_path: Path, soffice: str) -> None:
    names = sorted(installed())
    printed = print_reports(names, tmp_path, soffice)
    assert {"es", "ru"} <= {label.rsplit("-", 1)[-1] for label, _ in printed}
    faults = wide_bands(names, printed)
    assert not faults, "\n".join(faults)
