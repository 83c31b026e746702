"""Coordinated Orders as a ruleset of the engine (spec §4).

A turn of the campaign is one Player Turn's batch of Coordinated Orders: the active player's order
sheet declares them, the reactive player's sheet declares the AROs, and the GM's fact sheet says
what the table measured. Each legal CO spends its Command Token and Regular Order (and forfeited own
Orders), and gets its statuses, Bursts and roll plan; in roll mode the d20s are rolled as well.
"""

from __future__ import annotations

from typing import Any

from adjudicator.dice import Dice
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.orders import carry_out_orders
from adjudicator.engine.problems import Problem, Severity
from adjudicator.engine.row_table import table_rows
from adjudicator.engine.rules_data import RULE_TABLES
from adjudicator.engine.ruleset import (
    Campaign,
    OrderOutcome,
    Ruleset,
    SheetRows,
    Status,
    TurnInput,
    TurnResult,
)
from adjudicator.i18n import N_, Msg, msg
from adjudicator.rulesets.coordinated_orders import schemas, skills
from adjudicator.rulesets.coordinated_orders.facts import (
    FactKey,
    missing,
    read_facts,
    request_frame,
    unknown_rows,
)
from adjudicator.rulesets.coordinated_orders.orders import coordinated, reactions
from adjudicator.rulesets.coordinated_orders.orders.common import Declarations, joined
from adjudicator.rulesets.coordinated_orders.phases.plan import Plan, idle_plan, needed_facts, plan, rollers
from adjudicator.rulesets.coordinated_orders.phases.rolls import Die, judge_dice
from adjudicator.rulesets.coordinated_orders.presentation import CoordinatedPresentation
from adjudicator.rulesets.coordinated_orders.reports import Reporter, error_codes, line_summary
from adjudicator.rulesets.coordinated_orders.state import Game, game_from_tables, game_to_tables
from adjudicator.rulesets.coordinated_orders.table_words import TABLE_VALUES, TABLE_WORDS

PHASE = N_("Orders Phase")


def accounts(game: Game) -> dict[tuple[str, str], int]:
    out = {(f, "command_tokens"): n for f, n in game.tokens.items()}
    out.update({(f, f"regular_orders@CG{g}"): n for (f, g), n in game.orders.items()})
    out.update({(t.faction, f"own_order@{t.id}"): t.own_orders for t in game.troopers.values()
                if t.training == "IRREGULAR"})
    return out


def campaign_skills(campaign: Campaign) -> skills.Skills:
    """The campaign's Skills: ``tables.toml``'s with its Rule tables sheet laid over them."""
    return skills.campaign_skills(table_rows(campaign.tables, RULE_TABLES.key))


def spent_illegal(v: coordinated.Verdict) -> bool:
    """An illegal CO that still spent a Command Token or a Regular Order (``illegal_co_consumes``, C2)."""
    return v.consumption is not None and bool(v.consumption.tokens or v.consumption.orders)


class CoordinatedOrders(Ruleset):
    name = "coordinated_orders"
    aliases = ("coordinated-orders", "orden_coordinada", "ordenes_coordinadas", "coordinated")
    title = N_("Coordinated Orders")
    default_language = "es"
    data_package = "adjudicator.rulesets.coordinated_orders"
    faction_columns = (schemas.COMMAND_TOKENS,)
    state_schemas = (schemas.PLAYER_TURN, schemas.COMBAT_GROUPS, schemas.TROOPERS, schemas.TOOLS)
    order_schemas = (schemas.ORDERS, schemas.REACTIONS)
    row_groups = {"orders": "co"}  # noqa: RUF012 - a refused row makes its whole Coordinated Order illegal
    gm_input_schemas = (schemas.FACTS,)
    rule_table_words = TABLE_WORDS  # the Rule tables sheet's words (table_words.py)
    rule_table_values = TABLE_VALUES

    def account_label(self, account: str) -> Msg | str:
        """The Command Tokens, a combat group's Regular Orders and a trooper's own Order in the reader's words."""
        kind, _, where = account.partition("@")
        if kind == "command_tokens":
            return msg("Command Tokens")
        if kind == "regular_orders" and where.startswith("CG"):
            return msg("Regular Orders of Combat Group {n}", n=where[2:])
        if kind == "own_order" and where:
            return msg("Own Order of {id}", id=where)
        return super().account_label(account)

    #: The Coordinated Orders of the active player, then the AROs of the reactive one.
    order_types = (coordinated.CoordinatedOrder(), reactions.Aro())

    def order_state(self, campaign: Campaign, faction: str, ledger: Ledger, dice: Dice) -> Declarations:
        """The faction's declarations against the state before the turn (``check``)."""
        start = game_from_tables(campaign.tables)
        return Declarations(start.copy(), start, campaign.parameters, faction, campaign_skills(campaign))

    presentation_type = CoordinatedPresentation

    # --------------------------------------------------------------- resolve
    def roll_label(self, purpose: str) -> Msg | str:
        from adjudicator.rulesets.coordinated_orders.dice_viewers import roll_label

        return roll_label(purpose)

    def roll_viewers(self, campaign: Campaign, purposes: list[str]) -> dict[str, set[str]]:
        from adjudicator.rulesets.coordinated_orders.dice_viewers import roll_viewers

        return roll_viewers(purposes, campaign.tables, sorted(campaign.factions))
    def balances(self, campaign: Campaign) -> dict[tuple[str, str], Any]:
        """Command Tokens, Regular Orders by Combat Group, and each Irregular trooper's own Order."""
        return accounts(game_from_tables(campaign.tables))

    def resolve(self, turn: TurnInput) -> TurnResult:
        campaign = turn.campaign
        params = campaign.parameters
        table = campaign_skills(campaign)
        start = game_from_tables(campaign.tables)
        game = start.copy()
        verdicts: list[coordinated.Verdict] = []
        declared: list[reactions.Reaction] = []
        for faction in sorted(campaign.factions):  # the same steps as check, on the shared game
            orders = turn.orders.get(faction)
            if orders is not None:
                state = Declarations(game, start, params, faction, table)
                carry_out_orders(self, params, state, orders)
                verdicts += state.verdicts
                declared += state.reactions
        legal = {v.declaration.co: v for v in verdicts if v.legal and v.declaration.faction == start.active}
        judged = [reactions.judge(r, legal.get(r.co), table) for r in declared]

        facts_sheet = (turn.gm_input or {}).get("facts")
        facts = read_facts(facts_sheet)
        needed = [n for v in legal.values()
                  for n in needed_facts(v, [j for j in judged if j.reaction.co == v.declaration.co], table)]
        wanted: set[FactKey] = {n.key for n in needed}
        unknown_rows(facts_sheet, wanted, facts, turn.gm_input_file, turn.problems)
        self._check_contacts(needed, facts, game, legal, facts_sheet, turn)
        self._check_pairings(facts, legal, judged, facts_sheet, turn)
        if missing(needed, facts) or turn.problems.has_errors():
            import pandas as pd  # the GM's sheet to fill: a frame, made where the turn stops for it

            return TurnResult(gm_requests={"facts": pd.DataFrame(request_frame(needed, facts),
                                                                 columns=schemas.FACTS.keys())})

        plans: dict[str, Plan] = {}
        for v in verdicts:  # in row order; an illegal CO that spent its token has everyone Idle (C2)
            co = v.declaration.co
            if v.legal and legal.get(co) is v:
                plans[co] = plan(game, v, [j for j in judged if j.reaction.co == co], facts, params, table)
            elif not v.legal and spent_illegal(v) and co not in legal:
                plans[co] = idle_plan(v)
        dice: dict[str, list[Die]] = {}
        if params["core_roll_module"]:
            for co in sorted(plans):
                for x in rollers(plans[co]):
                    if x.b_eff:
                        faces = turn.dice.roll(x.purpose, params["die"], x.b_eff).values
                        dice[x.purpose] = judge_dice(faces, x.value or 0, params["die"])

        self._ledger(start, verdicts, turn)
        result = TurnResult(tables=game_to_tables(game, campaign.tables))
        result.outcomes = self._outcomes(verdicts, judged, plans)
        reporter = Reporter(campaign, start, game, verdicts, judged, plans, dice, facts)
        return reporter.fill(result, campaign.factions)

    def _check_contacts(self, needed: list[Any], facts: dict[FactKey, Any], game: Game,
                        legal: dict[str, coordinated.Verdict], sheet: SheetRows | None, turn: TurnInput) -> None:
        """Allies in contact must be troopers of the active player (E21)."""
        for n in needed:
            fact = facts.get(n.key)
            if fact is None or not fact.contact or sheet is None:
                continue
            faction = legal[n.key[0]].declaration.faction
            for ref in fact.contact:
                if game.find(faction, ref) is None:
                    turn.problems.add(Problem(
                        "E21", Severity.ERROR,
                        msg("{id} is not a trooper of {faction}: only allies count for the CC bonus.", id=ref,
                            faction=faction),
                        msg("List the IDs of allied troopers in Silhouette contact with the target."),
                        file=turn.gm_input_file, sheet=sheet.sheet, cell=sheet.cell(fact.row, "contact"),
                        row=fact.row))

    def _check_pairings(self, facts: dict[FactKey, Any], legal: dict[str, coordinated.Verdict],
                        judged: list[reactions.Judged], sheet: SheetRows | None, turn: TurnInput) -> None:
        """A GM's pairing (C12) is on a participant's row and names reactive troopers whose ARO stands (E22)."""
        if sheet is None:
            return
        for (co, _k, trooper), fact in facts.items():
            if fact.against is None or co not in legal:
                continue
            participants = {e.trooper.id for e in legal[co].declaration.entries if e.trooper is not None}
            standing = {j.reaction.trooper.id for j in judged
                        if j.accepted and j.reaction.co == co and j.reaction.trooper is not None}
            wrong = [t for t in fact.against if t not in standing]
            if trooper in participants and not wrong:
                continue
            turn.problems.add(Problem(
                "E22", Severity.ERROR,
                msg("{id} is not a reactive trooper whose ARO stands against {co}; a pairing is amended on a "
                    "participant's row.", id=", ".join(wrong) or trooper, co=co),
                msg("Write the IDs of reactive troopers of this CO, NONE for a Normal Roll, or leave it empty."),
                file=turn.gm_input_file, sheet=sheet.sheet, cell=sheet.cell(fact.row, "against"), row=fact.row))

    def _ledger(self, start: Game, verdicts: list[coordinated.Verdict], turn: TurnInput) -> None:
        running = accounts(start)
        for v in verdicts:
            used = v.consumption
            if used is None:
                continue
            dec = v.declaration
            f = dec.faction
            ref = f"{f}:{dec.co}"
            changes: list[tuple[str, int, Any]] = [
                ("command_tokens", -used.tokens, msg("Coordinated Order {co}: Command Token spent.", co=dec.co)),
                (f"regular_orders@CG{used.combat_group}", -used.orders,
                 msg("Coordinated Order {co}: Regular Order spent.", co=dec.co)),
            ]
            for trooper, kind in used.forfeits:
                account = f"regular_orders@CG{used.combat_group}" if kind == "REGULAR" else f"own_order@{trooper}"
                changes.append((account, -1, msg("Coordinated Order {co}: {id} loses its own Order.", co=dec.co,
                                                 id=trooper)))
            for account, change, cause in changes:
                running[(f, account)] = running.get((f, account), 0) + change
                turn.ledger.post(PHASE, f, account, change, running[(f, account)], cause, ref)

    def _outcomes(self, verdicts: list[coordinated.Verdict], judged: list[reactions.Judged],
                  plans: dict[str, Plan]) -> list[OrderOutcome]:
        out = []
        for v in verdicts:
            dec = v.declaration
            if not v.legal:
                codes = error_codes(v)
                for e in dec.entries:
                    out.append(OrderOutcome(dec.faction, "orders", e.row, Status.REJECTED, msg(
                        "Coordinated Order {co} is illegal ({codes}): its Command Token and Regular Order are "
                        "spent and every participant is Idle.", co=dec.co, codes=codes) if spent_illegal(v)
                        else msg("Coordinated Order {co} is illegal ({codes}) and consumes nothing.", co=dec.co,
                                 codes=codes)))
                continue
            p = plans[dec.co]
            for e in dec.entries:
                mine = [line for line in p.lines if e.trooper is not None and line.trooper == e.trooper.id]
                out.append(OrderOutcome(dec.faction, "orders", e.row, Status.DONE,
                                        msg("{co}: {summary}", co=dec.co,
                                            summary=joined([line_summary(x) for x in mine], "; ") or "—")))
        for j in judged:
            r = j.reaction
            if j.accepted:
                p = plans.get(r.co)
                aro = next((a for a in p.aros if a.trooper == j.reaction.trooper.id), None) if p else None  # type: ignore[union-attr]
                roll = (msg("Face-to-Face against {who}", who=", ".join(aro.opponents)) if aro and aro.opponents
                        else msg("Normal Roll") if aro and aro.roll_type else msg("no roll"))
                out.append(OrderOutcome(r.faction, "reactions", r.row, Status.DONE,
                                        msg("ARO against {id}: {roll}.", id=r.target_ref.upper(), roll=roll)))
            else:
                out.append(OrderOutcome(r.faction, "reactions", r.row, Status.REJECTED,  # the tab adds the code
                                        j.reason or msg("ARO lost."), j.code))
        return out
