"""3.3 Movement: a jumpship's chain of actions, validated against the start of the turn and paid now
(spec §4.3, §2.4, A2, A7, A8, A17–A19, A44, A49).

A chain is one ship's rows (Start, Move, Load, Unload, Wait, Raid, Invade, Retreat) in step order.
Each action is one hex of the class's maximum, a Move one per hex entered and a Raid one per round.
A Move to a hex that is not adjacent is expanded to a shortest path (lowest XXYY first) with the
warning W-MOV-PATH. An invalid chain is rejected whole and its ship stays where it is, paying the
1-hex minimum; a valid one pays its cost per hex for every step, now, with no refund if it stops.
"""

from __future__ import annotations

import dataclasses
import re
from collections import deque
from dataclasses import dataclass, field

from adjudicator.engine.orders import Row
from adjudicator.engine.outcome import Done, Rejection
from adjudicator.i18n import Msg, msg
from adjudicator.rulesets.inner_sphere import hexmap, schemas
from adjudicator.rulesets.inner_sphere.orders.base import FactionState, SphereOrder
from adjudicator.rulesets.inner_sphere.orders.common import MOVEMENT, Context, OrderRow, can_pay, money, post
from adjudicator.rulesets.inner_sphere.orders.repair import find_regiment
from adjudicator.rulesets.inner_sphere.phases.economy import ns_charge
from adjudicator.rulesets.inner_sphere.state import World, hex_id, key

EMBARK = ("LOAD", "RETREAT")
LANDING = ("RAID", "INVADE")


@dataclass(frozen=True)
class Step:
    number: int  # 1, 2, … within the chain; all chains' step k happen at once
    row: int
    action: str
    hex: str  # where the action happens (a Move: the hex entered)
    regiments: tuple[str, ...] = ()
    round: int = 0  # a Raid's round, 1…r


@dataclass
class Chain:
    faction: str
    ship: str
    cls: str
    start: str
    steps: list[Step] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)
    warnings: list[tuple[int, Msg]] = field(default_factory=list)
    cost: object = 0


class Map:
    """Adjacency by hex geometry, or by the GM's own list of links when it has any (A2)."""

    def __init__(self, links: list[tuple[str, str]], layout: str) -> None:
        self.layout = layout
        self.links: dict[str, set[str]] = {}
        for a, b in links:
            self.links.setdefault(a, set()).add(b)
            self.links.setdefault(b, set()).add(a)

    def neighbours(self, hex_: str) -> set[str]:
        if self.links:
            return self.links.get(hex_, set())
        return hexmap.neighbours(hex_, self.layout)

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours(a)

    def path(self, a: str, b: str, limit: int = 30) -> list[str] | None:
        """The hexes entered from ``a`` to ``b`` by a shortest path, ties going to the lowest XXYY first."""
        seen = {a: ""}
        queue = deque([(a, 0)])
        while queue:
            here, depth = queue.popleft()
            if here == b:
                out = []
                while here != a:
                    out.append(here)
                    here = seen[here]
                return out[::-1]
            if depth >= limit:
                continue
            for nxt in sorted(self.neighbours(here)):
                if nxt not in seen:
                    seen[nxt] = here
                    queue.append((nxt, depth + 1))
        return None

    def distance(self, a: str, b: str) -> int:
        if self.links:
            found = self.path(a, b)
            return len(found) if found is not None else -1
        return hexmap.distance(a, b, self.layout)


def split_hexes(text: object) -> list[str]:
    return [hex_id(part) for part in re.split(r"[,;\s→>-]+", str(text or "")) if part.strip()]


def split_regiments(text: object) -> list[str]:
    return [part.strip() for part in re.split(r"[,;]+", str(text or "")) if part.strip()]


def _reject(row: int, code: str, message: Msg, column: str = "action") -> tuple[int, Rejection]:
    return row, Rejection(code, message, column)


def in_steps(rows: list[OrderRow]) -> list[OrderRow]:
    """A chain's rows in step order: by Step no. (rows without one last), then row."""
    return sorted(rows, key=lambda o: (o.get("seq") if o.get("seq") is not None else 10**6, o.row))


def build_chain(world: World, ctx: Context, faction: str, ship_id: str, rows: list[OrderRow], area: Map,
                taken: dict[str, str]) -> Chain | tuple[int, Rejection]:
    """The chain of ``ship_id`` from its rows, or the first row that makes it invalid (with why)."""
    snapshot, params = ctx.snapshot, ctx.params
    ship = snapshot.jumpships.get(ship_id)
    first = rows[0]
    if ship is None or ship.owner != faction:
        return _reject(first.row, "E-MOV-SHIP", msg("{ship} is not a jumpship of yours.", ship=first.get("ship")),
                       "ship")
    starts = [o for o in rows if o.kind == "START"]
    if len(starts) > 1:
        return _reject(starts[1].row, "E-MOV-DUP", msg("Jumpship {ship} has two chains.", ship=ship_id))
    if first.kind != "START" or (first.get("hexes") and split_hexes(first.get("hexes")) != [ship.hex]):
        return _reject(first.row, "E-MOV-START", msg("The chain must begin with Start at the location of {ship}, "
                                                     "{hex}.", ship=ship_id, hex=ship.hex))
    cls = ctx.tariffs.ships[ship.cls]
    chain = Chain(faction, ship_id, ship.cls, ship.hex, rows=[o.row for o in rows])
    here = ship.hex
    aboard = set(ctx.aboard.get(ship_id, ()))
    raiders: dict[str, set[str]] = {}  # hex → this ship's raiders landed there
    embarked: set[str] = set()  # regiments this chain took from a planet (once only, but for raiders)
    planned = ctx.plan(faction).repairing  # regiments whose repair this turn's orders start
    underway = snapshot.jobs_by("REPAIR", "item")  # and those under repair since an earlier turn

    def add(order: OrderRow, action: str, at: str, regiments: tuple[str, ...] = (), rnd: int = 0) -> None:
        chain.steps.append(Step(len(chain.steps) + 1, order.row, action, at, regiments, rnd))

    for order in rows[1:]:
        action = order.kind
        if action == "START":
            continue
        if action == "MOVE":
            targets = split_hexes(order.get("hexes"))
            if not targets:
                return _reject(order.row, "C03", msg("Move needs the hexes entered."), "hexes")
            for target in targets:
                if target == here:
                    continue
                if area.adjacent(here, target):
                    add(order, "MOVE", target)
                    here = target
                    continue
                path = area.path(here, target) if params["auto_path"] else None
                if path is None:
                    return _reject(order.row, "E-MOV-ADJ", msg(
                        "{a}→{b} is not adjacent (distance {d}); list every intermediate hex.", a=here, b=target,
                        d=area.distance(here, target)), "hexes")
                chain.warnings.append((order.row, msg(
                    "{a}→{b} is {d} hexes: path {path} is charged {d} steps.", a=here, b=target, d=len(path),
                    path=", ".join([here, *path]))))
                for hop in path:
                    add(order, "MOVE", hop)
                here = target
            continue
        written = split_hexes(order.get("hexes"))
        if written and written[0] != here:
            return _reject(order.row, "E-MOV-HEX", msg("The action is at {hex} but the ship is at {here} at this "
                                                       "point.", hex=written[0], here=here), "hexes")
        system = snapshot.systems.get(here)
        own = system is not None and system.owner == faction
        if action in ("LOAD", "UNLOAD") and (not own or (system.disputed and not params["load_in_disputed"])):
            if not (action == "LOAD" and raiders.get(here)):
                return _reject(order.row, "E-MOV-OWNSYS", msg("Load and unload only in your own systems ({hex}).",
                                                              hex=here))
        if action in LANDING and (system is None or own):
            return _reject(order.row, "E-MOV-FOREIGN", msg("Raid and invade only foreign systems ({hex}).",
                                                           hex=here))
        names = split_regiments(order.get("regiments"))
        regiments: list[str] = []
        for name in names:
            regiment = find_regiment(snapshot, name)
            if regiment is None:
                return _reject(order.row, "E-GEN-NOTFOUND", msg("{target} does not exist.", target=name),
                               "regiments")
            if regiment.owner != faction:
                return _reject(order.row, "E-GEN-OWN", msg("{target} does not belong to you.", target=name),
                               "regiments")
            regiments.append(regiment.id)
        if action in EMBARK:
            mine = raiders.get(here, set())
            if not names and action == "RETREAT":
                regiments = sorted(mine)
            for rid in regiments:
                if rid in mine:
                    continue
                regiment = snapshot.regiments[rid]
                if regiment.jumpship or regiment.system != here:
                    return _reject(order.row, "E-MOV-NOTHERE", msg(
                        "Regiment {regiment} was not on the planet at {hex} at the start of the turn.",
                        regiment=rid, hex=here), "regiments")
                if (rid in planned or rid in underway) and params["repair_blocks_movement"]:
                    return _reject(order.row, "E-MOV-REPAIR", msg("Regiment {regiment} is under repair.",
                                                                  regiment=rid), "regiments")
                if taken.get(rid, ship_id) != ship_id or rid in ctx.plan(faction).committed or rid in embarked:
                    return _reject(order.row, "E-MOV-REGDUP", msg(
                        "Regiment {regiment} is named in more than one ship's chain, or also in another sheet's "
                        "order.", regiment=rid), "regiments")
                taken[rid] = ship_id
                embarked.add(rid)
            if len(aboard | set(regiments)) > cls.capacity:
                return _reject(order.row, "E-MOV-CAP", msg("{cls} carries at most {k} regiments (would carry {n}).",
                                                           cls=ship.cls, k=cls.capacity,
                                                           n=len(aboard | set(regiments))), "regiments")
            for rid in regiments:
                mine.discard(rid)
            aboard |= set(regiments)
            add(order, action, here, tuple(regiments))
            continue
        if action in ("UNLOAD", *LANDING):
            if not names:
                regiments = sorted(aboard)
            missing = [rid for rid in regiments if rid not in aboard]
            if missing:
                return _reject(order.row, "E-MOV-NOTABOARD", msg("Regiment {regiment} is not aboard at this point.",
                                                                 regiment=missing[0]), "regiments")
            if action in LANDING and not regiments:
                return _reject(order.row, "E-MOV-EMPTY", msg("Invade or raid without regiments."), "regiments")
            unrest = world.unrest.get(here)
            restless = unrest is not None and (unrest.civil or unrest.military or unrest.revolt is not None)
            barred = [r for r in regiments if restless and world.neutral.get(r) == here]
            if barred and action != "RAID":
                return _reject(order.row, "E-MOV-NEUTRAL", msg(
                    "Regiment {regiment} stays neutral in {hex}: it may not return while the unrest lasts.",
                    regiment=barred[0], hex=here), "regiments")
            aboard -= set(regiments)
            if action == "RAID":
                rounds = order.get("rounds")
                if not rounds or rounds < 1:
                    return _reject(order.row, "E-MOV-ROUNDS", msg("A raid needs 1 round or more."), "rounds")
                raiders.setdefault(here, set()).update(regiments)
                for rnd in range(1, int(rounds) + 1):
                    add(order, action, here, tuple(regiments), rnd)
            else:
                add(order, action, here, tuple(regiments))
            continue
        add(order, action, here)  # WAIT
    if len(chain.steps) > cls.max:
        over = next(s for s in chain.steps if s.number == cls.max + 1)
        return _reject(over.row, "E-MOV-MAX", msg("The chain uses {n} hexes; the maximum of {cls} is {m}.",
                                                  n=len(chain.steps), cls=ship.cls, m=cls.max))
    chain.cost = ns_charge(cls.per_hex, len(chain.steps))
    return chain


@dataclass(frozen=True)
class ShipOrders:
    """One jumpship's rows of the Movement sheet, in step order: its chain as the player wrote it."""

    faction: str
    ship: str
    rows: tuple[OrderRow, ...]


def _whole(order: ShipOrders, row: int, code: str, at: list[int] | None = None) -> list[Rejection]:
    """The rest of a chain rejected at ``row`` (or the rows ``at``): the same code, not reported again."""
    rest = at if at is not None else [o.row for o in order.rows if o.row != row and not o.rejected]
    return [Rejection(code, msg("Chain of {ship} rejected (row {row}).", ship=order.ship, row=row), "action",
                      quiet=True, row=n) for n in rest]


class JumpshipChain(SphereOrder):
    """3.3 a jumpship's chain (its rows of the Movement sheet, grouped by ship), validated against the start of
    the turn and paid whole, beyond the 1-hex minimum; an invalid chain is rejected whole (``reject_whole_chain``),
    a row intake refused included, and its ship stays where it is. It moves in the movement phase."""

    sheet = schemas.MOVEMENT
    kind_column = "action"
    group = "ship"
    step = "3.3"
    phase = MOVEMENT

    def group_of(self, values: dict, number: int) -> str:
        return key(values.get("ship")) or f"#{number}"

    def read_group(self, rows: list[Row]) -> ShipOrders:
        orders = in_steps([self.read(r) for r in rows])
        return ShipOrders(rows[0].faction, key(rows[0].values.get("ship")), tuple(orders))

    def _chain(self, state: FactionState, order: ShipOrders) -> Chain | tuple[int, Rejection]:
        built = build_chain(state.world, state.ctx, order.faction, order.ship, list(order.rows), state.area,
                            state.taken)
        if not isinstance(built, Chain):
            return built
        refused = can_pay(state.world, state.ctx, order.faction, self._extra(state, built))
        return (order.rows[0].row, refused) if refused else built

    def _extra(self, state: FactionState, chain: Chain) -> object:
        return chain.cost - ns_charge(state.ctx.tariffs.ships[chain.cls].per_hex, 0)

    def check(self, state: FactionState, order: ShipOrders) -> list[Rejection] | None:
        broken = next((o for o in order.rows if o.rejected), None)
        if broken is not None:  # a row with a bad cell (reported with its own problem): the whole chain
            passed = [o.row for o in order.rows if not o.rejected]
            return _whole(order, broken.row, "E-MOV-CHAIN", passed or [broken.row])
        built = self._chain(state, order)
        if isinstance(built, Chain):
            return None
        row, why = built
        return [dataclasses.replace(why, row=row), *_whole(order, row, why.code)]

    def carry_out(self, state: FactionState, order: ShipOrders) -> Done:
        chain = self._chain(state, order)
        assert isinstance(chain, Chain), "carried out unchecked"
        extra = self._extra(state, chain)
        if extra > 0:
            post(state.world, state.ctx, order.faction, -extra, MOVEMENT, msg(
                "Jumpship {ship}: chain of {n} hexes ({cost} C, the 1-hex minimum already paid).", ship=order.ship,
                n=len(chain.steps), cost=money(chain.cost)), order.rows[0].reference)
        state.plan.chains.append(chain)
        notes = dict(chain.warnings)
        each = []
        for o in order.rows:
            steps = [s for s in chain.steps if s.row == o.row]
            text = msg("Jumpship {ship}: steps {first}–{last}.", ship=order.ship, first=steps[0].number,
                       last=steps[-1].number) if steps else msg("Jumpship {ship}: start at {hex}.", ship=order.ship,
                                                                 hex=chain.start)
            warned = o.row in notes
            each.append((o.row, Done(text, warning=notes.get(o.row), code="W-MOV-PATH" if warned else "",
                                     column="hexes" if warned else "")))
        return Done(each[0][1].message, each=tuple(each))
