"""Invasion declarations (§4.4): landings and bombardments, checked when the Invasion segment starts
(I01–I05) and, for what the snapshot already decides, when the workbook is checked."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from adjudicator.engine.orders import OrderType, Row
from adjudicator.engine.outcome import Note
from adjudicator.i18n import msg
from adjudicator.rulesets.galactic_war import schemas
from adjudicator.rulesets.galactic_war.orders.common import Done, RaceOrders, Rejection, Wanted, parse_units, select
from adjudicator.rulesets.galactic_war.state import Unit, World, sid

if TYPE_CHECKING:
    from adjudicator.rulesets.galactic_war.combat import Contest


@dataclass
class Landing:
    race: str
    row: int
    system: str
    planet: str
    land: list[Wanted]
    bombard: list[Wanted]


@dataclass
class Checked:
    landing: Landing
    landers: list[Unit]
    bombarders: list[Unit]


def read_row(race: str, row: int, values: Mapping[str, Any]) -> Landing:
    return Landing(race, row, sid(values.get("system")), sid(values.get("planet")), parse_units(values.get("land")),
                   parse_units(values.get("bombard")))


def static_check(world: World, landing: Landing) -> Rejection | None:
    """What the start of the turn already decides: the planet, and Fighters without Antigraviton."""
    planet = world.planets.get(landing.planet)
    if planet is None or planet.system != landing.system:
        return Rejection("I06", msg("There is no planet {planet} in {system}.", planet=landing.planet,
                                    system=landing.system), "planet", msg("Use a planet ID from the Planets sheet."))
    if not world.has_tech(landing.race, "ANTIGRAVITON") and any(
            w.unit_type == "FIGHTER" or (w.unit_id in world.units and world.units[w.unit_id].type == "FIGHTER")
            for w in landing.land):
        return Rejection("I02", msg("Fighters can join an Invasion only with Antigraviton."), "land",
                         msg("Remove the Fighters from the landing."))
    return None


def check(world: World, landing: Landing, params: dict[str, Any], space_owner: str | None = None
          ) -> Checked | Rejection:
    """Against the galaxy when the Invasion segment starts (after the space battles). ``space_owner``: the race
    whose ships make the invasion impossible (I04), the planet's owner when the segment started; by default
    its current owner."""
    refused = static_check(world, landing)
    if refused:
        return refused
    system, race = landing.system, landing.race
    planet = world.planets[landing.planet]
    aboard = [u for u in world.in_system(system) if u.race == race and u.aboard and u.type in ("GF", "PDS", "FIGHTER")]
    aboard += [u for u in world.ships(system, race) if u.type == "FIGHTER" and not u.aboard]
    landers, missing = select(world, landing.land, sorted(aboard, key=lambda u: u.id), set())
    if missing is not None:
        return Rejection("I01", msg("{units} are not aboard a Transport in {system}.", units=missing, system=system),
                         "land", msg("Land only units your Transports carry in that system."))
    dreadnoughts = [u for u in world.ships(system, race) if u.type == "DREADNOUGHT"]
    bombarders, missing = select(world, landing.bombard, dreadnoughts, set())
    if bombarders or missing is not None:
        reason = None
        if missing is not None:
            reason = msg("it is not a Dreadnought of yours in {system}", system=system)
            name = missing
        else:
            name = bombarders[0].id
            shield = any(u.type == "PDS" and u.planet == planet.id and u.race != race for u in world.units.values())
            lifts = params["antigraviton_ignores_pds"] and world.has_tech(race, "ANTIGRAVITON")
            if shield and not lifts:
                reason = msg("the planet is protected by PDS")
            elif not any(u.type == "GF" and u.planet == planet.id and u.race != race for u in world.units.values()):
                reason = msg("there are no enemy Ground Forces on it")
            elif params["bombard_requires_landing"] and not landers:
                reason = msg("there is no landing on it")
        if reason is not None:
            return Rejection("I03", msg("Dreadnought {id} cannot bomb {planet}: {reason}.", id=name,
                                        planet=planet.id, reason=reason), "bombard", None)
    if planet.owner != race:
        guard = planet.owner if space_owner is None else space_owner
        if params["invasion_requires_clear_space"] and guard and guard != race \
                and world.ships(system, guard):
            return Rejection("I04", msg("Invasion of {planet} impossible: enemy ships remain in {system}.",
                                        planet=planet.id, system=system), "planet", None)
        fighters_count = world.has_tech(race, "ANTIGRAVITON")
        if landers and not any(u.type == "GF" or (fighters_count and u.type == "FIGHTER") for u in landers):
            return Rejection("I05", msg("A landing on {planet} needs at least one Ground Force (or Fighters with "
                                        "Antigraviton).", planet=planet.id), "land", None)
    if not landers and not bombarders:
        return Rejection("C03", msg("{column} is required here.", column=msg("Land")), "land", None)
    return Checked(landing, landers, bombarders)


def advice(state: RaceOrders, landing: Landing) -> Note | None:
    """What ``check`` says beside an invasion row, at its *Odds (info)* cell: the exact chance of conquest if the
    race's own moves are carried out and nothing else changes, or why the row would then be refused."""
    from adjudicator.rulesets.galactic_war.phases.invasion import contest_for

    projected = state.galaxy.world
    checked = check(projected, landing, dict(state.params))
    if isinstance(checked, Rejection):
        return Note(checked.code, msg("If nothing else changes before the Invasion, this row will be refused: {reason}",
                                      reason=checked.message), "odds")
    if not checked.landers or state.snapshot.planets[landing.planet].owner == landing.race:
        return None
    odds = _conquest_chance(contest_for(projected, checked, {landing.race: state.plans}, dict(state.params)))
    return Note("I00", msg("Chance of conquering {planet}: {odds} (exact, against the defenders there now).",
                           planet=landing.planet, odds=f"{(odds or 0.0) * 100:.1f}%"), "odds")


@lru_cache(maxsize=1024)
def _conquest_chance(contest: Contest) -> float | None:
    """The exact chance that ``contest`` (an invasion's ground combat) ends in conquest, worked out once per
    contest: the rows of a sheet often repeat one invasion (the odds of 300 alike rows were half a check)."""
    from adjudicator.rulesets.galactic_war.odds import exact

    return exact(contest).invasion_success


class InvasionType(OrderType[Landing, RaceOrders]):
    """An invasion row: what the start of the turn decides is checked now (I02, I06); the rest when the Invasion
    segment starts, after the space battles (:func:`adjudicator.rulesets.galactic_war.phases.invasion.run_invasions`
    gives the row its outcome then)."""

    sheet = schemas.INVASIONS
    step = "invasion"

    def read(self, row: Row) -> Landing:
        return read_row(row.faction, row.number, row.values)

    def check(self, state: RaceOrders, order: Landing) -> Rejection | None:
        return static_check(state.snapshot, order)

    def carry_out(self, state: RaceOrders, order: Landing) -> Done:
        state.landings.append(order)
        note = advice(state, order) if state.advice else None
        return Done(msg("Invasion of {planet}.", planet=order.planet), notes=(note,) if note else ())
