"""Every reader's map of a turn holds the whole grid: the squares a reader neither holds nor fought in are one set
of places shared by all the readers' views (160 factions on an 80×80 map made a million places otherwise), and
each view is still exactly the one built for that reader alone."""

from __future__ import annotations

import pandas as pd

from adjudicator.engine.ruleset import Campaign, Faction, ReportTable, TurnResult
from adjudicator.outputs.maps.view import GM, Place
from adjudicator.rulesets.star_sectors import map_view as module
from adjudicator.rulesets.star_sectors.map_view import map_view

FACTIONS = ("ALPHA", "BETA")


def campaign() -> Campaign:
    rows = [{"square": f"{chr(64 + x)}{y}", "x": x, "y": y, "income": x + y, "passable": "NO" if (x, y) == (3, 3)
             else "YES"} for y in range(1, 5) for x in range(1, 5)]
    frame = pd.DataFrame(rows, index=pd.Index(range(2, 2 + len(rows)), name="row"))
    return Campaign("c", "C", "star_sectors", 1, 3, "en", "s", {f: Faction(f, f, "en") for f in FACTIONS}, {},
                    {"map": frame})


def result() -> TurnResult:
    def control(*rows: tuple[str, str]) -> ReportTable:
        return ReportTable("control", "", [], [list(r) for r in rows])

    battles = ReportTable("battles", "", [], [["ALPHA", "BETA", "B2", 5, 4, "", "", "", 1, 1]])
    return TurnResult(faction_reports={"ALPHA": [control(("A1", "ALPHA")), battles], "BETA": [control(("D4", "BETA"))]},
                      gm_reports=[control(("A1", "ALPHA"), ("D4", "BETA")), battles])


def alone(reader: str) -> list[Place]:
    """The reader's places as built with nothing shared (the map read afresh)."""
    module._GRID.clear()  # noqa: SLF001
    return map_view(campaign_, result_, reader).places


campaign_, result_ = campaign(), result()


def test_the_squares_nobody_told_a_reader_about_are_shared_by_every_view() -> None:
    views = {reader: map_view(campaign_, result_, reader) for reader in (*FACTIONS, GM)}
    places = {reader: {p.id: p for p in view.places} for reader, view in views.items()}
    assert places["ALPHA"]["C1"] is places["BETA"]["C1"] is places[GM]["C1"]
    assert places["ALPHA"]["C1"] == Place("C1", "C1 (4)", 3, 1, owner=None, disputed=False, known=False)
    assert places["BETA"]["C3"].label == "C3 ✕"
    # what a reader holds, or fought in, is its own
    assert places["ALPHA"]["A1"] == Place("A1", "A1 (2)", 1, 1, owner="ALPHA", known=True)
    assert places["BETA"]["A1"].owner is None and not places["BETA"]["A1"].known
    assert places["ALPHA"]["B2"].disputed and not places["ALPHA"]["B2"].known
    assert not places["BETA"]["B2"].disputed
    assert places[GM]["D4"] == places["BETA"]["D4"] == Place("D4", "D4 (8)", 4, 4, owner="BETA", known=True)


def test_each_view_is_the_one_built_for_its_reader_alone() -> None:
    readers = (*FACTIONS, GM)
    shared = {reader: map_view(campaign_, result_, reader).places for reader in readers}
    for reader in readers:
        assert shared[reader] == alone(reader)


def test_another_map_is_read_afresh() -> None:
    first = map_view(campaign_, result_, "ALPHA").places
    other = campaign()
    other.tables["map"].loc[2, "income"] = 40
    again = map_view(other, result_, "ALPHA").places
    assert again[0].label == "A1 (40)" and first[0].label == "A1 (2)"
