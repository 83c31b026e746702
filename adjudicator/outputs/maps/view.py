"""What a map shows, as plain data: places, links, units, arrows and battles, as one reader may see them.

A ruleset builds a :class:`MapView` from what its reports show that reader (never from the full state,
except for the GM); :mod:`adjudicator.outputs.maps.draw` draws it without knowing the ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

#: The reader of a map: a faction's ID, or one of these two.
GM = "#GM"
PUBLIC = "#PUBLIC"


class Layout(StrEnum):
    GRID = "grid"  # squares at integer (x, y); y grows downwards
    HEX = "hex"  # flat-topped hexes at (column, row), odd columns half a hex lower
    GRAPH = "graph"  # nodes without coordinates, laid out from their links


@dataclass(frozen=True)
class Place:
    id: str
    label: str = ""
    x: float | None = None
    y: float | None = None
    owner: str | None = None  # who controls it, as far as the reader knows
    disputed: bool = False
    known: bool = True  # False: the reader does not know who holds it
    note: str = ""  # e.g. income, resources


@dataclass(frozen=True)
class Link:
    a: str
    b: str
    kind: str = "lane"  # "lane" or "wormhole"


@dataclass(frozen=True)
class Unit:
    id: str
    owner: str
    place: str
    label: str = ""  # what is written on the map (a strength, a type)
    strength: float = 1  # what it counts for in the faction's forces (a fleet's R; one unit otherwise)


@dataclass(frozen=True)
class Arrow:
    owner: str
    path: tuple[str, ...]  # place IDs, first the origin
    label: str = ""


@dataclass(frozen=True)
class Battle:
    place: str
    sides: tuple[str, ...] = ()


@dataclass
class MapView:
    layout: Layout
    reader: str  # a faction's ID, GM or PUBLIC
    turn: int
    factions: tuple[str, ...]  # every faction of the campaign, for stable colours
    places: list[Place] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)
    arrows: list[Arrow] = field(default_factory=list)
    battles: list[Battle] = field(default_factory=list)

    def unit_ids(self) -> set[str]:
        return {u.id for u in self.units}


def unit_gid(unit: Unit) -> str:
    """The SVG id of a unit's mark: searchable in the file, one per unit."""
    return f"unit:{unit.owner}:{unit.id}"


def report_rows(reports: list[Any], key: str) -> list[list[Any]]:
    """The rows of the report table ``key`` (empty when the reader's report has none)."""
    for table in reports:
        if table.key == key:
            return [list(r) for r in table.rows]
    return []


def text(value: Any) -> str:
    """A report cell as plain text (English for messages: codes such as YES/NO)."""
    if value is None or (isinstance(value, float) and value != value):  # None, NaN
        return ""
    render = getattr(value, "render", None)
    return str(render("en") if render else value).strip()


def reports_of(result: Any, reader: str) -> list[Any]:
    if reader == GM:
        return list(result.gm_reports)
    if reader == PUBLIC:
        return public_reports(result.faction_reports)
    return list(result.faction_reports.get(reader, []))


def public_reports(reports: dict[str, list[Any]]) -> list[Any]:
    """What is public of a turn, as ``adjudicator publish`` decides it: the rows of a report table that
    **every** faction's report holds (a battle all the factions fought, an announced theft), never a row
    one faction's report lacks. The public map is drawn from these alone.

    A table of the first faction's report is compared with the table of the same key in each other one (the
    last of that key, with the same headers); only the rows whose length and first cell match a row still in
    the running are read whole, so that the many rows each faction alone holds are not (a 40-state Inner
    Sphere turn: 0.32-0.46 s of the command's own CPU, every cell of every report read as text)."""
    from dataclasses import replace

    if len(reports) < 2:
        return []
    first, *others = reports.values()
    tables_of = [{table.key: table for table in tables} for tables in others]
    shared = []
    for table in first:
        headers = tuple(text(h) for h in table.headers)
        texts = [tuple(text(c) for c in row) for row in table.rows]
        running = set(texts)
        for tables in tables_of:
            other = tables.get(table.key)
            if not running or other is None or tuple(text(h) for h in other.headers) != headers:
                running = set()
                break
            starts = {(len(row), row[0] if row else None) for row in running}
            running &= {tuple(text(c) for c in row) for row in other.rows
                        if (len(row), text(row[0]) if row else None) in starts}
        rows = [row for row, row_texts in zip(table.rows, texts, strict=True) if row_texts in running]
        if rows:
            shared.append(replace(table, rows=rows))
    return shared
