"""The Skills of an order, as data (``skills.toml``): form, target, roll, attack, reveals…"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from adjudicator import rules_data


@dataclass(frozen=True)
class Skill:
    code: str
    family: str
    form: str
    target: bool = False
    roll: bool = False
    attack: str = ""
    attribute: str = ""
    facts: bool = False
    reveals: bool = False
    compare_tool: str = ""
    common: bool = False
    super_jump: bool = False

    @property
    def entire_order(self) -> bool:
        return self.form == "ENTIRE_ORDER"


@cache
def skills() -> dict[str, Skill]:
    table = rules_data.default_tables("adjudicator.rulesets.coordinated_orders", "skills.toml")
    return {code: Skill(code, **spec) for code, spec in table.items()}


def skill(code: str | None) -> Skill | None:
    return skills().get(code or "")
