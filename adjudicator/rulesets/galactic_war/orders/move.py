"""Movement orders (§4.1, §6.1): the document's free text or explicit columns, checked against the
positions at the start of Movement (MV01–MV09), carried out simultaneously: every row is checked against the
snapshot, never against the moves carried out before it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from adjudicator.engine.orders import OrderType, Row
from adjudicator.engine.outcome import Note
from adjudicator.i18n import N_, Msg, msg, msg_n
from adjudicator.rulesets.galactic_war import schemas
from adjudicator.rulesets.galactic_war.orders.common import (
    Done,
    RaceOrders,
    Rejection,
    Wanted,
    parse_units,
    select,
    unknown_system,
)
from adjudicator.rulesets.galactic_war.state import Unit, World, sid

#: The phase of the ledger lines of the Movement segment.
MOVEMENT = N_("movement")

_DNA_WORDS = ("не атаковать", "do not attack", "no atacar", "dna")


@dataclass
class MoveRow:
    """A row of the Movement sheet: as written (:func:`read`), then as the snapshot reads its free text
    (:func:`interpret`)."""

    race: str
    row: int
    origin: str
    wanted: list[Wanted]
    path: list[str]
    dna: bool
    pickups: list[tuple[str, list[Wanted]]]
    reading: Msg | None = None  # how a free-text order was read
    text: str = ""  # the free text as written


@dataclass
class Move:
    """A valid movement row: the units it moves, the route and the units it loads where."""

    row: MoveRow
    units: list[Unit]
    route: list[str]
    loads: list[tuple[str, list[Unit]]] = field(default_factory=list)


def split_path(text: Any) -> list[str]:
    return [sid(p) for p in re.split(r"[\s,;>→–—-]+", str(text or "")) if p.strip()]


def parse_free_text(text: str) -> tuple[str, list[Wanted], list[str], bool]:
    """``"G: крейсер – 7 – 1. Не атаковать"`` → (prefix "G", [Cruiser], ["7", "1"], dna)."""
    body = text.strip()
    dna = False
    lowered = body.casefold()
    for word in _DNA_WORDS:
        at = lowered.find(word)
        if at >= 0:
            dna = True
            body = body[:at]
            lowered = lowered[:at]
    body = body.strip().rstrip(".").strip()
    prefix = ""
    if ":" in body:
        prefix, body = body.split(":", 1)
    parts = [p.strip() for p in re.split(r"\s*[–—]\s*|\s+-\s+", body) if p.strip()]
    units = parse_units(parts[0]) if parts else []
    return sid(prefix), units, [sid(p) for p in parts[1:]], dna


def parse_pickups(text: Any) -> list[tuple[str, list[Wanted]]]:
    out = []
    for part in str(text or "").split(";"):
        if ":" not in part:
            continue
        system, units = part.split(":", 1)
        out.append((sid(system), parse_units(units)))
    return out


def read(race: str, row: int, values: Mapping[str, Any]) -> MoveRow:
    return MoveRow(race, row, sid(values.get("origin")), parse_units(values.get("units")),
                   split_path(values.get("path")), values.get("dna") == "Y", parse_pickups(values.get("pickups")),
                   text=str(values.get("text") or "").strip())


def interpret(world: World, order: MoveRow, reading_rule: str) -> MoveRow | Rejection:
    """The row against the snapshot: the free text fills whatever explicit column is empty (G3)."""
    origin, wanted, path, dna, reading = order.origin, order.wanted, order.path, order.dna, None
    race, text = order.race, order.text
    if text:
        prefix, units, systems, text_dna = parse_free_text(text)
        if not units or not systems:
            return Rejection("MV09", msg("The order {value} cannot be read.", value=text), "text",
                             msg("Write it as 'G: cruiser – 7 – 1. Do not attack', or fill in the other columns."))
        at_prefix = prefix in world.systems and _has(world, race, units, prefix)
        tag = len(systems) >= 2 and (reading_rule == "TAG" or (reading_rule == "AUTO" and (
            _has(world, race, units, systems[0]) or not at_prefix)))
        if not prefix:
            tag = True
        if tag and len(systems) >= 2:
            t_origin, t_path = systems[0], systems[1:]
            reading = msg("read as: {tag} is a label; from {origin} through {path}", tag=prefix or "—",
                          origin=t_origin, path="–".join(t_path))
        else:
            t_origin, t_path = prefix, systems
            reading = msg("read as: from {origin} through {path}", origin=t_origin, path="–".join(t_path))
        origin = origin or t_origin
        wanted = wanted or units
        path = path or t_path
        dna = dna or text_dna
    for key, value, column in (("origin", origin, "origin"), ("units", wanted, "units"), ("path", path, "path")):
        if not value:
            return Rejection("C03", msg("{column} is required here.", column=msg(_HEADERS[key])), column,
                             msg("Fill in {column} or delete the row.", column=msg(_HEADERS[key])))
    return replace(order, origin=origin, wanted=wanted, path=path, dna=dna, reading=reading)


_HEADERS = {"origin": "Origin", "units": "Units", "path": "Path"}


def _has(world: World, race: str, units: list[Wanted], system: str) -> bool:
    here = [u for u in world.ships(system, race) if not u.aboard]
    chosen, missing = select(world, units, here, set())
    return missing is None and bool(chosen)


def blocked(world: World, race: str, system: str) -> str | None:
    """Another race whose fleet blocks passage through ``system`` (G5, G6)."""
    for other in sorted(world.races_with_ships(system) - {race}):
        ships = world.ships(system, other)
        at_dock = any(p.dock and p.owner == other for p in world.planets_in(system))
        if at_dock and all(u.type == "FIGHTER" for u in ships):
            continue  # Fighters at their own dock do not block (G6)
        return other
    return None


def plan(state: RaceOrders, order: MoveRow) -> Move | Rejection:
    """The row against the start-of-Movement snapshot and the race's rows accepted before it (MV01–MV09)."""
    row = interpret(state.snapshot, order, str(state.params["free_text_reading"]))
    if isinstance(row, Rejection):
        return row
    return _check(state.snapshot, row, bool(state.params["wormholes_adjacent"]), state.params, state.claimed,
                  state.named)


class MoveType(OrderType[MoveRow, RaceOrders]):
    """A movement row: checked against the snapshot, carried out at once on the galaxy (§6.1); a row that
    fails a check is rejected whole and its units stay (G23)."""

    sheet = schemas.MOVES
    step = "move"

    def read(self, row: Row) -> MoveRow:
        return read(row.faction, row.number, row.values)

    def foresee(self, state: RaceOrders, orders: list[MoveRow]) -> None:
        """A unit one row names by its ID is never the one another row takes by its type."""
        rule = str(state.params["free_text_reading"])
        for order in orders:
            row = interpret(state.snapshot, order, rule)
            if isinstance(row, MoveRow):
                state.named |= {w.unit_id for w in row.wanted if w.unit_id}

    def check(self, state: RaceOrders, order: MoveRow) -> Rejection | None:
        move = plan(state, order)
        return move if isinstance(move, Rejection) else None

    def carry_out(self, state: RaceOrders, order: MoveRow) -> Done:
        move = plan(state, order)
        assert isinstance(move, Move)  # checked
        for unit in [*move.units, *(u for _, loaded in move.loads for u in loaded)]:
            state.claimed[unit.id] = order.row
        galaxy = state.galaxy
        galaxy.came_from.update(apply_moves(galaxy.world, [move]))
        if move.row.dna:
            galaxy.dna |= {u.id for u in move.units}
        galaxy.books.record(galaxy.world, MOVEMENT, msg("Movement to {system}.", system=move.route[-1]),
                            f"{order.race}:moves:row {order.row}")
        text = msg_n("{n} unit moved to {system}.", "{n} units moved to {system}.", len(move.units),
                     system=move.route[-1])
        if move.row.reading is None:
            return Done(text)
        return Done(msg("{done} Order text {reading}.", done=text, reading=move.row.reading),
                    notes=(Note("MV10", msg("Order text {reading}.", reading=move.row.reading), "text"),))


def _check(world: World, row: MoveRow, wormholes: bool, params: dict[str, Any], claimed: dict[str, int],
           explicit: set[str]) -> Move | Rejection:
    route = [row.origin, *row.path]
    for index, system in enumerate(route):
        if system not in world.systems:
            return unknown_system(system, "origin" if index == 0 else "path")
    for item in row.wanted:
        if item.unit_id:
            unit = world.units.get(item.unit_id)
            if unit is not None and unit.race == row.race and unit.type in ("FIGHTER", "GF", "PDS"):
                return _cannot_fly(unit.type)
        elif item.unit_type in ("FIGHTER", "GF", "PDS"):
            return _cannot_fly(item.unit_type)
    candidates = [u for u in world.ships(row.origin, row.race) if not u.aboard]
    units, missing = select(world, row.wanted, candidates, set(claimed) | explicit)
    if missing is not None:
        return Rejection("MV01", msg("Unit {id} is not yours or is not in {origin}.", id=missing, origin=row.origin),
                         "units", msg("See the Units sheet of your last results."))
    for unit in units:
        if unit.id in claimed:
            return _twice(unit.id)
    for a, b in zip(route, route[1:], strict=False):
        if not world.adjacent(a, b, wormholes):
            return Rejection("MV03", msg("{a} and {b} are not adjacent.", a=a, b=b), "path",
                             msg("Write every system the ships pass through, one step at a time."))
    steps = len(route) - 1
    for unit in units:
        move = world.stat(unit.type).move
        if steps > move:
            return Rejection("MV04", msg("{type} moves {m}; the path has {n} steps.", type=msg(_label(unit.type)),
                                        m=move, n=steps), "path", msg("Shorten the path or move these ships apart."))
    for system in route[1:-1]:
        other = blocked(world, row.race, system)
        if other:
            return Rejection("MV06", msg("Cannot pass through {s}: it contains the fleet of {race}.", s=system,
                                        race=other), "path", msg("Go around it."))
    move_obj = Move(row, units, route)
    if row.pickups:
        refused = _loads(world, row, move_obj, claimed)
        if refused:
            return refused
    return move_obj


def _loads(world: World, row: MoveRow, move: Move, claimed: dict[str, int]) -> Rejection | None:
    transports = [u for u in move.units if u.type == "TRANSPORT"]
    capacity = sum(world.capacity(u.type) for u in transports) - sum(len(world.cargo(u.id)) for u in transports)
    moving = {u.id for u in move.units}
    taken: set[str] = set()
    for system, wanted in row.pickups:
        names = ", ".join(w.text for w in wanted)

        def refuse(reason: Msg, s: str = system, n: str = names) -> Rejection:
            return Rejection("MV07", msg("Transport {id} cannot load {units} at {s}: {reason}.",
                                        id=transports[0].id if transports else "—", units=n, s=s, reason=reason),
                             "pickups", msg("Load only your own units waiting on your planets or in space there."))

        if not transports:
            return refuse(msg("no Transport moves in this row"))
        if system not in move.route:
            return refuse(msg("the Transport does not pass there"))
        friendly = {p.id for p in world.planets_in(system) if p.owner == row.race}
        waiting = [u for u in world.in_system(system) if u.race == row.race and not u.aboard and u.id not in moving
                   and ((u.type in ("GF", "PDS") and (u.planet in friendly or not u.planet))
                        or (u.type == "FIGHTER" and not u.planet))]  # MV07: on a friendly planet or in space
        units, missing = select(world, wanted, waiting, taken | set(claimed))
        if missing is not None:
            return refuse(msg("{unit} is not waiting there", unit=missing))
        for unit in units:
            if unit.id in claimed or unit.id in taken:
                return _twice(unit.id)
            taken.add(unit.id)
        move.loads.append((system, units))
    if len(taken) > capacity:
        return Rejection("MV07", msg("Transport {id} cannot load {units} at {s}: {reason}.", id=transports[0].id,
                                    units=len(taken), s=", ".join(s for s, _ in row.pickups),
                                    reason=msg("only {n} places are free", n=capacity)), "pickups", None)
    return None


def _twice(unit_id: str) -> Rejection:
    return Rejection("MV02", msg("Unit {id} has more than one movement order.", id=unit_id), "units",
                     msg("Give each unit one order: delete it from the other rows."))


def _cannot_fly(unit_type: str) -> Rejection:
    return Rejection("MV05", msg("{type} can only travel aboard a Transport.", type=msg(_label(unit_type))), "units",
                     msg("Load it with the Pickups column of a Transport's row."))


def _label(unit_type: str) -> str:
    return next((c.label for c in schemas.UNIT_TYPES if c.code == unit_type), unit_type)


def apply_moves(world: World, moves: list[Move]) -> dict[str, str]:
    """Carry out every valid move at once; returns each moved ship's came-from system (§6.1 step 4)."""
    came_from: dict[str, str] = {}
    for move in moves:
        destination = move.route[-1]
        transports = [u for u in move.units if u.type == "TRANSPORT"]
        free = {t.id: world.capacity(t.type) - len(world.cargo(t.id)) for t in transports}
        for unit in move.units:
            live = world.units[unit.id]
            for cargo in world.cargo(unit.id):
                world.move_unit(cargo, destination)
            world.move_unit(live, destination)
            came_from[unit.id] = move.route[-2]
        for _, loaded in move.loads:
            for unit in loaded:
                live = world.units[unit.id]
                carrier = next(t for t in transports if free[t.id] > 0)
                free[carrier.id] -= 1
                live.planet = ""
                world.move_unit(live, destination)
                world.set_carrier(live, carrier.id)
    return came_from
