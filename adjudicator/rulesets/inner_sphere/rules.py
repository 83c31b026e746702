"""Inner Sphere as a ruleset of the engine: the orders phase (3.1 repairs, 3.2 purchases, 3.3 movement,
3.5 research) with the economy the source leaves out (spec §3, §9).

Turn order: technology sales that come due; per state income, upkeep and the jumpships' minimum;
then each state's orders, the order types of ``orders/`` (:data:`ORDER_TYPES`), checked and paid in the
order 3.1, 3.2, 3.3 (whole chains), 3.4, 3.5 and row order (a row that cannot be paid is refused with
E-FUNDS); the agency operations of every state resolved together; research dice and new factories;
movement execution in simultaneous steps over all ships; the GM's inputs (combat results of chapters
4–5, damage, sales, corrections); end of turn (control changes, repairs, production, defences).
Payment touches only a state's own treasury and assets, and movement runs over all states at once, so
the order in which workbooks are read changes nothing.

The engine checks a state's rows for ``check`` with the same order types, on the same state
(:meth:`InnerSphere.order_state`), as :meth:`InnerSphere.resolve` carries them out for ``run``.
"""

from __future__ import annotations

from typing import Any

from adjudicator.dice import Dice
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.orders import carry_out_orders, results_by_row
from adjudicator.engine.outcome import outcomes as engine_outcomes
from adjudicator.engine.row_table import table_rows
from adjudicator.engine.rules_data import RULE_TABLES
from adjudicator.engine.ruleset import Campaign, Ruleset, TurnInput, TurnResult
from adjudicator.engine.sheets import state_rows
from adjudicator.i18n import N_, Msg, msg
from adjudicator.rulesets.inner_sphere import schemas
from adjudicator.rulesets.inner_sphere.data import tariffs
from adjudicator.rulesets.inner_sphere.orders import agency, movement, purchase, repair, research
from adjudicator.rulesets.inner_sphere.orders.agency import commandos as agency_commandos
from adjudicator.rulesets.inner_sphere.orders.agency import sabotage as agency_sabotage
from adjudicator.rulesets.inner_sphere.orders.agency import unrest as agency_unrest
from adjudicator.rulesets.inner_sphere.orders.base import FactionState
from adjudicator.rulesets.inner_sphere.orders.common import ACCOUNT, Context, Done, Rejection
from adjudicator.rulesets.inner_sphere.phases import economy, end_of_turn
from adjudicator.rulesets.inner_sphere.presentation import InnerSpherePresentation
from adjudicator.rulesets.inner_sphere.state import (
    World,
    hex_id,
    start_world,
    treasury_from_tables,
    world_from_tables,
    world_to_tables,
)
from adjudicator.rulesets.inner_sphere.table_words import TABLE_VALUES, TABLE_WORDS

#: Every order of the five order sheets, and when a state's rows of each are checked and paid: 3.1 repairs,
#: 3.2 purchases, 3.3 each jumpship's whole chain, 3.4 agency operations, 3.5 research; row order within each.
ORDER_TYPES = (repair.RepairRegiment(), repair.RepairFactory(), purchase.BuyRegiment(), purchase.BuyDefence(),
               purchase.BuyJumpship(), movement.JumpshipChain(), agency.AgencyOperation(), research.AssignLab(),
               research.ResearchDice(), research.IcnaRoll(), research.NewFactory())
ORDER_STEPS = ("3.1", "3.2", "3.3", "3.4", "3.5")


def area(campaign: Campaign) -> movement.Map:
    links = [(hex_id(r.get("a")), hex_id(r.get("b"))) for r in state_rows(campaign.tables, "links")]
    return movement.Map(links, campaign.parameters["hex_layout"])


def faction_state(world: World, ctx: Context, faction: str, the_map: movement.Map) -> FactionState:
    """A state ready for its orders: its income collected, upkeep and the jumpships' minimum paid (§3 steps 1, 3)."""
    economy.collect(world, ctx, faction)
    return FactionState(world, ctx, faction, the_map)


def apply_sales_due(world: World, turn: int) -> list[end_of_turn.Event]:
    """Technology sold two turns ago takes effect: buyer points = max(own, sold) (A39)."""
    events = []
    for sale in [s for s in world.sales if s.effective_turn <= turn]:
        before = world.line_points(sale.buyer, sale.line)
        world.points[(sale.buyer, sale.line)] = max(before, sale.points)
        world.sales.remove(sale)
        events.append(end_of_turn.Event(sale.buyer, msg(
            "Technology bought from {seller} assimilated: {line} {before} → {after} points.", seller=sale.seller,
            line=research.line_label(sale.line), before=before, after=world.line_points(sale.buyer, sale.line))))
    return events


class InnerSphere(Ruleset):
    name = "inner_sphere"
    aliases = ("inner-sphere", "innersphere", "esfera_interior", "ei")
    title = N_("Inner Sphere")
    default_language = "es"
    data_package = "adjudicator.rulesets.inner_sphere"
    faction_columns = (schemas.TREASURY,)
    state_schemas = (schemas.SYSTEMS, schemas.FACTORIES, schemas.REGIMENTS, schemas.JUMPSHIPS, schemas.JOBS,
                     schemas.RESEARCH_POINTS, schemas.LABS, schemas.SALES, RULE_TABLES, schemas.LINKS,
                     schemas.COMMANDOS, schemas.UNREST, schemas.UNREST_MODS, schemas.KNOWN, schemas.NEUTRAL)
    order_schemas = (schemas.REPAIRS, schemas.PURCHASES, schemas.MOVEMENT, schemas.AGENCY, schemas.RESEARCH)
    row_groups = {"movement": "ship"}  # noqa: RUF012 - a bad cell rejects the jumpship's whole chain
    gm_input_schemas = (schemas.COMBATS, schemas.ACCIDENTS, schemas.DAMAGE, schemas.SALES_AGREED, schemas.ADJUSTMENTS)
    rule_table_words = TABLE_WORDS  # the Rule tables sheet's words (table_words.py)
    rule_table_values = TABLE_VALUES
    reference_words = {  # noqa: RUF012 - the ledger's "upkeep:defences", "ns:D-NS1" in words
        "upkeep": N_("Upkeep"), "defences": N_("Aerospace defences"), "ns": N_("Jumpship")}

    def context(self, campaign: Campaign, ledger: Any, snapshot: World) -> Context:
        return Context(campaign.parameters, campaign.turn, ledger, tariffs(table_rows(campaign.tables, "rule_tables")),
                       snapshot, set(campaign.factions))

    order_types = ORDER_TYPES
    order_steps = ORDER_STEPS
    presentation_type = InnerSpherePresentation

    def order_state(self, campaign: Campaign, faction: str, ledger: Ledger, dice: Dice) -> FactionState:
        """The state's orders against the start of the turn, on a world of its own (``check``; its systems,
        factories, regiments and jumpships the start world's, read-only: :meth:`World.for_orders`): the sales
        that come due, its economy, then its rows in payment order, so that a player learns before the deadline
        which rows would be refused, E-FUNDS included."""
        snapshot = start_world(campaign.tables)  # built once per check and shared: the orders only read it
        world = snapshot.for_orders()
        apply_sales_due(world, campaign.turn)
        return faction_state(world, self.context(campaign, ledger, snapshot), faction, area(campaign))

    def roll_label(self, purpose: str) -> Msg | str:
        from adjudicator.rulesets.inner_sphere.dice_viewers import roll_label

        return roll_label(purpose)

    def roll_viewers(self, campaign: Campaign, purposes: list[str]) -> dict[str, set[str]]:
        from adjudicator.rulesets.inner_sphere.dice_viewers import roll_viewers

        return roll_viewers(purposes, campaign.factions)

    # --------------------------------------------------------------- resolve
    def balances(self, campaign: Campaign) -> dict[tuple[str, str], Any]:
        """Each faction's treasury, in C."""
        treasury = treasury_from_tables(campaign.tables)
        return {(f, ACCOUNT): treasury.get(f, 0) for f in sorted(campaign.factions)}

    def map_view(self, campaign: Campaign, result: TurnResult, reader: str) -> Any:
        from adjudicator.rulesets.inner_sphere.map_view import map_view

        return map_view(campaign, result, reader)

    def resolve(self, turn: TurnInput) -> TurnResult:
        from adjudicator.rulesets.inner_sphere.gm import GmInputs  # run only: check needs none of these
        from adjudicator.rulesets.inner_sphere.phases import combats
        from adjudicator.rulesets.inner_sphere.phases import movement as move_phase
        from adjudicator.rulesets.inner_sphere.phases import research as research_phase
        from adjudicator.rulesets.inner_sphere.reports import Reporter

        campaign = turn.campaign
        snapshot = world_from_tables(campaign.tables)
        world = snapshot.copy()
        ctx = self.context(campaign, turn.ledger, snapshot)

        events = apply_sales_due(world, campaign.turn)
        outcomes: dict[tuple[str, str, int], Done | Rejection] = {}
        the_map = area(campaign)
        for faction in sorted(campaign.factions):  # the same steps as check, on the shared world
            state = faction_state(world, ctx, faction, the_map)
            orders = turn.orders.get(faction)
            if orders is None:
                continue
            refused = {(key, row) for key, sheet in orders.sheets.items() for row in sheet.rejected}
            outcomes.update({(faction, key, row): o for (key, row), o in
                             results_by_row(carry_out_orders(self, campaign.parameters, state, orders)).items()
                             if (key, row) not in refused})  # what intake refused is reported by the engine
        factions = sorted(campaign.factions)
        spies = agency.resolve(world, ctx, turn.dice, factions)
        for op in spies.ops:
            if op.result is not None:
                outcomes[(op.faction, "agency", op.row)] = Done(op.result, cost=op.cost)
        lines: dict[str, list[research_phase.LineResult]] = {}
        attempts: dict[str, list[research_phase.FactoryAttempt]] = {}
        for faction in sorted(campaign.factions):
            plan = ctx.plan(faction)
            lines[faction] = research_phase.roll(world, faction, plan, turn.dice, campaign.parameters)
            attempts[faction] = research_phase.found_factories(world, faction, plan, turn.dice, campaign.parameters,
                                                               campaign.turn)

        gains = {(f, x.line): (x.before, x.gained) for f, results in lines.items() for x in results}
        agency_sabotage.steal(world, spies, gains)
        for f, results in lines.items():
            for x in results:
                x.after = world.line_points(f, x.line)
        chains = [c for f in sorted(campaign.factions) for c in ctx.plan(f).chains]
        moves = move_phase.execute(world, chains, turn.dice, campaign.parameters, ctx.tariffs, spies.skipped)
        fights = combats.requests(world, moves.engagements, ctx.tariffs, spies.no_combat)

        gm = GmInputs(turn.gm_input or {}, turn.gm_input_file, set(campaign.factions), turn.problems)
        answers = gm.combat_results(fights)
        accidents = moves.accidents if campaign.parameters.get("accident_effect") == "gm_table" else []
        verdicts = gm.accident_results(accidents)
        if (turn.gm_input is None and (fights or accidents) or len(answers) < len(fights)
                or len(verdicts) < len(accidents) or turn.problems.has_errors()):
            return TurnResult(gm_requests=gm.requests(fights, accidents))
        events += gm.apply_accidents(world, accidents, verdicts)
        events += combats.apply(world, fights, answers)
        events += gm.apply(world, ctx)
        if turn.problems.has_errors():
            return TurnResult(gm_requests=gm.requests(fights, accidents))
        events += end_of_turn.advance(world, snapshot, turn.dice, campaign.turn, campaign.language,
                                      campaign.parameters)
        told = agency_unrest.apply_transfers(world, spies) + agency_commandos.follow(world)
        spies.notices += told
        end_of_turn.expire_unrest(world, snapshot, campaign.turn)

        tables = world_to_tables(world, campaign.tables)
        result = TurnResult(
            tables=tables,
            outcomes=engine_outcomes(outcomes),
        )
        reporter = Reporter(campaign, snapshot, world, turn.ledger, turn.dice, lines, attempts, events, moves, fights,
                            spies)
        result.faction_reports = {f: reporter.faction(f) for f in sorted(campaign.factions)}
        result.gm_reports = reporter.gm()
        return result
