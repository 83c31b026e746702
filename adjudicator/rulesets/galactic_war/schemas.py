"""The tables of Galactic War: the General's order sheets, the campaign state and the GM's input."""

from __future__ import annotations

from adjudicator.engine.sheets import Column, Kind, TableSchema, choices
from adjudicator.i18n import N_
from adjudicator.rulesets.galactic_war.vocabulary import RETREAT_HINT, TECHS_HINT

#: Unit types, with the source document's own words (and their usual inflections) as synonyms.
UNIT_TYPES = choices(
    ("CRUISER", N_("Cruiser"), ["крейсер", "крейсера", "крейсеры", "crucero", "cruceros", "cruisers"]),
    ("TRANSPORT", N_("Transport"), ["транспорт", "транспорта", "транспорты", "carrier", "transporte",
                                    "transportes", "transports"]),
    ("DREADNOUGHT", N_("Dreadnought"), ["линкор", "линкора", "линкоры", "acorazado", "acorazados",
                                        "dreadnoughts", "battleship"]),
    ("FIGHTER", N_("Fighter"), ["истребитель", "истребители", "истребителя", "caza", "cazas", "fighters"]),
    ("GF", N_("Ground Force"), ["наземный отряд", "наземные отряды", "наземных отряда", "но", "fuerza terrestre",
                                "fuerzas terrestres", "ground forces", "gf"]),
    ("PDS", N_("PDS"), ["пос", "sdp"]),
    ("DESTROYER", N_("Destroyer"), ["эсминец", "эсминцы", "destructor", "destructores", "destroyers"]),
    ("WAR_SUN", N_("War Sun"), ["боевая звезда", "боевые звезды", "sol de guerra", "war suns"]),
)
DOCK = "DOCK"
PURCHASE_TYPES = (*UNIT_TYPES, *choices(("DOCK", N_("Space Dock"), ["космический док", "док", "astillero",
                                                                        "muelle espacial", "dock"])))

YES_NO = choices(
    ("Y", N_("YES"), ["y", "yes", "да", "д", "si", "sí", "s", "true", "1", "не атаковать", "no atacar",
                      "do not attack"]),
    ("N", N_("NO"), ["n", "no", "нет", "н", "false", "0"]),
)

WORMHOLES = choices(
    ("NONE", N_("none"), ["нет", "ninguno", "-"]),
    ("ALPHA", N_("alpha"), ["альфа", "alfa", "α"]),
    ("BETA", N_("beta"), ["бета", "бетта", "β"]),
)

MOVES = TableSchema(
    key="moves",
    title=N_("Movement"),
    synonyms=("moves", "движение", "movimiento"),
    help=N_("One row per group of units that moves. Either write the order as text (G: cruiser – 7 – 1. "
            "Do not attack) or fill in Origin, Units and Path."),
    columns=(
        Column("text", N_("Order text"), width=30,
               help=N_("The order in the document's own form, e.g. 'G: cruiser – 7 – 1. Do not attack'. "
                       "Leave empty if you fill in the other columns.")),
        Column("origin", N_("Origin"), width=10, help=N_("The system the units leave.")),
        Column("units", N_("Units"), width=24,
               help=N_("Unit IDs separated by commas, or a type and a count: 'Cruiser x2'.")),
        Column("path", N_("Path"), width=16,
               help=N_("The intermediate systems, then the destination, separated by dashes: 7-1.")),
        Column("dna", N_("Do not attack"), Kind.CHOICE, choices=YES_NO, width=10,
               help=N_("Y: these ships do not attack at their destination.")),
        Column("pickups", N_("Pickups"), width=24,
               help=N_("For a Transport: system:unit IDs it loads on its way, e.g. 7:GF12,GF13; "
                       "several systems separated by ';'.")),
    ),
)

STANCE = TableSchema(
    key="stance",
    title=N_("Stance"),
    synonyms=("позиция",),
    optional=True,
    help=N_("'Do not attack' for ships that do not move: one row per system."),
    columns=(
        Column("system", N_("System"), required=True, width=10),
        Column("dna", N_("Do not attack"), Kind.CHOICE, required=True, choices=YES_NO, width=10),
    ),
)

BATTLE_PLAN = TableSchema(
    key="battle_plan",
    title=N_("Battle plan"),
    optional=True,
    help=N_("Your decisions in battle, declared in advance: which units you lose first, when you retreat and "
            "where. Scope ALL applies everywhere; a row for a system overrides it there."),
    columns=(
        Column("scope", N_("Scope"), width=10, help=N_("ALL, or a system ID.")),  # ALL in the reader's word
        Column("space_casualties", N_("Space casualties"), width=32,
               help=N_("Unit types or IDs removed first, separated by '>': Fighter > Cruiser > Transport > "
                       "Dreadnought.")),
        Column("ground_casualties", N_("Ground casualties"), width=20,
               help=N_("Fighter > Ground Force (the default).")),
        Column("retreat_if", N_("Retreat if"), width=32,
               help=RETREAT_HINT),  # in the reader's tokens (vocabulary.RETREAT_TOKENS)
        Column("retreat_to", N_("Retreat to"), width=16,
               help=N_("Systems in order of preference, separated by commas.")),
    ),
)

INVASIONS = TableSchema(
    key="invasions",
    title=N_("Invasion"),
    optional=True,
    help=N_("One row per planet you land on or bombard."),
    columns=(
        Column("system", N_("System"), required=True, width=10),
        Column("planet", N_("Planet"), required=True, width=14),
        Column("land", N_("Land"), width=30, help=N_("IDs of the Ground Forces, PDS and Fighters that land, "
                                                     "or types and counts: 'GF x3, PDS'.")),
        Column("bombard", N_("Bombard"), width=24, help=N_("IDs of the Dreadnoughts that bomb the planet.")),
        Column("odds", N_("Odds (info)"), width=24,
               help=N_("Filled in by the adjudicator's check: the chance that this invasion succeeds.")),
    ),
)

SYSTEMS = TableSchema(
    key="systems",
    title=N_("Systems"),
    columns=(
        Column("system", N_("System"), required=True, width=10),
        Column("neighbours", N_("Neighbours"), width=24, help=N_("Adjacent systems, separated by commas.")),
        Column("wormhole", N_("Wormhole"), Kind.CHOICE, choices=WORMHOLES, width=10),
    ),
)

PLANETS = TableSchema(
    key="planets",
    title=N_("Planets"),
    columns=(
        Column("planet", N_("Planet"), required=True, width=14),
        Column("system", N_("System"), required=True, width=10),
        Column("resources", N_("Resources"), Kind.INT, required=True, minimum=0),
        Column("owner", N_("Owner"), width=10),
        Column("dock", N_("Space Dock"), Kind.CHOICE, choices=YES_NO, width=10),
        Column("dock_built", N_("Dock built in turn"), Kind.INT, minimum=0),
    ),
)

UNITS = TableSchema(
    key="units",
    title=N_("Units"),
    columns=(
        Column("id", N_("ID"), required=True, width=10),
        Column("race", N_("Race"), required=True, width=10),
        Column("type", N_("Type"), Kind.CHOICE, required=True, choices=UNIT_TYPES, width=14),
        Column("system", N_("System"), required=True, width=10),
        Column("planet", N_("Planet"), width=14, help=N_("For Ground Forces and PDS on a planet.")),
        Column("aboard", N_("Aboard"), width=10, help=N_("The Transport carrying the unit.")),
    ),
)

CREDITS = Column("credits", N_("Credits"), Kind.INT, required=True, minimum=0)
TECHS = Column("techs", N_("Technologies"), width=28, help=TECHS_HINT)

PURCHASES = TableSchema(
    key="purchases",
    title=N_("Purchases"),
    optional=True,
    help=N_("Units the Rulers bought this turn, to be placed: race, type, count and the dock's planet "
            "(for a new Space Dock: the planet where it is built)."),
    columns=(
        Column("race", N_("Race"), required=True, width=10),
        Column("type", N_("Type"), Kind.CHOICE, required=True, choices=PURCHASE_TYPES, width=14),
        Column("count", N_("Count"), Kind.INT, required=True, minimum=1),
        Column("planet", N_("Planet"), required=True, width=14),
    ),
)
