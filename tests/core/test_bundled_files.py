"""The committed example workbooks and blank templates are exactly what the code builds today."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.outputs.blank_templates import build_all
from adjudicator.paths import examples_root
from adjudicator.scenario import build
from tests.helpers import all_values

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in examples_root().iterdir() if (p / "scenario.toml").exists())


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_example_workbooks_are_up_to_date(example: Path, tmp_path: Path) -> None:
    fresh = build(example, tmp_path)
    assert fresh
    for path in fresh:
        committed = example / path.relative_to(tmp_path)
        assert committed.exists(), f"{committed.name} is missing: run python -m adjudicator.scenario {example}"
        assert all_values(committed) == all_values(path), (
            f"{committed.relative_to(ROOT)} is out of date: run python -m adjudicator.scenario examples/{example.name}")


def test_blank_templates_are_up_to_date(tmp_path: Path) -> None:
    fresh = build_all(tmp_path)
    assert fresh
    for path in fresh:
        committed = ROOT / "workbook_templates" / path.relative_to(tmp_path)
        assert committed.exists() and all_values(committed) == all_values(path), (
            f"{committed.relative_to(ROOT)} is out of date: run make templates")
