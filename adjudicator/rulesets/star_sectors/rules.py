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

import pandas as pd

from adjudicator.dice import Dice
from adjudicator.engine.orders import carry_out_orders, results_by_row
from adjudicator.engine.outcome import outcomes as engine_outcomes
from adjudicator.engine.ruleset import (
    Campaign,
    FactionOrders,
    GmSheets,
    Ruleset,
    SheetRows,
    TurnInput,
    TurnResult,
)
from adjudicator.i18n import N_, Msg, msg
from adjudicator.ledger import Ledger
from adjudicator.problems import Severity
from adjudicator.rulesets.star_sectors import schemas
from adjudicator.rulesets.star_sectors.orders import build, feasibility, research_pay
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
from adjudicator.rulesets.star_sectors.reports import Reporter
from adjudicator.rulesets.star_sectors.state import (
    World,
    snapshot_of,
    square_id,
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
    frame = pd.DataFrame(
        [{"order": r.kind, "square": r.square or None, "to": r.to or None, "amount": r.amount,
          "project": r.project or None, "victim": r.victim or None, "path": " ".join(r.path) or None,
          "description": r.description or None} for r in rows],
        index=[r.row for r in rows], dtype=object)
    sheet = SheetRows(schemas.ORDERS, "Orders", frame, {}, "")
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

    def presentation(self) -> Any:
        from adjudicator.rulesets.star_sectors.presentation import StarSectorsPresentation

        return StarSectorsPresentation(self)

    # --------------------------------------------------------------- resolve
    def balances(self, campaign: Campaign) -> dict[tuple[str, str], Any]:
        """Each treasury, and each fleet by its square."""
        return _balances(world_from_tables(campaign.tables))
    def map_view(self, campaign: Campaign, result: TurnResult, reader: str) -> Any:
        from adjudicator.rulesets.star_sectors.map_view import map_view

        return map_view(campaign, result, reader)

    def resolve(self, turn: TurnInput) -> TurnResult:
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

        gm = GmInputs(turn.gm_input or {}, turn.gm_input_file, set(campaign.factions), turn.problems)
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
        result.faction_reports = {f: reporter.faction(f) for f in sorted(campaign.factions)}
        result.gm_reports = reporter.gm()
        return result


def _balances(world: World) -> dict[tuple[str, str], int]:
    out = {(f, "treasury"): v for f, v in world.treasury.items()}
    out.update({(f, f"fleet@{s}"): v for (f, s), v in world.fleets.items() if v > 0})
    return out


class GmInputs(GmSheets):
    """The GM's sheets of this turn (G2–G6), checked row by row (E12, E13), with the rows still to fill."""

    def _winner(self, value: Any, a: str, b: str) -> str | None:
        word = str(value or "").strip().upper()
        if word in ("DRAW", "НИЧЬЯ", "EMPATE"):
            return "DRAW"
        return word if word in (a, b) else None

    def battle_results(
        self, fights: list[battle.Contest]
    ) -> tuple[dict[tuple[str, str], battle.Result], dict[tuple[str, str, str], battle.Result]]:
        pairs = {f.key for f in fights}
        results: dict[tuple[str, str], battle.Result] = {}
        for row, r in self.rows("battles"):
            a, b = str(r.get("faction_a") or "").upper(), str(r.get("faction_b") or "").upper()
            if r.get("winner") is None and r.get("pct_a") is None and r.get("pct_b") is None:
                continue  # not filled in yet
            key = (a, b) if (a, b) in pairs else (b, a)
            result = self._result(r, a, b, "battles", row)
            if result is None:
                continue
            if key not in pairs:
                self.add_problem("E13", "battles", row, "faction_a",
                           msg("Battle {f}–{g}: invalid result row.", f=a, g=b),
                           msg("These factions share no square this turn; delete the row."))
                continue
            if key != (a, b):
                result = battle.Result(result.winner, result.pct_b, result.pct_a)
            results[key] = result
        per_square: dict[tuple[str, str, str], battle.Result] = {}
        for row, r in self.rows("square_results"):
            a, b = str(r.get("faction_a") or "").upper(), str(r.get("faction_b") or "").upper()
            result = self._result(r, a, b, "square_results", row)
            square = square_id(r.get("square") or "")
            if result is None:
                continue
            if (a, b) not in pairs and (b, a) in pairs:
                a, b, result = b, a, battle.Result(result.winner, result.pct_b, result.pct_a)
            fight = next((f for f in fights if f.key == (a, b)), None)
            if fight is None or square not in {s for s, _, _ in fight.squares}:
                self.add_problem("E13", "square_results", row, "square",
                           msg("Battle {f}–{g}: invalid result row.", f=a, g=b),
                           msg("These factions do not share square {square} this turn.", square=square))
                continue
            per_square[(square, a, b)] = result
        return results, per_square

    def _result(self, r: dict[str, Any], a: str, b: str, key: str, row: int) -> battle.Result | None:
        winner = self._winner(r.get("winner"), a, b)
        bad = False
        if winner is None:
            self.add_problem("E13", key, row, "winner", msg("Battle {f}–{g}: invalid result row.", f=a, g=b),
                       msg("Winner must be {f}, {g} or DRAW.", f=a, g=b))
            bad = True
        for column in ("pct_a", "pct_b"):
            if r.get(column) is None:
                self.add_problem("E13", key, row, column, msg("Battle {f}–{g}: invalid result row.", f=a, g=b),
                           msg("Enter the percentage of own tonnage destroyed, from 0 to 100."))
                bad = True
        if bad:
            return None
        return battle.Result(winner, float(r["pct_a"]), float(r["pct_b"]))  # type: ignore[arg-type]

    def feasibility_answers(self, world: World, requested: list[str]) -> dict[str, tuple[str, int | None, str]]:
        answers: dict[str, tuple[str, int | None, str]] = {}
        for row, r in self.rows("feasibility"):
            pid = str(r.get("project") or "").strip()
            verdict = r.get("answer")
            if verdict is None:
                continue
            if pid not in requested:
                self.add_problem("E16", "feasibility", row, "project",
                           msg("{project} is not a feasibility request of this turn.", project=pid),
                           msg("Answer only the requests listed in this sheet."))
                continue
            if verdict == "FEASIBLE" and not r.get("price"):
                self.add_problem("E16", "feasibility", row, "price",
                           msg("A FEASIBLE answer needs the price of {project}.", project=pid),
                           msg("Enter the price in R."))
                continue
            answers[pid] = (str(verdict), r.get("price"), f"gm:feasibility:row {row}")
        return answers

    def usages(self, world: World, turn: int) -> list[Any]:
        from adjudicator.rulesets.star_sectors.state import Usage

        out = []
        for row, r in self.rows("components"):
            faction = str(r.get("faction") or "").upper()
            pid = str(r.get("project") or "").strip()
            if faction not in self.factions or pid not in world.projects:
                self.add_problem("E17", "components", row, "project",
                                 msg("Component {project} of {faction} is not known; the row was ignored.",
                                     project=pid, faction=faction), severity=Severity.WARNING)
                continue
            project = world.projects[pid]
            usable = world.owns_component(faction, project.component) and any(
                p.faction == faction and p.component == project.component and p.status == "PAID"
                and (p.available_from or 0) <= turn for p in world.projects.values())
            if not usable:  # A17: a warning to the GM, not an error
                self.add_problem("W17", "components", row, "project",
                                 msg("{faction} fielded {project}, which it could not use yet this turn.",
                                     faction=faction, project=pid), severity=Severity.WARNING)
            out.append(Usage(pid, faction, turn, str(r.get("opponent") or "").upper()))
        return out

    def apply_adjustments(self, world: World, ctx: Context) -> None:
        for row, r in self.rows("adjustments"):
            faction = str(r.get("faction") or "").upper()
            account = str(r.get("account") or "").strip()
            change = int(r["change"])
            reason = msg("GM adjustment: {reason}", reason=str(r.get("reason") or ""))
            ref = f"gm:adjustments:row {row}"
            if faction not in self.factions:
                self.add_problem("E18", "adjustments", row, "faction",
                                 msg("{faction} is not a faction of this campaign.", faction=faction))
                continue
            if account.casefold() in ("treasury", "казна", "tesoro"):
                if world.treasury.get(faction, 0) + change < 0:
                    self.add_problem("E18", "adjustments", row, "change",
                               msg("The treasury of {faction} cannot go below 0R.", faction=faction))
                    continue
                credit(world, ctx, faction, change, "GM", reason, ref)
                continue
            square = square_id(account)
            if square not in world.squares:
                self.add_problem("E18", "adjustments", row, "account",
                           msg("Account {account} is neither 'treasury' nor a square of the map.", account=account))
                continue
            if world.value(faction, square) + change < 0:
                self.add_problem("E18", "adjustments", row, "change",
                           msg("The fleet of {faction} in {square} cannot go below 0R.", faction=faction,
                               square=square))
                continue
            change_fleet(world, ctx, faction, square, change, "GM", reason, ref)

    def apply_payments(self, world: World, ctx: Context, timing: str) -> None:
        for row, r in self.rows("payments"):
            when = r.get("timing") or "BEFORE_INCOME"
            if when != timing:
                continue
            faction = str(r.get("faction") or "").upper()
            ref = f"gm:payments:row {row}"
            if when == "AFTER_INCOME" and ctx.params["research_deadline"] == "BEFORE_INCOME":
                self.add_problem("E12", "payments", row, "timing",
                           msg("Research payments must be made before Income collection."),
                           msg("Enter the payment in the next turn's orders instead."))
                continue
            outcome = research_pay.pay(world, faction, str(r.get("project") or ""), int(r["amount"]), ctx,
                                       "step 2" if timing == "BEFORE_INCOME" else "step 4", ref)
            if isinstance(outcome, Rejection):
                self.add_problem(outcome.code, "payments", row, "amount" if outcome.code == "E05" else "project",
                           outcome.message, outcome.hint)

    def requests(self, world: World, fights: list[battle.Contest], requested: list[str]) -> dict[str, pd.DataFrame]:
        """Every GM sheet, with the rows to fill and whatever the GM has entered so far."""
        battles = []
        entered = {}
        for _, r in self.rows("battles", include_invalid=True):
            a, b = str(r.get("faction_a") or "").upper(), str(r.get("faction_b") or "").upper()
            entered[tuple(sorted((a, b)))] = r if a <= b else {**r, "pct_a": r.get("pct_b"), "pct_b": r.get("pct_a")}
        for fight in fights:
            old = entered.get(fight.key, {})
            battles.append({
                "faction_a": fight.a,
                "faction_b": fight.b,
                "squares": ", ".join(f"{s} ({va}R / {vb}R)" for s, va, vb in fight.squares),
                "winner": old.get("winner"),
                "pct_a": old.get("pct_a"),
                "pct_b": old.get("pct_b"),
            })
        answered = {str(r.get("project")): r for _, r in self.rows("feasibility", include_invalid=True)}
        feas = [
            {
                "project": pid,
                "faction": world.projects[pid].faction,
                "description": world.projects[pid].description,
                "answer": answered.get(pid, {}).get("answer"),
                "price": answered.get(pid, {}).get("price"),
            }
            for pid in requested
        ]
        out = {"battles": pd.DataFrame(battles, columns=schemas.BATTLES.keys()),
               "feasibility": pd.DataFrame(feas, columns=schemas.FEASIBILITY.keys())}
        for schema in (schemas.SQUARE_RESULTS, schemas.COMPONENTS, schemas.PAYMENTS, schemas.ADJUSTMENTS):
            kept = [r for _, r in self.rows(schema.key, include_invalid=True)]
            out[schema.key] = pd.DataFrame([{k: r.get(k) for k in schema.keys()} for r in kept],
                                           columns=schema.keys())
        return out
