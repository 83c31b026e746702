"""The galactic_war map as one reader may see it: the systems, their lanes and wormholes (public), and
from the reader's report only: its units, its planets (and those it lost this turn), the battles and
invasions it took part in, and its own units' moves (where they were at the start and where they are
now). The GM's report shows every race; the public map shows the systems and what every race's report
shows (a battle all the races fought)."""

from __future__ import annotations

from collections import Counter

from adjudicator.engine.ruleset import Campaign, TurnResult
from adjudicator.engine.sheets import records
from adjudicator.outputs.maps.view import (
    GM,
    Arrow,
    Battle,
    Layout,
    Link,
    MapView,
    Place,
    Unit,
    report_rows,
    reports_of,
    text,
)


def map_view(campaign: Campaign, result: TurnResult, reader: str) -> MapView:
    reports = reports_of(result, reader)
    systems: dict[str, tuple[list[str], str]] = {}
    for _, row in records(campaign.tables.get("systems")):
        system = text(row.get("system"))
        if system:
            neighbours = [n.strip() for n in text(row.get("neighbours")).replace(";", ",").split(",") if n.strip()]
            systems[system] = (neighbours, text(row.get("wormhole")).upper() or "NONE")
    links = sorted({Link(*sorted((s, n))) for s, (ns, _) in systems.items() for n in ns if n in systems},
                   key=lambda k: (k.a, k.b))
    holes = sorted((s, w) for s, (_, w) in systems.items() if w not in ("", "NONE"))
    links += [Link(a, b, "wormhole") for a, wa in holes for b, wb in holes if a != b and wa == wb]

    owners: dict[str, set[str]] = {}
    for row in report_rows(reports, "planets"):
        if text(row[3]):
            owners.setdefault(text(row[1]), set()).add(text(row[3]))
    units = [Unit(text(r[1]), text(r[0]), text(r[3]), text(r[1])) for r in report_rows(reports, "units")]
    battles = [Battle(text(r[0]), (text(r[2]), text(r[3]))) for r in report_rows(reports, "battles")]
    battles += [Battle(text(r[1]), (text(r[2]), text(r[3]))) for r in report_rows(reports, "invasions")
                if text(r[5]) != "unloaded"]
    contested = {b.place for b in battles}
    places = [Place(s, s, owner=next(iter(owners[s])) if len(owners.get(s, ())) == 1 else None,
                    disputed=len(owners.get(s, ())) > 1 or s in contested,
                    known=s in owners) for s in sorted(systems, key=_order)]

    # moves: the reader's own units where they started and where they are now (the GM: everyone's)
    start = {text(r.get("id")): (text(r.get("race")), text(r.get("system")))
             for _, r in records(campaign.tables.get("units"))
             if reader == GM or text(r.get("race")) == reader}
    moved = Counter((start[u.id][0], start[u.id][1], u.place) for u in units
                    if u.id in start and start[u.id][1] != u.place)
    arrows = [Arrow(race, (a, b), str(n)) for (race, a, b), n in sorted(moved.items())]
    return MapView(Layout.GRAPH, reader, campaign.turn, tuple(sorted(campaign.factions)), places, links, units,
                   arrows, sorted(set(battles), key=lambda b: b.place))


def _order(system: str) -> tuple[int, str]:
    return (int(system), "") if system.isdigit() else (10**9, system)
