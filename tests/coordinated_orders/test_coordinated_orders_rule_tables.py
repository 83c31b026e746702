"""The Skills are rule tables: a campaign's Rule tables sheet (campaign.xlsx) changes them for that campaign."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from adjudicator.engine.registry import find_ruleset
from adjudicator.i18n import gettext_in, ruleset_catalog
from adjudicator.rulesets.coordinated_orders import skills
from adjudicator.store.master import write_state
from adjudicator.turn import pipeline
from adjudicator.turn.pipeline import CampaignError
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
    assert [c.value for c in sheet[2]][:3] == ["Skills", "BS Attack", "Table facts"]  # the reader's words
    _, campaign, _ = pipeline.open_campaign(changed)
    assert skills.campaign_skills(campaign.tables.get("rule_tables"))["BS_ATTACK"].facts is False
    submit(changed, "PANO", _attack())
    submit(changed, "JSA", reactions=REACTIONS)
    outcome = pipeline.run(changed)
    assert outcome.status == "resolved"
    assert resources(changed)[0] == 2  # the Command Token is spent

    # The other campaign is not touched by the first one's change (the Skills are per campaign, not per process).
    _, campaign, _ = pipeline.open_campaign(plain)
    assert skills.campaign_skills(campaign.tables.get("rule_tables"))["BS_ATTACK"].facts is True
    assert pipeline.run(plain).status == "waiting"


def test_a_rule_tables_row_naming_no_skill_column_is_m11_at_its_cell(tmp_path: Path) -> None:
    root = _campaign(tmp_path / "c", [{"table": "skills", "row": "BS_ATTACK", "column": "rol", "value": "NO"}])
    with pytest.raises(CampaignError) as caught:
        pipeline.open_campaign(root)
    found = [(p.code, p.file, p.sheet, p.cell) for p in caught.value.problems.errors]
    assert found == [("M11", "campaign.xlsx", "Rule tables", "C2")]


# ------------------------------------------------------------------ the sheet's words, typed back tolerantly
def _spanish(root: Path) -> Path:
    spec = data()
    spec["settings"]["language"] = "es"
    spec["tables"]["rule_tables"] = [{"table": "skills", "row": "BS_ATTACK", "column": "facts", "value": "NO"}]
    return make_campaign(root, spec)


def _typed(root: Path, cells: list[Any]) -> None:
    book = openpyxl.load_workbook(root / "campaign.xlsx")
    sheet = book["Tablas de reglas"]
    for column, value in enumerate(cells, start=1):
        sheet.cell(2, column).value = value
    book.save(root / "campaign.xlsx")


def _russian(text: str) -> str:
    with ruleset_catalog(find_ruleset("coordinated_orders").locale()):
        return gettext_in("ru", text)


def test_the_rule_tables_sheet_is_written_in_the_campaigns_words_and_read_back_in_any_of_them(tmp_path: Path) -> None:
    root = _spanish(tmp_path / "c")
    sheet = openpyxl.load_workbook(root / "campaign.xlsx")["Tablas de reglas"]
    assert [c.value for c in sheet[2]] == ["Habilidades", "Ataque CD", "Hechos de la mesa", "NO"]
    typings = [
        ["Habilidades", "Ataque CD", "Hechos de la mesa", "no"],  # as written
        ["HABILIDADES", "ataque cd", "hechos de la  mesa", "no"],  # case, spaces
        ["skills", "BS_ATTACK", "facts", "no"],  # the codes
        [_russian("Skills"), _russian("BS Attack").upper(), _russian("Table facts"), "нет"],  # another language
        ["Habilidades", "Аtaque CD", "Hechos de la mesa", "no"],  # a Cyrillic А typed for the Latin one
        ["Habilidades", "Ataque ÇD", "Hechos de la mesa", "no"],  # an accent
    ]
    for cells in typings:
        _typed(root, cells)
        _, campaign, _ = pipeline.open_campaign(root)
        assert skills.campaign_skills(campaign.tables["rule_tables"])["BS_ATTACK"].facts is False, cells
    _typed(root, ["skills", "CC_ATTACK", "roll", "no"])  # the next write shows the codes in the campaign's words
    _, campaign, ruleset = pipeline.open_campaign(root)
    book = openpyxl.Workbook()
    write_state(book, ruleset, campaign, campaign.tables, campaign.turn)
    assert [c.value for c in book["Tablas de reglas"][2]] == ["Habilidades", "Ataque CC", "Tirada", "NO"]  # a switch


@pytest.mark.parametrize(("cells", "cell", "near"), [
    (["Habilidad", "Ataque CD", "Hechos de la mesa", "no"], "A2", "Habilidades"),
    (["Habilidades", "Ataque DC", "Hechos de la mesa", "no"], "B2", "Ataque CD"),
    (["Habilidades", "Ataque CD", "Hechos de mesa", "no"], "C2", "Hechos de la mesa"),
])
def test_an_unknown_name_is_m11_at_its_cell_with_the_closest_names_in_the_gms_words(
        tmp_path: Path, cells: list[Any], cell: str, near: str) -> None:
    root = _spanish(tmp_path / "c")
    _typed(root, cells)
    with pytest.raises(CampaignError) as caught:
        pipeline.open_campaign(root)
    [problem] = caught.value.problems.errors
    assert (problem.code, problem.sheet, problem.cell) == ("M11", "Tablas de reglas", cell)
    assert problem.hint is not None and f"¿Quisiste decir {near}" in problem.hint.render("es")
