"""Inner Sphere's words for texts built from the state: a regiment as the GM's combat rows show it, the
research modifiers of a combat. Codes (MV, GREEN, ARM) are shown as the labels of the dropdowns."""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.i18n import Msg, msg
from adjudicator.rulesets.inner_sphere.schemas import EXPERIENCE, FACTORY_TYPES, LINES, UNIT_TYPES


def _label(choices: tuple, code: str) -> Msg | str:
    for choice in choices:
        if choice.code == code:
            return msg(choice.label)
    return code


def regiment_in_combat(rid: str, name: str, unit: str, experience: str, damaged: bool, strength: int) -> Msg:
    """"D4 Kathil Militia (Medium vehicles, Green, 3)" in the reader's words."""
    params = {"id": rid, "name": name, "unit": _label(UNIT_TYPES, unit),
              "experience": _label(EXPERIENCE, experience), "strength": strength}
    if damaged:
        return msg("{id} {name} ({unit}, {experience}, damaged, {strength})", **params)
    return msg("{id} {name} ({unit}, {experience}, {strength})", **params)


def combat_modifiers(attacker: str, attack: Mapping[str, int], defender: str, defence: Mapping[str, int],
                     rounds: int | None) -> Msg:
    """The research bonuses that bear on a combat, for the GM who decides it."""
    text = msg("{attacker}: {arm} ground combat +{ground}, {aero} against fortresses -{fortress}; "
               "{defender}: {arm} ground combat +{defender_ground}, as defender +{as_defender}",
               attacker=attacker, arm=_label(LINES, "ARM"), aero=_label(LINES, "AERO"),
               ground=attack.get("ground", 0), fortress=attack.get("fortress", 0), defender=defender or "—",
               defender_ground=defence.get("ground", 0), as_defender=defence.get("ground_defender", 0))
    if rounds is None:
        return text
    return msg("{modifiers}; rounds: {rounds}", modifiers=text, rounds=rounds)


def factory_text(fid: str, kind: str, damaged: bool) -> Msg:
    """"0106-F1 (Medium factory)", "(…, damaged)" in the reader's words."""
    if damaged:
        return msg("{id} ({kind}, damaged)", id=fid, kind=_label(FACTORY_TYPES, kind))
    return msg("{id} ({kind})", id=fid, kind=_label(FACTORY_TYPES, kind))
