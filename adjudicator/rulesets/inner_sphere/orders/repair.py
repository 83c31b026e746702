"""3.1 Repairs of damaged regiments and factories (spec §2.2, §4.1, §6.1)."""

from __future__ import annotations

from decimal import Decimal

from adjudicator.engine.ledger import Amount
from adjudicator.engine.outcome import Done, Rejection
from adjudicator.i18n import msg
from adjudicator.rulesets.inner_sphere import schemas
from adjudicator.rulesets.inner_sphere.orders.base import Bill, FactionState, SphereOrder
from adjudicator.rulesets.inner_sphere.orders.common import REPAIRS, Context, OrderRow, money
from adjudicator.rulesets.inner_sphere.state import Job, Regiment, World, amount, hex_id, key

EXPERIENCE_SURCHARGE = {"GREEN": Decimal(0), "REGULAR": Decimal(0), "VETERAN": Decimal("0.25"), "ELITE": Decimal("0.5")}


def regiment_repair_cost(purchase: Amount, experience: str, params: dict) -> Amount:
    """C, exact: 50% of the purchase, +25% (Veteran) or +50% (Elite) of it (A9; additive: of the purchase)."""
    share = Decimal(str(params["repair_share"]))
    extra = EXPERIENCE_SURCHARGE.get(experience, Decimal(0))
    if params["repair_exp_cost_mode"] == "additive":
        return amount(purchase * (share + extra))
    return amount(purchase * share * (1 + extra))


def regiment_repair_turns(experience: str, disputed: bool, params: dict) -> int:
    base = params["repair_turns_disputed"] if disputed else params["repair_turns_own"]
    return int(base) + int(params[f"repair_extra_turns_{experience.lower()}"])


def find_regiment(world: World, text: object) -> Regiment | None:
    wanted = key(text)
    if wanted in world.regiments:
        return world.regiments[wanted]
    named = world.regiments_named(wanted)
    return named[0] if len(named) == 1 else None


def check_regiment(world: World, order: OrderRow, ctx: Context) -> tuple[Regiment, bool] | Rejection:
    regiment = find_regiment(world, order.get("target"))
    target = str(order.get("target"))
    if regiment is None:
        return Rejection("E-GEN-NOTFOUND", msg("{target} does not exist.", target=target), "target",
                         msg("Write the ID of one of your regiments."))
    if regiment.owner != order.faction:
        return Rejection("E-GEN-OWN", msg("{target} does not belong to you.", target=target), "target")
    if not regiment.damaged:
        return Rejection("E-REP-NOTDAMAGED", msg("Regiment {regiment} is not damaged.", regiment=regiment.id),
                         "target")
    busy = regiment.id in world.jobs_by("REPAIR", "item")
    if busy or regiment.id in ctx.plan(order.faction).repairing:
        return Rejection("E-REP-BUSY", msg("Regiment {regiment} is already being repaired.", regiment=regiment.id),
                         "target")
    system = world.systems.get(regiment.system)
    if regiment.jumpship or system is None or not (system.owner == order.faction or system.disputed):
        return Rejection("E-REP-LOC", msg("Regiment {regiment} must be on the planet of an own or disputed system.",
                                          regiment=regiment.id), "target",
                         msg("Repairs are made on the planet, not aboard a jumpship nor in a foreign system."))
    return regiment, system.disputed


class Repair(SphereOrder):
    """A row of the Repairs sheet (3.1)."""

    sheet, step, phase = schemas.REPAIRS, "3.1", REPAIRS
    needs = ("target",)


class RepairRegiment(Repair):
    """3.1 a damaged regiment of the state, on the planet of an own or disputed system."""

    kind = "REG"

    def assess(self, state: FactionState, order: OrderRow) -> Rejection | Bill:
        checked = check_regiment(state.world, order, state.ctx)
        if isinstance(checked, Rejection):
            return checked
        regiment, disputed = checked
        cost = regiment_repair_cost(state.ctx.tariffs.units[regiment.type].purchase, regiment.experience,
                                    state.params)
        turns = regiment_repair_turns(regiment.experience, disputed, state.params)
        return Bill(cost, msg("Repair of regiment {regiment}.", regiment=regiment.name), (regiment, turns))

    def effect(self, state: FactionState, order: OrderRow, bill: Bill) -> Done:
        regiment, turns = bill.found
        turn = state.ctx.turn
        state.plan.repairing.add(regiment.id)
        state.world.jobs.append(Job(f"{order.faction}-T{turn}-R{order.row}", order.faction, "REPAIR",
                                    regiment.system, "", regiment.id, regiment.name, turns, turn))
        return Done(msg("Regiment {regiment} under repair for {cost} C: ready in turn {turn}.",
                        regiment=regiment.name, cost=money(bill.cost), turn=turn + turns), cost=bill.cost)


class RepairFactory(Repair):
    """3.1 a damaged factory of an own system."""

    kind = "FACTORY"

    def assess(self, state: FactionState, order: OrderRow) -> Rejection | Bill:
        world, ctx = state.world, state.ctx
        system_hex = hex_id(order.get("target"))
        system = world.systems.get(system_hex)
        factories = world.factories_in(system_hex)
        if system is None or not factories:
            return Rejection("E-GEN-NOTFOUND", msg("There is no factory in {system}.", system=system_hex), "target",
                             msg("Write the hex (XXYY) of your system with the damaged factory."))
        if system.owner != order.faction:
            return Rejection("E-REP-FSYS", msg("{system} is not your system.", system=system_hex), "target")
        damaged = [f for f in factories if f.damaged]
        if not damaged:
            return Rejection("E-REP-FNOTDAMAGED", msg("The factory in {system} is not damaged.", system=system_hex),
                             "target")
        fixing = world.jobs_by("FACTORY_REPAIR", "factory")
        free = [f for f in damaged if f.id not in fixing and f.id not in state.plan.repairing]
        if not free:
            return Rejection("E-REP-BUSY", msg("The factory in {system} is already being repaired.",
                                               system=system_hex), "target")
        return Bill(int(ctx.params["factory_repair_cost"]),
                    msg("Repair of the factory in {system}.", system=system.name), (free[0], system))

    def effect(self, state: FactionState, order: OrderRow, bill: Bill) -> Done:
        factory, system = bill.found
        turn, turns = state.ctx.turn, int(state.params["factory_repair_turns"])
        state.plan.repairing.add(factory.id)
        state.world.jobs.append(Job(f"{order.faction}-T{turn}-R{order.row}", order.faction, "FACTORY_REPAIR",
                                    system.hex, factory.id, "", "", turns, turn))
        return Done(msg("Factory of {system} under repair for {cost} C: productive again in turn {turn}.",
                        system=system.name, cost=money(bill.cost), turn=turn + turns), cost=bill.cost)
