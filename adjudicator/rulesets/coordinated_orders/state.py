"""The campaign state as plain objects: whose turn, Command Tokens, Regular Orders, and the rosters."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adjudicator.engine.row_table import table_rows
from adjudicator.engine.sheets import records
from adjudicator.i18n import fold
from adjudicator.rulesets.coordinated_orders import schemas

if TYPE_CHECKING:  # pandas is imported where the tables after a turn are made: checking orders needs none
    import pandas as pd

HIDDEN = ("HIDDEN_DEPLOYMENT", "AIRBORNE_OFF_TABLE")


def ident(value: Any) -> str:
    """A trooper, Marker or CO code as compared everywhere: trimmed and upper case."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split()).upper()


@dataclass(frozen=True)
class Tool:
    name: str
    kind: str
    burst: int
    bonus: int
    attribute: str
    properties: frozenset[str]

    @property
    def free_placement(self) -> bool:
        """Targetless or Deployable: no common point needed (R21)."""
        return bool(self.properties & {"TARGETLESS", "DEPLOYABLE", "SIN OBJETIVO", "POSICIONABLE"})


@dataclass
class Trooper:
    id: str
    faction: str
    unit: str
    combat_group: int
    training: str
    fireteam: str
    link: str
    deployment: str
    marker: str
    super_jump: bool
    can_act: bool
    own_orders: int
    attributes: dict[str, int]
    tools: dict[str, Tool] = field(default_factory=dict)

    def tool(self, name: str | None) -> Tool | None:
        return self.tools.get(fold(name or ""))

    def public_name(self) -> str:
        """How the enemy sees it: a Camouflaged Marker by its label."""
        if self.deployment == "CAMO_MARKER":
            return self.marker or "?"
        return self.id


@dataclass
class Game:
    active: str
    phase: str
    tokens: dict[str, int]
    orders: dict[tuple[str, int], int]
    troopers: dict[str, Trooper]

    def copy(self) -> Game:
        return copy.deepcopy(self)

    def find(self, faction: str | None, ref: Any) -> Trooper | None:
        """The trooper named by its ID or by its Marker's label (of ``faction`` if given)."""
        key = ident(ref)
        if not key:
            return None
        found = self.troopers.get(key)
        if found is not None and (faction is None or found.faction == faction):
            return found
        for trooper in self.troopers.values():
            if trooper.marker and ident(trooper.marker) == key and trooper.deployment == "CAMO_MARKER" and (
                    faction is None or trooper.faction == faction):
                return trooper
        return None

    def roster(self, faction: str) -> list[Trooper]:
        return sorted((t for t in self.troopers.values() if t.faction == faction), key=lambda t: t.id)


def _int(value: Any, default: int = 0) -> int:
    if value is None or (isinstance(value, float) and value != value):  # value != value: NaN
        return default
    return int(value)


def _text(value: Any) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    return str(value).strip()


def _records(tables: Mapping[str, Any], key: str) -> list[tuple[int, dict[str, Any]]]:
    """The rows of a state table as kept (no frame made), none when there is no such table."""
    table = table_rows(tables, key)
    return [] if table is None else records(table)


def game_from_tables(tables: Mapping[str, pd.DataFrame]) -> Game:
    turn = [r for _, r in _records(tables, "player_turn")]
    active = ident(turn[0].get("active_player")) if turn else ""
    phase = _text(turn[0].get("phase")) if turn else ""
    tokens = {ident(r["id"]): _int(r.get("command_tokens")) for _, r in _records(tables, "factions")}
    orders = {(ident(r["faction"]), _int(r["combat_group"])): _int(r.get("regular_orders"))
              for _, r in _records(tables, "combat_groups")}
    troopers: dict[str, Trooper] = {}
    for _, r in _records(tables, "troopers"):
        tid = ident(r.get("trooper"))
        if not tid:
            continue
        troopers[tid] = Trooper(
            id=tid,
            faction=ident(r.get("faction")),
            unit=_text(r.get("unit")),
            combat_group=_int(r.get("combat_group"), 1),
            training=_text(r.get("training")) or "REGULAR",
            fireteam=_text(r.get("fireteam")),
            link=_text(r.get("link")) or "NONE",
            deployment=_text(r.get("deployment")) or "ON_TABLE",
            marker=ident(r.get("marker")),
            super_jump=_text(r.get("super_jump")) == "YES",
            can_act=_text(r.get("can_act")) != "NO",
            own_orders=_int(r.get("own_orders")),
            attributes={a: _int(r.get(a.lower())) for a in ("BS", "CC", "PH", "WIP")},
        )
    _label_markers(troopers)
    for _, r in _records(tables, "tools"):
        owner = troopers.get(ident(r.get("trooper")))
        name = _text(r.get("tool"))
        if owner is None or not name:
            continue
        props = frozenset(ident(p) for p in _text(r.get("properties")).replace(";", ",").split(",") if p.strip())
        owner.tools[fold(name)] = Tool(name, _text(r.get("kind")) or "WEAPON", _int(r.get("burst"), 1),
                                       _int(r.get("bonus")), _text(r.get("attribute")), props)
    return Game(active, phase, tokens, orders, troopers)


def _label_markers(troopers: dict[str, Trooper]) -> None:
    """A Camouflaged Marker the roster gives no label gets one (CAMO1, CAMO2… in roster order), so that the
    enemy never sees the ID of the trooper behind it."""
    used = set(troopers) | {t.marker for t in troopers.values() if t.marker}
    n = 0
    for t in troopers.values():
        if t.deployment == "CAMO_MARKER" and not t.marker:
            n += 1
            while f"CAMO{n}" in used:
                n += 1
            t.marker = f"CAMO{n}"
            used.add(t.marker)


def game_to_tables(game: Game, tables: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The tables that change: Command Tokens, Regular Orders, and the troopers' deployment and own Orders."""
    import pandas as pd

    factions = tables["factions"].copy()
    factions["command_tokens"] = [game.tokens.get(ident(f), 0) for f in factions["id"]]
    groups = pd.DataFrame(
        [{"faction": f, "combat_group": g, "regular_orders": n} for (f, g), n in sorted(game.orders.items())],
        columns=schemas.COMBAT_GROUPS.keys())
    troopers = tables["troopers"].copy()
    troopers["deployment"] = [game.troopers[ident(t)].deployment if ident(t) in game.troopers else d
                              for t, d in zip(troopers["trooper"], troopers["deployment"], strict=True)]
    troopers["own_orders"] = [game.troopers[ident(t)].own_orders if ident(t) in game.troopers else n
                              for t, n in zip(troopers["trooper"], troopers["own_orders"], strict=True)]
    return {"factions": factions, "combat_groups": groups, "troopers": troopers}
