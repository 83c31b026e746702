"""An ARO lost at run time shows its code (A04: no legal CO to react to) beside its outcome, in the reader's
language: on the reactive player's Outcome tab (Spanish) and on the GM's orders tab of campaign.xlsx (Russian)."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from adjudicator.engine.registry import find_ruleset
from adjudicator.i18n import gettext_in, ruleset_catalog
from adjudicator.turn import pipeline
from tests.coordinated_orders.kit import co, data, submit
from tests.helpers import make_campaign


def _shown(path: Path, tab: str | None = None) -> list[object]:
    book = openpyxl.load_workbook(path)
    return [c.value for ws in book.worksheets if tab is None or ws.title.startswith(tab)
            for row in ws.iter_rows() for c in row]


def test_an_aro_against_no_coordinated_order_is_a04_beside_its_translated_outcome(tmp_path: Path) -> None:
    spec = data()
    spec["settings"]["language"] = "ru"  # the GM's
    spec["tables"]["factions"][1]["language"] = "es"  # the JSA's, the reactive player
    root = make_campaign(tmp_path / "c", spec)
    submit(root, "PANO", [co("A", "F1", head=True), co("A", "F2")])
    submit(root, "JSA", reactions=[{"co": "Z", "reactive": "MZ1", "aro": "DODGE", "target": "F1"}])
    assert pipeline.run(root).status == "resolved"
    text = "There is no legal Coordinated Order {co} to react to."
    with ruleset_catalog(find_ruleset("coordinated_orders").locale()):
        spanish, russian = (f"A04: {gettext_in(lang, text).format(co='Z')}" for lang in ("es", "ru"))
        tab = gettext_in("es", "Outcome")
    assert spanish.startswith("A04: No hay") and russian.startswith("A04: Нет")
    assert spanish in _shown(root / "turns" / "T01" / "results" / "JSA.xlsx", tab)
    assert russian in _shown(root / "campaign.xlsx")
