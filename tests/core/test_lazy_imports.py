"""What a command imports, seen from a fresh process (``sys.modules`` when it ends): ``check`` of one workbook
imports its campaign's ruleset alone and none of the libraries only other commands use; ``--version`` and
``verify --help`` import neither pandas nor the rulesets. Not timed: the imports themselves, so it cannot regress
quietly (benchmarks/startup.py times them)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.paths import examples_root

RULESETS = ("star_sectors", "inner_sphere", "galactic_war", "coordinated_orders")

#: Run ``adjudicator ARGS`` as the console script does, then print the modules it imported.
_PROBE = """
import json, runpy, sys
sys.argv = ["adjudicator", *sys.argv[1:]]
try:
    runpy.run_module("adjudicator", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
sys.stdout.flush()
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""

#: Used by other commands only (maps and pictures, dice keys and proofs, mail, typed frames, test doubles).
NOT_FOR_CHECK = ("matplotlib", "cryptography", "pandera", "typeguard", "unittest", "scipy", "xlwings",
                 "adjudicator.mail", "adjudicator.outputs.maps", "adjudicator.outputs.pictures",
                 "adjudicator.dice.keys", "adjudicator.dice.source", "adjudicator.dice.report",
                 "adjudicator.dice.verifiable", "adjudicator.turn.gm_input", "adjudicator.cases")


def imported(args: list[str], cwd: Path) -> set[str]:
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, check=False)
    line = next((x for x in done.stderr.splitlines() if x.startswith("MODULES ")), None)
    assert line is not None, done.stderr
    return set(json.loads(line.removeprefix("MODULES ")))


def _under(modules: set[str], package: str) -> set[str]:
    return {m for m in modules if m == package or m.startswith(package + ".")}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_check_of_one_workbook_imports_its_ruleset_alone(tmp_path: Path, ruleset: str) -> None:
    root = tmp_path / ruleset
    shutil.copytree(examples_root() / ruleset, root)
    workbook = sorted((root / "inbox").iterdir())[0]
    modules = imported(["check", str(root), str(workbook)], root)
    assert (root / "checks").is_dir()  # the check ran to its end: it wrote the checked copies
    assert f"adjudicator.rulesets.{ruleset}.rules" in modules
    others = {m.split(".")[2] for m in _under(modules, "adjudicator.rulesets") if m.count(".") >= 2}
    assert others == {ruleset}
    assert not {m for package in NOT_FOR_CHECK for m in _under(modules, package)}


def test_version_imports_no_ruleset_nor_the_workbook_libraries(tmp_path: Path) -> None:
    modules = imported(["--version"], tmp_path)
    assert "adjudicator.cli" in modules
    for package in ("pandas", "numpy", "openpyxl", "xlsxwriter", "adjudicator.rulesets", "adjudicator.turn"):
        assert not _under(modules, package), package


def test_verify_help_needs_no_pandas(tmp_path: Path) -> None:
    """``verify`` reads a results workbook's values, never its tables as frames."""
    modules = imported(["verify", "--help"], tmp_path)
    assert "adjudicator.dice.verify" in modules
    for package in ("pandas", "adjudicator.rulesets", "adjudicator.turn"):
        assert not _under(modules, package), package
