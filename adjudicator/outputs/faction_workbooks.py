"""Workbooks handed back: a checked copy with an Errors tab, and a faction's results.

Both are copies of the workbook the player sent; the original is never opened for writing. An
``.xlsx``/``.xlsm`` is composed of the player's own parts and the new tabs (:mod:`adjudicator.outputs.compose`:
the new tabs alone are built here, :func:`checked_copy` and :func:`composed_results`), or, when composing is
not sure or ``ADJUDICATOR_COMPOSE=0``, copied with openpyxl (macros dropped, never run) and saved as ``.xlsx``
(written by XlsxWriter: :mod:`adjudicator.outputs.fast_save`); an ``.ods`` (or a file openpyxl cannot load) is
rebuilt from its cell values.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from adjudicator.engine.ledger import LedgerLine, ledger_row
from adjudicator.engine.problems import Problem
from adjudicator.engine.ruleset import OrderOutcome, ReportTable, SheetRows, Status
from adjudicator.engine.sheets import records
from adjudicator.i18n import Joined, Msg, Words, msg, render
from adjudicator.intake.identity import META_SHEET
from adjudicator.intake.reading import top_left
from adjudicator.intake.submissions import Submission
from adjudicator.outputs.cell_text import ILLEGAL_CHARACTERS_RE
from adjudicator.outputs.new_tabs import NewTabs
from adjudicator.outputs.references import shown_reference
from adjudicator.outputs.streamed import stream_new_tabs
from adjudicator.outputs.writing import (
    put,
    sheet_title,
    write_report_sheet,
    write_table_sheet,
)

if TYPE_CHECKING:
    from openpyxl import Workbook

FIXED_TIME = dt.datetime(2000, 1, 1)


def copy_of(submission: Submission) -> Workbook:
    import openpyxl
    from openpyxl import Workbook

    path = submission.path
    if path.suffix.lower() in (".xlsx", ".xlsm") and submission.book is not None:  # a refused file is never parsed
        try:
            wb = openpyxl.load_workbook(path, keep_vba=False, keep_links=False, rich_text=False)
            wb.template = False
            return wb
        except Exception:  # noqa: BLE001 - any failure means: rebuild from values
            pass
    wb = Workbook()
    wb.remove(wb.active)
    if submission.book is not None:
        for name, grid in submission.book.sheets.items():
            if name == META_SHEET or not grid.visible:
                continue
            ws = wb.create_sheet(sheet_title(wb, name))
            for r, values in enumerate(grid.rows, start=1):
                for c, value in enumerate(values, start=1):
                    if value not in (None, ""):
                        put(ws, r, c, value)
    return wb


def neutral_properties(wb: Workbook | NewTabs, title: str) -> None:
    """Document properties that say nothing but what the file is (no names, no other faction)."""
    props = wb.properties
    props.creator = "adjudicator"
    props.lastModifiedBy = "adjudicator"
    props.title = title
    props.subject = None
    props.description = None
    props.keywords = None
    props.category = None
    props.created = FIXED_TIME
    props.modified = FIXED_TIME


PROBLEM_HEADERS = [msg("Code"), msg("Severity"), msg("Sheet"), msg("Cell"), msg("Problem"), msg("What to do")]


def problem_rows(problems: Sequence[Problem], lang: str | None = None) -> list[list[Any]]:
    """The Errors tab's rows; with ``lang``, each problem's message and hint rendered already (the same cells:
    a tab renders what it is given), so that a checked copy's comments reuse those texts."""
    def shown(text: Msg) -> Any:
        return text.render(lang) if lang else text

    return [
        [p.code, msg("error") if p.is_error else msg("warning"), p.sheet or "", p.cell or "", shown(p.message),
         shown(p.hint) if p.hint else ""]
        for p in problems
    ]


#: Set to 0: checked copies and results saved by fast_save.py are made the openpyxl way, not composed of the
#: player's parts (compose.py).
COMPOSE_ENV = "ADJUDICATOR_COMPOSE"


def composable(submission: Submission | None) -> bool:
    """Whether a copy of ``submission`` is composed of its parts (compose.py): an accepted-for-reading
    ``.xlsx``/``.xlsm``, unless ``ADJUDICATOR_COMPOSE=0``; an ``.ods``, a refused file or none: today's way."""
    return submission is not None and os.environ.get(COMPOSE_ENV) != "0" and submission.book is not None and \
        submission.path.suffix.lower() in (".xlsx", ".xlsm")


def checked_copy(submission: Submission, lang: str, streamed: bool = False) -> Workbook | NewTabs:
    """The player's workbook with an Errors tab first and every offending cell marked; ``streamed``: the
    Errors tab kept as data for XlsxWriter (see streamed.py; save it with fast_save.py or writing.py).

    Streamed (unless ``ADJUDICATOR_COMPOSE=0``), an ``.xlsx``/``.xlsm`` is not loaded: the workbook returned (no
    openpyxl one: new_tabs.py) holds only the Errors tab and how
    :func:`adjudicator.outputs.fast_save.atomic_save_fast` composes the copy of the player's parts (compose.py),
    or makes it this way should composing fail."""
    if streamed and composable(submission):
        return _to_compose(submission, lang)
    return _checked_copy(submission, lang, streamed)


def _to_compose(submission: Submission, lang: str) -> NewTabs:
    from adjudicator.outputs.compose import COMPOSED, ComposedCopy, Mark

    wb = NewTabs()
    problems = list(submission.problems)
    rows = problem_rows(problems, lang)  # each message and hint rendered once, for the tab and the comments
    write_table_sheet(wb, msg("Errors"), PROBLEM_HEADERS, rows, lang, widths=[8, 10, 16, 8, 70, 60])
    neutral_properties(wb, msg("Checked orders").render(lang))
    marks = [Mark(p.sheet, p.cell, p.is_error, row[4] + ("\n" + row[5] if p.hint else ""))
             for p, row in zip(problems, rows, strict=True) if p.sheet and p.cell]
    setattr(wb, COMPOSED, ComposedCopy(submission.path, marks, lambda: _checked_copy(submission, lang, True)))
    return wb


def _mark_text(problem: Problem, lang: str) -> str:
    return problem.message.render(lang) + ("\n" + problem.hint.render(lang) if problem.hint else "")


def _checked_copy(submission: Submission, lang: str, streamed: bool) -> Workbook:
    from openpyxl.comments import Comment

    from adjudicator.outputs.writing import ERROR_FILL, WARNING_FILL

    wb = stream_new_tabs(copy_of(submission), streamed)
    problems = list(submission.problems)
    ws = write_table_sheet(wb, msg("Errors"), PROBLEM_HEADERS, problem_rows(problems), lang,
                           widths=[8, 10, 16, 8, 70, 60])
    wb.move_sheet(ws, offset=-(len(wb.worksheets) - 1))
    wb.active = 0
    for problem in problems:
        if not problem.sheet or not problem.cell or problem.sheet not in wb.sheetnames:
            continue
        cell = top_left(wb[problem.sheet], problem.cell)
        cell.fill = ERROR_FILL if problem.is_error else WARNING_FILL
        text = _mark_text(problem, lang)
        previous = cell.comment.text + "\n" if cell.comment else ""
        cell.comment = Comment(ILLEGAL_CHARACTERS_RE.sub("", previous + text), "adjudicator", width=320, height=120)
    neutral_properties(wb, msg("Checked orders").render(lang))
    return wb


def outcome_rows(
    sheet: SheetRows, faction: str, outcomes: Sequence[OrderOutcome], problems: Sequence[Problem], lang: str
) -> tuple[list[Any], list[list[Any]]]:
    """The faction's order rows with, beside each, its status and what happened: :func:`outcome_cells` with
    every cell in ``lang`` (the headers are messages, rendered where written)."""
    headers, rows = outcome_cells(sheet, faction, outcomes, problems)
    return headers, [[render(cell, lang) for cell in row] for row in rows]


def outcome_cells(
    sheet: SheetRows, faction: str, outcomes: Sequence[OrderOutcome], problems: Sequence[Problem]
) -> tuple[list[Any], list[list[Any]]]:
    """The faction's order rows with, beside each, its status and what happened, in no language yet: a choice
    as its words, an outcome as its code and message joined, each shown in the reader's language where it is
    written (campaign.xlsx keeps them so, as data, to write its tabs again in another language)."""
    by_row = {o.row: o for o in outcomes if o.faction == faction and o.sheet == sheet.schema.key}
    row_problems: dict[int, list[Problem]] = {}
    for problem in problems:
        if problem.sheet == sheet.sheet and problem.row:
            row_problems.setdefault(problem.row, []).append(problem)
    shown = [c for c in sheet.schema.columns if not c.computed]
    keys = [c.key for c in shown]
    headers: list[Any] = [msg("Row"), *[msg(c.header) for c in shown], msg("Status"), msg("Outcome")]
    rows = []
    for number, values in records(sheet.rows):
        row = int(number)
        cells = [row] + [_show(sheet, k, values.get(k)) for k in keys]
        errors = [p for p in row_problems.get(row, []) if p.is_error]
        if errors:
            cells += [msg(Status.REJECTED.value), Joined(tuple(coded(p.code, p.message) for p in errors), "; ")]
        elif row in by_row:
            cells += [msg(by_row[row].status.value), coded(by_row[row].code, by_row[row].message)]
        else:
            cells += ["", ""]
        rows.append(cells)
    return headers, rows


def coded(code: str, message: Any) -> Any:
    """A message with its code beside it ("E05: ..."), as the Errors tab shows it; a message without a code, or
    that is no text, as it is."""
    return Joined((code, message), ": ") if code and isinstance(message, (str, Msg, Words, Joined)) else message


def _show(sheet: SheetRows, key: str, value: Any) -> Any:
    """A cell of an order row as the outcome tabs show it: a choice as its label, in the reader's words."""
    if value is None:
        return None
    column = sheet.schema.column(key)
    if column.choices:
        label = column.choice_msgid(str(value))
        return str(value) if label is None else Words((label,))
    return value


LEDGER_HEADERS = [msg("Turn"), msg("Phase"), msg("Faction"), msg("Account"), msg("Change"), msg("Balance"),
                  msg("Cause"), msg("Reference")]


LEDGER_WIDTHS = [6, 10, 10, 16, 10, 10, 50, 26]


def outcome_widths(sheet: SheetRows) -> list[int]:
    """Row number, the order's own columns, then status and a wide, wrapping outcome."""
    return [6, *[min(c.width, 24) for c in sheet.schema.columns if not c.computed], 12, 70]


def ledger_rows(lines: Sequence[LedgerLine]) -> list[list[Any]]:
    """A player's ledger lines, their references in the player's words."""
    return [[*row[:-1], shown_reference(row[-1])] for row in map(ledger_row, lines)]


def results_workbook(
    submission: Submission | None,
    faction: str,
    turn_label: str,
    outcomes: Sequence[OrderOutcome],
    reports: Sequence[ReportTable],
    lines: Sequence[LedgerLine],
    lang: str,
    title: Msg,
    streamed: bool = False,
    new_tabs_only: bool = False,
) -> Workbook:
    """The faction's workbook with three new tabs: its orders and their outcomes, its report, its ledger;
    ``streamed``: the new tabs kept as data for XlsxWriter (see streamed.py); ``new_tabs_only``: the player's
    workbook not loaded, the new tabs alone (to be composed with the player's parts: :func:`composed_results`)."""
    from openpyxl import Workbook

    if submission is not None and not new_tabs_only:
        wb = copy_of(submission)
    else:
        wb = Workbook()
        wb.remove(wb.active)
    stream_new_tabs(wb, streamed)
    first = len(wb.worksheets)
    if submission is not None and submission.orders is not None:
        several = len(submission.orders.sheets) > 1
        for sheet in submission.orders.sheets.values():
            headers, rows = outcome_rows(sheet, faction, outcomes, list(submission.problems), lang)
            # One outcome tab per order sheet: "Outcome T03", or "Outcome Repairs T03" when there are several.
            name = f"{msg('Outcome').render(lang)} {sheet.sheet + ' ' if several else ''}{turn_label}"
            write_table_sheet(wb, name, headers, rows, lang, widths=outcome_widths(sheet))
    write_report_sheet(wb, f"{msg('Report').render(lang)} {turn_label}", list(reports), lang)
    write_table_sheet(wb, f"{msg('Ledger').render(lang)} {turn_label}", LEDGER_HEADERS, ledger_rows(lines),
                      lang, widths=LEDGER_WIDTHS)
    wb.active = first
    for ws in wb.worksheets:
        ws.sheet_view.tabSelected = ws is wb.worksheets[first]
    neutral_properties(wb, title.render(lang))
    return wb


def composed_results(submission: Submission | None, build: Callable[[bool], Workbook]) -> Workbook:
    """A faction's results as :func:`adjudicator.outputs.fast_save.atomic_save_fast` should save them: the new
    tabs alone (``build(True)``: every new tab, without the player's sheets), composed after the player's own
    parts (compose.py), or today's whole workbook (``build(False)``) for an ``.ods``, no submission,
    ``ADJUDICATOR_COMPOSE=0``, or should composing fail."""
    if not composable(submission):
        return build(False)
    from adjudicator.outputs.compose import COMPOSED, ComposedCopy

    assert submission is not None
    wb = build(True)
    setattr(wb, COMPOSED, ComposedCopy(submission.path, [], lambda: build(False), first=False))
    return wb
