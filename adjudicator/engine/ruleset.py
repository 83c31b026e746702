"""What a ruleset is, and what a turn gives it and gets back.

A ruleset declares its tables (campaign state, order sheets, GM input sheets) as data, its numbers
in a parameters file, and resolves a turn as a pure function of the state before the turn, the
orders, the GM's inputs, and the dice it is handed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import pandas as pd

from adjudicator.dice import Dice
from adjudicator.engine.parameters import ParameterTable
from adjudicator.i18n import N_, Msg
from adjudicator.ledger import Ledger
from adjudicator.problems import Problem, ProblemList, Severity
from adjudicator.sheets import Column, TableSchema, records


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
    tables: dict[str, pd.DataFrame]
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass
class SheetRows:
    """The typed rows of one sheet (an order sheet or a GM input sheet), indexed by sheet row."""

    schema: TableSchema
    sheet: str
    frame: pd.DataFrame
    letters: dict[str, str]
    file: str

    def cell(self, row: int, key: str) -> str:
        return f"{self.letters.get(key, 'A')}{row}"

    def problem(self, code: str, row: int, column: str, message: Msg, hint: Msg | None = None,
                severity: Severity = Severity.ERROR) -> Problem:
        """A problem at the cell of ``column`` in sheet row ``row``."""
        return Problem(code, severity, message, hint, file=self.file, sheet=self.sheet, cell=self.cell(row, column),
                       row=row)


class GmSheets:
    """The GM input sheets of a turn as a ruleset reads them: rows by sheet, and problems at their cells."""

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
        return [(n, r) for n, r in records(sheet.frame) if include_invalid or not r.get("_invalid")]

    def add_problem(self, code: str, key: str, row: int, column: str, message: Msg, hint: Msg | None = None,
                    severity: Severity = Severity.ERROR) -> None:
        self.problems.add(self.sheets[key].problem(code, row, column, message, hint, severity))


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
    #: Columns the ruleset adds to the campaign's Factions sheet (after ID, Name, Language).
    faction_columns: tuple[Column, ...] = ()
    #: Tables of the campaign state (sheets of the master workbook), in the order they are shown.
    state_schemas: tuple[TableSchema, ...] = ()
    #: Sheets of a faction's order workbook.
    order_schemas: tuple[TableSchema, ...] = ()
    #: Sheets the GM fills when a turn waits for decisions.
    gm_input_schemas: tuple[TableSchema, ...] = ()

    def data_file(self, name: str) -> Traversable:
        return resources.files(self.data_package) / name

    def parameters(self) -> ParameterTable:
        return ParameterTable.from_toml(self.data_file("parameters.toml"))

    def example_dir(self) -> Path:
        from adjudicator.paths import examples_root

        return examples_root() / self.name

    def validate_orders(  # noqa: B027 - an optional hook, empty by default
        self, campaign: Campaign, faction: str, orders: FactionOrders, problems: ProblemList
    ) -> None:
        """Checks that need the campaign state (ownership, map); add problems at their cells."""

    def commands(self) -> list[Any]:
        """Extra ``click`` commands this ruleset adds to the ``adjudicator`` command line (e.g. ``odds``)."""
        return []

    def example_rows(self, campaign: Campaign, faction: str) -> dict[str, list[dict[str, Any]]]:
        """One filled example row per order type, by order sheet key (values by column key), shown on the
        instructions sheet of the faction's order workbook. By default, the ``[examples]`` table of the
        ruleset's bundled ``scenario.toml`` (illustrative rows, the same for every faction)."""
        import tomllib

        scenario = self.example_dir() / "scenario.toml"
        if not scenario.exists():
            return {}
        examples = tomllib.loads(scenario.read_text(encoding="utf-8")).get("examples", {})
        return {key: list(rows) for key, rows in examples.items() if isinstance(rows, list)}

    def reference_tables(self, campaign: Campaign, faction: str) -> list[ReportTable]:
        """Read-only tables shown in the faction's order workbook (its roster, its forces...), each on a
        protected sheet after the order sheets. Only what the faction may see."""
        return []

    def decorate_template(self, wb: Any, campaign: Campaign, faction: str) -> None:  # noqa: B027 - optional hook
        """Last touches to a freshly built order workbook (an openpyxl Workbook), for what the declarative
        columns cannot say. Whatever it adds is a preview: the engine never reads it back."""

    def template_lookups(self, campaign: Campaign, faction: str) -> dict[str, list[tuple[str, float]]]:
        """Two-column tables (key, number) that the template's formulas look up as ``{lookup:NAME}``."""
        return {}

    def template_budget(self, campaign: Campaign, faction: str) -> int | None:
        """The treasury shown in the order workbook's budget block (None: no budget block)."""
        return None

    def preview_cost(self, campaign: Campaign, faction: str, row: dict[str, Any]) -> float:
        """What the template's cost column should show for an order row (the engine's own figure)."""
        return 0

    def choice_lists(self, campaign: Campaign, faction: str) -> dict[str, list[str]]:
        """Values offered in dropdowns of the order template, by column key."""
        return {}

    def map_view(self, campaign: Campaign, result: TurnResult, reader: str) -> Any:
        """What ``reader`` (a faction's ID, or :data:`adjudicator.maps.view.GM` / ``PUBLIC``) may see of the
        map after the turn, as an :class:`adjudicator.maps.view.MapView` built from what its reports show;
        None when the game has no map."""
        return None

    @abstractmethod
    def resolve(self, turn: TurnInput) -> TurnResult:
        """Resolve one turn; a pure function of ``turn`` (dice and ledger come in through it)."""
