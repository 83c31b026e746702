"""Order types, the unit of a ruleset (godip's shape): each declares its sheet, its columns and three steps.

- :meth:`OrderType.read`: a row that passed intake, as the ruleset's own typed record;
- :meth:`OrderType.check`: the record against the faction's state, a :class:`Rejection` (or several) or None;
- :meth:`OrderType.carry_out`: the record carried out on that state, a :class:`Done`.

A ruleset lists its order types in one place (``Ruleset.order_types``) and builds the state a faction's orders
are checked against (``Ruleset.order_state``). :func:`carry_out_orders` takes a faction's rows through the three
steps, in the ruleset's ``order_steps`` and then sheet order, each check seeing what the rows before it did.
The player's ``check`` (:func:`check_faction`, the default ``validate_orders``) and the GM's ``run`` (the
ruleset's ``resolve`` calling :func:`carry_out_orders`) run the SAME steps on the same state, so they cannot
disagree: ``check`` only throws away the ledger lines it wrote.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from adjudicator.engine.outcome import Done, Rejection, Result, rejection_problem

__all__ = ["Carried", "Done", "FactionTurn", "OrderType", "Rejection", "Row", "carry_out_orders", "carry_out_turn",
           "check_faction", "report", "results_by_row"]
from adjudicator.engine.problems import ProblemList, Severity
from adjudicator.engine.sheets import TableSchema, records
from adjudicator.i18n import msg

if TYPE_CHECKING:
    from adjudicator.engine.ruleset import Campaign, FactionOrders, OrderOutcome, Ruleset, SheetRows, TurnInput

Record = TypeVar("Record")
Numbered = tuple[int, Mapping[str, Any]]  # a sheet row: its number and its values
State = TypeVar("State")


@dataclass(frozen=True)
class Row:
    """One row of an order sheet as the engine hands it to :meth:`OrderType.read`."""

    faction: str
    sheet: str  # the schema key
    number: int  # the sheet row
    values: Mapping[str, Any]
    refused: bool = False  # only in a group (``OrderType.group``): a row intake refused


class OrderType(Generic[Record, State]):
    """One kind of order: its sheet, the rows it takes, and its three steps."""

    #: The order sheet its rows are on.
    sheet: TableSchema
    #: The value of ``kind_column`` that makes a row this order type ("" : every row of the sheet).
    kind: str = ""
    kind_column: str = "order"
    #: Columns that must be filled for this order type: a blank one rejects the row (C03) before ``check``.
    needs: tuple[str, ...] = ()
    #: A column whose rows stand or fall together (one order of several rows): ``read`` gets them all, the
    #: rows intake refused included (``Row.refused``), and the type decides what a refused row means.
    group: str = ""
    #: When, among the faction's orders, rows of this type are checked and carried out (``Ruleset.order_steps``).
    step: str = ""

    def step_of(self, parameters: Mapping[str, Any]) -> str:
        """The step of this order type under the campaign's parameters (a BUILD after the moves, say)."""
        return self.step

    def read(self, row: Row) -> Record:
        """The row as the ruleset's record (a grouped type: see :meth:`read_group`)."""
        raise NotImplementedError

    def group_of(self, values: Mapping[str, Any], number: int) -> str:
        """The group of a row (a type with ``group``): its cell in that column; a row without one stands alone."""
        return " ".join(str(values.get(self.group) or "").split()).upper() or f"#{number}"

    def read_group(self, rows: list[Row]) -> Record:
        """The rows of one group as one record (only for a type with ``group``)."""
        raise NotImplementedError

    def check(self, state: State, order: Record) -> Rejection | Iterable[Rejection] | None:
        """Why the order cannot be carried out on ``state``; None when it can. It never posts to the ledger nor
        rolls dice; it may note in ``state`` what the rows after it must know of it (what a square was asked)."""
        return None

    def foresee(self, state: State, orders: list[Record]) -> None:  # noqa: B027 - optional
        """Before the first of them is checked: every order of this type the faction gave (read, in step and
        sheet order), for a rule that looks at all of them at once (Galactic War: a unit a movement row names by
        its ID is never the one another row takes by its type). It may note in ``state``. Default: nothing."""

    def carry_out(self, state: State, order: Record) -> Done:
        """Carry the checked order out on ``state`` (ledger lines and dice through the state)."""
        raise NotImplementedError

    def refused(self, state: State, order: Record, rejections: list[Rejection]) -> None:  # noqa: B027 - optional
        """What a refused order still does by the rules (Coordinated Orders' C2: an illegal order spends its
        Command Token). Default: nothing, which is what almost every game wants."""


@dataclass
class Carried:
    """One order through the steps: its rows, and what came of it."""

    type: OrderType[Any, Any]
    order: Any
    sheet: str
    rows: tuple[int, ...]
    done: Done | None = None
    rejections: tuple[Rejection, ...] = ()

    @property
    def accepted(self) -> bool:
        return self.done is not None

    def results(self) -> dict[int, Result]:
        """Each row's result: the Done of the order, or the rejection at that row (else the order's first)."""
        if self.done is not None:
            own = dict(self.done.each)
            return {row: own.get(row, self.done) for row in self.rows}
        at: dict[int, Rejection] = {}
        for rejection in self.rejections:
            at.setdefault(rejection.row or self.rows[0], rejection)
        return {row: at.get(row, self.rejections[0]) for row in self.rows}


def _kind_label(schema: TableSchema, column: str, kind: str) -> Any:
    try:
        choices = schema.column(column).choices
    except (KeyError, StopIteration, ValueError):
        return kind
    label = next((c.label for c in choices or () if c.code == kind), None)
    return msg(label) if label else kind


def _missing(order_type: OrderType[Any, Any], row: Row) -> Rejection | None:
    for key in order_type.needs:
        if row.values.get(key) in (None, ""):
            header = msg(order_type.sheet.column(key).header)
            return Rejection("C03", msg("{column} is required for {order}.", column=header,
                                        order=_kind_label(order_type.sheet, order_type.kind_column, order_type.kind)),
                             key, msg("Fill in {column} or delete the row.", column=header), row=row.number)
    return None


def _rejections(found: Rejection | Iterable[Rejection] | None) -> tuple[Rejection, ...]:
    if found is None:
        return ()
    return (found,) if isinstance(found, Rejection) else tuple(found)


def _items(order_types: Sequence[OrderType[Any, Any]], faction: str, orders: FactionOrders,
           steps: Sequence[str], parameters: Mapping[str, Any]) -> list[tuple[tuple[int, int, int], Any]]:
    from adjudicator.engine.validity import with_rejected

    sheet_at = {key: i for i, key in enumerate(orders.sheets)}
    rows_of: dict[str, list[Numbered]] = {}  # each sheet's rows read once, not once a type
    by_kind: dict[tuple[str, str], dict[Any, list[Numbered]] | None] = {}
    items = []
    for order_type in order_types:
        key = order_type.sheet.key
        sheet: SheetRows | None = orders.sheets.get(key)
        if sheet is None:
            continue
        step = order_type.step_of(parameters)
        rank = steps.index(step) if step in steps else len(steps)

        def mine(values: Mapping[str, Any], order_type: OrderType[Any, Any] = order_type) -> bool:
            return not order_type.kind or values.get(order_type.kind_column) == order_type.kind

        if order_type.group:
            groups: dict[str, list[Row]] = {}
            for number, values in with_rejected(sheet):
                if mine(values):
                    groups.setdefault(order_type.group_of(values, number), []).append(
                        Row(faction, key, number, values, number in sheet.rejected))
            for rows in groups.values():
                items.append(((rank, sheet_at[key], rows[0].number), (order_type, rows)))
        else:
            if key not in rows_of:
                rows_of[key] = records(sheet.rows)
            rows = rows_of[key]
            if order_type.kind:  # the rows of its kind: a dict lookup finds the cells equal to it, in sheet order
                column = (key, order_type.kind_column)
                if column not in by_kind:
                    by_kind[column] = _by_kind(rows, order_type.kind_column)
                kinds = by_kind[column]
                rows = kinds.get(order_type.kind, []) if kinds is not None else [r for r in rows if mine(r[1])]
            for number, values in rows:
                row = Row(faction, key, number, values)
                items.append(((rank, sheet_at[key], number), (order_type, [row])))
    return sorted(items, key=lambda item: item[0])


def _by_kind(rows: list[Numbered], column: str) -> dict[Any, list[Numbered]] | None:
    """A sheet's rows by their cell in ``column``, each list in sheet order; None if a cell cannot be a key."""
    kinds: dict[Any, list[Numbered]] = {}
    try:
        for number, values in rows:
            kinds.setdefault(values.get(column), []).append((number, values))
    except TypeError:  # an unhashable cell: the rows are filtered one by one
        return None
    return kinds


def _foresee(state: Any, items: list[tuple[tuple[int, int, int], Any]]) -> None:
    """Each order type with a ``foresee`` step sees all its orders (the rows ``needs`` lets through), read."""
    seen: dict[int, tuple[OrderType[Any, Any], list[Any]]] = {}
    for _, (order_type, rows) in items:
        if type(order_type).foresee is OrderType.foresee:
            continue
        if not order_type.group and _missing(order_type, rows[0]) is not None:
            continue
        order = order_type.read_group(rows) if order_type.group else order_type.read(rows[0])
        seen.setdefault(id(order_type), (order_type, []))[1].append(order)
    for order_type, orders in seen.values():
        order_type.foresee(state, orders)


def carry_out_orders(ruleset: Ruleset, parameters: Mapping[str, Any], state: Any,
                     orders: FactionOrders) -> list[Carried]:
    """A faction's orders through read, check and carry out, on ``state``, in step and sheet order."""
    carried = []
    items = _items(ruleset.order_types, orders.faction, orders, ruleset.order_steps, parameters)
    _foresee(state, items)
    for _, (order_type, rows) in items:
        numbers = tuple(r.number for r in rows)
        missing = None if order_type.group else _missing(order_type, rows[0])
        if missing is not None:
            carried.append(Carried(order_type, None, order_type.sheet.key, numbers, rejections=(missing,)))
            continue
        order = order_type.read_group(rows) if order_type.group else order_type.read(rows[0])
        rejections = _rejections(order_type.check(state, order))
        if rejections:
            order_type.refused(state, order, list(rejections))
            carried.append(Carried(order_type, order, order_type.sheet.key, numbers, rejections=rejections))
        else:
            carried.append(Carried(order_type, order, order_type.sheet.key, numbers,
                                   done=order_type.carry_out(state, order)))
    return carried


def results_by_row(carried: Iterable[Carried]) -> dict[tuple[str, int], Result]:
    """{(sheet key, row): result} of a faction's carried orders."""
    return {(c.sheet, row): result for c in carried for row, result in c.results().items()}


def report(carried: Iterable[Carried], orders: FactionOrders, problems: ProblemList) -> None:
    """Each rejection as an error at its cell, each warning of a Done as a warning (what ``check`` shows)."""
    for c in carried:
        sheet = orders.sheets[c.sheet]
        for rejection in c.rejections:
            if not rejection.quiet:
                problems.add(rejection_problem(sheet, rejection.row or c.rows[0], rejection))
        if c.done is None:
            continue
        # a group's own result at its first row, and each row's own where the group gives them (Done.each)
        for row, done in ((c.rows[0], c.done), *c.done.each):
            first = sheet.schema.columns[0].key
            if done.warning is not None and not (c.done.each and done is c.done):
                problems.add(sheet.problem(done.code or "W00", row, done.column or first, done.warning,
                                           severity=Severity.WARNING))
            for note in done.notes:
                problems.add(sheet.problem(note.code, row, note.column or first, note.message,
                                           severity=Severity.WARNING))


def check_faction(ruleset: Ruleset, campaign: Campaign, orders: FactionOrders, problems: ProblemList) -> None:
    """The player's ``check``: the faction's orders through the very steps of ``run``, on the state the
    ruleset builds for it, with a ledger that is thrown away and the campaign's own dice."""
    from adjudicator.dice import Dice
    from adjudicator.engine.ledger import Ledger

    state = ruleset.order_state(campaign, orders.faction, Ledger(campaign.turn), Dice(campaign.seed, campaign.turn))
    report(carry_out_orders(ruleset, campaign.parameters, state, orders), orders, problems)


@dataclass
class FactionTurn:
    """What every faction's order state holds: whose it is, the campaign's parameters, and the turn's ledger and
    dice (in ``check``, a ledger thrown away). A ruleset's state may extend it with its own fields."""

    faction: str
    params: Mapping[str, Any]
    ledger: Any
    dice: Any

    def post(self, phase: str, account: str, change: Any, balance: Any, cause: Any, reference: str = "") -> None:
        """A ledger line of this faction (the balance of ``account`` after the change)."""
        self.ledger.post(phase, self.faction, account, change, balance, cause, reference)


def carry_out_turn(ruleset: Ruleset, turn: TurnInput) -> tuple[dict[str, Any], list[OrderOutcome]]:
    """Every faction's orders, each on its own state (``Ruleset.order_state``), for a game whose factions'
    orders do not touch one another before the ruleset's own phases: the states by faction, and the outcomes."""
    from adjudicator.engine.outcome import outcomes

    campaign = turn.campaign
    states, results = {}, {}
    for faction in sorted(campaign.factions):
        states[faction] = state = ruleset.order_state(campaign, faction, turn.ledger, turn.dice)
        orders = turn.orders.get(faction)
        if orders is not None:
            for (sheet, row), result in results_by_row(carry_out_orders(ruleset, campaign.parameters, state,
                                                                        orders)).items():
                results[(faction, sheet, row)] = result
    return states, outcomes(results)
