"""349–352: civil and military discontent, revolts with their outcome table, and bread and circuses
with its lasting modifiers (spec §5, A4, A5, A32–A34). Control changes wait for the end of the turn."""

from __future__ import annotations

from adjudicator.dice import Dice
from adjudicator.i18n import msg
from adjudicator.rulesets.inner_sphere.orders.agency.common import (
    REBELS,
    STATUS_LABELS,
    Agency,
    Op,
    detect,
    joined,
    roll,
    spec,
)
from adjudicator.rulesets.inner_sphere.orders.common import Context, OrderRow, Rejection, required
from adjudicator.rulesets.inner_sphere.state import World, hex_id, key


def _names(order: OrderRow) -> tuple[str, ...]:
    return tuple(key(x) for x in str(order.get("regiments") or "").replace(";", ",").split(",") if x.strip())


def claims(rows: list[OrderRow], ctx: Context, faction: str) -> set[str]:
    """The regiments the state commits by its 352 rows (own and on the planet the row names at the start of
    the turn): they stay on the planet, and a jumpship chain of the state that names one is refused with
    E-MOV-REGDUP, "also in another sheet's order" (spec §4.3, §5 352)."""
    out: set[str] = set()
    for o in rows:
        if o.sheet != "agency" or str(o.get("op") or "") != "352":
            continue
        target = hex_id(str(o.get("target") or ""))
        for rid in _names(o):
            regiment = ctx.snapshot.regiments.get(rid)
            if regiment is not None and regiment.owner == faction and not regiment.jumpship and \
                    regiment.system == target:
                out.add(rid)
    return out


def check(op: Op, order: OrderRow, ctx: Context) -> Rejection | None:
    """352: the status must stand at the start of the turn; the committed regiments are own and on the planet."""
    refused = required(order, "status") if order.get("status") in (None, "") else None
    if refused:
        return Rejection("E-AG-NOSTATUS", msg("{system} has no CIVIL/MILITARY/REVOLT status.", system=op.target),
                         "status")
    op.status = str(order.get("status"))
    status = ctx.snapshot.unrest.get(op.target)
    present = status is not None and {"CIVIL": status.civil, "MILITARY": status.military,
                                      "REVOLT": status.revolt is not None}[op.status]
    if not present:
        return Rejection("E-AG-NOSTATUS", msg("{system} has no CIVIL/MILITARY/REVOLT status.", system=op.target),
                         "status")
    names = _names(order)
    for rid in names:
        regiment = ctx.snapshot.regiments.get(rid)
        if regiment is None or regiment.owner != op.faction or regiment.jumpship or regiment.system != op.target:
            return Rejection("E-AG-REGLOC", msg("{regiment} is not your regiment on the planet of {system}.",
                                                regiment=rid, system=op.target), "regiments")
    op.regiments = names
    return None


def _quiet(world: World, hex_: str, turn: int) -> bool:
    status = world.unrest.get(hex_)
    return status is not None and status.quiet_until is not None and status.quiet_until >= turn


def discontent(world: World, ctx: Context, dice: Dice, agency: Agency, op: Op) -> None:
    """349/350: success sets the status; 349 on 1 and 350 on 1–2 also count as a 351 (outcome roll only)."""
    name = world.systems[op.target].name
    what = "CIVIL" if op.op == "349" else "MILITARY"
    if _quiet(world, op.target, ctx.turn):
        op.result = msg("{system} is quiet: the operation fails.", system=name)
        return
    roll(dice, ctx, op, world.unrest_mod(op.target, ctx.turn))
    if detect(dice, ctx, op):
        agency.tell(op.owner, msg("{actor} was found fomenting {status} in {system}.", actor=op.faction,
                                  status=msg(STATUS_LABELS[what]), system=name))
    if not op.success:
        op.result = msg("No {status} in {system}.", status=msg(STATUS_LABELS[what]), system=name)
        return
    status = world.status(op.target)
    if what == "CIVIL":
        status.civil = True
    else:
        status.military = True
    op.result = msg("{status} in {system}.", status=msg(STATUS_LABELS[what]), system=name)
    agency.tell(op.owner, msg("{status} broke out in {system}.", status=msg(STATUS_LABELS[what]), system=name))
    if op.eff is not None and op.eff <= int(spec(ctx, op.op).get("revolt_up_to", 0)):
        agency.revolts.append((op.target, op.faction, op.purpose))


def free_outcomes(world: World, ctx: Context, dice: Dice, agency: Agency) -> None:
    """The 351 outcome rolls won by 349/350 successes of 1 (1–2), at the 351 step (A32)."""
    for hex_, instigator, purpose in sorted(agency.revolts):
        if not _quiet(world, hex_, ctx.turn):
            outcome(world, ctx, dice, agency, hex_, instigator, purpose)


def revolt(world: World, ctx: Context, dice: Dice, agency: Agency, op: Op) -> None:
    """351: success (1–5, blocked while quiet) rolls the outcome table."""
    name = world.systems[op.target].name
    if _quiet(world, op.target, ctx.turn):
        op.result = msg("{system} is quiet: the operation fails.", system=name)
        return
    roll(dice, ctx, op, world.unrest_mod(op.target, ctx.turn))
    if detect(dice, ctx, op):
        agency.tell(op.owner, msg("{actor} was found fomenting a revolt in {system}.", actor=op.faction, system=name))
    if not op.success:
        op.result = msg("No revolt in {system}.", system=name)
        return
    op.result = outcome(world, ctx, dice, agency, op.target, op.faction, op.purpose)


def _troops(world: World, hex_: str, owner: str) -> list[str]:
    return sorted(r.id for r in world.regiments.values() if r.owner == owner and r.system == hex_ and not r.jumpship)


def outcome(world: World, ctx: Context, dice: Dice, agency: Agency, hex_: str, instigator: str, purpose: str) -> object:
    """The revolt table (``revolt`` and ``revolt_outcomes`` of tables.toml): o = d10 − 3·military − 2·civil
    (A4); 10 disputed, 7–9 and 4–6 severity 1 and 3, 2–3 control passes and each regiment rolls (7–10
    defects), 1 all defect. No troops: control passes as on the first row of the table (A33)."""
    system, owner = world.systems[hex_], world.owner(hex_)
    status = world.status(hex_)
    troops = _troops(world, hex_, owner)
    weights = ctx.tariffs.row("revolt", "roll")
    if not troops and ctx.params["revolt_no_troops"] == "transfer":
        o = 1
    else:
        o = dice.d(10, f"{purpose}:outcome") - weights["military"] * status.military - weights["civil"] * status.civil
        o = min(10, max(1, o))
    row = ctx.tariffs.by_roll("revolt_outcomes", o)
    defectors: list[str] = []
    if row["passes"] and row["defect"] == "all":
        defectors = troops
    elif row["passes"] and row["defect"] == "roll":
        defectors = [r for r in troops if dice.d(10, f"{purpose}:loyal:{r}") >= weights["defects_from"]]
    status.instigator = instigator
    if not row["passes"] or status.force_only:
        severity = int(row["severity"])
        status.revolt = max(status.revolt or 0, severity)
        system.disputed = True
        text = msg("Revolt in {system}: the system is disputed (severity {n}).", system=system.name, n=status.revolt)
    else:
        agency.transfers.append((hex_, instigator))
        agency.defections += [(r, instigator) for r in defectors]
        if len(defectors) < len(troops):
            system.disputed = True
        text = msg("Revolt in {system}: it passes to {state} at the end of the turn; regiments defecting: {list}.",
                   system=system.name, state=instigator, list=", ".join(defectors) or "—")
    agency.tell(owner, text)
    return text


def bread_and_circuses(world: World, ctx: Context, dice: Dice, agency: Agency, op: Op) -> None:
    """352 (A34, the ``bread_and_circuses`` and ``bread_fates`` tables): 1 removed, quiet 3 turns, then −2
    for 5; 2–4 removed, quiet 1, then −1 for 3; 5–7 removed; 8–9 stays, +1 for 3 turns; 10 kept only by force
    of arms (or to REBELS), +3 for 10 turns. On a natural 10 each committed regiment rolls: 1 defects, 2–3
    neutral, 4–10 loses the turn."""
    t, name = ctx.turn, world.systems[op.target].name
    status = world.status(op.target)
    standing = {"CIVIL": status.civil, "MILITARY": status.military, "REVOLT": status.revolt is not None}[op.status]
    if not standing:
        op.result = msg("{system} has no CIVIL/MILITARY/REVOLT status.", system=op.target)
        return
    penalty = (status.revolt or 0) if op.status == "REVOLT" else 0
    eff = roll(dice, ctx, op, len(op.regiments), penalty)
    label = msg(STATUS_LABELS[op.status])
    row = ctx.tariffs.by_roll("bread_and_circuses", eff)
    quiet, mod, turns = int(row["quiet"]), int(row["modifier"]), int(row["turns"])
    if quiet:
        status.quiet_until = max(status.quiet_until or 0, t + quiet)
    if mod and turns:
        world.unrest_mods.append((op.target, mod, t + quiet + 1, t + quiet + turns))
    if row["removed"]:
        if op.status == "CIVIL":
            status.civil = False
        elif op.status == "MILITARY":
            status.military = False
        else:
            status.revolt, status.instigator = None, ""
        op.result = msg("{status} of {system} quelled.", status=label, system=name)
    elif not row["rises"]:
        op.result = msg("{status} of {system} worsens.", status=label, system=name)
    else:
        if ctx.params["bread_10_mode"] == "rebels":
            agency.transfers.append((op.target, REBELS))
            op.result = msg("{system} rises: it passes to the rebels at the end of the turn.", system=name)
        else:
            status.force_only = True
            op.result = msg("{system} can now change hands only by force of arms.", system=name)
    if op.nat == int(ctx.tariffs.row("bread_fates", "roll")["on"]):
        to = status.instigator if op.status == "REVOLT" and status.instigator else REBELS
        fates = []
        for rid in op.regiments:
            fate = ctx.tariffs.by_roll("bread_fates", dice.d(10, f"{op.purpose}:unit:{rid}"))["fate"]
            if fate == "defects":
                agency.defections.append((rid, to))
                fates.append(msg("{regiment} defects", regiment=rid))
            elif fate == "neutral":
                agency.no_combat.add(rid)
                world.neutral[rid] = op.target
                fates.append(msg("{regiment} stays neutral", regiment=rid))
            else:
                agency.skipped.add(rid)
                agency.no_combat.add(rid)
                fates.append(msg("{regiment} loses the turn", regiment=rid))
        if fates:
            op.result = msg("{result} {fates}.", result=op.result, fates=joined(", ", fates))


def apply_transfers(world: World, agency: Agency) -> list[tuple[str, object]]:
    """End of turn (§6.7 step 4): systems and regiments change sides; statuses are cleared."""
    told = []
    for rid, to in sorted(set(agency.defections)):
        regiment = world.regiments.get(rid)
        if regiment is not None:
            told.append((regiment.owner, msg("Regiment {regiment} defected to {state}.", regiment=rid, state=to)))
            regiment.owner = to
            told.append((to, msg("Regiment {regiment} ({name}) joined you.", regiment=rid, name=regiment.name)))
    for hex_, to in sorted(set(agency.transfers)):
        system = world.systems[hex_]
        status = world.unrest.get(hex_)
        if status is not None and status.force_only and to != REBELS:
            continue
        told.append((system.owner, msg("{system} was lost to {state}.", system=system.name, state=to)))
        told.append((to, msg("{system} is now yours.", system=system.name)))
        system.owner = to
        world.unrest.pop(hex_, None)
    return [(f, m) for f, m in told if f and f != REBELS]
