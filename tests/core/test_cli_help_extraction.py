"""The help texts of the command line are msgids: ``make messages`` (help_extractor, named in babel.cfg) takes each
command's docstring and each option's ``help=``, and every one of them has a Spanish and a Russian translation."""

from __future__ import annotations

import inspect
import io

import click

from adjudicator.i18n import gettext_in
from adjudicator.i18n.click import ENGLISH
from adjudicator.i18n.help_extractor import extract

SOURCE = b'''
import click

@main.command("fetch")
@click.option("--now", help="Act as if it were this time.")
def fetch(now):
    """Take the mail.

    And answer it."""

def helper():
    """Not a command."""

NOW = click.option("--seed", type=int, help="Seed " "of the dice.")
words = msg("A message.")
'''


def test_docstrings_and_option_help_are_extracted_with_the_messages() -> None:
    found = [message for _, _, message, _ in extract(io.BytesIO(SOURCE), {"msg": None}, [], {})]
    assert sorted(found) == ["A message.", "Act as if it were this time.", "Seed of the dice.",
                             "Take the mail.\n\nAnd answer it."]


def test_every_help_text_of_the_program_is_translated() -> None:
    from click.testing import CliRunner

    from adjudicator.cli import main

    # a help shown in Russian first (as another test of the same process may): no Russian left as the English
    assert "Условие отступления" in CliRunner().invoke(main, ["--lang", "ru", "odds", "--help"]).output
    context = click.Context(main, info_name="adjudicator")
    pending: list[click.Command] = [main]
    texts = []
    while pending:
        command = pending.pop()
        texts.append(command.__dict__.get(ENGLISH, {}).get("help") or command.help)
        for param in command.params:
            texts.append(param.__dict__.get(ENGLISH, {}).get("help") or param.help)
        if isinstance(command, click.Group):
            names = command.list_commands(context)
            pending.extend(filter(None, (command.get_command(context, name) for name in names)))
    english = [inspect.cleandoc(text) for text in texts if isinstance(text, str) and text]
    assert len(english) > 40
    for lang in ("es", "ru"):
        missing = [text for text in english if gettext_in(lang, text) == text]
        assert not missing, (lang, missing)
