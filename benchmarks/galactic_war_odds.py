"""Exact odds of Galactic War battles against 200,000 battles played by the engine itself, and timings.

    python benchmarks/galactic_war_odds.py [--battles 200000]

For several fleet compositions it prints the exact probabilities, the Monte Carlo estimates, their
difference in standard errors, and the time of each; then the time of the exact odds for 20 ships a side
and the Monte Carlo time needed for the same precision (an estimate whose standard error is 1e-6 needs
about p(1-p)/1e-12 battles).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adjudicator.rulesets.galactic_war.cli import build_contest, default_params  # noqa: E402
from adjudicator.rulesets.galactic_war.combat import parse_retreat  # noqa: E402
from adjudicator.rulesets.galactic_war.odds import exact, simulate  # noqa: E402
from adjudicator.rulesets.galactic_war.plans import BattlePlan  # noqa: E402

CASES = [
    ("2 cruisers + 3 fighters vs dreadnought + 2 fighters + PDS", {"CRUISER": 2, "FIGHTER": 3},
     {"DREADNOUGHT": 1, "FIGHTER": 2, "PDS": 1}, "OWN_SHIPS<=1", "NEVER", False),
    ("2 dreadnoughts vs 3 cruisers, defender retreats at 50%", {"DREADNOUGHT": 2}, {"CRUISER": 3}, "NEVER",
     "LOSSES>=50%", False),
    ("4 fighters + transport vs 2 cruisers", {"FIGHTER": 4, "TRANSPORT": 1}, {"CRUISER": 2},
     "OWN_SHIPS<1*ENEMY_SHIPS", "AFTER_ROUND 2", False),
    ("invasion: 3 GF + dreadnought vs 2 GF", {"GF": 3, "DREADNOUGHT": 1}, {"GF": 2}, "NEVER", "NEVER", True),
]


def contest(attacker: dict, defender: dict, a_retreat: str, d_retreat: str, invasion: bool):  # noqa: ANN201
    return build_contest(attacker, defender, invasion, default_params(),
                         BattlePlan(retreat_if=parse_retreat(a_retreat)),
                         BattlePlan(retreat_if=parse_retreat(d_retreat)), {"ASSAULT_CANNON"}, set())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--battles", type=int, default=200_000)
    args = parser.parse_args()
    worst = 0.0
    for title, attacker, defender, a_retreat, d_retreat, invasion in CASES:
        c = contest(attacker, defender, a_retreat, d_retreat, invasion)
        odds = exact(c)
        sampled = simulate(c, args.battles, seed=2026)
        print(f"\n{title}\n  exact in {odds.seconds * 1000:.1f} ms; {args.battles} battles in {sampled.seconds:.1f} s")
        pairs = [("invasion succeeds", odds.invasion_success, sampled.invasion_success)] if invasion else [
            (k, odds.outcomes[k], sampled.outcomes[k]) for k in odds.outcomes]
        for key, p, q in pairs:
            p, q = p or 0.0, q or 0.0
            se = math.sqrt(max(p * (1 - p), 1e-12) / args.battles)
            z = (q - p) / se if p * (1 - p) > 0 else 0.0
            worst = max(worst, abs(z))
            print(f"  {key:16} exact {p:.6f}  monte carlo {q:.6f}  ({z:+.2f} standard errors)")
    print(f"\nlargest difference: {worst:.2f} standard errors (within 4 expected)")
    big = contest({"FIGHTER": 10, "CRUISER": 10}, {"DREADNOUGHT": 5, "FIGHTER": 10, "CRUISER": 5}, "LOSSES>=60%",
                  "OWN_SHIPS<=3", False)
    started = time.perf_counter()
    odds = exact(big)
    seconds = time.perf_counter() - started
    per_battle = simulate(big, 2000, seed=1).seconds / 2000
    p = odds.outcomes["ATTACKER_HOLDS"]
    needed = p * (1 - p) / 1e-12
    print(f"\n20 ships a side: exact odds in {seconds:.3f} s (attacker wins {p:.9f}).")
    print(f"Monte Carlo at the same precision (standard error 1e-6): about {needed:.2e} battles, "
          f"{needed * per_battle / 3600:.0f} hours at {per_battle * 1e6:.0f} µs a battle; "
          f"to within ±1 point (95%): {1.96**2 * p * (1 - p) / 0.01**2:.0f} battles, "
          f"{1.96**2 * p * (1 - p) / 0.01**2 * per_battle:.1f} s.")


if __name__ == "__main__":
    main()
