"""The rule tables (tables.toml) with the campaign's Tariffs sheet laid over them, and research levels."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import pandas as pd

from adjudicator.ledger import Amount
from adjudicator.rulesets.inner_sphere.state import amount

PACKAGE = "adjudicator.rulesets.inner_sphere"


@cache
def rule_tables() -> dict[str, Any]:
    return tomllib.loads((resources.files(PACKAGE) / "tables.toml").read_text(encoding="utf-8"))


@dataclass(frozen=True)
class UnitType:
    code: str
    purchase: Amount  # C
    upkeep: Amount  # C
    strength: int
    factory: str
    turns: int


@dataclass(frozen=True)
class DefenceLevel:
    level: int
    purchase: int
    upkeep: int
    dice: int
    strength: int
    turns: int
    detection: bool


@dataclass(frozen=True)
class ShipClass:
    code: str
    capacity: int
    safe: int
    max: int
    accident: int
    per_hex: Amount  # C


@dataclass(frozen=True)
class Tariffs:
    units: dict[str, UnitType]
    defences: dict[int, DefenceLevel]
    ships: dict[str, ShipClass]
    factory_income: dict[str, int]  # C
    factory_lines: dict[str, int]
    overridden: frozenset[str]


def tariffs(frame: pd.DataFrame | None) -> Tariffs:
    """The rule tables with the GM's rows of the Tariffs sheet applied (a blank cell keeps the default)."""
    data = rule_tables()
    rows: dict[str, dict[str, Any]] = {}
    if frame is not None and not frame.empty:
        for record in frame.to_dict("records"):
            item = str(record.get("item") or "").strip().upper().replace(" ", "")
            if item:
                rows[item] = {k: v for k, v in record.items() if v is not None and not pd.isna(v)}

    def pick(item: str, column: str, default: Any) -> Any:
        return rows.get(item, {}).get(column, default)

    units = {
        code: UnitType(code, amount(pick(code, "purchase", u["purchase"])),
                       amount(pick(code, "upkeep", u["upkeep"])), u["strength"], u["factory"],
                       int(pick(code, "turns", u["turns"])))
        for code, u in data["regiments"].items()
    }
    defences = {}
    for level, d in data["defences"].items():
        item = f"DEF{level}"
        defences[int(level)] = DefenceLevel(int(level), amount(pick(item, "purchase", d["purchase"])),
                                            amount(pick(item, "upkeep", d["upkeep"])), d["dice"], d["strength"],
                                            int(pick(item, "turns", d["turns"])), d["detection"])
    ships = {
        code: ShipClass(code, s["capacity"], s["safe"], s["max"], s["accident"],
                        amount(pick(code, "purchase", s["per_hex"])))
        for code, s in data["jumpships"].items()
    }
    income = {t: amount(pick(t, "income", f["income"])) for t, f in data["factories"].items()}
    lines = {t: int(f["lines"]) for t, f in data["factories"].items()}
    return Tariffs(units, defences, ships, income, lines, frozenset(rows))


def tariff_rows() -> list[dict[str, Any]]:
    """The default Tariffs sheet (what a new campaign shows the GM)."""
    data = rule_tables()
    rows: list[dict[str, Any]] = []
    for code, u in data["regiments"].items():
        rows.append({"item": code, "purchase": u["purchase"], "upkeep": u["upkeep"], "turns": u["turns"]})
    for level, d in data["defences"].items():
        rows.append({"item": f"DEF{level}", "purchase": d["purchase"], "upkeep": d["upkeep"], "turns": d["turns"]})
    for code, s in data["jumpships"].items():
        rows.append({"item": code, "purchase": s["per_hex"]})
    for code, f in data["factories"].items():
        rows.append({"item": code, "income": f["income"]})
    return rows


# ------------------------------------------------------------------------------------------ research
ADDITIVE = ("safe_hexes", "fortress", "ground", "ground_defender", "stacking", "command", "protect", "sabotage",
            "research", "income_pct", "new_factories")
HIGHEST = ("regular_pct", "factory_income_pct")


@cache
def research_levels() -> dict[str, list[dict[str, int]]]:
    return {line: [dict(level) for level in levels] for line, levels in rule_tables()["research"].items()}


def bonuses(points: dict[str, int]) -> dict[str, int]:
    """What a state's research gives (A37): the "+1"s add up; percentages take the highest level reached."""
    out = dict.fromkeys(ADDITIVE + HIGHEST, 0)
    for line, levels in research_levels().items():
        have = points.get(line, 0)
        for level in levels:
            if have < level["points"]:
                continue
            for name, value in level.items():
                if name == "points":
                    continue
                out[name] = max(out[name], value) if name in HIGHEST else out[name] + value
    return out


def next_threshold(line: str, points: int) -> int | None:
    """The first level of ``line`` above ``points`` (None past the last level listed)."""
    for level in research_levels().get(line, []):
        if level["points"] > points:
            return int(level["points"])
    return None


def levels_crossed(line: str, before: int, after: int) -> list[int]:
    low, high = sorted((before, after))
    return [lv["points"] for lv in research_levels().get(line, []) if low < lv["points"] <= high]
