"""3.4 Intelligence agency: each row checked against the start of the turn and paid (spec §4.4), then
every paid operation resolved in numerical order, each protection just before its sabotage (§3, §5).

Payment touches only the acting state's treasury; resolution runs over every state's operations at
once, sorted by (operation, state, row), with dice keyed by operation, state and row."""

from __future__ import annotations

from adjudicator.dice import Dice
from adjudicator.engine.outcome import Done, Rejection
from adjudicator.i18n import msg
from adjudicator.rulesets.inner_sphere import schemas
from adjudicator.rulesets.inner_sphere.orders.agency import commandos, intel, sabotage, unrest
from adjudicator.rulesets.inner_sphere.orders.agency.common import (
    DEFENSIVE,
    LINE_LABELS,
    ORDER,
    Agency,
    Op,
    op_label,
    spec,
)
from adjudicator.rulesets.inner_sphere.orders.base import Bill, FactionState, SphereOrder
from adjudicator.rulesets.inner_sphere.orders.common import AGENCY, Context, OrderRow, money
from adjudicator.rulesets.inner_sphere.schemas import LINES
from adjudicator.rulesets.inner_sphere.state import World, hex_id, key

RESOLVERS = {"342": commandos.introduce, "343": sabotage.industrial,
             "344": sabotage.protect, "345": sabotage.military, "346": sabotage.protect,
             "347": sabotage.technological, "348": sabotage.protect, "349": unrest.discontent,
             "350": unrest.discontent, "351": unrest.revolt, "352": unrest.bread_and_circuses,
             "353": intel.espionage, "354": intel.rumours}


def _line(text: str) -> str:
    folded = text.strip().casefold()
    for choice in LINES:
        if folded in {choice.code.casefold(), choice.label.casefold(), *(s.casefold() for s in choice.synonyms)}:
            return choice.code
    return ""


def _no_commando(where: str) -> Rejection:
    return Rejection("E-AG-NOCOM", msg("You have no commando established before this turn in/at {target}.",
                                       target=where), "target",
                     msg("Introduce a commando (342) first: it may act from the next turn."))


def parse(order: OrderRow, ctx: Context) -> Op | Rejection:
    """The row as an operation on a target that exists, or why it cannot be."""
    snapshot, faction = ctx.snapshot, order.faction
    code = str(order.get("op") or "")
    if code not in ORDER:
        return Rejection("E-AG-OP", msg("Unknown operation {op}.", op=code), "op")
    text = str(order.get("target") or "").strip()
    op = Op(faction, order.row, code, text)
    if code in ("345", "346"):
        op.target = key(text)
        regiment = snapshot.regiments.get(op.target)
        if regiment is None:
            return Rejection("E-GEN-NOTFOUND", msg("{target} does not exist.", target=text or "—"), "target")
        op.owner = regiment.owner
    elif code in ("347", "348"):
        state, _, line = text.rpartition(":")
        op.target, op.line = key(state) or faction, _line(line)
        if not op.line or op.target not in ctx.factions:
            return Rejection("E-GEN-NOTFOUND", msg("{target} does not exist.", target=text or "—"), "target",
                             msg("Write STATE:LINE, e.g. DAVION:COMM."))
        op.owner = op.target
    elif code == "354":
        op.target, op.text = key(text), str(order.get("text") or "")
        if op.target not in ctx.factions:
            return Rejection("E-GEN-NOTFOUND", msg("{target} does not exist.", target=text or "—"), "target")
        op.owner = op.target
    elif code == "342" and order.get("mode") == "ATTACH":
        op.mode = "ATTACH"
    else:
        op.target = hex_id(text)
        if op.target not in snapshot.systems:
            return Rejection("E-GEN-NOTFOUND", msg("{target} does not exist.", target=text or "—"), "target")
        op.owner = snapshot.owner(op.target)
    if op.mode != "ATTACH":
        if code in DEFENSIVE and op.owner != faction:
            return Rejection("E-AG-DEF", msg("Operation {op} may only target your own system, regiment or line.",
                                             op=code), "target")
        if code not in DEFENSIVE and op.owner == faction:
            return Rejection("E-AG-OFF", msg("Operation {op} may not target your own assets.", op=code), "target")
    return op


def check(op: Op, order: OrderRow, ctx: Context) -> Rejection | None:
    """The operation's own conditions: commandos, range, bribe, factory, status (§4.4)."""
    snapshot, faction = ctx.snapshot, op.faction
    mine = ctx.established(faction)
    if op.op == "342":
        return commandos.check(op, order, ctx, mine)
    if op.op in ("343", "349", "350", "351", "353"):
        op.commandos = tuple(c.id for c in mine if snapshot.where(c) == op.target)
    elif op.op == "345":
        regiment = snapshot.regiments.get(op.target)
        where = regiment.system if regiment is not None and ctx.params.get("sabotage_commando_in_system_ok") else ""
        op.commandos = tuple(c.id for c in mine if c.regiment == op.target or (where and snapshot.where(c) == where))
    elif op.op in ("347", "354"):
        op.commandos = tuple(c.id for c in mine if snapshot.owner(snapshot.where(c)) == op.target)
    if op.op in ("343", "345", "347", "349", "350", "351", "353", "354") and not op.commandos:
        where = f"{op.target}:{LINE_LABELS[op.line]}" if op.line else op.target
        return _no_commando(where)
    if op.op == "343" and not snapshot.factories_in(op.target):
        return Rejection("E-AG-NOFACT", msg("{system} has no factory.", system=op.target), "target")
    if op.op == "352":
        return unrest.check(op, order, ctx)
    return None


def cost_of(op: Op, ctx: Context) -> int:
    table = spec(ctx, op.op)
    if op.op == "342":
        return 0 if op.mode == "ATTACH" and not ctx.params["attach_requires_roll"] else table["cost"] + op.bribe
    if op.op == "352":
        return table[op.status.lower()]
    return table["cost"]


class AgencyOperation(SphereOrder):
    """3.4 an operation (341–354) on a target that exists, by its own conditions (commandos, range, bribe,
    status), once per target and turn, paid now; every state's paid operations resolve together afterwards
    (:func:`resolve`)."""

    sheet = schemas.AGENCY
    kind_column = "op"
    step = "3.4"
    phase = AGENCY

    def foresee(self, state: FactionState, orders: list[OrderRow]) -> None:
        """A 352 row commits its regiments before any chain of the state is checked (E-MOV-REGDUP)."""
        state.plan.committed |= unrest.claims(orders, state.ctx, state.faction)

    def assess(self, state: FactionState, order: OrderRow) -> Rejection | Bill:
        ctx = state.ctx
        op = parse(order, ctx)
        if isinstance(op, Rejection):
            return op
        refused = check(op, order, ctx)
        if refused:
            return refused
        if (op.op, op.label, op.status) in state.plan.agency_targets:
            return Rejection("E-AG-DUP", msg("The same operation against the same target twice this turn."),
                             "target")
        op.cost = cost_of(op, ctx)
        return Bill(op.cost, msg("{op} on {target}.", op=op_label(op.op), target=op.label), op)

    def effect(self, state: FactionState, order: OrderRow, bill: Bill) -> Done:
        op = bill.found
        state.plan.agency.append(op)
        if not (op.op == "342" and op.mode == "NEW"):
            state.plan.agency_targets.add((op.op, op.label, op.status))
        state.plan.committed.update(op.regiments)
        return Done(msg("{op} on {target} paid ({cost} C).", op=op_label(op.op), target=op.label,
                        cost=money(op.cost)), cost=op.cost)


def resolve(world: World, ctx: Context, dice: Dice, factions: list[str]) -> Agency:
    """Resolve every paid operation in the order of §3 step 7; the effects for later phases are returned."""
    agency = Agency()
    for rid, hex_ in sorted(world.neutral.items()):  # neutral regiments sit out every combat on that planet
        regiment = world.regiments.get(rid)
        if regiment is not None and regiment.system == hex_ and not regiment.jumpship:
            agency.no_combat.add(rid)
    ops = sorted((o for f in factions for o in ctx.plan(f).agency), key=lambda o: (ORDER.index(o.op), o.faction, o.row))
    for number in ORDER:
        batch = [o for o in ops if o.op == number]
        if number == "351":
            unrest.free_outcomes(world, ctx, dice, agency)
        if number == "341":
            commandos.purge_all(world, ctx, dice, agency, batch)
        else:
            for op in batch:
                if op.commandos and not any(c in world.commandos for c in op.commandos):
                    op.result = msg("No effect: your commando was dismantled earlier this turn.")
                    continue
                RESOLVERS[number](world, ctx, dice, agency, op)
                if op.detected and ctx.params["detected_commando_removed"]:
                    _unmask(world, agency, op)
        agency.ops.extend(batch)
    return agency



def _unmask(world: World, agency: Agency, op: Op) -> None:
    """``detected_commando_removed``: the commando a detected operation used (the first, by ID, of those it
    could rely on) is dismantled (A25)."""
    for cid in [c for c in op.commandos if c in world.commandos][:1]:
        del world.commandos[cid]
        agency.tell(op.faction, msg("Your commando {commando} was detected and dismantled.", commando=cid))
