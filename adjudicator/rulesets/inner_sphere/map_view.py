"""The inner_sphere XXYY hex map as one reader may see it: every system's hex and name (public), and from
the reader's report only: its systems (disputed ones marked), its regiments and jumpships, its jumpships'
routes step by step, and the raids and invasions it made. The GM's map shows every state from the state
after the turn and every combat; the public map shows the systems alone."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Any

from adjudicator.engine.ruleset import Campaign, TurnResult
from adjudicator.engine.sheets import records
from adjudicator.outputs.maps.view import (
    GM,
    PUBLIC,
    Arrow,
    Battle,
    Layout,
    MapView,
    Place,
    Unit,
    report_rows,
    reports_of,
    text,
)
from adjudicator.rulesets.inner_sphere import hexmap

ATTACKS = ("Raid", "Invade")
UNKNOWN_OWNER = "?"  # forces espionage found, whose owner the report does not say

#: The last systems table read by :func:`_unknown_systems`: (its frame, kept alive so that its id stays its own;
#: its places).
_SYSTEMS: list[Any] = []


def _unknown_systems(frame: Any) -> list[Place]:
    """Every system as a reader who holds none of it sees it: built once for all the readers of a turn and shared by
    their views (a place is frozen), as every reader's view holds the whole map."""
    if _SYSTEMS and _SYSTEMS[0] is frame:
        return _SYSTEMS[1]
    places = []
    for _, r in records(frame):
        hex_ = text(r.get("hex"))
        try:
            col, row = hexmap.parse(hex_)
        except ValueError:
            continue
        places.append(Place(hex_, f"{hex_} {text(r.get('name'))}", col, row, owner=None, disputed=False,
                            known=False))
    _SYSTEMS[:] = [frame, places]
    return places


def map_view(campaign: Campaign, result: TurnResult, reader: str) -> MapView:
    reports = reports_of(result, reader)
    holders: dict[str, tuple[str, bool]] = {}
    units: list[Unit] = []
    routes: dict[tuple[str, str], list[tuple[int, str, str]]] = defaultdict(list)
    battles: list[Battle] = []
    if reader == GM:
        after = result.tables or campaign.tables
        for _, r in records(after.get("systems", campaign.tables.get("systems"))):
            if text(r.get("owner")):
                holders[text(r.get("hex"))] = (text(r.get("owner")), text(r.get("disputed")).upper() == "YES")
        ships = {text(r.get("id")): text(r.get("hex"))
                 for _, r in records(after.get("jumpships", campaign.tables.get("jumpships")))}
        for _, r in records(after.get("jumpships", campaign.tables.get("jumpships"))):
            units.append(Unit(text(r.get("id")), text(r.get("owner")), text(r.get("hex")), text(r.get("id"))))
        for _, r in records(after.get("regiments", campaign.tables.get("regiments"))):
            where = text(r.get("system")) or ships.get(text(r.get("jumpship")), "")
            units.append(Unit(text(r.get("id")), text(r.get("owner")), where, text(r.get("id"))))
        for row in report_rows(reports, "gm_routes"):
            routes[(text(row[0]), text(row[1]))].append((int(row[2] or 0), text(row[4]), text(row[3])))
        for row in report_rows(reports, "gm_combats"):
            parts = text(row[0]).split(":")
            if len(parts) > 1:
                battles.append(Battle(parts[1], (text(row[1]),)))
    elif reader != PUBLIC:
        ships = {}
        for row in report_rows(reports, "assets"):  # hex, name, income, defence, factories, disputed
            holders[text(row[0])] = (reader, text(row[5]).upper() == "YES")
        for row in report_rows(reports, "jumpships"):  # id, hex, class
            ships[text(row[0])] = text(row[1])
            units.append(Unit(text(row[0]), reader, text(row[1]), text(row[0])))
        for row in report_rows(reports, "forces"):
            where = text(row[4]) or ships.get(text(row[5]), "")
            units.append(Unit(text(row[0]), reader, where, text(row[0])))
        for row in report_rows(reports, "routes"):
            routes[(reader, text(row[0]))].append((int(row[1] or 0), text(row[3]), text(row[2])))
        units += intel_units(report_rows(reports, "intel"))
    for (owner, _ship), steps in routes.items():
        for _, hex_, action in steps:
            if action in ATTACKS and hex_:
                battles.append(Battle(hex_, (owner,)))
    arrows = []
    for (owner, ship), steps in sorted(routes.items()):
        path: list[str] = []
        for _, hex_, _action in sorted(steps):
            if hex_ and (not path or path[-1] != hex_):
                path.append(hex_)
        if len(path) > 1:
            arrows.append(Arrow(owner, tuple(path), ship))
    places = [place if place.id not in holders else
              replace(place, owner=holders[place.id][0] or None, disputed=holders[place.id][1],
                      known=reader != PUBLIC)
              for place in _unknown_systems(campaign.tables.get("systems"))]
    return MapView(Layout.HEX, reader, campaign.turn, tuple(sorted(campaign.factions)), places, [],
                   [u for u in units if u.place], arrows, sorted(set(battles), key=lambda b: b.place))


def intel_units(rows: list[list[object]]) -> list[Unit]:
    """What the reader's espionage found of others' forces in a system ("Kandis (0102)": "Regiments", 2)."""
    found = []
    for n, row in enumerate(rows):
        subject, item, detail = (text(c) for c in (row + ["", "", ""])[:3])
        hex_ = subject.rsplit("(", 1)[-1].rstrip(")") if subject.endswith(")") else ""
        if item in ("Regiments", "Jumpship") and detail and hex_.isdigit():
            found.append(Unit(f"intel@{hex_}#{n}", UNKNOWN_OWNER, hex_, f"? {detail}"))
    return found
