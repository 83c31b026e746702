"""The rule tables (tables.toml) with the campaign's Rule tables sheet laid over them, read as the rules
use them: costs, research levels, and the roll tables of the agency (a row keyed by a range of rolls)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from adjudicator.engine import rules_data
from adjudicator.engine.ledger import Amount
from adjudicator.rulesets.inner_sphere.state import amount

PACKAGE = "adjudicator.rulesets.inner_sphere"


def rule_tables(changes: Any = None) -> dict[str, Any]:
    """The ruleset's tables with the campaign's changes (the Rule tables sheet) applied."""
    return rules_data.rule_tables(PACKAGE, changes)


def by_roll(table: Mapping[str, Any], roll: int) -> dict[str, Any]:
    """The row of a roll table whose key ("1", "2-4", "9-10") holds ``roll``; a table that leaves the roll
    out is a :class:`~adjudicator.engine.rules_data.RuleTableError` (a table the GM changed must still cover it)."""
    ranges = []
    for key, row in table.items():
        low, _, high = str(key).partition("-")
        if low.strip().isdigit() and (high or low).strip().isdigit():
            ranges.append((int(low), int(high or low), row))
    if ranges:  # a roll beyond the table (an unclamped roll) reads its first or last row
        roll = min(max(roll, min(r[0] for r in ranges)), max(r[1] for r in ranges))
    for low, high, row in ranges:
        if low <= roll <= high:
            return dict(row)
    raise rules_data.RuleTableError(f"no row of the table for a roll of {roll} (rows: {', '.join(table)})")


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
    tables: dict[str, Any]  # every table, as the campaign has them (the agency's roll tables among them)

    @property
    def top_defence(self) -> int:
        """The highest aerospace defence level: the last level of the defences table."""
        return max(self.defences)

    def row(self, table: str, key: str) -> dict[str, Any]:
        """One row of a table by its key (``tariffs.row("revolt", "roll")``)."""
        return dict(rules_data.rows_of(self.tables, table)[key])

    def by_roll(self, table: str, roll: int) -> dict[str, Any]:
        """The row of a roll table that holds ``roll`` (see :func:`by_roll`)."""
        return by_roll(rules_data.rows_of(self.tables, table), roll)


def tariffs(changes: Any) -> Tariffs:
    """The rule tables with the campaign's changes (rows of the Rule tables sheet, as kept or a frame) applied."""
    data = rule_tables(changes)
    units = {
        code: UnitType(code, amount(u["purchase"]), amount(u["upkeep"]), u["strength"], u["factory"], int(u["turns"]))
        for code, u in data["regiments"].items()
    }
    defences = {
        int(level): DefenceLevel(int(level), amount(d["purchase"]), amount(d["upkeep"]), d["dice"], d["strength"],
                                 int(d["turns"]), d["detection"])
        for level, d in data["defences"].items()
    }
    ships = {code: ShipClass(code, s["capacity"], s["safe"], s["max"], s["accident"], amount(s["per_hex"]))
             for code, s in data["jumpships"].items()}
    income = {t: amount(f["income"]) for t, f in data["factories"].items()}
    lines = {t: int(f["lines"]) for t, f in data["factories"].items()}
    return Tariffs(units, defences, ships, income, lines, data)


# ------------------------------------------------------------------------------------------ research
ADDITIVE = ("safe_hexes", "fortress", "ground", "ground_defender", "stacking", "command", "protect", "sabotage",
            "research", "income_pct", "new_factories")
HIGHEST = ("regular_pct", "factory_income_pct")


def research_levels(tables: Mapping[str, Any] | None = None) -> dict[str, list[dict[str, int]]]:
    """The levels of each research line (of ``tables``, a campaign's; by default the ruleset's own), copies."""
    return {line: [dict(level) for level in levels] for line, levels in _research(tables).items()}


def _research(tables: Mapping[str, Any] | None) -> dict[str, Any]:
    """The research table of ``tables`` (by default the ruleset's own) itself: read it, never change it."""
    return tables["research"] if tables is not None else _default_research()


@cache
def _default_research() -> dict[str, Any]:
    """The ruleset's own research table, read once (callers get copies of its levels)."""
    return rule_tables()["research"]


def bonuses(points: dict[str, int], tables: Mapping[str, Any] | None = None) -> dict[str, int]:
    """What a state's research gives (A37): the "+1"s add up; percentages take the highest level reached."""
    out = dict.fromkeys(ADDITIVE + HIGHEST, 0)
    for line, levels in _research(tables).items():  # read, not copied
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
    for level in _research(None).get(line, []):
        if level["points"] > points:
            return int(level["points"])
    return None


def levels_crossed(line: str, before: int, after: int) -> list[int]:
    low, high = sorted((before, after))
    return [lv["points"] for lv in _research(None).get(line, []) if low < lv["points"] <= high]
