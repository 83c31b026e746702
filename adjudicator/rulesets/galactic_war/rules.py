"""Galactic War as a ruleset of the engine: the Generals' four segments (G1) in one pass.

Movement (simultaneous, checked against the start-of-Movement snapshot), space battles in every system
where races meet, invasions, and the placement of the units the Rulers bought (GM input).

A race's orders are the order types of ``orders/`` (:data:`ORDER_TYPES`): the engine checks its rows with them
for ``check`` exactly as :meth:`GalacticWar.resolve` carries them out for ``run``; the segments that are not one
race's orders (the battles, the invasions, the placement) are the phases of ``phases/``.
"""

from __future__ import annotations

from typing import Any

from adjudicator.dice import Dice
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.orders import carry_out_orders, results_by_row
from adjudicator.engine.outcome import Result
from adjudicator.engine.outcome import outcomes as engine_outcomes
from adjudicator.engine.problems import Problem, Severity
from adjudicator.engine.ruleset import Campaign, Ruleset, TurnInput, TurnResult
from adjudicator.engine.sheets import records
from adjudicator.i18n import N_, Msg, msg
from adjudicator.rulesets.galactic_war import schemas
from adjudicator.rulesets.galactic_war.orders.battle_plan import BattlePlanType
from adjudicator.rulesets.galactic_war.orders.common import Galaxy, RaceOrders
from adjudicator.rulesets.galactic_war.orders.invasion import InvasionType
from adjudicator.rulesets.galactic_war.orders.move import MOVEMENT, MoveType
from adjudicator.rulesets.galactic_war.orders.stance import StanceType
from adjudicator.rulesets.galactic_war.phases.books import Books, balances
from adjudicator.rulesets.galactic_war.phases.movement import lose_fighters_without_room
from adjudicator.rulesets.galactic_war.phases.placement import place_all
from adjudicator.rulesets.galactic_war.presentation import GalacticWarPresentation
from adjudicator.rulesets.galactic_war.state import World, start_world, world_from_tables, world_to_tables
from adjudicator.rulesets.galactic_war.table_words import TABLE_VALUES, TABLE_WORDS

__all__ = ["MOVEMENT", "ORDER_STEPS", "ORDER_TYPES", "GalacticWar"]

#: Every order of a race's workbook, and when its rows are taken: the moves, the stances (after the moves: a
#: stance covers the ships that stayed), the battle plans, then the invasions (checked with the plans and the
#: race's own moves in mind).
ORDER_TYPES = (MoveType(), StanceType(), BattlePlanType(), InvasionType())
ORDER_STEPS = ("move", "stance", "plan", "invasion")


def galaxy_of(world: World, ledger: Ledger) -> Galaxy:
    return Galaxy(world, Books(ledger, world))


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
    rule_table_words = TABLE_WORDS  # the Rule tables sheet's words (table_words.py)
    rule_table_values = TABLE_VALUES
    reference_words = {"battle": N_("Battle"), "invasion": N_("Invasion")}  # noqa: RUF012 - ledger references

    def account_label(self, account: str) -> Msg | str:
        """A race's credits in the reader's words."""
        return msg("Credits") if account == "credits" else super().account_label(account)

    def commands(self) -> list[Any]:
        from adjudicator.rulesets.galactic_war.cli import odds_command

        return [odds_command]

    order_types = ORDER_TYPES
    order_steps = ORDER_STEPS

    presentation_type = GalacticWarPresentation

    def order_state(self, campaign: Campaign, faction: str, ledger: Ledger, dice: Dice) -> RaceOrders:
        """The race's orders against the start-of-Movement snapshot, its moves on a galaxy of its own (``check``,
        which also shows the odds of its invasions)."""
        snapshot = start_world(campaign.tables, campaign.parameters)  # shared: the orders only read it
        return RaceOrders(snapshot, galaxy_of(snapshot.copy(), ledger), campaign.parameters, faction, advice=True)

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
        # what only a turn uses, imported here: the tables after it are frames (pandas), and its battles'
        # printed odds are computed with numpy (odds.py); a check of the orders needs neither
        import pandas as pd

        from adjudicator.rulesets.galactic_war.phases.invasion import run_invasions
        from adjudicator.rulesets.galactic_war.phases.space_battle import BattleContext, battles_in
        from adjudicator.rulesets.galactic_war.reports import Reporter

        if turn.gm_input is None:
            # The Placement segment needs the Rulers' purchase list, a GM input (spec §1, §4.5, §6.4): the turn
            # waits for it; an empty Purchases sheet means nothing was bought.
            return TurnResult(gm_requests={"purchases": pd.DataFrame(columns=schemas.PURCHASES.keys())})
        campaign = turn.campaign
        params = campaign.parameters
        snapshot = world_from_tables(campaign.tables, params)
        galaxy = galaxy_of(snapshot.copy(), turn.ledger)
        races = sorted(campaign.factions)
        results: dict[tuple[str, str, int], Result] = {}
        states = {}
        # 1. Movement: each race's orders, the same steps as check, the moves on the one galaxy.
        for race in races:
            states[race] = state = RaceOrders(snapshot, galaxy, params, race)
            orders = turn.orders.get(race)
            if orders is not None:
                carried = carry_out_orders(self, params, state, orders)
                results.update({(race, sheet, row): r for (sheet, row), r in results_by_row(carried).items()})
        world, books = galaxy.world, galaxy.books
        lose_fighters_without_room(world, params, books)

        # 2. Space battles.
        plans = {race: states[race].plans for race in races}
        ctx = BattleContext(snapshot, galaxy.came_from, galaxy.dna, plans, params, turn.dice, books)
        battles = []
        for system in sorted(world.systems):
            battles += battles_in(world, ctx, system)

        # 3. Invasions: the rows the start of the turn did not refuse, checked again now.
        landings = [landing for race in races for landing in states[race].landings]
        invasions, landed = run_invasions(world, landings, plans, params, turn.dice, books)
        results.update({(race, "invasions", row): o for (race, row), o in landed.items()})

        # 4. Placement of the units the Rulers bought.
        purchases = turn.gm_input.get("purchases")
        rows = records(purchases.rows) if purchases else []
        placements = place_all(world, snapshot, rows, campaign.turn, params, galaxy.dna, books)
        for placement in placements:
            if placement.problem and purchases is not None:
                turn.problems.add(Problem(placement.problem[0], Severity.WARNING, placement.problem[1], None,
                                          file=turn.gm_input_file, sheet=purchases.sheet,
                                          cell=purchases.cell(placement.row, "planet"), row=placement.row))

        result = TurnResult(
            tables=world_to_tables(world, campaign.tables["factions"], campaign.tables.get("rule_tables"),
                                   campaign.tables.get("systems")),
            outcomes=engine_outcomes(results),
        )
        return Reporter(campaign, snapshot, world, battles, invasions, placements, ctx).fill(result, races)
