"""Every reader's hex map holds every system: the systems a reader holds none of are one set of places shared by all
the readers' views (the generated campaigns' maps grow with the factions), and each view is still exactly the one
built for that reader alone."""

from __future__ import annotations

import pandas as pd

from adjudicator.engine.ruleset import Campaign, Faction, ReportTable, TurnResult
from adjudicator.outputs.maps.view import GM, PUBLIC, Place
from adjudicator.rulesets.inner_sphere import map_view as module
from adjudicator.rulesets.inner_sphere.map_view import map_view

FACTIONS = ("DAVION", "LIAO")
HEXES = ("0101", "0102", "0201", "0202")


def campaign() -> Campaign:
    rows = [{"hex": h, "name": f"S{h}", "owner": owner, "disputed": "NO"}
            for h, owner in zip(HEXES, ("DAVION", "LIAO", "", ""), strict=True)]
    frame = pd.DataFrame(rows, index=pd.Index(range(2, 2 + len(rows)), name="row"))
    return Campaign("c", "C", "inner_sphere", 1, 3, "en", "s", {f: Faction(f, f, "en") for f in FACTIONS}, {},
                    {"systems": frame, "jumpships": pd.DataFrame(columns=["id", "owner", "hex"]),
                     "regiments": pd.DataFrame(columns=["id", "owner", "system", "jumpship"])})


def assets(*hexes: tuple[str, str]) -> ReportTable:
    return ReportTable("assets", "", [], [[h, "", 0, 0, 0, disputed] for h, disputed in hexes])


campaign_ = campaign()
result_ = TurnResult(faction_reports={"DAVION": [assets(("0101", "YES"))], "LIAO": [assets(("0102", "NO"))]})
READERS = (*FACTIONS, GM, PUBLIC)


def test_the_systems_a_reader_holds_none_of_are_shared_by_every_view() -> None:
    places = {r: {p.id: p for p in map_view(campaign_, result_, r).places} for r in READERS}
    assert places["DAVION"]["0201"] is places["LIAO"]["0201"] is places[PUBLIC]["0201"] is places[GM]["0201"]
    assert places["DAVION"]["0201"] == Place("0201", "0201 S0201", 2, 1, owner=None, disputed=False, known=False)
    assert places["DAVION"]["0101"] == Place("0101", "0101 S0101", 1, 1, owner="DAVION", disputed=True, known=True)
    assert places["LIAO"]["0101"].owner is None and not places["LIAO"]["0101"].known
    assert places[GM]["0102"] == Place("0102", "0102 S0102", 1, 2, owner="LIAO", disputed=False, known=True)


def test_each_view_is_the_one_built_for_its_reader_alone() -> None:
    shared = {reader: map_view(campaign_, result_, reader).places for reader in READERS}
    for reader in READERS:
        module._SYSTEMS.clear()  # noqa: SLF001 - the systems read afresh, nothing shared
        assert shared[reader] == map_view(campaign_, result_, reader).places
