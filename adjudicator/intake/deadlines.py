"""What a turn still waits for: the factions whose orders are missing (and why), and the "final" mark.

A player may mark the order workbook as final (the cell beside "Final orders" on the Instructions
sheet: YES); when every faction's accepted workbook is final, the turn may be run before its deadline
(``adjudicator mail deadline``). The mark is read in any of the three languages.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from adjudicator.i18n import N_, Msg, all_spellings, fold, gettext_in, msg
from adjudicator.intake.reading import WorkbookData

FINAL = N_("Final orders")
FINAL_HELP = N_("YES when these are your final orders: when every faction's are, the turn may be run before "
                "the deadline.")
YES, NO = N_("YES"), N_("NO")


def mark_final_cell(ws: Any, row: int, lang: str) -> None:
    """Make the value cell of the "Final orders" line (column B of ``row``) a YES/NO dropdown the player
    may change on the otherwise protected Instructions sheet."""
    from openpyxl.styles import Protection  # writing only: `check` and `run` read without openpyxl
    from openpyxl.worksheet.datavalidation import DataValidation

    cell = ws.cell(row=row, column=2)
    cell.value = gettext_in(lang, NO)
    cell.protection = Protection(locked=False)
    choices = ",".join(gettext_in(lang, word) for word in (YES, NO))
    validation = DataValidation(type="list", formula1=f'"{choices}"', allow_blank=True, showInputMessage=True,
                                promptTitle=gettext_in(lang, FINAL)[:32], prompt=gettext_in(lang, FINAL_HELP)[:255])
    validation.add(cell.coordinate)
    ws.add_data_validation(validation)


def is_final(book: WorkbookData | None) -> bool:
    """True when the workbook's "Final orders" cell says YES (in any language)."""
    if book is None:
        return False
    labels, yes = all_spellings(FINAL), all_spellings(YES) | {"si", "true", "1"}
    for grid in book.sheets.values():
        for row in grid.rows[:40]:
            cells = [c for c in row if c not in (None, "")]
            if len(cells) >= 2 and fold(cells[0]) in labels:
                return fold(cells[1]) in yes
    return False


def next_turn_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """The settings of the next turn: with ``turn_length_days``, the deadline moves on by as many days."""
    from adjudicator.mail.deadline import DeadlineError, advance

    days, deadline = settings.get("turn length days"), settings.get("deadline")
    try:
        if deadline and days not in (None, "") and float(days) > 0:
            return {**settings, "deadline": advance(str(deadline), float(days))}
    except (DeadlineError, TypeError, ValueError):
        pass  # a wrong deadline is reported where it is used (mail remind, mail deadline)
    return settings


def missing_reasons(submissions: Sequence[Any], missing: Iterable[str]) -> list[Msg]:
    """For each missing faction, why: no workbook at all, or workbooks that cannot be accepted."""
    reasons = []
    unknown = ", ".join(s.name for s in submissions if not s.faction)
    for faction in missing:
        tried = [s for s in submissions if s.faction == faction]
        if not tried and unknown:
            reasons.append(msg("{faction}: no workbook identified as its own (not identified: {files}).",
                               faction=faction, files=unknown))
            continue
        if not tried:
            reasons.append(msg("{faction}: no workbook received.", faction=faction))
            continue
        codes = sorted({p.code for s in tried for p in s.problems if p.is_error})
        reasons.append(msg("{faction}: its workbooks cannot be accepted ({files}): {codes}.", faction=faction,
                           files=", ".join(s.name for s in tried), codes=", ".join(codes)))
    return reasons
