"""3.5 Research orders: labs, dice, the ICNA and new light factories (spec §2.6, §4.5, A37, A38, A50, A51).

Orders are checked and paid here; the dice are rolled in :mod:`phases.research` once every order of
the turn is paid."""

from __future__ import annotations

from adjudicator.engine.outcome import Done, Rejection
from adjudicator.i18n import msg
from adjudicator.rulesets.inner_sphere import schemas
from adjudicator.rulesets.inner_sphere.data import bonuses, next_threshold, research_levels
from adjudicator.rulesets.inner_sphere.orders.base import Bill, FactionState, SphereOrder
from adjudicator.rulesets.inner_sphere.orders.common import RESEARCH, OrderRow, money
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


class Research(SphereOrder):
    """A row of the Research sheet (3.5)."""

    sheet, step, phase = schemas.RESEARCH, "3.5", RESEARCH


class AssignLab(Research):
    """3.5 a lab set to a line; a lab locked to its line until the level it works towards is dismantled first."""

    kind = "LAB"
    needs = ("lab", "line")

    def assess(self, state: FactionState, order: OrderRow) -> Rejection | Bill:
        world, params = state.world, state.params
        lab, line, faction = int(order.get("lab")), str(order.get("line")), order.faction
        if lab > int(params["labs_per_state"]):
            return Rejection("E-RES-LAB", msg("Lab {lab} does not exist: every state has {n} labs.", lab=lab,
                                              n=params["labs_per_state"]), "lab")
        current, unlock = world.labs.get((faction, lab), ("", None))
        if current == line:
            return Rejection("E-RES-SAME", msg("Lab {lab} already works on {line}.", lab=lab,
                                               line=line_label(line)), "line")
        locked = bool(current) and (params["lab_unlock_mode"] == "never" or
                                    (unlock is not None and world.line_points(faction, current) < unlock))
        if not locked:
            return Bill()
        if order.get("dismantle") != "YES":
            return Rejection("E-RES-LOCK", msg("Lab {lab} is locked to {line} until it reaches {points} points; "
                                               "set Dismantle to YES ({cost} C) to reassign it.", lab=lab,
                                               line=line_label(current), points=unlock or "—",
                                               cost=params["lab_reassign_cost"]), "dismantle")
        return Bill(int(params["lab_reassign_cost"]),
                    msg("Lab {lab} dismantled and set to {line}.", lab=lab, line=line_label(line)))

    def effect(self, state: FactionState, order: OrderRow, bill: Bill) -> Done:
        world, lab, line, faction = state.world, int(order.get("lab")), str(order.get("line")), order.faction
        if bill.cause is not None:
            world.opened.add((faction, line))  # the 150 C covers creating the new line (§4.5)
        world.labs[(faction, lab)] = (line, next_threshold(line, world.line_points(faction, line)))
        return Done(msg("Lab {lab} now works on {line}.", lab=lab, line=line_label(line)), cost=bill.cost)


class ResearchDice(Research):
    """3.5 dice for a line, at most ``dice_per_lab`` per lab on it and ``research_max_dice`` in all; the first
    die ever of a line opens it. The dice are rolled once every order is paid (:mod:`phases.research`)."""

    kind = "ROLL"
    needs = ("line", "dice")

    def assess(self, state: FactionState, order: OrderRow) -> Rejection | Bill:
        world, params, plan = state.world, state.params, state.plan
        line, dice, faction = str(order.get("line")), int(order.get("dice")), order.faction
        allowed = labs_on(world, faction, line) * int(params["dice_per_lab"])
        if plan.dice.get(line, 0) + dice > allowed:
            return Rejection("E-RES-DICE", msg("{n} dice ordered for {line} but only {labs} labs work on it.",
                                               n=plan.dice.get(line, 0) + dice, line=line_label(line),
                                               labs=labs_on(world, faction, line)), "dice",
                             msg("Assign labs to the line first (rows above, or in an earlier turn)."))
        if sum(plan.dice.values()) + dice > int(params["research_max_dice"]):
            return Rejection("E-RES-TOTAL", msg("At most {n} research dice per turn.",
                                                n=params["research_max_dice"]), "dice")
        opened = (faction, line) in world.opened
        return Bill(roll_cost(opened, dice, params), msg("{n} research dice in {line}.", n=dice,
                                                         line=line_label(line)), opened)

    def effect(self, state: FactionState, order: OrderRow, bill: Bill) -> Done:
        line, dice, cost = str(order.get("line")), int(order.get("dice")), bill.cost
        state.world.opened.add((order.faction, line))
        state.plan.dice[line] = state.plan.dice.get(line, 0) + dice
        if not bill.found:
            return Done(msg("{line} opened; {n} dice paid ({cost} C).", line=line_label(line), n=dice,
                            cost=money(cost)), cost=cost)
        return Done(msg("{n} dice paid in {line} ({cost} C).", line=line_label(line), n=dice, cost=money(cost)),
                    cost=cost)


def icna_owner(world: World) -> str:
    return next((s.owner for s in world.systems.values() if s.icna and s.owner), "")


class IcnaRoll(Research):
    """3.5 a plain d10 for a line, for the state that controlled the ICNA at the start of the turn."""

    kind = "ICNA"
    needs = ("line",)

    def assess(self, state: FactionState, order: OrderRow) -> Rejection | Bill:
        line, faction, params = str(order.get("line")), order.faction, state.params
        if icna_owner(state.ctx.snapshot) != faction:
            return Rejection("E-RES-ICNA", msg("You do not control the ICNA."))
        if len(state.plan.icna) >= int(params["icna_rolls_per_turn"]):
            return Rejection("E-RES-ICNA", msg("ICNA rolls per turn exceeded ({n}).",
                                               n=params["icna_rolls_per_turn"]))
        return Bill(int(params["icna_cost"]), msg("ICNA roll for {line}.", line=line_label(line)))

    def effect(self, state: FactionState, order: OrderRow, bill: Bill) -> Done:
        line = str(order.get("line"))
        state.plan.icna.append((order.row, line))
        return Done(msg("ICNA roll for {line} paid ({cost} C).", line=line_label(line), cost=money(bill.cost)),
                    cost=bill.cost)


class NewFactory(Research):
    """3.5 a stake for a new light factory in an own undisputed system (Industrial development 500)."""

    kind = "FACTORY"
    needs = ("system", "stake")

    def assess(self, state: FactionState, order: OrderRow) -> Rejection | Bill:
        world, ctx, params = state.world, state.ctx, state.params
        faction, stake = order.faction, int(order.get("stake"))
        points = {line: pts for (f, line), pts in ctx.snapshot.points.items() if f == faction}
        if not bonuses(points)["new_factories"]:
            return Rejection("E-RES-FACLVL", msg("New factories require Industrial development {points}.",
                                                 points=factory_level()))
        step, top = int(params["factory_stake_step"]), int(params["max_factory_stake"])
        if stake % step or not step <= stake <= top:
            return Rejection("E-RES-STAKE", msg("The stake must be a multiple of {step}, from {step} to {top}.",
                                                step=step, top=top), "stake")
        system_hex = hex_id(order.get("system"))
        system = world.systems.get(system_hex)
        planned = {s for _, s, _ in state.plan.factories}
        pending = world.jobs_by("NEW_FACTORY", "system")
        crowded = len(world.factories_in(system_hex)) >= int(params["max_factories_per_system"])
        if (system is None or system.owner != faction or system.disputed or crowded or system_hex in planned
                or system_hex in pending):
            return Rejection("E-RES-FACSYS", msg("{system} must be your own undisputed system without a factory.",
                                                 system=system_hex), "system")
        return Bill(stake, msg("Stake for a new light factory in {system}.", system=system.name), system)

    def effect(self, state: FactionState, order: OrderRow, bill: Bill) -> Done:
        system, stake, params = bill.found, int(order.get("stake")), state.params
        state.plan.factories.append((order.row, system.hex, stake))
        chance = stake // int(params["factory_stake_step"]) * int(params["factory_pct_per_step"])
        return Done(msg("Stake of {cost} C for a new factory in {system} ({chance}% chance).", cost=money(stake),
                        system=system.name, chance=chance), cost=stake)
