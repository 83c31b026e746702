"""SIGKILL at seeded points of a real ``run`` (tests/hostile/kill_run.py): the next command leaves no
temporary file, staging folder or lock, and the campaign ends byte for byte as an uninterrupted one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import make_campaign, scenario, write_orders

ROOT = Path(__file__).resolve().parents[2]
KILLS = int(os.environ.get("ADJUDICATOR_KILL_POINTS", "30"))

pytestmark = pytest.mark.slow


def test_a_run_killed_anywhere_recovers_to_the_uninterrupted_result(tmp_path: Path) -> None:
    campaign = make_campaign(tmp_path / "pristine", scenario(
        {"ALPHA": 100, "BETA": 100}, [("ALPHA", "A1", 80), ("BETA", "D4", 90)]))
    write_orders(campaign, "ALPHA", [{"order": "MOVE", "square": "A1", "to": "A2", "amount": 30},
                                     {"order": "BUILD", "square": "A1", "amount": 20}])
    write_orders(campaign, "BETA", [{"order": "MOVE", "square": "D4", "to": "D3", "amount": 40}])
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run([sys.executable, "-m", "tests.hostile.kill_run", str(campaign), str(work), "11",
                           str(KILLS)], cwd=ROOT, capture_output=True, text=True, timeout=900, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["reference_exits"] == [0, 1]  # resolved; then the next turn has no orders yet
    assert len(report["results"]) == min(KILLS, report["steps"]) >= min(KILLS, 30)
    for result in report["results"]:
        assert result["killed"] == 9, result  # the run really was killed at that point
        assert result["next_signal"] is None and result["next_exit"] in (0, 1), result
        assert result["leftovers"] == [], result
        assert result["differ"] == [], result
