"""The GM's fact sheet: whether each trooper meets the Requirements of each Skill, the MOD of its roll,
and the allies in Silhouette contact with the target of a CC Attack (C16)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.engine.problems import Problem, ProblemList, Severity
from adjudicator.engine.ruleset import SheetRows
from adjudicator.engine.sheets import records
from adjudicator.i18n import Msg, fold, msg
from adjudicator.rulesets.coordinated_orders.orders.common import targets_in
from adjudicator.rulesets.coordinated_orders.state import ident


@dataclass(frozen=True)
class Fact:
    row: int
    met: bool | None
    reason: str
    mod: int
    contact: tuple[str, ...]
    raw_contact: str
    #: The GM's pairing of this roll (C12): None to keep the engine's, () for a Normal Roll.
    against: tuple[str, ...] | None = None
    raw_against: str = ""


FactKey = tuple[str, int, str]  # (CO, Skill, trooper)
NONE_WORDS = {fold(w) for w in ("NONE", "-", "—", "ninguno", "nadie", "нет", "никто")}  # a Normal Roll (C12)


@dataclass(frozen=True)
class Needed:
    key: FactKey
    declared: Msg | str  # the Skill in the reader's words
    contact: bool = False  # the Spearhead's CC Attack: list the allies in contact


def read_facts(sheet: SheetRows | None) -> dict[FactKey, Fact]:
    if sheet is None:
        return {}
    out = {}
    for row, r in records(sheet.rows):
        key = (ident(r.get("co")), int(r.get("skill") or 0), ident(r.get("trooper")))
        met = r.get("met")
        raw = str(r.get("against") or "").strip()
        against = None if not raw else () if fold(raw) in NONE_WORDS else tuple(targets_in(raw))
        out[key] = Fact(row, None if met is None else met == "YES", str(r.get("reason") or ""),
                        int(r.get("mod") or 0), tuple(targets_in(r.get("contact"))), str(r.get("contact") or ""),
                        against, raw)
    return out


def missing(needed: list[Needed], facts: dict[FactKey, Fact]) -> list[Needed]:
    return [n for n in needed if facts.get(n.key) is None or facts[n.key].met is None]


def request_frame(needed: list[Needed], facts: dict[FactKey, Fact]) -> list[dict[str, Any]]:
    """The rows of the fact sheet to fill, with whatever the GM entered already."""
    rows = []
    for n in needed:
        old = facts.get(n.key)
        rows.append({"co": n.key[0], "skill": n.key[1], "trooper": n.key[2], "declared": n.declared,
                     "met": None if old is None or old.met is None else ("YES" if old.met else "NO"),
                     "reason": old.reason or None if old else None, "mod": old.mod if old and old.mod else None,
                     "contact": old.raw_contact or None if old else None,
                     "against": old.raw_against or None if old else None})
    return rows


def unknown_rows(sheet: SheetRows | None, wanted: set[FactKey], facts: dict[FactKey, Fact], file: str,
                 problems: ProblemList) -> None:
    """A fact row for no trooper and Skill of this turn is ignored, with a warning (W20)."""
    if sheet is None:
        return
    for key, fact in facts.items():
        if key not in wanted:
            problems.add(Problem("W20", Severity.WARNING,
                                 msg("No trooper {trooper} acts in Skill {k} of {co}; the fact row was ignored.",
                                     trooper=key[2], k=key[1], co=key[0]),
                                 None, file=file, sheet=sheet.sheet, cell=sheet.cell(fact.row, "trooper"),
                                 row=fact.row))
