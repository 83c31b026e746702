"""End of turn (spec §6.7, steps 2–3): repairs, production and defences progress; what is done appears.

A job that takes N turns and starts in turn t is done at the end of turn t+N−1 and exists from turn
t+N (A1). Production progresses only in a factory that was working at the start of the turn and is
not halted; a job whose system changed hands is lost (§9.6)."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.dice import Dice
from adjudicator.i18n import Msg, gettext_in, msg
from adjudicator.rulesets.inner_sphere.orders.purchase import UNIT_LABELS
from adjudicator.rulesets.inner_sphere.phases.economy import research_bonuses
from adjudicator.rulesets.inner_sphere.state import Factory, Job, Regiment, World


@dataclass(frozen=True)
class Event:
    faction: str
    message: Msg
    system: str = ""


def progresses(job: Job, snapshot: World, world: World, turn: int) -> bool:
    if job.kind != "REGIMENT":
        return True
    factory = snapshot.factories.get(job.factory)
    if factory is None or factory.damaged:
        return False  # a factory repaired this turn produces from the next turn on
    current = world.factories.get(job.factory)
    return current is not None and not (current.halted_until is not None and current.halted_until >= turn)


def lost(job: Job, world: World) -> Msg | None:
    if job.kind in ("REGIMENT", "DEFENCE", "NEW_FACTORY", "FACTORY_REPAIR"):
        if world.owner(job.system) != job.faction:
            return msg("Lost: {system} is no longer yours.", system=job.system)
        if job.factory and job.factory not in world.factories:
            return msg("Lost: the factory no longer exists.")
    if job.kind == "REPAIR":
        regiment = world.regiments.get(job.item)
        if regiment is None or regiment.owner != job.faction or regiment.jumpship:
            return msg("Repair of {regiment} cancelled.", regiment=job.name or job.item)
    return None


def advance(world: World, snapshot: World, dice: Dice, turn: int, language: str, params: dict) -> list[Event]:
    events: list[Event] = []
    kept: list[Job] = []
    for job in world.jobs:
        why = lost(job, world)
        if why is not None:
            events.append(Event(job.faction, why, job.system))
            continue
        if job.turns_left > 0 and progresses(job, snapshot, world, turn):
            job.turns_left -= 1
        if job.turns_left > 0:
            kept.append(job)
            continue
        events.append(Event(job.faction, _complete(world, job, dice, turn, language), job.system))
    world.jobs = kept
    return events


def _complete(world: World, job: Job, dice: Dice, turn: int, language: str) -> Msg:
    system = world.systems[job.system].name if job.system in world.systems else job.system
    if job.kind == "REPAIR":
        world.regiments[job.item].damaged = False
        return msg("Regiment {regiment} is repaired.", regiment=job.name or job.item)
    if job.kind == "FACTORY_REPAIR":
        world.factories[job.factory].damaged = False
        return msg("The factory of {system} is repaired and produces from next turn.", system=system)
    if job.kind == "DEFENCE":
        world.systems[job.system].defence = int(job.item)
        return msg("Aerospace defence level {level} of {system} is complete.", level=job.item, system=system)
    if job.kind == "NEW_FACTORY":
        number = len(world.factories_in(job.system)) + 1
        factory = Factory(f"{job.system}-F{number}", job.system, "LIGHT")
        world.add_factory(factory)
        return msg("A new light factory works in {system}.", system=system)
    experience = "GREEN"
    pct = research_bonuses(world, job.faction)["regular_pct"]
    if pct:
        value = dice.d(10, f"recruits:{job.id}")
        if value <= pct // 10:
            experience = "REGULAR"
    name = job.name or f"{gettext_in(language, UNIT_LABELS[job.item])} {job.id}"
    world.regiments[job.id] = Regiment(job.id, name, job.faction, job.item, experience, job.system)
    shown = job.name or job.id  # a generated name already starts with the unit type: say it once
    if experience == "REGULAR":
        return msg("{unit} {name} arrives at {system} as REGULAR.", unit=msg(UNIT_LABELS[job.item]), name=shown,
                   system=system)
    return msg("{unit} {name} arrives at {system}.", unit=msg(UNIT_LABELS[job.item]), name=shown, system=system)


def eta(job: Job, turn: int) -> int:
    """The turn in which the job's result exists, if nothing stops it (turn = the current turn)."""
    return turn + job.turns_left


def expire_unrest(world: World, snapshot: World, turn: int) -> None:
    """Timers (§6.7 step 5): unrest modifiers past their last turn go, an elapsed quiet is cleared, and a
    system that changed hands loses its statuses."""
    world.unrest_mods = [m for m in world.unrest_mods if m[3] > turn]
    for hex_, status in list(world.unrest.items()):
        if status.quiet_until is not None and status.quiet_until <= turn:
            status.quiet_until = None
        if world.owner(hex_) != snapshot.owner(hex_) and not status.force_only:
            del world.unrest[hex_]
        elif status.empty():
            del world.unrest[hex_]
    unrest = {h for h, s in world.unrest.items() if s.civil or s.military or s.revolt is not None}
    world.neutral = {r: h for r, h in world.neutral.items() if h in unrest and r in world.regiments}
