"""How the order workbook of Galactic War looks: dropdowns of the map's systems and planets, and of the battle
plan's scope for every system in the reader's word (ВСЕ, TODOS, ALL)."""

from __future__ import annotations

from adjudicator.engine.presentation import Presentation
from adjudicator.engine.ruleset import Campaign
from adjudicator.rulesets.galactic_war import vocabulary
from adjudicator.rulesets.galactic_war.state import world_from_tables


class GalacticWarPresentation(Presentation):
    def choice_lists(self, campaign: Campaign, faction: str, lang: str) -> dict[str, list[str]]:
        """The systems (for an origin, a stance, a battle plan's scope besides ALL, in the reader's word) and
        the planets."""
        world = world_from_tables(campaign.tables, campaign.parameters)
        systems = sorted(world.systems)
        return {"origin": systems, "system": systems, "scope": [vocabulary.all_word(lang), *systems],
                "planet": sorted(world.planets)}

    def choice_aliases(self, campaign: Campaign, faction: str, lang: str) -> dict[str, dict[str, list[str]]]:
        """ALL in every other language (TODOS, ВСЕ...), read as the reader's own word."""
        return {"scope": {vocabulary.all_word(lang): list(vocabulary.all_words_elsewhere(lang))}}
