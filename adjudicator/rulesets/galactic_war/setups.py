"""Contests built from units: the one place where a space battle or an invasion is set up, for the turn
and for ``adjudicator odds`` alike."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.rulesets.galactic_war.combat import Contest, Side
from adjudicator.rulesets.galactic_war.plans import BattlePlan, ground_members, space_members
from adjudicator.rulesets.galactic_war.state import Unit, UnitStats


@dataclass
class SpaceSide:
    race: str
    ships: list[Unit]
    plan: BattlePlan = field(default_factory=BattlePlan)
    pds: list[Unit] = field(default_factory=list)  # PDS on planets of the system (Round 0)
    assault_cannon: bool = False
    cargo: dict[str, int] = field(default_factory=dict)  # Transport id -> GF and PDS aboard
    can_retreat: bool = False
    immediate_retreat: bool = True
    dna_penalty: bool = False


def space_contest(attacker: SpaceSide, defender: SpaceSide, stats: dict[str, UnitStats], params: dict[str, Any],
                  round_zero: bool = True) -> Contest:
    capacity = stats["TRANSPORT"].capacity  # the units table's, as the GM's Rule tables sheet left it (G21)

    def side(s: SpaceSide) -> Side:
        members = space_members(s.ships, stats, s.plan, params, s.cargo, capacity)
        shots: tuple[tuple[str, int], ...] = ()
        if round_zero:
            shots = tuple((u.id, stats["PDS"].combat) for u in sorted(s.pds, key=lambda u: u.id))
            if s.assault_cannon:
                shots += tuple((m.id, m.combat) for m in members if m.type == "DREADNOUGHT" and not m.absorber
                               and m.combat is not None)
        return Side(s.race, members, (shots,), s.plan.retreat_if, s.can_retreat, s.immediate_retreat,
                    s.dna_penalty)

    return Contest("space", side(attacker), side(defender), int(params["dna_penalty_rounds"]),
                   int(params["max_rounds"]), openers=1)


def bombard_value(stats: dict[str, UnitStats], params: dict[str, Any]) -> int:
    value = int(params["bombard_value"])
    return value or stats["DREADNOUGHT"].combat


def invasion_contest(invader: str, landers: list[Unit], bombarders: list[Unit], defender: str,
                     defenders: list[Unit], pds: list[Unit], invader_plan: BattlePlan, defender_plan: BattlePlan,
                     stats: dict[str, UnitStats], params: dict[str, Any]) -> Contest:
    """Bombardment (round -1), PDS fire at the landing forces (round 0), then ground combat to the end."""
    fighting = [u for u in landers if u.type in ("GF", "FIGHTER")]
    bomb = tuple((u.id, bombard_value(stats, params)) for u in sorted(bombarders, key=lambda u: u.id))
    # The PDS fire at the landing GF and Fighters (G17): with nobody landing (a bombardment alone) they do not fire.
    fire = tuple((u.id, stats["PDS"].combat) for u in sorted(pds, key=lambda u: u.id)) if fighting else ()
    a = Side(invader, ground_members(fighting, stats, invader_plan.ground), (bomb, ()))
    d = Side(defender, ground_members(defenders, stats, defender_plan.ground), ((), fire))
    return Contest("ground", a, d, dna_rounds=0, max_rounds=int(params["max_rounds"]), openers=2,
                   retreats=False)
