"""How the order workbook of Inner Sphere looks: dropdowns of the state's own systems, ships and damaged
assets, and the cost preview (formulas) of ``template.py``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from adjudicator.engine.plain_copy import BuiltOnce
from adjudicator.engine.presentation import Presentation
from adjudicator.engine.ruleset import Campaign
from adjudicator.rulesets.inner_sphere.hexmap import neighbours
from adjudicator.rulesets.inner_sphere.state import start_world

if TYPE_CHECKING:
    import pandas as pd


class OwnLists(NamedTuple):
    """What a state holds at the start of the turn, as its dropdowns list it (each sorted): its systems, its
    jumpships, its damaged regiments and the systems of its damaged factories."""

    systems: list[str]
    ships: list[str]
    damaged: list[str]
    broken: list[str]


_NONE_OWNED = OwnLists([], [], [], [])


def own_lists(tables: dict[str, pd.DataFrame]) -> dict[str, OwnLists]:
    """Every state's :class:`OwnLists`, from one pass over the start world (a check asks for every state's;
    each asking scanned the whole Inner Sphere again)."""
    world = start_world(tables)  # read only
    own: dict[str, OwnLists] = {}

    def of(owner: str) -> OwnLists:
        found = own.get(owner)
        if found is None:
            found = own[owner] = OwnLists([], [], [], [])
        return found

    for hex_, system in world.systems.items():
        of(system.owner).systems.append(hex_)
    for ship in world.jumpships.values():
        of(ship.owner).ships.append(ship.id)
    for regiment in world.regiments.values():
        if regiment.damaged:
            of(regiment.owner).damaged.append(regiment.id)
    for system in {f.system for f in world.factories.values() if f.damaged}:
        of(world.owner(system)).broken.append(system)
    for lists in own.values():
        for names in lists:
            names.sort()
    return own


_OWN_LISTS = BuiltOnce(own_lists)


class InnerSpherePresentation(Presentation):
    def example_rows(self, campaign: Campaign, faction: str) -> dict[str, list[dict[str, Any]]]:
        """The scenario's examples, made the faction's own where they name a place: the jumpship chain starts
        at the ship's hex and moves to the next one, operation 342 aims at another state's system, the
        research dice roll a line the faction's labs work on (a lab assigned where none works yet)."""
        rows = super().example_rows(campaign, faction)
        world = start_world(campaign.tables)  # read only
        ship = next((s for _, s in sorted(world.jumpships.items()) if s.owner == faction), None)
        if ship is not None and rows.get("movement"):
            layout = str(campaign.parameters.get("hex_layout", "odd-q"))
            near = sorted(h for h in neighbours(ship.hex, layout) if h in world.systems) or [ship.hex]
            start, move, *_ = [*rows["movement"], {}]
            rows["movement"] = [{**start, "ship": ship.id, "hexes": ship.hex},
                                *([{**move, "ship": ship.id, "hexes": near[0]}] if move else [])]
        foreign = sorted(h for h, s in world.systems.items() if s.owner and s.owner != faction)
        if foreign:
            rows["agency"] = [{**row, "target": foreign[0]} if str(row.get("op")) == "342" else row
                              for row in rows.get("agency", [])]
        lines = sorted(line for (owner, _), (line, _) in world.labs.items() if owner == faction and line)
        if lines:
            line = max(sorted(set(lines)), key=lines.count)
            rows["research"] = [{**row, "line": line, "dice": lines.count(line)} if row.get("kind") == "ROLL" else row
                                for row in rows.get("research", [])]
        else:
            rows["research"] = [{"kind": "LAB", "lab": 1, "line": next(
                (row["line"] for row in rows.get("research", []) if row.get("line")), "COMM")}]
        return rows

    def choice_lists(self, campaign: Campaign, faction: str, lang: str) -> dict[str, list[str]]:
        own = _OWN_LISTS(campaign.tables).get(faction, _NONE_OWNED)
        # a repair's target is a damaged asset; the agency's (a system, a regiment, a state) has no list
        return {"repairs.target": own.damaged + own.broken, "system": list(own.systems), "ship": list(own.ships)}

    def decorate_template(self, wb: Any, campaign: Campaign, faction: str) -> None:
        """Add the cost preview (formulas) to an order workbook built by the core."""
        from adjudicator.rulesets.inner_sphere.template import decorate

        decorate(wb, campaign, faction)
