"""353 Espionage and 354 Spread rumours (spec §5, A35, A36): reports go to the Intelligence tab of the
spying state only, at the depth the roll allows; a double agent's report (9–10) may be true, true but
inconclusive (counts as ranges) or false, and nothing says which; a rumour reaches its target as a report."""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any

from adjudicator.dice import Dice
from adjudicator.i18n import msg
from adjudicator.rulesets.inner_sphere.orders.agency.common import STATUS_LABELS, Agency, Op, detect, joined, roll
from adjudicator.rulesets.inner_sphere.orders.common import Context
from adjudicator.rulesets.inner_sphere.schemas import EXPERIENCE, FACTORY_TYPES, MOVE_ACTIONS, UNIT_TYPES
from adjudicator.rulesets.inner_sphere.state import World

UNITS = {c.code: c.label for c in UNIT_TYPES}
EXPERIENCES = {c.code: c.label for c in EXPERIENCE}
FACTORIES = {c.code: c.label for c in FACTORY_TYPES}
ACTIONS = {c.code: c.label for c in MOVE_ACTIONS}


def _statuses(world: World, hex_: str) -> Any:
    status = world.unrest.get(hex_)
    if status is None:
        return ""
    parts = [msg(STATUS_LABELS[s]) for s, on in
             (("CIVIL", status.civil), ("MILITARY", status.military), ("REVOLT", status.revolt is not None)) if on]
    return joined(", ", parts)


def full(world: World, ctx: Context, op: Op, add: Any) -> None:
    """Tier 1–2: owner and statuses, every regiment with its name (learnt), jumpships with cargo and this
    turn's route, factories with production and arrival, defence level, the ICNA."""
    hex_, system = op.target, world.systems[op.target]
    add(msg("Owner"), joined(" ", [system.owner or "—", _statuses(world, hex_)]))
    building = [j.item for j in world.jobs_by("DEFENCE", "system").get(hex_, ())]
    add(msg("Defence level"), joined(" → ", [system.defence, *building]))
    for r in sorted((r for r in world.regiments.values() if r.system == hex_ and not r.jumpship), key=lambda r: r.id):
        parts = [f"{r.id} {r.name}", msg(UNITS[r.type]), msg(EXPERIENCES[r.experience])]
        add(msg("Regiment"), joined(", ", parts + ([msg("Damaged")] if r.damaged else [])))
        if r.owner != op.faction:
            world.known.add((op.faction, r.id))
    for ship in sorted((s for s in world.jumpships.values() if s.hex == hex_), key=lambda s: s.id):
        cargo = ", ".join(sorted(r.id for r in world.regiments.values() if r.jumpship == ship.id)) or "—"
        chain = next((c for c in ctx.plan(ship.owner).chains if c.ship == ship.id), None)
        route = joined(" → ", [joined(" ", [msg(ACTIONS[s.action]), s.hex]) for s in chain.steps]) if chain else "—"
        add(msg("Jumpship"), joined("", [f"{ship.id} {ship.cls} ({ship.owner}): {cargo}; ", route]))
    for factory in world.factories_in(hex_):
        jobs = [joined(" → ", [msg(UNITS[j.item]), ctx.turn + j.turns_left])
                for j in world.jobs_by("REGIMENT", "factory").get(factory.id, ())]
        add(msg("Factory"), joined(": ", [msg(FACTORIES[factory.type]), joined(", ", jobs) if jobs else "—"]))
    if system.icna:
        add(msg("ICNA"), msg("YES"))


def partial(world: World, op: Op, add: Any) -> None:
    """Tier 3–5: regiments per type, jumpships per class, factory types, defence level."""
    hex_ = op.target
    types = Counter(r.type for r in world.regiments.values() if r.system == hex_ and not r.jumpship)
    for code, n in sorted(types.items()):
        add(msg("Regiments"), joined(" × ", [n, msg(UNITS[code])]))
    classes = Counter(s.cls for s in world.jumpships.values() if s.hex == hex_)
    for cls, n in sorted(classes.items()):
        add(msg("Jumpship"), f"{n} × {cls}")
    for factory in world.factories_in(hex_):
        add(msg("Factory"), msg(FACTORIES[factory.type]))
    add(msg("Defence level"), world.systems[hex_].defence)


def basic(world: World, op: Op, add: Any, regiments: Any = None, factory: Any = None, defence: Any = None) -> None:
    """Tier 6–8: total regiments, factory yes/no, defence level (or the values a double agent gives)."""
    hex_ = op.target
    count = sum(1 for r in world.regiments.values() if r.system == hex_ and not r.jumpship)
    has = bool(world.factories_in(hex_))
    add(msg("Regiments"), count if regiments is None else regiments)
    add(msg("Factory"), msg("YES") if (has if factory is None else factory) else msg("NO"))
    add(msg("Defence level"), world.systems[hex_].defence if defence is None else defence)


def espionage(world: World, ctx: Context, dice: Dice, agency: Agency, op: Op) -> None:
    eff = roll(dice, ctx, op)
    system = world.systems[op.target]
    subject = f"{system.name} ({op.target})"

    def add(item: Any, detail: Any) -> None:
        agency.report(op.faction, subject, item, detail)

    depth = ctx.tariffs.by_roll("espionage", eff)["depth"]
    if depth == "full":
        full(world, ctx, op, add)
    elif depth == "partial":
        partial(world, op, add)
    elif depth == "basic":
        basic(world, op, add)
    else:
        report = ctx.tariffs.by_roll("double_agent", dice.d(10, f"{op.purpose}:agent"))["report"]
        blur, top = ctx.tariffs.row("double_agent", "report"), ctx.tariffs.top_defence
        low, high = float(blur["low"]), float(blur["high"])
        count = sum(1 for r in world.regiments.values() if r.system == op.target and not r.jumpship)
        if report == "true":
            basic(world, op, add)
        elif report == "blurred":
            basic(world, op, add, regiments=f"{math.floor(count * low)}–{math.ceil(count * high)}",
                  defence=f"{max(0, system.defence - blur['blur'])}–{min(top, system.defence + blur['blur'])}")
        else:
            factor = low + (dice.d(10, f"{op.purpose}:false:count") - 1) / 9 * (high - low)
            basic(world, op, add, regiments=max(0, round(count * factor)),
                  factory=dice.d(10, f"{op.purpose}:false:factory") <= blur["factory_up_to"],
                  defence=dice.d(top + 1, f"{op.purpose}:false:defence") - 1)
    op.success = True
    op.result = msg("Espionage of {system}: see the Intelligence tab.", system=system.name)
    if detect(dice, ctx, op):
        agency.tell(op.owner, msg("Espionage by {actor} detected in {system}.", actor=op.faction, system=system.name))


def rumour_subject(world: World, op: Op) -> str:
    """What a rumour's report is about, as an espionage report would head it: the first system its text
    names (by name or hex, "Name (hex)"); a text that names none is about the state it is aimed at."""
    text = op.text.casefold()
    found = []
    for hex_, system in world.systems.items():
        for word in {system.name, hex_} - {""}:
            folded = word.casefold()
            if folded not in text:  # a word the text does not hold: no pattern to make (most systems)
                continue
            m = re.search(rf"(?<!\w){re.escape(folded)}(?!\w)", text)
            if m:
                found.append((m.start(), -len(word), hex_))
    if not found:
        return op.target
    hex_ = min(found)[2]
    return f"{world.systems[hex_].name} ({hex_})"


def rumours(world: World, ctx: Context, dice: Dice, agency: Agency, op: Op) -> None:
    """354: on 1–6 the text reaches the target state as an intelligence report; on 10 it learns who tried."""
    roll(dice, ctx, op)
    if op.success:
        agency.report(op.target, rumour_subject(world, op), msg("Information"), op.text)
        op.result = msg("The rumour reached {state}.", state=op.target)
    else:
        op.result = msg("The rumour did not spread.")
    if detect(dice, ctx, op):
        agency.tell(op.target, msg("{actor} tried to spread rumours about you.", actor=op.faction))
