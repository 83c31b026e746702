"""The GM's phase of a Star Sectors turn: battle results, feasibility answers, components fielded, late
payments and adjustments, each row checked (E12, E13, E16–E18), with the rows still to fill."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adjudicator.engine.problems import Severity
from adjudicator.engine.ruleset import GmInputs
from adjudicator.i18n import msg
from adjudicator.rulesets.star_sectors import schemas
from adjudicator.rulesets.star_sectors.orders import research_pay
from adjudicator.rulesets.star_sectors.orders.common import Context, Rejection, change_fleet, credit
from adjudicator.rulesets.star_sectors.phases import battle
from adjudicator.rulesets.star_sectors.state import World, square_id

if TYPE_CHECKING:  # pandas is imported where the GM's requests are made: checking orders needs none
    import pandas as pd


class GmPhase(GmInputs):
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
        import pandas as pd

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
            out[schema.key] = self.entered(schema)
        return out
