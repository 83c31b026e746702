"""The world of Star Sectors between turns, as plain values, and its conversion to and from tables."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adjudicator.engine.row_table import table_rows
from adjudicator.engine.sheets import state_rows
from adjudicator.rulesets.star_sectors.index import Fleets, Squares

if TYPE_CHECKING:  # pandas is imported where the tables after a turn are made: checking orders needs none
    from collections.abc import Mapping

    import pandas as pd


def square_id(value: Any) -> str:
    """Squares are named by the GM (``C4``); names are case-insensitive."""
    return str(value).strip().upper()


@dataclass(frozen=True)
class Square:
    id: str
    x: int
    y: int
    income: int
    passable: bool = True
    builders: frozenset[str] = frozenset()


@dataclass
class Project:
    id: str
    faction: str
    description: str
    status: str  # REQUESTED, FEASIBLE, INFEASIBLE, REJECTED, PAID
    price: int = 0
    paid: int = 0
    available_from: int | None = None
    origin: str = "RESEARCH"
    source: str = ""
    requested_turn: int | None = None

    @property
    def component(self) -> str:
        """The component a project gives: its own id, or the id of what it stole."""
        return self.source or self.id

    @property
    def remaining(self) -> int:
        return max(0, self.price - self.paid)


@dataclass(frozen=True)
class Usage:
    project: str
    faction: str
    turn: int
    opponent: str = ""


@dataclass
class World:
    squares: dict[str, Square]
    treasury: dict[str, int]
    fleets: dict[tuple[str, str], int]  # (faction, square) -> R
    labels: dict[tuple[str, str], str] = field(default_factory=dict)
    projects: dict[str, Project] = field(default_factory=dict)
    usages: list[Usage] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.squares, Squares):
            self.squares = Squares(self.squares)
        if not isinstance(self.fleets, Fleets):
            self.fleets = Fleets(self.fleets)

    def copy(self) -> World:
        """An independent copy: squares are immutable and shared, fleets and their index copied at C speed."""
        return World(self.squares.copy(), dict(self.treasury), self.fleets.copy(), dict(self.labels),
                     _copied_projects(self.projects), list(self.usages))

    def value(self, faction: str, square: str) -> int:
        return self.fleets.get((faction, square), 0)

    def present(self, square: str) -> dict[str, int]:
        """Factions with a fleet in ``square`` and their values."""
        return {f: v for f, v in self.fleets.at(square).items() if v > 0}

    def set_value(self, faction: str, square: str, value: int) -> None:
        if value > 0:
            self.fleets[(faction, square)] = value
        else:
            self.fleets.pop((faction, square), None)
            self.labels.pop((faction, square), None)

    def neighbours(self, square: str) -> set[str]:
        here = self.squares[square]
        return {
            self.squares[s].id
            for x, y in ((here.x - 1, here.y), (here.x + 1, here.y), (here.x, here.y - 1), (here.x, here.y + 1))
            for s in self.squares.at(x, y)
        }

    def fully_controls(self, faction: str, square: str, fc_threshold: int) -> bool:
        present = self.present(square)
        return present.get(faction, 0) >= fc_threshold and all(f == faction for f in present)

    def controller(self, square: str, threshold: int) -> str | None:
        holders = [f for f, v in self.present(square).items() if v >= threshold]
        return holders[0] if len(holders) == 1 else None

    def owns_component(self, faction: str, component: str) -> bool:
        return any(
            p.faction == faction and p.component == component and p.status not in ("INFEASIBLE", "REJECTED")
            for p in self.projects.values()
        )

    def original_price(self, component: str) -> int:
        project = self.projects.get(component)
        return project.price if project else 0


def _copied_projects(projects: dict[str, Project]) -> dict[str, Project]:
    """What ``copy.deepcopy`` gives (a Project holds only strings and numbers; one object under two keys stays
    one), without its generic walk: every faction's check copies every project of the campaign."""
    copies: dict[int, Project] = {}
    return {key: copies[id(p)] if id(p) in copies else copies.setdefault(id(p), copy.copy(p))
            for key, p in projects.items()}


_SNAPSHOT: list[Any] = []  # (the tables and their rows, kept alive so that their ids stay theirs; the world)


def snapshot_of(tables: Mapping[str, pd.DataFrame]) -> World:
    """The world of these tables, built once for all the factions checked against it: read it, never change it
    (take :meth:`World.copy`). Rebuilt when the tables or any of their tables' rows is another object."""
    key = (tables, tuple(table_rows(tables, name) for name in tables))
    if _SNAPSHOT and _SNAPSHOT[0][0] is tables and len(_SNAPSHOT[0][1]) == len(key[1]) and all(
            a is b for a, b in zip(_SNAPSHOT[0][1], key[1], strict=True)):
        return _SNAPSHOT[1]
    _SNAPSHOT[:] = [key, world_from_tables(tables)]
    return _SNAPSHOT[1]


def world_from_tables(tables: Mapping[str, pd.DataFrame]) -> World:
    """The world of the campaign's state tables (their rows read as kept: no frame made)."""
    squares = {}
    for row in state_rows(tables, "map"):
        sid = square_id(row["square"])
        builders = frozenset(
            b.strip().upper() for b in str(row.get("build") or "").replace(";", ",").split(",") if b.strip()
        )
        squares[sid] = Square(
            sid, int(row["x"]), int(row["y"]), int(row["income"]), row.get("passable") != "NO", builders
        )
    treasury = {str(r["id"]): int(r.get("treasury") or 0) for r in state_rows(tables, "factions")}
    fleets: dict[tuple[str, str], int] = {}
    labels: dict[tuple[str, str], str] = {}
    for row in state_rows(tables, "fleets"):
        key = (str(row["faction"]), square_id(row["square"]))
        fleets[key] = fleets.get(key, 0) + int(row["value"])
        if row.get("label"):
            labels[key] = str(row["label"])
    projects = {}
    for row in state_rows(tables, "projects"):
        projects[str(row["project"])] = Project(
            id=str(row["project"]),
            faction=str(row["faction"]),
            description=str(row.get("description") or ""),
            status=str(row["status"]),
            price=int(row.get("price") or 0),
            paid=int(row.get("paid") or 0),
            available_from=int(row["available_from"]) if row.get("available_from") else None,
            origin=str(row.get("origin") or "RESEARCH"),
            source=str(row.get("source") or ""),
            requested_turn=int(row["requested_turn"]) if row.get("requested_turn") else None,
        )
    usages = [
        Usage(str(r["project"]), str(r["faction"]), int(r["turn"]), str(r.get("opponent") or ""))
        for r in state_rows(tables, "usages")
    ]
    return World(squares, treasury, {k: v for k, v in fleets.items() if v > 0}, labels, projects, usages)


def world_to_tables(world: World, factions: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The state tables after a turn (the map and the faction list are the GM's and kept as they are)."""
    import pandas as pd

    factions = factions.copy()
    factions["treasury"] = [world.treasury.get(str(f), 0) for f in factions["id"]]
    fleets = pd.DataFrame(
        [
            {"faction": f, "square": s, "value": v, "label": world.labels.get((f, s))}
            for (f, s), v in sorted(world.fleets.items())
            if v > 0
        ],
        columns=["faction", "square", "value", "label"],
    )
    projects = pd.DataFrame(
        [
            {
                "project": p.id,
                "faction": p.faction,
                "description": p.description,
                "status": p.status,
                "price": p.price,
                "paid": p.paid,
                "available_from": p.available_from,
                "origin": p.origin,
                "source": p.source or None,
                "requested_turn": p.requested_turn,
            }
            for p in world.projects.values()
        ],
        columns=[
            "project", "faction", "description", "status", "price", "paid",
            "available_from", "origin", "source", "requested_turn",
        ],
    )
    usages = pd.DataFrame(
        [{"project": u.project, "faction": u.faction, "turn": u.turn, "opponent": u.opponent or None}
         for u in world.usages],
        columns=["project", "faction", "turn", "opponent"],
    )
    return {"factions": factions, "fleets": fleets, "projects": projects, "usages": usages}
