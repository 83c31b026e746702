"""The commands that live in modules of their own (console, verify, mail, publish, cases), imported only when
one of them is run or every command is listed: ``adjudicator check`` does not pay for the mail libraries."""

from __future__ import annotations

import importlib

import click

#: Command name → (module, attribute) of its click command.
COMMANDS: dict[str, tuple[str, str]] = {
    "console": ("adjudicator.console.workbook", "console_command"),
    "verify": ("adjudicator.dice.verify", "verify_command"),
    "mail": ("adjudicator.mail.cli", "mail_group"),
    "publish": ("adjudicator.mail.cli", "publish_command"),
    "cases": ("adjudicator.cases.command", "cases_command"),
}


#: click's own heading of a group's command list, translated through click's catalog.
COMMANDS_HEADING = "Commands"

#: A limit on a command's summary that no first sentence reaches: the summary is never cut with "...".
WHOLE_SENTENCE = 10_000


class WholeSummariesGroup(click.Group):
    """A group whose ``--help`` lists each command with its whole first sentence, wrapped at word
    boundaries to the terminal's width: click's own list cuts each summary to one row with "..."."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Like click's own, with ``limit`` lifted so that ``write_dl`` wraps instead of cutting."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=WHOLE_SENTENCE)))
        if rows:
            click_words = click.core._  # type: ignore[attr-defined]  # click's catalog, not ours
            with formatter.section(click_words(COMMANDS_HEADING)):
                formatter.write_dl(rows)


def add_lazy_command(group: click.Group, name: str) -> click.Command | None:
    """Import the command ``name`` if it is one of :data:`COMMANDS` not yet in ``group``, and add it there."""
    if name in group.commands or name not in COMMANDS:
        return group.commands.get(name)
    module, attribute = COMMANDS[name]
    command = getattr(importlib.import_module(module), attribute)
    group.add_command(command, name)
    return command


def add_all(group: click.Group) -> None:
    for name in COMMANDS:
        add_lazy_command(group, name)
