"""Movement execution (spec §6.5): every accepted chain, in simultaneous numbered steps.

For k = 1…K, over all ships at once: (1) accidents beyond the safe range (class + AERO bonus): a d100
≤ ``accident_pct`` stops the chain before the action, the ship stays with its cargo (A6, A42); (2)
moves; (3) embark and disembark: an embark from a system where a hostile invasion or raid landed at
an earlier step fails and stops the chain (a retreat wins a tie, A20), the ship's own raiders may
always go home (A19), regiments blocked by military sabotage are skipped; (4) landings: invasions and
raids land their regiments; invasions, raids and embarks in a foreign system under defence fire
become combats for the GM (chapters 4–5 are not invented, A46); (5) waits.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.dice import Dice
from adjudicator.i18n import Msg, msg
from adjudicator.rulesets.inner_sphere.data import Tariffs
from adjudicator.rulesets.inner_sphere.orders.movement import EMBARK, Chain, Step
from adjudicator.rulesets.inner_sphere.phases.economy import research_bonuses
from adjudicator.rulesets.inner_sphere.state import World


@dataclass
class RouteLine:
    faction: str
    ship: str
    step: int
    action: str
    hex: str
    text: Msg
    roll: str = ""


@dataclass
class Engagement:
    """A combat chapters 4–5 decide: the GM enters its result."""

    kind: str  # INVASION, RAID, DEFENCE_FIRE
    system: str
    step: int
    attacker: str
    ship: str
    regiments: tuple[str, ...]
    rounds: int = 0

    @property
    def id(self) -> str:
        return f"{self.kind}:{self.system}:{self.ship}:{self.step}"


@dataclass
class Movement:
    routes: list[RouteLine] = field(default_factory=list)
    engagements: list[Engagement] = field(default_factory=list)
    landings: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # hex → (step, faction)
    positions: dict[str, list[str]] = field(default_factory=dict)  # ship → hexes it was at, in order
    accidents: list[Accident] = field(default_factory=list)


@dataclass
class Accident:
    """An accident of a jumpship: with ``accident_effect = gm_table`` the GM decides what it does (A6)."""

    faction: str
    ship: str
    hex: str
    step: int
    cargo: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"ACCIDENT:{self.ship}:{self.step}"


def safe_range(world: World, chain: Chain, tariffs: Tariffs) -> int:
    return tariffs.ships[chain.cls].safe + research_bonuses(world, chain.faction)["safe_hexes"]


def execute(world: World, chains: list[Chain], dice: Dice, params: dict, tariffs: Tariffs,
            skipped: set[str] | None = None) -> Movement:
    """Run the chains on ``world`` (ships, regiments) and return the routes and the GM's combats."""
    skipped = skipped or set()
    out = Movement()
    chains = sorted(chains, key=lambda c: c.ship)
    active = {c.ship: True for c in chains}
    safe = {c.ship: safe_range(world, c, tariffs) for c in chains}
    raiders: dict[str, dict[str, set[str]]] = {c.ship: {} for c in chains}
    for c in chains:
        out.positions[c.ship] = [c.start]
    last = max((len(c.steps) for c in chains), default=0)

    def log(c: Chain, s: Step, text: Msg, roll: str = "") -> None:
        out.routes.append(RouteLine(c.faction, c.ship, s.number, s.action, s.hex, text, roll))

    for k in range(1, last + 1):
        now = [(c, c.steps[k - 1]) for c in chains if active[c.ship] and len(c.steps) >= k]
        rolls: dict[str, str] = {}
        # 1. accidents
        for c, s in now:
            if k <= safe[c.ship]:
                continue
            value = dice.d(100, f"accident:{c.faction}:{c.ship}:step{k}")
            rolls[c.ship] = f"d100 {value} ≤ {params['accident_pct']}?"
            if value <= int(params["accident_pct"]):
                active[c.ship] = False
                ship = world.jumpships[c.ship]
                cargo = tuple(sorted(r.id for r in world.regiments.values() if r.jumpship == c.ship))
                out.accidents.append(Accident(c.faction, c.ship, ship.hex, k, cargo))
                text = msg("Accident (d100 {roll} ≤ {pct}): the action does not happen and the chain stops at {hex}.",
                           roll=value, pct=params["accident_pct"], hex=ship.hex)
                if s.action == "RAID" and s.round > 1:
                    text = msg("Accident (d100 {roll} ≤ {pct}): the raid ends after round {n}; the raiders stay "
                               "landed.", roll=value, pct=params["accident_pct"], n=s.round - 1)
                log(c, s, text, rolls[c.ship])
        now = [(c, s) for c, s in now if active[c.ship]]
        # 2. moves, all at once
        for c, s in now:
            if s.action == "MOVE":
                world.jumpships[c.ship].hex = s.hex
                out.positions[c.ship].append(s.hex)
                log(c, s, msg("Jumps to {hex}.", hex=s.hex), rolls.get(c.ship, ""))
        # which hostile landings happen this very step (for retreat_tie = invasion_wins)
        landing_now = {(s.hex, c.faction) for c, s in now if s.action == "INVADE" or (s.action == "RAID" and
                                                                                         s.round == 1)}
        # 3. embark and disembark
        for c, s in now:
            if s.action not in (*EMBARK, "UNLOAD"):
                continue
            if s.action == "UNLOAD":
                moved = [r for r in s.regiments if r in world.regiments and world.regiments[r].jumpship == c.ship
                         and r not in skipped]
                for rid in moved:
                    world.regiments[rid].jumpship, world.regiments[rid].system = "", s.hex
                landed = any(f != c.faction for _, f in out.landings.get(s.hex, []))
                text = msg("Unloads {regiments} at {hex}.", regiments=", ".join(moved) or "—", hex=s.hex)
                if landed:
                    text = msg("Unloads {regiments} at {hex} as reinforcements against the landing there.",
                               regiments=", ".join(moved) or "—", hex=s.hex)
                log(c, s, text, rolls.get(c.ship, ""))
                continue
            own_raiders = raiders[c.ship].get(s.hex, set())
            hostile = [st for st, f in out.landings.get(s.hex, []) if f != c.faction and st < k]
            tie = params["retreat_tie"] == "invasion_wins" and any(h == s.hex and f != c.faction
                                                                   for h, f in landing_now)
            others = [r for r in s.regiments if r not in own_raiders]
            if (hostile or tie) and others:
                if params["embark_block_stops_chain"]:
                    active[c.ship] = False
                log(c, s, msg("Cannot embark at {hex}: a hostile landing came first; the regiments stay to fight"
                              " and the chain stops.", hex=s.hex), rolls.get(c.ship, ""))
                continue
            boarded = []
            for rid in s.regiments:
                regiment = world.regiments.get(rid)
                if regiment is None or rid in skipped or regiment.jumpship or regiment.system != s.hex:
                    continue
                regiment.jumpship, regiment.system = c.ship, ""
                own_raiders.discard(rid)
                boarded.append(rid)
            skipped_here = [r for r in s.regiments if r in skipped]
            text = (msg("Loads {regiments} at {hex}.", regiments=", ".join(boarded) or "—", hex=s.hex)
                    if s.action == "LOAD" else
                    msg("Retreats from {hex} with {regiments}.", regiments=", ".join(boarded) or "—", hex=s.hex))
            if skipped_here:
                text = msg("{action} Sabotaged, left behind: {regiments}.", action=text,
                           regiments=", ".join(skipped_here))
            log(c, s, text, rolls.get(c.ship, ""))
            system = world.systems.get(s.hex)
            if system is not None and system.owner != c.faction and system.defence > 0 and boarded:
                out.engagements.append(Engagement("DEFENCE_FIRE", s.hex, k, c.faction, c.ship, tuple(boarded)))
        # 4. landings
        for c, s in now:
            if s.action not in ("INVADE", "RAID"):
                continue
            if s.action == "RAID" and s.round > 1:
                log(c, s, msg("Raid on {hex}, round {n}.", hex=s.hex, n=s.round), rolls.get(c.ship, ""))
                continue
            landed = [r for r in s.regiments if r in world.regiments and world.regiments[r].jumpship == c.ship]
            for rid in landed:
                world.regiments[rid].jumpship, world.regiments[rid].system = "", s.hex
            out.landings.setdefault(s.hex, []).append((k, c.faction))
            rounds = sum(1 for x in c.steps if x.row == s.row) if s.action == "RAID" else 0
            if s.action == "RAID":
                raiders[c.ship].setdefault(s.hex, set()).update(landed)
                log(c, s, msg("Raid on {hex}, round 1: {regiments} land.", hex=s.hex, regiments=", ".join(landed)),
                    rolls.get(c.ship, ""))
            else:
                log(c, s, msg("Invades {hex}: {regiments} land.", hex=s.hex, regiments=", ".join(landed)),
                    rolls.get(c.ship, ""))
            kind = "RAID" if s.action == "RAID" else "INVASION"
            out.engagements.append(Engagement(kind, s.hex, k, c.faction, c.ship, tuple(landed), rounds))
            system = world.systems.get(s.hex)
            fire = s.action == "INVADE" or params["raid_triggers_defence_fire"]
            if fire and system is not None and system.defence > 0:
                out.engagements.append(Engagement("DEFENCE_FIRE", s.hex, k, c.faction, c.ship, tuple(landed)))
        # 5. waits
        for c, s in now:
            if s.action == "WAIT":
                log(c, s, msg("Waits at {hex}.", hex=s.hex), rolls.get(c.ship, ""))
    for c in chains:
        if active[c.ship]:
            out.routes.append(RouteLine(c.faction, c.ship, len(c.steps), "", world.jumpships[c.ship].hex,
                                        msg("Chain complete: {ship} ends at {hex}.", ship=c.ship,
                                            hex=world.jumpships[c.ship].hex)))
    return out
