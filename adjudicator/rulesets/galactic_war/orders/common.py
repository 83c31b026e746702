"""What the order types share: the state a race's orders are checked against and carried out on, unit lists."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adjudicator.engine.outcome import Done, Rejection  # noqa: F401 - the engine's, used by every order type
from adjudicator.i18n import msg
from adjudicator.rulesets.galactic_war.phases.books import Books
from adjudicator.rulesets.galactic_war.plans import PlanBook, unit_type_of
from adjudicator.rulesets.galactic_war.state import Unit, World, sid

if TYPE_CHECKING:
    from adjudicator.rulesets.galactic_war.orders.invasion import Landing


@dataclass
class Galaxy:
    """The galaxy as the races' moves leave it: the ``world`` they are carried out on (one for every race in
    ``run``; in ``check``, a copy of the snapshot with the race's own moves), its ledger lines, and what the
    battles must know of the moves: each moved ship's came-from system, the ships under "Do not attack"."""

    world: World
    books: Books
    came_from: dict[str, str] = field(default_factory=dict)
    dna: set[str] = field(default_factory=set)


@dataclass
class RaceOrders:
    """One race's orders: every check against the start-of-Movement ``snapshot`` (read only); the moves carried
    out on the ``galaxy``; the plans and landings kept for the Battle and Invasion segments. ``advice``: the
    player's ``check``, which also shows the exact odds beside each invasion row."""

    snapshot: World
    galaxy: Galaxy
    params: Mapping[str, Any]
    race: str
    advice: bool = False
    named: set[str] = field(default_factory=set)  # units a movement row of the race names by ID
    claimed: dict[str, int] = field(default_factory=dict)  # unit -> the accepted movement row that moves it
    plans: PlanBook = field(default_factory=PlanBook)
    landings: list[Landing] = field(default_factory=list)


@dataclass(frozen=True)
class Wanted:
    """One item of a unit list: an ID, or a type and a count."""

    text: str
    unit_id: str = ""
    unit_type: str = ""
    count: int = 0


_COUNTED = re.compile(r"^(?:(\d+)\s*[x×х*]?\s+)?(.+?)(?:\s*[x×х*]\s*(\d+))?$", re.IGNORECASE)


def parse_units(text: object) -> list[Wanted]:
    """``"Cruiser x2, A-DN1"`` → two Cruisers and the unit A-DN1; ``"крейсер"`` → one Cruiser."""
    out = []
    for part in re.split(r"[,;]+", str(text or "")):
        part = part.strip()
        if not part:
            continue
        found = _COUNTED.match(part)
        if found:
            kind = unit_type_of(found.group(2).strip())
            if kind:
                count = int(found.group(1) or found.group(3) or 1)
                out.append(Wanted(part, unit_type=kind, count=count))
                continue
        out.append(Wanted(part, unit_id=sid(part)))
    return out


def select(world: World, wanted: list[Wanted], candidates: list[Unit],
           taken: set[str]) -> tuple[list[Unit], str | None]:
    """The units a list names among ``candidates`` (explicit IDs first, then types by ID order), skipping
    ``taken``; the text of the first item that cannot be found."""
    chosen: list[Unit] = []
    pool = {u.id: u for u in candidates}
    for item in wanted:
        if item.unit_id:
            unit = pool.get(item.unit_id)
            if unit is None:
                return chosen, item.text
            chosen.append(unit)
    ids = {u.id for u in chosen}
    for item in wanted:
        if item.unit_type:
            free = [u for u in candidates if u.type == item.unit_type and u.id not in ids and u.id not in taken]
            if len(free) < item.count:
                return chosen, item.text
            for unit in free[: item.count]:
                chosen.append(unit)
                ids.add(unit.id)
    return chosen, None


def unknown_system(system: str, column: str) -> Rejection:
    return Rejection("MV08", msg("System {system} is not on the map.", system=system or "—"), column,
                     msg("Use a system ID from the Systems sheet."))
