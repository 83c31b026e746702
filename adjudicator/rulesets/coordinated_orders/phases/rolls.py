"""The roll mode: d20 rolls of the core rules for the roll plan, Normal and Face-to-Face.

Core rules as played here: a die succeeds when it is at most the value needed (attribute + MODs) and
is a critical when it equals it; a value above the die's sides adds the excess to every die, and a
result that reaches the sides is then a critical. In a Face-to-Face Roll a success survives only if it
beats the best success of the opponent (criticals beat any normal success; equal results cancel)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Die:
    face: int
    success: bool
    critical: bool

    @property
    def rank(self) -> int:
        return 1000 if self.critical else self.face


def judge_dice(faces: tuple[int, ...], value: int, sides: int) -> list[Die]:
    extra = max(0, value - sides)
    out = []
    for face in faces:
        if extra:
            total = min(face + extra, sides)
            out.append(Die(total, True, face + extra >= sides))
        else:
            out.append(Die(face, face <= value, face == value))
    return out


def best(dice: list[Die]) -> int:
    return max((d.rank for d in dice if d.success), default=0)


def surviving(mine: list[Die], theirs: list[Die] | None) -> list[Die]:
    """My successes left after a Face-to-Face against ``theirs`` (None: a Normal Roll)."""
    good = [d for d in mine if d.success]
    if theirs is None:
        return good
    top = best(theirs)
    return [d for d in good if d.rank > top]
