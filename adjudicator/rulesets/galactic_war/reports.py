"""What each race and the GM are shown: battles round by round (as far as the race took part in them),
invasions, placements, its units and credits. A race never sees another race's units elsewhere."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import reporting
from adjudicator.engine.reporting import headers as h
from adjudicator.engine.ruleset import Campaign, ReportTable
from adjudicator.i18n import N_, Msg, msg
from adjudicator.rulesets.galactic_war.combat import Fought
from adjudicator.rulesets.galactic_war.phases.invasion import Invasion
from adjudicator.rulesets.galactic_war.phases.placement import Placement
from adjudicator.rulesets.galactic_war.phases.space_battle import Battle, BattleContext
from adjudicator.rulesets.galactic_war.schemas import PURCHASE_TYPES
from adjudicator.rulesets.galactic_war.state import World

OUTCOME_WORDS = {
    "ATTACKER_HOLDS": N_("the attacker holds the system"),
    "DEFENDER_HOLDS": N_("the defender holds the system"),
    "BOTH_DESTROYED": N_("both sides destroyed"),
    "BOTH_RETREATED": N_("both sides retreated"),
    "CAPPED": N_("unfinished: decided by the GM"),
}


def type_label(code: str) -> Msg:
    return next((msg(c.label) for c in PURCHASE_TYPES if c.code == code), msg(code))


def pct(value: float | None) -> str:
    return "" if value is None else f"{value * 100:.1f}%"


def round_name(kind: str, round_no: int) -> Msg | int:
    if kind == "space" and round_no == 0:
        return msg("Round 0 (before the battle)")
    if kind == "ground" and round_no == -1:
        return msg("bombardment")
    if kind == "ground" and round_no == 0:
        return msg("PDS fire")
    return round_no


def dice_rows(where: str, number: Any, fought: Fought, attacker: str, defender: str) -> list[list[Any]]:
    rows = []
    for log in fought.rounds:
        name = round_name(fought.contest.kind, log.round_no)
        for race, rolls, lost in ((attacker, log.attacker_rolls, log.attacker_lost),
                                  (defender, log.defender_rolls, log.defender_lost)):
            for unit, needs, face in rolls:
                rows.append([where, number, name, race, unit, needs, face, msg("hit") if face >= needs else ""])
            if lost:
                rows.append([where, number, name, race, msg("lost: {units}", units=", ".join(lost)), None, None,
                             None])
        if log.note is not None:
            rows.append([where, number, name, "", log.note, None, None, None])
    return rows


class Reporter(reporting.Reporter):
    def __init__(self, campaign: Campaign, snapshot: World, world: World, battles: list[Battle],
                 invasions: list[Invasion], placements: list[Placement], ctx: BattleContext) -> None:
        self.campaign = campaign
        self.snapshot = snapshot
        self.world = world
        self.battles = battles
        self.invasions = invasions
        self.placements = placements
        self.ctx = ctx

    def battle_table(self, race: str | None) -> ReportTable:
        rows = []
        for b in self.battles:
            if race is not None and race not in b.races:
                continue
            end = b.fought.end
            retreats = ", ".join(f"{r}→{s}" for r, s in sorted(b.retreat_to.items()))
            rows.append([b.system, b.number, b.attacker, b.defender, msg(OUTCOME_WORDS[end.outcome]), b.winner,
                         b.trophies, retreats, pct(b.odds.outcomes["ATTACKER_HOLDS"]) if b.odds else ""])
        return ReportTable("battles", msg("Space battles"),
                           h(N_("System"), N_("Battle"), N_("Attacker"), N_("Defender"), N_("Result"), N_("Winner"),
                             N_("Trophies"), N_("Retreats"), N_("Attacker's chance")), rows)

    def battle_rounds(self, race: str | None) -> ReportTable:
        rows = []
        for b in self.battles:
            if race is None or race in b.races:
                rows += dice_rows(b.system, b.number, b.fought, b.attacker, b.defender)
        return ReportTable("battle_rounds", msg("Battle rounds"),
                           h(N_("System"), N_("Battle"), N_("Round"), N_("Race"), N_("Unit"), N_("Needs"),
                             N_("Roll"), N_("Hit")), rows)

    def invasion_table(self, race: str | None) -> ReportTable:
        rows = []
        for i in self.invasions:
            if race is not None and race not in (i.invader, i.defender):
                continue
            result = msg("conquered") if i.success and i.fought else msg("held") if i.fought else msg("unloaded")
            rows.append([i.planet, i.system, i.invader, i.defender or msg("neutral"), pct(i.odds), result,
                         i.notes[0] if i.notes else ""])
        return ReportTable("invasions", msg("Invasions"),
                           h(N_("Planet"), N_("System"), N_("Invader"), N_("Defender"), N_("Chance"), N_("Result"),
                             N_("Note")), rows)

    def invasion_rounds(self, race: str | None) -> ReportTable:
        rows = []
        for i in self.invasions:
            if i.fought is not None and (race is None or race in (i.invader, i.defender)):
                rows += dice_rows(i.planet, i.invader, i.fought, i.invader, i.defender or "—")
        return ReportTable("invasion_rounds", msg("Invasion rounds"),
                           h(N_("Planet"), N_("Invader"), N_("Round"), N_("Race"), N_("Unit"), N_("Needs"),
                             N_("Roll"), N_("Hit")), rows)

    def placement_table(self, race: str | None) -> ReportTable:
        rows = [[p.race, type_label(p.type), p.count, p.planet, ", ".join(p.placed),
                 p.problem[1] if p.problem else msg("placed")]
                for p in self.placements if race is None or p.race == race]
        return ReportTable("placement", msg("Placement"),
                           h(N_("Race"), N_("Type"), N_("Count"), N_("Planet"), N_("New units"), N_("Result")), rows)

    def units_table(self, race: str | None) -> ReportTable:
        units = self.by_faction("units", lambda: sorted(self.world.units.values(),
                                                        key=lambda unit: (unit.race, unit.system, unit.id)),
                                lambda unit: (unit.race,))
        rows = [[u.race, u.id, type_label(u.type), u.system, u.planet or None, u.aboard or None]
                for u in units.get(race, [])]
        return ReportTable("units", msg("Units at the end of the turn"),
                           h(N_("Race"), N_("ID"), N_("Type"), N_("System"), N_("Planet"), N_("Aboard")), rows)

    def planets_table(self, race: str | None) -> ReportTable:
        planets = self.by_faction("planets", lambda: sorted(self.world.planets.values(), key=lambda planet: planet.id),
                                  lambda planet: (planet.owner, self.snapshot.planets[planet.id].owner))
        rows = [[p.id, p.system, p.resources, p.owner or None, msg("YES") if p.dock else None]
                for p in planets.get(race, [])]
        return ReportTable("planets", msg("Planets"),
                           h(N_("Planet"), N_("System"), N_("Resources"), N_("Owner"), N_("Space Dock")), rows)

    def credits_table(self, race: str | None) -> ReportTable:
        races = [race] if race else sorted(self.campaign.factions)
        rows = [[r, self.snapshot.credits.get(r, 0), sum(b.trophies for b in self.battles if b.winner == r),
                 self.world.credits.get(r, 0)] for r in races]
        return ReportTable("credits", msg("Credits"),
                           h(N_("Race"), N_("Start of turn"), N_("Trophies"), N_("End of turn")), rows)

    def faction(self, race: str) -> list[ReportTable]:
        return [self.credits_table(race), self.battle_table(race), self.battle_rounds(race),
                self.invasion_table(race), self.invasion_rounds(race), self.placement_table(race),
                self.planets_table(race), self.units_table(race)]

    def gm(self) -> list[ReportTable]:
        flags = [[f] for f in self.ctx.flags] + [
            [msg("{races} share {system} without a battle ('Do not attack').", races=", ".join(races),
                 system=system)] for system, races in self.ctx.coexist]
        return [self.credits_table(None), self.battle_table(None), self.battle_rounds(None),
                self.invasion_table(None), self.invasion_rounds(None), self.placement_table(None),
                self.planets_table(None), self.units_table(None),
                ReportTable("flags", msg("For the GM"), h(N_("Note")), flags)]
