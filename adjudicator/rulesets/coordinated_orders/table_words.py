"""Coordinated Orders' words for its rule tables (``tables.toml``) in the *Rule tables* sheet of campaign.xlsx:
the skills table and its columns, and the values of the columns that take a few words (a Skill's family, form,
attack, attribute and the tool its participants must share), in the words the order sheets use: a row is the
Skill's dropdown label (Ataque CD), an attribute its roster column's (CD, FIS), a switch the catalog's YES or NO."""

from __future__ import annotations

from adjudicator.i18n import N_
from adjudicator.rulesets.coordinated_orders.schemas import ATTRIBUTES, SKILLS, TOOL_KINDS

#: The table and its columns (key → msgid).
TABLE_WORDS = {
    "skills": N_("Skills"),
    "family": N_("Family"),
    "form": N_("Form"),
    "target": N_("Target"),
    "roll": N_("Roll"),
    "attack": N_("Attack"),
    "attribute": N_("Attribute"),
    "facts": N_("Table facts"),
    "reveals": N_("Reveals a Marker"),
    "compare_tool": N_("Same tool"),
    "common": N_("Common target"),
    "super_jump": N_("Super-Jump"),
}

_SKILL = {choice.code: choice.label for choice in SKILLS}
_ATTRIBUTE = {choice.code: choice.label for choice in ATTRIBUTES}
_TOOL_KIND = {choice.code: choice.label for choice in TOOL_KINDS}

#: The values of the columns that take a few words (column → code → msgid). A family is named by a Skill of it
#: (any Skill may head a family of its own), by its dropdown label but for the two families whose Skills are
#: several ways of one thing: Jump (a Short Movement Skill or an Entire Order) and State.
TABLE_VALUES = {
    "family": {**_SKILL, "JUMP": N_("Jump"), "STATE": N_("State")},
    "form": {
        "SHORT_MOVEMENT": N_("Short Movement Skill"),
        "SHORT": N_("Short Skill"),
        "ENTIRE_ORDER": N_("Entire Order"),  # no second Skill after it
    },
    "attack": {  # what the Skill opposes in a Face-to-Face Roll
        "BS": _ATTRIBUTE["BS"],
        "CC": _ATTRIBUTE["CC"],
        "HACK": N_("Hack"),
    },
    "attribute": dict(_ATTRIBUTE),  # rolled when the tool does not say
    "compare_tool": {  # the tool every participant must use the same of (V15, V16)
        "STATE": N_("State"),
        "PROGRAM": _TOOL_KIND["PROGRAM"],
    },
}
