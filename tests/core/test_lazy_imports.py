"""What a command imports, seen from a fresh process (``sys.modules`` when it ends): ``check`` of one workbook
imports its campaign's ruleset alone and none of the libraries only other commands use (of a ruleset that reads
rows, not even pandas); ``--version`` and
``verify --help`` import neither pandas nor the rulesets; numpy's OpenBLAS starts no thread pool unless the user asks
for one. Not timed: the imports themselves, so it cannot regress quietly (benchmarks/startup.py times them)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

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
status = open("/proc/self/status").read() if sys.platform.startswith("linux") else ""
threads = [int(line.split()[1]) for line in status.splitlines() if line.startswith("Threads:")]
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
sys.stderr.write("\\nTHREADS " + json.dumps(threads[0] if threads else None) + "\\n")
import gc
sys.stderr.write("\\nCOLLECTOR " + json.dumps([gc.isenabled(), gc.get_freeze_count()]) + "\\n")
"""

#: Used by other commands only (maps and pictures, dice keys and proofs, mail, typed frames, test doubles, the
#: openpyxl workbooks: a checked copy's Errors tab is written without them, new_tabs.py and errors_tab.py).
NOT_FOR_CHECK = ("matplotlib", "cryptography", "pandera", "typeguard", "unittest", "scipy", "xlwings", "openpyxl",
                 "adjudicator.outputs.templates",
                 "adjudicator.mail", "adjudicator.outputs.maps", "adjudicator.outputs.pictures",
                 "adjudicator.dice.keys", "adjudicator.dice.source", "adjudicator.dice.report",
                 "adjudicator.dice.verifiable", "adjudicator.turn.gm_input", "adjudicator.cases")


#: The variables that size OpenBLAS's pool (adjudicator/blas_threads.py), cleared for the probe unless given.
BLAS_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def _probe(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[set[str], int | None]:
    """The modules ``adjudicator ARGS`` imported and the threads its process had when it ended."""
    return _run_probe(args, cwd, env)[:2]  # type: ignore[return-value]


def _run_probe(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[Any, ...]:
    """Modules, threads, and the collector at the end (enabled, objects frozen) of ``adjudicator ARGS``."""
    environment = {k: v for k, v in os.environ.items() if k not in BLAS_VARIABLES} | (env or {})
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, check=False, env=environment)
    found = {x.split(" ", 1)[0]: json.loads(x.split(" ", 1)[1]) for x in done.stderr.splitlines()
             if x.startswith(("MODULES ", "THREADS ", "COLLECTOR "))}
    assert "MODULES" in found, done.stderr
    return set(found["MODULES"]), found["THREADS"], found["COLLECTOR"]

#: A ruleset's modules that only resolving a turn uses (the GM's phase, the reports, the phases after the orders).
RUN_ONLY = {
    "inner_sphere": ("gm", "reports", "phases.combats", "phases.movement", "phases.research"),
    "star_sectors": ("gm",),
    "galactic_war": ("reports", "phases.space_battle"),
}


#: The rulesets whose check computes with numpy (the exact odds of an invasion row, galactic_war/odds.py); no
#: check imports pandas, the larger half of its time when it did (benchmarks/startup.py).
NUMPY_IN_CHECK = ("galactic_war",)


def imported(args: list[str], cwd: Path) -> set[str]:
    return _probe(args, cwd)[0]


def _under(modules: set[str], package: str) -> set[str]:
    return {m for m in modules if m == package or m.startswith(package + ".")}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_check_of_one_workbook_imports_its_ruleset_alone(tmp_path: Path, ruleset: str) -> None:
    root = tmp_path / ruleset
    shutil.copytree(examples_root() / ruleset, root)
    workbook = sorted((root / "inbox").iterdir())[0]
    modules = imported(["check", str(root), str(workbook)], root)
    # the check ran to its end: it wrote the workbook's checked copy (its Errors tab, without openpyxl)
    assert [p.name for p in (root / "checks").rglob("*.checked.xlsx")] == [f"{workbook.stem}.checked.xlsx"]
    assert f"adjudicator.rulesets.{ruleset}.rules" in modules
    others = {m.split(".")[2] for m in _under(modules, "adjudicator.rulesets") if m.count(".") >= 2}
    assert others == {ruleset}
    assert not {m for package in NOT_FOR_CHECK for m in _under(modules, package)}
    assert not {m for m in RUN_ONLY.get(ruleset, ()) if f"adjudicator.rulesets.{ruleset}.{m}" in modules}
    # the rows read as lists (engine/row_table.py): no DataFrame made, so no pandas; numpy only where a check
    # works out odds with it (a Galactic War invasion row's chance of conquest)
    assert not _under(modules, "pandas")
    assert not _under(modules, "numpy") or ruleset in NUMPY_IN_CHECK


@pytest.mark.parametrize("ruleset", ["inner_sphere", "galactic_war"])
def test_a_turn_imports_its_ruleset_alone(tmp_path: Path, ruleset: str) -> None:
    """Resolving a turn and writing its workbooks (the ledger's references in the reader's words among them)
    imports no other ruleset: each writer worker would import them all again."""
    root = tmp_path / ruleset
    made = subprocess.run([sys.executable, "-m", "adjudicator", "new", ruleset, str(root), "--example"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert made.returncode == 0, made.stderr  # the example campaign, the GM's answers waiting in pending/
    modules = imported(["run", str(root)], root)
    assert list((root / "turns").glob("T*/results/*.xlsx"))  # the turn was resolved and its results written
    assert "adjudicator.outputs.references" in modules
    others = {m.split(".")[2] for m in _under(modules, "adjudicator.rulesets") if m.count(".") >= 2}
    assert others == {ruleset}


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


def _run_example(tmp_path: Path, env: dict[str, str] | None = None) -> tuple[set[str], int | None]:
    """A run of the star_sectors example (it makes frames, so imports pandas and numpy; a check imports neither)."""
    root = tmp_path / "star_sectors"
    shutil.copytree(examples_root() / "star_sectors", root)
    return _probe(["run", str(root)], root, env)


needs_threads = pytest.mark.skipif(not sys.platform.startswith("linux") or (os.cpu_count() or 1) < 2,
                                   reason="threads counted from /proc; OpenBLAS starts a pool on 2 cores or more")


@needs_threads
def test_check_starts_no_blas_thread_pool(tmp_path: Path) -> None:
    """numpy (through pandas) is imported, but OpenBLAS's spinning workers are not started: ~0.1 s of CPU."""
    modules, threads = _run_example(tmp_path)
    assert "numpy" in modules
    assert threads == 1


@needs_threads
def test_a_thread_count_the_user_chose_is_kept(tmp_path: Path) -> None:
    modules, threads = _run_example(tmp_path, {"OPENBLAS_NUM_THREADS": "2"})
    assert "numpy" in modules
    assert threads == 2


def test_check_imports_its_libraries_with_the_collector_paused_then_frozen(tmp_path: Path) -> None:
    """The libraries' objects are frozen (gc.freeze: later collections never walk them), the collector is on."""
    root = tmp_path / "star_sectors"
    shutil.copytree(examples_root() / "star_sectors", root)
    _modules, _threads, (enabled, frozen) = _run_probe(["check", str(root), str(root / "inbox" / "ALPHA.xlsx")],
                                                        root)
    assert enabled
    assert frozen > 20_000  # pandas, openpyxl, numpy... (about 120,000 objects; none unfrozen)


def test_the_characters_a_cell_cannot_hold_are_openpyxls() -> None:
    """cell_text.py keeps openpyxl's pattern so that a check need not import openpyxl for it."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE as openpyxls

    from adjudicator.outputs.cell_text import ILLEGAL_CHARACTERS_RE

    assert ILLEGAL_CHARACTERS_RE.pattern == openpyxls.pattern
    every = "".join(map(chr, range(0x110)))
    assert ILLEGAL_CHARACTERS_RE.sub("", every) == openpyxls.sub("", every)
