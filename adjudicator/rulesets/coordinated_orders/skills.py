"""The Skills of an order, as data (the ``skills`` table of ``tables.toml``): form, target, roll, attack, reveals…

The campaign's Rule tables sheet may change any of their values (``skills | BS_ATTACK | roll | FALSE``). The
rules ask :func:`skill` without a campaign at hand: the ruleset sets the campaign's Skills with :func:`use` when it
starts checking or resolving a campaign's orders, and every later :func:`skill` in that context reads them.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import Any

import pandas as pd

from adjudicator import rules_data

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


@cache
def default_skills() -> dict[str, Skill]:
    """The Skills as ``tables.toml`` gives them."""
    return skills_of(rules_data.table(PACKAGE, TABLE))


_current: ContextVar[dict[str, Skill] | None] = ContextVar("coordinated_orders_skills", default=None)


def campaign_skills(changes: pd.DataFrame | None) -> dict[str, Skill]:
    """The Skills with a campaign's Rule tables rows (``changes``) laid over ``tables.toml``."""
    if changes is None or changes.empty:
        return default_skills()
    return skills_of(rules_data.table(PACKAGE, TABLE, changes))


def use(tables: Mapping[str, pd.DataFrame]) -> dict[str, Skill]:
    """Make the Skills of the campaign whose state tables are ``tables`` those :func:`skill` gives, in this
    context (a thread, a task), until the next campaign's; returns them."""
    found = campaign_skills(tables.get(rules_data.RULE_TABLES.key))
    _current.set(found)
    return found


def skills() -> dict[str, Skill]:
    """The Skills of the campaign in hand (see :func:`use`), else those of ``tables.toml``."""
    found = _current.get()
    return default_skills() if found is None else found


def skill(code: str | None) -> Skill | None:
    return skills().get(code or "")
