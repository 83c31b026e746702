"""Time and memory of `check` on every file of the hostile corpus (tests/hostile/make_corpus.py).

    python benchmarks/hostile.py

Each file is checked by the real command in its own forked process (tests/hostile/run_checks.py),
which reports the CPU time and peak memory the kernel measured. Target (2 cores): every file under
10 s of CPU and 500 MB, whatever it claims to hold (200,000 rows, a cell at XFD1048576, 125 MB
unpacked). Exit status 1 when a file misses the target.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.hostile.make_corpus import make_corpus  # noqa: E402

TARGET_CPU_SECONDS = 10.0
TARGET_MEMORY_MB = 500


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        campaign, cases = make_corpus(Path(folder))
        corpus, out = Path(folder) / "corpus", Path(folder) / "out"
        out.mkdir()
        groups = [",".join(str(corpus / n) for n in (name, *case.also)) for name, case in cases.items()]
        done = subprocess.run([sys.executable, "-m", "tests.hostile.run_checks", str(campaign), str(out), *groups],
                              cwd=ROOT, capture_output=True, text=True, check=True)
    results = json.loads(done.stdout.strip().splitlines()[-1])
    missed = 0
    print(f"{'file':40} {'exit':>4} {'cpu s':>6} {'peak MB':>8}")
    for name, r in sorted(results.items(), key=lambda item: -item[1]["cpu_s"]):
        bad = r["signal"] is not None or r["cpu_s"] > TARGET_CPU_SECONDS or r["max_rss_mb"] > TARGET_MEMORY_MB
        missed += bad
        print(f"{name[:40]:40} {r['exit']!s:>4} {r['cpu_s']:6.2f} {r['max_rss_mb']:8.1f}{'  MISSED' if bad else ''}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
