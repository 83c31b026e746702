"""What each state and the GM are shown after a turn (spec §7).

A state sees its own treasury account, its production and repairs with the turn each arrives, what
was completed, its research dice and levels, its labs, its forces and its own rolls. Nothing of
another state's treasury, research or production is shown to it (the GM sees everything)."""

from __future__ import annotations

from typing import Any

from adjudicator.dice import Dice
from adjudicator.engine import reporting
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.reporting import headers as h
from adjudicator.engine.ruleset import Campaign, ReportTable
from adjudicator.i18n import N_, Joined, msg
from adjudicator.rulesets.inner_sphere.data import bonuses
from adjudicator.rulesets.inner_sphere.dice_viewers import roll_label, roll_viewers
from adjudicator.rulesets.inner_sphere.gm import shown_id
from adjudicator.rulesets.inner_sphere.orders.agency.common import Agency, op_label
from adjudicator.rulesets.inner_sphere.orders.common import (
    ACCOUNT,
    AGENCY,
    ECONOMY,
    GM,
    JUMPSHIPS,
    PURCHASES,
    REPAIRS,
    RESEARCH,
    money,
)
from adjudicator.rulesets.inner_sphere.orders.purchase import UNIT_LABELS
from adjudicator.rulesets.inner_sphere.orders.research import line_label
from adjudicator.rulesets.inner_sphere.phases.combats import Fight
from adjudicator.rulesets.inner_sphere.phases.end_of_turn import Event
from adjudicator.rulesets.inner_sphere.phases.movement import Movement
from adjudicator.rulesets.inner_sphere.phases.research import FactoryAttempt, LineResult
from adjudicator.rulesets.inner_sphere.schemas import EXPERIENCE, LINE_ORDER, MOVE_ACTIONS
from adjudicator.rulesets.inner_sphere.state import Job, World, amount
from adjudicator.rulesets.inner_sphere.vocabulary import factory_text

EXPERIENCE_LABELS = {c.code: c.label for c in EXPERIENCE}
ACTION_LABELS = {c.code: c.label for c in MOVE_ACTIONS}


def describe_job(job: Job, world: World, next_turn: int) -> list[Any]:
    """("Heavy mechs, factory of Hesperus, arrives in turn 7") as a row: what, where, turn."""
    system = world.systems[job.system].name if job.system in world.systems else job.system
    arrives = next_turn + job.turns_left
    if job.kind == "REGIMENT":
        text = msg("{unit}, factory of {system}, arrives in turn {turn}.", unit=msg(UNIT_LABELS[job.item]),
                   system=system, turn=arrives)
    elif job.kind == "DEFENCE":
        text = msg("Aerospace defence level {level} of {system}, ready in turn {turn}.", level=job.item,
                   system=system, turn=arrives)
    elif job.kind == "REPAIR":
        text = msg("Repair of regiment {regiment} in {system}, ready in turn {turn}.", regiment=job.name or job.item,
                   system=system, turn=arrives)
    elif job.kind == "FACTORY_REPAIR":
        text = msg("Repair of the factory of {system}, productive in turn {turn}.", system=system, turn=arrives)
    else:
        text = msg("New light factory of {system}, working in turn {turn}.", system=system, turn=arrives)
    what = job.name or (msg(UNIT_LABELS[job.item]) if job.kind == "REGIMENT" and job.item in UNIT_LABELS else job.item)
    return [text, job.system, what, arrives]


class Reporter(reporting.Reporter):
    def __init__(self, campaign: Campaign, snapshot: World, world: World, ledger: Ledger, dice: Dice,
                 lines: dict[str, list[LineResult]], attempts: dict[str, list[FactoryAttempt]],
                 events: list[Event], moves: Movement | None = None, fights: list[Fight] | None = None,
                 agency: Agency | None = None) -> None:
        self.campaign = campaign
        self.snapshot = snapshot
        self.world = world
        self.ledger = ledger
        self.dice = dice
        self.lines = lines
        self.attempts = attempts
        self.events = events
        self.moves = moves or Movement()
        self.fights = fights or []
        self.agency = agency or Agency()
        self.next_turn = campaign.turn + 1

    def treasury(self, faction: str) -> list[list[Any]]:
        lines = [x for x in self.ledger.for_faction(faction) if x.account == ACCOUNT]
        rows: list[list[Any]] = [[msg("Opening treasury"), amount(self.snapshot.treasury.get(faction, 0))]]
        income = sum(x.change for x in lines if x.reference == "income")
        rows.append([msg("Income"), amount(income)])
        for phase, label in ((ECONOMY, msg("Upkeep")), (JUMPSHIPS, msg("Jumpships")), (REPAIRS, msg("Repairs")),
                             (PURCHASES, msg("Purchases")), (AGENCY, msg("Agency")), (RESEARCH, msg("Research")),
                             (GM, msg("GM adjustments"))):
            total = sum(x.change for x in lines if x.phase == phase and x.reference != "income")
            rows.append([label, amount(total)])
        rows.append([msg("Closing treasury"), amount(self.world.treasury.get(faction, 0))])
        return rows

    def production(self, faction: str) -> list[list[Any]]:
        return [describe_job(j, self.world, self.next_turn) for j in self.world.jobs if j.faction == faction]

    def research(self, faction: str) -> list[list[Any]]:
        rows = []
        for result in self.lines.get(faction, []):
            dice = " ".join(str(v) for v in result.dice)
            rows.append([line_label(result.line), result.before, dice, result.modifier,
                         "" if result.icna is None else result.icna, result.gained, result.after,
                         ", ".join(str(level) for level in result.levels)])
        return rows

    def standing(self, faction: str) -> list[list[Any]]:
        rows = []
        for line in LINE_ORDER:
            k = (faction, line)
            if k in self.world.points or k in self.world.opened:
                rows.append([line_label(line), self.world.points.get(k, 0),
                             msg("YES") if k in self.world.opened else msg("NO")])
        return rows

    def bonus_rows(self, faction: str) -> list[list[Any]]:
        got = bonuses({line: p for (f, line), p in self.world.points.items() if f == faction})
        labels = {
            "income_pct": msg("Income, %"), "factory_income_pct": msg("Factory income, %"),
            "safe_hexes": msg("Safe jumpship hexes"), "fortress": msg("Penalty to hostile fortress rolls"),
            "ground": msg("Ground combat"), "ground_defender": msg("Ground combat as defender"),
            "stacking": msg("Stacking"), "command": msg("Command roll"), "protect": msg("Commandos protecting"),
            "sabotage": msg("Commandos sabotaging"), "research": msg("Research dice of other lines"),
            "regular_pct": msg("New regiments REGULAR, %"), "new_factories": msg("May found light factories"),
        }
        return [[label, got[name]] for name, label in labels.items() if got[name]]

    def labs(self, faction: str) -> list[list[Any]]:
        return [[lab, line_label(line) if line else "", unlock if unlock is not None else ""]
                for (_, lab), (line, unlock) in self.by_faction("labs", lambda: sorted(self.world.labs.items()),
                                                                lambda item: (item[0][0],)).get(faction, [])]

    def forces(self, faction: str) -> list[list[Any]]:
        regiments = self.by_faction("regiments", lambda: sorted(self.world.regiments.values(), key=lambda g: g.id),
                                    lambda g: (g.owner,))
        return [[r.id, r.name, msg(UNIT_LABELS[r.type]), msg(EXPERIENCE_LABELS[r.experience]),
                 r.system or "", r.jumpship or "", msg("YES") if r.damaged else msg("NO")]
                for r in regiments.get(faction, [])]

    def assets(self, faction: str) -> list[list[Any]]:
        rows = []
        systems = self.by_faction("systems", lambda: sorted(self.world.systems.values(), key=lambda y: y.hex),
                                  lambda y: (y.owner,))
        for s in systems.get(faction, []):
            factories = Joined(tuple(factory_text(f.id, f.type, f.damaged) for f in self.world.factories_in(s.hex)),
                               ", ")
            disputed = msg("YES") if s.disputed else msg("NO")
            rows.append([s.hex, s.name, money(s.income), s.defence, factories, disputed])
        return rows

    def jumpships(self, faction: str) -> list[list[Any]]:
        ships = self.by_faction("jumpships", lambda: sorted(self.world.jumpships.values(), key=lambda s: s.id),
                                lambda s: (s.owner,))
        return [[ship.id, ship.hex, ship.cls] for ship in ships.get(faction, [])]

    def rolls(self, faction: str) -> list[list[Any]]:
        """The rolls ``faction`` sees, as the dice's viewers say (dice_viewers.py: espionage dice stay with the GM,
        they would tell a spy whether its report came from a double agent)."""
        factions = self.campaign.factions
        seen = self.by_faction("rolls", self.dice.sorted_log,
                               lambda r: roll_viewers([r.purpose], factions)[r.purpose])
        return [roll_row(r) for r in seen.get(faction, [])]

    def operations(self, faction: str | None) -> list[list[Any]]:
        rows = []
        for op in self.by_faction("ops", lambda: sorted(self.agency.ops, key=lambda o: (o.faction, o.row)),
                                  lambda o: (o.faction,)).get(faction, []):
            secret = faction is not None and op.op == "353"
            rolls = ["", ""] if secret else [op.nat if op.nat is not None else "", op.eff if op.eff is not None else ""]
            gm = [op.faction] if faction is None else []
            tail = [msg("YES") if op.detected else msg("NO")] if faction is None else []
            rows.append(gm + [op.row, op_label(op.op), op.label, *rolls, *tail, op.result or ""])
        return rows

    def commandos(self, faction: str | None) -> list[list[Any]]:
        return [([] if faction else [c.owner]) + [c.id, c.system or self.world.where(c), c.regiment, c.established_turn]
                for c in sorted(self.world.commandos.values(), key=lambda c: c.id)
                if faction is None or c.owner == faction]

    def routes(self, faction: str | None) -> list[list[Any]]:
        """Each ship's route step by step with what happened and its accident roll (a faction: its own ships)."""
        steps = self.by_faction("routes", lambda: sorted(self.moves.routes,
                                                         key=lambda step: (step.ship, step.step, step.action == "")),
                                lambda step: (step.faction,))
        return [([] if faction else [x.faction]) + [x.ship, x.step, msg(ACTION_LABELS[x.action]) if x.action else "",
                                                    x.hex, x.text, x.roll]
                for x in steps.get(faction, [])]

    def factory_attempts(self, faction: str) -> list[list[Any]]:
        return [[a.system, a.stake, a.chance, a.roll, msg("success") if a.success else msg("failure")]
                for a in self.attempts.get(faction, [])]

    def faction(self, faction: str) -> list[ReportTable]:
        tables = [
            ReportTable("treasury", msg("Treasury (C)"), h(N_("Item"), N_("C")), self.treasury(faction)),
            ReportTable("events", msg("Completed and lost this turn"), h(N_("Event")),
                        [[e.message] for e in self.events if e.faction == faction]),
            ReportTable("production", msg("Production and repairs in progress"), PRODUCTION,
                        self.production(faction)),
            ReportTable("routes", msg("Jumpship routes"), ROUTE_HEADERS, self.routes(faction)),
            ReportTable("research", msg("Research dice this turn"), RESEARCH_HEADERS, self.research(faction)),
            ReportTable("factories", msg("New factory attempts"), FACTORY_HEADERS, self.factory_attempts(faction)),
            ReportTable("standing", msg("Research lines"), h(N_("Line"), N_("Points"), N_("Opened")),
                        self.standing(faction)),
            ReportTable("bonuses", msg("Research bonuses"), h(N_("Bonus"), N_("Value")), self.bonus_rows(faction)),
            ReportTable("labs", msg("Labs"), h(N_("Lab"), N_("Line"), N_("Locked until points")), self.labs(faction)),
            ReportTable("assets", msg("Systems"), ASSET_HEADERS, self.assets(faction)),
            ReportTable("jumpships", msg("Jumpships"), h(N_("ID"), N_("Hex"), N_("Class")), self.jumpships(faction)),
            ReportTable("forces", msg("Regiments"), FORCE_HEADERS, self.forces(faction)),
            ReportTable("agency", msg("Agency operations"), AGENCY_HEADERS, self.operations(faction)),
            ReportTable("commandos", msg("Your commandos"), COMMANDO_HEADERS, self.commandos(faction)),
            ReportTable("notices", msg("Agency notices"), h(N_("Notice")),
                        [[text] for f, text in self.agency.notices if f == faction]),
            ReportTable("intel", msg("Intelligence"), INTEL_HEADERS,
                        [row[1:] for f, row in self.agency.intel if f == faction]),
            ReportTable("rolls", msg("Your dice"), ROLL_HEADERS, self.rolls(faction)),
        ]
        return [t for t in tables if t.rows or t.key in ("treasury", "production")]

    def gm(self) -> list[ReportTable]:
        factions = sorted(self.campaign.factions)
        summary = []
        for f in factions:
            rows = dict((str(r[0].text), r[1]) for r in self.treasury(f))
            summary.append([f, rows["Opening treasury"], rows["Income"], rows["Upkeep"], rows["Jumpships"],
                            rows["Repairs"], rows["Purchases"], rows["Agency"], rows["Research"],
                            rows["GM adjustments"], rows["Closing treasury"]])
        production = [[j.faction, *describe_job(j, self.world, self.next_turn)] for j in self.world.jobs]
        research = [[f, *row] for f in factions for row in self.research(f)]
        faction = h(N_("Faction"))
        return [
            ReportTable("gm_treasuries", msg("Treasuries (C)"), TREASURY_HEADERS, summary),
            ReportTable("gm_events", msg("Completed and lost this turn"), h(N_("Faction"), N_("Event")),
                        [[e.faction, e.message] for e in self.events]),
            ReportTable("gm_routes", msg("Jumpship routes"), faction + ROUTE_HEADERS, self.routes(None)),
            ReportTable("gm_combats", msg("Combats (chapters 4-5)"), COMBAT_HEADERS,
                        [[shown_id(f.id), f.defender, f.attackers, f.attack_strength, f.defenders, f.defence_strength,
                          f.defence_level] for f in self.fights]),
            ReportTable("gm_production", msg("Production and repairs in progress"), faction + PRODUCTION, production),
            ReportTable("gm_research", msg("Research dice this turn"), faction + RESEARCH_HEADERS, research),
            ReportTable("gm_agency", msg("Agency operations"), faction + h(*AGENCY_COLUMNS, N_("Detected"),
                                                                             N_("Result")), self.operations(None)),
            ReportTable("gm_commandos", msg("Commandos"), faction + COMMANDO_HEADERS, self.commandos(None)),
            ReportTable("gm_notices", msg("Agency notices"), h(N_("Faction"), N_("Notice")),
                        [[f, text] for f, text in self.agency.notices]),
            ReportTable("gm_intel", msg("Intelligence"), faction + INTEL_HEADERS,
                        [[f, *row[1:]] for f, row in self.agency.intel]),
            ReportTable("gm_rolls", msg("Dice"), ROLL_HEADERS,
                        [roll_row(r) for r in self.dice.sorted_log()]),
        ]


ROUTE_HEADERS = h(N_("Jumpship"), N_("Step no."), N_("Action"), N_("Hex"), N_("What happened"), N_("Roll"))
COMBAT_HEADERS = h(N_("ID"), N_("Defender"), N_("Attacking regiments"), N_("Attack strength"),
                   N_("Defending regiments"), N_("Defence strength"), N_("Defence level"))
PRODUCTION = h(N_("What"), N_("Hex"), N_("Item"), N_("Arrives in turn"))
RESEARCH_HEADERS = h(N_("Line"), N_("Points before"), N_("Dice"), N_("Modifier"), N_("ICNA"), N_("Gained"),
                     N_("Points now"), N_("Levels reached"))
FACTORY_HEADERS = h(N_("Hex"), N_("Stake"), N_("Chance, %"), N_("d100"), N_("Result"))
ASSET_HEADERS = h(N_("Hex"), N_("Name"), N_("Income"), N_("Defence level"), N_("Factories"), N_("Disputed"))
FORCE_HEADERS = h(N_("ID"), N_("Name"), N_("Unit type"), N_("Experience"), N_("Hex"), N_("Aboard"), N_("Damaged"))
#: A roll's words first; its key beside them, verbatim, since it is what ``adjudicator verify`` recomputes.
ROLL_HEADERS = h(N_("What the roll decides"), N_("Roll key"), N_("Dice"), N_("Results"), N_("Total"))


def roll_row(r: Any) -> list[Any]:
    """One row of a dice table: what the roll decides, its key, its dice, their results and total."""
    return [roll_label(r.purpose), r.purpose, r.notation(), " ".join(map(str, r.values)), r.total]


AGENCY_COLUMNS = (N_("Row"), N_("Operation"), N_("Target"), N_("Roll"), N_("Effective roll"))
AGENCY_HEADERS = h(*AGENCY_COLUMNS, N_("Result"))
COMMANDO_HEADERS = h(N_("ID"), N_("Hex"), N_("Regiment"), N_("Established in turn"))
INTEL_HEADERS = h(N_("Subject"), N_("Item"), N_("Detail"))
TREASURY_HEADERS = h(N_("Faction"), N_("Opening treasury"), N_("Income"), N_("Upkeep"), N_("Jumpships"),
                     N_("Repairs"), N_("Purchases"), N_("Agency"), N_("Research"), N_("GM adjustments"),
                     N_("Closing treasury"))
