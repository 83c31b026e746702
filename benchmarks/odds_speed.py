"""Time and memory of the exact Galactic War odds against their targets, and against a plain recursion.

    python benchmarks/odds_speed.py [--repeat 5]

Targets (issue 16): at least as fast as a plain memoized recursion on 20 v 20 identical units, under 50 ms
for 20 v 20 mixed fleets, 40 v 40 mixed under 0.5 s and 200 MB. Times are CPU seconds of this process
(``time.process_time``, so other programs' load counts little): the first call in a fresh process, then
the median of ``--repeat`` more. Memory is the peak traced by :mod:`tracemalloc` during one call (numpy's
arrays included) and the process's peak resident size. The figures are printed and written to
``benchmarks/results/odds-<date>.json``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import statistics
import sys
import time
import tracemalloc
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from adjudicator.blas_threads import one_blas_thread  # noqa: E402

# As the commands run them (cli.py, xl.py): numpy's BLAS with one thread, set before numpy is imported. Without it
# OpenBLAS starts a pool of a thread a core, and the odds' one-thread section (odds.py) sent it spinning on its
# way out: half the calls of a process took twice the CPU (8 against 16 ms, 20 v 20 identical), as long as
# nothing else had been imported before; pandas, imported by the ruleset's package until a check stopped needing
# it, happened to hide that.
one_blas_thread()

from galactic_war_odds import contest  # noqa: E402

from adjudicator.rulesets.galactic_war.combat import hit_chance  # noqa: E402
from adjudicator.rulesets.galactic_war.odds import exact  # noqa: E402

MIXED_20 = ({"FIGHTER": 10, "CRUISER": 10}, {"DREADNOUGHT": 5, "FIGHTER": 10, "CRUISER": 5}, "LOSSES>=60%",
            "OWN_SHIPS<=3", False)
MIXED_40 = ({"FIGHTER": 20, "CRUISER": 20}, {"DREADNOUGHT": 10, "FIGHTER": 20, "CRUISER": 10}, "LOSSES>=60%",
            "OWN_SHIPS<=3", False)
IDENTICAL_20 = ({"CRUISER": 20}, {"CRUISER": 20}, "NEVER", "NEVER", False)


def plain_recursion(units_a: int, units_d: int, need_a: int, need_d: int) -> float:
    """The attacker's chance to hold, identical units that never retreat: a memoized recursion over the units
    left, the no-hit round solved as a geometric series (no round limit)."""
    pa, pd = hit_chance(need_a), hit_chance(need_d)

    @cache
    def binom(n: int, p: float) -> tuple[float, ...]:
        from math import comb

        return tuple(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))

    @cache
    def wins(a: int, d: int) -> float:
        if d == 0:
            return 1.0 if a > 0 else 0.0
        if a == 0:
            return 0.0
        on_d, on_a = binom(a, pa), binom(d, pd)
        total = 0.0
        for hd, p in enumerate(on_d):
            for ha, q in enumerate(on_a):
                if hd or ha:
                    total += p * q * wins(max(a - ha, 0), max(d - hd, 0))
        return total / (1 - on_d[0] * on_a[0])

    return wins(units_a, units_d)


def timed(function, repeat: int) -> dict:  # noqa: ANN001
    first = time.process_time()
    function()
    first = time.process_time() - first
    runs = []
    for _ in range(repeat):
        started = time.process_time()
        function()
        runs.append(time.process_time() - started)
    return {"first_cpu_s": round(first, 4), "median_cpu_s": round(statistics.median(runs), 4)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = {}
    for name, case in (("20 v 20 identical cruisers", IDENTICAL_20), ("20 v 20 mixed", MIXED_20),
                       ("40 v 40 mixed", MIXED_40)):
        c = contest(*case)
        rows[name] = timed(lambda c=c: exact(c), args.repeat)
        tracemalloc.start()
        exact(c)
        rows[name]["traced_peak_mb"] = round(tracemalloc.get_traced_memory()[1] / 2**20, 1)
        tracemalloc.stop()
    exact_p = exact(contest(*IDENTICAL_20)).outcomes["ATTACKER_HOLDS"]
    cruiser = 7  # a Cruiser hits on 7+
    rows["plain recursion, 20 v 20 identical cruisers"] = timed(
        lambda: plain_recursion(20, 20, cruiser, cruiser), args.repeat)
    plain_p = plain_recursion(20, 20, cruiser, cruiser)
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    plain = rows["plain recursion, 20 v 20 identical cruisers"]["median_cpu_s"]
    checks = {
        "identical 20 v 20 at least as fast as the plain recursion":
            rows["20 v 20 identical cruisers"]["median_cpu_s"] <= plain,
        "20 v 20 mixed under 50 ms": rows["20 v 20 mixed"]["first_cpu_s"] < 0.05,
        "40 v 40 mixed under 0.5 s": rows["40 v 40 mixed"]["first_cpu_s"] < 0.5,
        "40 v 40 mixed under 200 MB": rows["40 v 40 mixed"]["traced_peak_mb"] < 200 and peak_rss < 200,
    }
    result = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "load": os.getloadavg(),
              "timings": rows, "peak_rss_mb": round(peak_rss, 1),
              "attacker_holds_20v20_identical": {"exact (50-round limit)": exact_p, "plain recursion": plain_p},
              "targets_met": checks}
    for name, row in rows.items():
        print(f"{name:45} first {row['first_cpu_s'] * 1000:8.1f} ms   median {row['median_cpu_s'] * 1000:8.1f} ms"
              + (f"   traced peak {row['traced_peak_mb']} MB" if "traced_peak_mb" in row else ""))
    print(f"peak resident size {peak_rss:.0f} MB; load {os.getloadavg()[0]:.2f}")
    for what, ok in checks.items():
        print(f"  {'ok  ' if ok else 'MISS'} {what}")
    out = ROOT / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"odds-{dt.date.today().isoformat()}.json").write_text(json.dumps(result, indent=2) + "\n")
    sys.exit(0 if all(checks.values()) else 1)


if __name__ == "__main__":
    main()
