"""click's own messages (usage lines, help, errors of the command line) in the user's language.

click marks its messages with the standard ``gettext`` functions, imported into each of its modules as
``_`` and ``ngettext``; pointing those names at our merged catalogs (which hold click's messages in
``locale/<lang>/LC_MESSAGES/click.po``) translates them without touching click.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

import click

from adjudicator.i18n import UnsupportedLanguageError, normalise_language, translations

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


def install(lang: str, root: click.Command | None = None) -> None:
    """Translate click's messages into ``lang`` from now on (for ``root`` and its subcommands too: click
    keeps each command's ``--help`` option, with its text, once made)."""
    catalog = translations(lang)
    pending = [root] if root is not None else []
    while pending:
        command = pending.pop()
        if getattr(command, "_help_option", None) is not None:
            command._help_option = None  # made again, in the new language, when next needed
        for param in getattr(command, "params", []):
            _translate_type_name(param.type, catalog.gettext)
        if isinstance(command, click.Group):
            pending.extend(command.commands.values())
    for name in CLICK_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:  # pragma: no cover - platform-specific modules
            continue
        if hasattr(module, "_"):
            module._ = catalog.gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = catalog.ngettext  # type: ignore[attr-defined]


def _translate_type_name(kind: click.ParamType, translate: Any) -> None:
    """click names a path type ("file", "directory", "path") when the type is made, at import time: in
    English. Name it again in the chosen language, as click.Path itself does."""
    if not isinstance(kind, click.Path) or not callable(translate):
        return
    if kind.file_okay and not kind.dir_okay:
        kind.name = translate("file")
    elif kind.dir_okay and not kind.file_okay:
        kind.name = translate("directory")
    else:
        kind.name = translate("path")
