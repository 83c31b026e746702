"""3.5 Research dice and new factories, rolled once every order of the turn is paid (spec §6.4, §6.2).

Each die adds max(floor, 1d10 − 2 + R), R being the COMM research bonus (not for COMM itself); the
ICNA die is a plain 1d10. Labs whose line reached their level are unlocked."""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.dice import Dice
from adjudicator.rulesets.inner_sphere.data import levels_crossed, next_threshold
from adjudicator.rulesets.inner_sphere.orders.common import FactionPlan
from adjudicator.rulesets.inner_sphere.phases.economy import research_bonuses
from adjudicator.rulesets.inner_sphere.state import Job, World


@dataclass
class LineResult:
    line: str
    before: int
    dice: list[int] = field(default_factory=list)
    modifier: int = 0
    icna: int | None = None
    gained: int = 0
    after: int = 0
    levels: list[int] = field(default_factory=list)


@dataclass
class FactoryAttempt:
    row: int
    system: str
    stake: int
    roll: int
    chance: int
    success: bool


def die_points(natural: int, minus: int, bonus: int, floor: int) -> int:
    return max(floor, natural - minus + bonus)


def roll(world: World, faction: str, plan: FactionPlan, dice: Dice, params: dict) -> list[LineResult]:
    """Roll the faction's paid dice and add the points; returns what happened line by line."""
    comm = research_bonuses(world, faction)["research"]
    results: dict[str, LineResult] = {}
    for line, n in sorted(plan.dice.items()):
        result = results.setdefault(line, LineResult(line, world.line_points(faction, line)))
        result.modifier = 0 if line == "COMM" else comm
        result.dice = list(dice.roll(f"research:{faction}:{line}", 10, n).values)
        result.gained += sum(die_points(v, int(params["research_die_minus"]), result.modifier,
                                        int(params["research_die_floor"])) for v in result.dice)
    for row, line in plan.icna:
        result = results.setdefault(line, LineResult(line, world.line_points(faction, line)))
        result.icna = dice.d(10, f"icna:{faction}:row{row}")
        result.gained += result.icna
    for line, result in sorted(results.items()):
        result.after = result.before + result.gained
        world.points[(faction, line)] = result.after
        result.levels = levels_crossed(line, result.before, result.after)
    unlock_labs(world, faction, params)
    return [results[k] for k in sorted(results)]


def unlock_labs(world: World, faction: str, params: dict) -> None:
    """A lab is free to change line once its line reached the level it was working towards (A37)."""
    if params["lab_unlock_mode"] == "never":
        return
    for (f, lab), (line, unlock) in list(world.labs.items()):
        if f == faction and line and unlock is not None and world.line_points(f, line) >= unlock:
            world.labs[(f, lab)] = (line, None)


def found_factories(world: World, faction: str, plan: FactionPlan, dice: Dice, params: dict,
                    turn: int) -> list[FactoryAttempt]:
    """d100 ≤ 5% per 100 C staked founds a light factory, operational after ``new_factory_turns`` (A41)."""
    out = []
    for row, system, stake in plan.factories:
        chance = stake // int(params["factory_stake_step"]) * int(params["factory_pct_per_step"])
        value = dice.d(100, f"new_factory:{faction}:{system}")
        success = value <= chance
        if success:
            world.jobs.append(Job(f"{faction}-T{turn}-F{row}", faction, "NEW_FACTORY", system, "", "LIGHT", "",
                                  int(params["new_factory_turns"]), turn))
        out.append(FactoryAttempt(row, system, stake, value, chance, success))
    return out


def lab_target(line: str, points: int) -> int | None:
    return next_threshold(line, points)
