"""What the declaration modules share: the state a faction's declarations are checked against and carried out
on, a refused cell, the splitting of a target cell, and a list of messages shown in one cell."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.outcome import Rejection  # noqa: F401 - the engine's, used by every order type
from adjudicator.i18n import Msg
from adjudicator.rulesets.coordinated_orders.skills import Skills
from adjudicator.rulesets.coordinated_orders.state import Game, ident


@dataclass
class Declarations:
    """One faction's declarations: ``game`` as the Coordinated Orders above have left it (its Command Tokens and
    Regular Orders spent in row order), ``start`` the state before the turn; what was declared is collected
    for the adjudication after every faction's sheets (the AROs are judged against the legal COs). ``skills``:
    the campaign's Skills (its rule tables), which every check reads."""

    game: Game
    start: Game
    params: dict[str, Any]
    faction: str
    skills: Skills
    verdicts: list[Any] = field(default_factory=list)  # coordinated.Verdict, in row order
    reactions: list[Any] = field(default_factory=list)  # reactions.Reaction that passed
    seen: set[tuple[str, str]] = field(default_factory=set)  # (CO, reactive trooper) declared so far


def targets_in(text: str | None) -> list[str]:
    """The targets written in one cell: ``"MZ1"`` → ``["MZ1"]``; ``"MZ1, KN2"`` → two targets."""
    return [ident(t) for t in re.split(r"[,;/+&]| y | and | и ", str(text or "")) if t.strip()]


def joined(parts: list[Any], sep: str = ", ") -> Msg | str:
    """Several values (Msg or text) as one cell, each rendered in the reader's language."""
    if not parts:
        return ""
    return Msg(sep.join(f"{{p{i}}}" for i in range(len(parts))), {f"p{i}": part for i, part in enumerate(parts)})
