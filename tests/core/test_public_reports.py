"""The public reports (outputs/maps/view.py) are the rows every faction's report holds: the same rows as a plain
comparison of every cell of every report gives, on generated reports (hypothesis)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine.ruleset import ReportTable
from adjudicator.i18n import msg
from adjudicator.outputs.maps.view import public_reports, text


def _every_cell_compared(reports: dict[str, list[Any]]) -> list[Any]:
    """The public rows found plainly: each table's rows read whole in every report."""
    if len(reports) < 2:
        return []

    def seen(tables: list[Any]) -> dict[str, tuple[tuple[str, ...], set[tuple[str, ...]]]]:
        return {t.key: (tuple(text(h) for h in t.headers), {tuple(text(c) for c in row) for row in t.rows})
                for t in tables}

    first, *others = reports.values()
    known = [seen(tables) for tables in others]
    shared = []
    for table in first:
        headers = tuple(text(h) for h in table.headers)
        rows = [row for row in table.rows
                if all(table.key in other and other[table.key][0] == headers
                       and tuple(text(c) for c in row) in other[table.key][1] for other in known)]
        if rows:
            shared.append(replace(table, rows=rows))
    return shared


#: Cells as reports hold them: texts (with spaces a text drops), numbers, messages, nothing, NaN.
_CELLS = st.sampled_from(["Luthien", "Luthien ", "Tharkad", "", None, float("nan"), 3, 3.0, "3", msg("Yes"),
                          msg("No"), "No"])
_ROWS = st.lists(st.lists(_CELLS, max_size=3), max_size=6)
_TABLES = st.lists(st.builds(ReportTable, key=st.sampled_from(["battles", "thefts", "news"]),
                             title=st.just(msg("Battles")),
                             headers=st.sampled_from([[msg("System")], [msg("System"), msg("Winner")]]),
                             rows=_ROWS), max_size=4)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(["ALPHA", "BETA", "GAMMA", "DELTA"]), _TABLES, max_size=4),
       st.data())
def test_the_public_rows_are_those_every_report_holds(reports: dict[str, list[Any]], data: st.DataObject) -> None:
    # a row of the first report copied into every other one now and then: public rows to find
    if len(reports) > 1 and data.draw(st.booleans()):
        first = next(iter(reports.values()))
        if first and first[0].rows:
            row = data.draw(st.sampled_from(first[0].rows))
            for tables in list(reports.values())[1:]:
                for table in tables:
                    if table.key == first[0].key and data.draw(st.booleans()):
                        table.rows.insert(data.draw(st.integers(0, len(table.rows))), list(row))
    found = public_reports(reports)
    assert [(t.key, t.rows) for t in found] == [(t.key, t.rows) for t in _every_cell_compared(reports)]
    assert all(row is original for t, o in zip(found, _every_cell_compared(reports), strict=True)
               for row, original in zip(t.rows, o.rows, strict=True))
