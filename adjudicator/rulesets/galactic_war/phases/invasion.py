"""Invasions (§6.3): bombardment, PDS fire at the landing forces, ground combat to the end, and what a
conquest destroys; several invaders of one planet in turn, largest landing first (G15)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.dice import Dice
from adjudicator.i18n import N_, Msg, msg
from adjudicator.rulesets.galactic_war.combat import Fought, fight, invasion_succeeds
from adjudicator.rulesets.galactic_war.odds import exact
from adjudicator.rulesets.galactic_war.orders.common import Done, Rejection
from adjudicator.rulesets.galactic_war.orders.invasion import Checked, Landing, check
from adjudicator.rulesets.galactic_war.phases.books import Books
from adjudicator.rulesets.galactic_war.plans import PlanBook
from adjudicator.rulesets.galactic_war.setups import invasion_contest
from adjudicator.rulesets.galactic_war.state import World

PHASE = N_("invasion")


@dataclass
class Invasion:
    planet: str
    system: str
    invader: str
    defender: str
    odds: float | None
    fought: Fought | None
    success: bool
    row: int
    notes: list[Msg] = field(default_factory=list)


def contest_for(world: World, checked: Checked, plans: dict[str, PlanBook], params: dict[str, Any]):  # noqa: ANN201
    planet = world.planets[checked.landing.planet]
    defender = planet.owner
    scope_system = params["pds_fire_scope"] == "SYSTEM"
    defenders = [u for u in world.units.values() if u.type == "GF" and u.planet == planet.id and u.race == defender]
    pds = [u for u in world.units.values() if u.type == "PDS" and u.race == defender and u.race != checked.landing.race
           and u.planet and (u.planet == planet.id or (scope_system and u.system == planet.system)) and defender]
    race = checked.landing.race
    return invasion_contest(race, checked.landers, checked.bombarders, defender or "—",
                            sorted(defenders, key=lambda u: u.id), pds,
                            plans.get(race, PlanBook()).for_system(planet.system),
                            plans.get(defender, PlanBook()).for_system(planet.system), world.stats, params)


def run_invasions(world: World, landings: list[Landing], plans: dict[str, PlanBook], params: dict[str, Any],
                  dice: Dice, books: Books) -> tuple[list[Invasion], dict[tuple[str, int], Done | Rejection]]:
    results: list[Invasion] = []
    outcomes: dict[tuple[str, int], Done | Rejection] = {}
    by_planet: dict[str, list[Landing]] = {}
    for landing in landings:
        by_planet.setdefault(landing.planet, []).append(landing)
    # The planets' owners when the segment starts: a later invader of a planet fights whoever holds it then
    # (G15), and the clear-space check (I04) concerns the ships of the planet's owner at the start.
    owner_at_start = {p.id: p.owner for p in world.planets.values()}
    for planet_id in sorted(by_planet, key=lambda p: (world.planets[p].system if p in world.planets else "", p)):
        group = by_planet[planet_id]
        sizes = [_size(x) for x in group]
        tie = {(x.race, x.row): dice.d(10, f"invasion-order:{planet_id}:{x.race}:{x.row}") for x in group
               if sizes.count(_size(x)) > 1}
        group.sort(key=lambda x: (-_size(x), -tie.get((x.race, x.row), 0), x.race, x.row))
        for landing in group:
            checked = check(world, landing, params, owner_at_start.get(planet_id))
            if isinstance(checked, Rejection):
                outcomes[(landing.race, landing.row)] = checked
                continue
            invasion = invade(world, checked, plans, params, dice)
            results.append(invasion)
            books.record(world, PHASE, msg("Invasion of {planet}.", planet=planet_id),
                         f"invasion:{planet_id}:{landing.race}")
            outcomes[(landing.race, landing.row)] = Done(_summary(invasion))
    return results, outcomes


def _size(landing: Landing) -> int:
    return sum(w.count or 1 for w in landing.land)


def invade(world: World, checked: Checked, plans: dict[str, PlanBook], params: dict[str, Any], dice: Dice) -> Invasion:
    landing = checked.landing
    planet = world.planets[landing.planet]
    race = landing.race
    if planet.owner == race:  # G15: landing on one's own planet is a plain unload
        for unit in checked.landers:
            _land(world, unit.id, planet.id)
        return Invasion(planet.id, planet.system, race, race, None, None, True, landing.row,
                        [msg("Units unloaded on your own planet.")])
    contest = contest_for(world, checked, plans, params)
    odds = exact(contest).invasion_success if checked.landers else None
    defender = planet.owner

    def roll(round_no: int, side: str, shots: tuple[tuple[str, int], ...]) -> list[int]:
        stage = {-1: "bombard", 0: "pds"}.get(round_no, f"r{round_no}")
        who = race if side == "A" else (defender or "neutral")
        return [dice.d(10, f"invasion:{planet.id}:{race}:{landing.row}:{stage}:{who}:{unit}") for unit, _ in shots]

    fought = fight(contest, roll)
    end = fought.end
    for member in contest.attacker.members[: end.attacker_losses]:
        world.remove_unit(member.id)
    for member in contest.defender.members[: end.defender_losses]:
        world.remove_unit(member.id)
    success = bool(checked.landers) and invasion_succeeds(contest, end)
    landed_pds = [u for u in checked.landers if u.type == "PDS"]
    survivors = [u for u in checked.landers if u.id in world.units and u.type != "PDS"]
    notes: list[Msg] = []
    if success:
        for unit in [u for u in world.units.values() if u.planet == planet.id and u.race != race]:
            world.remove_unit(unit.id)  # the defender's PDS (and anything else it had there) are destroyed
        if planet.dock:
            notes.append(msg("The Space Dock on {planet} is destroyed.", planet=planet.id))
        planet.dock, planet.dock_built = False, None
        planet.owner = race
        for unit in landed_pds + [u for u in survivors if u.type == "GF"]:
            _land(world, unit.id, planet.id)
    else:
        for unit in landed_pds:
            if checked.landers and unit.id in world.units:
                world.remove_unit(unit.id)
    for unit in survivors:
        if unit.type == "FIGHTER" and unit.id in world.units:  # G18: Fighters return to space
            world.set_carrier(world.units[unit.id], "")
            world.units[unit.id].planet = ""
    if end.outcome == "CAPPED":
        notes.append(msg("The ground combat was still going after {n} rounds: decide it by hand.",
                         n=contest.max_rounds))
    return Invasion(planet.id, planet.system, race, defender or "", odds, fought, success, landing.row, notes)


def _land(world: World, unit_id: str, planet: str) -> None:
    unit = world.units[unit_id]
    unit.planet = planet
    world.set_carrier(unit, "")


def _summary(invasion: Invasion) -> Msg:
    if invasion.fought is None:
        return msg("Units unloaded on {planet}.", planet=invasion.planet)
    odds = f"{invasion.odds * 100:.1f}%" if invasion.odds is not None else "—"
    if not invasion.fought.contest.attacker.members:
        return msg("{planet} bombarded.", planet=invasion.planet)
    if invasion.success:
        return msg("{planet} conquered (chance beforehand: {odds}).", planet=invasion.planet, odds=odds)
    return msg("The invasion of {planet} failed (chance beforehand: {odds}).", planet=invasion.planet, odds=odds)
