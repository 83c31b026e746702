"""CPU seconds of the safety survey alone over a campaign's inbox, and a digest of what it found (issue 16).

    python benchmarks/intakespeed_survey.py DIR

DIR is a campaign (``benchmarks/generate.py``): every ``inbox/*.xlsx`` is surveyed with the default limits, in
this process. Run it with ``PYTHONPATH=TREE`` to measure another checkout; the digest (sha256 of every
survey's overflow, macro sheets, unreadable flag and error cells) must be the same for both.
"""

from __future__ import annotations

import argparse
import hashlib
import time
import zipfile
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    args = parser.parse_args()
    from adjudicator.intake.bounds import survey_xlsx
    from adjudicator.intake.safety import Limits

    limits = Limits()
    found = []
    started = time.process_time()
    for path in sorted((args.dir / "inbox").glob("*.xlsx")):
        with zipfile.ZipFile(path) as archive:
            survey = survey_xlsx(archive, limits)
        found.append((survey.overflow, survey.macro_sheets, survey.unreadable, survey.errors))
    spent = time.process_time() - started
    digest = hashlib.sha256(repr(found).encode()).hexdigest()[:16]
    print(f"{spent:.3f} s CPU  survey of {len(found)} workbooks  digest {digest}")


if __name__ == "__main__":
    main()
