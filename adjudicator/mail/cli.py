"""``adjudicator mail fetch | remind | send | deadline`` on a campaign folder (see docs/mail.md).

Exit status as the other commands: 0 done; 1 something for the GM to look at (a turn not resolved);
2 the campaign, its mail settings or its mail servers cannot be used (nothing was changed).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import click
from rich.table import Table
from rich.text import Text

from adjudicator.i18n import msg
from adjudicator.lazy_commands import WholeSummariesGroup
from adjudicator.mail.deadline import DeadlineError, parse_deadline
from adjudicator.mail.settings import MailSettingsError
from adjudicator.mail.transport import MailServerError

FOLDER = click.Path(exists=True, file_okay=False, path_type=Path)


def _core() -> Any:
    from adjudicator import cli

    return cli


def mail_guarded(command: Callable[..., None]) -> Callable[..., None]:
    """The mail failures a GM can meet, as messages with exit status 2, never as a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        core = _core()
        lang = core.State.lang or "en"
        try:
            core.guarded(command)(*args, **kwargs)
        except MailSettingsError as error:
            core.show_problems(error.problems, lang)
            sys.exit(core.EXIT_UNUSABLE)
        except DeadlineError as error:
            core.say(error.message, lang, "red")
            sys.exit(core.EXIT_UNUSABLE)
        except MailServerError as error:
            core.say(msg("The mail server cannot be used: {reason}. Nothing was changed for the messages not yet "
                         "taken; run the command again later.", reason=str(error)), lang, "red")
            sys.exit(core.EXIT_UNUSABLE)

    return wrapper


def parse_now(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return parse_deadline(value)
    except DeadlineError as error:
        raise click.BadParameter(error.message.render()) from None


NOW_OPTION = click.option("--now", "now", metavar="'YYYY-MM-DD HH:MM ZONE'",
                          help="Act as if it were this time (to see what would happen at the deadline).")


@click.group("mail", cls=WholeSummariesGroup)
def mail_group() -> None:
    """Play by mail: take orders from the campaign's mailbox, remind, send results."""


@mail_group.command("fetch")
@click.argument("folder", type=FOLDER)
@mail_guarded
def fetch_command(folder: Path) -> None:
    """Take the order workbooks mailed to the campaign and answer each sender."""
    from adjudicator.mail.fetch import fetch

    core = _core()
    outcome = fetch(folder)
    lang = core.language(outcome.campaign.language)
    table = Table(title=msg("Mail received").render(lang), header_style="bold")
    for header in (msg("Sender"), msg("Faction"), msg("File"), msg("Result"), msg("Problems")):
        table.add_column(header.render(lang), overflow="fold")
    status = {"accepted": msg("orders accepted"), "rejected": msg("orders not accepted"),
              "ignored": msg("ignored: not a faction's address")}
    for item in outcome.received:
        codes = ", ".join(sorted({p.code for p in item.problems if p.is_error}))
        table.add_row(Text(item.sender), Text(item.faction or ""), Text(item.file or ""),  # never as markup
                      status[item.status].render(lang), codes, style="red" if item.status == "rejected" else None)
    core.console.print(table)
    core.say(msg("{new} new messages; {old} taken before.", new=len(outcome.received), old=outcome.skipped), lang)


@mail_group.command("remind")
@click.argument("folder", type=FOLDER)
@NOW_OPTION
@mail_guarded
def remind_command(folder: Path, now: str | None) -> None:
    """Remind each faction without a valid workbook of the deadline (once per deadline)."""
    from adjudicator.mail.remind import remind

    core = _core()
    outcome = remind(folder, parse_now(now))
    lang = core.language(outcome.campaign.language)
    if outcome.deadline is None:
        core.say(msg("The campaign has no deadline: nobody was reminded."), lang, "yellow")
        return
    core.say(msg("Deadline: {deadline}", deadline=outcome.deadline.shown()), lang)
    if outcome.reminded:
        core.say(msg("Reminded: {factions}.", factions=", ".join(outcome.reminded)), lang, "green")
    if outcome.already:
        core.say(msg("Reminded earlier for this deadline: {factions}.", factions=", ".join(outcome.already)), lang)
    if outcome.without_address:
        core.say(msg("No address in the Factions sheet, not reminded: {factions}.",
                     factions=", ".join(outcome.without_address)), lang, "yellow")
    if not (outcome.reminded or outcome.already or outcome.without_address):
        core.say(msg("Nobody to remind."), lang)


@mail_group.command("send")
@click.argument("folder", type=FOLDER)
@click.option("--turn", type=int, help="The resolved turn whose results to send (default: the last one).")
@click.option("--dry-run", is_flag=True, help="Show what would be sent; send nothing.")
@mail_guarded
def send_command(folder: Path, turn: int | None, dry_run: bool) -> None:
    """Send each faction its own results and next order workbook, and the GM a summary."""
    from adjudicator.mail.send import send_results, status_text

    core = _core()
    outcome = send_results(folder, turn, dry_run)
    lang = core.language(outcome.campaign.language)
    title = msg("Would be sent (dry run)") if dry_run else msg("Sent")
    table = Table(title=title.render(lang), header_style="bold")
    for header in (msg("Faction"), msg("Recipients"), msg("Files"), msg("Status")):
        table.add_column(header.render(lang), overflow="fold")
    for d in outcome.deliveries:
        table.add_row(Text(d.recipient), Text(", ".join(d.addresses)),
                      Text(", ".join(str(p.relative_to(folder)) for p in d.files)), status_text(d).render(lang))
    core.console.print(table)


@mail_group.command("deadline")
@click.argument("folder", type=FOLDER)
@NOW_OPTION
@mail_guarded
def deadline_command(folder: Path, now: str | None) -> None:
    """Apply the deadline policy: run the turn, wait, or extend the deadline."""
    from adjudicator.mail.policy import apply_policy

    core = _core()
    outcome = apply_policy(folder, parse_now(now))
    lang = core.language(outcome.campaign.language)
    if outcome.deadline is not None:
        core.say(msg("Deadline: {deadline} (policy: {policy})", deadline=outcome.deadline.shown(),
                     policy=outcome.deadline.policy), lang)
    for missing in outcome.missing:
        core.say(missing_text(missing), lang, "yellow")
    if outcome.action == "open":
        if outcome.not_final:
            core.say(msg("Orders not marked final: {factions}.", factions=", ".join(outcome.not_final)), lang)
        core.say(msg("The deadline has not passed: the turn waits for it, or for every faction's orders marked "
                     "final."), lang)
    elif outcome.action == "waiting":
        core.say(msg("The deadline has passed; by the policy 'wait' the turn waits for your decision "
                     "('adjudicator run --allow-missing', or a later deadline)."), lang, "yellow")
        sys.exit(core.EXIT_PROBLEMS)
    elif outcome.action == "extended" and outcome.new_deadline is not None:
        core.say(msg("The deadline was extended to {deadline}.", deadline=outcome.new_deadline.shown()), lang,
                 "green")
    elif outcome.run is not None:
        run = outcome.run
        if run.status == "resolved":
            core.say(msg("Turn {turn} resolved (seed {seed}).", turn=run.campaign.turn, seed=run.seed), lang,
                     "green")
        elif run.status == "waiting":
            core.say(msg("Turn {turn} waits for your decisions: fill in {path} and run again.",
                         turn=run.campaign.turn, path=str(run.gm_input)), lang, "yellow")
            sys.exit(core.EXIT_WAITING)
        else:
            core.summary(run.submissions, run.missing, run.checked, lang)
            sys.exit(core.EXIT_PROBLEMS)


def missing_text(missing: Any) -> Any:
    if missing.reason == "rejected":
        return msg("{faction}: its workbooks cannot be accepted ({files}); see 'adjudicator check'.",
                   faction=missing.faction, files=", ".join(missing.files))
    return msg("{faction}: no workbook received.", faction=missing.faction)


@click.command("publish")
@click.argument("folder", type=FOLDER)
@click.option("--turn", type=int, help="The resolved turn to publish (default: the last one).")
@click.option("--webhook", metavar="URL",
              help="Also post it to this Discord-compatible webhook (default: ADJUDICATOR_WEBHOOK_URL).")
@mail_guarded
def publish_command(folder: Path, turn: int | None, webhook: str | None) -> None:
    """Write the public part of a resolved turn as a forum post (BBCode and Markdown)."""
    from adjudicator.mail.publish import publish

    core = _core()
    post = publish(folder, turn, core.State.lang, webhook)
    lang = core.State.lang or "en"
    for path in post.files.values():
        core.say(str(path), lang)
    if post.webhook_messages:
        core.say(msg("Posted to the webhook in {count} messages.", count=post.webhook_messages), lang, "green")
