"""A table's rows as intake reads them, and their pandas DataFrame made only when something asks for it.

A sheet read from a workbook (an order sheet, a table of the campaign's state) is a few lists: its sheet
row numbers and each column's values. Checking a workbook reads them row by row (:func:`records`), and
never needs pandas: a :class:`RowTable` keeps the lists and makes its DataFrame (``frame``) the first time a
ruleset's resolution, a test or a writer asks for one, exactly the frame intake made before it was kept as
lists (object columns, whole numbers and words as Python values; the sheet row numbers as an ``int64``
index named ``row``). A one-workbook ``check`` then never imports pandas at all: that import was the
larger half of its time (benchmarks/startup.py).

:class:`FrameTables` holds a campaign's state tables the same way: ``tables[key]`` is a DataFrame, made
on first use; :func:`table_rows` gives what is kept, without making one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is imported when a frame is made, never to read rows
    import pandas as pd


class RowTable:
    """Sheet row numbers (``index``) and each column's values, in column order (``data``, every list as long
    as the index). ``booleans``: the columns whose frame column is ``bool`` (every other one is ``object``);
    ``assigned``: the columns set afterwards as plain lists (:meth:`with_column`), whose frame column pandas
    types itself, as it did when intake assigned them to a frame; ``index_name`` None: an empty table with
    no rows read (the frame pandas makes from the column names alone)."""

    def __init__(self, index: list[int], data: dict[str, list[Any]], *, booleans: Iterable[str] = (),
                 assigned: Iterable[str] = (), index_name: str | None = "row") -> None:
        self.index = index
        self.data = data
        self.booleans = frozenset(booleans)
        self.assigned = frozenset(assigned)
        self.index_name = index_name
        self._frame: pd.DataFrame | None = None
        self._positions: dict[int, int] | None = None

    @classmethod
    def empty(cls, keys: Iterable[str]) -> RowTable:
        """A table of these columns and no rows: the frame ``pd.DataFrame(columns=keys)``."""
        return cls([], {key: [] for key in keys}, index_name=None)

    # ------------------------------------------------------------------ reading
    def keys(self) -> list[str]:
        return list(self.data)

    def __len__(self) -> int:
        return len(self.index)

    def __contains__(self, key: object) -> bool:
        return key in self.data

    def column(self, key: str) -> list[Any]:
        return self.data[key]

    def value(self, row: int, key: str) -> Any:
        """The cell of sheet row ``row`` in column ``key``."""
        return self.data[key][self._position(row)]

    def records(self) -> list[tuple[int, dict[str, Any]]]:
        """(sheet row, values) of each row, values exactly as kept (None stays None)."""
        keys = list(self.data)
        if not keys:
            return [(number, {}) for number in self.index]
        return [(number, dict(zip(keys, values, strict=True)))
                for number, values in zip(self.index, zip(*self.data.values(), strict=True), strict=True)]

    # ----------------------------------------------------------------- changing
    def set(self, row: int, key: str, value: Any) -> None:
        """Set the cell of sheet row ``row`` in column ``key`` (in the frame too, if it is made already)."""
        self.data[key][self._position(row)] = value
        if self._frame is not None:
            self._frame.at[row, key] = value

    def select(self, keep: list[bool]) -> RowTable:
        """The rows where ``keep`` is true, in order."""
        return RowTable([n for n, k in zip(self.index, keep, strict=True) if k],
                        {key: [v for v, k in zip(values, keep, strict=True) if k] for key, values in self.data.items()},
                        booleans=self.booleans, assigned=self.assigned, index_name=self.index_name)

    def without(self, key: str) -> RowTable:
        """The table without column ``key`` (the same table when it has none)."""
        if key not in self.data:
            return self
        return RowTable(self.index, {k: v for k, v in self.data.items() if k != key}, booleans=self.booleans - {key},
                        assigned=self.assigned - {key}, index_name=self.index_name)

    def flagged(self, key: str) -> RowTable:
        """The table with a ``bool`` column ``key``, every row False where it had none (itself when it has one)."""
        if key in self.data:
            return self
        return RowTable(self.index, {**self.data, key: [False] * len(self.index)}, booleans=self.booleans | {key},
                        assigned=self.assigned, index_name=self.index_name)

    def with_column(self, key: str, values: list[Any]) -> RowTable:
        """The table with column ``key`` replaced by ``values`` (or added last), typed by pandas in its frame as a
        list assigned to a frame's column is."""
        return RowTable(self.index, {**self.data, key: values}, booleans=self.booleans - {key},
                        assigned=self.assigned | {key}, index_name=self.index_name)

    # -------------------------------------------------------------------- frame
    @property
    def frame(self) -> pd.DataFrame:
        """The table as a pandas DataFrame (made once; pandas imported here)."""
        if self._frame is None:
            self._frame = self._made_frame()
        return self._frame

    @property
    def made_frame(self) -> pd.DataFrame | None:
        """The frame, if something has asked for it already (None: none made)."""
        return self._frame

    def _made_frame(self) -> pd.DataFrame:
        import pandas as pd

        if self.index_name is None and not self.index:
            frame = pd.DataFrame(columns=list(self.data))
        else:
            index = pd.Index(self.index, name=self.index_name, dtype="int64")
            frame = pd.DataFrame({key: pd.Series(values, index=index, dtype=bool if key in self.booleans else object)
                                  for key, values in self.data.items()}, index=index)
        for key in self.data:
            if key in self.assigned:  # as intake assigned the list to the frame's column: pandas types it
                frame[key] = self.data[key]
        return frame

    def _position(self, row: int) -> int:
        if self._positions is None:
            self._positions = {number: i for i, number in enumerate(self.index)}
        return self._positions[row]

    def __getstate__(self) -> dict[str, Any]:
        """Pickled as its lists: a frame made already is made again where it is needed."""
        return {**self.__dict__, "_frame": None, "_positions": None}

    def __repr__(self) -> str:
        return f"RowTable({len(self.index)} rows, columns {list(self.data)})"


def as_frame(table: Any) -> pd.DataFrame:
    """The DataFrame of a table kept either way (a :class:`RowTable`, or a frame a test or a ruleset made)."""
    return table.frame if isinstance(table, RowTable) else table


class FrameTables(Mapping[str, Any]):
    """A campaign's state tables by key: ``tables[key]`` is a DataFrame, made from its :class:`RowTable` the first
    time it is asked for; :func:`table_rows` reads the rows without making it."""

    def __init__(self, kept: Mapping[str, Any]) -> None:
        self._kept = dict(kept)

    def __getitem__(self, key: str) -> pd.DataFrame:
        return as_frame(self._kept[key])

    def __contains__(self, key: object) -> bool:  # Mapping's own asks for the item: it would make the frame
        return key in self._kept

    def __iter__(self) -> Iterator[str]:
        return iter(self._kept)

    def __len__(self) -> int:
        return len(self._kept)

    def kept(self, key: str) -> Any:
        """The table as kept (a RowTable until its frame is made, then that frame: what is read from then on)."""
        table = self._kept[key]
        made = table.made_frame if isinstance(table, RowTable) else None
        return table if made is None else made

    def __repr__(self) -> str:
        return f"FrameTables({self._kept!r})"


def table_rows(tables: Mapping[str, Any], key: str) -> Any:
    """Table ``key`` of ``tables`` to read rows from (:func:`adjudicator.engine.sheets.records`, ``plain_rows``):
    of :class:`FrameTables`, what it keeps, no frame made for it; of a plain dict (a test's, a turn's result), its
    value. None when there is no such table."""
    if isinstance(tables, FrameTables):
        return tables.kept(key) if key in tables else None
    return tables.get(key)
