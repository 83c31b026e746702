"""What a ruleset is, and what a turn gives it and gets back.

A ruleset declares its tables (campaign state, order sheets, GM input sheets) as data, its numbers
in a parameters file, and resolves a turn as a pure function of the state before the turn, the
orders, the GM's inputs, and the dice it is handed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.dice import Dice
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.parameters import ParameterTable
from adjudicator.engine.problems import Problem, ProblemList, Severity
from adjudicator.engine.sheets import Column, TableSchema, records
from adjudicator.i18n import N_, Msg

if TYPE_CHECKING:  # pandas is imported where frames are built, not by every module that names the type
    import pandas as pd

    from adjudicator.engine.row_table import RowTable


@dataclass(frozen=True)
class Faction:
    id: str
    name: str
    language: str


@dataclass
class Campaign:
    """The state of a campaign between turns, as read from its master workbook."""

    campaign_id: str
    title: str
    ruleset: str
    seed: int
    turn: int
    language: str
    secret: str
    factions: dict[str, Faction]
    parameters: dict[str, Any]
    #: The state tables by key, each a DataFrame (the master's: a FrameTables, whose frames are made when asked;
    #: read rows with :func:`adjudicator.engine.row_table.table_rows`, which makes none).
    tables: Mapping[str, pd.DataFrame]
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass
class SheetRows:
    """The typed rows of one sheet (an order sheet or a GM input sheet), indexed by sheet row: ``rows``, as intake
    keeps them (a :class:`~adjudicator.engine.row_table.RowTable`; a DataFrame where a test or a ruleset made
    one), read with :func:`~adjudicator.engine.sheets.records`; ``frame``, their DataFrame (made when asked)."""

    schema: TableSchema
    sheet: str
    rows: RowTable | pd.DataFrame
    letters: dict[str, str]
    file: str
    #: Rows the engine refused (sheet row -> typed values), never in ``rows``: a rule about a group of rows
    #: (a jumpship's chain, a coordinated order) may read them to refuse the rest of the group. What is reported
    #: for them is the engine's (their problems); see :mod:`adjudicator.engine.validity`.
    rejected: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def frame(self) -> pd.DataFrame:
        from adjudicator.engine.row_table import as_frame

        return as_frame(self.rows)

    @frame.setter
    def frame(self, frame: pd.DataFrame) -> None:
        self.rows = frame

    def cell(self, row: int, key: str) -> str:
        return f"{self.letters.get(key, 'A')}{row}"

    def problem(self, code: str, row: int, column: str, message: Msg, hint: Msg | None = None,
                severity: Severity = Severity.ERROR) -> Problem:
        """A problem at the cell of ``column`` in sheet row ``row``."""
        return Problem(code, severity, message, hint, file=self.file, sheet=self.sheet, cell=self.cell(row, column),
                       row=row)


class GmInputs:
    """The GM input sheets of a turn as every ruleset reads them: rows by sheet, problems at their cells, and what
    the GM entered so far (sent back with the turn's requests). A ruleset's GM phase extends it with its rules."""

    def __init__(self, sheets: dict[str, SheetRows], file: str, factions: set[str], problems: ProblemList) -> None:
        self.sheets = sheets
        self.file = file
        self.factions = factions
        self.problems = problems

    def rows(self, key: str, include_invalid: bool = False) -> list[tuple[int, dict[str, Any]]]:
        """The rows of a GM sheet; those with a bad cell only when asked (to keep what the GM entered)."""
        sheet = self.sheets.get(key)
        if sheet is None:
            return []
        rows = records(sheet.rows)
        if include_invalid:
            rows = sorted([*rows, *sheet.rejected.items()], key=lambda item: item[0])
        return rows

    def add_problem(self, code: str, key: str, row: int, column: str, message: Msg, hint: Msg | None = None,
                    severity: Severity = Severity.ERROR) -> None:
        self.problems.add(self.sheets[key].problem(code, row, column, message, hint, severity))

    def entered(self, schema: TableSchema) -> pd.DataFrame:
        """What the GM entered in a sheet, the rows with a bad cell included, in the sheet's columns: the sheet as
        it goes back to the GM with the turn's requests."""
        import pandas as pd

        kept = [r for _, r in self.rows(schema.key, include_invalid=True)]
        return pd.DataFrame([{k: r.get(k) for k in schema.keys()} for r in kept], columns=schema.keys())


#: The former name of :class:`GmInputs`.
GmSheets = GmInputs


@dataclass
class FactionOrders:
    faction: str
    file: str
    sheets: dict[str, SheetRows]


class Status(StrEnum):
    DONE = N_("done")
    PARTIAL = N_("partial")
    REJECTED = N_("rejected")


@dataclass(frozen=True)
class OrderOutcome:
    faction: str
    sheet: str  # schema key
    row: int
    status: Status
    message: Msg
    code: str = ""  # the stable code of a rejection (E05, V14...): what tests and scenario cases compare


@dataclass
class ReportTable:
    """A titled table of a report; cells may be :class:`Msg` and are rendered per reader."""

    key: str
    title: Msg
    headers: list[Msg]
    rows: list[list[Any]]


@dataclass
class TurnInput:
    campaign: Campaign
    orders: dict[str, FactionOrders]
    gm_input: dict[str, SheetRows] | None
    gm_input_file: str
    dice: Dice
    ledger: Ledger
    problems: ProblemList


@dataclass
class TurnResult:
    """What a turn produced. With ``gm_requests`` set, the turn waits for the GM and changes nothing."""

    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    gm_requests: dict[str, pd.DataFrame] | None = None
    outcomes: list[OrderOutcome] = field(default_factory=list)
    faction_reports: dict[str, list[ReportTable]] = field(default_factory=dict)
    gm_reports: list[ReportTable] = field(default_factory=list)
    opening_balances: dict[tuple[str, str], int] = field(default_factory=dict)
    closing_balances: dict[tuple[str, str], int] = field(default_factory=dict)

    @property
    def needs_gm_input(self) -> bool:
        return self.gm_requests is not None


class Ruleset(ABC):
    """A game's rules as a plugin of the engine (registered in the ``adjudicator.rulesets`` group)."""

    name: str = ""
    aliases: tuple[str, ...] = ()
    title: str = ""  # English msgid
    default_language: str = "en"
    #: The package that holds ``parameters.toml`` and the ruleset's other data files.
    data_package: str = ""
    #: Former parameters whose value is now a cell of the rule tables: {parameter: (table, row, column)}. An old
    #: campaign's Parameters row naming one is M05 at its cell, saying which Rule tables row to write instead.
    retired_parameters: dict[str, tuple[str, str, str]] = {}  # noqa: RUF012 - a declaration, never changed
    #: Columns the ruleset adds to the campaign's Factions sheet (after ID, Name, Language).
    faction_columns: tuple[Column, ...] = ()
    #: Tables of the campaign state (sheets of the master workbook), in the order they are shown.
    state_schemas: tuple[TableSchema, ...] = ()
    #: Sheets of a faction's order workbook.
    order_schemas: tuple[TableSchema, ...] = ()
    #: Sheets the GM fills when a turn waits for decisions.
    gm_input_schemas: tuple[TableSchema, ...] = ()
    #: Order sheets whose rows stand or fall together, by the column that groups them (a jumpship's chain, a
    #: coordinated order): {sheet key: column key}. A rule about a group may read the rows the engine refused
    #: (``SheetRows.rejected``); the test kit gives its rejected row a group of its own.
    row_groups: dict[str, str] = {}  # noqa: RUF012 - a declaration, never changed
    #: The ruleset's order types (:class:`adjudicator.engine.orders.OrderType`), in one place: with them the
    #: engine's ``check`` runs the same check steps as the ruleset's ``resolve`` (see :mod:`adjudicator.engine.orders`).
    #: Empty: the ruleset checks its orders itself, in ``validate_orders``.
    order_types: tuple[Any, ...] = ()
    #: The order in which the steps of the order types come, within a faction's orders (then sheet order).
    order_steps: tuple[str, ...] = ()
    #: How its order workbook looks, apart from its rules: a subclass of
    #: :class:`adjudicator.engine.presentation.Presentation` (None: the default presentation).
    presentation_type: Any = None
    #: The words of its rule tables' table and column keys in the Rule tables sheet (key -> msgid, e.g.
    #: ``{"units": N_("Units")}``; ``"research.research"``: the research table's column only); a row key's words
    #: are the label of the choice with that code.
    rule_table_words: dict[str, str] = {}  # noqa: RUF012 - a declaration, never changed
    #: The values of its rule tables' columns that take a few words, in those words: {column: {code: msgid}}
    #: (a key ``table.column`` for one table's column only); such a column reads only those codes.
    rule_table_values: dict[str, dict[str, str]] = {}  # noqa: RUF012 - a declaration, never changed
    #: The words of the parts of its ledger references that are not order types or sheets ({code: msgid}): a
    #: reference ``battle:C3`` reads "Battle, C3" when it declares ``{"battle": N_("Battle")}``.
    reference_words: dict[str, str] = {}  # noqa: RUF012 - a declaration, never changed

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A ruleset whose data package ships ``tables.toml`` gets the campaign's *Rule tables* sheet (the GM's
        changes to those tables, see :mod:`adjudicator.engine.rules_data`) after its own state tables, unlisted."""
        super().__init_subclass__(**kwargs)
        from adjudicator.engine.rules_data import RULE_TABLES, ships_tables

        if ships_tables(cls.data_package) and all(s.key != RULE_TABLES.key for s in cls.state_schemas):
            cls.state_schemas = (*cls.state_schemas, RULE_TABLES)

    def rule_tables(self, campaign: Campaign) -> dict[str, Any]:
        """The ruleset's tables (``tables.toml``) with the campaign's Rule tables sheet laid over them; empty
        when the ruleset ships no tables."""
        from adjudicator.engine.row_table import table_rows
        from adjudicator.engine.rules_data import RULE_TABLES, rule_tables, ships_tables

        if not ships_tables(self.data_package):
            return {}
        return rule_tables(self.data_package, table_rows(campaign.tables, RULE_TABLES.key))

    def data_file(self, name: str) -> Traversable:
        return resources.files(self.data_package) / name

    def locale(self) -> Traversable:
        """The folder of the ruleset's own catalogs (``locale/<lang>/LC_MESSAGES/*.po`` in ``data_package``):
        its texts are translated there first, and never by another ruleset's catalog."""
        return self.data_file("locale")

    def parameters(self) -> ParameterTable:
        return ParameterTable.from_toml(self.data_file("parameters.toml"))

    def example_dir(self) -> Path:
        """The bundled example: the ``example`` folder of ``data_package`` when it has one (a plugin's own),
        else ``examples/NAME`` of the adjudicator."""
        from adjudicator.paths import examples_root

        own = Path(str(self.data_file("example"))) if self.data_package else None
        return own if own is not None and own.is_dir() else examples_root() / self.name

    def order_state(self, campaign: Campaign, faction: str, ledger: Ledger, dice: Dice) -> Any:
        """The state one faction's orders are checked against and carried out on (with ``order_types``): what
        ``check`` builds for the player, and what ``resolve`` builds for each faction."""
        raise NotImplementedError(f"{self.name} declares order types but no order_state")

    def validate_orders(
        self, campaign: Campaign, faction: str, orders: FactionOrders, problems: ProblemList
    ) -> None:
        """Checks that need the campaign state (ownership, map); add problems at their cells. With
        ``order_types``: the order types' own checks, exactly as ``resolve`` runs them."""
        if self.order_types:
            from adjudicator.engine.orders import check_faction

            check_faction(self, campaign, orders, problems)

    def commands(self) -> list[Any]:
        """Extra ``click`` commands this ruleset adds to the ``adjudicator`` command line (e.g. ``odds``)."""
        return []

    def presentation(self) -> Any:
        """How the ruleset's order workbook looks: its ``presentation_type``, with any presentation hook the
        ruleset (or a subclass of it) still overrides on itself."""
        from adjudicator.engine.presentation import of_ruleset

        return of_ruleset(self)

    # The presentation hooks, kept on the ruleset for its callers: each asks :meth:`presentation`.
    def example_rows(self, campaign: Campaign, faction: str) -> dict[str, list[dict[str, Any]]]:
        """See :meth:`adjudicator.engine.presentation.Presentation.example_rows`."""
        return self.presentation().example_rows(campaign, faction)

    def reference_tables(self, campaign: Campaign, faction: str) -> list[ReportTable]:
        """See :meth:`adjudicator.engine.presentation.Presentation.reference_tables`."""
        return self.presentation().reference_tables(campaign, faction)

    def decorate_template(self, wb: Any, campaign: Campaign, faction: str) -> None:
        """See :meth:`adjudicator.engine.presentation.Presentation.decorate_template`."""
        self.presentation().decorate_template(wb, campaign, faction)

    def template_lookups(self, campaign: Campaign, faction: str) -> dict[str, list[tuple[str, float]]]:
        """See :meth:`adjudicator.engine.presentation.Presentation.template_lookups`."""
        return self.presentation().template_lookups(campaign, faction)

    def template_budget(self, campaign: Campaign, faction: str) -> int | None:
        """See :meth:`adjudicator.engine.presentation.Presentation.template_budget`."""
        return self.presentation().template_budget(campaign, faction)

    def preview_cost(self, campaign: Campaign, faction: str, row: dict[str, Any]) -> float:
        """See :meth:`adjudicator.engine.presentation.Presentation.preview_cost`."""
        return self.presentation().preview_cost(campaign, faction, row)

    def balances(self, campaign: Campaign) -> dict[tuple[str, str], Any] | None:
        """What the campaign's state holds on each ledger account: {(faction, account): amount}. The engine
        reads it before and after a turn and checks that the ledger leads from one to the other (see
        :mod:`adjudicator.engine.books`). None: the ruleset keeps no accounts."""
        return None

    def account_label(self, account: str) -> Msg | str:
        """A ledger account in the reader's words (a ruleset's ``kind@place`` accounts); ``treasury`` by default."""
        from adjudicator.engine.ledger import account_label

        return account_label(account)

    def gm_row_choices(self, schema_key: str, row: dict[str, Any]) -> dict[str, list[Msg | str]]:
        """Values offered in the dropdowns of one row of a GM input sheet, by column key (e.g. the two sides of
        a battle, and a word for neither, as its winner); a :class:`Msg` is offered in the reader's words."""
        return {}

    def choice_lists(self, campaign: Campaign, faction: str, lang: str) -> dict[str, list[str]]:
        """See :meth:`adjudicator.engine.presentation.Presentation.choice_lists`."""
        return self.presentation().choice_lists(campaign, faction, lang)

    def roll_viewers(self, campaign: Campaign, purposes: list[str]) -> dict[str, set[str]]:
        """Which factions are shown each roll of the turn (by purpose): they get its proof in their results'
        verification tab, nobody else does. By default the factions whose ID is a ``:``-separated part of
        the purpose; a ruleset whose reports show a roll to others, or keep one from the faction it names,
        says so here (see docs/plugins.md, "Who sees a roll")."""
        from adjudicator.dice.visibility import factions_named

        return {purpose: factions_named(purpose, campaign.factions) for purpose in purposes}

    def roll_label(self, purpose: str) -> Msg | str:
        """What a roll decides, in words a player understands (its verification tab shows it beside the
        purpose); by default the purpose itself."""
        return purpose

    def map_view(self, campaign: Campaign, result: TurnResult, reader: str) -> Any:
        """What ``reader`` (a faction's ID, or :data:`adjudicator.outputs.maps.view.GM` / ``PUBLIC``) may see of the
        map after the turn, as an :class:`adjudicator.outputs.maps.view.MapView` built from what its reports show;
        None when the game has no map."""
        return None

    @abstractmethod
    def resolve(self, turn: TurnInput) -> TurnResult:
        """Resolve one turn; a pure function of ``turn`` (dice and ledger come in through it)."""
