"""The Skills are rule tables: a campaign's Rule tables sheet (campaign.xlsx) changes them for that campaign."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from adjudicator.campaign import pipeline
from adjudicator.campaign.pipeline import CampaignError
from adjudicator.rulesets.coordinated_orders import skills
from tests.coordinated_orders.kit import co, data, resources, submit, tool
from tests.helpers import make_campaign


def _campaign(root: Path, rule_tables: list[dict[str, Any]]) -> Path:
    spec = data()
    if not any(t["trooper"] == "F1" and t["tool"] == "Combi Rifle" for t in spec["tables"]["tools"]):
        spec["tables"]["tools"].append(tool("F1", "Combi Rifle", 3))
    spec["tables"]["rule_tables"] = rule_tables
    return make_campaign(root, spec)


#: The reactive player's BS Attack ARO against the Coordinated Order's spearhead.
REACTIONS = [{"co": "A", "reactive": "MZ1", "aro": "BS_ATTACK", "tool": "HMG", "target": "G1"}]


def _attack() -> list[dict[str, Any]]:
    return [co("A", "G1", "MOVE", "BS_ATTACK", "HMG", "MZ1", head=True),
            co("A", "F1", "MOVE", "BS_ATTACK", "Combi Rifle", "MZ1")]


def test_a_rule_tables_row_of_campaign_xlsx_changes_a_skill_and_the_resolution(tmp_path: Path) -> None:
    # By default a BS Attack needs the GM's table facts (range, Line of Fire) first: the turn waits for them.
    plain = _campaign(tmp_path / "plain", [])
    submit(plain, "PANO", _attack())
    submit(plain, "JSA", reactions=REACTIONS)
    assert pipeline.run(plain).status == "waiting"
    assert resources(plain)[0] == 3

    # The same turn in a campaign whose Rule tables sheet says BS Attack needs no facts: it is resolved at once.
    changed = _campaign(tmp_path / "changed", [{"table": "skills", "row": "BS_ATTACK", "column": "facts",
                                                "value": "FALSE"}])
    sheet = openpyxl.load_workbook(changed / "campaign.xlsx")["Rule tables"]  # the row is in the real workbook
    assert [c.value for c in sheet[2]][:3] == ["skills", "BS_ATTACK", "facts"]
    _, campaign, _ = pipeline.open_campaign(changed)
    assert skills.use(campaign.tables)["BS_ATTACK"].facts is False
    submit(changed, "PANO", _attack())
    submit(changed, "JSA", reactions=REACTIONS)
    outcome = pipeline.run(changed)
    assert outcome.status == "resolved"
    assert resources(changed)[0] == 2  # the Command Token is spent

    # The other campaign is not touched by the first one's change (the Skills are per campaign, not per process).
    _, campaign, _ = pipeline.open_campaign(plain)
    assert skills.use(campaign.tables)["BS_ATTACK"].facts is True
    assert pipeline.run(plain).status == "waiting"


def test_a_rule_tables_row_naming_no_skill_column_is_m11_at_its_cell(tmp_path: Path) -> None:
    root = _campaign(tmp_path / "c", [{"table": "skills", "row": "BS_ATTACK", "column": "rol", "value": "NO"}])
    with pytest.raises(CampaignError) as caught:
        pipeline.open_campaign(root)
    found = [(p.code, p.file, p.sheet, p.cell) for p in caught.value.problems.errors]
    assert found == [("M11", "campaign.xlsx", "Rule tables", "C2")]
