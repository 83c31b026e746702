"""Scenario cases as data: a pre-state, the orders, the GM's inputs, scripted dice, and what must come out.

A case is a TOML file (the shape of the DATC's test cases; see docs/cases.md)::

    ruleset = "star_sectors"
    title = "A move the treasury cannot pay is refused"
    [settings]            # optional: seed, turn, language
    [parameters]          # optional: the campaign's parameter overrides
    [tables]              # the state before the turn: rows of each state table (factions included)
    [orders.ALPHA]        # each faction's rows, by order sheet key; rows are numbered from 2, as in the sheet
    [gm_input]            # optional: rows of each GM input sheet (absent: the turn may stop and wait)
    [dice]                # optional: scripted dice, purpose (or a glob of purposes) -> faces
    [expect]              # tables, orders (status and code per row), ledger lines, reports, problems

:func:`run_case` takes the orders through the same steps as a submitted workbook (typing, the ruleset's
checks, the engine's validity rule) and resolves the turn with the same :class:`~adjudicator.engine.ruleset.Ruleset`
API the pipeline uses, in memory, and returns every difference from what the case expects.
"""

from __future__ import annotations

import fnmatch
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import pandas as pd

from adjudicator.dice import Dice, DiceError, Roll
from adjudicator.engine.books import state_after, unbalanced
from adjudicator.engine.ledger import Ledger, LedgerLine
from adjudicator.engine.problems import ProblemList
from adjudicator.engine.registry import find_ruleset
from adjudicator.engine.row_table import FrameTables, RowTable
from adjudicator.engine.rules_data import RULE_TABLES, check_changes
from adjudicator.engine.ruleset import Campaign, FactionOrders, Ruleset, SheetRows, TurnInput, TurnResult
from adjudicator.engine.sheets import TableSchema, plain_rows
from adjudicator.engine.validity import check_orders, passed_orders, passed_sheets
from adjudicator.i18n import Msg, msg, render, ruleset_catalog
from adjudicator.intake.reading import Table, clean
from adjudicator.intake.validation import validate_table


class CaseError(ValueError):
    """Raised when a case file cannot be read or names what its ruleset does not have (its one argument: a
    :class:`~adjudicator.i18n.Msg`, shown in the reader's language)."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message.render("en")


class ScriptedDice(Dice):
    """Seeded dice, except for the purposes a case scripts: those roll the faces it gives, in order (one face
    alone stands for every die of the roll). An exact purpose wins over a pattern; patterns are tried in the
    order the case writes them."""

    def __init__(self, seed: int, turn: int, script: Mapping[str, Iterable[int]]) -> None:
        super().__init__(seed, turn)
        self.script = {pattern: [int(v) for v in values] for pattern, values in script.items()}
        self.scripted: set[str] = set()

    def roll(self, purpose: str, sides: int, count: int = 1) -> Roll:
        pattern = next((p for p in self.script if p == purpose), None) or next(
            (p for p in self.script if fnmatch.fnmatchcase(purpose, p)), None)
        if pattern is None:
            return super().roll(purpose, sides, count)
        if purpose in self._used:
            raise DiceError(f"dice already rolled this turn for {purpose!r}")
        faces = self.script[pattern]
        if len(faces) == 1:
            faces = faces * count
        if len(faces) < count:
            raise CaseError(msg("the case scripts {n} faces for {purpose}, the rules roll {count}", n=len(faces),
                                purpose=repr(purpose), count=count))
        self._used.add(purpose)
        self.scripted.add(pattern)
        result = Roll(self.turn, purpose, sides, tuple(faces[:count]))
        self.log.append(result)
        return result


@dataclass
class Case:
    path: str
    data: dict[str, Any]

    @property
    def name(self) -> str:
        return Path(self.path).stem

    @property
    def title(self) -> str:
        return str(self.data.get("title", self.name))


@dataclass
class Turn:
    """A case's turn, resolved: what the harness compares (and what the test kit reuses)."""

    ruleset: Ruleset
    campaign: Campaign
    orders: dict[str, FactionOrders]  # as submitted (every row)
    problems: dict[str, ProblemList]  # by faction: what intake found
    gm_problems: ProblemList
    result: TurnResult
    ledger: Ledger
    dice: Dice
    unbalanced: list[Any] = field(default_factory=list)

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        return state_after(self.campaign, self.result).tables

    def status(self, faction: str, sheet: str, row: int) -> tuple[str, str]:
        """(status, code) of one order row: *rejected* with its first error code when intake refused it,
        else what the ruleset said."""
        orders = self.orders.get(faction)
        problems = self.problems.get(faction, ProblemList())
        sheet_name = orders.sheets[sheet].sheet if orders and sheet in orders.sheets else sheet
        errors = [p for p in problems.errors if p.sheet == sheet_name and p.row == row]
        if errors:
            return "rejected", errors[0].code
        found = next((o for o in self.result.outcomes if (o.faction, o.sheet, o.row) == (faction, sheet, row)), None)
        return (str(found.status.value), found.code) if found else ("", "")


# ------------------------------------------------------------------------------------------- loading
def load_case(source: Path | Traversable) -> Case:
    try:
        data = tomllib.loads(source.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise CaseError(msg("{file}: {error}", file=source.name, error=str(error))) from error
    if "ruleset" not in data:
        raise CaseError(msg("{file}: a case names its ruleset (ruleset = \"...\")", file=source.name))
    return Case(str(source), data)


def bundled_cases(ruleset: Ruleset) -> list[Case]:
    """The cases a ruleset ships in its package (``<data package>/cases/*.toml``), by file name."""
    folder = resources.files(ruleset.data_package) / "cases"
    if not folder.is_dir():
        return []
    return [load_case(p) for p in sorted(folder.iterdir(), key=lambda p: p.name) if p.name.endswith(".toml")]


def folder_cases(folder: Path) -> list[Case]:
    """A GM's own cases: every ``*.toml`` below ``folder``."""
    return [load_case(p) for p in sorted(folder.rglob("*.toml"))]


# ------------------------------------------------------------------------------------------ the turn
def campaign_of(ruleset: Ruleset, data: Mapping[str, Any]) -> Campaign:
    """The campaign before the turn, from a case's settings, parameters and tables."""
    from adjudicator.scenario import campaign_from_data

    settings = {"ruleset": ruleset.name, "campaign": "case", "seed": 1, "turn": 1, "secret": "case",
                "language": ruleset.default_language, **data.get("settings", {})}
    tables = dict(data.get("tables", {}))
    known = {"factions", *(s.key for s in ruleset.state_schemas)}
    unknown = sorted(set(tables) - known)
    if unknown:
        raise CaseError(msg("{ruleset} has no state table {tables}", ruleset=ruleset.name, tables=", ".join(unknown)))
    _, campaign = campaign_from_data({"settings": settings, "parameters": data.get("parameters", {}),
                                      "tables": tables})
    return typed_state(ruleset, campaign, tables)


def typed_state(ruleset: Ruleset, campaign: Campaign, tables: Mapping[str, Any]) -> Campaign:
    """The state tables typed as campaign.xlsx's are (choice words to codes, numbers to numbers), so that a
    case's state reaches the ruleset as the master workbook's would."""
    from adjudicator.store.master import factions_schema

    problems = ProblemList()
    typed = {}
    for schema in (factions_schema(ruleset), *ruleset.state_schemas):
        table = table_of(schema, tables.get(schema.key, []))
        rows = validate_table(table, problems, "campaign.xlsx")
        if schema.key == RULE_TABLES.key:  # each change must fit the ruleset's tables, as in campaign.xlsx
            check_changes(ruleset.data_package, table, rows, problems, "campaign.xlsx")
        typed[schema.key] = rows.without("_invalid")
    if problems.has_errors():
        raise CaseError(msg("the state does not read: {problems}", problems=_joined("; ", [
            msg("{sheet} {cell}: {message}", sheet=p.sheet, cell=p.cell, message=p.message)
            for p in problems.errors[:3]])))
    typed["factions"] = typed["factions"].with_column(
        "id", [str(v or "").strip().upper() for v in typed["factions"].column("id")])
    campaign.tables = FrameTables(typed)
    return campaign


def table_of(schema: TableSchema, rows: Iterable[Mapping[str, Any]]) -> Table:
    """Rows written in a case as the sheet a workbook would give: header in row 1, rows from row 2."""
    keys = schema.keys()
    rows = list(rows)
    for row in rows:
        unknown = sorted(set(row) - set(keys))
        if unknown:
            raise CaseError(msg("the sheet {sheet} has no column {columns}", sheet=schema.key,
                                columns=", ".join(unknown)))
    cells = RowTable(list(range(2, 2 + len(rows))), {k: [clean(r.get(k)) for r in rows] for k in keys})
    letters = {key: _letter(i) for i, key in enumerate(keys)}
    return Table(schema, schema.key, cells.select([any(v is not None for v in r.values()) for _, r in cells.records()]),
                 letters)


def _letter(index: int) -> str:
    from openpyxl.utils import get_column_letter

    return get_column_letter(index + 1)


def sheets_of(schemas: Iterable[TableSchema], rows: Mapping[str, Any], file: str,
              problems: ProblemList) -> dict[str, SheetRows]:
    """Typed rows of each sheet, with the same checks as a workbook's (problems at their cells)."""
    schemas = list(schemas)
    unknown = sorted(set(rows) - {s.key for s in schemas})
    if unknown:
        raise CaseError(msg("no sheet {sheets}", sheets=", ".join(unknown)))
    out = {}
    for schema in schemas:
        table = table_of(schema, rows.get(schema.key, []))
        out[schema.key] = SheetRows(schema, table.sheet, validate_table(table, problems, file), table.letters, file)
    return out


def resolve_case(data: Mapping[str, Any], ruleset: Ruleset | None = None) -> Turn:
    """A case's turn resolved in memory, through intake's checks and the ruleset's ``resolve``."""
    ruleset = ruleset or find_ruleset(str(data["ruleset"]))
    campaign = campaign_of(ruleset, data)
    orders: dict[str, FactionOrders] = {}
    problems: dict[str, ProblemList] = {}
    for faction, sheets in data.get("orders", {}).items():  # in the order the files come in
        if faction not in campaign.factions:
            raise CaseError(msg("orders for {faction}, which is not in the factions table", faction=faction))
        found = ProblemList()
        submitted = FactionOrders(faction, f"{faction}.xlsx", sheets_of(ruleset.order_schemas, sheets,
                                                                         f"{faction}.xlsx", found))
        check_orders(ruleset, campaign, submitted, found)
        orders[faction], problems[faction] = submitted, found
    gm_problems = ProblemList()
    gm = None
    if "gm_input" in data:
        gm = sheets_of(ruleset.gm_input_schemas, data["gm_input"], "gm_input.xlsx", gm_problems)
    dice = ScriptedDice(campaign.seed, campaign.turn, data.get("dice", {}))
    ledger = Ledger(campaign.turn, ruleset.account_label)
    turn_input = TurnInput(campaign, {f: passed_orders(o) for f, o in orders.items()}, passed_sheets(gm),
                           "gm_input.xlsx", dice, ledger, gm_problems)
    result = ruleset.resolve(turn_input)
    turn = Turn(ruleset, campaign, orders, problems, gm_problems, result, ledger, dice)
    if not result.needs_gm_input:
        turn.unbalanced = unbalanced(ruleset, campaign, result, ledger.lines)
    return turn


# ---------------------------------------------------------------------------------------- comparing
def same(expected: Any, actual: Any) -> bool:
    """Values compared as a reader would: numbers by value, text stripped, blank = None."""
    if isinstance(actual, float) and pd.isna(actual):
        actual = None
    if expected in (None, "") or actual in (None, ""):
        return expected in (None, "") and actual in (None, "")
    if isinstance(expected, bool) or isinstance(actual, bool):
        return _truth(expected) == _truth(actual)
    if isinstance(expected, (int, float, Decimal)) and not isinstance(actual, str):
        try:
            return Decimal(str(expected)) == Decimal(str(actual))
        except ArithmeticError:
            return False
    return str(expected).strip() == str(actual).strip()


def _rolled(purposes: list[str], pattern: str) -> list[str]:
    return [p for p in purposes if fnmatch.fnmatchcase(p, pattern)]


def _truth(value: Any) -> bool:
    return value is True or str(value).strip().upper() in ("TRUE", "YES", "1")


def _matches(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> bool:
    return all(same(v, actual.get(k)) for k, v in expected.items())


def _show(row: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in row.items())


def compare_table(key: str, expected: list[dict[str, Any]], frame: pd.DataFrame | None) -> list[Msg]:
    """The table holds exactly the expected rows (compared on the columns the case writes), in any order."""
    actual = plain_rows(frame)
    left = list(actual)
    failures = []
    for row in expected:
        hit = next((i for i, a in enumerate(left) if _matches(row, a)), None)
        if hit is None:
            failures.append(msg("table {table}: no row with {row}", table=key, row=_show(row)))
        else:
            left.pop(hit)
    if not failures and left:
        failures += [msg("table {table}: unexpected row {row}", table=key, row=_show(r)) for r in left]
    return failures


def compare_subset(key: str | Msg, expected: list[dict[str, Any]], frame: pd.DataFrame | None) -> list[Msg]:
    actual = plain_rows(frame)
    return [msg("table {table}: no row with {row}", table=key, row=_show(row)) for row in expected
            if not any(_matches(row, a) for a in actual)]


def _line(line: LedgerLine) -> dict[str, Any]:
    return {"faction": line.faction, "account": line.account, "change": line.change, "balance": line.balance,
            "phase": line.phase, "reference": line.reference, "cause": render(line.cause, "en")}


def compare_ledger(expect: Mapping[str, Any], lines: list[LedgerLine]) -> list[Msg]:
    actual = [_line(x) for x in lines]
    failures = []
    for row in expect.get("ledger", []):
        wanted = {k: v for k, v in row.items() if k != "cause"}
        cause = row.get("cause")
        if not any(_matches(wanted, a) and (cause is None or str(cause) in a["cause"]) for a in actual):
            failures.append(msg("ledger: no line with {line}", line=_show(row)))
    if "ledger_lines" in expect and len(actual) != int(expect["ledger_lines"]):
        written = "; ".join(_show({k: a[k] for k in ("faction", "account", "change")}) for a in actual)
        failures.append(msg("ledger: {n} lines, expected {expected}: {lines}", n=len(actual),
                            expected=expect["ledger_lines"], lines=written))
    return failures


def report_text(turn: Turn, reader: str | None, lang: str = "en") -> str:
    """A faction's report (reader None: the GM's) as plain text, one table row a line."""
    tables = turn.result.gm_reports if reader is None else turn.result.faction_reports.get(reader, [])
    lines = []
    for table in tables:
        lines.append(render(table.title, lang))
        lines += [" | ".join(str(render(c, lang)) for c in row) for row in table.rows]
    return "\n".join(lines)


def compare_problems(turn: Turn, expected: list[Any]) -> list[Msg]:
    """Each expected problem was reported: a code (``"E12"``), or a table of its code and any of ``faction``
    (``GM`` for the GM input), ``sheet`` (the sheet's name as a workbook shows it), ``cell`` and ``text`` (a
    fragment of its English message)."""
    found = [("GM", p) for p in turn.gm_problems] + [(f, p) for f, ps in turn.problems.items() for p in ps]
    failures = []
    for item in expected:
        wanted = {"code": item} if isinstance(item, str) else dict(item)
        if not any(all(_problem_has(faction, problem, key, value) for key, value in wanted.items())
                   for faction, problem in found):
            failures.append(msg("no problem {problem}", problem=_show(wanted) if len(wanted) > 1 else wanted["code"]))
    return failures


def _problem_has(faction: str, problem: Any, key: str, value: Any) -> bool:
    if key == "faction":
        return faction == str(value)
    if key == "text":
        return str(value) in problem.message.render("en")
    return str(getattr(problem, key, None) or "") == str(value)


def compare_rolls(turn: Turn, expect: Mapping[str, Any]) -> list[Msg]:
    """The rolls the case expects made (``rolled``) and not made (``not_rolled``), by purpose pattern."""
    rolled = [r.purpose for r in turn.dice.log]
    failures = [msg("no roll for {pattern}", pattern=repr(pattern)) for pattern in expect.get("rolled", [])
                if not _rolled(rolled, pattern)]
    failures += [msg("a roll for {pattern}: {rolls}", pattern=repr(pattern), rolls=str(_rolled(rolled, pattern)[:3]))
                 for pattern in expect.get("not_rolled", []) if _rolled(rolled, pattern)]
    return failures


def compare(turn: Turn, expect: Mapping[str, Any], sheet_default: str) -> list[Msg]:
    failures: list[Msg] = []
    if bool(expect.get("waiting", False)) != turn.result.needs_gm_input:
        failures.append(msg("the turn waits for the GM") if turn.result.needs_gm_input else
                        msg("the turn was resolved, but the case expects it to wait for the GM"))
        return failures
    if turn.result.needs_gm_input:
        for key, rows in expect.get("gm_requests", {}).items():
            failures += compare_subset(msg("GM request {key}", key=key), rows, (turn.result.gm_requests or {}).get(key))
        return failures + compare_rolls(turn, expect) + compare_problems(turn, expect.get("problems", []))
    if turn.unbalanced:
        failures.append(msg("the ledger does not reconcile: {lines}", lines=str(turn.unbalanced[:3])))
    tables = turn.tables
    for key, rows in expect.get("tables", {}).items():
        failures += compare_table(key, rows, tables.get(key))
    for key, rows in expect.get("rows", {}).items():  # rows that must be there, among others
        failures += compare_subset(key, rows, tables.get(key))
    for key, rows in expect.get("absent", {}).items():  # rows that must not be there
        present = plain_rows(tables.get(key))
        failures += [msg("table {table}: a row with {row} is still there", table=key, row=_show(row)) for row in rows
                     if any(_matches(row, a) for a in present)]
    failures += compare_rolls(turn, expect)
    for item in expect.get("orders", []):
        sheet = str(item.get("sheet", sheet_default))
        status, code = turn.status(str(item["faction"]), sheet, int(item["row"]))
        if "status" in item and status != str(item["status"]):
            failures.append(msg("{faction} {sheet} row {row}: status {actual}, expected {expected}",
                                faction=item["faction"], sheet=sheet, row=item["row"], actual=repr(status or "none"),
                                expected=repr(item["status"])))
        if "code" in item and code != str(item["code"]):
            failures.append(msg("{faction} {sheet} row {row}: code {actual}, expected {expected}",
                                faction=item["faction"], sheet=sheet, row=item["row"], actual=repr(code or "none"),
                                expected=repr(item["code"])))
    failures += compare_ledger(expect, turn.ledger.lines)
    for reader, fragments in expect.get("reports", {}).items():
        text = report_text(turn, None if reader == "GM" else reader)
        failures += [msg("report of {reader}: no {fragment}", reader=reader, fragment=repr(fragment))
                     for fragment in fragments if fragment not in text]
    failures += compare_problems(turn, expect.get("problems", []))
    for pattern in turn.dice.script if isinstance(turn.dice, ScriptedDice) else {}:
        if pattern not in turn.dice.scripted and not expect.get("unused_dice", False):
            failures.append(msg("scripted dice {pattern} were never rolled", pattern=repr(pattern)))
    return failures


def case_failures(case: Case, ruleset: Ruleset | None = None) -> list[Msg]:
    """Every difference between what the case expects and what its turn gives, as messages (empty: it passes)."""
    try:
        ruleset = ruleset or find_ruleset(str(case.data["ruleset"]))
        turn = resolve_case(case.data, ruleset)
        sheet_default = ruleset.order_schemas[0].key if ruleset.order_schemas else ""
        return compare(turn, case.data.get("expect", {}), sheet_default)
    except CaseError as error:
        return [msg("the case cannot be run: {reason}", reason=error.message)]
    except Exception as error:  # noqa: BLE001 - a case that crashes the ruleset is a failure to report
        return [msg("the turn failed: {error}", error=f"{type(error).__name__}: {error}")]


def run_case(case: Case, ruleset: Ruleset | None = None, lang: str = "en") -> list[str]:
    """Every difference between what the case expects and what its turn gives (empty: the case passes), in
    ``lang``."""
    try:
        ruleset = ruleset or find_ruleset(str(case.data["ruleset"]))
    except Exception as error:  # noqa: BLE001 - an unknown ruleset is this case's failure
        return [msg("the case cannot be run: {reason}", reason=str(error)).render(lang)]
    with ruleset_catalog(ruleset.locale()):
        return [failure.render(lang) for failure in case_failures(case, ruleset)]


def _joined(separator: str, parts: list[Any]) -> Msg:
    """Parts (texts or messages) joined, each message rendered in the reader's language."""
    return Msg(separator.join(f"{{p{i}}}" for i in range(len(parts))), {f"p{i}": p for i, p in enumerate(parts)})
