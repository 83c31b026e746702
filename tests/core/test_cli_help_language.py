"""Every ``--help`` of the command line in the reader's language (issue 10): a Spanish or Russian GM (``LANG``)
reads no sentence of the English help in any command's or subcommand's ``--help``, nor in click's errors of bad
arguments; at 80 columns and through a pipe."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

LOCALES = {"es": "es_ES.UTF-8", "ru": "ru_RU.UTF-8"}

#: A word of English prose: lowercase letters, perhaps in brackets or before a stop ("(default:", "it.").
PROSE_WORD = re.compile(r"^\(?[a-z]+[,.;:)]*$")


def adjudicator(*args: str, lang: str = "en", columns: str | None = "80") -> subprocess.CompletedProcess[str]:
    """``adjudicator ARGS`` as a GM runs it: the language from ``LANG`` alone; a terminal of ``columns``, or a
    pipe (``None``)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "ADJUDICATOR_LANG", "LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    env["LANG"] = LOCALES.get(lang, "C.UTF-8")
    if columns:
        env["COLUMNS"] = columns
    script = Path(sys.executable).with_name("adjudicator")  # as the GM types it (not "python -m adjudicator")
    program = [str(script)] if script.exists() else [sys.executable, "-m", "adjudicator"]
    return subprocess.run([*program, *args], env=env, capture_output=True, text=True, timeout=300)


def every_command() -> list[tuple[str, ...]]:
    """The words that name each command and subcommand (``("mail", "fetch")``...), and ``()`` for the program."""
    from adjudicator.cli import main

    found: list[tuple[str, ...]] = []
    pending: list[tuple[tuple[str, ...], click.Command]] = [((), main)]
    while pending:
        words, command = pending.pop()
        found.append(words)
        if isinstance(command, click.Group):
            context = click.Context(command, info_name="adjudicator")
            for name in command.list_commands(context):
                sub = command.get_command(context, name)
                assert sub is not None, name
                pending.append(((*words, name), sub))
    return sorted(found)


@functools.cache
def english_help(words: tuple[str, ...], columns: str | None) -> str:
    shown = adjudicator(*words, "--help", columns=columns)
    assert shown.returncode == 0, shown.stderr
    return shown.stdout


def english_phrases(text: str) -> set[str]:
    """Every four words in a row of ``text`` (its lines' help, not their option names) with at least two words of
    English prose among them: what a translated text never holds, though it keeps names, options and metavars.
    The usage line is names and metavars only, after its first word."""
    phrases = set()
    for line in text.splitlines():
        if line.startswith("Usage:"):
            continue
        words = line.split()
        for start in range(len(words) - 3):
            window = words[start:start + 4]
            if sum(bool(PROSE_WORD.match(word)) for word in window) >= 2:
                phrases.add(" ".join(window))
    return phrases


def test_every_command_is_found() -> None:
    commands = every_command()
    assert {(), ("check",), ("run",), ("mail",), ("mail", "fetch"), ("mail", "deadline"), ("odds",)} <= set(commands)


#: Commands whose help is also read through a pipe (every one is read at 80 columns).
THROUGH_A_PIPE = [(), ("check",), ("odds",), ("mail",), ("mail", "send")]


@pytest.mark.parametrize("columns", ["80", None])
@pytest.mark.parametrize("lang", ["es", "ru"])
def test_every_help_is_in_the_readers_language(lang: str, columns: str | None) -> None:
    """Each command's and subcommand's ``--help`` (the program's too, with ``--version``'s line) under ``LANG``
    holds no four words of its English help; its lines fit 80 columns."""
    untranslated = {}
    for words in every_command() if columns else THROUGH_A_PIPE:
        english = english_help(words, columns)
        shown = adjudicator(*words, "--help", lang=lang, columns=columns)
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout != english and "Usage:" not in shown.stdout
        assert all(len(line) <= 80 for line in shown.stdout.splitlines()), shown.stdout
        joined = " ".join(shown.stdout.split())
        left = sorted(phrase for phrase in english_phrases(english) if phrase in joined)
        if left:
            untranslated[" ".join(words) or "adjudicator"] = left
    assert not untranslated, untranslated


def test_the_english_help_is_found_as_english() -> None:
    """The check above finds a help left in English: every English help holds such phrases, and they are found
    in its own text however it is wrapped."""
    for words in every_command():
        english = english_help(words, "80")
        joined = " ".join(english.split())
        assert english_phrases(english), words
        assert all(phrase in joined for phrase in english_phrases(english)), words


#: Bad command lines, each with click's error (a usage line, a hint, the error itself).
BAD_ARGUMENTS = [
    ("--bogus",),
    ("nonesuch",),
    ("check",),
    ("check", "{missing}"),
    ("run", "{folder}", "--seed", "x"),
    ("check", "{folder}", "--max-problems", "-3"),
    ("new",),
    ("mail", "send", "{folder}", "--turn", "two"),
    ("odds", "galactic_war"),
]


def english_words(text: str) -> set[str]:
    """The lowercase English words of ``text`` (not its names: 'FOLDER', '--seed', 'x')."""
    return {word for word in words_of(text) if PROSE_WORD.match(word) and len(word) > 3}


def words_of(text: str) -> set[str]:
    return {word.strip("(),.:;'\"") for word in text.split()}


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_errors_of_bad_arguments_in_the_readers_language(lang: str, tmp_path: Path) -> None:
    folder = tmp_path / "campaign"
    folder.mkdir()
    untranslated = {}
    for bad in BAD_ARGUMENTS:
        args = [arg.format(folder=folder, missing=tmp_path / "nowhere") for arg in bad]
        english = adjudicator(*args)
        shown = adjudicator(*args, lang=lang)
        assert english.returncode == shown.returncode == 2, (bad, english.stderr, shown.stderr)
        assert english_words(english.stderr), (bad, english.stderr)
        names = words_of(" ".join(args)) | {"adjudicator"}  # the program's and the command's, as typed
        left = (english_words(english.stderr) - names) & words_of(shown.stderr)
        if left:
            untranslated[" ".join(bad)] = (sorted(left), shown.stderr)
    assert not untranslated, untranslated
