"""Space battles and ground combats as one small state machine, shared by the engine and the odds.

A side's units are ordered once, before the fight, in the order its owner loses them (the battle
plan's casualty priority, G11). Because every hit removes the next unit of that order, a side's whole
situation during a fight is the number of units it has lost: the state of a contest is
``(attacker losses, defender losses, phase)``. The engine (:func:`fight`) rolls real dice round by
round; the exact odds (:mod:`.odds`) walk the same states with the probability of every number of
hits. Both call :meth:`Contest.firing` to know who shoots and :meth:`Contest.step` (that is,
:meth:`Contest.apply_hits` then :meth:`Contest.settle`) to know what follows, so they cannot drift.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from adjudicator.i18n import Msg, msg

NORMAL = 0
DEFENDER_RETREATING = 1  # G12: the defender declared its retreat; only the attacker fires this round

# How a contest ended.
ONGOING = "ONGOING"
ATTACKER_HOLDS = "ATTACKER_HOLDS"  # the defender was destroyed or retreated; the attacker has units left
DEFENDER_HOLDS = "DEFENDER_HOLDS"
BOTH_DESTROYED = "BOTH_DESTROYED"
BOTH_RETREATED = "BOTH_RETREATED"  # both attackers (roles rule 4) left at once
CAPPED = "CAPPED"  # cfg.max_rounds reached: the GM is flagged


@dataclass(frozen=True)
class Member:
    """One unit of a side (or, with Sustain Damage, the first hit a Dreadnought can absorb)."""

    id: str
    type: str
    combat: int | None  # None: never fires (a damage absorber)
    is_ship: bool = True  # counts in OWN_SHIPS / ENEMY_SHIPS / LOSSES conditions
    fighter: bool = False
    trophy: bool = True  # its destruction earns the winner trophy credits
    absorber: bool = False
    room: int = 0  # free capacity for Fighters if this is a Transport that retreats
    ground: bool = False  # a Ground Force (an invasion succeeds only with one left)


# ------------------------------------------------------------------------------------ retreat rules
class PlanError(ValueError):
    """Raised when a retreat condition of a battle plan cannot be read."""


@dataclass(frozen=True)
class Condition:
    kind: str  # OWN_SHIPS_AT_MOST, OWN_BELOW_RATIO, LOSSES_AT_LEAST, AFTER_ROUND
    value: float


_CONDITIONS = (
    (re.compile(r"^OWN_SHIPS\s*<=\s*(\d+)$"), "OWN_SHIPS_AT_MOST"),
    (re.compile(r"^OWN_SHIPS\s*<\s*(\d+(?:[.,]\d+)?)\s*\*\s*ENEMY_SHIPS$"), "OWN_BELOW_RATIO"),
    (re.compile(r"^LOSSES\s*>=\s*(\d+(?:[.,]\d+)?)\s*%$"), "LOSSES_AT_LEAST"),
    (re.compile(r"^AFTER_ROUND\s*(\d+)$"), "AFTER_ROUND"),
)


def parse_retreat(text: object) -> tuple[Condition, ...]:
    """``"OWN_SHIPS<=2 OR LOSSES>=50%"`` → conditions (any one is enough); NEVER or blank → none. The tokens
    may be any language's (``СВОИ_КОРАБЛИ<=2 ИЛИ ПОТЕРИ>=50%``, see :mod:`.vocabulary`); a part that is none
    raises :class:`PlanError` with that part as the General wrote it."""
    from adjudicator.i18n import fold
    from adjudicator.rulesets.galactic_war.vocabulary import JOIN, never_words, to_english

    raw = str(text if text is not None else "").strip()
    never = never_words()
    if fold(raw) in never:
        return ()
    out = []
    for written in JOIN.split(raw):
        written = written.strip()
        if fold(written) in never:
            continue
        part = to_english(written)
        for pattern, kind in _CONDITIONS:
            found = pattern.match(part)
            if found:
                out.append(Condition(kind, float(found.group(1).replace(",", "."))))
                break
        else:
            raise PlanError(written)
    return tuple(out)


def after_round_limit(conditions: Sequence[Condition]) -> int:
    return max((int(c.value) for c in conditions if c.kind == "AFTER_ROUND"), default=0)


@dataclass(frozen=True)
class Side:
    race: str
    members: tuple[Member, ...]  # in the order they are lost
    openers: tuple[tuple[tuple[str, int], ...], ...] = ()  # per opening step: (unit id, value) of the shots
    retreat_if: tuple[Condition, ...] = ()
    can_retreat: bool = False  # a legal destination exists (§6.2)
    immediate_retreat: bool = True  # attacker's retreat; False: the defender declares it for the next round
    dna_penalty: bool = False  # its ships do not fire in the first dna_penalty_rounds rounds

    def alive(self, losses: int) -> tuple[Member, ...]:
        return self.members[losses:]

    def units_alive(self, losses: int) -> int:
        return self._left[0][min(losses, len(self.members))]

    def ships_alive(self, losses: int) -> int:
        return self._left[1][min(losses, len(self.members))]

    @cached_property
    def _left(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(units, ships) alive after each number of losses: counted once, looked up by every state of the odds."""
        units = [sum(1 for m in self.members[k:] if not m.absorber) for k in range(len(self.members) + 1)]
        ships = [sum(1 for m in self.members[k:] if m.is_ship and not m.absorber) for k in range(len(self.members) + 1)]
        return tuple(units), tuple(ships)

    @property
    def ships_at_start(self) -> int:
        return self.ships_alive(0)

    def wants_retreat(self, losses: int, enemy: Side, enemy_losses: int, round_no: int) -> bool:
        """The battle plan's retreat conditions after a round's casualties (any one is enough)."""
        own, other, start = self.ships_alive(losses), enemy.ships_alive(enemy_losses), self.ships_at_start
        for c in self.retreat_if:
            if c.kind == "OWN_SHIPS_AT_MOST" and own <= c.value:
                return True
            if c.kind == "OWN_BELOW_RATIO" and own < c.value * other:
                return True
            if c.kind == "LOSSES_AT_LEAST" and start and (start - own) * 100 >= c.value * start:
                return True
            if c.kind == "AFTER_ROUND" and round_no >= c.value:
                return True
        return False

    def retreating(self, losses: int) -> tuple[tuple[Member, ...], tuple[Member, ...]]:
        """(units that leave, Fighters lost for want of Transport room) when this side retreats (§6.2)."""
        alive = [m for m in self.alive(losses) if not m.absorber]
        room = sum(m.room for m in alive)
        fighters = [m for m in alive if m.fighter]
        lost = tuple(fighters[: max(0, len(fighters) - room)])
        return tuple(m for m in alive if m not in lost), lost


@dataclass(frozen=True)
class End:
    """A contest's end: who holds, the losses of each side, who left, Fighters lost on leaving."""

    outcome: str
    attacker_losses: int
    defender_losses: int
    attacker_left: bool = False
    defender_left: bool = False


State = tuple[int, int, int]


@dataclass(frozen=True)
class Contest:
    """A two-sided fight: a space battle (kind ``space``) or a ground combat (kind ``ground``).

    Rounds ``1 - len(openers) .. 0`` are the opening shots (space: Round 0 of PDS and Assault Cannon;
    ground: bombardment, then PDS fire at the landing forces); rounds 1, 2, … are the rounds of d10s.
    """

    kind: str
    attacker: Side
    defender: Side
    dna_rounds: int = 1
    max_rounds: int = 50
    openers: int = 1
    retreats: bool = True  # False for ground combat (no retreat from an invasion)

    def initial(self) -> State:
        return (0, 0, NORMAL)

    @property
    def first_round(self) -> int:
        return 1 - self.openers

    def firing(self, state: State, round_no: int) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]:
        """(unit id, value needed) of every die each side rolls in this round."""
        la, ld, phase = state
        if round_no <= 0:
            index = round_no - self.first_round
            a = self.attacker.openers[index] if index < len(self.attacker.openers) else ()
            d = self.defender.openers[index] if index < len(self.defender.openers) else ()
            return a, d
        penalty = round_no <= self.dna_rounds

        def shots(side: Side, losses: int, silent: bool) -> tuple[tuple[str, int], ...]:
            if silent:
                return ()
            return tuple((m.id, m.combat) for m in side.alive(losses) if m.combat is not None)

        return (shots(self.attacker, la, penalty and self.attacker.dna_penalty),
                shots(self.defender, ld, (penalty and self.defender.dna_penalty) or phase == DEFENDER_RETREATING))

    def apply_hits(self, state: State, attacker_hits: int, defender_hits: int) -> State:
        """Hits remove the next units of each owner's order, simultaneously; excess hits are lost."""
        la, ld, phase = state
        return (min(len(self.attacker.members), la + defender_hits),
                min(len(self.defender.members), ld + attacker_hits), phase)

    def settle(self, state: State, round_no: int) -> State | End:
        """After a round's casualties: the end of the fight, a retreat, or the next round."""
        la, ld, phase = state
        a_alive, d_alive = self.attacker.units_alive(la), self.defender.units_alive(ld)
        if round_no < 0:
            return state  # an opening step before the last one: nothing ends yet
        if phase == DEFENDER_RETREATING:
            if a_alive == 0 and d_alive == 0:
                return End(BOTH_DESTROYED, la, ld)
            if d_alive == 0:
                return End(ATTACKER_HOLDS, la, ld)
            if a_alive == 0:
                return End(DEFENDER_HOLDS, la, ld)
            return End(ATTACKER_HOLDS, la, ld, defender_left=True)
        if a_alive == 0 or d_alive == 0:
            if a_alive == d_alive:
                return End(BOTH_DESTROYED, la, ld)
            return End(ATTACKER_HOLDS if a_alive else DEFENDER_HOLDS, la, ld)
        if round_no >= 1 and self.retreats:
            a_go = self.attacker.can_retreat and self.attacker.wants_retreat(la, self.defender, ld, round_no)
            d_go = self.defender.can_retreat and self.defender.wants_retreat(ld, self.attacker, la, round_no)
            if self.defender.immediate_retreat:  # both attackers: simultaneous checks (roles rule 4)
                if a_go and d_go:
                    return End(BOTH_RETREATED, la, ld, True, True)
                if d_go:
                    return End(ATTACKER_HOLDS, la, ld, defender_left=True)
            if a_go:
                return End(DEFENDER_HOLDS, la, ld, attacker_left=True)
            if d_go:
                return (la, ld, DEFENDER_RETREATING)
        if round_no >= self.max_rounds:
            return End(CAPPED, la, ld)
        return (la, ld, NORMAL)

    def step(self, state: State, round_no: int, attacker_hits: int, defender_hits: int) -> State | End:
        return self.settle(self.apply_hits(state, attacker_hits, defender_hits), round_no)

    def round_key(self, round_no: int) -> int | str:
        """Rounds with the same key follow the same rules: the opening steps, the DNA-penalty rounds, the
        rounds up to the last AFTER_ROUND of a plan and the last round each have their own; every other round
        is alike ("steady"). The exact odds build their transitions once per key."""
        special = max(self.dna_rounds, after_round_limit(self.attacker.retreat_if),
                      after_round_limit(self.defender.retreat_if))
        if round_no <= special or round_no >= self.max_rounds:
            return round_no
        return "steady"


# ------------------------------------------------------------------------------------- the engine
@dataclass
class RoundLog:
    round_no: int
    attacker_rolls: list[tuple[str, int, int]] = field(default_factory=list)  # (unit id, needs, face)
    defender_rolls: list[tuple[str, int, int]] = field(default_factory=list)
    attacker_hits: int = 0
    defender_hits: int = 0
    attacker_lost: list[str] = field(default_factory=list)
    defender_lost: list[str] = field(default_factory=list)
    note: Msg | None = None


@dataclass
class Fought:
    contest: Contest
    rounds: list[RoundLog]
    end: End


#: ``roll(round_no, side, shots)`` → one d10 face per shot; side is "A" or "D".
Roller = Callable[[int, str, tuple[tuple[str, int], ...]], list[int]]


def fight(contest: Contest, roll: Roller) -> Fought:
    """The engine's fight: roll the dice of each round and follow the contest's rules to its end."""
    state: State | End = contest.initial()
    rounds: list[RoundLog] = []
    round_no = contest.first_round
    while not isinstance(state, End):
        a_shots, d_shots = contest.firing(state, round_no)
        log = RoundLog(round_no)
        if state[2] == DEFENDER_RETREATING:
            log.note = msg("The defender retreats: only the attacker fires.")
        a_faces = roll(round_no, "A", a_shots) if a_shots else []
        d_faces = roll(round_no, "D", d_shots) if d_shots else []
        log.attacker_rolls = [(u, need, face) for (u, need), face in zip(a_shots, a_faces, strict=True)]
        log.defender_rolls = [(u, need, face) for (u, need), face in zip(d_shots, d_faces, strict=True)]
        log.attacker_hits = sum(1 for _, need, face in log.attacker_rolls if face >= need)
        log.defender_hits = sum(1 for _, need, face in log.defender_rolls if face >= need)
        la, ld, _ = state
        nxt = contest.step(state, round_no, log.attacker_hits, log.defender_hits)
        la2, ld2 = (nxt.attacker_losses, nxt.defender_losses) if isinstance(nxt, End) else nxt[:2]
        log.attacker_lost = [m.id for m in contest.attacker.members[la:la2]]
        log.defender_lost = [m.id for m in contest.defender.members[ld:ld2]]
        rounds.append(log)
        state = nxt
        round_no += 1
    return Fought(contest, rounds, state)


def invasion_succeeds(contest: Contest, end: End) -> bool:
    """An invasion succeeds when the defenders are gone and at least one Ground Force of the invader is left;
    if only the invader's Fighters are left, or nobody, the defender keeps the planet (§6.3)."""
    return (end.outcome == ATTACKER_HOLDS and contest.defender.units_alive(end.defender_losses) == 0
            and any(m.ground for m in contest.attacker.alive(end.attacker_losses)))


def survivors(side: Side, losses: int, left: bool) -> int:
    """Units a side still has at the end (after Fighters without Transport room are lost on a retreat)."""
    return len(side.retreating(losses)[0]) if left else side.units_alive(losses)


def hit_chance(value: int) -> float:
    """Chance that a d10 shows ``value`` or more."""
    return min(1.0, max(0.0, (11 - value) / 10))
