"""The verification tab of a faction's results, and the public key sheet of its order workbooks.

The tab lists, in the faction's language, every die of every roll the faction is shown (its ruleset's
:meth:`~adjudicator.engine.ruleset.Ruleset.roll_viewers`), each with the signature it comes from, and
the accepted submissions of the turn with the digest built from them. Nothing else: no private key, no
seed, no proof of a roll the faction is not shown. ``adjudicator verify`` reads it back
(:func:`read_verification`); its cells sit at fixed places, so that reading needs no word of any
language.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font

from adjudicator.dice import Dice
from adjudicator.dice.keys import KEY_SHEET, campaign_public_key, fingerprint, public_text
from adjudicator.dice.verifiable import MESSAGE_KIND, MESSAGE_VERSION, Proof, VerifiableDice
from adjudicator.engine.ruleset import Campaign, Ruleset
from adjudicator.i18n import msg
from adjudicator.intake.reading import SheetGrid, WorkbookData, read_key_values
from adjudicator.outputs.writing import (
    BODY_FONT,
    TITLE_FONT,
    fit_row_heights,
    fit_to_page_width,
    header_row,
    put,
    sheet_title,
)

FORMAT = f"{MESSAGE_KIND} {MESSAGE_VERSION}"
#: Rows of the key/value block (column B holds the values).
FIELDS = {"campaign": 4, "turn": 5, "faction": 6, "public_key": 7, "fingerprint": 8, "digest": 9, "format": 10,
          "language": 11}
FIRST_TABLE_ROW = 13
ROLL_COLUMNS = 6


def write_key_sheet(wb: Workbook, campaign: Campaign) -> None:
    """The campaign's public dice key on a very hidden sheet of an order workbook, for ``verify --template``
    (it is also printed on the instructions sheet, for the player to read)."""
    key = campaign_public_key(campaign.settings)
    if key is None:
        return
    ws = wb.create_sheet(KEY_SHEET)
    for row, (name, value) in enumerate((("campaign", campaign.campaign_id), ("public_key", public_text(key)),
                                         ("fingerprint", fingerprint(key))), start=1):
        put(ws, row, 1, name)
        put(ws, row, 2, value)
    ws.sheet_state = "veryHidden"
    shown = (public_text(key), fingerprint(key))
    for sheet in wb.worksheets[:1]:  # the instructions: give the key's wrapped lines their height
        for cell in sheet["B"]:
            if isinstance(cell.value, str) and cell.value.startswith(shown):
                width = sheet.column_dimensions["B"].width or 10
                sheet.row_dimensions[cell.row].height = 15 * -(-len(cell.value) // max(int(width * 0.85), 1))


def instruction_lines(campaign: Campaign) -> list[tuple[Any, Any]]:
    """The lines the instructions sheet of an order workbook shows about the campaign's dice key."""
    key = campaign_public_key(campaign.settings)
    if key is None:
        return []
    return [(msg("Dice key"), public_text(key)),
            (msg("Dice key fingerprint"), msg("{fingerprint} (SHA-256). Every roll of this campaign is signed "
                                              "with this key: check your results with 'adjudicator verify'.",
                                              fingerprint=fingerprint(key)))]


def add_verification_tab(wb: Workbook, dice: Dice, ruleset: Ruleset, campaign: Campaign, faction: str,
                         lang: str, label: str) -> None:
    """The verification tab of ``faction``'s results (nothing when the campaign uses keyed dice)."""
    if not isinstance(dice, VerifiableDice):
        return
    key = campaign_public_key(campaign.settings)
    if key is None:
        return
    purposes = sorted(dice.proofs)
    if dice.viewers is None:
        dice.viewers = ruleset.roll_viewers(campaign, purposes)
    viewers = dice.viewers
    shown = [p for p in purposes if faction in viewers.get(p, set())]
    ws = wb.create_sheet(sheet_title(wb, f"{msg('Dice verification').render(lang)} {label}"))
    for column, width in zip("ABCDEF", (34, 46, 6, 7, 7, 70), strict=True):
        ws.column_dimensions[column].width = width
    fit_to_page_width(ws)
    wrap = Alignment(wrap_text=True, vertical="top")
    put(ws, 1, 1, msg("Dice verification"), lang)
    ws.cell(row=1, column=1).font = TITLE_FONT
    put(ws, 2, 1, msg("Every die below comes from a signature by the campaign's dice key over the message fields; "
                      "run 'adjudicator verify' on this workbook to check them all."), lang)
    ws.merge_cells("A2:F2")
    ws.cell(row=2, column=1).alignment = wrap
    ws.row_dimensions[2].height = 30
    values = {"campaign": dice.campaign, "turn": dice.turn, "faction": faction, "public_key": public_text(key),
              "fingerprint": fingerprint(key), "digest": dice.digest, "format": FORMAT, "language": lang}
    labels = {"campaign": msg("Campaign"), "turn": msg("Turn"), "faction": msg("Faction"),
              "public_key": msg("Dice key"), "fingerprint": msg("Dice key fingerprint"),
              "digest": msg("Digest of the accepted submissions (SHA-256)"), "format": msg("Message format"),
              "language": msg("Language")}
    for name, row in FIELDS.items():
        put(ws, row, 1, labels[name], lang)
        ws.cell(row=row, column=1).font = Font(name=BODY_FONT, size=11, bold=True)
        put(ws, row, 2, values[name] if name == "turn" else str(values[name]), lang)
        ws.cell(row=row, column=1).alignment = ws.cell(row=row, column=2).alignment = wrap
    row = FIRST_TABLE_ROW
    put(ws, row, 1, msg("Accepted submissions of the turn"), lang)
    ws.cell(row=row, column=1).font = TITLE_FONT
    header_row(ws, row + 1, [msg("Faction"), msg("SHA-256 of the file")], lang)
    row += 2
    for who, sha in dice.submissions:
        put(ws, row, 1, who)
        put(ws, row, 2, sha)
        row += 1
    row += 1
    put(ws, row, 1, msg("Rolls"), lang)
    ws.cell(row=row, column=1).font = TITLE_FONT
    header_row(ws, row + 1, [msg("What the roll decides"), msg("Roll key"), msg("Die"), msg("Sides"), msg("Value"),
                             msg("Proof (signature, base64)")], lang)
    row += 2
    for purpose in shown:
        for proof in dice.proofs[purpose]:
            cells = [ruleset.roll_label(purpose), purpose, proof.index, proof.sides, proof.value,
                     base64.b64encode(proof.signature).decode("ascii")]
            for column, value in enumerate(cells, start=1):
                put(ws, row, column, value, lang)
                ws.cell(row=row, column=column).alignment = wrap
            row += 1
    if not shown:
        put(ws, row, 1, msg("No roll of this turn is shown to you."), lang)
    fit_row_heights(ws, FIELDS["campaign"], row + 1)


# ----------------------------------------------------------------------------------------- reading
class VerificationFormatError(ValueError):
    """Raised when a workbook has no readable verification tab."""


@dataclass
class ShownRoll:
    """One row of the verification tab; ``problem`` is set when the row cannot even be read."""

    row: int
    purpose: str
    proof: Proof | None
    problem: str | None = None


@dataclass
class Verification:
    sheet: str
    campaign: str
    turn: int
    faction: str
    public_key: str
    digest: str
    language: str
    submissions: list[tuple[str, str]] = field(default_factory=list)
    rolls: list[ShownRoll] = field(default_factory=list)


def find_verification_grid(book: WorkbookData) -> SheetGrid | None:
    for grid in book.sheets.values():
        if str(grid.value(FIELDS["format"], 2) or "").startswith(MESSAGE_KIND):
            return grid
    return None


def read_key_sheet(book: WorkbookData) -> dict[str, Any] | None:
    grid = book.sheets.get(KEY_SHEET)
    return read_key_values(grid) if grid is not None else None


def _int(value: Any) -> int:
    number = float(value)
    if not number.is_integer():
        raise ValueError(value)
    return int(number)


def read_verification(book: WorkbookData) -> Verification:
    grid = find_verification_grid(book)
    if grid is None:
        raise VerificationFormatError("no verification tab")
    if str(grid.value(FIELDS["format"], 2)).strip() != FORMAT:
        raise VerificationFormatError(f"unknown message format {grid.value(FIELDS['format'], 2)!r}")
    text = {name: str(grid.value(row, 2) or "").strip() for name, row in FIELDS.items()}
    try:
        turn = _int(grid.value(FIELDS["turn"], 2))
    except (TypeError, ValueError) as error:
        raise VerificationFormatError("the turn is not a number") from error
    found = Verification(grid.name, text["campaign"], turn, text["faction"], text["public_key"], text["digest"],
                         text["language"] or "en")
    row = FIRST_TABLE_ROW + 2
    while grid.value(row, 1) not in (None, ""):
        found.submissions.append((str(grid.value(row, 1)).strip(), str(grid.value(row, 2) or "").strip()))
        row += 1
    row += 3  # the blank row, the title and the headers of the rolls
    while row <= len(grid.rows):
        purpose = grid.value(row, 2)
        if purpose not in (None, ""):
            found.rolls.append(_roll(grid, row, str(purpose)))
        row += 1
    return found


def _roll(grid: SheetGrid, row: int, purpose: str) -> ShownRoll:
    try:
        index, sides, value = (_int(grid.value(row, c)) for c in (3, 4, 5))
    except (TypeError, ValueError):
        return ShownRoll(row, purpose, None, "number")
    try:
        signature = base64.b64decode("".join(str(grid.value(row, 6) or "").split()), validate=True)
    except ValueError:
        return ShownRoll(row, purpose, None, "signature")
    return ShownRoll(row, purpose, Proof(purpose, index, sides, value, signature))
