"""Make one ruleset's corpus and check it (a tool for looking at the cases by hand)."""
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import sheet_rows
from tests.hostile.make_corpus import make_ruleset_corpus

name, folder = sys.argv[1], Path(sys.argv[2])
corpus = make_ruleset_corpus(name, folder, subset=len(sys.argv) > 3)
out = folder / "out"
out.mkdir(exist_ok=True)
groups = [",".join(str(corpus.folder / n) for n in (c.name, *c.also)) for c in corpus.cases]
env = {**os.environ, "COLUMNS": "200", "ADJUDICATOR_LANG": "en"}
done = subprocess.run([sys.executable, "-m", "tests.hostile.run_checks", str(corpus.campaign), str(out), *groups],
                      env=env, capture_output=True, text=True, check=True)
results = json.loads(done.stdout.strip().splitlines()[-1])
for case in corpus.cases:
    r = results[case.name]
    copy = corpus.campaign / "checks" / f"T{corpus.turn:02d}" / f"{Path(case.name).stem}.checked.xlsx"
    found = []
    if copy.exists():
        found = [(x[0], x[2] or None, x[3] or None) for x in sheet_rows(copy, "Errors", corpus.language)[1:]]
    ok = r["exit"] == case.exit and (case.code is None or (case.code, case.sheet, case.cell) in found)
    print("OK " if ok else "BAD", case.name, r["exit"], case.exit, (case.code, case.sheet, case.cell),
          found[:4], round(r["cpu_s"], 1), round(r["max_rss_mb"]))
