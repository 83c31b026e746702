"""The command line: ``adjudicator rulesets | new | templates | check | run | demo`` (and the commands
rulesets add).

Exit status: 0 success; 1 ``check`` found errors in a submitted workbook, or ``run`` did not resolve the
turn because a workbook cannot be accepted or a faction's orders are missing; 2 the campaign or the
command cannot be used (nothing was changed); 3 the turn waits for the GM's input; 4 the ruleset itself
failed (an error in its code or a dice conflict): the message names the ruleset and the turn, nothing was
changed.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.table import Table

from adjudicator import __version__
from adjudicator.blas_threads import one_blas_thread
from adjudicator.engine.problems import Problem, RulesetFailure
from adjudicator.engine.registry import UnknownRulesetError, broken, find_ruleset, installed
from adjudicator.i18n import LANGUAGES, Msg, UnsupportedLanguageError, msg, normalise_language
from adjudicator.i18n import click as click_i18n
from adjudicator.i18n.click import language_from_environment
from adjudicator.lazy_commands import WholeSummariesGroup, add_all, add_lazy_command
from adjudicator.outputs.bounded_problems import DEFAULT_LIMIT, bounded
from adjudicator.outputs.problem_blocks import whole_column
from adjudicator.outputs.safe_text import for_terminal, terminal_text
from adjudicator.quiet_collector import collector_paused

if TYPE_CHECKING:  # the pipeline (openpyxl, pandas, the writers) is imported by the commands that use it
    from adjudicator.intake.submissions import Submission
    from adjudicator.turn import pipeline

one_blas_thread()  # before any command imports numpy (none of the imports above does)

EXIT_PROBLEMS = 1
EXIT_UNUSABLE = 2
EXIT_WAITING = 3
EXIT_RULESET = 4

# Printed as written: no highlighting, and no emoji codes (a workbook named ":warning:A.xlsx" keeps its name, and
# its checked copy's path is the one on disk); lines longer than the terminal are left to it, never cut.
console = Console(highlight=False, soft_wrap=True, emoji=False)


class State:
    lang: str | None = None


def say(text: Msg | str, lang: str, style: str | None = None) -> None:
    console.print(for_terminal(text.render(lang) if isinstance(text, Msg) else text), style=style, markup=False)


def show_problems(problems: Iterable[Problem], lang: str) -> None:
    problems = list(problems)
    from adjudicator.outputs.problem_blocks import print_problems, print_table, problems_table

    if print_problems(console, problems, lang):  # a narrow terminal: one block per problem, words whole
        return
    print_table(console, *problems_table(problems, lang))


def fail(error: pipeline.CampaignError, lang: str) -> None:
    show_problems(error.problems, lang)
    sys.exit(EXIT_UNUSABLE)


def guarded(command: Callable[..., None]) -> Callable[..., None]:
    """The failures a GM can meet, as messages with exit status 2, never as a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        with collector_paused(freeze=True):  # the libraries of every command below: see quiet_collector.py
            from adjudicator.store.folder import CampaignBusyError
            from adjudicator.turn import pipeline

        lang = State.lang or "en"
        try:
            command(*args, **kwargs)
        except pipeline.CampaignError as error:
            fail(error, lang)
        except CampaignBusyError:
            say(msg("Another adjudicator is working on this campaign; try again when it has finished."), lang,
                "red")
            sys.exit(EXIT_UNUSABLE)
        except pipeline.LedgerMismatchError as error:
            say(msg("Internal error: the ledger of this turn does not reconcile ({detail}). Nothing was changed; "
                    "please report it with the campaign folder.", detail=str(error)), lang, "red")
            sys.exit(EXIT_UNUSABLE)
        except RulesetFailure as error:
            say(msg("The ruleset {name} failed on turn {turn}: {detail}. Nothing was changed; please report it "
                    "to the ruleset's authors with the campaign folder.", name=error.ruleset, turn=error.turn,
                    detail=error.detail), lang, "red")
            sys.exit(EXIT_RULESET)

    return wrapper


def rejected_rows(submission: Submission) -> int:
    """How many order rows of the workbook an error rejects."""
    return len({(p.sheet, p.row) for p in submission.problems.errors if p.row})


def summary(submissions: list[Submission], missing: list[str], checked: dict[str, Path], lang: str,
            max_problems: int) -> None:
    """One line per workbook (errors, warnings, rejected rows), the checked copies' paths below the table
    (whole, at any width), then each workbook's first ``max_problems`` problems (0: all) and how many more
    its checked copy lists."""
    table = Table(title=msg("Submitted workbooks").render(lang), header_style="bold")
    whole_column(table, msg("File").render(lang), [s.name for s in submissions])
    whole_column(table, msg("Faction").render(lang), [s.faction or "?" for s in submissions])
    for header in (msg("Errors"), msg("Warnings"), msg("Rejected rows")):
        table.add_column(header.render(lang), justify="right")
    for s in submissions:
        errors, warnings = len(s.problems.errors), len(s.problems.warnings)
        table.add_row(*map(terminal_text, (s.name, s.faction or "?", str(errors), str(warnings),
                                           str(rejected_rows(s)))), style="red" if errors else None)
    console.print(table)
    for s in submissions:
        if s.name in checked:
            say(msg("Checked copy of {file}: {path}", file=s.name, path=str(checked[s.name])), lang)
    if missing:
        say(msg("No valid workbook yet from: {factions}.", factions=", ".join(missing)), lang, "yellow")
        from adjudicator.intake.deadlines import missing_reasons

        for reason in missing_reasons(submissions, missing):
            say(reason, lang, "yellow")
    problems, unshown = bounded(((s.name, s.problems) for s in submissions), checked, max_problems)
    if problems:
        show_problems(problems, lang)
    for more in unshown:
        say(more.line(), lang, "yellow")


def explicit_language() -> str | None:
    """``ADJUDICATOR_LANG`` (``es``, ``es_AR``, ``Русский``…), when set to a supported language."""
    try:
        return normalise_language(os.environ["ADJUDICATOR_LANG"])
    except (KeyError, UnsupportedLanguageError):
        return None


def lang_first(args: list[str]) -> list[str]:
    """``--lang X`` (or ``--lang=X``) moved to the front, wherever it was given: ``adjudicator check
    --lang es camp`` means ``adjudicator --lang es check camp``. Nothing after ``--`` is touched."""
    head = args[: args.index("--")] if "--" in args else args
    for index, arg in enumerate(head):
        if index == 0:
            continue
        if arg.startswith("--lang="):
            return [arg, *args[:index], *args[index + 1:]]
        if arg == "--lang" and index + 1 < len(head):
            return [arg, args[index + 1], *args[:index], *args[index + 2:]]
    return args


class LanguageFirstGroup(WholeSummariesGroup):
    """Reads ``--lang`` before click parses anything, so that even ``--help`` and usage errors of the
    top-level command come in that language."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        args = lang_first(args)
        for index, arg in enumerate(args):
            chosen = arg.partition("=")[2] if arg.startswith("--lang=") else None
            if arg == "--lang" and index + 1 < len(args):
                chosen = args[index + 1]
            if chosen in LANGUAGES:
                click_i18n.install(chosen, self)
                break
        return super().parse_args(ctx, args)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name) or add_lazy_command(self, cmd_name)
        if found is None:  # perhaps a ruleset's command: load the rulesets only now
            _add_ruleset_commands()
            found = super().get_command(ctx, cmd_name)
        if found is not None:  # perhaps imported only now: its help in the reader's language
            click_i18n.translate_help(found)
        return found

    def list_commands(self, ctx: click.Context) -> list[str]:
        add_all(self)
        _add_ruleset_commands()
        click_i18n.translate_help(self)
        return super().list_commands(ctx)


def show_notes(notes: Iterable[Msg], lang: str) -> None:
    for note in notes:
        say(note, lang, "yellow")


def language(campaign_lang: str) -> str:
    return State.lang or campaign_lang


@click.group(cls=LanguageFirstGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="adjudicator")
@click.option("--lang", type=click.Choice(LANGUAGES),
              help="Language of the messages (default: ADJUDICATOR_LANG, else the campaign's).")
def main(lang: str | None) -> None:
    """Adjudicate turns of play-by-email strategy campaigns from order workbooks."""
    State.lang = lang or explicit_language()
    click_i18n.install(State.lang or language_from_environment() or "en", main)


def longest_word(texts: Iterable[str]) -> int:
    """The length of the longest word of ``texts``: a column this wide wraps them between words only."""
    return max((len(word) for text in texts for word in text.split()), default=1)


@main.command("rulesets")
def rulesets_command() -> None:
    """List the installed rulesets."""
    lang = State.lang or "en"
    table = Table(header_style="bold")
    found = installed()
    whole_column(table, msg("Ruleset").render(lang), list(found))
    titles = [msg(ruleset.title).render(lang) for ruleset in found.values()]
    table.add_column(msg("Game").render(lang), overflow="fold", ratio=1, min_width=longest_word(titles))
    whole_column(table, msg("Aliases").render(lang), [a for r in found.values() for a in r.aliases])
    languages = [r.default_language for r in found.values()]
    header = msg("Players' language").render(lang)  # a header may wrap between its words; a code never
    table.add_column(header, width=max(longest_word([header]), *map(len, languages)))
    for name, ruleset in found.items():  # one alias a line: an alias is never cut
        table.add_row(name, msg(ruleset.title).render(lang), "\n".join(ruleset.aliases), ruleset.default_language)
    console.print(table)
    for name, reason in broken().items():
        say(msg("The ruleset {name} is installed but cannot be loaded: {reason}", name=name, reason=reason), lang,
            "red")


@main.command("new")
@click.argument("ruleset_name", metavar="RULESET")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--example", is_flag=True, help="Start from the ruleset's bundled example campaign.")
@guarded
def new_command(ruleset_name: str, folder: Path, example: bool) -> None:
    """Start a campaign in FOLDER."""
    from adjudicator.turn import pipeline

    lang = State.lang or "en"
    try:
        ruleset = find_ruleset(ruleset_name)
    except UnknownRulesetError as error:
        if ruleset_name.strip().casefold().replace("-", "_") in broken():
            say(msg("The ruleset {name} is installed but cannot be loaded: {reason}", name=ruleset_name,
                    reason=str(error)), lang, "red")
        else:
            say(msg("Unknown ruleset {name}. Installed: {names}.", name=ruleset_name, names=", ".join(installed())),
                lang, "red")
        sys.exit(EXIT_UNUSABLE)
    created = pipeline.new_campaign(ruleset, folder, example)
    say(msg("Campaign created: {path}", path=str(created.master)), lang, "green")
    if example:
        say(msg("The example's orders are in {path}.", path=str(created.inbox)), lang)
    else:
        say(msg("Dice key: {key} (back it up with the campaign; never send it). Post {post} for the players.",
                key=str(folder / "dice_key.pem"), post=str(folder / "dice_public_key.txt")), lang)
        say(msg("Fill in the Factions and the ruleset's sheets of campaign.xlsx, then run "
                "'adjudicator templates {folder}'.", folder=str(folder)), lang)


@main.command("templates")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@guarded
def templates_command(folder: Path) -> None:
    """Write one order workbook per faction for the current turn."""
    from adjudicator.turn import pipeline

    lang = State.lang or "en"
    paths = pipeline.make_templates(folder)
    for path in paths:
        say(str(path), lang)


#: check's and run's bound on the problems printed of each workbook (bounded_problems.py)
max_problems_option = click.option(
    "--max-problems", type=click.IntRange(min=0), default=DEFAULT_LIMIT, show_default=True,
    help="Print at most this many problems of each workbook (0: all); its checked copy lists them all.")


@main.command("check")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@max_problems_option
@guarded
def check_command(folder: Path, files: tuple[Path, ...], max_problems: int) -> None:
    """Validate submitted workbooks (FILES, or those in FOLDER/inbox) without resolving anything."""
    from adjudicator.turn import pipeline

    outcome = pipeline.check(folder, list(files))
    lang = language(outcome.campaign.language)
    show_notes(outcome.notes, lang)
    if not outcome.submissions:
        say(msg("No workbook to check: put them in {path} or name them.", path=str(folder / "inbox")), lang,
            "yellow")
    summary(outcome.submissions, outcome.missing, outcome.checked, lang, max_problems)
    sys.exit(EXIT_PROBLEMS if outcome.has_errors else 0)


@main.command("run")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--seed", type=int, help="Seed of this turn's dice (default: the campaign's seed).")
@click.option("--allow-missing", is_flag=True, help="Resolve the turn even if some factions sent no valid workbook.")
@click.option("--reprocess", is_flag=True, help="Resolve the last resolved turn again from the state before it.")
@click.option("--stop-for-gm", is_flag=True, help="Stop for GM input even when the rules need none this turn.")
@max_problems_option
@guarded
def run_command(folder: Path, files: tuple[Path, ...], seed: int | None, allow_missing: bool, reprocess: bool,
                stop_for_gm: bool, max_problems: int) -> None:
    """Validate, resolve the turn and write the results."""
    from adjudicator.turn import pipeline

    outcome = pipeline.run(folder, list(files), seed, allow_missing, reprocess, stop_for_gm)
    lang = language(outcome.campaign.language)
    show_notes(outcome.notes, lang)
    turn = outcome.campaign.turn
    if outcome.status in ("invalid", "missing"):
        summary(outcome.submissions, outcome.missing, outcome.checked, lang, max_problems)
        if outcome.status == "invalid":
            say(msg("Turn {turn} was not resolved: some workbooks cannot be accepted (see above). Nothing was "
                    "changed.", turn=turn), lang, "red")
        else:
            say(msg("Turn {turn} was not resolved: orders are missing. Use --allow-missing to resolve it without "
                    "them. Nothing was changed.", turn=turn), lang, "red")
        sys.exit(EXIT_PROBLEMS)
    if outcome.status == "waiting":
        if outcome.gm_problems:
            show_problems(outcome.gm_problems, lang)
        say(msg("Turn {turn} waits for your decisions: fill in {path} and run again.", turn=turn,
                path=str(outcome.gm_input)), lang, "yellow")
        sys.exit(EXIT_WAITING)
    if outcome.submissions:  # rows the turn rejected, as check shows them
        summary(outcome.submissions, outcome.missing, outcome.checked, lang, max_problems)
    if outcome.gm_problems:
        show_problems(outcome.gm_problems, lang)
    say(msg("Turn {turn} resolved (seed {seed}).", turn=turn, seed=outcome.seed), lang, "green")
    say(msg("Results: {path}", path=str(outcome.turn_dir / "results")), lang)
    say(msg("Ledger and state: {path}", path=str(folder / "campaign.xlsx")), lang)
    if outcome.reprocess_diff is not None:
        from adjudicator.outputs.maps.diff import lines

        for line in lines(outcome.reprocess_diff):
            say(line, lang)


@main.command("demo")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("demo-output"),
              show_default=True, help="Folder for the demo campaigns.")
@guarded
def demo_command(out: Path) -> None:
    """Run one turn of every bundled example campaign, end to end."""
    from adjudicator.turn import pipeline

    lang = State.lang or "en"
    out.mkdir(parents=True, exist_ok=True)
    for name, ruleset in installed().items():
        if not (ruleset.example_dir() / "campaign.xlsx").exists():
            continue
        target = out / name
        if target.exists():
            if not (target / ".demo").exists():
                say(msg("{path} exists and was not made by the demo; choose another --out.", path=str(target)),
                    lang, "red")
                sys.exit(EXIT_UNUSABLE)
            shutil.rmtree(target)
        console.rule(f"{name}")
        pipeline.new_campaign(ruleset, target, example=True)
        (target / ".demo").write_text("made by adjudicator demo\n")
        templates = pipeline.make_templates(target)
        say(msg("Order templates: {path}", path=str(templates[0].parent)), lang)
        checked = pipeline.check(target)
        summary(checked.submissions, checked.missing, checked.checked, lang, DEFAULT_LIMIT)
        outcome = pipeline.run(target)
        if outcome.status != "resolved":
            say(msg("The example turn did not resolve: {status}.", status=outcome.status), lang, "red")
            sys.exit(EXIT_PROBLEMS)
        say(msg("Turn {turn} resolved (seed {seed}).", turn=outcome.campaign.turn, seed=outcome.seed), lang,
            "green")
        say(msg("Results: {path}", path=str(outcome.turn_dir / "results")), lang)
        say(msg("Ledger and state: {path}", path=str(target / "campaign.xlsx")), lang)
    say(msg("Demo outputs are in {path}.", path=str(out.resolve())), lang, "bold")


def _add_ruleset_commands() -> None:
    """Commands that rulesets bring (``adjudicator odds …``), unless a command of that name exists."""
    for ruleset in installed().values():
        for command in ruleset.commands():
            if command.name not in main.commands:
                main.add_command(command)


click_i18n.install(language_from_environment() or "en", main)  # for what click prints before --lang is read

if __name__ == "__main__":  # pragma: no cover
    main()
