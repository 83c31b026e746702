"""The combats of chapters 4–5 (defence fire, invasions, raids), which the source does not include:
the turn lists them for the GM with who, where, with what forces and their combat strength, and
applies the result the GM enters (spec §6.5 step 4, §9.3, A46). Nothing of those chapters is invented.
Control changes take effect at the end of the turn (§0)."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.i18n import Joined, Msg, msg
from adjudicator.rulesets.inner_sphere.data import Tariffs
from adjudicator.rulesets.inner_sphere.phases.economy import research_bonuses
from adjudicator.rulesets.inner_sphere.phases.end_of_turn import Event
from adjudicator.rulesets.inner_sphere.phases.movement import Engagement
from adjudicator.rulesets.inner_sphere.state import World
from adjudicator.rulesets.inner_sphere.vocabulary import combat_modifiers, regiment_in_combat

KIND_LABELS = {"INVASION": "Invasion", "RAID": "Raid", "DEFENCE_FIRE": "Defence fire"}


@dataclass(frozen=True)
class Fight:
    engagement: Engagement
    defender: str
    attackers: Joined | str
    attack_strength: int
    defenders: Joined | str
    defence_strength: int
    defence_level: int
    modifiers: Msg | str

    @property
    def id(self) -> str:
        return self.engagement.id

    def row(self) -> dict[str, object]:
        e = self.engagement
        return {"id": self.id, "kind": e.kind, "system": e.system, "step": e.step, "attacker": e.attacker,
                "ship": e.ship, "attackers": self.attackers, "attack_strength": self.attack_strength,
                "defender": self.defender, "defenders": self.defenders, "defence_strength": self.defence_strength,
                "defence_level": self.defence_level, "modifiers": self.modifiers, "result": None}


def _describe(world: World, ids: list[str], tariffs: Tariffs) -> tuple[Joined, int]:
    """The regiments in the reader's words ("D4 Kathil Militia (Medium vehicles, Green, 3)") and their strength."""
    parts, total = [], 0
    for rid in ids:
        r = world.regiments[rid]
        strength = tariffs.units[r.type].strength
        total += strength
        parts.append(regiment_in_combat(r.id, r.name, r.type, r.experience, r.damaged, strength))
    return Joined(tuple(parts)), total


def requests(world: World, engagements: list[Engagement], tariffs: Tariffs,
             absent: frozenset[str] | set[str] = frozenset()) -> list[Fight]:
    """One row per combat, with the forces as they stand after movement (loaded regiments take no part, nor
    those that military sabotage or a lost turn keeps out of combat: ``absent``)."""
    out = []
    for e in sorted(engagements, key=lambda e: e.id):
        system = world.systems.get(e.system)
        defender = system.owner if system else ""
        attackers, attack = _describe(world, [r for r in e.regiments if r in world.regiments and r not in absent],
                                      tariffs)
        present = sorted(r.id for r in world.regiments.values()
                         if r.system == e.system and not r.jumpship and r.owner == defender and defender
                         and r.id not in absent)
        defenders, defence = _describe(world, present, tariffs)
        level = system.defence if system else 0
        if e.kind == "DEFENCE_FIRE":
            defence = tariffs.defences[level].strength if level else 0
        a, d = research_bonuses(world, e.attacker), research_bonuses(world, defender) if defender else {}
        mods = combat_modifiers(e.attacker, a, defender, d, e.rounds if e.kind == "RAID" else None)
        out.append(Fight(e, defender, attackers, attack, defenders, defence, level, mods))
    return out


def _text(fight: Fight, result: str) -> Msg:
    e = fight.engagement
    what = {"INVASION": msg("Invasion of {system} by {attacker} (jumpship {ship}, step {step})", system=e.system,
                            attacker=e.attacker, ship=e.ship, step=e.step),
            "RAID": msg("Raid on {system} by {attacker} (jumpship {ship}, step {step})", system=e.system,
                        attacker=e.attacker, ship=e.ship, step=e.step),
            "DEFENCE_FIRE": msg("Defence fire of {system} on jumpship {ship} of {attacker} (step {step})",
                                system=e.system, attacker=e.attacker, ship=e.ship, step=e.step)}[e.kind]
    outcome = {"HOLDS": msg("the defender holds"), "TAKEN": msg("the attacker takes the system"),
               "DISPUTED": msg("the system is disputed"), "SHIP_LOST": msg("the jumpship is destroyed")}[result]
    return msg("{what}: {outcome}.", what=what, outcome=outcome)


def apply(world: World, fights: list[Fight], answers: dict[str, str]) -> list[Event]:
    """The GM's results: control changes and disputed flags (end of turn), jumpships destroyed with cargo."""
    events: list[Event] = []
    for fight in fights:
        e, result = fight.engagement, answers[fight.id]
        system = world.systems.get(e.system)
        if result == "TAKEN" and system is not None:
            system.owner, system.disputed = e.attacker, False
        elif result == "DISPUTED" and system is not None:
            system.disputed = True
        elif result == "SHIP_LOST" and e.ship in world.jumpships:
            del world.jumpships[e.ship]
            for rid in [r.id for r in world.regiments.values() if r.jumpship == e.ship]:
                del world.regiments[rid]
        text = _text(fight, result)
        events.append(Event(e.attacker, text, e.system))
        if fight.defender and fight.defender != e.attacker:
            events.append(Event(fight.defender, text, e.system))
    return events
