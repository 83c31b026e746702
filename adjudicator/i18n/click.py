"""click's own messages (usage lines, help, errors of the command line) in the user's language.

click marks its messages with the standard ``gettext`` functions, imported into each of its modules as
``_`` and ``ngettext``; pointing those names at our merged catalogs (which hold click's messages in
``locale/<lang>/LC_MESSAGES/click.po``) translates them without touching click.

The program's own help texts (each command's docstring, each option's ``help=``) are msgids too, extracted by
:mod:`adjudicator.i18n.help_extractor`: :func:`install` shows every command it reaches in the chosen language,
and :func:`translate_help` a command added later (one imported only when it is run or listed).
"""

from __future__ import annotations

import importlib
import inspect
import os
from collections.abc import Callable, Iterator

import click

from adjudicator.i18n import N_, UnsupportedLanguageError, normalise_language, translations

CLICK_MODULES = (
    "click.core",
    "click.decorators",
    "click.exceptions",
    "click.formatting",
    "click.parser",
    "click.termui",
    "click.types",
    "click.utils",
    "click.shell_completion",
    "click._termui_impl",
)


def language_from_environment() -> str | None:
    """``ADJUDICATOR_LANG``, else the system locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), if supported."""
    for variable in ("ADJUDICATOR_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "").split(".")[0]
        if not value or value in ("C", "POSIX"):
            continue
        try:
            return normalise_language(value)
        except UnsupportedLanguageError:
            continue
    return None


#: The help texts click shows, on a command and on an option.
HELP_ATTRIBUTES = ("help", "short_help", "epilog")

#: Where a command or option keeps its help texts as the program wrote them (English), once translated.
ENGLISH = "_adjudicator_english_help"

#: click's names of its types, shown as metavars (``--seed INTEGER``) and in its errors ("'x' is not a valid
#: integer."), and its "[required]": click looks them up but does not mark them, so they are msgids of ours.
CLICK_WORDS = (N_("text"), N_("integer"), N_("integer range"), N_("float"), N_("float range"), N_("boolean"),
               N_("required"))

#: The language :func:`install` chose last: the language of the commands added after it.
_INSTALLED = ["en"]


def install(lang: str, root: click.Command | None = None) -> None:
    """Translate click's messages into ``lang`` from now on, and the help of ``root`` and its subcommands (click
    keeps each command's ``--help`` option, with its text, once made: it is made again)."""
    _INSTALLED[0] = lang
    if root is not None:
        translate_help(root)
    catalog = translations(lang)
    for name in CLICK_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:  # pragma: no cover - platform-specific modules
            continue
        if hasattr(module, "_"):
            module._ = catalog.gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = catalog.ngettext  # type: ignore[attr-defined]


def installed_language() -> str:
    """The language :func:`install` chose last."""
    return _INSTALLED[0]


def translate_help(root: click.Command) -> None:
    """Show ``root`` and its subcommands (their help, their options' help, the names of their path types) in the
    language :func:`install` chose last."""
    translate = translations(_INSTALLED[0]).gettext
    for command in _tree(root):
        if getattr(command, "_help_option", None) is not None:
            command._help_option = None  # made again, in the new language, when next needed
        _translate_texts(command, translate)
        for param in getattr(command, "params", []):
            _translate_type_name(param.type, translate)
            _translate_texts(param, translate)


def _tree(root: click.Command) -> Iterator[click.Command]:
    pending = [root]
    while pending:
        command = pending.pop()
        yield command
        if isinstance(command, click.Group):
            pending.extend(command.commands.values())


def _translate_texts(owner: click.Command | click.Parameter, translate: Callable[[str], str]) -> None:
    """The help texts of ``owner`` (the msgids :mod:`~adjudicator.i18n.help_extractor` took, as click cleans
    them) in the reader's language; the English is kept to translate them again into another."""
    english = owner.__dict__.setdefault(ENGLISH, {name: getattr(owner, name, None) for name in HELP_ATTRIBUTES})
    for name, text in english.items():
        if isinstance(text, str) and text:
            setattr(owner, name, translate(inspect.cleandoc(text)))


def _translate_type_name(kind: click.ParamType, translate: Callable[[str], str]) -> None:
    """click names a path type ("file", "directory", "path") when the type is made, at import time: in
    English. Name it again in the chosen language, as click.Path itself does; and its other types
    (:data:`CLICK_WORDS`) too."""
    if not isinstance(kind, click.Path):
        english = kind.__dict__.setdefault(ENGLISH, kind.name)
        if english in CLICK_WORDS:
            kind.name = translate(english)
        return
    if kind.file_okay and not kind.dir_okay:
        kind.name = translate("file")
    elif kind.dir_okay and not kind.file_okay:
        kind.name = translate("directory")
    else:
        kind.name = translate("path")
