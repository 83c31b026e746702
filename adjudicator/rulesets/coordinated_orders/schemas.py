"""The tables of Coordinated Orders: the campaign state (player turn, combat groups, the troopers'
rosters and their weapons), the two order sheets (coordinated orders and AROs) and the GM's fact sheet."""

from __future__ import annotations

from adjudicator.engine.sheets import Column, Kind, TableSchema, choices
from adjudicator.i18n import N_

YES_NO = choices(
    ("YES", N_("YES"), ["Y", "si", "sí", "S", "да", "true", "1", "x"]),
    ("NO", N_("NO"), ["N", "нет", "false", "0"]),
)

PHASES = choices(
    ("TACTICAL", N_("Tactical Phase"), ["TACTICAL", "fase tactica", "tactica", "тактическая фаза"]),
    ("IMPETUOUS", N_("Impetuous Phase"), ["IMPETUOUS", "fase impetuosa", "impetuosa", "фаза импульсивных"]),
    ("ORDERS", N_("Orders Phase"), ["ORDERS", "fase de ordenes", "ordenes", "фаза приказов"]),
    ("STATES", N_("States Phase"), ["STATES", "fase de estados", "estados", "фаза состояний"]),
)

TRAININGS = choices(
    ("REGULAR", N_("Regular"), ["REGULAR", "regular", "регулярная", "регулярный"]),
    ("IRREGULAR", N_("Irregular"), ["IRREGULAR", "irregular", "нерегулярная", "нерегулярный"]),
)

LINKS = choices(
    ("NONE", N_("None"), ["NONE", "ninguno", "no", "нет", "-"]),
    ("PERIPHERAL", N_("Peripheral"), ["PERIPHERAL", "periferico", "периферийный", "периферия"]),
    ("CONTROLLER", N_("Controller"), ["CONTROLLER", "controlador", "контроллер"]),
)

DEPLOYMENTS = choices(
    ("ON_TABLE", N_("On the table"), ["ON_TABLE", "en mesa", "en la mesa", "на столе"]),
    ("HIDDEN_DEPLOYMENT", N_("Hidden Deployment"),
     ["HIDDEN_DEPLOYMENT", "HD", "despliegue oculto", "скрытое развертывание"]),
    ("AIRBORNE_OFF_TABLE", N_("Airborne, off the table"),
     ["AIRBORNE_OFF_TABLE", "AD", "despliegue aerotransportado", "aerotransportado fuera de la mesa",
      "воздушное развертывание"]),
    ("CAMO_MARKER", N_("Camouflaged Marker"),
     ["CAMO_MARKER", "camuflado", "marcador de camuflado", "маркер камуфляжа", "камуфляж"]),
)

TOOL_KINDS = choices(
    ("WEAPON", N_("Weapon"), ["WEAPON", "arma", "оружие"]),
    ("EQUIPMENT", N_("Equipment"), ["EQUIPMENT", "equipo", "снаряжение"]),
    ("SKILL", N_("Skill"), ["SKILL", "habilidad", "навык"]),
    ("PROGRAM", N_("Hacking Program"), ["PROGRAM", "programa", "programa de hacker", "программа"]),
)

ATTRIBUTES = choices(
    ("BS", N_("BS"), ["CD", "БС", "дб"]),
    ("CC", N_("CC"), ["БР", "бб"]),
    ("PH", N_("PH"), ["FIS", "ФИЗ"]),
    ("WIP", N_("WIP"), ["VOL", "ВОЛ"]),
)

#: The Skills a participant or a reactive trooper may declare (their rules are the skills table of tables.toml).
SKILLS = choices(
    ("MOVE", N_("Move"), ["MOVE", "mover", "moverse", "двигаться", "движение"]),
    ("JUMP", N_("Jump (Short Movement Skill)"),
     ["JUMP", "saltar", "salto", "saltar corta", "saltar (habilidad corta basica)", "прыжок"]),
    ("JUMP_ENTIRE", N_("Jump (Entire Order)"),
     ["JUMP_ENTIRE", "saltar larga", "saltar (habilidad larga)", "прыжок (весь приказ)"]),
    ("IDLE", N_("Idle"), ["IDLE", "inaccion", "бездействие"]),
    ("BS_ATTACK", N_("BS Attack"), ["BS_ATTACK", "ataque cd", "disparar", "атака дб", "стрельба"]),
    ("SPECULATIVE_ATTACK", N_("Speculative Attack"),
     ["SPECULATIVE_ATTACK", "ataque especulativo", "спекулятивная атака"]),
    ("INTUITIVE_ATTACK", N_("Intuitive Attack"), ["INTUITIVE_ATTACK", "ataque intuitivo", "интуитивная атака"]),
    ("CC_ATTACK", N_("CC Attack"), ["CC_ATTACK", "ataque cc", "атака бб", "рукопашная"]),
    ("HACK", N_("Hacking Program"), ["HACK", "hackear", "programa de hacker", "взлом"]),
    ("STATE", N_("Activate a State"), ["STATE", "activar estado", "estado", "активировать состояние"]),
    ("DOCTOR", N_("Doctor"), ["DOCTOR", "medico", "врач"]),
    ("MEDIKIT", N_("MediKit"), ["MEDIKIT", "medikit", "медкомплект"]),
    ("ENGINEER", N_("Engineer"), ["ENGINEER", "ingeniero", "инженер"]),
    ("DODGE", N_("Dodge"), ["DODGE", "esquivar", "уклонение"]),
    ("RESET", N_("Reset"), ["RESET", "сброс"]),
)

TOOL_HELP = N_("BS or CC Attack: the weapon (each participant may use its own). Hacking: the Program. "
               "Activate a State: the State. Doctor, Engineer…: the piece of Equipment, if any.")

# ------------------------------------------------------------------------------------------- state
COMMAND_TOKENS = Column("command_tokens", N_("Command Tokens"), Kind.INT, required=True, minimum=0, width=12)

PLAYER_TURN = TableSchema(
    key="player_turn",
    title=N_("Player Turn"),
    help=N_("Whose Active Turn it is, and the phase in which the order sheets are played."),
    columns=(
        Column("active_player", N_("Active player"), required=True, width=14),
        Column("phase", N_("Phase of the turn"), Kind.CHOICE, required=True, choices=PHASES, width=16),
    ),
)

COMBAT_GROUPS = TableSchema(
    key="combat_groups",
    title=N_("Combat Groups"),
    columns=(
        Column("faction", N_("Faction"), required=True, width=10),
        Column("combat_group", N_("Combat Group"), Kind.INT, required=True, minimum=1, width=10),
        Column("regular_orders", N_("Regular Orders"), Kind.INT, required=True, minimum=0, width=10),
    ),
)

TROOPERS = TableSchema(
    key="troopers",
    title=N_("Troopers"),
    help=N_("The rosters: one row per trooper. Trooper IDs are unique in the whole campaign."),
    columns=(
        Column("faction", N_("Faction"), required=True, width=10),
        Column("trooper", N_("Trooper"), required=True, width=10),
        Column("unit", N_("Unit"), width=16),
        Column("combat_group", N_("Combat Group"), Kind.INT, required=True, minimum=1, width=8),
        Column("training", N_("Training"), Kind.CHOICE, required=True, choices=TRAININGS, width=10),
        Column("fireteam", N_("Fireteam"), width=10),
        Column("link", N_("Peripheral or Controller"), Kind.CHOICE, choices=LINKS, width=12),
        Column("deployment", N_("Deployment"), Kind.CHOICE, choices=DEPLOYMENTS, width=16),
        Column("marker", N_("Marker"), width=8, help=N_("The label of its Camouflaged Marker, if any.")),
        Column("super_jump", N_("Super-Jump"), Kind.CHOICE, choices=YES_NO, width=8),
        Column("can_act", N_("Can receive Orders"), Kind.CHOICE, choices=YES_NO, width=8),
        Column("own_orders", N_("Own Irregular Orders"), Kind.INT, minimum=0, width=8),
        Column("bs", N_("BS"), Kind.INT, minimum=0, width=5),
        Column("cc", N_("CC"), Kind.INT, minimum=0, width=5),
        Column("ph", N_("PH"), Kind.INT, minimum=0, width=5),
        Column("wip", N_("WIP"), Kind.INT, minimum=0, width=5),
    ),
)

TOOLS = TableSchema(
    key="tools",
    title=N_("Weapons and Equipment"),
    help=N_("What each trooper carries: weapons, Equipment, Skills and Hacking Programs, with their Burst."),
    columns=(
        Column("trooper", N_("Trooper"), required=True, width=10),
        Column("tool", N_("Weapon or Equipment"), required=True, width=18),
        Column("kind", N_("Kind"), Kind.CHOICE, choices=TOOL_KINDS, width=12),
        Column("burst", N_("Burst"), Kind.INT, minimum=0, width=6),
        Column("bonus", N_("Burst bonus"), Kind.INT, width=6),
        Column("attribute", N_("Attribute"), Kind.CHOICE, choices=ATTRIBUTES, width=8),
        Column("properties", N_("Properties"), width=18,
               help=N_("TARGETLESS, DEPLOYABLE, TEMPLATE…, separated by commas.")),
    ),
)

# ------------------------------------------------------------------------------------------ orders
def _skill_columns(k: int) -> tuple[Column, ...]:
    labels = {
        1: (N_("Skill 1"), N_("Tool 1"), N_("Target 1"), N_("B bonus 1")),
        2: (N_("Skill 2"), N_("Tool 2"), N_("Target 2"), N_("B bonus 2")),
    }[k]
    return (
        Column(f"skill{k}", labels[0], Kind.CHOICE, required=k == 1, choices=SKILLS, width=18,
               help=N_("The Skill this participant declares; every participant declares the same Skills in "
                       "the same sequence.")),
        Column(f"tool{k}", labels[1], width=16, help=TOOL_HELP),
        Column(f"target{k}", labels[2], width=12,
               help=N_("The one target of the Skill (a trooper, a Marker or an objective); the same for all.")),
        Column(f"bonus{k}", labels[3], Kind.INT, width=8,
               help=N_("Bonuses to the Burst that apply this time (the roster's own bonus is added anyway).")),
    )


ORDERS = TableSchema(
    key="orders",
    title=N_("Coordinated Orders"),
    help=N_("Active player: one row per participant. Rows with the same CO code form one Coordinated Order; "
            "orders are spent in the order of the rows."),
    columns=(
        Column("co", N_("CO"), required=True, width=8, synonyms=("OC", "orden coordinada", "КП"),
               help=N_("A code of your choice that groups the rows of one Coordinated Order, e.g. CO1.")),
        Column("trooper", N_("Trooper"), required=True, width=10, help=N_("A trooper of your roster.")),
        Column("spearhead", N_("Spearhead"), Kind.CHOICE, choices=YES_NO, width=10,
               help=N_("YES on exactly one participant: it keeps half its Burst.")),
        *_skill_columns(1),
        *_skill_columns(2),
    ),
)

REACTIONS = TableSchema(
    key="reactions",
    title=N_("AROs"),
    synonyms=("ORA", "ORAs", "reacciones", "реакции"),
    help=N_("Reactive player: one row per reactive trooper and Coordinated Order."),
    columns=(
        Column("co", N_("CO"), required=True, width=8, synonyms=("OC", "orden coordinada", "КП"),
               help=N_("The code of the enemy's Coordinated Order, as the GM announced it.")),
        Column("reactive", N_("Reactive trooper"), required=True, width=12),
        Column("aro", N_("ARO"), Kind.CHOICE, required=True, choices=SKILLS, width=16, synonyms=("ORA",),
               help=N_("The Skill declared as ARO: BS Attack, CC Attack, Dodge, Reset, Hacking Program…")),
        Column("tool", N_("Weapon or Equipment"), width=16),
        Column("target", N_("Chosen participant"), width=12,
               help=N_("Exactly one participant of the Coordinated Order (a trooper or a Marker).")),
        Column("delayed", N_("Delayed"), Kind.CHOICE, choices=YES_NO, width=8,
               help=N_("YES to delay the ARO against a Camouflaged Marker until the second Skill.")),
    ),
)

# -------------------------------------------------------------------------------------- GM input
REASONS = choices(
    ("OUT_OF_RANGE", N_("Out of range"), ["OUT_OF_RANGE", "fuera de alcance", "вне дальности"]),
    ("NO_LOF", N_("No Line of Fire"), ["NO_LOF", "LoF", "sin LDT", "LDT", "нет линии огня"]),
    ("NOT_IN_CONTACT", N_("Not in Silhouette contact"),
     ["NOT_IN_CONTACT", "sin contacto", "нет контакта"]),
    ("REMOVED", N_("Removed by an ARO"), ["REMOVED", "baja", "retirado", "выбыл"]),
    ("OTHER", N_("Other requirement"), ["OTHER", "otro", "другое"]),
)

FACTS = TableSchema(
    key="facts",
    title=N_("Table facts"),
    help=N_("One row per trooper and Skill that needs measuring: are its Requirements met (range, Line of "
            "Fire, contact)? MOD is added to the attribute for the roll. For a CC Attack, list on the "
            "Spearhead's row the allied troopers in Silhouette contact with the target."),
    optional=True,
    columns=(
        Column("co", N_("CO"), required=True, width=8),
        Column("skill", N_("Skill"), Kind.INT, required=True, minimum=1, maximum=2, width=6),
        Column("trooper", N_("Trooper"), required=True, width=10),
        Column("declared", N_("Declared"), width=36),
        Column("met", N_("Requirements met"), Kind.CHOICE, choices=YES_NO, width=10),
        Column("reason", N_("Reason"), Kind.CHOICE, choices=REASONS, width=16),
        Column("mod", N_("MOD"), Kind.INT, minimum=-20, maximum=20, width=6),
        Column("contact", N_("Allies in contact"), width=20),
        Column("against", N_("Face-to-Face against"), width=16,
               help=N_("Only to amend the engine's pairing (C12) on a participant's row: the reactive troopers its "
                       "roll is Face-to-Face against, or NONE for a Normal Roll. Empty: as the engine pairs it.")),
    ),
)
