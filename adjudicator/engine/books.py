"""The engine keeps the books: opening and closing balances come from the state, the changes from the ledger.

A ruleset names its accounts once, in :meth:`~adjudicator.engine.ruleset.Ruleset.balances` (what the
state tables hold on each account), and posts every change to the ledger while it resolves. The engine
reads the balances of the state before the turn and of the state after it, and a turn whose ledger does
not lead from the one to the other is not committed.
"""

from __future__ import annotations

from collections.abc import Iterable

from adjudicator.engine.ledger import Amount, LedgerLine, unreconciled
from adjudicator.engine.ruleset import Campaign, Ruleset, TurnResult

Balances = dict[tuple[str, str], Amount]


def state_after(campaign: Campaign, result: TurnResult) -> Campaign:
    """The campaign with the tables a turn wrote (tables it did not write are as they were)."""
    from dataclasses import replace

    return replace(campaign, tables={**campaign.tables, **result.tables})


def opening_and_closing(ruleset: Ruleset, campaign: Campaign, result: TurnResult) -> tuple[Balances, Balances]:
    """The balances of every account before and after the turn."""
    opening = ruleset.balances(campaign)
    if opening is None:  # a ruleset that keeps no accounts of its own, or still hands its balances in
        return dict(result.opening_balances), dict(result.closing_balances)
    return dict(opening), dict(ruleset.balances(state_after(campaign, result)) or {})


def unbalanced(ruleset: Ruleset, campaign: Campaign, result: TurnResult,
               lines: Iterable[LedgerLine]) -> list[tuple[str, str, Amount, Amount]]:
    """Accounts whose opening balance plus the ledger's changes is not the closing balance."""
    opening, closing = opening_and_closing(ruleset, campaign, result)
    result.opening_balances, result.closing_balances = opening, closing
    return unreconciled(opening, lines, closing)
