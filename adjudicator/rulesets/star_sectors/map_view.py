"""The star_sectors map as one reader may see it: the grid of squares (public), and from the reader's
report only: its fleets, the moves it made, the battles it fought (with the enemy's R there), and the
squares it controls. The GM's report shows everything; the public map shows the grid and what every
faction's report shows (a battle all the factions fought, with what was left of each side)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from adjudicator.engine.ruleset import Campaign, TurnResult
from adjudicator.engine.sheets import records
from adjudicator.outputs.maps.view import Arrow, Battle, Layout, MapView, Place, Unit, report_rows, reports_of, text


def _int(value: object) -> int:
    try:
        return int(float(value))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 0


#: The last map read by :func:`_unknown_squares`: (its frame, kept alive so that its id stays its own; its places).
_GRID: list[Any] = []


def _unknown_squares(frame: Any) -> list[Place]:
    """Every square of the map as a reader who neither holds it nor fought there sees it: built once for all the
    readers of a turn and shared by their views (a place is frozen), as every reader's view holds the whole grid."""
    if _GRID and _GRID[0] is frame:
        return _GRID[1]
    places = []
    for _, row in records(frame):
        square = text(row.get("square")).upper()
        if not square:
            continue
        income = _int(row.get("income"))
        blocked = text(row.get("passable")).upper() == "NO"
        places.append(Place(square, f"{square} ({income})" if not blocked else f"{square} ✕", _int(row.get("x")),
                            _int(row.get("y")), owner=None, disputed=False, known=False))
    _GRID[:] = [frame, places]
    return places


def map_view(campaign: Campaign, result: TurnResult, reader: str) -> MapView:
    reports = reports_of(result, reader)
    holders = {text(r[0]): text(r[1]) for r in report_rows(reports, "control")}
    units: dict[tuple[str, str], int] = {}
    for row in report_rows(reports, "fleets"):
        if _int(row[4]) > 0:
            units[(text(row[0]), text(row[1]))] = _int(row[4])
    battles, contested = [], set()
    for row in report_rows(reports, "battles"):
        a, b, square = text(row[0]), text(row[1]), text(row[2])
        battles.append(Battle(square, (a, b)))
        for side, value, loss in ((a, row[3], row[8]), (b, row[4], row[9])):
            left = _int(value) - _int(loss)
            if left > 0:
                units.setdefault((side, square), left)
        if _int(row[3]) - _int(row[8]) > 0 and _int(row[4]) - _int(row[9]) > 0:
            contested.add(square)
    places = [place if place.id not in holders and place.id not in contested else
              replace(place, owner=holders.get(place.id) or None, disputed=place.id in contested,
                      known=place.id in holders)
              for place in _unknown_squares(campaign.tables.get("map"))]
    arrows = [Arrow(text(r[0]), (text(r[1]), text(r[2])), str(_int(r[3]))) for r in report_rows(reports, "moves")]
    return MapView(
        Layout.GRID, reader, campaign.turn, tuple(sorted(campaign.factions)), places, [],
        [Unit(f"{f}@{s}", f, s, f"{f} {v}", v) for (f, s), v in sorted(units.items())],
        arrows, sorted(dict.fromkeys(battles), key=lambda b: b.place),  # in the report's order: same bytes every run
    )
