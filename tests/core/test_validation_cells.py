"""adjudicator.intake.validation finds exactly the failing cells pandera's lazy validation found (the project used it
before checking cells itself): same problems, codes, cells, messages and typed values, on random tables."""

from __future__ import annotations

import random

import pandas as pd
import pandera.pandas as pa
from pandera.errors import SchemaErrors

from adjudicator.engine.problems import ProblemList
from adjudicator.engine.row_table import RowTable
from adjudicator.engine.sheets import Choice, Column, Kind, TableSchema
from adjudicator.intake import validation
from adjudicator.intake.reading import Table

COLUMNS = (Column("a", "Amount", Kind.INT, required=True, minimum=0, maximum=50),
           Column("b", "Order", Kind.CHOICE, required=True, choices=(Choice("MOVE", "MOVE"), Choice("BUILD", "BUILD"))),
           Column("c", "Note"), Column("d", "Value", Kind.NUMBER, minimum=1.5),
           Column("e", "All", Kind.INT_OR_ALL, maximum=9), Column("f", "Text", required=True),
           Column("g", "Calc", Kind.INT, formula="=1"))
SCHEMA = TableSchema("t", "Orders", COLUMNS)
VALUES = [None, 1, 0, -3, 60, 2.5, 7.0, "x", "12", "1 000", "ALL", "todos", "move", "BUILD", "", float("nan"),
          True, "3,5", float("inf")]


def pandera_failures(table: Table) -> set[tuple[int, str, str]]:
    """``(row, column, check)`` of each failure, by the pandera schema the project used to validate with."""
    columns = {}
    for key in table.frame.columns:
        column = table.schema.column(key)
        if column.computed:
            continue
        convert = validation._converter(column)
        checks = []
        if column.kind is not Kind.TEXT:
            checks.append(pa.Check(lambda v, c=convert: c(v) is not None, element_wise=True, name="C01"))
        if column.minimum is not None or column.maximum is not None:
            checks.append(pa.Check(lambda v, c=convert, col=column: validation._in_range(col, c(v)),
                                   element_wise=True, name="C04"))
        columns[key] = pa.Column(object, checks=checks, nullable=not column.required, required=False)
    try:
        pa.DataFrameSchema(columns, strict=False).validate(table.frame, lazy=True)
    except SchemaErrors as errors:
        return {(int(case.index), str(case.column), case.check) for case in errors.failure_cases.itertuples()
                if case.index is not None and not pd.isna(case.index)}
    return set()


def test_the_same_cells_fail_as_with_pandera() -> None:
    rng = random.Random(16)
    for _ in range(12):  # pandera takes up to a second a table on a busy machine
        keys = rng.sample([c.key for c in COLUMNS], rng.randint(1, len(COLUMNS)))
        n = rng.randint(0, 8)
        index = sorted(rng.sample(range(2, 40), n))
        cells = RowTable(index, {k: [rng.choice(VALUES) for _ in range(n)] for k in keys})
        table = Table(SCHEMA, "Orders", cells, {k: chr(65 + i) for i, k in enumerate(keys)})
        found = list(validation._failures(table))
        assert len(found) == len(set(found))
        assert set(found) == pandera_failures(table)
        problems = ProblemList()
        typed = validation.validate_table(table, problems, "f.xlsx").frame
        assert len(problems) == len(found)
        assert {(p.row, p.cell[0]) for p in problems} == {(r, table.letters[k]) for r, k, _ in found}
        assert typed["_invalid"].sum() == len({r for r, _, _ in found})
        assert all(typed.at[row, key] is None for row, key, _ in found)  # a failed cell is read as empty
