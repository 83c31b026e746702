"""Helpers shared by the tests of this folder."""

from __future__ import annotations

from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import pandas as pd

from adjudicator.dice import Dice, DiceError, Roll
from adjudicator.engine.books import unbalanced
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.problems import ProblemList
from adjudicator.engine.ruleset import FactionOrders, SheetRows, TurnInput, TurnResult
from adjudicator.rulesets.galactic_war import schemas
from adjudicator.rulesets.galactic_war.cli import build_contest, default_params
from adjudicator.rulesets.galactic_war.combat import parse_retreat
from adjudicator.rulesets.galactic_war.plans import BattlePlan
from adjudicator.scenario import campaign_from_data
from adjudicator.turn import pipeline
from tests.helpers import state

SYSTEMS = [
    {"system": "1", "neighbours": "2", "wormhole": "ALPHA"},
    {"system": "2", "neighbours": "1, 3"},
    {"system": "3", "neighbours": "2, 4, 6"},
    {"system": "4", "neighbours": "3, 5"},
    {"system": "5", "neighbours": "4", "wormhole": "ALPHA"},
    {"system": "6", "neighbours": "3"},
]


def gw(units: list[tuple[str, str, str, str]], planets: list[dict[str, Any]] | None = None,
       parameters: dict[str, Any] | None = None, techs: dict[str, str] | None = None, seed: int = 7,
       extra: list[dict[str, Any]] | None = None,
       rule_tables: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A small campaign: units as (id, race, type, system); GF and PDS may be 'system/planet' or 'system>transport'."""
    rows = []
    for uid, race, kind, where in units:
        row: dict[str, Any] = {"id": uid, "race": race, "type": kind, "system": where}
        if "/" in where:
            row["system"], row["planet"] = where.split("/")
        if ">" in where:
            row["system"], row["aboard"] = where.split(">")
        rows.append(row)
    return {
        "settings": {"ruleset": "galactic_war", "campaign": "gw", "seed": seed, "turn": 2, "language": "en",
                     "secret": "s"},
        "parameters": parameters or {},
        "tables": {
            "factions": [{"id": r, "name": r.title(), "language": "en", "credits": 0,
                          "techs": (techs or {}).get(r, "")} for r in ("ALPHA", "BETA", "GAMMA")],
            "systems": SYSTEMS, "planets": planets or [], "units": rows + (extra or []),
            "rule_tables": rule_tables or [],
        },
    }


def transport_capacity(n: int) -> dict[str, Any]:
    """The Rule tables row that makes a Transport carry ``n`` units (the units table, G21)."""
    return {"table": "units", "row": "TRANSPORT", "column": "capacity", "value": n}


def orders(root: Path, faction: str, sheets: dict[str, list[dict[str, Any]]]) -> None:
    from adjudicator.outputs.templates import build_order_workbook
    from adjudicator.outputs.writing import atomic_save

    _, campaign, ruleset = pipeline.open_campaign(root)
    atomic_save(build_order_workbook(ruleset, campaign, faction, sheets), root / "inbox" / f"{faction}.xlsx")


def units(root: Path) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in state(root).tables["units"].to_dict("records")}


CASES = [
    ({"CRUISER": 2, "FIGHTER": 3}, {"DREADNOUGHT": 1, "FIGHTER": 2, "PDS": 1}, "OWN_SHIPS<=1", "NEVER", False, "none"),
    ({"DREADNOUGHT": 2}, {"CRUISER": 3}, "NEVER", "LOSSES>=50%", False, "attacker"),
    ({"FIGHTER": 4, "TRANSPORT": 1}, {"CRUISER": 2}, "OWN_SHIPS<1*ENEMY_SHIPS", "AFTER_ROUND 2", False, "none"),
    ({"GF": 3, "DREADNOUGHT": 1}, {"GF": 2}, "NEVER", "NEVER", True, "none"),
    ({"GF": 2, "FIGHTER": 2}, {"GF": 2, "PDS": 1}, "NEVER", "NEVER", True, "none"),
]


def contest_of(case: tuple, params: dict | None = None):  # noqa: ANN001, ANN201
    attacker, defender, a_retreat, d_retreat, invasion, dna = case
    return build_contest(attacker, defender, invasion, params or default_params(),
                         BattlePlan(retreat_if=parse_retreat(a_retreat)),
                         BattlePlan(retreat_if=parse_retreat(d_retreat)),
                         {"ASSAULT_CANNON", "ANTIGRAVITON"}, set(), dna=dna)


SHEETS = {s.key: s for s in (schemas.MOVES, schemas.STANCE, schemas.BATTLE_PLAN, schemas.INVASIONS)}


class ScriptedDice(Dice):
    """Dice whose faces are given per purpose (shell patterns, the first that matches wins; default ``miss``).
    Like the real dice, a purpose can be rolled once per turn."""

    def __init__(self, faces: dict[str, int] | None = None, default: int = 1) -> None:
        super().__init__(0, 2)
        self.faces = faces or {}
        self.default = default

    def roll(self, purpose: str, sides: int, count: int = 1) -> Roll:
        if purpose in self._used:
            raise DiceError(f"dice already rolled this turn for {purpose!r}")
        self._used.add(purpose)
        face = next((f for pattern, f in self.faces.items() if fnmatchcase(purpose, pattern)), self.default)
        result = Roll(self.turn, purpose, sides, (face,) * count)
        self.log.append(result)
        return result

    @property
    def purposes(self) -> list[str]:
        return [r.purpose for r in self.log]


def typed(schema: Any, rows: list[dict[str, Any]], file: str) -> SheetRows:
    keys = schema.keys()
    frame = pd.DataFrame([{k: r.get(k) for k in keys} for r in rows], columns=keys,
                         index=range(2, 2 + len(rows)))
    letters = {k: chr(ord("A") + i) for i, k in enumerate(keys)}
    return SheetRows(schema, schema.key, frame, letters, file)


def resolve(data: dict[str, Any], sheets: dict[str, dict[str, list[dict[str, Any]]]] | None = None,
            dice: Dice | None = None, purchases: list[dict[str, Any]] | None = None
            ) -> tuple[TurnResult, dict[str, dict[str, Any]], ProblemList]:
    """One turn resolved in memory; returns the result, the units after it, and the GM problems."""
    ruleset, campaign = campaign_from_data(data)
    faction_orders = {race: FactionOrders(race, f"{race}.xlsx", {key: typed(SHEETS[key], rows, f"{race}.xlsx")
                                                                  for key, rows in by_sheet.items()})
                      for race, by_sheet in (sheets or {}).items()}
    gm = {"purchases": typed(schemas.PURCHASES, purchases or [], "gm.xlsx")}
    ledger = Ledger(campaign.turn)
    problems = ProblemList()
    result = ruleset.resolve(TurnInput(campaign, faction_orders, gm, "gm.xlsx", dice or ScriptedDice(), ledger,
                                       problems))
    assert not unbalanced(ruleset, campaign, result, ledger.lines)
    after = {r["id"]: r for r in result.tables["units"].to_dict("records")}
    return result, after, problems


def table(result: TurnResult, key: str, race: str | None = None) -> list[list[Any]]:
    reports = result.gm_reports if race is None else result.faction_reports[race]
    return next(t.rows for t in reports if t.key == key)


def battles(result: TurnResult) -> list[tuple[Any, ...]]:
    """(system, number, attacker, defender, winner, trophies, retreats) of every space battle."""
    return [(r[0], r[1], r[2], r[3], r[5], r[6], r[7]) for r in table(result, "battles")]


def where(after: dict[str, dict[str, Any]], *ids: str) -> list[str | None]:
    return [after[i]["system"] if i in after else None for i in ids]


def moves(*rows: tuple[str, str, str]) -> dict[str, list[dict[str, Any]]]:
    return {"moves": [{"origin": o, "units": u, "path": p} for o, u, p in rows]}
