"""A Babel extractor for Python files that also takes the command line's help texts: the docstring of every
click command and group (``@main.command(...)``, ``@click.group(...)``) and every literal ``help=`` /
``short_help=`` / ``epilog=`` of a click decorator (``click.option``, ``click.command``...). Each becomes the
msgid that :func:`adjudicator.i18n.click.translate_help` looks up when the help is shown, as click cleans it
(:func:`inspect.cleandoc`). Everything else is extracted as Babel's own Python extractor does. Named in
``babel.cfg`` and ``babel-ruleset.cfg``; ``make messages`` runs it."""

from __future__ import annotations

import ast
import inspect
import io
from collections.abc import Iterator
from typing import IO, Any

from babel.messages.extract import extract_python

#: The click decorators whose function's docstring is shown as its help.
COMMAND_DECORATORS = frozenset({"command", "group"})
#: The click calls whose ``help=`` (and the like) is shown in a ``--help``.
HELP_CALLS = COMMAND_DECORATORS | {"option", "argument", "version_option", "help_option", "password_option",
                                   "confirmation_option"}
HELP_KEYWORDS = ("help", "short_help", "epilog")

Extracted = tuple[int, str | None, Any, list[str]]


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[Extracted]:
    source = fileobj.read()
    yield from extract_python(io.BytesIO(source), keywords, comment_tags, options)
    yield from help_texts(source.decode(options.get("encoding", "utf-8")))


def help_texts(source: str) -> Iterator[Extracted]:
    """The help texts of ``source``'s click commands and options, with their lines."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(map(_is_command, node.decorator_list)):
            docstring = ast.get_docstring(node, clean=False)
            if docstring:
                yield node.lineno, None, inspect.cleandoc(docstring), ["help of a command"]
        if isinstance(node, ast.Call) and _called(node) in HELP_CALLS:
            for keyword in node.keywords:
                value = keyword.value
                if keyword.arg in HELP_KEYWORDS and isinstance(value, ast.Constant) and isinstance(value.value, str):
                    yield value.lineno, None, inspect.cleandoc(value.value), [f"{keyword.arg} of an option"]


def _called(call: ast.Call) -> str | None:
    """``option`` for ``click.option(...)``, ``command`` for ``main.command(...)``..."""
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _is_command(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else None
    return name in COMMAND_DECORATORS
