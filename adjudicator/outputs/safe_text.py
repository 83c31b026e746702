"""Text from a workbook, made safe to show a person.

Anything that came from a submitted file (cell text, sheet and file names, campaign values) may
hold terminal escape sequences (``ESC]0;…`` sets the window title, ``ESC[2J`` clears the screen),
bidirectional overrides that reorder what is shown, or rich markup such as ``[red]…[/]``. On the
terminal, :func:`for_terminal` shows every such character as a visible escape (``\\x1b``,
``\\u202e``) and :func:`terminal_text` wraps the result in a rich ``Text``, which rich never reads
as markup. Line breaks and tabs are kept: inside a table cell they cannot leave it.
"""

from __future__ import annotations

import re

from rich.text import Text

# C0 controls (but tab and line feed), DEL, C1 controls, and the invisible characters that change how
# text around them is shown: bidirectional marks and overrides, zero-width joiners, the BOM.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def for_terminal(text: object) -> str:
    """``text`` with every control or invisible formatting character shown as a visible escape."""
    return _UNSAFE.sub(_visible, "" if text is None else str(text))


def terminal_text(text: object, style: str = "") -> Text:
    """A rich ``Text`` of :func:`for_terminal`'s result: printed as it is, never read as markup."""
    return Text(for_terminal(text), style=style)
