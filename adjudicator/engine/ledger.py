"""The ledger: one line for every change of a treasury, fleet or stock.

Rulesets own their balances; they post each change with the balance after it. The core checks
that the ledger reconciles (opening balance + changes = closing balance) for every account.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from adjudicator.i18n import Msg, Words, msg

#: An amount of a ledger: whole units, or exact decimals (``Decimal("31.25")``) for games that count cents.
Amount = int | Decimal


@dataclass(frozen=True)
class LedgerLine:
    turn: int
    phase: str
    faction: str
    account: str
    change: Amount
    balance: Amount
    cause: Msg
    reference: str = ""
    #: The account in the reader's words (the ruleset's :meth:`~adjudicator.engine.ruleset.Ruleset.account_label`).
    label: Msg | str | None = field(default=None, compare=False)


class Ledger:
    def __init__(self, turn: int, labels: Callable[[str], Msg | str] | None = None) -> None:
        self.turn = turn
        self.lines: list[LedgerLine] = []
        self.labels = labels

    def post(
        self,
        phase: str,
        faction: str,
        account: str,
        change: Amount,
        balance: Amount,
        cause: Msg,
        reference: str = "",
    ) -> None:
        if change == 0:
            return
        label = self.labels(account) if self.labels is not None else None
        self.lines.append(
            LedgerLine(self.turn, phase, faction, account, exact(change), exact(balance), cause, reference, label)
        )

    def for_faction(self, faction: str) -> list[LedgerLine]:
        """The faction's lines, in posting order: the lines are grouped by faction once (again only after
        more were posted), not scanned for every faction's results."""
        grouped = self.__dict__.get("_by_faction")
        if grouped is None or grouped[0] != len(self.lines):
            by_faction: dict[str, list[LedgerLine]] = {}
            for line in self.lines:
                by_faction.setdefault(line.faction, []).append(line)
            grouped = self._by_faction = (len(self.lines), by_faction)
        return list(grouped[1].get(faction, ()))


def exact(value: Amount | float) -> Amount:
    """Whole amounts stay ``int``; anything else becomes an exact ``Decimal`` (a float through its text, so
    that 0.1 stays 0.1)."""
    if isinstance(value, bool):
        raise TypeError("a ledger amount cannot be a boolean")
    if isinstance(value, int):
        return value
    number = value if isinstance(value, Decimal) else Decimal(str(value))
    return int(number) if number == number.to_integral_value() else number


def unreconciled(
    opening: Mapping[tuple[str, str], Amount],
    lines: Iterable[LedgerLine],
    closing: Mapping[tuple[str, str], Amount],
) -> list[tuple[str, str, Amount, Amount]]:
    """Accounts whose opening balance plus ledger changes differs from the closing balance,
    or whose running balance column disagrees with the changes: (faction, account, expected, actual)."""
    running: dict[tuple[str, str], Amount] = defaultdict(int, {k: exact(v) for k, v in opening.items()})
    bad: list[tuple[str, str, Amount, Amount]] = []
    for line in lines:
        key = (line.faction, line.account)
        running[key] += line.change
        if running[key] != line.balance:
            bad.append((line.faction, line.account, running[key], line.balance))
    for key in set(running) | set(closing):
        if running.get(key, 0) != exact(closing.get(key, 0)):
            bad.append((key[0], key[1], running.get(key, 0), closing.get(key, 0)))
    return bad


def account_label(account: str) -> Msg | str:
    """``treasury`` as the reader's word; other accounts as they are (a ruleset names its own accounts with
    :meth:`~adjudicator.engine.ruleset.Ruleset.account_label`). Phase names are the ruleset's msgids."""
    if account == "treasury":
        return msg("treasury")
    kind, _, where = account.partition("@")
    if where:  # a ruleset's account of a kind of unit somewhere ("CRUISER@13"): the kind in the reader's words
        from adjudicator.outputs.references import label_of

        label = label_of(kind)
        if label is not None:
            return msg("{what} in {where}", what=Words((label,)), where=where)
    return account


def ledger_row(line: LedgerLine) -> list[object]:
    """A ledger line as the cells of a Ledger sheet."""
    label = line.label if line.label is not None else account_label(line.account)
    return [line.turn, msg(line.phase), line.faction, label, line.change, line.balance,
            line.cause, line.reference]
