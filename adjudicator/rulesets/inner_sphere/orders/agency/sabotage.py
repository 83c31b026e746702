"""343–348: industrial, military and technological sabotage, and the protections that resolve just
before them (spec §5, A23, A29–A31, A45). COMM research gives +1s to protecting and sabotaging."""

from __future__ import annotations

from typing import Any

from adjudicator.dice import Dice
from adjudicator.i18n import msg
from adjudicator.rulesets.inner_sphere.orders.agency.common import (
    LINE_LABELS,
    Agency,
    Op,
    d4,
    detect,
    joined,
    op_label,
    roll,
)
from adjudicator.rulesets.inner_sphere.orders.common import Context
from adjudicator.rulesets.inner_sphere.phases.economy import research_bonuses
from adjudicator.rulesets.inner_sphere.state import World

#: What each protection counters.
COUNTERS = {"344": "343", "346": "345", "348": "347"}
EMBARKING = ("LOAD", "UNLOAD", "RETREAT", "INVADE", "RAID")


def _mark(op: Op) -> tuple[str, ...]:
    sabotage = COUNTERS.get(op.op, op.op)
    return (sabotage, op.target, op.line)


def protect(world: World, ctx: Context, dice: Dice, agency: Agency, op: Op) -> None:
    """344/346/348: success marks the target; every sabotage of it this turn has +1 on its die."""
    roll(dice, ctx, op, research_bonuses(world, op.faction)["protect"])
    if op.success:
        agency.protected.add(_mark(op))
        op.result = msg("{target} protected this turn.", target=op.label)
    else:
        op.result = msg("The protection of {target} failed.", target=op.label)


def _sabotage_roll(world: World, ctx: Context, dice: Dice, agency: Agency, op: Op) -> None:
    penalty = int(ctx.tariffs.row("sabotage", "limits")["protection"]) if _mark(op) in agency.protected else 0
    roll(dice, ctx, op, research_bonuses(world, op.faction)["sabotage"], penalty)
    if detect(dice, ctx, op):
        agency.tell(op.owner, msg("{op} by {actor} against {target} detected.", op=op_label(op.op), actor=op.faction,
                                  target=op.label))


def industrial(world: World, ctx: Context, dice: Dice, agency: Agency, op: Op) -> None:
    """343: success halts every factory of the system for 1d4 turns, this one included (A30)."""
    _sabotage_roll(world, ctx, dice, agency, op)
    name = world.systems[op.target].name
    if not op.success:
        op.result = msg("The sabotage of {system} failed.", system=name)
        return
    halts = int(ctx.tariffs.row("sabotage", "limits")["halt_dice"])
    turns = sum(d4(dice, op.purpose if n == 0 else f"{op.purpose}:{n + 1}") for n in range(halts))
    until = ctx.turn + turns - 1
    for factory in world.factories_in(op.target):
        factory.halted_until = max(factory.halted_until or 0, until)
    op.result = msg("The factories of {system} are halted for {n} turns.", system=name, n=turns)
    agency.tell(op.owner, msg("Sabotage: the factories of {system} are halted until turn {turn}.", system=name,
                              turn=until))


def military(world: World, ctx: Context, dice: Dice, agency: Agency, op: Op) -> None:
    """345: the first that applies (or all, ``military_sabotage_mode=all``): no repair progress this turn,
    left out of its loads, unloads, landings and retreats, or no part in combat (A29)."""
    _sabotage_roll(world, ctx, dice, agency, op)
    if not op.success:
        op.result = msg("The sabotage of regiment {regiment} failed.", regiment=op.target)
        return
    every = ctx.params["military_sabotage_mode"] == "all"
    effects: list[Any] = []
    repair = next(iter(world.jobs_by("REPAIR", "item").get(op.target, ())), None)
    if repair is not None:
        repair.turns_left += 1
        effects.append(msg("its repair takes one more turn"))
    named = any(op.target in step.regiments for chain in ctx.plan(op.owner).chains for step in chain.steps
                if step.action in EMBARKING)
    if named and (every or not effects):
        agency.skipped.add(op.target)
        effects.append(msg("it cannot load, unload, invade, raid or retreat this turn"))
    if every or not effects:
        agency.no_combat.add(op.target)
        effects.append(msg("it takes no part in combat this turn"))
    text = joined("; ", effects)
    op.result = msg("Regiment {regiment} sabotaged: {effects}.", regiment=op.target, effects=text)
    agency.tell(op.owner, msg("Regiment {regiment} was sabotaged: {effects}.", regiment=op.target, effects=text))


def technological(world: World, ctx: Context, dice: Dice, agency: Agency, op: Op) -> None:
    """347: the outcome is kept and applied to the target's research of this turn (see :func:`steal`)."""
    _sabotage_roll(world, ctx, dice, agency, op)
    if not op.success:
        op.result = msg("The sabotage of {target} failed.", target=op.label)
        return
    plans_on = int(ctx.tariffs.row("sabotage", "limits")["plans_on"])
    plans = op.nat == 1 and dice.d(10, f"{op.purpose}:reroll") <= plans_on
    agency.thefts.append((op, ctx.tariffs.by_roll("theft", int(op.eff or 3))["stolen"], plans))
    op.result = msg("The research of {target} is sabotaged this turn.", target=op.label)


def steal(world: World, agency: Agency, gains: dict[tuple[str, str], tuple[int, int]]) -> None:
    """Apply 347 once research is rolled: ``gains[(state, line)] = (points before, X gained)``. The target
    gains nothing; on 2 it loses X and the actor gains X, on 1 2X; top-secret plans equal its level (§5)."""
    losses: dict[tuple[str, str], int] = {}
    for op, stolen, plans in agency.thefts:
        before, gained = gains.get((op.target, op.line), (world.line_points(op.target, op.line), 0))
        share = int(stolen) * gained
        losses[(op.target, op.line)] = losses.get((op.target, op.line), 0) + share
        mine = world.line_points(op.faction, op.line) + share
        if plans:
            mine = max(mine, before)
        world.points[(op.faction, op.line)] = mine
        line = msg(LINE_LABELS[op.line])
        op.result = msg("Sabotage of {line} of {state}: {gained} points denied, {stolen} stolen; yours now {points}.",
                        line=line, state=op.target, gained=gained, stolen=share, points=mine)
        agency.tell(op.target, msg("Your {line} research was sabotaged: {lost} points lost this turn.", line=line,
                                   lost=gained + share))
    for (target, line), lost in sorted(losses.items()):
        before, _ = gains.get((target, line), (world.line_points(target, line), 0))
        world.points[(target, line)] = max(0, before - lost)
