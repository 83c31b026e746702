"""3.5 Research orders: labs, dice, the ICNA and new light factories (spec §2.6, §4.5, A37, A38, A50, A51).

Orders are checked and paid here; the dice are rolled in :mod:`phases.research` once every order of
the turn is paid."""

from __future__ import annotations

from adjudicator.i18n import msg
from adjudicator.rulesets.inner_sphere.data import bonuses, next_threshold, research_levels
from adjudicator.rulesets.inner_sphere.orders.common import (
    RESEARCH,
    Context,
    Done,
    OrderRow,
    Rejection,
    money,
    pay,
    required,
)
from adjudicator.rulesets.inner_sphere.schemas import LINES
from adjudicator.rulesets.inner_sphere.state import World, hex_id

LINE_LABELS = {c.code: c.label for c in LINES}


def line_label(line: str) -> object:
    return msg(LINE_LABELS.get(line, line))


def factory_level() -> int:
    """The Industrial development points that allow new factories (500 in the tables)."""
    return next(lv["points"] for lv in research_levels()["IND"] if lv.get("new_factories"))


def labs_on(world: World, faction: str, line: str) -> int:
    return sum(1 for (f, _), (ln, _) in world.labs.items() if f == faction and ln == line)


def roll_cost(opened: bool, dice: int, params: dict) -> int:
    """Cents: the first die ever of a line opens it (100), every other die costs 50 (W7: 300, then 250)."""
    die = int(params["research_die_cost"])
    if dice <= 0:
        return 0
    first = int(params["research_open_cost"]) if not opened else die
    return first + die * (dice - 1)


def carry_out(world: World, order: OrderRow, ctx: Context) -> Done | Rejection:
    if order.kind == "LAB":
        return _lab(world, order, ctx)
    if order.kind == "ROLL":
        return _roll(world, order, ctx)
    if order.kind == "ICNA":
        return _icna(world, order, ctx)
    return _factory(world, order, ctx)


def _lab(world: World, order: OrderRow, ctx: Context) -> Done | Rejection:
    refused = required(order, "lab", "line")
    if refused:
        return refused
    lab, line, faction = int(order.get("lab")), str(order.get("line")), order.faction
    if lab > int(ctx.params["labs_per_state"]):
        return Rejection("E-RES-LAB", msg("Lab {lab} does not exist: every state has {n} labs.", lab=lab,
                                          n=ctx.params["labs_per_state"]), "lab")
    current, unlock = world.labs.get((faction, lab), ("", None))
    if current == line:
        return Rejection("E-RES-SAME", msg("Lab {lab} already works on {line}.", lab=lab, line=line_label(line)),
                         "line")
    locked = bool(current) and (ctx.params["lab_unlock_mode"] == "never" or
                                (unlock is not None and world.line_points(faction, current) < unlock))
    dismantle = order.get("dismantle") == "YES"
    cost = 0
    if locked:
        if not dismantle:
            return Rejection("E-RES-LOCK", msg("Lab {lab} is locked to {line} until it reaches {points} points; "
                                               "set Dismantle to YES ({cost} C) to reassign it.", lab=lab,
                                               line=line_label(current), points=unlock or "—",
                                               cost=ctx.params["lab_reassign_cost"]), "dismantle")
        cost = int(ctx.params["lab_reassign_cost"])
        refused = pay(world, ctx, order, cost, RESEARCH,
                      msg("Lab {lab} dismantled and set to {line}.", lab=lab, line=line_label(line)))
        if refused:
            return refused
        world.opened.add((faction, line))  # the 150 C covers creating the new line (§4.5)
    world.labs[(faction, lab)] = (line, next_threshold(line, world.line_points(faction, line)))
    return Done(msg("Lab {lab} now works on {line}.", lab=lab, line=line_label(line)), cost=cost)


def _roll(world: World, order: OrderRow, ctx: Context) -> Done | Rejection:
    refused = required(order, "line", "dice")
    if refused:
        return refused
    line, dice, faction = str(order.get("line")), int(order.get("dice")), order.faction
    plan = ctx.plan(faction)
    allowed = labs_on(world, faction, line) * int(ctx.params["dice_per_lab"])
    if plan.dice.get(line, 0) + dice > allowed:
        return Rejection("E-RES-DICE", msg("{n} dice ordered for {line} but only {labs} labs work on it.",
                                           n=plan.dice.get(line, 0) + dice, line=line_label(line),
                                           labs=labs_on(world, faction, line)), "dice",
                         msg("Assign labs to the line first (rows above, or in an earlier turn)."))
    if sum(plan.dice.values()) + dice > int(ctx.params["research_max_dice"]):
        return Rejection("E-RES-TOTAL", msg("At most {n} research dice per turn.", n=ctx.params["research_max_dice"]),
                         "dice")
    opened = (faction, line) in world.opened
    cost = roll_cost(opened, dice, ctx.params)
    cause = msg("{n} research dice in {line}.", n=dice, line=line_label(line))
    refused = pay(world, ctx, order, cost, RESEARCH, cause)
    if refused:
        return refused
    world.opened.add((faction, line))
    plan.dice[line] = plan.dice.get(line, 0) + dice
    if not opened:
        return Done(msg("{line} opened; {n} dice paid ({cost} C).", line=line_label(line), n=dice, cost=money(cost)),
                    cost=cost)
    return Done(msg("{n} dice paid in {line} ({cost} C).", line=line_label(line), n=dice, cost=money(cost)), cost=cost)


def icna_owner(world: World) -> str:
    return next((s.owner for s in world.systems.values() if s.icna and s.owner), "")


def _icna(world: World, order: OrderRow, ctx: Context) -> Done | Rejection:
    refused = required(order, "line")
    if refused:
        return refused
    line, faction = str(order.get("line")), order.faction
    if icna_owner(ctx.snapshot) != faction:
        return Rejection("E-RES-ICNA", msg("You do not control the ICNA."))
    plan = ctx.plan(faction)
    if len(plan.icna) >= int(ctx.params["icna_rolls_per_turn"]):
        return Rejection("E-RES-ICNA", msg("ICNA rolls per turn exceeded ({n}).", n=ctx.params["icna_rolls_per_turn"]))
    cost = int(ctx.params["icna_cost"])
    refused = pay(world, ctx, order, cost, RESEARCH, msg("ICNA roll for {line}.", line=line_label(line)))
    if refused:
        return refused
    plan.icna.append((order.row, line))
    return Done(msg("ICNA roll for {line} paid ({cost} C).", line=line_label(line), cost=money(cost)), cost=cost)


def _factory(world: World, order: OrderRow, ctx: Context) -> Done | Rejection:
    refused = required(order, "system", "stake")
    if refused:
        return refused
    faction, stake = order.faction, int(order.get("stake"))
    points = {line: pts for (f, line), pts in ctx.snapshot.points.items() if f == faction}
    if not bonuses(points)["new_factories"]:
        return Rejection("E-RES-FACLVL", msg("New factories require Industrial development {points}.",
                                             points=factory_level()))
    step, top = int(ctx.params["factory_stake_step"]), int(ctx.params["max_factory_stake"])
    if stake % step or not step <= stake <= top:
        return Rejection("E-RES-STAKE", msg("The stake must be a multiple of {step}, from {step} to {top}.",
                                            step=step, top=top), "stake")
    system_hex = hex_id(order.get("system"))
    system = world.systems.get(system_hex)
    planned = {s for _, s, _ in ctx.plan(faction).factories}
    pending = {j.system for j in world.jobs if j.kind == "NEW_FACTORY"}
    crowded = len(world.factories_in(system_hex)) >= int(ctx.params["max_factories_per_system"])
    if (system is None or system.owner != faction or system.disputed or crowded or system_hex in planned
            or system_hex in pending):
        return Rejection("E-RES-FACSYS", msg("{system} must be your own undisputed system without a factory.",
                                             system=system_hex), "system")
    cost = stake
    refused = pay(world, ctx, order, cost, RESEARCH, msg("Stake for a new light factory in {system}.",
                                                         system=system.name))
    if refused:
        return refused
    ctx.plan(faction).factories.append((order.row, system_hex, stake))
    chance = stake // step * int(ctx.params["factory_pct_per_step"])
    return Done(msg("Stake of {cost} C for a new factory in {system} ({chance}% chance).", cost=money(cost),
                    system=system.name, chance=chance), cost=cost)
