"""The BATTLE_PLAN sheet (§4.3): a race's plans, with malformed fields reported (B01) and replaced by defaults."""

from __future__ import annotations

from adjudicator.engine.ruleset import FactionOrders
from adjudicator.i18n import msg
from adjudicator.problems import Problem, Severity
from adjudicator.rulesets.galactic_war.plans import PlanBook, read_plan
from adjudicator.rulesets.galactic_war.state import World, sid
from adjudicator.sheets import records

ALL_WORDS = {"", "ALL", "ВСЕ", "ВСЁ", "TODO", "TODOS", "TODAS"}


def plan_book(world: World, orders: FactionOrders | None) -> tuple[PlanBook, list[Problem]]:
    book = PlanBook()
    problems: list[Problem] = []
    sheet = orders.sheets.get("battle_plan") if orders else None
    if sheet is None:
        return book, problems
    for row, values in records(sheet.frame):
        if not any(values.values()):
            continue
        plan, bad = read_plan(values)
        scope = sid(values.get("scope"))

        def warn(column: str, reason: object, r: int = row) -> None:
            problems.append(Problem("B01", Severity.WARNING,
                                    msg("Battle plan row {n}: {reason}; default used.", n=r, reason=reason), None,
                                    file=sheet.file, sheet=sheet.sheet, cell=sheet.cell(r, column), row=r))

        for column, text in bad:
            warn(column, msg("{value} is not a retreat condition", value=text))
        for entry in plan.space + plan.ground:
            if entry not in world.units and entry not in {"CRUISER", "TRANSPORT", "DREADNOUGHT", "FIGHTER", "GF",
                                                           "PDS", "DESTROYER", "WAR_SUN"}:
                warn("space_casualties" if entry in plan.space else "ground_casualties",
                     msg("{value} is neither a unit type nor a unit ID", value=entry))
        unknown = [s for s in plan.retreat_to if s not in world.systems]
        if unknown:
            warn("retreat_to", msg("{value} is not a system", value=", ".join(unknown)))
            plan.retreat_to = [s for s in plan.retreat_to if s in world.systems]
        if scope in ALL_WORDS:
            book.default = plan
        elif scope in world.systems:
            book.systems[scope] = plan
        else:
            warn("scope", msg("{value} is not a system", value=scope))
    return book, problems
