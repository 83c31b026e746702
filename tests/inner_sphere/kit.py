"""Helpers shared by the tests of this folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from adjudicator.dice import Dice, Roll
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.orders import carry_out_orders, results_by_row
from adjudicator.engine.registry import find_ruleset
from adjudicator.engine.ruleset import FactionOrders, SheetRows
from adjudicator.outputs.templates import build_order_workbook
from adjudicator.outputs.writing import atomic_save
from adjudicator.rulesets.inner_sphere import schemas
from adjudicator.rulesets.inner_sphere.data import tariffs
from adjudicator.rulesets.inner_sphere.orders import agency, movement
from adjudicator.rulesets.inner_sphere.orders.agency.common import Agency
from adjudicator.rulesets.inner_sphere.orders.base import FactionState
from adjudicator.rulesets.inner_sphere.orders.common import Context, Done, Rejection
from adjudicator.rulesets.inner_sphere.orders.movement import Chain
from adjudicator.rulesets.inner_sphere.state import World, world_from_tables
from adjudicator.turn import pipeline
from tests.helpers import state

RULESET = find_ruleset("inner_sphere")


def world_data(factions: dict[str, float], systems: list[dict[str, Any]] | None = None, turn: int = 1,
               **tables: list[dict[str, Any]]) -> dict[str, Any]:
    """A small campaign: every faction owns one system (its hex 01NN) with no income unless given."""
    if systems is None:
        systems = [{"hex": f"01{n:02d}", "name": f"S{n}", "owner": f, "income": 0}
                   for n, f in enumerate(factions, start=1)]
    data = {
        "settings": {"ruleset": "inner_sphere", "campaign": "t", "seed": 11, "turn": turn, "language": "es",
                     "secret": "s"},
        "parameters": tables.pop("parameters", {}),
        "tables": {"factions": [{"id": f, "name": f.title(), "language": "es", "treasury": t}
                                for f, t in factions.items()],
                   "systems": systems, **tables},
    }
    return data


def orders(root: Path, faction: str, sheets: dict[str, list[dict[str, Any]]]) -> Path:
    _, campaign, ruleset = pipeline.open_campaign(root)
    path = root / "inbox" / f"{faction}.xlsx"
    atomic_save(build_order_workbook(ruleset, campaign, faction, sheets), path)
    return path


def treasury(root: Path, faction: str) -> float:
    frame = state(root).tables["factions"]
    return float(next(r["treasury"] for r in frame.to_dict("records") if r["id"] == faction))


def table(root: Path, key: str) -> list[dict[str, Any]]:
    return state(root).tables[key].to_dict("records")


def problems_of(root: Path) -> set[tuple[str, str, str | None]]:
    outcome = pipeline.check(root)
    return {(p.code, s.faction or "", p.cell) for s in outcome.submissions for p in s.problems}


PARAMS = find_ruleset("inner_sphere").parameters().defaults()


TURN = 2


class ChosenDice(Dice):
    """Dice whose values the test chooses by purpose (exact, else the longest matching prefix, else 10 for
    the main roll and 1 for any other); each purpose is still rolled once and logged."""

    def __init__(self, values: dict[str, int] | None = None) -> None:
        super().__init__(1, TURN)
        self.values = values or {}

    def roll(self, purpose: str, sides: int, count: int = 1) -> Roll:
        assert purpose not in self._used, purpose
        self._used.add(purpose)
        value = self.values.get(purpose)
        if value is None:
            prefix = max((p for p in self.values if purpose.startswith(p + ":")), key=len, default=None)
            value = self.values[prefix] if prefix is not None and purpose.count(":") == 3 else None
        if value is None:
            value = 10 if purpose.count(":") == 3 else 1
        result = Roll(TURN, purpose, sides, (value,) * count)
        self.log.append(result)
        return result


def tables(**more: list[dict[str, Any]]) -> dict[str, pd.DataFrame]:
    """Kurita (K) owns Dieron 0101 and Kandis 0102; Davion (D) owns Hesperus 0103 (a factory and regiment
    D1), Skye 0104 and Far 0108. Kurita has commando KC established at Hesperus and KA on regiment D1, and
    knows D1's name; Davion has commando DC at Dieron."""
    frames: dict[str, list[dict[str, Any]]] = {
        "factions": [{"id": "K", "treasury": 1000}, {"id": "D", "treasury": 1000}, {"id": "L", "treasury": 1000}],
        "systems": [{"hex": "0101", "name": "Dieron", "owner": "K"}, {"hex": "0102", "name": "Kandis", "owner": "K"},
                    {"hex": "0103", "name": "Hesperus", "owner": "D"}, {"hex": "0104", "name": "Skye", "owner": "D"},
                    {"hex": "0108", "name": "Far", "owner": "D"}, {"hex": "0505", "name": "Chara", "owner": "L"}],
        "factories": [{"id": "0101-F1", "system": "0101", "type": "HEAVY"},
                      {"id": "0103-F1", "system": "0103", "type": "MEDIUM"}],
        "regiments": [{"id": "D1", "name": "Davion Guards", "owner": "D", "type": "MH", "experience": "VETERAN",
                       "system": "0103"},
                      {"id": "D2", "name": "Crucis Lancers", "owner": "D", "type": "ML", "experience": "GREEN",
                       "system": "0104"},
                      {"id": "K1", "name": "Sword of Light", "owner": "K", "type": "MA", "experience": "ELITE",
                       "system": "0101"}],
        "commandos": [{"id": "KC", "owner": "K", "system": "0103", "established_turn": 1},
                      {"id": "KA", "owner": "K", "regiment": "D1", "established_turn": 1},
                      {"id": "DC", "owner": "D", "system": "0101", "established_turn": 1}],
        "known_regiments": [{"faction": "K", "regiment": "D1"}],
        "research_points": [{"faction": "D", "line": "IND", "points": 500, "opened": "YES"},
                            {"faction": "K", "line": "IND", "points": 100, "opened": "YES"}],
    }
    frames.update(more)
    return {k: pd.DataFrame(v) for k, v in frames.items()}


def sheet_of(schema: Any, specs: list[dict[str, Any]]) -> SheetRows:
    """Typed rows of an order sheet (numbered from 2, as in the sheet); a spec with ``rejected`` as intake
    refused it."""
    kept = {n: {k: spec.get(k) for k in schema.keys()} for n, spec in enumerate(specs, start=2)}
    refused = {n for n, spec in enumerate(specs, start=2) if spec.get("rejected")}
    frame = pd.DataFrame([v for n, v in kept.items() if n not in refused], index=[n for n in kept if n not in refused],
                         columns=schema.keys(), dtype=object)
    return SheetRows(schema, schema.key, frame, {}, "", rejected={n: kept[n] for n in refused})


def carry_out(state: FactionState, sheets: dict[str, SheetRows]) -> dict[tuple[str, int], Done | Rejection]:
    """A faction's rows through the ruleset's order types, as ``check`` and ``run`` take them: {(sheet, row):
    result} of the rows intake passed."""
    orders = FactionOrders(state.faction, "", sheets)
    results = results_by_row(carry_out_orders(RULESET, state.params, state, orders))
    return {at: r for at, r in results.items() if at[1] not in sheets[at[0]].rejected}


def turn(orders: dict[str, list[dict[str, Any]]], dice: dict[str, int] | None = None,
         frames: dict[str, pd.DataFrame] | None = None, params: dict[str, Any] | None = None,
         chains: dict[str, list[Chain]] | None = None,
         ) -> tuple[World, dict[tuple[str, int], Done | Rejection], Agency, Ledger]:
    """Pay each faction's agency rows (numbered from 2, as in the sheet) and resolve them all."""
    world = world_from_tables(frames if frames is not None else tables())
    ledger = Ledger(TURN)
    ctx = Context({**PARAMS, **(params or {})}, TURN, ledger, tariffs(None), world.copy(), set(world.treasury))
    for faction, faction_chains in (chains or {}).items():
        ctx.plan(faction).chains = faction_chains
    outcomes = {}
    for faction, rows in orders.items():
        done = carry_out(FactionState(world, ctx, faction, None), {"agency": sheet_of(schemas.AGENCY, rows)})
        outcomes.update({(faction, n): r for (_, n), r in done.items()})
    result = agency.resolve(world, ctx, ChosenDice(dice), sorted(world.treasury))
    return world, outcomes, result, ledger


def code(outcomes: dict[tuple[str, int], Done | Rejection], faction: str, row: int = 2) -> tuple[str, str]:
    o = outcomes[(faction, row)]
    return (o.code, o.column) if isinstance(o, Rejection) else ("OK", "")


PARAMS = find_ruleset("inner_sphere").parameters().defaults()


W1_SYSTEMS = [
    {"hex": "0305", "name": "Kentares IV", "owner": "K"}, {"hex": "0407", "name": "Johnson", "owner": "K"},
    {"hex": "0306", "name": "Valexa", "owner": "K"}, {"hex": "0307", "name": "Archemar", "owner": "D"},
]


W1_REGIMENTS = [
    *[{"id": f"J{n}", "owner": "K", "type": "VL", "experience": "GREEN", "system": "0407"} for n in (1, 2, 3)],
    *[{"id": f"V{n}", "owner": "K", "type": "VL", "experience": "GREEN", "system": "0306"} for n in (1, 2, 3)],
    {"id": "A1", "owner": "D", "type": "MH", "experience": "VETERAN", "system": "0307"},
]


W1_CHAIN = [
    {"action": "Inicio", "hexes": "0305"},
    {"action": "Movimiento", "hexes": "0407"},
    {"action": "Cargar", "regiments": "J1, J2, J3"},
    {"action": "Movimiento", "hexes": "0306"},
    {"action": "Descargar", "regiments": "J1, J2, J3"},
    {"action": "Esperar"},
    {"action": "Cargar", "regiments": "V1, V2, V3"},
    {"action": "Movimiento", "hexes": "0307"},
    {"action": "Invasión", "hexes": "0307"},
]


W1_LINKS = [{"a": "0305", "b": "0407"}, {"a": "0407", "b": "0306"}, {"a": "0306", "b": "0307"}]


def plan(tables: dict[str, pd.DataFrame], faction: str, specs: list[dict[str, Any]], ship: str = "N",
         params: dict[str, Any] | None = None, links: list[dict[str, str]] | None = None,
         ) -> tuple[World, dict[tuple[str, int], Done | Rejection], list[movement.Chain], Ledger]:
    """Validate and pay ``faction``'s chain rows (rows numbered from 2, as in the sheet)."""
    world = world_from_tables(tables)
    ledger = Ledger(1)
    ctx = Context({**PARAMS, **(params or {})}, 1, ledger, tariffs(None), world.copy(), {faction})
    area = movement.Map([(x["a"], x["b"]) for x in links or []], ctx.params["hex_layout"])
    state = FactionState(world, ctx, faction, area)
    outcomes = carry_out(state, {"movement": sheet_of(schemas.MOVEMENT, [{"ship": ship, **s} for s in specs])})
    chains = state.plan.chains
    return world, outcomes, chains, ledger


def _everything(path: Path) -> str:
    """Every text a workbook holds: cells of every sheet (hidden ones too), defined names, comments, and
    document properties."""
    import openpyxl

    book = openpyxl.load_workbook(path)
    parts = [str(getattr(book.properties, name, "") or "") for name in
             ("title", "subject", "creator", "keywords", "description", "category", "identifier")]
    parts += [f"{name}={dn.attr_text}" for name, dn in book.defined_names.items()]
    for ws in book.worksheets:
        parts.append(ws.title)
        for row in ws.iter_rows():
            for cell in row:
                if cell.value is not None and not str(cell.value).startswith("="):  # formulas refer to cells
                    parts.append(str(cell.value))
                if cell.comment is not None:
                    parts.append(cell.comment.text)
    return "\n".join(parts)
