"""Star Sectors as a ruleset of the engine: the turn procedure of spec §3 in two passes.

Pass 1 carries out the orders (pre-step and step 1) and lists the battles; it stops for the GM's
results. Pass 2 applies the GM's results and adjustments, battle losses, late payments, income and
research availability. Both passes are recomputed from the snapshot every time, so a turn waiting
for the GM has changed nothing.

The orders are the order types of ``orders/`` (:data:`ORDER_TYPES`): the engine checks a faction's rows
with them for ``check`` exactly as :meth:`StarSectors.resolve` carries them out for ``run``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from adjudicator.dice import Dice
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.orders import carry_out_orders, results_by_row
from adjudicator.engine.outcome import outcomes as engine_outcomes
from adjudicator.engine.row_table import RowTable
from adjudicator.engine.ruleset import (
    Campaign,
    FactionOrders,
    Ruleset,
    SheetRows,
    TurnInput,
    TurnResult,
)
from adjudicator.i18n import N_, Msg, msg
from adjudicator.rulesets.star_sectors import schemas
from adjudicator.rulesets.star_sectors.orders import build, feasibility
from adjudicator.rulesets.star_sectors.orders.build import Build
from adjudicator.rulesets.star_sectors.orders.common import (
    Context,
    Done,
    FactionState,
    OrderRow,
    Rejection,
    change_fleet,
    credit,
)
from adjudicator.rulesets.star_sectors.orders.disband import Disband
from adjudicator.rulesets.star_sectors.orders.feasibility import Feasibility
from adjudicator.rulesets.star_sectors.orders.move import Move, apply_all
from adjudicator.rulesets.star_sectors.orders.research_pay import ResearchPay
from adjudicator.rulesets.star_sectors.orders.theft import Theft
from adjudicator.rulesets.star_sectors.phases import battle, income
from adjudicator.rulesets.star_sectors.presentation import StarSectorsPresentation
from adjudicator.rulesets.star_sectors.reports import Reporter
from adjudicator.rulesets.star_sectors.state import (
    World,
    snapshot_of,
    world_from_tables,
    world_to_tables,
)

#: The phases of a turn named in ledger lines (translated where they are shown).
LEDGER_PHASES = (N_("pre-step"), N_("step 1"), N_("step 2"), N_("step 4"), N_("turn end"), N_("GM"))

#: Every order of the Orders sheet, and when a faction's rows of each are carried out: the pre-step in row
#: order, then the thefts, then the move plan, then (``build_timing = AFTER_MOVE``) the builds.
ORDER_TYPES = (Build(), Feasibility(), ResearchPay(), Disband(), Theft(), Move())
ORDER_STEPS = ("pre-step", "theft", "move", "late")


def carry_out_faction(
    snapshot: World, world: World, rows: list[OrderRow], ctx: Context
) -> tuple[dict[int, Done | Rejection], list[tuple[OrderRow, int]], list[OrderRow]]:
    """One faction's order rows (as :class:`OrderRow`) up to movement, through the order types: outcomes by
    row, accepted moves, and the BUILD rows left for after movement."""
    faction = rows[0].faction if rows else ""
    table = RowTable([r.row for r in rows], {
        "order": [r.kind for r in rows], "square": [r.square or None for r in rows], "to": [r.to or None for r in rows],
        "amount": [r.amount for r in rows], "project": [r.project or None for r in rows],
        "victim": [r.victim or None for r in rows], "path": [" ".join(r.path) or None for r in rows],
        "description": [r.description or None for r in rows]}, index_name=None)
    sheet = SheetRows(schemas.ORDERS, "Orders", table, {}, "")
    state = FactionState(snapshot, world, ctx, faction)
    carried = carry_out_orders(StarSectors, ctx.params, state, FactionOrders(faction, "", {"orders": sheet}))
    return ({row: r for (_, row), r in results_by_row(carried).items()}, state.moves, state.late_builds)


class StarSectors(Ruleset):
    name = "star_sectors"
    aliases = ("star-sectors", "starsectors", "sectors")
    title = N_("Star Sectors")
    default_language = "ru"
    data_package = "adjudicator.rulesets.star_sectors"
    faction_columns = (schemas.TREASURY,)
    state_schemas = (schemas.MAP, schemas.FLEETS, schemas.PROJECTS, schemas.USAGES)
    order_schemas = (schemas.ORDERS,)
    reference_words = {"battle": N_("Battle")}  # noqa: RUF012 - the ledger's "battle:C3" reads "Battle, C3"
    gm_input_schemas = (
        schemas.BATTLES,
        schemas.SQUARE_RESULTS,
        schemas.COMPONENTS,
        schemas.FEASIBILITY,
        schemas.PAYMENTS,
        schemas.ADJUSTMENTS,
    )

    def account_label(self, account: str) -> Msg | str:
        """``fleet@C4`` is the faction's fleet in C4; other accounts as the engine names them."""
        kind, _, where = account.partition("@")
        if kind == "fleet" and where:
            return msg("fleet in {square}", square=where)
        return super().account_label(account)

    def gm_row_choices(self, schema_key: str, row: dict[str, Any]) -> dict[str, list[str]]:
        """A battle's winner is one of its two sides, or DRAW."""
        if schema_key == schemas.BATTLES.key:
            # DRAW is offered in the reader's words and read back in any language (НИЧЬЯ, EMPATE)
            return {"winner": [str(row.get("faction_a")), str(row.get("faction_b")), msg("DRAW")]}
        return {}

    order_types = ORDER_TYPES
    order_steps = ORDER_STEPS

    def order_state(self, campaign: Campaign, faction: str, ledger: Ledger, dice: Dice) -> FactionState:
        """The faction's orders against the start-of-turn snapshot, on a world of its own (``check``)."""
        snapshot = snapshot_of(campaign.tables)  # built once for every faction checked: read only
        return FactionState(snapshot, snapshot.copy(), self._context(campaign, ledger), faction)

    def _context(self, campaign: Campaign, ledger: Ledger) -> Context:
        return Context(campaign.parameters, campaign.turn, ledger, set(campaign.factions))

    presentation_type = StarSectorsPresentation

    # --------------------------------------------------------------- resolve
    def balances(self, campaign: Campaign) -> dict[tuple[str, str], Any]:
        """Each treasury, and each fleet by its square."""
        return _balances(world_from_tables(campaign.tables))

    def map_view(self, campaign: Campaign, result: TurnResult, reader: str) -> Any:
        from adjudicator.rulesets.star_sectors.map_view import map_view

        return map_view(campaign, result, reader)

    def resolve(self, turn: TurnInput) -> TurnResult:
        from adjudicator.rulesets.star_sectors.gm import GmPhase  # the GM's phase: run only, never check

        campaign = turn.campaign
        params = campaign.parameters
        snapshot = world_from_tables(campaign.tables)
        world = snapshot.copy()
        ctx = self._context(campaign, turn.ledger)

        outcomes: dict[tuple[str, int], Done | Rejection] = {}
        moves: list[tuple[OrderRow, int]] = []
        late_builds: list[OrderRow] = []
        for faction in sorted(campaign.factions):  # the same steps as check, on the shared world
            orders = turn.orders.get(faction)
            if orders is None:
                continue
            state = FactionState(snapshot, world, ctx, faction)
            carried = carry_out_orders(self, params, state, orders)
            outcomes.update({(faction, row): r for (_, row), r in results_by_row(carried).items()})
            moves.extend(state.moves)
            late_builds.extend(state.late_builds)
        apply_all(world, moves, ctx)
        for order in late_builds:
            outcomes[(order.faction, order.row)] = build.carry_out(world, order, ctx, "step 1")
        after_moves = world.copy()
        fights = battle.contests(world)

        gm = GmPhase(turn.gm_input or {}, turn.gm_input_file, set(campaign.factions), turn.problems)
        requested = sorted(p.id for p in world.projects.values() if p.status == "REQUESTED")
        requests = gm.requests(world, fights, requested)
        results, square_results = gm.battle_results(fights)
        answers = gm.feasibility_answers(world, requested)
        if turn.gm_input is None and (fights or requested):
            return TurnResult(gm_requests=requests)
        if len(results) < len(fights) or len(answers) < len(requested) or turn.problems.has_errors():
            return TurnResult(gm_requests=requests)

        # Pass 2.
        gm.apply_adjustments(world, ctx)
        pre_battle = world.copy()
        terms = battle.losses(pre_battle, fights, results, square_results, params)
        for (faction, square), parts in sorted(terms.items()):
            total = sum(amount for _, amount in parts)
            have = world.value(faction, square)
            taken = min(total, have)  # A9: the excess is lost, never charged elsewhere
            change_fleet(world, ctx, faction, square, -taken, "step 2",
                         msg("Battle losses in {square}.", square=square), f"battle:{square}")
        world.usages.extend(gm.usages(world, campaign.turn))
        for pid, (verdict, price, ref) in sorted(answers.items()):
            feasibility.answer(world, pid, verdict, price, ctx, ref)
        gm.apply_payments(world, ctx, "BEFORE_INCOME")
        held = income.controllers(world, params["control_threshold"])
        counts: dict[str, int] = defaultdict(int)
        for square, faction in held.items():
            counts[faction] += 1
            credit(world, ctx, faction, world.squares[square].income, "step 4",
                   msg("Income from {square}.", square=square), f"income:{square}")
        for faction, count in sorted(counts.items()):
            extra = income.bonus(params["income_bonus_table"], count)
            if extra:
                credit(world, ctx, faction, extra, "step 4",
                       msg("Bonus for holding {n} squares.", n=count), "income:bonus")
        gm.apply_payments(world, ctx, "AFTER_INCOME")
        if turn.problems.has_errors():
            return TurnResult(gm_requests=requests)

        result = TurnResult(
            tables=world_to_tables(world, campaign.tables["factions"]),
            outcomes=engine_outcomes({(faction, "orders", row): o for (faction, row), o in outcomes.items()}),
        )
        reporter = Reporter(campaign, snapshot, after_moves, pre_battle, world, fights, results, square_results,
                            terms, held, turn.ledger, outcomes, turn.orders, moves)
        return reporter.fill(result, campaign.factions)


def _balances(world: World) -> dict[tuple[str, str], int]:
    out = {(f, "treasury"): v for f, v in world.treasury.items()}
    out.update({(f, f"fleet@{s}"): v for (f, s), v in world.fleets.items() if v > 0})
    return out
