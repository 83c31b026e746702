"""Space battles (§6.2): who fights whom in each system, roles, Round 0, rounds of d10s by the shared
contest rules, retreats, trophies; several races fight sequential two-sided battles (G8)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from adjudicator.dice import Dice
from adjudicator.i18n import N_, Msg, msg
from adjudicator.rulesets.galactic_war.combat import (
    ATTACKER_HOLDS,
    CAPPED,
    DEFENDER_HOLDS,
    Fought,
    fight,
)
from adjudicator.rulesets.galactic_war.odds import Odds, exact
from adjudicator.rulesets.galactic_war.phases.books import Books
from adjudicator.rulesets.galactic_war.plans import BattlePlan, PlanBook
from adjudicator.rulesets.galactic_war.setups import SpaceSide, space_contest
from adjudicator.rulesets.galactic_war.state import Unit, World

PHASE = N_("space battle")


@dataclass
class Battle:
    system: str
    number: int
    attacker: str
    defender: str
    both_attackers: bool
    fought: Fought
    odds: Odds | None
    retreat_to: dict[str, str] = field(default_factory=dict)
    trophies: int = 0
    winner: str = ""
    notes: list[Msg] = field(default_factory=list)

    @property
    def races(self) -> tuple[str, str]:
        return (self.attacker, self.defender)


@dataclass
class BattleContext:
    snapshot: World
    came_from: dict[str, str]
    dna: set[str]  # ids of ships with "Do not attack" this turn
    plans: dict[str, PlanBook]
    params: dict[str, Any]
    dice: Dice
    books: Books
    flags: list[Msg] = field(default_factory=list)
    coexist: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)


def has_dna(world: World, ctx: BattleContext, race: str, system: str) -> bool:
    """A race's DNA stance: every one of its ships there carries the order this turn (G4)."""
    ships = world.ships(system, race)
    return bool(ships) and all(u.id in ctx.dna for u in ships)


def roles(world: World, ctx: BattleContext, x: str, y: str, system: str) -> tuple[str, str, bool]:
    """(attacker, defender, both are attackers) for two races meeting in ``system`` (G7)."""
    x_was, y_was = bool(ctx.snapshot.ships(system, x)), bool(ctx.snapshot.ships(system, y))
    if x_was != y_was:
        return (y, x, False) if x_was else (x, y, False)
    if x_was and y_was:
        x_dna, y_dna = has_dna(world, ctx, x, system), has_dna(world, ctx, y, system)
        if x_dna != y_dna:
            return (y, x, False) if x_dna else (x, y, False)
        return (x, y, True)
    x_owns, y_owns = world.owns_planet_in(x, system), world.owns_planet_in(y, system)
    if x_owns != y_owns:
        return (y, x, False) if x_owns else (x, y, False)
    return (x, y, True)


def retreat_destination(world: World, ctx: BattleContext, race: str, system: str, attacker: bool,
                        plan: BattlePlan) -> str | None:
    """Where a side may retreat (§6.2, G12, G22); the plan's preferences first, else the first legal by ID."""
    ships = world.ships(system, race)
    came = {ctx.came_from[u.id] for u in ships if u.id in ctx.came_from}

    def clear(s: str) -> bool:
        return not (world.races_with_ships(s) - {race})

    if attacker and came:
        legal = {s for s in came if clear(s)}
    else:
        legal = set()
        for s in world.neighbours(system, bool(ctx.params["wormhole_retreat"])):
            if not clear(s):
                continue
            foreign = any(u.race != race for u in world.in_system(s)) or any(
                p.owner and p.owner != race for p in world.planets_in(s))
            if not foreign or world.owns_planet_in(race, s):
                legal.add(s)
    for wanted in plan.retreat_to:
        if wanted in legal:
            return wanted
    return min(legal) if legal else None


def _roller(dice: Dice, system: str, number: int, attacker: str, defender: str) -> Callable[..., list[int]]:
    def roll(round_no: int, side: str, shots: tuple[tuple[str, int], ...]) -> list[int]:
        race = attacker if side == "A" else defender
        return [dice.d(10, f"battle:{system}:{number}:r{round_no}:{race}:{unit}") for unit, _ in shots]

    return roll


def by_size(world: World, ctx: BattleContext, system: str, races: list[str]) -> list[str]:
    """Races by ship count, largest first; equal counts are ordered by a seeded roll (G8)."""
    sizes = {r: len(world.ships(system, r)) for r in races}
    ties = sorted(r for r in races if list(sizes.values()).count(sizes[r]) > 1)
    tie_roll = {r: ctx.dice.d(10, f"battle-order:{system}:{r}") for r in ties}
    return sorted(races, key=lambda r: (-sizes[r], -tie_roll.get(r, 0), r))


def order_of_battle(world: World, ctx: BattleContext, system: str, races: list[str]) -> tuple[str, list[str]]:
    """(the race holding the system first, the others in the order they meet it) for two or more races (G8).

    One race there at the start: it holds. Nobody there: the one planet owner, else the largest arrival. Several
    there at the start: the only one that renewed "Do not attack" holds (the others attack it, roles rule 2);
    otherwise, with ``broken_truce = STARTERS_FIRST``, the races already there settle it first, largest first, and
    the survivor defends against the arrivals; with ``BY_SIZE`` every race is taken by ship count."""
    starters = [r for r in races if ctx.snapshot.ships(system, r)]
    arrivals = [r for r in races if r not in starters]
    starters_first = ctx.params["broken_truce"] == "STARTERS_FIRST"
    if len(starters) == 1:
        return starters[0], by_size(world, ctx, system, arrivals)
    if not starters:
        owners = [r for r in races if world.owns_planet_in(r, system)]
        if len(owners) == 1:
            return owners[0], by_size(world, ctx, system, [r for r in races if r != owners[0]])
        queue = by_size(world, ctx, system, races)
        return queue[0], queue[1:]
    dna_starters = [r for r in starters if has_dna(world, ctx, r, system)]
    if len(dna_starters) == 1:
        holder = dna_starters[0]
        if starters_first:
            others = [r for r in starters if r != holder]
            return holder, by_size(world, ctx, system, others) + by_size(world, ctx, system, arrivals)
        return holder, by_size(world, ctx, system, [r for r in races if r != holder])
    queue = (by_size(world, ctx, system, starters) + by_size(world, ctx, system, arrivals) if starters_first
             else by_size(world, ctx, system, races))
    return queue[0], queue[1:]


def battles_in(world: World, ctx: BattleContext, system: str) -> list[Battle]:
    races = sorted(world.races_with_ships(system))
    if len(races) < 2:
        return []
    if all(has_dna(world, ctx, r, system) for r in races):
        ctx.coexist.append((system, tuple(races)))
        return []
    if len(races) >= 3 and ctx.params["multi_race"] == "GM":
        ctx.flags.append(msg("{n} races meet in {system}: the battle is left to the GM (multi_race = GM).",
                             n=len(races), system=system))
        return []

    def peaceful(a: str, b: str) -> bool:
        return has_dna(world, ctx, a, system) and has_dna(world, ctx, b, system)

    holder, pending = order_of_battle(world, ctx, system, races)
    out: list[Battle] = []
    for _ in races:  # a race at peace with one holder meets the next holder: at most one pass per race
        deferred = []
        for arrival in pending:
            if not world.ships(system, holder):
                holder = arrival
                continue
            if not world.ships(system, arrival):
                continue
            if peaceful(holder, arrival):
                deferred.append(arrival)
                continue
            battle = one_battle(world, ctx, system, len(out) + 1, holder, arrival)
            out.append(battle)
            if battle.fought.end.outcome == ATTACKER_HOLDS:
                holder = battle.attacker
            elif battle.fought.end.outcome == DEFENDER_HOLDS:
                holder = battle.defender
            elif battle.fought.end.outcome != CAPPED:
                holder = ""  # both destroyed or both gone: the next race in the queue holds the system
        deferred = [r for r in deferred if world.ships(system, r)]
        if deferred and not world.ships(system, holder):
            holder = deferred.pop(0)
        if all(peaceful(holder, r) for r in deferred):
            break
        pending = deferred
    remaining = tuple(r for r in races if world.ships(system, r))
    if len(remaining) >= 2 and all(has_dna(world, ctx, r, system) for r in remaining):
        ctx.coexist.append((system, remaining))
    return out


def one_battle(world: World, ctx: BattleContext, system: str, number: int, x: str, y: str) -> Battle:
    attacker, defender, both = roles(world, ctx, x, y, system)
    for race in (attacker, defender):  # carried Fighters fight in space (G9)
        for unit in world.ships(system, race):
            if unit.type == "FIGHTER" and unit.aboard:
                world.set_carrier(unit, "")
    sides = {}
    destinations: dict[str, str | None] = {}
    for race, is_attacker in ((attacker, True), (defender, both)):
        plan = ctx.plans.get(race, PlanBook()).for_system(system)
        ships = world.ships(system, race)
        destination = retreat_destination(world, ctx, race, system, is_attacker, plan)
        destinations[race] = destination
        enemy = defender if race == attacker else attacker
        sides[race] = SpaceSide(
            race, ships, plan,
            pds=[u for u in world.in_system(system) if u.race == race and u.type == "PDS" and u.planet],
            assault_cannon=world.has_tech(race, "ASSAULT_CANNON"),
            cargo={u.id: len(world.cargo(u.id)) for u in ships if u.type == "TRANSPORT"},
            can_retreat=destination is not None, immediate_retreat=is_attacker,
            dna_penalty=has_dna(world, ctx, race, system) and not has_dna(world, ctx, enemy, system),
        )
    contest = space_contest(sides[attacker], sides[defender], world.stats, ctx.params, round_zero=number == 1)
    odds = exact(contest) if len(contest.attacker.members) + len(contest.defender.members) <= 60 else None
    fought = fight(contest, _roller(ctx.dice, system, number, attacker, defender))
    battle = Battle(system, number, attacker, defender, both, fought, odds)
    apply_battle(world, ctx, battle, destinations)
    return battle


def apply_battle(world: World, ctx: BattleContext, battle: Battle, destinations: dict[str, str | None]) -> None:
    contest, end = battle.fought.contest, battle.fought.end
    killed_trophies = {battle.attacker: 0, battle.defender: 0}
    for side, losses, race in ((contest.attacker, end.attacker_losses, battle.attacker),
                               (contest.defender, end.defender_losses, battle.defender)):
        for member in side.members[:losses]:
            if member.absorber:
                continue
            _destroy(world, ctx, world.units[member.id])
            if member.trophy:
                killed_trophies[race] += 1
    for side, losses, left, race in ((contest.attacker, end.attacker_losses, end.attacker_left, battle.attacker),
                                     (contest.defender, end.defender_losses, end.defender_left, battle.defender)):
        if not left:
            continue
        leaving, lost = side.retreating(losses)
        destination = destinations[race]
        assert destination is not None
        for member in lost:
            world.remove_unit(member.id)
        transports = [world.units[m.id] for m in leaving if m.type in ("TRANSPORT", "WAR_SUN")]
        for member in leaving:
            unit = world.units[member.id]
            world.move_unit(unit, destination)
            for cargo in world.cargo(unit.id):
                world.move_unit(cargo, destination)
            if unit.type == "FIGHTER":
                carrier = next(t for t in transports if len(world.cargo(t.id)) < world.capacity(t.type))
                world.set_carrier(unit, carrier.id)
        battle.retreat_to[race] = destination
        battle.notes.append(msg("{race} retreats to {system}.", race=race, system=destination))
    if end.outcome in (ATTACKER_HOLDS, DEFENDER_HOLDS):
        winner = battle.attacker if end.outcome == ATTACKER_HOLDS else battle.defender
        loser = battle.defender if winner == battle.attacker else battle.attacker
        battle.winner = winner
        battle.trophies = killed_trophies[loser] * int(ctx.params["trophy_credits"])
        world.credits[winner] = world.credits.get(winner, 0) + battle.trophies
    elif end.outcome == CAPPED:
        ctx.flags.append(msg("The battle in {system} was still going after {n} rounds: decide it by hand.",
                             system=battle.system, n=contest.max_rounds))
    ctx.books.record(world, PHASE, msg("Space battle in {system}.", system=battle.system),
                     f"battle:{battle.system}:{battle.number}")


def _destroy(world: World, ctx: BattleContext, unit: Unit) -> None:
    for cargo in world.cargo(unit.id):
        if ctx.params["cargo_dies_with_transport"]:
            world.remove_unit(cargo.id)
        else:
            world.set_carrier(cargo, "")
    world.remove_unit(unit.id)
