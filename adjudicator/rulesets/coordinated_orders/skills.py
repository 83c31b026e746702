"""The Skills of an order, as data (the ``skills`` table of ``tables.toml``): form, target, roll, attack, reveals…

The campaign's Rule tables sheet may change any of their values (``skills | BS_ATTACK | roll | FALSE``): the
ruleset reads a campaign's Skills once (:func:`campaign_skills`) and hands them, as data, to every function of the
rules that needs them; no rule reads them from anywhere else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from adjudicator.engine import rules_data

PACKAGE = "adjudicator.rulesets.coordinated_orders"
TABLE = "skills"


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


def skills_of(table: Mapping[str, Any]) -> dict[str, Skill]:
    """The Skills of a ``skills`` table (row: the Skill's code)."""
    return {code: Skill(code, **spec) for code, spec in table.items()}


#: A campaign's Skills by code.
Skills = Mapping[str, Skill]


@cache
def default_skills() -> dict[str, Skill]:
    """The Skills as ``tables.toml`` gives them."""
    return skills_of(rules_data.table(PACKAGE, TABLE))


def campaign_skills(changes: Any) -> dict[str, Skill]:
    """The Skills with a campaign's Rule tables rows (``changes``, as kept or a frame) laid over ``tables.toml``:
    the table the ruleset hands to every check and resolution step of that campaign."""
    if changes is None or not len(changes):
        return default_skills()
    return skills_of(rules_data.table(PACKAGE, TABLE, changes))


def skill(table: Skills, code: str | None) -> Skill | None:
    """The Skill ``code`` of ``table`` (a campaign's Skills), None for a code it does not have."""
    return table.get(code or "")
