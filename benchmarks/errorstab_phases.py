"""Where a `check` spends its CPU with the Errors tab written straight (issue 16): checkcost_phases.py's phases
and those of adjudicator/outputs/errors_tab.py.

    python benchmarks/errorstab_phases.py DIR

Run it with ``PYTHONPATH=TREE`` to measure another checkout: a module that checkout does not have is left out
(on a tree without errors_tab.py the Errors tab shows under "the Errors tab" through XlsxWriter instead).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import checkcost_phases  # noqa: E402 - the phases' timer, beside this script

#: (module, attribute, label) of the Errors tab written straight, after the phases of checkcost_phases.py.
DIRECT_PHASES = [
    ("adjudicator.outputs.errors_tab", "direct_tab", "    the Errors tab written straight: laid out, its cells"),
    ("adjudicator.outputs.errors_tab", "sheet_xml", "    the Errors tab's worksheet XML"),
]


def main() -> None:
    if importlib.util.find_spec("adjudicator.outputs.errors_tab") is not None:
        at = next(i for i, (_, _, label) in enumerate(checkcost_phases.PHASES) if label.strip() == "composed")
        checkcost_phases.PHASES[at + 1:at + 1] = DIRECT_PHASES
    checkcost_phases.main()


if __name__ == "__main__":
    main()
