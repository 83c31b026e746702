"""3.2 Purchases: regiments from a factory's production lines, aerospace defence levels in sequence,
and jumpships, which cannot be bought (spec §2.1, §2.3, §4.2, A12, A14, A15, A48)."""

from __future__ import annotations

from adjudicator.engine.outcome import Done, Rejection
from adjudicator.i18n import msg
from adjudicator.rulesets.inner_sphere import schemas
from adjudicator.rulesets.inner_sphere.orders.base import Bill, FactionState, SphereOrder
from adjudicator.rulesets.inner_sphere.orders.common import PURCHASES, Context, OrderRow, money
from adjudicator.rulesets.inner_sphere.schemas import FACTORY_ORDER, UNIT_TYPES
from adjudicator.rulesets.inner_sphere.state import Factory, Job, World, hex_id

UNIT_LABELS = {c.code: c.label for c in UNIT_TYPES}


def busy_lines(world: World, factory: Factory) -> int:
    return len(world.jobs_by("REGIMENT", "factory").get(factory.id, ()))


def capacity(ctx: Context, factory: Factory) -> int:
    return ctx.tariffs.factory_lines[factory.type] * int(ctx.params["units_per_line"])


def _own_system(world: World, order: OrderRow, ctx: Context, code: str) -> Rejection | str:
    system_hex = hex_id(order.get("system"))
    system = world.systems.get(system_hex)
    if system is None:
        return Rejection("E-GEN-NOTFOUND", msg("{target} does not exist.", target=system_hex), "system",
                         msg("Write the hex (XXYY) of one of your systems."))
    if system.owner != order.faction:
        return Rejection(code, msg("{system} is not your system.", system=system_hex), "system")
    if system.disputed and not ctx.params["build_in_disputed"]:
        return Rejection(code, msg("{system} is disputed: nothing can be built there.", system=system_hex),
                         "system")
    return system_hex


class Purchase(SphereOrder):
    """A row of the Purchases sheet (3.2)."""

    sheet, step, phase = schemas.PURCHASES, "3.2", PURCHASES


class BuyJumpship(Purchase):
    """3.2 a jumpship: never (the technology is lost)."""

    kind = "NS"

    def check(self, state: FactionState, order: OrderRow) -> Rejection:
        return Rejection("E-BUY-NS", msg("Jumpships cannot be purchased (the technology is lost); contact the GM."))


class BuyRegiment(Purchase):
    """3.2 a regiment from a free production line of a working factory large enough for its type."""

    kind = "REG"
    needs = ("system",)

    def assess(self, state: FactionState, order: OrderRow) -> Rejection | Bill:
        world, ctx = state.world, state.ctx
        code = order.get("unit_type")
        if code not in ctx.tariffs.units:
            return Rejection("E-BUY-TYPE", msg("Unknown unit type."), "unit_type",
                             msg("Choose a unit type from the list, e.g. Heavy mechs."))
        checked = _own_system(world, order, ctx, "E-BUY-SYS")
        if isinstance(checked, Rejection):
            return checked
        system_hex = checked
        unit = ctx.tariffs.units[code]
        minimum = FACTORY_ORDER.index(unit.factory)
        factories = world.factories_in(system_hex)
        wanted = order.get("factory")
        if wanted is not None:
            if wanted > len(factories):
                return Rejection("E-GEN-NOTFOUND", msg("{system} has no factory number {n}.", system=system_hex,
                                                       n=wanted), "factory")
            factories = [factories[wanted - 1]]
        able = [f for f in factories if FACTORY_ORDER.index(f.type) >= minimum]
        if not able:
            return Rejection("E-BUY-FACTORY", msg("There is no factory of type {type} or larger in {system}.",
                                                  type=msg(_factory_label(unit.factory)), system=system_hex),
                             "unit_type" if wanted is None else "factory")
        working = [f for f in able if not f.damaged]
        if not working:
            return Rejection("E-BUY-DAMAGED", msg("The factory in {system} is damaged.", system=system_hex),
                             "system", msg("Repair it first (sheet Repairs); it produces again the turn after."))
        free = [f for f in working if busy_lines(world, f) < capacity(ctx, f)]
        if not free:
            lines = sum(capacity(ctx, f) for f in working)
            return Rejection("E-BUY-LINE", msg("All {n} production lines in {system} are busy.", n=lines,
                                               system=system_hex), "system",
                             msg("A line builds one regiment at a time; order it when a line is free."))
        system = world.systems[system_hex]
        return Bill(unit.purchase, msg("Purchase of {unit} at the factory of {system}.", unit=msg(UNIT_LABELS[code]),
                                       system=system.name), (free[0], system, code))

    def effect(self, state: FactionState, order: OrderRow, bill: Bill) -> Done:
        factory, system, code = bill.found
        unit, turn = state.ctx.tariffs.units[code], state.ctx.turn
        name = str(order.get("name") or "").strip()
        state.world.jobs.append(Job(f"{order.faction}-T{turn}-P{order.row}", order.faction, "REGIMENT", system.hex,
                                    factory.id, code, name, unit.turns, turn))
        return Done(msg("{unit}, factory of {system}, arrives in turn {turn} ({cost} C).",
                        unit=msg(UNIT_LABELS[code]), system=system.name, turn=turn + unit.turns,
                        cost=money(unit.purchase)), cost=unit.purchase)


def _factory_label(code: str) -> str:
    from adjudicator.rulesets.inner_sphere.schemas import FACTORY_TYPES

    return next(c.label for c in FACTORY_TYPES if c.code == code)


class BuyDefence(Purchase):
    """3.2 the next aerospace defence level of an own system, one at a time, up to the top level."""

    kind = "DEF"
    needs = ("system",)

    def assess(self, state: FactionState, order: OrderRow) -> Rejection | Bill:
        world, ctx = state.world, state.ctx
        checked = _own_system(world, order, ctx, "E-DEF-SYS")
        if isinstance(checked, Rejection):
            return checked
        system = world.systems[checked]
        if system.defence >= ctx.tariffs.top_defence:
            return Rejection("E-DEF-MAX", msg("Level {level} is the maximum.", level=ctx.tariffs.top_defence),
                             "system")
        if system.hex in world.jobs_by("DEFENCE", "system"):
            return Rejection("E-DEF-BUSY", msg("A defence level is already under construction in {system}.",
                                               system=system.hex), "system")
        level = system.defence + 1
        if order.get("level") is not None and order.get("level") != level:
            return Rejection("E-DEF-SEQ", msg("{system} has defence level {level}; you may only order level "
                                              "{next}.", system=system.hex, level=system.defence, next=level),
                             "level", msg("Levels are built one after the other."))
        return Bill(ctx.tariffs.defences[level].purchase,
                    msg("Aerospace defence level {level} in {system}.", level=level, system=system.name),
                    (system, level))

    def effect(self, state: FactionState, order: OrderRow, bill: Bill) -> Done:
        system, level = bill.found
        tariff, turn = state.ctx.tariffs.defences[level], state.ctx.turn
        state.world.jobs.append(Job(f"{order.faction}-T{turn}-P{order.row}", order.faction, "DEFENCE", system.hex,
                                    "", str(level), "", tariff.turns, turn))
        return Done(msg("Aerospace defence level {level} in {system}: ready in turn {turn} ({cost} C).",
                        level=level, system=system.name, turn=turn + tariff.turns, cost=money(tariff.purchase)),
                    cost=tariff.purchase)
