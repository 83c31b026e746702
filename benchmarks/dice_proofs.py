"""The cost of verifiable dice: the turn of every bundled example that rolls, with keyed and with
verifiable dice.

    python benchmarks/dice_proofs.py [--repeat 3]

For each example, resolves its turn REPEAT times with keyed dice and REPEAT times with verifiable dice
(fresh copies of the campaign each time, templates made beforehand) and prints the median times; it also
measures directly the time spent making the proofs (signatures and values) and writing the verification
tabs, which a difference of two noisy medians on a shared machine cannot show. Target: for the largest
example turn (the slowest with keyed dice), the proofs cost less than 10 % of the turn.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adjudicator.dice import report as dice_report  # noqa: E402
from adjudicator.dice import verifiable as verifiable_dice  # noqa: E402
from adjudicator.dice.keys import read_private_key  # noqa: E402
from adjudicator.dice.source import use_verifiable_dice  # noqa: E402
from adjudicator.engine.registry import find_ruleset  # noqa: E402
from adjudicator.turn import pipeline  # noqa: E402

EXAMPLES = ("galactic_war", "inner_sphere", "coordinated_orders")
TARGET_SHARE = 0.10


@contextmanager
def timed(owner: Any, name: str, spent: list[float]) -> Iterator[None]:
    """Add the time spent in ``owner.name`` to ``spent`` while the block runs."""
    original: Callable[..., Any] = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - start)

    setattr(owner, name, wrapper)
    try:
        yield
    finally:
        setattr(owner, name, original)


def one_turn(name: str, verifiable: bool, work: Path) -> tuple[float, float, int]:
    """(seconds of the run, seconds spent on proofs and tabs, rolls made)."""
    root = work / f"{name}-{'v' if verifiable else 'k'}-{time.perf_counter_ns()}"
    pipeline.new_campaign(find_ruleset(name), root, example=True)
    if verifiable:  # the example's fixed test key, so that every run rolls the same dice
        use_verifiable_dice(root, read_private_key(ROOT / "tests" / "dice_keys" / f"{name}.pem"))
    pipeline.make_templates(root)
    spent: list[float] = []
    # the verification tab is imported by the turn from its module when it is written: timed there
    with timed(verifiable_dice.VerifiableDice, "_values", spent), timed(dice_report, "add_verification_tab", spent):
        start = time.perf_counter()
        outcome = pipeline.run(root)
        seconds = time.perf_counter() - start
    if outcome.status != "resolved" or outcome.turn_dir is None:
        raise SystemExit(f"{name}: the example turn did not resolve ({outcome.status})")
    rolled = json.loads((outcome.turn_dir / "turn.json").read_text(encoding="utf-8"))["dice_rolls"]
    return seconds, sum(spent), rolled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name in EXAMPLES:
            keyed = [one_turn(name, False, work)[0] for _ in range(args.repeat)]
            verifiable = [one_turn(name, True, work) for _ in range(args.repeat)]
            rows.append((name, statistics.median(keyed), statistics.median(v[0] for v in verifiable),
                         statistics.median(v[1] for v in verifiable), verifiable[0][2]))
    print(f"{'example':<20} {'rolls':>5} {'keyed s':>8} {'verif. s':>9} {'proofs s':>9} {'share':>7}")
    for name, keyed_s, verifiable_s, proofs_s, rolled in rows:
        print(f"{name:<20} {rolled:>5} {keyed_s:>8.2f} {verifiable_s:>9.2f} {proofs_s:>9.3f} "
              f"{proofs_s / keyed_s:>7.1%}")
    largest = max(rows, key=lambda r: r[1])
    share = largest[3] / largest[1]
    verdict = "OK" if share < TARGET_SHARE else "OVER TARGET"
    print(f"largest example turn: {largest[0]}: the proofs cost {share:.1%} of the turn "
          f"(target < {TARGET_SHARE:.0%}): {verdict}")
    if share >= TARGET_SHARE:
        sys.exit(1)


if __name__ == "__main__":
    main()
