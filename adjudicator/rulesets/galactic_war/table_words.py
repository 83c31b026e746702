"""Galactic War's words for its rule tables (``tables.toml``) in the *Rule tables* sheet of campaign.xlsx: the
units table and its columns, and the unit classes, as the source document names them (Вооружение, Движение);
a row is the unit type's dropdown label (Крейсер), a switch the catalog's YES or NO."""

from __future__ import annotations

from adjudicator.i18n import N_

#: The table and its columns (key → msgid).
TABLE_WORDS = {
    "units": N_("Units"),
    "class": N_("Class"),
    "cost": N_("Cost"),
    "combat": N_("Combat value"),  # a d10 of at least this value hits
    "move": N_("Movement rate"),  # systems a turn
    "capacity": N_("Capacity"),  # units carried
    "enabled": N_("In play"),
}

#: The values of the columns that take a few words (column → code → msgid).
TABLE_VALUES = {
    "class": {
        "ship": N_("Ship"),  # fights in space
        "fighter": N_("Fighter"),  # fights in space, travels aboard a Transport
        "ground": N_("Ground unit"),
        "structure": N_("Structure"),
    },
}
