"""What the agency operations share (spec §2.5, §5): the table of costs and ranges, a paid operation,
the turn's record of effects, and the roll rule (eff = nat − bonuses + penalties, clamped 1..10; a
separate unmodified d10 for detection).

Every die is rolled with a purpose ``agency:{op}:{faction}:{row}`` (plus a suffix for the extra dice
of that operation), so no roll depends on the order in which operations or workbooks are processed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.dice import Dice, DiceError
from adjudicator.i18n import Msg, msg
from adjudicator.rulesets.inner_sphere.orders.common import Context
from adjudicator.rulesets.inner_sphere.schemas import AGENCY_OPS, LINES, UNREST_STATUSES

#: The order in which operations resolve: numerical, each protection just before its sabotage (§3 step 7).
ORDER = ("341", "342", "344", "343", "346", "345", "348", "347", "349", "350", "351", "352", "353", "354")
DEFENSIVE = ("341", "344", "346", "348", "352")
OP_LABELS = {c.code: c.label for c in AGENCY_OPS}
STATUS_LABELS = {c.code: c.label for c in UNREST_STATUSES}
LINE_LABELS = {c.code: c.label for c in LINES}
REBELS = "REBELS"


#: The most d10s a d4 rerolls (on 9-10) before the dice are taken to be broken: 100 rerolls in a row happen
#: once in 10^70 turns with real dice, but always with scripted dice that show only 9s and 10s.
D4_REROLLS = 100


def spec(ctx: Context, op: str) -> dict[str, int]:
    """The operation's row of the agency table (costs, success and detection ranges), as the campaign has it."""
    return ctx.tariffs.row("agency", op)


def op_label(op: str) -> Msg:
    return msg(OP_LABELS[op])


@dataclass
class Op:
    """A paid operation, and once resolved its rolls and result."""

    faction: str
    row: int
    op: str
    target: str  # a hex, a regiment ID or a state
    owner: str = ""  # who the target belongs to at the start of the turn (told on detection)
    line: str = ""
    mode: str = ""
    commando: str = ""
    regiment: str = ""
    bribe: int = 0
    status: str = ""
    regiments: tuple[str, ...] = ()
    text: str = ""
    commandos: tuple[str, ...] = ()  # the commandos it relies on (any one still there will do)
    cost: Any = 0
    nat: int | None = None
    eff: int | None = None
    success: bool = False
    detected: bool = False
    result: Msg | None = None

    @property
    def purpose(self) -> str:
        return f"agency:{self.op}:{self.faction}:{self.row}"

    @property
    def label(self) -> str:
        return f"{self.target}:{self.line}" if self.line else self.target


@dataclass
class Agency:
    """The turn's agency: operations resolved, and the effects other phases read."""

    ops: list[Op] = field(default_factory=list)
    notices: list[tuple[str, Msg]] = field(default_factory=list)  # (faction told, text)
    intel: list[tuple[str, list[Any]]] = field(default_factory=list)  # (faction, report row)
    protected: set[tuple[str, ...]] = field(default_factory=set)
    skipped: set[str] = field(default_factory=set)  # regiments left out of load/unload/invade/raid/retreat
    no_combat: set[str] = field(default_factory=set)  # regiments that take no part in combat this turn
    thefts: list[tuple[Op, int, bool]] = field(default_factory=list)  # 347: (op, X stolen, top-secret plans)
    revolts: list[tuple[str, str, str]] = field(default_factory=list)  # free 351 outcomes: (hex, instigator, purpose)
    transfers: list[tuple[str, str]] = field(default_factory=list)  # systems passing at end of turn: (hex, to)
    defections: list[tuple[str, str]] = field(default_factory=list)  # regiments changing sides: (id, to)
    reports: int = 0

    def tell(self, faction: str, text: Msg) -> None:
        if faction and faction != REBELS:
            self.notices.append((faction, text))

    def report(self, faction: str, subject: Any, item: Msg, detail: Any) -> None:
        self.intel.append((faction, [self.reports, subject, item, detail]))


def roll(dice: Dice, ctx: Context, op: Op, bonus: int = 0, penalty: int = 0) -> int:
    """The operation's d10: sets ``nat``, ``eff`` and ``success``; returns eff (A3)."""
    op.nat = dice.d(10, op.purpose)
    eff = op.nat - bonus + penalty
    if ctx.params["clamp_rolls"]:
        eff = min(10, max(1, eff))
    op.eff = eff
    op.success = eff <= spec(ctx, op.op)["success"]
    return eff


def detect(dice: Dice, ctx: Context, op: Op) -> bool:
    """Detection: a second unmodified d10 (or the effective roll, ``detection_roll=same``) in the range (A24)."""
    low = spec(ctx, op.op)["detection"]
    if not low:
        return False
    same = ctx.params["detection_roll"] == "same" and op.eff is not None
    value = op.eff if same else dice.d(10, f"{op.purpose}:detect")
    op.detected = value >= low
    return op.detected


def d4(dice: Dice, purpose: str) -> int:
    """A d10 rerolled on 9–10, then halved up (§0): rolls ``{purpose}:d4:1``, ``:d4:2``… until one shows 1–8.

    Raises :class:`~adjudicator.dice.DiceError` when :data:`D4_REROLLS` d10s in a row show 9 or 10 (dice that
    can give no d4, such as a case scripting ``9`` for every roll), rather than make up a value."""
    for n in range(1, D4_REROLLS + 1):
        value = dice.d(10, f"{purpose}:d4:{n}")
        if value <= 8:
            return (value + 1) // 2
    raise DiceError(f"no d4 for {purpose!r}: {D4_REROLLS} d10s in a row showed 9 or 10 (are the dice scripted "
                    f"to show only 9 and 10?)")


def joined(separator: str, parts: list[Any]) -> Msg:
    """Parts (texts, numbers or messages) joined, each message rendered in the reader's language."""
    return Msg(separator.join(f"{{p{i}}}" for i in range(len(parts))), {f"p{i}": p for i, p in enumerate(parts)})
