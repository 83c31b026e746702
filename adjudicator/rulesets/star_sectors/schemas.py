"""The tables of Star Sectors: the order sheet, the campaign state, and the GM's input sheets."""

from __future__ import annotations

from adjudicator.engine.sheets import Column, Kind, TableSchema, choices
from adjudicator.i18n import N_

ORDER_TYPES = choices(
    ("MOVE", N_("MOVE"), ["переместить", "перемещение", "mover", "movimiento", "move"]),
    ("BUILD", N_("BUILD"), ["построить", "вложить", "construir", "build"]),
    ("FEASIBILITY", N_("FEASIBILITY"), ["осуществимость", "запрос", "viabilidad", "feasibility"]),
    ("RESEARCH_PAY", N_("RESEARCH_PAY"), ["оплата", "оплата исследования", "pagar investigacion", "research pay"]),
    ("THEFT", N_("THEFT"), ["кража", "украсть", "robo", "robar", "theft"]),
    ("DISBAND", N_("DISBAND"), ["расформировать", "роспуск", "disolver", "disband"]),
)

ORDERS = TableSchema(
    key="orders",
    title=N_("Orders"),
    help=N_("One order per row, carried out in the order of the rows."),
    columns=(
        Column(
            "order",
            N_("Order"),
            Kind.CHOICE,
            required=True,
            choices=ORDER_TYPES,
            width=16,
            help=N_("MOVE, BUILD, FEASIBILITY, RESEARCH_PAY, THEFT or DISBAND (if the GM allows it)."),
        ),
        Column(
            "square",
            N_("Square"),
            width=10,
            help=N_(
                "MOVE: the square the fleet leaves. BUILD: the square where R goes into fleet. "
                "DISBAND: the square of the fleet."
            ),
        ),
        Column("to", N_("To"), width=10, help=N_("MOVE: the neighbouring square the fleet enters.")),
        Column(
            "amount",
            N_("Amount"),
            Kind.INT_OR_ALL,
            minimum=1,
            width=10,
            help=N_("R to move, build, pay or disband: a positive whole number (MOVE and DISBAND also take ALL)."),
        ),
        Column(
            "project",
            N_("Project"),
            width=16,
            help=N_("RESEARCH_PAY: your project. THEFT: the component seen in battle."),
        ),
        Column("victim", N_("Victim"), width=14, help=N_("THEFT: the faction that fielded the component.")),
        Column(
            "path",
            N_("Path"),
            width=16,
            help=N_("MOVE with more than one step: the squares in between, separated by spaces."),
        ),
        Column(
            "description",
            N_("Description"),
            width=40,
            help=N_("FEASIBILITY: the component you want, in general terms."),
        ),
        Column(
            "cost",
            N_("Cost"),
            width=10,
            help=N_("What the order costs, computed by the workbook as you type; the GM's adjudicator recomputes it."),
            formula=(
                '=IF({col:order}="","",'
                "IF(OR({is:order:BUILD},{is:order:RESEARCH_PAY}),N({col:amount}),"
                "IF({is:order:DISBAND},-N({col:amount}),"
                "IF({is:order:FEASIBILITY},{param:feasibility_fee},"
                "IF({is:order:THEFT},IFERROR(VLOOKUP({col:project},{lookup:theft_prices},2,0),0),0)))))"
            ),
        ),
    ),
    budget="cost",
)

TREASURY = Column("treasury", N_("Treasury"), Kind.INT, required=True, minimum=0)

MAP = TableSchema(
    key="map",
    title=N_("Map"),
    columns=(
        Column("square", N_("Square"), required=True),
        Column("x", N_("X"), Kind.INT, required=True),
        Column("y", N_("Y"), Kind.INT, required=True),
        Column("income", N_("Income"), Kind.INT, required=True, minimum=0),
        Column(
            "passable",
            N_("Passable"),
            Kind.CHOICE,
            choices=choices(
                ("YES", N_("YES"), ["да", "si", "sí", "true", "1"]), ("NO", N_("NO"), ["нет", "false", "0"])
            ),
        ),
        Column("build", N_("Build"), help=N_("With build_rule GM_LIST: factions that may build here.")),
    ),
)

FLEETS = TableSchema(
    key="fleets",
    title=N_("Fleets"),
    columns=(
        Column("faction", N_("Faction"), required=True),
        Column("square", N_("Square"), required=True),
        Column("value", N_("Value"), Kind.INT, required=True, minimum=0),
        Column("label", N_("Label")),
    ),
)

PROJECT_STATUSES = choices(
    ("REQUESTED", N_("REQUESTED")),
    ("FEASIBLE", N_("FEASIBLE")),
    ("INFEASIBLE", N_("INFEASIBLE")),
    ("REJECTED", N_("REJECTED")),
    ("PAID", N_("PAID")),
)

PROJECTS = TableSchema(
    key="projects",
    title=N_("Projects"),
    columns=(
        Column("project", N_("Project"), required=True),
        Column("faction", N_("Faction"), required=True),
        Column("description", N_("Description"), width=40),
        Column("status", N_("Status"), Kind.CHOICE, required=True, choices=PROJECT_STATUSES),
        Column("price", N_("Price"), Kind.INT, minimum=0),
        Column("paid", N_("Paid"), Kind.INT, minimum=0),
        Column("available_from", N_("Available from turn"), Kind.INT, minimum=1),
        Column(
            "origin", N_("Origin"), Kind.CHOICE, choices=choices(("RESEARCH", N_("RESEARCH")), ("THEFT", N_("THEFT")))
        ),
        Column("source", N_("Source"), help=N_("THEFT: the stolen project.")),
        Column("requested_turn", N_("Requested in turn"), Kind.INT, minimum=1),
    ),
)

USAGES = TableSchema(
    key="usages",
    title=N_("Usages"),
    columns=(
        Column("project", N_("Project"), required=True),
        Column("faction", N_("Faction"), required=True),
        Column("turn", N_("Turn"), Kind.INT, required=True, minimum=1),
        Column("opponent", N_("Opponent")),
    ),
)

WINNERS = N_("the ID of faction A or B, or DRAW")

BATTLES = TableSchema(
    key="battles",
    title=N_("Battles"),
    help=N_(
        "One row per pair of factions that share squares: who won, and the share of each side's own tonnage destroyed."
    ),
    columns=(
        Column("faction_a", N_("Faction A"), required=True),
        Column("faction_b", N_("Faction B"), required=True),
        Column("squares", N_("Squares"), width=24),
        Column("winner", N_("Winner"), help=WINNERS),
        Column("pct_a", N_("Destroyed A, %"), Kind.NUMBER, minimum=0, maximum=100),
        Column("pct_b", N_("Destroyed B, %"), Kind.NUMBER, minimum=0, maximum=100),
    ),
)

SQUARE_RESULTS = TableSchema(
    key="square_results",
    title=N_("Square results"),
    optional=True,
    help=N_("Optional: the result of a separate battle in one square, replacing the pair's result there."),
    columns=(
        Column("square", N_("Square"), required=True),
        Column("faction_a", N_("Faction A"), required=True),
        Column("faction_b", N_("Faction B"), required=True),
        Column("winner", N_("Winner"), required=True, help=WINNERS),
        Column("pct_a", N_("Destroyed A, %"), Kind.NUMBER, required=True, minimum=0, maximum=100),
        Column("pct_b", N_("Destroyed B, %"), Kind.NUMBER, required=True, minimum=0, maximum=100),
    ),
)

COMPONENTS = TableSchema(
    key="components",
    title=N_("Components fielded"),
    optional=True,
    help=N_("Components each side brought onto the battlefield (they can be stolen from next turn)."),
    columns=(
        Column("faction", N_("Faction"), required=True),
        Column("project", N_("Project"), required=True),
        Column("opponent", N_("Opponent")),
    ),
)

FEASIBILITY_ANSWERS = choices(
    ("FEASIBLE", N_("FEASIBLE"), ["возможно", "viable"]),
    ("INFEASIBLE", N_("INFEASIBLE"), ["невозможно", "inviable"]),
    ("REJECTED", N_("REJECTED"), ["отклонено", "rechazado"]),
)

FEASIBILITY = TableSchema(
    key="feasibility",
    title=N_("Feasibility"),
    help=N_("The scientists' answer to each feasibility request, with the price when FEASIBLE."),
    columns=(
        Column("project", N_("Project"), required=True),
        Column("faction", N_("Faction")),
        Column("description", N_("Description"), width=40),
        Column("answer", N_("Answer"), Kind.CHOICE, choices=FEASIBILITY_ANSWERS),
        Column("price", N_("Price"), Kind.INT, minimum=1),
    ),
)

TIMINGS = choices(
    ("BEFORE_INCOME", N_("BEFORE_INCOME"), ["до дохода", "antes del ingreso"]),
    ("AFTER_INCOME", N_("AFTER_INCOME"), ["после дохода", "despues del ingreso"]),
)

PAYMENTS = TableSchema(
    key="payments",
    title=N_("Late payments"),
    optional=True,
    help=N_("Research payments players made during the turn (for example during a battle)."),
    columns=(
        Column("faction", N_("Faction"), required=True),
        Column("project", N_("Project"), required=True),
        Column("amount", N_("Amount"), Kind.INT, required=True, minimum=1),
        Column("timing", N_("When"), Kind.CHOICE, choices=TIMINGS),
    ),
)

ADJUSTMENTS = TableSchema(
    key="adjustments",
    title=N_("Adjustments"),
    optional=True,
    help=N_("Manual corrections, applied before battle losses: account is 'treasury' or a square."),
    columns=(
        Column("faction", N_("Faction"), required=True),
        Column("account", N_("Account"), required=True),
        Column("change", N_("Change"), Kind.INT, required=True),
        Column("reason", N_("Reason"), required=True, width=30),
    ),
)
