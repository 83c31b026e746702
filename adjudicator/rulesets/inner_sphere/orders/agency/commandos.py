"""341 Purge system and 342 Introduce commandos (spec §5): commandos as game objects, introduced within
5 hexes of an own system, advancing one hex a turn, attached to a known regiment that they follow,
dismantled by purges (their origin revealed) and detected."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.dice import Dice
from adjudicator.i18n import msg
from adjudicator.rulesets.inner_sphere import hexmap
from adjudicator.rulesets.inner_sphere.orders.agency.common import Agency, Op, detect, roll
from adjudicator.rulesets.inner_sphere.orders.common import Context, OrderRow, Rejection, required
from adjudicator.rulesets.inner_sphere.state import Commando, World, key


def distance_to_own(ctx: Context, faction: str, hex_: str, layout: str) -> int:
    """The hexes from ``hex_`` to the nearest system ``faction`` held at the start of the turn (99: none)."""
    return min((hexmap.distance(h, hex_, layout) for h in ctx.own_systems(faction)), default=99)


def check(op: Op, order: OrderRow, ctx: Context, mine: Sequence[Commando]) -> Rejection | None:
    snapshot, params = ctx.snapshot, ctx.params
    op.mode = str(order.get("mode") or "NEW")
    op.bribe = int(order.get("bribe") or 0)
    step, top = int(params["bribe_step"]), int(params["max_bribe"])
    if op.bribe % step or op.bribe > top:
        return Rejection("E-AG-BRIBE", msg("The bribe must be 0 to {top} in steps of {step}.", top=top, step=step),
                         "bribe")
    if op.mode == "NEW":
        far = distance_to_own(ctx, op.faction, op.target, params["hex_layout"])
        if far > int(params["commando_range"]):
            return Rejection("E-AG-RANGE", msg("{system} is {n} hexes from your nearest system (max {max}).",
                                               system=op.target, n=far, max=params["commando_range"]), "target")
        op.commandos = ()
        return None
    refused = required(order, "commando")
    if refused:
        return refused
    op.commando = key(order.get("commando"))
    commando = next((c for c in mine if c.id == op.commando), None)
    if commando is None:
        return Rejection("E-AG-NOCOM", msg("You have no commando established before this turn in/at {target}.",
                                           target=op.commando), "commando")
    op.commandos = (commando.id,)
    here = snapshot.where(commando)
    if op.mode == "ADVANCE":
        step_ = hexmap.distance(here, op.target, params["hex_layout"]) if here else 99
        if step_ != int(ctx.tariffs.row("commandos", "limits")["advance"]) or commando.regiment:
            return Rejection("E-AG-RANGE", msg("Commando {commando} can only advance 1 hex ({n}).",
                                               commando=commando.id, n=step_), "target")
        return None
    refused = required(order, "regiment")
    if refused:
        return refused
    op.regiment = key(order.get("regiment"))
    regiment = snapshot.regiments.get(op.regiment)
    if (op.faction, op.regiment) not in snapshot.known or regiment is None:
        return Rejection("E-AG-UNKNOWNREG", msg("You do not know regiment {regiment}.", regiment=op.regiment),
                         "regiment", msg("Espionage (353) of its planet gives regiments' names."))
    if regiment.jumpship or regiment.system != here:
        return Rejection("E-AG-REGLOC", msg("{regiment} is not on the planet where commando {commando} is.",
                                            regiment=op.regiment, commando=commando.id), "regiment")
    op.target, op.owner = op.regiment, regiment.owner
    return None


def bribe_bonus(op: Op, ctx: Context) -> int:
    """+1 per ``bribe_step`` C of bribe, at most the table's ``max_bribe_bonus``."""
    top = int(ctx.tariffs.row("commandos", "limits")["max_bribe_bonus"])
    return min(top, op.bribe // int(ctx.params["bribe_step"]))


def _present(world: World, faction: str, hex_: str) -> list[Commando]:
    """Foreign commandos in the system, and those attached to regiments on its planet (not aboard) (A28)."""
    return sorted((c for c in world.commandos.values() if c.owner != faction and world.where(c) == hex_),
                  key=lambda c: c.id)


def purge_all(world: World, ctx: Context, dice: Dice, agency: Agency, batch: list[Op]) -> None:
    """341 for every state at once: all rolls read the commandos present before any is removed."""
    removals: dict[str, Op] = {}
    for op in batch:
        present = _present(world, op.faction, op.target)
        eff = roll(dice, ctx, op)
        name = world.systems[op.target].name
        finds = ctx.tariffs.by_roll("purge", eff)["finds"]
        if finds == "all":
            gone = present
        elif finds == "one":
            gone = [present[dice.d(len(present), f"{op.purpose}:pick") - 1]] if len(present) > 1 else present
        else:
            gone = []
        for c in gone:
            removals.setdefault(c.id, op)
        if gone:
            op.result = msg("Purge of {system}: commandos dismantled: {list}.", system=name,
                            list=", ".join(f"{c.id} ({c.owner})" for c in gone))
        elif finds == "present" and present:
            op.result = msg("Purge of {system}: foreign agents are present.", system=name)
        else:
            op.result = msg("Purge of {system}: nothing found.", system=name)
    for cid, op in sorted(removals.items()):
        commando = world.commandos.pop(cid)
        agency.tell(commando.owner, msg("Your commando {commando} was dismantled in {system}.", commando=cid,
                                        system=world.systems[op.target].name))


def introduce(world: World, ctx: Context, dice: Dice, agency: Agency, op: Op) -> None:
    """342: NEW creates a commando, ADVANCE moves one a hex; B = own commandos there + bribe/20 (max +5).
    ATTACH puts a commando on a known regiment of its planet, free and without a roll."""
    if op.mode == "ATTACH":
        commando, regiment = world.commandos[op.commando], world.regiments.get(op.regiment)
        if regiment is None or regiment.jumpship or regiment.system != world.where(commando):
            op.result = msg("Regiment {regiment} has left; commando {commando} stays.", regiment=op.regiment,
                            commando=op.commando)
            return
        if ctx.params["attach_requires_roll"]:
            roll(dice, ctx, op, bribe_bonus(op, ctx))
            if detect(dice, ctx, op):
                agency.tell(op.owner, msg("Commandos of {actor} detected entering {system}.", actor=op.faction,
                                          system=world.systems[regiment.system].name))
            if not op.success:
                op.result = msg("The commandos could not enter {system}.", system=op.regiment)
                return
        commando.regiment, commando.system = op.regiment, ""
        op.success = True
        op.result = msg("Commando {commando} now follows regiment {regiment}.", commando=op.commando,
                        regiment=op.regiment)
        return
    already = sum(1 for c in ctx.snapshot.commandos.values()
                  if c.owner == op.faction and c.established_turn < ctx.turn and ctx.snapshot.where(c) == op.target)
    bonus = already + bribe_bonus(op, ctx)
    roll(dice, ctx, op, bonus)
    name = world.systems[op.target].name
    if op.success and op.mode == "NEW":
        cid = f"{op.faction}-T{ctx.turn}-C{op.row}"
        world.commandos[cid] = Commando(cid, op.faction, op.target, "", ctx.turn)
        op.commandos = (cid,)
        op.result = msg("Commando {commando} established in {system}.", commando=cid, system=name)
    elif op.success:
        commando = world.commandos[op.commando]
        commando.system, commando.established_turn = op.target, ctx.turn
        op.result = msg("Commando {commando} advanced to {system}.", commando=op.commando, system=name)
    else:
        op.result = msg("The commandos could not enter {system}.", system=name)
    if detect(dice, ctx, op):
        agency.tell(op.owner, msg("Commandos of {actor} detected entering {system}.", actor=op.faction, system=name))


def follow(world: World) -> list[tuple[str, Any]]:
    """End of turn: a commando whose regiment is gone is lost with it."""
    lost = []
    for cid, c in sorted(world.commandos.items()):
        if c.regiment and c.regiment not in world.regiments:
            del world.commandos[cid]
            lost.append((c.owner, msg("Commando {commando} was lost with regiment {regiment}.", commando=cid,
                                      regiment=c.regiment)))
    return lost
