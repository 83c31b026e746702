"""Who sees which roll in Inner Sphere: the faction a roll belongs to, as the report's dice table shows it.

An operation's dice (its detection roll included) go to the faction that ordered it, never to its
target; espionage (353) dice stay with the GM, since they would tell a spy whether its report came
from a double agent; a recruit's roll goes to the faction whose job it is (``recruits:FACTION-…``).
"""

from __future__ import annotations

from collections.abc import Collection

from adjudicator.dice.visibility import factions_named
from adjudicator.i18n import N_, Msg, msg
from adjudicator.rulesets.inner_sphere.orders.agency.common import OP_LABELS, op_label
from adjudicator.rulesets.inner_sphere.orders.research import line_label

GM_ONLY = ("agency:353:",)


def roll_viewers(purposes: list[str], factions: Collection[str]) -> dict[str, set[str]]:
    seen: dict[str, set[str]] = {}
    for purpose in purposes:
        if purpose.startswith(GM_ONLY):
            seen[purpose] = set()
            continue
        named = factions_named(purpose, factions)
        if purpose.startswith("recruits:"):
            named |= {f for f in factions if purpose.startswith(f"recruits:{f}-")}
        seen[purpose] = named
    return seen


#: The words of an agency roll's last parts (``agency:OP:FACTION:ROW:<detail>``), by their first part.
AGENCY_DETAILS = {
    "detect": N_("detection roll"),
    "outcome": N_("outcome"),
    "agent": N_("double agent's report"),
    "reroll": N_("reroll"),
    "pick": N_("which commando is lost"),
}
#: Details that name something (``loyal:REGIMENT``, ``d4:N``, ``false:WHAT``), with the word for it.
AGENCY_NAMED_DETAILS = {
    "loyal": N_("loyalty of regiment {name}"),
    "unit": N_("fate of regiment {name}"),
    "d4": N_("d4 (a halved d10), try {name}"),
}
FALSE_REPORT = {
    "count": N_("false report: how many"),
    "factory": N_("false report: factory"),
    "defence": N_("false report: defence level"),
}


def agency_detail(detail: list[str]) -> Msg | str:
    """The words of an agency roll's detail parts; the parts themselves when they are not known."""
    head, *tail = detail
    if not tail and head in AGENCY_DETAILS:
        return msg(AGENCY_DETAILS[head])
    if head.isdigit():
        if not tail:
            return msg("halt die {n}", n=head)
        return msg("halt die {n}, {then}", n=head, then=agency_detail(tail))
    if len(tail) == 1 and head in AGENCY_NAMED_DETAILS:
        return msg(AGENCY_NAMED_DETAILS[head], name=tail[0])
    if len(tail) == 1 and head == "false" and tail[0] in FALSE_REPORT:
        return msg(FALSE_REPORT[tail[0]])
    return ":".join(detail)


def operation_name(op: str) -> Msg | str:
    """An operation's number and name ("351 Foment revolts"), or its number when the tables do not know it."""
    return op_label(op) if op in OP_LABELS else op


def roll_label(purpose: str) -> Msg | str:
    """What the roll decides, in words."""
    kind, *rest = purpose.split(":")
    if kind == "agency" and len(rest) >= 3:
        op, _, row, *detail = rest
        if detail:
            return msg("{op}, order row {row}: {detail}", op=operation_name(op), row=row, detail=agency_detail(detail))
        return msg("{op}, order row {row}", op=operation_name(op), row=row)
    if kind == "research" and len(rest) == 2:
        return msg("Research dice: {line}", line=line_label(rest[1]))
    if kind == "icna" and len(rest) == 2:
        return msg("ICNA roll of order row {row}", row=rest[1].removeprefix("row"))
    if kind == "new_factory" and len(rest) == 2:
        return msg("New factory attempt in {system}", system=rest[1])
    if kind == "accident" and len(rest) == 3:
        return msg("Jump accident roll of {ship} at step {step}", ship=rest[1], step=rest[2].removeprefix("step"))
    if kind == "recruits" and len(rest) == 1:
        return msg("Training of the recruits {job}", job=rest[0])
    return purpose
