"""Galactic War as a ruleset of the engine: the Generals' four segments (G1) in one pass.

Movement (simultaneous, checked against the start-of-Movement snapshot), space battles in every system
where races meet, invasions, and the placement of the units the Rulers bought (GM input).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from adjudicator.engine.outcome import outcomes as engine_outcomes
from adjudicator.engine.outcome import rejection_problem
from adjudicator.engine.ruleset import (
    Campaign,
    FactionOrders,
    Ruleset,
    SheetRows,
    TurnInput,
    TurnResult,
)
from adjudicator.i18n import N_, Msg, msg, msg_n
from adjudicator.problems import Problem, ProblemList, Severity
from adjudicator.rulesets.galactic_war import schemas
from adjudicator.rulesets.galactic_war.odds import exact
from adjudicator.rulesets.galactic_war.orders import invasion as invasion_orders
from adjudicator.rulesets.galactic_war.orders import move as move_orders
from adjudicator.rulesets.galactic_war.orders.battle_plan import plan_book
from adjudicator.rulesets.galactic_war.orders.common import Done, Rejection, unknown_system
from adjudicator.rulesets.galactic_war.phases.books import Books, balances
from adjudicator.rulesets.galactic_war.phases.invasion import contest_for, run_invasions
from adjudicator.rulesets.galactic_war.phases.placement import place_all
from adjudicator.rulesets.galactic_war.phases.space_battle import BattleContext, battles_in
from adjudicator.rulesets.galactic_war.reports import Reporter
from adjudicator.rulesets.galactic_war.state import World, sid, world_from_tables, world_to_tables
from adjudicator.sheets import records

MOVEMENT = N_("movement")
OutcomeKey = tuple[str, str, int]  # race, sheet key, row


def valid_rows(orders: FactionOrders | None, key: str) -> tuple[SheetRows | None, list[tuple[int, dict[str, Any]]]]:
    sheet = orders.sheets.get(key) if orders else None
    if sheet is None:
        return None, []
    rows = [(n, r) for n, r in records(sheet.frame) if any(v not in (None, "") for v in r.values())]
    return sheet, rows


def movement_of(world: World, race: str, orders: FactionOrders | None, params: dict[str, Any]
                ) -> tuple[dict[int, move_orders.Move | Rejection], dict[int, Any]]:
    """A race's movement rows checked against the snapshot, and the readings of free-text orders."""
    _, rows = valid_rows(orders, "moves")
    read: list[move_orders.MoveRow] = []
    out: dict[int, move_orders.Move | Rejection] = {}
    readings = {}
    for number, values in rows:
        parsed = move_orders.read_row(world, race, number, values, str(params["free_text_reading"]))
        if isinstance(parsed, Rejection):
            out[number] = parsed
            continue
        if parsed.reading is not None:
            readings[number] = parsed.reading
        read.append(parsed)
    out.update(move_orders.check_rows(world, read, params))
    return out, readings


class GalacticWar(Ruleset):
    name = "galactic_war"
    aliases = ("galactic", "galacticwar", "военные_действия")
    title = N_("Galactic War")
    default_language = "ru"
    data_package = "adjudicator.rulesets.galactic_war"
    retired_parameters = {"transport_capacity": ("units", "TRANSPORT", "capacity")}  # noqa: RUF012 - G21, one source
    faction_columns = (schemas.CREDITS, schemas.TECHS)
    state_schemas = (schemas.SYSTEMS, schemas.PLANETS, schemas.UNITS)  # and Rule tables, given by the engine
    order_schemas = (schemas.MOVES, schemas.STANCE, schemas.BATTLE_PLAN, schemas.INVASIONS)
    gm_input_schemas = (schemas.PURCHASES,)

    def account_label(self, account: str) -> Msg | str:
        """A race's credits in the reader's words."""
        return msg("Credits") if account == "credits" else super().account_label(account)

    def commands(self) -> list[Any]:
        from adjudicator.rulesets.galactic_war.cli import odds_command

        return [odds_command]

    def choice_lists(self, campaign: Campaign, faction: str) -> dict[str, list[str]]:
        world = world_from_tables(campaign.tables, campaign.parameters)
        systems = sorted(world.systems)
        return {"origin": systems, "system": systems, "scope": ["ALL", *systems],
                "planet": sorted(world.planets)}

    # ----------------------------------------------------------------- check
    def validate_orders(self, campaign: Campaign, faction: str, orders: FactionOrders, problems: ProblemList) -> None:
        params = campaign.parameters
        world = world_from_tables(campaign.tables, params)
        moves, readings = movement_of(world, faction, orders, params)
        sheet = orders.sheets.get("moves")
        if sheet is not None:
            for row, outcome in sorted(moves.items()):
                if isinstance(outcome, Rejection):
                    problems.add(_problem(outcome, sheet, row))
                elif row in readings:
                    problems.add(Problem("MV10", Severity.WARNING, msg("Order text {reading}.", reading=readings[row]),
                                         None, file=sheet.file, sheet=sheet.sheet, cell=sheet.cell(row, "text"),
                                         row=row))
        stance, rows = valid_rows(orders, "stance")
        for row, values in rows:
            if sid(values.get("system")) not in world.systems:
                problems.add(_problem(unknown_system(sid(values.get("system")), "system"), stance, row))  # type: ignore[arg-type]
        _, plan_problems = plan_book(world, orders)
        problems.extend(plan_problems)
        self._check_invasions(world, faction, orders, moves, params, problems)

    def _check_invasions(self, world: World, faction: str, orders: FactionOrders,
                         moves: dict[int, move_orders.Move | Rejection], params: dict[str, Any],
                         problems: ProblemList) -> None:
        sheet, rows = valid_rows(orders, "invasions")
        if sheet is None or not rows:
            return
        projected = world.copy()  # the race's own valid moves carried out, nothing else changed
        move_orders.apply_moves(projected, [m for m in moves.values() if isinstance(m, move_orders.Move)])
        plans, _ = plan_book(world, orders)
        for row, values in rows:
            landing = invasion_orders.read_row(faction, row, values)
            refused = invasion_orders.static_check(world, landing)
            if refused:
                problems.add(_problem(refused, sheet, row))
                continue
            checked = invasion_orders.check(projected, landing, params)
            where = {"file": sheet.file, "sheet": sheet.sheet, "cell": sheet.cell(row, "odds"), "row": row}
            if isinstance(checked, Rejection):
                problems.add(Problem(checked.code, Severity.WARNING, msg(
                    "If nothing else changes before the Invasion, this row will be refused: {reason}",
                    reason=checked.message), None, **where))  # type: ignore[arg-type]
                continue
            if not checked.landers or world.planets[landing.planet].owner == faction:
                continue
            odds = exact(contest_for(projected, checked, {faction: plans}, params)).invasion_success or 0.0
            problems.add(Problem("I00", Severity.WARNING, msg(
                "Chance of conquering {planet}: {odds} (exact, against the defenders there now).",
                planet=landing.planet, odds=f"{odds * 100:.1f}%"), None, **where))  # type: ignore[arg-type]

    def roll_label(self, purpose: str) -> Msg | str:
        from adjudicator.rulesets.galactic_war.dice_viewers import roll_label

        return roll_label(purpose)

    def roll_viewers(self, campaign: Campaign, purposes: list[str]) -> dict[str, set[str]]:
        from adjudicator.rulesets.galactic_war.dice_viewers import roll_viewers

        return roll_viewers(purposes, campaign.factions)

    # --------------------------------------------------------------- resolve
    def balances(self, campaign: Campaign) -> dict[tuple[str, str], Any]:
        """Each race's credits, its units by type and system, its docks."""
        return balances(world_from_tables(campaign.tables, campaign.parameters))
    def map_view(self, campaign: Campaign, result: TurnResult, reader: str) -> Any:
        from adjudicator.rulesets.galactic_war.map_view import map_view

        return map_view(campaign, result, reader)

    def resolve(self, turn: TurnInput) -> TurnResult:
        if turn.gm_input is None:
            # The Placement segment needs the Rulers' purchase list, a GM input (spec §1, §4.5, §6.4): the turn
            # waits for it; an empty Purchases sheet means nothing was bought.
            return TurnResult(gm_requests={"purchases": pd.DataFrame(columns=schemas.PURCHASES.keys())})
        campaign = turn.campaign
        params = campaign.parameters
        snapshot = world_from_tables(campaign.tables, params)
        world = snapshot.copy()
        books = Books(turn.ledger, world)
        races = sorted(campaign.factions)
        outcomes: dict[OutcomeKey, Done | Rejection] = {}
        plans = {race: plan_book(snapshot, turn.orders.get(race))[0] for race in races}

        # 1. Movement: every row against the snapshot, then all at once.
        valid: list[move_orders.Move] = []
        for race in races:
            checked, readings = movement_of(snapshot, race, turn.orders.get(race), params)
            for row, outcome in checked.items():
                if isinstance(outcome, Rejection):
                    outcomes[(race, "moves", row)] = outcome
                    continue
                valid.append(outcome)
                text = msg_n("{n} unit moved to {system}.", "{n} units moved to {system}.", len(outcome.units),
                             system=outcome.route[-1])
                if row in readings:
                    text = msg("{done} Order text {reading}.", done=text, reading=readings[row])
                outcomes[(race, "moves", row)] = Done(text)
        came_from: dict[str, str] = {}
        dna: set[str] = set()
        for move in sorted(valid, key=lambda m: (m.row.race, m.row.row)):
            came_from.update(move_orders.apply_moves(world, [move]))
            if move.row.dna:
                dna |= {u.id for u in move.units}
            books.record(world, MOVEMENT, msg("Movement to {system}.", system=move.route[-1]),
                         f"{move.row.race}:moves:row {move.row.row}")
        for race in races:
            sheet, rows = valid_rows(turn.orders.get(race), "stance")
            for row, values in rows:
                system = sid(values.get("system"))
                if system not in world.systems:
                    outcomes[(race, "stance", row)] = unknown_system(system, "system")
                    continue
                if values.get("dna") == "Y":
                    dna |= {u.id for u in world.ships(system, race) if u.id not in came_from}
                outcomes[(race, "stance", row)] = Done(msg("Stance recorded for {system}.", system=system))
        self._fighter_capacity(world, params, books)

        # 2. Space battles.
        ctx = BattleContext(snapshot, came_from, dna, plans, params, turn.dice, books)
        battles = []
        for system in sorted(world.systems):
            battles += battles_in(world, ctx, system)

        # 3. Invasions.
        landings = []
        for race in races:
            _, rows = valid_rows(turn.orders.get(race), "invasions")
            for row, values in rows:
                landing = invasion_orders.read_row(race, row, values)
                refused = invasion_orders.static_check(snapshot, landing)
                if refused:
                    outcomes[(race, "invasions", row)] = refused
                else:
                    landings.append(landing)
        invasions, landed = run_invasions(world, landings, plans, params, turn.dice, books)
        outcomes.update({(race, "invasions", row): o for (race, row), o in landed.items()})

        # 4. Placement of the units the Rulers bought.
        purchases = turn.gm_input.get("purchases") if turn.gm_input else None
        rows = records(purchases.frame) if purchases else []
        placements = place_all(world, snapshot, rows, campaign.turn, params, dna, books)
        for placement in placements:
            if placement.problem and purchases is not None:
                turn.problems.add(Problem(placement.problem[0], Severity.WARNING, placement.problem[1], None,
                                          file=turn.gm_input_file, sheet=purchases.sheet,
                                          cell=purchases.cell(placement.row, "planet"), row=placement.row))

        for race in races:
            sheet, rows = valid_rows(turn.orders.get(race), "battle_plan")
            for row, _ in rows:
                outcomes[(race, "battle_plan", row)] = Done(msg("Battle plan recorded."))

        result = TurnResult(
            tables=world_to_tables(world, campaign.tables["factions"], campaign.tables.get("rule_tables"),
                                   campaign.tables.get("systems")),
            outcomes=engine_outcomes(outcomes),
        )
        reporter = Reporter(campaign, snapshot, world, battles, invasions, placements, ctx)
        result.faction_reports = {race: reporter.faction(race) for race in races}
        result.gm_reports = reporter.gm()
        return result

    def _fighter_capacity(self, world: World, params: dict[str, Any], books: Books) -> None:
        """With enforce_fighter_capacity, Fighters beyond their race's Transport room (away from its docks) are lost."""
        if not params["enforce_fighter_capacity"]:
            return
        for system in sorted(world.systems):
            for race in sorted(world.races_with_ships(system)):
                if any(p.dock and p.owner == race for p in world.planets_in(system)):
                    continue
                ships = world.ships(system, race)
                room = sum(world.capacity(u.type) for u in ships if u.type in ("TRANSPORT", "WAR_SUN"))
                others = sum(1 for u in world.in_system(system) if u.race == race and u.aboard
                             and u.type in ("GF", "PDS"))
                fighters = [u for u in ships if u.type == "FIGHTER"]
                for unit in fighters[: max(0, len(fighters) - max(0, room - others))]:
                    del world.units[unit.id]
                books.record(world, MOVEMENT, msg("Fighters without Transport room are lost in {system}.",
                                                  system=system), f"fighters:{system}")


def _problem(rejection: Rejection, sheet: SheetRows, row: int) -> Problem:
    return rejection_problem(sheet, row, rejection)
