"""What each faction and the GM are shown after a turn (spec §6).

A faction sees its own orders, treasury, fleets and projects; the battles it fought, with the
values and losses of the squares it shared; the squares it controls; and every theft (thefts are
public, S5). It never sees another faction's treasury, moves, projects or fleets elsewhere.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import reporting
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.reporting import headers as h
from adjudicator.engine.ruleset import Campaign, FactionOrders, ReportTable
from adjudicator.engine.sheets import records
from adjudicator.i18n import N_, msg
from adjudicator.rulesets.star_sectors.orders.common import Done, OrderRow, Rejection
from adjudicator.rulesets.star_sectors.phases import battle
from adjudicator.rulesets.star_sectors.state import World


def theft_rows(orders: dict[str, FactionOrders]) -> list[tuple[str, int, dict[str, Any]]]:
    """(faction, sheet row, values) of every THEFT row submitted."""
    found = []
    for faction, submitted in sorted(orders.items()):
        sheet = submitted.sheets.get("orders")
        if sheet is None:
            continue
        for row, values in records(sheet.rows):
            if values.get("order") == "THEFT":
                found.append((faction, row, values))
    return found


class Reporter(reporting.Reporter):
    def __init__(
        self,
        campaign: Campaign,
        snapshot: World,
        after_moves: World,
        pre_battle: World,
        world: World,
        fights: list[battle.Contest],
        results: dict[tuple[str, str], battle.Result],
        square_results: dict[tuple[str, str, str], battle.Result],
        terms: dict[tuple[str, str], list[tuple[str, int]]],
        held: dict[str, str],
        ledger: Ledger,
        outcomes: dict[tuple[str, int], Done | Rejection],
        orders: dict[str, FactionOrders],
        moves: list[tuple[OrderRow, int]],
    ) -> None:
        self.campaign = campaign
        self.snapshot = snapshot
        self.after_moves = after_moves
        self.pre_battle = pre_battle
        self.world = world
        self.fights = fights
        self.results = results
        self.square_results = square_results
        self.terms = terms
        self.held = held
        self.ledger = ledger
        self.outcomes = outcomes
        self.orders = orders
        self.moves = moves

    # ------------------------------------------------------------ pieces
    def thefts(self) -> list[list[Any]]:
        if not hasattr(self, "_thefts"):  # the same for every reader: every faction's orders read once a turn
            self._thefts = []
            for faction, row, order in theft_rows(self.orders):
                if isinstance(self.outcomes.get((faction, row)), Done):
                    self._thefts.append([faction, order.get("project"), str(order.get("victim") or "").upper()])
        return [list(row) for row in self._thefts]

    def income_of(self, faction: str) -> int:
        earned = self.by_faction("income", lambda: (line for line in self.ledger.lines
                                                    if line.account == "treasury" and line.phase == "step 4"
                                                    and line.change > 0),
                                 lambda line: (line.faction,))
        return sum(line.change for line in earned.get(faction, ()))

    def summary(self, faction: str) -> ReportTable:
        opening = self.snapshot.treasury.get(faction, 0)
        closing = self.world.treasury.get(faction, 0)
        earned = self.income_of(faction)
        other = closing - opening - earned
        return ReportTable("summary", msg("Treasury"), h(N_("Item"), N_("R")), [
            [msg("Treasury at the start of the turn"), opening],
            [msg("Spent and refunded"), other],
            [msg("Income"), earned],
            [msg("Treasury at the end of the turn"), closing],
        ])

    def fleets(self, faction: str | None) -> ReportTable:
        keys = self.by_faction("fleets", lambda: sorted({*self.snapshot.fleets, *self.after_moves.fleets,
                                                         *self.world.fleets}, key=lambda k: (k[1], k[0])),
                               lambda k: (k[0],)).get(faction, [])
        rows = [
            [f, s, self.snapshot.value(f, s), self.after_moves.value(f, s), self.world.value(f, s)]
            for f, s in keys
        ]
        return ReportTable("fleets", msg("Fleets"),
                           h(N_("Faction"), N_("Square"), N_("Start of turn"), N_("After movement"),
                             N_("End of turn")), rows)

    def battles(self, faction: str | None) -> ReportTable:
        rows = []
        for fight in self.by_faction("fights", lambda: self.fights, lambda fight: fight.key).get(faction, []):
            for square, value_a, value_b in fight.squares:
                result = self.results[fight.key]
                if self.campaign.parameters["allow_per_square_results"]:
                    result = self.square_results.get((square, fight.a, fight.b), result)
                loss_a = dict(self.terms.get((fight.a, square), [])).get(fight.b, 0)
                loss_b = dict(self.terms.get((fight.b, square), [])).get(fight.a, 0)
                winner = msg("DRAW") if result.winner == "DRAW" else result.winner
                rows.append([fight.a, fight.b, square, value_a, value_b, winner, _pct(result.pct_a),
                             _pct(result.pct_b), loss_a, loss_b])
        return ReportTable("battles", msg("Battles"),
                           h(N_("Faction A"), N_("Faction B"), N_("Square"), N_("R of A"), N_("R of B"),
                             N_("Winner"), N_("Destroyed A, %"), N_("Destroyed B, %"), N_("Loss of A"),
                             N_("Loss of B")), rows)

    def moved(self, faction: str | None) -> ReportTable:
        """The moves carried out (a faction sees its own; the GM sees all)."""
        moves = self.by_faction("moves", lambda: sorted(self.moves, key=lambda m: (m[0].faction, m[0].row)),
                                lambda m: (m[0].faction,))
        rows = [[order.faction, order.square, order.to, amount] for order, amount in moves.get(faction, [])]
        return ReportTable("moves", msg("Moves"), h(N_("Faction"), N_("From"), N_("To"), N_("R moved")), rows)

    def control(self, faction: str | None) -> ReportTable:
        held = self.by_faction("held", lambda: sorted(self.held.items()), lambda item: (item[1],))
        rows = [[square, holder, self.world.squares[square].income] for square, holder in held.get(faction, [])]
        return ReportTable("control", msg("Control and income"),
                           h(N_("Square"), N_("Controlled by"), N_("Income")), rows)

    def public_thefts(self) -> ReportTable:
        return ReportTable("thefts", msg("Thefts announced this turn"),
                           h(N_("Thief"), N_("Component"), N_("Victim")), self.thefts())

    def _projects(self) -> dict[str | None, list[Any]]:
        return self.by_faction("projects", lambda: sorted(self.world.projects.values(), key=lambda p: p.id),
                               lambda p: (p.faction,))

    def projects(self, faction: str | None) -> ReportTable:
        rows = [
            [p.id, p.faction, p.description, msg(p.status), p.price or None, p.paid or None, p.available_from,
             msg(p.origin), p.source or None]
            for p in self._projects().get(faction, [])
        ]
        return ReportTable("projects", msg("Projects"),
                           h(N_("Project"), N_("Faction"), N_("Description"), N_("Status"), N_("Price"),
                             N_("Paid"), N_("Available from turn"), N_("Origin"), N_("Source")), rows)

    def available(self, faction: str | None) -> ReportTable:
        turn = self.campaign.turn
        rows = [
            [p.faction, p.component, p.description]
            for p in self._projects().get(faction, [])
            if p.status == "PAID" and p.available_from == turn + 1
        ]
        return ReportTable("available", msg("Components usable from next turn"),
                           h(N_("Faction"), N_("Component"), N_("Description")), rows)

    # ------------------------------------------------------------ reports
    def faction(self, faction: str) -> list[ReportTable]:
        return [
            self.summary(faction),
            self.moved(faction),
            self.fleets(faction),
            self.battles(faction),
            self.control(faction),
            self.public_thefts(),
            self.projects(faction),
            self.available(faction),
        ]

    def gm(self) -> list[ReportTable]:
        return [
            ReportTable("treasuries", msg("Treasuries"),
                        h(N_("Faction"), N_("Start of turn"), N_("Income"), N_("End of turn")),
                        [[f, self.snapshot.treasury.get(f, 0), self.income_of(f), self.world.treasury.get(f, 0)]
                         for f in sorted(self.campaign.factions)]),
            self.moved(None),
            self.fleets(None),
            self.battles(None),
            self.control(None),
            self.public_thefts(),
            self.projects(None),
            self.available(None),
        ]


def _pct(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value
