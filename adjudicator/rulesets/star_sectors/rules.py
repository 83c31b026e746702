"""Star Sectors as a ruleset of the engine: the turn procedure of spec §3 in two passes.

Pass 1 carries out the orders (pre-step and step 1) and lists the battles; it stops for the GM's
results. Pass 2 applies the GM's results and adjustments, battle losses, late payments, income and
research availability. Both passes are recomputed from the snapshot every time, so a turn waiting
for the GM has changed nothing.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pandas as pd

from adjudicator.engine.outcome import outcomes as engine_outcomes
from adjudicator.engine.outcome import rejection_problem
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
from adjudicator.ledger import NullLedger
from adjudicator.problems import Problem, ProblemList, Severity
from adjudicator.rulesets.star_sectors import schemas
from adjudicator.rulesets.star_sectors.dropdowns import square_lists
from adjudicator.rulesets.star_sectors.orders import build, disband, feasibility, move, research_pay, theft
from adjudicator.rulesets.star_sectors.orders.common import (
    Context,
    Done,
    OrderRow,
    Rejection,
    change_fleet,
    credit,
)
from adjudicator.rulesets.star_sectors.phases import battle, income
from adjudicator.rulesets.star_sectors.reports import Reporter
from adjudicator.rulesets.star_sectors.state import (
    World,
    snapshot_of,
    square_id,
    world_from_tables,
    world_to_tables,
)
from adjudicator.sheets import records

#: The phases of a turn named in ledger lines (translated where they are shown).
LEDGER_PHASES = (N_("pre-step"), N_("step 1"), N_("step 2"), N_("step 4"), N_("turn end"), N_("GM"))

PRESTEP = ("BUILD", "FEASIBILITY", "RESEARCH_PAY", "DISBAND")

#: The fields each order type needs, by column key.
REQUIRED = {
    "MOVE": ("square", "to", "amount"),
    "BUILD": ("square", "amount"),
    "FEASIBILITY": ("description",),
    "RESEARCH_PAY": ("project", "amount"),
    "THEFT": ("project", "victim"),
    "DISBAND": ("square", "amount"),
}


def order_rows(orders: FactionOrders) -> list[OrderRow]:
    """The rows of a faction's order sheet that passed (the engine hands no other), in sheet order."""
    sheet = orders.sheets.get("orders")
    if sheet is None:
        return []
    rows = []
    for number, row in records(sheet.frame):
        path = tuple(square_id(p) for p in str(row.get("path") or "").replace(",", " ").replace("→", " ").split())
        amount = row.get("amount")
        rows.append(
            OrderRow(
                faction=orders.faction,
                row=int(number),
                kind=str(row.get("order")),
                square=square_id(row["square"]) if row.get("square") else "",
                to=square_id(row["to"]) if row.get("to") else "",
                amount=amount if amount is not None else None,
                project=str(row.get("project") or "").strip(),
                victim=str(row.get("victim") or "").strip().upper(),
                path=path,
                description=str(row.get("description") or ""),
            )
        )
    return rows


def missing_field(order: OrderRow) -> Rejection | None:
    for key in REQUIRED.get(order.kind, ()):
        if getattr(order, key) in (None, ""):
            column = schemas.ORDERS.column(key)
            return Rejection(
                "C03",
                msg("{column} is required for {order}.", column=msg(column.header), order=msg(order.kind)),
                key,
                msg("Fill in {column} or delete the row.", column=msg(column.header)),
            )
    if order.kind in ("MOVE", "DISBAND") and order.amount == "ALL":
        return None
    if order.kind in ("BUILD", "RESEARCH_PAY", "MOVE", "DISBAND") and not isinstance(order.amount, int):
        return Rejection("E11", msg("Amounts must be positive whole numbers of R."), "amount", None)
    return None


def static_check(snapshot: World, order: OrderRow, params: dict, turn: int, factions: set[str]) -> Rejection | None:
    """Checks against the start-of-turn snapshot: they do not depend on any other order."""
    refused = missing_field(order)
    if refused:
        return refused
    if order.kind == "MOVE":
        return move.check(snapshot, order, params)
    if order.kind == "BUILD":
        return build.check(snapshot, order, params)
    if order.kind == "FEASIBILITY":
        return feasibility.check(snapshot, order, params)
    if order.kind == "RESEARCH_PAY":
        return research_pay.check(snapshot, order, params)
    if order.kind == "DISBAND":
        return disband.check(snapshot, order, params)
    if order.kind == "THEFT":
        if order.victim not in factions or order.victim == order.faction:
            return Rejection(
                "E15",
                msg("{victim} is not another faction of this campaign.", victim=order.victim),
                "victim",
                msg("Write the ID of the faction that fielded the component."),
            )
        return theft.check(snapshot, order, params, turn)
    return None


def carry_out_faction(
    snapshot: World, world: World, rows: list[OrderRow], ctx: Context
) -> tuple[dict[int, Done | Rejection], list[tuple[OrderRow, int]], list[OrderRow]]:
    """One faction's orders up to movement: pre-step, thefts, and the move plan.

    Everything here touches only the faction's own treasury and fleets, so factions can be carried
    out in any order with the same result. Returns outcomes by row, accepted moves, and the BUILD
    rows left for after movement (``build_timing = AFTER_MOVE``)."""
    outcomes: dict[int, Done | Rejection] = {}
    valid: list[OrderRow] = []
    for order in rows:
        refused = static_check(snapshot, order, ctx.params, ctx.turn, ctx.factions)
        if refused:
            outcomes[order.row] = refused
        else:
            valid.append(order)
    late_builds = [o for o in valid if o.kind == "BUILD" and ctx.params["build_timing"] == "AFTER_MOVE"]
    requests = 0
    for order in valid:
        if order.kind == "BUILD" and order not in late_builds:
            outcomes[order.row] = build.carry_out(world, order, ctx, "pre-step")
        elif order.kind == "FEASIBILITY":
            requests += 1
            outcomes[order.row] = feasibility.carry_out(world, order, ctx, requests)
        elif order.kind == "RESEARCH_PAY":
            outcomes[order.row] = research_pay.carry_out(world, order, ctx)
        elif order.kind == "DISBAND":
            outcomes[order.row] = disband.carry_out(world, order, ctx)
    thefts = 0
    for order in valid:
        if order.kind == "THEFT":
            thefts += 1
            outcomes[order.row] = theft.carry_out(world, order, ctx, thefts)
    planned, accepted = move.plan(world, [o for o in valid if o.kind == "MOVE"])
    outcomes.update(planned)
    return outcomes, accepted, late_builds


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

    # ----------------------------------------------------------------- check
    def validate_orders(self, campaign: Campaign, faction: str, orders: FactionOrders, problems: ProblemList) -> None:
        """Every row checked against the snapshot, and the faction's own spending simulated, so that a
        player learns before the deadline which rows would be refused (E01–E11, E14, E15)."""
        snapshot = snapshot_of(campaign.tables)  # built once for every faction checked: read only
        world = snapshot.copy()
        ctx = Context(campaign.parameters, campaign.turn, NullLedger(campaign.turn), set(campaign.factions))
        outcomes, accepted, late_builds = carry_out_faction(snapshot, world, order_rows(orders), ctx)
        move.apply_all(world, accepted, ctx)
        for order in late_builds:  # build_timing = AFTER_MOVE: spent after the moves, still from this treasury
            outcomes[order.row] = build.carry_out(world, order, ctx, "step 1")
        sheet = orders.sheets["orders"]
        for row, outcome in sorted(outcomes.items()):
            if isinstance(outcome, Rejection):
                problems.add(_problem(outcome, sheet, row))
            elif outcome.partial:  # E08: a payment capped at what was still due
                problems.add(sheet.problem("E08", row, "amount", outcome.message, severity=Severity.WARNING))

    def example_rows(self, campaign: Campaign, faction: str) -> dict[str, list[dict[str, Any]]]:
        """One example per order type, on the faction's own squares where it has some."""
        world = snapshot_of(campaign.tables)
        own = sorted(s for (f, s), v in world.fleets.items() if f == faction and v > 0) or sorted(world.squares)[:1]
        home = own[0] if own else "A1"
        near = sorted(world.neighbours(home)) if home in world.squares else []
        project = next((p.id for p in world.projects.values() if p.faction == faction and p.status == "FEASIBLE"),
                       f"{faction}-T01-1")
        others = sorted(f for f in campaign.factions if f != faction)
        seen = sorted({(u.project, u.faction) for u in world.usages if u.faction != faction})
        stolen, victim = seen[0] if seen else (f"{others[0]}-T01-1" if others else "", others[0] if others else "")
        rows: list[dict[str, Any]] = [
            {"order": "MOVE", "square": home, "to": near[0] if near else home, "amount": 40},
            {"order": "BUILD", "square": home, "amount": 25},
            {"order": "FEASIBILITY", "description": msg("a gun like the ordinary one, only bigger")},
            {"order": "RESEARCH_PAY", "project": project, "amount": 100},
        ]
        if victim:
            rows.append({"order": "THEFT", "project": stolen, "victim": victim})
        if campaign.parameters["allow_disband"]:
            rows.append({"order": "DISBAND", "square": home, "amount": 10})
        return {"orders": rows}

    def template_lookups(self, campaign: Campaign, faction: str) -> dict[str, list[tuple[str, float]]]:
        """The price of stealing each component seen in battle (what THEFT would cost)."""
        world = world_from_tables(campaign.tables)
        seen = sorted({world.projects[u.project].component for u in world.usages
                       if u.faction != faction and u.project in world.projects})
        paid_now = not campaign.parameters["theft_installments"]  # in instalments nothing is paid when declared
        return {"theft_prices": [(c, theft.price(world, c, campaign.parameters) if paid_now else 0) for c in seen]}

    def template_budget(self, campaign: Campaign, faction: str) -> int | None:
        return world_from_tables(campaign.tables).treasury.get(faction, 0)

    def preview_cost(self, campaign: Campaign, faction: str, row: dict[str, Any]) -> float:
        kind = row.get("order")
        amount = row.get("amount")
        if kind in ("BUILD", "RESEARCH_PAY"):
            return amount if isinstance(amount, int) else 0
        if kind == "DISBAND":
            return -amount if isinstance(amount, int) else 0
        if kind == "FEASIBILITY":
            return campaign.parameters["feasibility_fee"]
        if kind == "THEFT":
            prices = dict(self.template_lookups(campaign, faction)["theft_prices"])
            return prices.get(str(row.get("project") or ""), 0)
        return 0

    def choice_lists(self, campaign: Campaign, faction: str) -> dict[str, list[str]]:
        world = snapshot_of(campaign.tables)
        own = sorted(p.id for p in world.projects.values() if p.faction == faction and p.status == "FEASIBLE")
        seen = sorted({u.project for u in world.usages if u.faction != faction})
        return {
            **square_lists(world, faction, campaign.parameters),  # what this faction may name, not the map
            "project": own + [p for p in seen if p not in own],
            "victim": sorted(f for f in campaign.factions if f != faction),
        }

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
        ctx = Context(params, campaign.turn, turn.ledger, set(campaign.factions))

        outcomes: dict[tuple[str, int], Done | Rejection] = {}
        moves: list[tuple[OrderRow, int]] = []
        late_builds: list[OrderRow] = []
        for faction in sorted(campaign.factions):
            orders = turn.orders.get(faction)
            rows = order_rows(orders) if orders else []
            done, accepted, later = carry_out_faction(snapshot, world, rows, ctx)
            outcomes.update({(faction, row): outcome for row, outcome in done.items()})
            moves.extend(accepted)
            late_builds.extend(later)
        move.apply_all(world, moves, ctx)
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


def _problem(rejection: Rejection, sheet: SheetRows, row: int) -> Problem:
    return rejection_problem(sheet, row, rejection)


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
