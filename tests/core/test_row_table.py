"""engine/row_table.py: a sheet's rows kept as lists give, when a frame is asked for, the very DataFrame intake made
before it kept lists (the old construction is the oracle here), and the same rows, frame or not."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine.row_table import FrameTables, RowTable, as_frame, table_rows
from adjudicator.engine.ruleset import SheetRows
from adjudicator.engine.sheets import TableSchema, plain_rows, records
from adjudicator.engine.validity import INVALID, passed, rejected_rows

CELLS = st.one_of(st.none(), st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=False),
                  st.text(max_size=6), st.booleans())
KEYS = ("fleet", "square", "amount", "note")


@st.composite
def tables(draw: Any) -> tuple[list[int], dict[str, list[Any]]]:
    """Sheet row numbers (rising, gaps allowed) and a few columns of any cells."""
    index = sorted(draw(st.sets(st.integers(2, 400), max_size=8)))
    keys = draw(st.lists(st.sampled_from(KEYS), unique=True, max_size=len(KEYS)))
    return index, {key: draw(st.lists(CELLS, min_size=len(index), max_size=len(index))) for key in keys}


def intake_frame(index: list[int], data: dict[str, list[Any]]) -> pd.DataFrame:
    """The frame read_table made before: object columns on an int64 index named row."""
    row_index = pd.Index(index, name="row", dtype="int64")
    return pd.DataFrame({key: pd.Series(values, index=row_index, dtype=object) for key, values in data.items()},
                        index=row_index)


def validated_frame(index: list[int], data: dict[str, list[Any]], invalid: list[bool]) -> pd.DataFrame:
    """The frame validate_table made before: the typed columns, then a bool ``_invalid``."""
    frame = intake_frame(index, data)
    frame[INVALID] = pd.Series(invalid, index=frame.index, dtype=bool)
    return pd.DataFrame({k: frame[k] for k in frame.columns}, index=frame.index)


def same(made: pd.DataFrame, expected: pd.DataFrame) -> None:
    # a table without any column (a sheet whose header was not found: refused before a frame is made) has no
    # column index type worth keeping (pandas gives a RangeIndex, or after a drop an empty Index of text)
    pd.testing.assert_frame_equal(made, expected, check_dtype=True, check_index_type=True,
                                  check_column_type=len(expected.columns) > 0, check_names=True)
    assert list(made.columns) == list(expected.columns)
    assert [type(v) for v in made.to_numpy(dtype=object).ravel()] == [
        type(v) for v in expected.to_numpy(dtype=object).ravel()]


@settings(max_examples=150, deadline=None)
@given(tables(), st.data())
def test_the_frame_is_the_one_intake_made(table: tuple[list[int], dict[str, list[Any]]], data: Any) -> None:
    index, columns = table
    rows = RowTable(list(index), {k: list(v) for k, v in columns.items()})
    same(rows.frame, intake_frame(index, columns))
    invalid = data.draw(st.lists(st.booleans(), min_size=len(index), max_size=len(index)))
    typed = RowTable(list(index), {**{k: list(v) for k, v in columns.items()}, INVALID: list(invalid)},
                     booleans=[INVALID])
    expected = validated_frame(index, columns, invalid)
    same(typed.frame, expected)
    # the rows read from the lists are the rows read from the frame, and so are the state's plain rows
    assert typed.records() == records(expected) == records(typed)
    assert plain_rows(typed) == plain_rows(expected)
    # what intake does next: the rows that passed, a column dropped, a cell set
    keep = [not flag for flag in invalid]
    same(typed.select(keep).frame, expected.loc[keep])
    same(typed.without(INVALID).frame, expected.drop(columns=[INVALID]))
    assert typed.without("nothing") is typed


def test_a_column_assigned_as_a_list_is_typed_by_pandas_as_before() -> None:
    """The master's faction IDs are assigned to the table as a list (upper case): pandas types that column itself
    (pandas 3: its string dtype), in its place among the others, with or without rows."""
    index, columns = [2, 3, 5], {"id": ["a", "b", "c"], "name": ["Alpha", None, 3], "language": [None, "ru", "es"]}
    kept = RowTable(index, columns).with_column("id", ["A", "B", "C"])
    before = intake_frame(index, columns)
    before["id"] = ["A", "B", "C"]
    same(kept.frame, before)
    empty = RowTable.empty(["id", "name", INVALID]).with_column("id", []).without(INVALID)
    old = pd.DataFrame(columns=["id", "name", INVALID])
    old["id"] = []
    same(empty.frame, old.drop(columns=[INVALID], errors="ignore"))
    same(RowTable.empty(["id", "name"]).frame, pd.DataFrame(columns=["id", "name", INVALID]).drop(columns=[INVALID]))


def test_a_cell_set_after_the_frame_is_made_is_set_in_it_too() -> None:
    rows = RowTable([2, 4], {"square": ["a1", "b2"], INVALID: [False, False]}, booleans=[INVALID])
    rows.set(4, "square", "B2")
    frame = rows.frame
    rows.set(2, INVALID, True)
    assert rows.value(2, INVALID) is True and bool(frame.at[2, INVALID]) is True
    assert frame.dtypes[INVALID] == "bool"
    assert records(rows) == records(frame) == [(2, {"square": "a1", INVALID: True}),
                                               (4, {"square": "B2", INVALID: False})]


def test_pickled_as_lists() -> None:
    rows = RowTable([2, 3], {"fleet": ["x", None]})
    assert rows.frame is not None
    back = pickle.loads(pickle.dumps(rows))
    assert back.made_frame is None and back.records() == rows.records()
    same(back.frame, rows.frame)


def test_frame_tables_make_a_frame_only_when_one_is_asked_for() -> None:
    fleets = RowTable([2], {"faction": ["ALPHA"], "value": [40]})
    tables = FrameTables({"fleets": fleets})
    assert "fleets" in tables and "map" not in tables and list(tables) == ["fleets"] and len(tables) == 1
    assert table_rows(tables, "fleets") is fleets and table_rows(tables, "map") is None
    assert fleets.made_frame is None  # nothing above made it
    frame = tables["fleets"]
    assert isinstance(frame, pd.DataFrame) and tables["fleets"] is frame and tables.get("fleets") is frame
    assert table_rows(tables, "fleets") is frame  # once made, the frame is what is read (a change to it is seen)
    assert table_rows({"fleets": frame}, "fleets") is frame and as_frame(frame) is frame


SCHEMA = TableSchema("orders", "Orders", ())


@pytest.mark.parametrize("as_rows", [True, False])
def test_the_rows_that_passed_are_the_same_kept_either_way(as_rows: bool) -> None:
    """validity.passed on a RowTable gives the rows and the refused rows it gives on the frame of those rows."""
    index, columns, invalid = [2, 3, 7], {"order": ["MOVE", "BUILD", None], "amount": [4, None, 2]}, [False, True, True]
    typed = RowTable(index, {**columns, INVALID: invalid}, booleans=[INVALID])
    sheet = SheetRows(SCHEMA, "Orders", typed if as_rows else validated_frame(index, columns, invalid), {}, "f.xlsx")
    assert rejected_rows(sheet) == {3, 7}
    kept = passed(sheet)
    assert records(kept.rows) == [(2, {"order": "MOVE", "amount": 4})]
    assert kept.rejected == {3: {"order": "BUILD", "amount": None}, 7: {"order": None, "amount": 2}}
    same(kept.frame, validated_frame(index, columns, invalid).loc[[True, False, False]].drop(columns=[INVALID]))
    assert dataclasses.replace(kept, rows=kept.frame).frame is kept.frame
