"""What the order types share: a rejection, a success, unit lists."""

from __future__ import annotations

import re
from dataclasses import dataclass

from adjudicator.engine.outcome import Done, Rejection  # noqa: F401 - the engine's, used by every order type
from adjudicator.i18n import msg
from adjudicator.rulesets.galactic_war.plans import unit_type_of
from adjudicator.rulesets.galactic_war.state import Unit, World, sid


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
