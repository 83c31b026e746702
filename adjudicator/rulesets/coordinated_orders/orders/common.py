"""What the declaration modules share: a refused cell, the splitting of a target cell, and a list of
messages shown in one cell."""

from __future__ import annotations

import re
from typing import Any

from adjudicator.engine.outcome import Rejection  # noqa: F401 - the engine's, used by every order type
from adjudicator.i18n import Msg
from adjudicator.rulesets.coordinated_orders.state import ident


def targets_in(text: str | None) -> list[str]:
    """The targets written in one cell: ``"MZ1"`` → ``["MZ1"]``; ``"MZ1, KN2"`` → two targets."""
    return [ident(t) for t in re.split(r"[,;/+&]| y | and | и ", str(text or "")) if t.strip()]


def joined(parts: list[Any], sep: str = ", ") -> Msg | str:
    """Several values (Msg or text) as one cell, each rendered in the reader's language."""
    if not parts:
        return ""
    return Msg(sep.join(f"{{p{i}}}" for i in range(len(parts))), {f"p{i}": part for i, part in enumerate(parts)})
