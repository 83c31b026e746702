"""Inner Sphere's words for its rule tables (``tables.toml``) in the *Rule tables* sheet of campaign.xlsx: every
table, the rows that are no choice of a dropdown, every column, and the values of the columns that take a few
words, as the source document names them (Coste Compra, Mantenimiento, Fuerza de Combate, Vuelo seguro...).

A row that is a choice (VL, LIGHT, AERO, 341) is shown as its dropdown's label; a switch as the catalog's YES or
NO. A key ``table.column`` names one table's column, where the same key means something else elsewhere (the
research table's ``research`` column: the bonus to the research dice of the other lines).
"""

from __future__ import annotations

from adjudicator.i18n import N_
from adjudicator.rulesets.inner_sphere.schemas import FACTORY_TYPES

#: Tables, rows and columns (key → msgid).
TABLE_WORDS = {
    # the tables
    "regiments": N_("Regiments"),
    "defences": N_("Aerospace defences"),
    "jumpships": N_("Jumpships"),
    "factories": N_("Factories"),
    "research": N_("Research"),
    "agency": N_("Agency operations"),
    "revolt": N_("Revolt"),
    "revolt_outcomes": N_("Revolt outcomes"),
    "bread_and_circuses": N_("Bread and circuses"),
    "bread_fates": N_("Fates of committed regiments"),
    "espionage": N_("Espionage"),
    "double_agent": N_("Double agent"),
    "sabotage": N_("Sabotage"),
    "theft": N_("Technology theft"),
    "commandos": N_("Commandos"),
    "purge": N_("Purge"),
    # rows that are no dropdown's choice
    "roll": N_("Roll"),
    "limits": N_("Limits"),
    "report": N_("Report"),
    # regiments, defences (§2.1, §2.3)
    "purchase": N_("Purchase cost"),
    "upkeep": N_("Upkeep"),
    "strength": N_("Combat strength"),
    "defences.strength": N_("Defence strength"),
    "factory": N_("Minimum factory"),
    "turns": N_("Build turns"),
    "dice": N_("Defence dice"),
    "defences.detection": N_("Long-range detection"),
    # jumpships (§2.4)
    "capacity": N_("Capacity"),
    "safe": N_("Safe hexes"),
    "max": N_("Maximum hexes"),
    "accident": N_("Accident % per hex"),
    "per_hex": N_("Cost per hex"),
    # factories (§9.1)
    "income": N_("Income"),
    "lines": N_("Production lines"),
    # research levels (§2.6): the words of the report's bonuses
    "points": N_("Points"),
    "safe_hexes": N_("Safe jumpship hexes"),
    "fortress": N_("Penalty to hostile fortress rolls"),
    "ground": N_("Ground combat"),
    "ground_defender": N_("Ground combat as defender"),
    "stacking": N_("Stacking"),
    "command": N_("Command roll"),
    "protect": N_("Commandos protecting"),
    "research.sabotage": N_("Commandos sabotaging"),
    "research.research": N_("Research dice of other lines"),
    "regular_pct": N_("New regiments REGULAR, %"),
    "factory_income_pct": N_("Factory income, %"),
    "new_factories": N_("May found light factories"),
    "income_pct": N_("Income, %"),
    # agency operations (§2.5)
    "cost": N_("Cost"),
    "success": N_("Success up to"),
    "detection": N_("Detected from"),
    "revolt_up_to": N_("Wins a revolt up to"),
    "civil": N_("Civil discontent"),
    "military": N_("Military discontent"),
    "agency.revolt": N_("Revolts"),
    # revolts, bread and circuses (§5 351, 352)
    "defects_from": N_("Defects from"),
    "passes": N_("Control passes"),
    "defect": N_("Defection"),
    "severity": N_("Unrest severity"),
    "removed": N_("Status removed"),
    "quiet": N_("Quiet turns"),
    "modifier": N_("Modifier"),
    "bread_and_circuses.turns": N_("Modifier turns"),
    "rises": N_("Only by force of arms"),
    "on": N_("On a natural roll of"),
    "fate": N_("Fate"),
    # espionage, double agents (§5 353)
    "depth": N_("Report depth"),
    "low": N_("Lowest factor"),
    "high": N_("Highest factor"),
    "blur": N_("Defence level blur"),
    "factory_up_to": N_("Factory on a roll up to"),
    # sabotage, theft, commandos (§5 341-348)
    "protection": N_("Protection penalty"),
    "halt_dice": N_("Halt dice (d4)"),
    "plans_on": N_("Plans on a roll of"),
    "stolen": N_("Share stolen"),
    "max_bribe_bonus": N_("Largest bribe bonus"),
    "advance": N_("Advance (hexes)"),
    "finds": N_("Finds"),
}

#: The values of the columns that take a few words (column → code → msgid).
TABLE_VALUES = {
    "factory": {choice.code: choice.label for choice in FACTORY_TYPES},
    "defect": {"all": N_("All regiments"), "roll": N_("Each on a roll"), "none": N_("No regiment")},
    "fate": {"defects": N_("Changes sides"), "neutral": N_("Stays neutral"), "loses_turn": N_("Loses the turn")},
    "depth": {"full": N_("Full report"), "partial": N_("Partial report"), "basic": N_("Basic report"),
              "double_agent": N_("Double agent")},
    "report": {"true": N_("True report"), "blurred": N_("True but blurred"), "false": N_("False report")},
    "finds": {"all": N_("All commandos"), "one": N_("One commando"), "present": N_("Their presence"),
              "nothing": N_("Nothing")},
}
