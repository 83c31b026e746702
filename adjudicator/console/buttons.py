"""The GM's Excel console (``gm_console.xlsm``): the Python side of its buttons, through xlwings.

The console is a standalone xlwings workbook (see :mod:`adjudicator.console.workbook`): xlwings' own VBA module
and its ``SampleCall`` macro, which runs ``import gm_console; gm_console.main()`` with the folder of the
workbook on the Python path. ``gm_console.py`` beside the workbook re-exports :func:`main`.

All three buttons run that one macro, so :func:`main` has to find out which button was clicked:

1. from Excel's ``Application.Caller`` (the clicked button's name), read through xlwings; Excel for
   Windows is expected to answer, Excel for the Mac does not (xlwings talks to it through AppleScript);
2. otherwise from the console's *Action* cell, which the GM sets (a drop-down).

The console shows which of the two chose the action, so a GM is never left guessing. Then the same
pipeline as the command line runs (:mod:`adjudicator.turn.pipeline`), and a summary and every
problem (code, file, sheet, cell, message, what to do) are written back into the console, in the
console's language.

xlwings is an optional extra (``pip install adjudicator[excel]``) and is imported only when no book is
passed in: tests pass a stand-in with the few parts of xlwings' Book/Sheet/Range API used here
(``book.sheets[0]``, ``book.fullname``, ``book.app.api.Caller``, ``sheet.range(address).value``,
``sheet.range(address).clear_contents()``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.engine.problems import Problem
from adjudicator.i18n import (
    LANGUAGES,
    N_,
    Msg,
    UnsupportedLanguageError,
    all_spellings,
    fold,
    msg,
    msg_n,
    normalise_language,
)
from adjudicator.intake.submissions import Submission
from adjudicator.store.folder import CampaignBusyError
from adjudicator.turn import pipeline

# --------------------------------------------------------------------------------------- the layout
# Shared with adjudicator.console.workbook, which builds the workbook. The console is the first sheet (its name is
# translated); xlwings reads its settings from the sheet named xlwings.conf.
CONF_SHEET = "xlwings.conf"
CONSOLE_SHEET = N_("Console")
TITLE = N_("Adjudicator: GM console")
INTRO = N_("Set the campaign folder, then click a button. What happened is shown below.")

FOLDER_CELL, SEED_CELL, LANGUAGE_CELL, MISSING_CELL, ACTION_CELL = "B4", "B5", "B6", "B7", "B8"
SETTINGS = (  # (row, label)
    (4, N_("Campaign folder (blank: the folder of this workbook)")),
    (5, N_("Seed for Run turn (blank: the campaign's seed)")),
    (6, N_("Language of this console: en, es or ru (blank: the campaign's)")),
    (7, N_("Resolve the turn without missing orders (yes/no)")),
    (8, N_("Action when Excel does not say which button was clicked (Excel for Mac)")),
)
YES, NO = N_("yes"), N_("no")

CHECK, RUN, TEMPLATES = "check", "run", "templates"
ACTIONS = {CHECK: N_("Check orders"), RUN: N_("Run turn"), TEMPLATES: N_("Make templates")}
# The buttons in the order the console is built: Excel names form buttons "Button 1", "Button 2", …
BUTTONS = (CHECK, RUN, TEMPLATES)

OUTPUT_ROW = 10  # the report starts here, in columns A to F; everything below it is the report's
OUTPUT_END = "F5000"
LAST_ACTION, WHEN, CHOSEN_BY_BUTTON, CHOSEN_BY_CELL = (
    N_("Last action"), N_("When"), N_("chosen by the button you clicked"),
    N_("chosen in the Action cell: Excel did not say which button was clicked"))
SUBMISSION_HEADERS = (N_("File"), N_("Faction"), N_("Errors"), N_("Warnings"), N_("Checked copy"))
PROBLEM_HEADERS = (N_("Code"), N_("File"), N_("Sheet"), N_("Cell"), N_("Problem"), N_("What to do"))
WIDTH = len(PROBLEM_HEADERS)


# ----------------------------------------------------------------------------------- the entry points
def main(book: Any = None) -> None:
    """What every button of the console runs: find the clicked button, then do its action."""
    book = caller_book(book)
    action = clicked_action(book)
    perform(book, action, by_button=action is not None)


def check(book: Any = None) -> None:
    """Check orders (for a macro of your own: ``RunPython "import gm_console; gm_console.check()"``)."""
    perform(caller_book(book), CHECK, by_button=True)


def run_turn(book: Any = None) -> None:
    """Run turn."""
    perform(caller_book(book), RUN, by_button=True)


def make_templates(book: Any = None) -> None:
    """Make templates."""
    perform(caller_book(book), TEMPLATES, by_button=True)


def caller_book(book: Any) -> Any:
    """``book``, or the workbook whose button called Python (xlwings is imported only here)."""
    if book is not None:
        return book
    try:
        import xlwings as xw
    except ImportError as error:  # pragma: no cover - only outside Excel, without the extra
        raise RuntimeError(msg("xlwings is not installed: run pip install adjudicator[excel].").render()) from error
    return xw.Book.caller()


def clicked_action(book: Any) -> str | None:
    """The action of the button that was clicked, from Excel's ``Application.Caller``; None if Excel does
    not say (Excel for Mac) or names something that is not one of the console's buttons."""
    try:
        caller = book.app.api.Caller
    except Exception:  # noqa: BLE001 - any failure of the automation bridge means "unknown"
        return None
    if not isinstance(caller, str) or not caller.strip():
        return None  # e.g. an error number when no macro is running
    name = " ".join(caller.split()).casefold()
    for number, action in enumerate(BUTTONS, start=1):
        if name == f"button {number}":
            return action
    try:  # a button renamed or copied by the GM: recognise its caption, in any language
        caption = book.sheets[0].api.Shapes(caller).TextFrame.Characters().Text
    except Exception:  # noqa: BLE001
        return None
    return action_named(caption)


def action_named(text: object) -> str | None:
    """``check``, ``run`` or ``templates`` from a caption or an Action cell, in any language."""
    if text is None:
        return None
    folded = fold(text)
    for action, label in ACTIONS.items():
        if folded in all_spellings(label, (action,)):
            return action
    return None


# --------------------------------------------------------------------------------------- the settings
@dataclass
class Settings:
    folder: Path | None = None
    seed: int | None = None
    language: str | None = None
    allow_missing: bool = False
    action: str | None = None
    problems: list[Msg] = field(default_factory=list)


def read_settings(book: Any) -> Settings:
    sheet = book.sheets[0]
    settings = Settings()
    language = _text(sheet.range(LANGUAGE_CELL).value)
    if language:
        try:
            settings.language = normalise_language(language)
        except UnsupportedLanguageError:
            settings.problems.append(msg("Unknown language {value} in cell {cell}: write en, es or ru.",
                                         value=language, cell=LANGUAGE_CELL))
    settings.folder = _folder(book, _text(sheet.range(FOLDER_CELL).value), settings.problems)
    seed = sheet.range(SEED_CELL).value
    if _text(seed):
        number = _whole(seed)
        if number is None or number < 0:
            settings.problems.append(msg("The seed in cell {cell} must be a whole number, 0 or more (it is {value}).",
                                         cell=SEED_CELL, value=_text(seed)))
        else:
            settings.seed = number
    missing = sheet.range(MISSING_CELL).value
    settings.allow_missing = missing is True or fold(_text(missing)) in all_spellings(YES, ("y", "si", "true", "1",
                                                                                          "x"))
    settings.action = action_named(sheet.range(ACTION_CELL).value)
    return settings


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _whole(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    text = str(value).strip()
    return int(text) if text.isdigit() else None


def _folder(book: Any, text: str, problems: list[Msg]) -> Path | None:
    """The campaign folder: the cell's path, relative to the workbook's folder; blank: the workbook's folder."""
    here: Path | None = None
    fullname = str(getattr(book, "fullname", "") or "")
    if fullname and "://" not in fullname:
        here = Path(fullname).parent
    path = Path(text).expanduser() if text else None
    if path is None or not path.is_absolute():
        if here is None:
            problems.append(msg("Write the full path of the campaign folder in cell {cell} (this workbook's own "
                                "folder is not known, for instance because it is in OneDrive).", cell=FOLDER_CELL))
            return None
        path = here / path if path is not None else here
    if not path.is_dir():
        problems.append(msg("The campaign folder {path} (cell {cell}) does not exist.", path=str(path),
                            cell=FOLDER_CELL))
        return None
    return path


# ----------------------------------------------------------------------------------------- the work
@dataclass
class Report:
    lines: list[Msg | str] = field(default_factory=list)
    submissions: list[Submission] = field(default_factory=list)
    checked: dict[str, Path] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    language: str | None = None


def perform(book: Any, action: str | None, by_button: bool) -> Report:
    """Read the console's settings, do ``action`` (None: the one in the Action cell) and write the report."""
    settings = read_settings(book)
    if action is None:
        action = settings.action or CHECK
    report = Report(lines=list(settings.problems), language=settings.language)
    if not settings.problems and settings.folder is not None:
        try:
            _work(action, settings, report)
        except pipeline.CampaignError as error:
            report.lines.append(msg("The campaign cannot be used; see the problems below."))
            report.problems = list(error.problems)
        except CampaignBusyError:
            report.lines.append(msg("Another adjudicator is working on this campaign; try again when it has "
                                    "finished."))
        except pipeline.LedgerMismatchError as error:
            report.lines.append(msg("Internal error: the ledger of this turn does not reconcile ({detail}). Nothing "
                                    "was changed; please report it with the campaign folder.", detail=str(error)))
    write_report(book, action, by_button, report)
    return report


def _work(action: str, settings: Settings, report: Report) -> None:
    root = settings.folder
    assert root is not None
    if action == TEMPLATES:
        paths = pipeline.make_templates(root)
        if paths:
            report.lines.append(msg("Order templates: {path}", path=str(paths[0].parent)))
        report.lines += [path.name for path in paths]
        return
    if action == CHECK:
        outcome = pipeline.check(root)
        report.language = report.language or outcome.campaign.language
        _submissions(report, outcome.submissions, outcome.missing, outcome.checked)
        if not outcome.submissions:
            report.lines.insert(0, msg("No workbook to check: put them in {path} or name them.",
                                       path=str(root / "inbox")))
        elif outcome.has_errors:
            report.lines.insert(0, msg("Some workbooks have errors (see below): send each player the checked "
                                       "copy of their workbook."))
        else:
            report.lines.insert(0, msg_n("{n} workbook checked: no errors.", "{n} workbooks checked: no errors.",
                                         len(outcome.submissions)))
        return
    outcome = pipeline.run(root, [], settings.seed, settings.allow_missing)
    report.language = report.language or outcome.campaign.language
    turn = outcome.campaign.turn
    if outcome.status in ("invalid", "missing"):
        if outcome.status == "invalid":
            report.lines.append(msg("Turn {turn} was not resolved: some workbooks cannot be accepted (see below). "
                                    "Nothing was changed.", turn=turn))
        else:
            report.lines.append(msg("Turn {turn} was not resolved: orders are missing. Write yes in cell {cell} to "
                                    "resolve it without them. Nothing was changed.", turn=turn, cell=MISSING_CELL))
        _submissions(report, outcome.submissions, outcome.missing, outcome.checked)
        return
    report.problems += list(outcome.gm_problems)
    if outcome.status == "waiting":
        report.lines.append(msg("Turn {turn} waits for your decisions: fill in {path} and run again.", turn=turn,
                                path=str(outcome.gm_input)))
        return
    report.lines.append(msg("Turn {turn} resolved (seed {seed}).", turn=turn, seed=outcome.seed))
    report.lines.append(msg("Results: {path}", path=str(outcome.turn_dir / "results") if outcome.turn_dir else ""))
    report.lines.append(msg("Ledger and state: {path}", path=str(root / "campaign.xlsx")))


def _submissions(report: Report, submissions: list[Submission], missing: list[str], checked: dict[str, Path]) -> None:
    report.submissions = submissions
    report.checked = checked
    if missing:
        report.lines.append(msg("No valid workbook yet from: {factions}.", factions=", ".join(missing)))
    report.problems += [p for s in submissions for p in s.problems]


# --------------------------------------------------------------------------------------- the writing
def labels(lang: str) -> list[tuple[str, str]]:
    """The console's fixed texts in ``lang``, as (cell, text)."""
    cells = [("A1", msg(TITLE).render(lang)), ("A2", msg(INTRO).render(lang))]
    cells += [(f"A{row}", msg(label).render(lang)) for row, label in SETTINGS]
    return cells


def report_rows(action: str, by_button: bool, report: Report, lang: str, when: str) -> list[list[Any]]:
    """The report as rows of ``WIDTH`` cells, written from ``A{OUTPUT_ROW}``."""
    how = CHOSEN_BY_BUTTON if by_button else CHOSEN_BY_CELL
    rows: list[list[Any]] = [
        [msg(LAST_ACTION).render(lang), msg(ACTIONS[action]).render(lang), msg(how).render(lang)],
        [msg(WHEN).render(lang), when],
        [],
    ]
    rows += [[line.render(lang) if isinstance(line, Msg) else line] for line in report.lines]
    if report.submissions:
        rows += [[], [msg(h).render(lang) for h in SUBMISSION_HEADERS]]
        for s in report.submissions:
            rows.append([s.name, s.faction or "?", len(s.problems.errors), len(s.problems.warnings),
                         str(report.checked.get(s.name, ""))])
    if report.problems:
        rows += [[], [msg(h).render(lang) for h in PROBLEM_HEADERS]]
        for p in report.problems:
            rows.append([p.code, p.file or "", p.sheet or "", p.cell or "", p.message.render(lang),
                         p.hint.render(lang) if p.hint else ""])
    return [[_safe(value) for value in row] + [None] * (WIDTH - len(row)) for row in rows]


def _safe(value: Any) -> Any:
    """A text that Excel would take for a formula (a file named ``=cmd.xlsx``) is written as text."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value


def write_report(book: Any, action: str, by_button: bool, report: Report, when: str | None = None) -> None:
    lang = report.language if report.language in LANGUAGES else "en"
    sheet = book.sheets[0]
    for cell, text in labels(lang):
        sheet.range(cell).value = text
    sheet.range(f"A{OUTPUT_ROW}:{OUTPUT_END}").clear_contents()
    stamp = when or datetime.datetime.now().isoformat(sep=" ", timespec="seconds")
    sheet.range(f"A{OUTPUT_ROW}").value = report_rows(action, by_button, report, lang, stamp)
