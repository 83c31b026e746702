"""The tables of Inner Sphere: the order sheets, the campaign state and the GM's input sheets.

Every word a player picks from a dropdown reads back in English, Spanish and Russian, and also in
the source document's own Spanish words ("Mechs Pesado", "Veterano", "Reparación"). State tables
are keyed so that the movement and agency orders (part 2) can add their own tables and columns.
"""

from __future__ import annotations

from adjudicator.engine.rules_data import default_tables
from adjudicator.engine.sheets import Column, Kind, TableSchema, choices
from adjudicator.i18n import N_

#: The top aerospace defence level: the last level of the defences table of tables.toml (§2.3).
TOP_DEFENCE = max(int(level) for level in default_tables("adjudicator.rulesets.inner_sphere")["defences"])

YES_NO = choices(("YES", N_("YES"), ["si", "sí", "s", "y", "да", "true", "1"]),
                 ("NO", N_("NO"), ["нет", "n", "false", "0"]))

UNIT_TYPES = choices(
    ("VL", N_("Light vehicles"), ["Vehículos Ligero", "Vehículos Ligeros", "Vehiculo Ligero", "light vehicle"]),
    ("VM", N_("Medium vehicles"), ["Vehículos Medios", "Vehículos Medio", "Vehiculo Medio", "medium vehicle"]),
    ("VH", N_("Heavy vehicles"), ["Vehículos Pesado", "Vehículos Pesados", "Vehiculo Pesado", "heavy vehicle"]),
    ("VA", N_("Assault vehicles"), ["Vehículos Asalto", "Vehículos de Asalto", "Vehiculo Asalto",
                                    "assault vehicle"]),
    ("ML", N_("Light mechs"), ["Mechs Ligero", "Mechs Ligeros", "Mech Ligero", "light mech"]),
    ("MM", N_("Medium mechs"), ["Mechs Medio", "Mechs Medios", "Mech Medio", "medium mech"]),
    ("MH", N_("Heavy mechs"), ["Mechs Pesado", "Mechs Pesados", "Mech Pesado", "heavy mech"]),
    ("MA", N_("Assault mechs"), ["Mechs Asalto", "Mechs de Asalto", "Mech Asalto", "assault mech"]),
)
EXPERIENCE = choices(
    ("GREEN", N_("Green"), ["Novato", "Novatos", "novice"]),
    ("REGULAR", N_("Regular"), ["Regulares", "R"]),
    ("VETERAN", N_("Veteran"), ["Veterano", "Veteranos"]),
    ("ELITE", N_("Elite"), ["Élite", "Elite", "Elites"]),
)
EXPERIENCE_ORDER = ("GREEN", "REGULAR", "VETERAN", "ELITE")
FACTORY_TYPES = choices(
    ("LIGHT", N_("Light factory"), ["F. Ligera", "Ligera", "Factoría Ligera", "Fábrica Ligera", "light"]),
    ("MEDIUM", N_("Medium factory"), ["F. Media", "Media", "Factoría Media", "Fábrica Media", "medium"]),
    ("HEAVY", N_("Heavy factory"), ["F. Pesada", "Pesada", "Factoría Pesada", "Fábrica Pesada", "heavy"]),
)
FACTORY_ORDER = ("LIGHT", "MEDIUM", "HEAVY")
LINES = choices(
    ("AERO", N_("Aerospace"), ["Aeroespacial", "AERO"]),
    ("ARM", N_("Armament"), ["Armamento", "ARM"]),
    ("IND", N_("Industrial development"), ["Desarrollo industrial", "Industrial", "IND"]),
    ("COMM", N_("Communications and research"), ["Comunicaciones e Investigación", "Comunicaciones", "COMM"]),
    ("ECO", N_("Economy"), ["Economía", "ECO"]),
)
LINE_ORDER = ("AERO", "ARM", "IND", "COMM", "ECO")
JUMPSHIP_CLASSES = choices(*[(f"NS{n}", f"NS{n}", [f"NS {n}", f"NS-{n}"]) for n in range(1, 6)])

REPAIR_KINDS = choices(
    ("REG", N_("Regiment"), ["Regimiento", "Reg", "Reparación regimiento", "unit", "unidad"]),
    ("FACTORY", N_("Factory"), ["Fábrica", "Factoría", "Fabrica", "F"]),
)
PURCHASE_KINDS = choices(
    ("REG", N_("Regiment"), ["Regimiento", "Reg", "unit", "unidad"]),
    ("DEF", N_("Aerospace defence"), ["Defensa", "Defensas", "Defensas aeroespaciales", "Fortaleza", "DEF",
                                      "defence", "defense"]),
    ("NS", N_("Jumpship"), ["Nave de salto", "NS", "jump ship"]),
)
RESEARCH_KINDS = choices(
    ("LAB", N_("Assign lab"), ["Laboratorio", "Lab", "Asignar laboratorio"]),
    ("ROLL", N_("Research dice"), ["Tirada", "Dados", "Tirar", "Roll", "Investigar"]),
    ("ICNA", N_("ICNA roll"), ["ICNA", "NAIS"]),
    ("FACTORY", N_("New factory"), ["Nueva factoría", "Nueva fábrica", "Factoría", "Fábrica"]),
)

# The cost preview: filled by the workbook's own formulas (see template.py), never read by the engine.
PREVIEW = (
    Column("cost", N_("Cost (preview)"), width=12, preview=True,
           help=N_("Computed by the workbook for your guidance; the GM's engine recomputes every cost.")),
    Column("running", N_("Running total"), width=12, preview=True,
           help=N_("What the orders up to this row cost, in the order they are paid: repairs, purchases, research.")),
    Column("left", N_("Treasury left"), width=12, preview=True,
           help=N_("Your treasury after income, upkeep and jumpships, minus the running total.")),
)

REPAIRS = TableSchema(
    key="repairs",
    title=N_("Repairs"),
    synonyms=("Reparación", "Reparaciones", "Reparacion", "3.1"),
    help=N_("3.1: one damaged regiment or factory per row. Rows are paid in order; what cannot be paid is refused."),
    columns=(
        Column("kind", N_("Repair of"), Kind.CHOICE, required=True, choices=REPAIR_KINDS, width=14,
               synonyms=("Tipo",), help=N_("Regiment or Factory.")),
        Column("target", N_("Regiment or system"), required=True, width=18,
               help=N_("Regiment: its ID. Factory: the hex (XXYY) of its system.")),
        *PREVIEW,
    ),
)

PURCHASES = TableSchema(
    key="purchases",
    title=N_("Purchases"),
    synonyms=("Compra", "Compras", "Compra nuevas unidades", "3.2"),
    help=N_("3.2: regiments built by a factory of the system, and aerospace defence levels. Paid in full now."),
    columns=(
        Column("kind", N_("Purchase of"), Kind.CHOICE, required=True, choices=PURCHASE_KINDS, width=16,
               help=N_("Regiment, Aerospace defence (the next level) or Jumpship (not for sale).")),
        Column("system", N_("System"), width=10, help=N_("The hex (XXYY) of your system.")),
        Column("unit_type", N_("Unit type"), Kind.CHOICE, choices=UNIT_TYPES, width=18,
               help=N_("Regiment: its type, e.g. Heavy mechs.")),
        Column("level", N_("Level"), Kind.INT, minimum=1, maximum=TOP_DEFENCE, width=8,
               help=N_("Aerospace defence: the level ordered (optional; it must be the next one).")),
        Column("name", N_("Regiment name"), width=22, help=N_("Optional: the new regiment's name.")),
        Column("factory", N_("Factory no."), Kind.INT, minimum=1, width=8,
               help=N_("Optional: which factory of the system, 1 being the first listed.")),
        *PREVIEW,
    ),
)

RESEARCH = TableSchema(
    key="research",
    title=N_("Research"),
    synonyms=("Investigación", "Investigacion", "Ordenes de Investigación", "3.5"),
    help=N_("3.5: assign labs, roll research dice, roll the ICNA, or found a new light factory (Industrial 500)."),
    columns=(
        Column("kind", N_("Research order"), Kind.CHOICE, required=True, choices=RESEARCH_KINDS, width=16,
               help=N_("Assign lab, Research dice, ICNA roll or New factory.")),
        Column("lab", N_("Lab"), Kind.INT, minimum=1, maximum=20, width=6, help=N_("Assign lab: lab 1 to 5.")),
        Column("line", N_("Line"), Kind.CHOICE, choices=LINES, width=22,
               help=N_("Assign lab, Research dice, ICNA roll: the research line.")),
        Column("dice", N_("Dice"), Kind.INT, minimum=1, maximum=20, width=6,
               help=N_("Research dice: how many (one per lab of the line, 5 in all).")),
        Column("dismantle", N_("Dismantle"), Kind.CHOICE, choices=YES_NO, width=10,
               help=N_("Assign lab: YES to dismantle a line that has not gained its level yet (150 C).")),
        Column("system", N_("System"), width=10, help=N_("New factory: the hex (XXYY) of your system.")),
        Column("stake", N_("Stake"), Kind.INT, minimum=1, width=8,
               help=N_("New factory: C staked, in steps of 100 (5% chance each).")),
        *PREVIEW,
    ),
)

TREASURY = Column("treasury", N_("Treasury"), Kind.NUMBER, required=True)

SYSTEMS = TableSchema(
    key="systems",
    title=N_("Systems"),
    columns=(
        Column("hex", N_("Hex"), required=True, width=8),
        Column("name", N_("Name"), required=True, width=18),
        Column("owner", N_("Owner"), width=10),
        Column("disputed", N_("Disputed"), Kind.CHOICE, choices=YES_NO, width=9),
        Column("income", N_("Income"), Kind.NUMBER, minimum=0, width=8),
        Column("defence", N_("Defence level"), Kind.INT, minimum=0, maximum=TOP_DEFENCE, width=8),
        Column("icna", N_("ICNA"), Kind.CHOICE, choices=YES_NO, width=6),
    ),
)

FACTORIES = TableSchema(
    key="factories",
    title=N_("Factories"),
    columns=(
        Column("id", N_("ID"), required=True, width=12),
        Column("system", N_("System"), required=True, width=8),
        Column("type", N_("Type"), Kind.CHOICE, required=True, choices=FACTORY_TYPES, width=14),
        Column("damaged", N_("Damaged"), Kind.CHOICE, choices=YES_NO, width=9),
        Column("halted_until", N_("Halted until turn"), Kind.INT, minimum=0, width=10),
    ),
)

REGIMENTS = TableSchema(
    key="regiments",
    title=N_("Regiments"),
    columns=(
        Column("id", N_("ID"), required=True, width=12),
        Column("name", N_("Name"), width=26),
        Column("owner", N_("Owner"), required=True, width=10),
        Column("type", N_("Unit type"), Kind.CHOICE, required=True, choices=UNIT_TYPES, width=16),
        Column("experience", N_("Experience"), Kind.CHOICE, required=True, choices=EXPERIENCE, width=10),
        Column("system", N_("System"), width=8, help=N_("The hex of the planet it is on (blank when aboard).")),
        Column("jumpship", N_("Aboard"), width=10, help=N_("The jumpship carrying it, if any.")),
        Column("damaged", N_("Damaged"), Kind.CHOICE, choices=YES_NO, width=9),
    ),
)

JUMPSHIPS = TableSchema(
    key="jumpships",
    title=N_("Jumpships"),
    columns=(
        Column("id", N_("ID"), required=True, width=12),
        Column("owner", N_("Owner"), required=True, width=10),
        Column("class", N_("Class"), Kind.CHOICE, required=True, choices=JUMPSHIP_CLASSES, width=8),
        Column("hex", N_("Hex"), required=True, width=8),
    ),
)

JOB_KINDS = choices(
    ("REGIMENT", N_("New regiment")),
    ("DEFENCE", N_("Defence level")),
    ("REPAIR", N_("Regiment repair")),
    ("FACTORY_REPAIR", N_("Factory repair")),
    ("NEW_FACTORY", N_("New factory")),
)

JOBS = TableSchema(
    key="jobs",
    title=N_("Production"),
    columns=(
        Column("id", N_("ID"), required=True, width=16),
        Column("faction", N_("Faction"), required=True, width=10),
        Column("kind", N_("Job"), Kind.CHOICE, required=True, choices=JOB_KINDS, width=16),
        Column("system", N_("System"), width=8),
        Column("factory", N_("Factory"), width=12),
        Column("item", N_("Item"), width=12, help=N_("Unit type, defence level or regiment ID."),
               choices=UNIT_TYPES),
        Column("name", N_("Name"), width=22),
        Column("turns_left", N_("Turns left"), Kind.INT, required=True, minimum=0, width=8),
        Column("ordered_turn", N_("Ordered in turn"), Kind.INT, minimum=1, width=8),
    ),
)

RESEARCH_POINTS = TableSchema(
    key="research_points",
    title=N_("Research points"),
    columns=(
        Column("faction", N_("Faction"), required=True, width=10),
        Column("line", N_("Line"), Kind.CHOICE, required=True, choices=LINES, width=22),
        Column("points", N_("Points"), Kind.INT, required=True, minimum=0, width=8),
        Column("opened", N_("Opened"), Kind.CHOICE, choices=YES_NO, width=8),
    ),
)

LABS = TableSchema(
    key="labs",
    title=N_("Labs"),
    columns=(
        Column("faction", N_("Faction"), required=True, width=10),
        Column("lab", N_("Lab"), Kind.INT, required=True, minimum=1, width=6),
        Column("line", N_("Line"), Kind.CHOICE, choices=LINES, width=22),
        Column("unlock_at", N_("Locked until points"), Kind.INT, minimum=0, width=10),
    ),
)

SALES = TableSchema(
    key="sales",
    title=N_("Technology sales"),
    columns=(
        Column("seller", N_("Seller"), required=True, width=10),
        Column("buyer", N_("Buyer"), required=True, width=10),
        Column("line", N_("Line"), Kind.CHOICE, required=True, choices=LINES, width=22),
        Column("points", N_("Points"), Kind.INT, required=True, minimum=0, width=8),
        Column("effective_turn", N_("Takes effect in turn"), Kind.INT, required=True, minimum=1, width=10),
    ),
)

SALES_AGREED = TableSchema(
    key="sales_agreed",
    title=N_("Sales agreed"),
    optional=True,
    help=N_("Technology sold between states this turn: it takes effect in the buyer's state two turns later."),
    columns=(
        Column("seller", N_("Seller"), required=True, width=10),
        Column("buyer", N_("Buyer"), required=True, width=10),
        Column("line", N_("Line"), Kind.CHOICE, required=True, choices=LINES, width=22),
        Column("points", N_("Points"), Kind.INT, minimum=0, width=8,
               help=N_("Blank: the seller's points in that line now.")),
        Column("price", N_("Price"), Kind.NUMBER, minimum=0, width=10,
               help=N_("C the buyer pays the seller (blank or 0: none).")),
    ),
)

DAMAGE_RESULTS = choices(
    ("DAMAGED", N_("Damaged"), ["Dañado", "Dañada"]),
    ("DESTROYED", N_("Destroyed"), ["Destruido", "Destruida"]),
)

DAMAGE = TableSchema(
    key="damage",
    title=N_("Damage"),
    optional=True,
    help=N_("Results of combat (chapters 4-5) that damage or destroy regiments and factories."),
    columns=(
        Column("target", N_("Regiment or system"), required=True, width=16,
               help=N_("A regiment ID, or the hex of a system for its factories.")),
        Column("result", N_("Result"), Kind.CHOICE, required=True, choices=DAMAGE_RESULTS, width=12),
    ),
)

ADJUSTMENTS = TableSchema(
    key="adjustments",
    title=N_("Adjustments"),
    optional=True,
    help=N_("Manual corrections of a treasury (money transfers between players, events)."),
    columns=(
        Column("faction", N_("Faction"), required=True, width=10),
        Column("change", N_("Change"), Kind.NUMBER, required=True, width=10),
        Column("reason", N_("Reason"), required=True, width=30),
    ),
)

# ------------------------------------------------------------------------------------------ 3.3 movement
MOVE_ACTIONS = choices(
    ("START", N_("Start"), ["Inicio", "Salida", "Comienzo"]),
    ("MOVE", N_("Move"), ["Movimiento", "Mover", "Moverse"]),
    ("LOAD", N_("Load"), ["Cargar", "Carga"]),
    ("UNLOAD", N_("Unload"), ["Descargar", "Descarga"]),
    ("WAIT", N_("Wait"), ["Esperar", "Espera"]),
    ("RAID", N_("Raid"), ["Saquear", "Saqueo", "Incursión"]),
    ("INVADE", N_("Invade"), ["Invasión", "Invadir", "Invasion"]),
    ("RETREAT", N_("Retreat"), ["Retirada", "Retirarse", "Retirar"]),
)

MOVEMENT = TableSchema(
    key="movement",
    title=N_("Jumpship movement"),
    synonyms=("Movimiento", "Movimientos", "Naves de salto", "3.3"),
    help=N_("3.3: one row per action of a jumpship's chain: Start at its hex, then Move, Load, Unload, Wait, "
            "Raid, Invade, Retreat. Every action costs one hex (a raid one per round)."),
    columns=(
        Column("ship", N_("Jumpship"), required=True, width=12, help=N_("The ID of your jumpship.")),
        Column("seq", N_("Step no."), Kind.INT, minimum=1, width=7,
               help=N_("The order of the action in the ship's chain (blank: row order).")),
        Column("action", N_("Action"), Kind.CHOICE, required=True, choices=MOVE_ACTIONS, width=12),
        Column("hexes", N_("Hex or path"), width=22,
               help=N_("Move: the hexes entered, in order (0306, 0407). Other actions: the ship's hex (optional).")),
        Column("regiments", N_("Regiments"), width=26,
               help=N_("Load, Unload, Raid, Invade, Retreat: regiment IDs separated by commas (blank: all that can).")),
        Column("rounds", N_("Raid rounds"), Kind.INT, minimum=0, width=8, help=N_("Raid: combat rounds (1 or more).")),
    ),
)

LINKS = TableSchema(
    key="links",
    title=N_("Map links"),
    optional=True,
    help=N_("The GM's own adjacency list: when it has rows it replaces the hex geometry (A2)."),
    columns=(
        Column("a", N_("Hex"), required=True, width=8),
        Column("b", N_("Linked hex"), required=True, width=8),
    ),
)

COMBAT_KINDS = choices(
    ("INVASION", N_("Invasion")),
    ("RAID", N_("Raid")),
    ("DEFENCE_FIRE", N_("Defence fire")),
)
COMBAT_RESULTS = choices(
    ("HOLDS", N_("Defender holds"), ["Resiste", "sin efecto", "no effect"]),
    ("TAKEN", N_("Attacker takes the system"), ["Conquistado", "Tomado"]),
    ("DISPUTED", N_("System disputed"), ["Disputado"]),
    ("SHIP_LOST", N_("Jumpship destroyed"), ["Nave destruida"]),
)

COMBATS = TableSchema(
    key="combats",
    title=N_("Combats"),
    optional=True,
    help=N_("Chapters 4-5 decide these (defence fire, invasions, raids): enter each row's result; damage to "
            "single regiments goes in the Damage sheet."),
    columns=(
        Column("id", N_("ID"), required=True, width=26),
        Column("kind", N_("Combat kind"), Kind.CHOICE, choices=COMBAT_KINDS, width=12),
        Column("system", N_("System"), width=8),
        Column("step", N_("Step no."), Kind.INT, width=6),
        Column("attacker", N_("Attacker"), width=10),
        Column("ship", N_("Jumpship"), width=10),
        Column("attackers", N_("Attacking regiments"), width=34),
        Column("attack_strength", N_("Attack strength"), Kind.INT, width=8),
        Column("defender", N_("Defender"), width=10),
        Column("defenders", N_("Defending regiments"), width=34),
        Column("defence_strength", N_("Defence strength"), Kind.INT, width=8),
        Column("defence_level", N_("Defence level"), Kind.INT, width=8),
        Column("modifiers", N_("Research modifiers"), width=24),
        Column("result", N_("Result"), Kind.CHOICE, choices=COMBAT_RESULTS, width=16,
               help=N_("Defender holds, Attacker takes the system (at end of turn), System disputed, or "
                       "Jumpship destroyed (with its cargo).")),
    ),
)

ACCIDENT_RESULTS = choices(
    ("NONE", N_("No damage"), ["Sin daños", "Nada"]),
    ("DAMAGED", N_("Cargo damaged"), ["Carga dañada", "Dañada"]),
    ("CARGO_LOST", N_("Cargo lost"), ["Carga perdida"]),
    ("DESTROYED", N_("Jumpship destroyed"), ["Nave destruida"]),
)

ACCIDENTS = TableSchema(
    key="accidents",
    title=N_("Accidents"),
    optional=True,
    help=N_("Only with accident_effect = gm_table: what each jumpship accident of the turn does (A6)."),
    columns=(
        Column("id", N_("ID"), required=True, width=22),
        Column("faction", N_("Faction"), width=10),
        Column("ship", N_("Jumpship"), width=10),
        Column("hex", N_("Hex"), width=8),
        Column("step", N_("Step no."), Kind.INT, width=6),
        Column("cargo", N_("Regiments aboard"), width=34),
        Column("result", N_("Result"), Kind.CHOICE, choices=ACCIDENT_RESULTS, width=16,
               help=N_("No damage; Cargo damaged (the regiments aboard need repair); Cargo lost (the regiments "
                       "aboard are destroyed); or Jumpship destroyed (with its cargo).")),
    ),
)

# ------------------------------------------------------------------------------------------ 3.4 agency
AGENCY_OPS = choices(
    ("341", N_("341 Purge system"), ["Purgar sistema", "Purgar", "341"]),
    ("342", N_("342 Introduce commandos"), ["Introducir comandos", "Introducir comando", "342"]),
    ("343", N_("343 Industrial sabotage"), ["Sabotaje industrial", "343"]),
    ("344", N_("344 Industrial protection"), ["Protección industrial", "344"]),
    ("345", N_("345 Military sabotage"), ["Sabotaje militar", "345"]),
    ("346", N_("346 Military protection"), ["Protección militar", "346"]),
    ("347", N_("347 Technological sabotage"), ["Sabotaje tecnológico", "347"]),
    ("348", N_("348 Technological protection"), ["Protección tecnológica", "348"]),
    ("349", N_("349 Foment civil discontent"), ["Fomentar descontento civil", "349"]),
    ("350", N_("350 Foment military discontent"), ["Fomentar descontento militar", "350"]),
    ("351", N_("351 Foment revolts"), ["Fomentar revueltas", "Fomentar revuelta", "351"]),
    ("352", N_("352 Bread and circuses"), ["Pan y circo", "352"]),
    ("353", N_("353 Espionage"), ["Espionaje", "353"]),
    ("354", N_("354 Spread rumours"), ["Difundir rumores", "Rumores", "354"]),
)
COMMANDO_MODES = choices(
    ("NEW", N_("New"), ["Nuevo", "Introducir"]),
    ("ADVANCE", N_("Advance"), ["Avanzar"]),
    ("ATTACH", N_("Attach to regiment"), ["Transferir", "Adjuntar", "Unir"]),
)
UNREST_STATUSES = choices(
    ("CIVIL", N_("Civil discontent"), ["Descontento civil", "Civil"]),
    ("MILITARY", N_("Military discontent"), ["Descontento militar", "Militar"]),
    ("REVOLT", N_("Revolt"), ["Revuelta", "Revueltas"]),
)

AGENCY = TableSchema(
    key="agency",
    title=N_("Agency"),
    synonyms=("Agencia", "Agencia de inteligencia", "Operaciones", "3.4"),
    optional=True,
    help=N_("3.4: intelligence agency operations 341-354, resolved in numerical order after being paid."),
    columns=(
        Column("op", N_("Operation"), Kind.CHOICE, required=True, choices=AGENCY_OPS, width=30,
               synonyms=("Operación", "No."), help=N_("The operation, 341 to 354.")),
        Column("target", N_("Target"), width=16,
               help=N_("A system hex (XXYY), a regiment ID, a state, or STATE:LINE for 347 and 348.")),
        Column("mode", N_("Mode"), Kind.CHOICE, choices=COMMANDO_MODES, width=12,
               help=N_("342: New, Advance or Attach to regiment.")),
        Column("commando", N_("Commando"), width=14, help=N_("342 Advance and Attach: the ID of your commando.")),
        Column("regiment", N_("Regiment"), width=12, help=N_("342 Attach: the foreign regiment whose name you know.")),
        Column("bribe", N_("Bribe"), Kind.INT, minimum=0, maximum=100, width=8,
               help=N_("342: C of bribes, 0 to 100 in steps of 20 (+1 per 20).")),
        Column("status", N_("Unrest status"), Kind.CHOICE, choices=UNREST_STATUSES, width=16,
               help=N_("352: the status quelled (Civil discontent 50 C, Military discontent 100 C, Revolt 200 C).")),
        Column("regiments", N_("Regiments"), width=20,
               help=N_("352: your regiments on the planet committed, separated by commas (+1 each).")),
        Column("text", N_("Text"), width=40, help=N_("354: the rumour delivered to the target state.")),
        *PREVIEW,
    ),
)

COMMANDOS = TableSchema(
    key="commandos",
    title=N_("Commandos"),
    optional=True,
    columns=(
        Column("id", N_("ID"), required=True, width=14),
        Column("owner", N_("Owner"), required=True, width=10),
        Column("system", N_("System"), width=8, help=N_("The hex of the system it is in (blank when attached).")),
        Column("regiment", N_("Regiment"), width=12, help=N_("The regiment it is attached to and follows.")),
        Column("established_turn", N_("Established in turn"), Kind.INT, minimum=0, width=10),
    ),
)

UNREST = TableSchema(
    key="unrest",
    title=N_("Unrest"),
    optional=True,
    columns=(
        Column("hex", N_("Hex"), required=True, width=8),
        Column("civil", N_("Civil discontent"), Kind.CHOICE, choices=YES_NO, width=10),
        Column("military", N_("Military discontent"), Kind.CHOICE, choices=YES_NO, width=10),
        Column("revolt", N_("Revolt severity"), Kind.INT, minimum=0, maximum=3, width=8),
        Column("instigator", N_("Instigator"), width=10),
        Column("quiet_until", N_("Quiet until turn"), Kind.INT, minimum=0, width=8),
        Column("force_only", N_("Only by force of arms"), Kind.CHOICE, choices=YES_NO, width=10),
    ),
)

UNREST_MODS = TableSchema(
    key="unrest_mods",
    title=N_("Unrest modifiers"),
    optional=True,
    columns=(
        Column("hex", N_("Hex"), required=True, width=8),
        Column("value", N_("Modifier"), Kind.INT, required=True, width=8),
        Column("first_turn", N_("From turn"), Kind.INT, required=True, minimum=0, width=8),
        Column("last_turn", N_("Until turn"), Kind.INT, required=True, minimum=0, width=8),
    ),
)

KNOWN = TableSchema(
    key="known_regiments",
    title=N_("Known regiments"),
    optional=True,
    help=N_("Foreign regiments whose names a state has learned (espionage or the GM)."),
    columns=(
        Column("faction", N_("Faction"), required=True, width=10),
        Column("regiment", N_("Regiment"), required=True, width=12),
    ),
)

NEUTRAL = TableSchema(
    key="neutral",
    title=N_("Neutral regiments"),
    optional=True,
    help=N_("Regiments neutral after bread and circuses (352): no combat, and no return to that system while "
            "it has unrest."),
    columns=(
        Column("regiment", N_("Regiment"), required=True, width=12),
        Column("system", N_("System"), required=True, width=8),
    ),
)
