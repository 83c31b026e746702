"""adjudicator.intake.validation: every bad cell of a table read from a real workbook, reported at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest

from adjudicator.engine.problems import Problem, ProblemList, Severity
from adjudicator.engine.row_table import RowTable
from adjudicator.engine.sheets import Column, Kind, TableSchema, choices
from adjudicator.i18n import msg
from adjudicator.intake.reading import Table, read_table, read_workbook
from adjudicator.intake.validation import as_number, as_whole, is_all, validate_table

ORDERS = TableSchema(
    "orders",
    "Orders",
    (
        Column("fleet", "Fleet", required=True),
        Column(
            "action",
            "Action",
            Kind.CHOICE,
            choices=choices(("MOVE", "Move fleet", ["переместить", "mover"]), ("HOLD", "Hold position")),
        ),
        Column("amount", "Amount", Kind.INT, minimum=1, maximum=500),
        Column("share", "Share", Kind.NUMBER, minimum=0, maximum=100),
        Column("send", "Send", Kind.INT_OR_ALL, minimum=0),
        Column("note", "Note"),
    ),
)
HEADERS = ["Fleet", "Action", "Note", "Amount", "Share", "Send"]
# Column letters: A Fleet, B Action, C Note, D Amount, E Share, F Send. Data starts in row 2.


def table_from_rows(tmp_path: Path, rows: list[list[Any]], title_rows: int = 0) -> Table:
    """Write ``rows`` under the headers into a real .xlsx, read it back and return the table."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Orders"
    for r in range(1, title_rows + 1):
        ws.cell(row=r, column=1, value=f"Title line {r}")
    for c, header in enumerate(HEADERS, start=1):
        ws.cell(row=title_rows + 1, column=c, value=header)
    for r, row in enumerate(rows, start=title_rows + 2):
        for c, value in enumerate(row, start=1):
            if value is not None:
                ws.cell(row=r, column=c, value=value)
    path = tmp_path / "orders.xlsx"
    wb.save(path)
    problems = ProblemList()
    book = read_workbook(path, problems)
    assert book is not None and list(problems) == []
    table = read_table(book, ORDERS, problems)
    assert table is not None and list(problems) == []
    return table


def validate(table: Table) -> tuple[pd.DataFrame, ProblemList]:
    problems = ProblemList()
    return validate_table(table, problems, "orders.xlsx").frame, problems


def where(problems: ProblemList) -> list[tuple[str, str | None]]:
    return sorted((p.code, p.cell) for p in problems)


def row(
    fleet: Any = "alpha",
    action: Any = "MOVE",
    amount: Any = 10,
    share: Any = 50,
    send: Any = 5,
    note: Any = None,
) -> list[Any]:
    return [fleet, action, note, amount, share, send]


# --- valid tables ---------------------------------------------------------------------------------


def test_valid_rows_are_converted(tmp_path: Path) -> None:
    table = table_from_rows(tmp_path, [row(), row("beta", "HOLD", 500, 12.5, "ALL", "fine")])
    typed, problems = validate(table)
    assert list(problems) == []
    assert list(typed.index) == [2, 3]
    assert typed.at[2, "amount"] == 10 and type(typed.at[2, "amount"]) is int
    assert typed.at[3, "amount"] == 500
    assert typed.at[2, "share"] == 50.0
    assert typed.at[3, "share"] == 12.5
    assert typed.at[2, "send"] == 5 and type(typed.at[2, "send"]) is int
    assert typed.at[3, "send"] == "ALL"
    assert typed.at[2, "action"] == "MOVE"
    assert typed.at[3, "action"] == "HOLD"
    assert typed.at[2, "note"] is None
    assert typed.at[3, "note"] == "fine"
    assert list(typed["_invalid"]) == [False, False]
    assert typed["_invalid"].dtype == bool


def test_blank_optional_cells_stay_none(tmp_path: Path) -> None:
    table = table_from_rows(tmp_path, [row(action=None, amount=None, share=None, send=None)])
    typed, problems = validate(table)
    assert list(problems) == []
    assert typed.loc[2, ["action", "amount", "share", "send", "note"]].tolist() == [None] * 5
    assert not typed.at[2, "_invalid"]


def test_whole_number_written_as_text_or_float_is_accepted(tmp_path: Path) -> None:
    table = table_from_rows(tmp_path, [row(amount="40"), row(amount=40.0), row(amount=" 7 ")])
    typed, problems = validate(table)
    assert list(problems) == []
    assert list(typed["amount"]) == [40, 40, 7]


def test_text_cell_of_a_number_is_text(tmp_path: Path) -> None:
    table = table_from_rows(tmp_path, [row(fleet=17), row(fleet=2.5)])
    typed, problems = validate(table)
    assert list(problems) == []
    assert list(typed["fleet"]) == ["17", "2.5"]


# --- one bad cell -------------------------------------------------------------------------------


def only(problems: ProblemList) -> Problem:
    assert len(problems) == 1, problems.codes()
    return next(iter(problems))


def test_text_in_an_int_column_is_c01_at_its_cell(tmp_path: Path) -> None:
    rows = [row(), row(), row(), row(amount="forty")]  # the fourth data row: sheet row 5
    typed, problems = validate(table_from_rows(tmp_path, rows))
    problem = only(problems)
    assert (problem.code, problem.severity, problem.cell) == ("C01", Severity.ERROR, "D5")
    assert (problem.file, problem.sheet, problem.row) == ("orders.xlsx", "Orders", 5)
    assert typed.at[5, "amount"] is None
    assert list(typed["_invalid"]) == [False, False, False, True]


def test_cell_is_right_below_a_title_row(tmp_path: Path) -> None:
    rows = [row(), row(), row(share="lots")]
    typed, problems = validate(table_from_rows(tmp_path, rows, title_rows=2))
    # Header in row 3, data in rows 4..6: the bad Share cell is E6.
    assert where(problems) == [("C01", "E6")]
    assert typed.loc[6, "_invalid"]


def test_decimal_in_an_int_column_is_c01(tmp_path: Path) -> None:
    typed, problems = validate(table_from_rows(tmp_path, [row(amount=2.5)]))
    assert where(problems) == [("C01", "D2")]
    assert typed.at[2, "amount"] is None
    assert typed.at[2, "_invalid"]


def test_decimal_text_in_an_int_column_is_c01(tmp_path: Path) -> None:
    _, problems = validate(table_from_rows(tmp_path, [row(amount="2,5")]))
    assert where(problems) == [("C01", "D2")]


def test_boolean_in_an_int_column_is_c01(tmp_path: Path) -> None:
    _, problems = validate(table_from_rows(tmp_path, [row(amount=True)]))
    assert where(problems) == [("C01", "D2")]


def test_missing_required_value_is_c03(tmp_path: Path) -> None:
    rows = [row(), row(fleet=None)]
    typed, problems = validate(table_from_rows(tmp_path, rows))
    problem = only(problems)
    assert (problem.code, problem.severity, problem.cell, problem.row) == ("C03", Severity.ERROR, "A3", 3)
    assert list(typed["_invalid"]) == [False, True]


def test_blank_text_in_a_required_column_is_c03(tmp_path: Path) -> None:
    _, problems = validate(table_from_rows(tmp_path, [row(fleet="   ")]))
    assert where(problems) == [("C03", "A2")]


@pytest.mark.parametrize(
    ("column", "value", "cell"),
    [
        ("amount", 0, "D2"),
        ("amount", 501, "D2"),
        ("amount", -3, "D2"),
        ("share", 100.5, "E2"),
        ("share", -0.1, "E2"),
        ("send", -1, "F2"),
    ],
)
def test_out_of_range_is_c04(tmp_path: Path, column: str, value: Any, cell: str) -> None:
    typed, problems = validate(table_from_rows(tmp_path, [row(**{column: value})]))
    problem = only(problems)
    assert (problem.code, problem.severity, problem.cell) == ("C04", Severity.ERROR, cell)
    assert typed.at[2, "_invalid"]


@pytest.mark.parametrize(
    ("column", "value"), [("amount", 1), ("amount", 500), ("share", 0), ("share", 100), ("send", 0)]
)
def test_range_limits_are_inclusive(tmp_path: Path, column: str, value: Any) -> None:
    _, problems = validate(table_from_rows(tmp_path, [row(**{column: value})]))
    assert list(problems) == []


def test_out_of_range_text_number_is_c04_not_c01(tmp_path: Path) -> None:
    _, problems = validate(table_from_rows(tmp_path, [row(amount="900")]))
    assert where(problems) == [("C04", "D2")]


# --- choices --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "code"),
    [
        ("MOVE", "MOVE"),
        ("move", "MOVE"),
        (" Move ", "MOVE"),
        ("Move fleet", "MOVE"),  # the English label
        ("MOVE FLEET", "MOVE"),
        ("move_fleet", "MOVE"),
        ("переместить", "MOVE"),  # a synonym
        ("ПЕРЕМЕСТИТЬ", "MOVE"),
        ("Mover", "MOVE"),
        ("hold", "HOLD"),
        ("Hold Position", "HOLD"),
    ],
)
def test_choice_accepts_code_label_and_synonyms(tmp_path: Path, written: str, code: str) -> None:
    typed, problems = validate(table_from_rows(tmp_path, [row(action=written)]))
    assert list(problems) == []
    assert typed.at[2, "action"] == code


@pytest.mark.parametrize("written", ["ATTACK", "mov", "Move fleets", 3])
def test_choice_rejects_other_values_with_c02(tmp_path: Path, written: Any) -> None:
    typed, problems = validate(table_from_rows(tmp_path, [row(), row(action=written)]))
    problem = only(problems)
    assert (problem.code, problem.severity, problem.cell) == ("C02", Severity.ERROR, "B3")
    assert typed.at[3, "action"] is None
    assert list(typed["_invalid"]) == [False, True]


# --- INT_OR_ALL -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("ALL", "ALL"),
        ("all", "ALL"),
        (" All ", "ALL"),
        ("ВСЕ", "ALL"),
        ("всё", "ALL"),
        ("todos", "ALL"),
        (12, 12),
        (12.0, 12),
        ("12", 12),
        (0, 0),
    ],
)
def test_int_or_all_accepts_all_and_whole_numbers(tmp_path: Path, written: Any, value: Any) -> None:
    typed, problems = validate(table_from_rows(tmp_path, [row(send=written)]))
    assert list(problems) == []
    assert typed.at[2, "send"] == value
    assert type(typed.at[2, "send"]) is type(value)


@pytest.mark.parametrize("written", ["everything", "ALL 5", 2.5, "1.5"])
def test_int_or_all_rejects_others_with_c01(tmp_path: Path, written: Any) -> None:
    _, problems = validate(table_from_rows(tmp_path, [row(send=written)]))
    assert where(problems) == [("C01", "F2")]


# --- NUMBER ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "value"), [("12,5", 12.5), ("12.5", 12.5), (12.5, 12.5), ("7", 7.0), (" 3,25 ", 3.25)]
)
def test_number_accepts_comma_decimals(tmp_path: Path, written: Any, value: float) -> None:
    typed, problems = validate(table_from_rows(tmp_path, [row(share=written)]))
    assert list(problems) == []
    assert typed.at[2, "share"] == value
    assert isinstance(typed.at[2, "share"], float)


@pytest.mark.parametrize("written", ["nan", "inf"])
def test_number_rejects_nan_and_infinity(tmp_path: Path, written: str) -> None:
    at_least_zero = TableSchema(
        "orders", "Orders", (Column("fleet", "Fleet"), Column("share", "Share", Kind.NUMBER, minimum=0))
    )
    read = table_from_rows(tmp_path, [row(share=written)])
    cells = RowTable(read.rows.index, {k: read.rows.column(k) for k in ("fleet", "share")})
    table = Table(at_least_zero, read.sheet, cells, read.letters)
    _, problems = validate(table)
    assert where(problems) == [("C01", "E2")]


def test_out_of_range_cell_becomes_none(tmp_path: Path) -> None:
    typed, problems = validate(table_from_rows(tmp_path, [row(amount=9999)]))
    assert where(problems) == [("C04", "D2")]
    assert typed.at[2, "amount"] is None


# --- every problem at once ------------------------------------------------------------------------


def test_all_problems_of_the_sheet_are_reported_at_once(tmp_path: Path) -> None:
    rows = [
        row(),  # 2: fine
        row(amount="ten", share="half"),  # 3: two bad cells in one row
        row(),  # 4: fine
        row(fleet=None, action="FLY"),  # 5: missing fleet, unknown action
        row(amount=9999),  # 6: out of range
        row(send="some"),  # 7: not a number nor ALL
        row(amount=2.5),  # 8: decimal in an INT column
        row(note="anything at all"),  # 9: fine
    ]
    typed, problems = validate(table_from_rows(tmp_path, rows))
    assert where(problems) == sorted(
        [
            ("C01", "D3"),
            ("C01", "E3"),
            ("C03", "A5"),
            ("C02", "B5"),
            ("C04", "D6"),
            ("C01", "F7"),
            ("C01", "D8"),
        ]
    )
    assert all(p.is_error and p.file == "orders.xlsx" and p.sheet == "Orders" for p in problems)
    assert {p.cell: p.row for p in problems} == {
        "D3": 3,
        "E3": 3,
        "A5": 5,
        "B5": 5,
        "D6": 6,
        "F7": 7,
        "D8": 8,
    }
    invalid = typed["_invalid"]
    assert invalid[invalid].index.tolist() == [3, 5, 6, 7, 8]
    assert invalid[~invalid].index.tolist() == [2, 4, 9]
    # Good values of a row with a bad cell are still converted; bad ones become None.
    assert typed.at[3, "fleet"] == "alpha" and typed.at[3, "amount"] is None and typed.at[3, "share"] is None
    assert typed.at[3, "send"] == 5


def test_many_bad_cells_in_one_column(tmp_path: Path) -> None:
    rows = [row(amount=v) for v in ("a", 5, "b", 0, 3.5, 7)]
    typed, problems = validate(table_from_rows(tmp_path, rows))
    assert where(problems) == [("C01", "D2"), ("C01", "D4"), ("C01", "D6"), ("C04", "D5")]
    assert typed["_invalid"].tolist() == [True, False, True, True, True, False]


def test_problems_already_in_the_list_are_kept(tmp_path: Path) -> None:
    problems = ProblemList()
    problems.warning("F06", msg("earlier"))
    validate_table(table_from_rows(tmp_path, [row(amount="x")]), problems, "orders.xlsx")
    assert problems.codes() == ["F06", "C01"]


# --- the converters -------------------------------------------------------------------------------


def test_converters() -> None:
    assert as_number("12,5") == 12.5
    assert as_number("1\u00a0234,5") == 1234.5
    assert as_number(True) is None
    assert as_number(None) is None
    assert as_number("abc") is None
    assert as_whole(4.0) == 4 and type(as_whole(4.0)) is int
    assert as_whole("4,0") == 4
    assert as_whole(4.5) is None
    assert is_all("Всё") and is_all("ALL") and is_all("Todos")
    assert not is_all(0) and not is_all("al")
