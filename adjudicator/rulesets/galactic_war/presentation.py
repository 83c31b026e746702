"""How the order workbook of Galactic War looks: dropdowns of the map's systems and planets."""

from __future__ import annotations

from adjudicator.engine.presentation import Presentation
from adjudicator.engine.ruleset import Campaign
from adjudicator.rulesets.galactic_war.state import world_from_tables


class GalacticWarPresentation(Presentation):
    def choice_lists(self, campaign: Campaign, faction: str) -> dict[str, list[str]]:
        """The systems (for an origin, a stance, a battle plan's scope besides ALL) and the planets."""
        world = world_from_tables(campaign.tables, campaign.parameters)
        systems = sorted(world.systems)
        return {"origin": systems, "system": systems, "scope": ["ALL", *systems],
                "planet": sorted(world.planets)}
