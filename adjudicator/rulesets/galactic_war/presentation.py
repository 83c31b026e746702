"""How the order workbook of Galactic War looks: dropdowns of the map's systems and planets, and of the battle
plan's scope for every system in the reader's word (ВСЕ, TODOS, ALL)."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.presentation import Presentation
from adjudicator.engine.ruleset import Campaign
from adjudicator.i18n import LANGUAGES
from adjudicator.rulesets.galactic_war import vocabulary
from adjudicator.rulesets.galactic_war.schemas import UNITS
from adjudicator.rulesets.galactic_war.state import start_world


class GalacticWarPresentation(Presentation):
    def example_rows(self, campaign: Campaign, faction: str) -> dict[str, list[dict[str, Any]]]:
        """The scenario's examples with the race's own units: a move of its ships from a system where it has
        some to a neighbouring one, in columns, then of another ship as an order text (its remark, such as "Do
        not attack", kept); an invasion by one of its
        Ground Forces (one aboard a Transport first) of a planet it does not hold, where the Ground Force is or
        next to it."""
        rows = super().example_rows(campaign, faction)
        world = start_world(campaign.tables, campaign.parameters)  # read only
        ships = [u for _, u in sorted(world.units.items())
                 if u.race == faction and not u.planet and not u.aboard and world.stat(u.type).is_ship
                 and u.type != "FIGHTER"]
        if ships and rows.get("moves"):
            origin = ships[0].system
            near = sorted(world.neighbours(origin, wormholes=False), key=_number) or [origin]
            own = [u.id for u in ships if u.system == origin][:2]
            first, *others = rows["moves"]
            rest = [u for u in ships if u.id not in own] or ships  # the order text moves another ship
            path = sorted(world.neighbours(rest[0].system, wormholes=False), key=_number) or [rest[0].system]
            move = f"{rest[0].system} – {path[-1]}"
            rows["moves"] = [{**first, "origin": origin, "units": ", ".join(own), "path": near[0]},
                             *({**row, "text": {lang: f"G: {UNIT_TYPE.choice_label(rest[0].type, lang).lower()} – "
                                                      f"{move}{_remark(row['text'], lang)}" for lang in LANGUAGES}}
                               if row.get("text") else row for row in others)]
        ground = sorted((u for u in world.units.values() if u.race == faction and u.type == "GF"),
                        key=lambda u: (u.aboard not in world.units, u.id))  # those aboard a Transport first
        for unit in ground:
            system = world.units[unit.aboard].system if unit.aboard in world.units else unit.system
            here = [system, *sorted(world.neighbours(system, wormholes=False), key=_number)]
            planet = next((p for where in here for p in world.planets_in(where) if p.owner != faction), None)
            if planet is not None and rows.get("invasions"):
                rows["invasions"] = [{**rows["invasions"][0], "system": planet.system, "planet": planet.id,
                                      "land": unit.id}]
                break
        return rows

    def choice_lists(self, campaign: Campaign, faction: str, lang: str) -> dict[str, list[str]]:
        """The systems (for an origin, a stance, a battle plan's scope besides ALL, in the reader's word) and
        the planets."""
        world = start_world(campaign.tables, campaign.parameters)  # read only
        systems = sorted(world.systems)
        return {"origin": systems, "system": systems, "scope": [vocabulary.all_word(lang), *systems],
                "planet": sorted(world.planets)}

    def choice_aliases(self, campaign: Campaign, faction: str, lang: str) -> dict[str, dict[str, list[str]]]:
        """ALL in every other language (TODOS, ВСЕ...), read as the reader's own word."""
        return {"scope": {vocabulary.all_word(lang): list(vocabulary.all_words_elsewhere(lang))}}


#: The units table's type column: a unit type in each language (крейсер, crucero, cruiser).
UNIT_TYPE = next(c for c in UNITS.columns if c.key == "type")


def _number(system: str) -> tuple[int, str]:
    """Systems in their numbers' order (2 before 10)."""
    return (int(system), system) if system.isdigit() else (10**9, system)


def _remark(text: Any, lang: str) -> str:
    """What follows the move in an example's order text (". Не атаковать"), in ``lang``: kept as written."""
    written = str(text.get(lang) or text.get("en") or "") if isinstance(text, dict) else str(text or "")
    head, dot, tail = written.partition(". ")
    return f"{dot}{tail}" if dot else ""
