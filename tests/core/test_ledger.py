"""adjudicator.engine.ledger: posting changes and reconciling balances."""

from __future__ import annotations

from adjudicator.engine.ledger import Ledger, LedgerLine, account_label, ledger_row, unreconciled
from adjudicator.engine.registry import find_ruleset
from adjudicator.i18n import Msg, msg

CAUSE = msg("Income")


def _line(faction: str, account: str, change: int, balance: int, turn: int = 1) -> LedgerLine:
    return LedgerLine(turn, "income", faction, account, change, balance, CAUSE)


def test_post_records_a_line_with_the_ledger_turn() -> None:
    ledger = Ledger(turn=4)
    ledger.post("income", "alpha", "treasury", 25, 125, CAUSE, reference="A1")
    assert ledger.lines == [LedgerLine(4, "income", "alpha", "treasury", 25, 125, CAUSE, "A1")]


def test_post_skips_zero_changes() -> None:
    ledger = Ledger(turn=1)
    ledger.post("income", "alpha", "treasury", 0, 100, CAUSE)
    assert ledger.lines == []
    ledger.post("income", "alpha", "treasury", -5, 95, CAUSE)
    ledger.post("income", "alpha", "treasury", 0, 95, CAUSE)
    assert [line.change for line in ledger.lines] == [-5]


def test_post_stores_whole_numbers() -> None:
    ledger = Ledger(turn=1)
    ledger.post("build", "alpha", "fleet:A1", 10.0, 60.0, CAUSE)  # type: ignore[arg-type]
    line = ledger.lines[0]
    assert (line.change, line.balance) == (10, 60)
    assert isinstance(line.change, int) and isinstance(line.balance, int)


def test_for_faction() -> None:
    ledger = Ledger(turn=1)
    ledger.post("income", "alpha", "treasury", 10, 110, CAUSE)
    ledger.post("income", "beta", "treasury", 20, 70, CAUSE)
    ledger.post("build", "alpha", "treasury", -30, 80, CAUSE)
    assert [line.change for line in ledger.for_faction("alpha")] == [10, -30]
    assert [line.change for line in ledger.for_faction("beta")] == [20]
    assert ledger.for_faction("gamma") == []


def test_consistent_lines_reconcile() -> None:
    opening = {("alpha", "treasury"): 100, ("beta", "treasury"): 50, ("beta", "fleet:B2"): 40}
    lines = [
        _line("alpha", "treasury", 25, 125),
        _line("beta", "treasury", -10, 40),
        _line("alpha", "treasury", -30, 95),
        _line("alpha", "fleet:A1", 30, 30),  # an account that opens at zero
        _line("beta", "fleet:B2", -40, 0),
    ]
    closing = {("alpha", "treasury"): 95, ("beta", "treasury"): 40, ("alpha", "fleet:A1"): 30}
    # beta's fleet closes at 0: absent from closing is the same as 0.
    assert unreconciled(opening, lines, closing) == []


def test_no_lines_and_unchanged_balances_reconcile() -> None:
    balances = {("alpha", "treasury"): 100}
    assert unreconciled(balances, [], dict(balances)) == []


def test_posted_ledger_reconciles() -> None:
    ledger = Ledger(turn=2)
    ledger.post("income", "alpha", "treasury", 25, 125, CAUSE)
    ledger.post("income", "alpha", "treasury", 0, 125, CAUSE)
    ledger.post("build", "alpha", "treasury", -45, 80, CAUSE)
    assert unreconciled({("alpha", "treasury"): 100}, ledger.lines, {("alpha", "treasury"): 80}) == []


def test_wrong_running_balance_is_flagged() -> None:
    opening = {("alpha", "treasury"): 100}
    lines = [
        _line("alpha", "treasury", 25, 125),
        _line("alpha", "treasury", -30, 99),  # should be 95
        _line("alpha", "treasury", 5, 100),
    ]
    closing = {("alpha", "treasury"): 100}
    assert unreconciled(opening, lines, closing) == [("alpha", "treasury", 95, 99)]


def test_wrong_closing_balance_is_flagged() -> None:
    opening = {("alpha", "treasury"): 100, ("beta", "treasury"): 50}
    lines = [_line("alpha", "treasury", 25, 125), _line("beta", "treasury", 5, 55)]
    closing = {("alpha", "treasury"): 120, ("beta", "treasury"): 55}
    assert unreconciled(opening, lines, closing) == [("alpha", "treasury", 125, 120)]


def test_closing_balance_without_any_line_is_flagged() -> None:
    # An account that changed without a ledger line: opening 0 (absent), closing 30.
    assert unreconciled({}, [], {("alpha", "fleet:A1"): 30}) == [("alpha", "fleet:A1", 0, 30)]


def test_account_missing_from_closing_is_flagged_when_not_zero() -> None:
    opening = {("alpha", "treasury"): 100}
    assert unreconciled(opening, [], {}) == [("alpha", "treasury", 100, 0)]


def test_both_kinds_of_error_are_reported() -> None:
    opening = {("alpha", "treasury"): 100}
    lines = [_line("alpha", "treasury", 10, 111)]
    closing = {("alpha", "treasury"): 111}
    # The running balance of the line (110 expected, 111 written), then the closing balance.
    assert unreconciled(opening, lines, closing) == [
        ("alpha", "treasury", 110, 111),
        ("alpha", "treasury", 110, 111),
    ]


def test_unreconciled_does_not_change_the_opening_balances() -> None:
    opening = {("alpha", "treasury"): 100}
    unreconciled(opening, [_line("alpha", "treasury", 10, 110), _line("beta", "treasury", 5, 5)], {})
    assert opening == {("alpha", "treasury"): 100}


def test_account_label() -> None:
    treasury = account_label("treasury")
    assert isinstance(treasury, Msg) and treasury.render("en") == "treasury"
    assert account_label("fleet@C4") == "fleet@C4"  # the core knows no ruleset's accounts
    star_sectors = find_ruleset("star_sectors")
    fleet = star_sectors.account_label("fleet@C4")
    assert isinstance(fleet, Msg) and fleet.render("en") == "fleet in C4"
    assert fleet.params == {"square": "C4"}
    assert star_sectors.account_label("stock:engines") == "stock:engines"
    assert star_sectors.account_label("fleet@") == "fleet@"  # no square: shown as it is


def test_a_ledger_labels_accounts_with_the_rulesets_words() -> None:
    ledger = Ledger(1, find_ruleset("star_sectors").account_label)
    ledger.post("step 1", "alpha", "fleet@C4", 5, 5, Msg("x"))
    assert ledger_row(ledger.lines[0])[3].render("es") != "fleet@C4"
