"""Which campaign, turn and faction a workbook belongs to, and the proof that it was handed to that faction.

Each order workbook carries, on a very hidden sheet, its ruleset, campaign, faction, turn, template
version and a token: an HMAC of the campaign's secret (kept in the GM's campaign.xlsx) over the
campaign, faction and turn. A player can read its own token but cannot compute another faction's,
so no faction can submit orders for another.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adjudicator.intake.reading import WorkbookData, read_key_values

if TYPE_CHECKING:
    from openpyxl import Workbook

META_SHEET = "_adjudicator"
TEMPLATE_VERSION = 1
#: The oldest template version this release still reads.
OLDEST_READABLE_VERSION = 1


@dataclass(frozen=True)
class Identity:
    ruleset: str
    campaign: str
    faction: str
    turn: int
    version: int
    token: str
    language: str


def faction_token(secret: str, campaign: str, faction: str, turn: int) -> str:
    digest = hmac.new(secret.encode(), f"{campaign}|{faction}|{turn}".encode(), hashlib.sha256)
    return digest.hexdigest()[:24]


def token_matches(secret: str, identity: Identity) -> bool:
    expected = faction_token(secret, identity.campaign, identity.faction, identity.turn)
    return hmac.compare_digest(expected, identity.token)


def write_identity(wb: Workbook, identity: Identity) -> None:
    ws = wb.create_sheet(META_SHEET)
    for row, (key, value) in enumerate(
        [
            ("ruleset", identity.ruleset),
            ("campaign", identity.campaign),
            ("faction", identity.faction),
            ("turn", identity.turn),
            ("template_version", identity.version),
            ("token", identity.token),
            ("language", identity.language),
        ],
        start=1,
    ):
        ws.cell(row=row, column=1, value=key)
        cell = ws.cell(row=row, column=2, value=value)
        if isinstance(value, str):
            cell.data_type = "s"
    ws.sheet_state = "veryHidden"


def read_identity(book: WorkbookData) -> Identity | None:
    grid = book.sheets.get(META_SHEET)
    if grid is None:
        return None
    values = read_key_values(grid)
    try:
        return Identity(
            ruleset=str(values["ruleset"]),
            campaign=str(values["campaign"]),
            faction=str(values["faction"]),
            turn=_whole(values["turn"]),
            version=_whole(values["template version"]),
            token=str(values["token"]),
            language=str(values.get("language") or "en"),
        )
    except (KeyError, TypeError, ValueError, OverflowError):
        return None


def _whole(value: object) -> int:
    """A whole number, or ValueError: a turn of 3.9 is not turn 3, and ``inf`` or ``nan`` is no turn."""
    number = float(value)  # type: ignore[arg-type]
    if not math.isfinite(number) or not number.is_integer():
        raise ValueError(f"not a whole number: {value!r}")
    return int(number)
