"""The GM's master workbook: one orders tab per order sheet, each under that sheet's own headers."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from adjudicator.engine.registry import installed
from adjudicator.i18n import gettext_in
from adjudicator.turn import pipeline

SEVERAL = sorted(name for name, r in installed().items() if len(r.order_schemas) > 1)


def test_some_rulesets_have_several_order_sheets() -> None:
    assert {"inner_sphere", "coordinated_orders"} <= set(SEVERAL)


@pytest.mark.parametrize("name", SEVERAL)
def test_every_order_sheet_has_its_own_orders_tab_with_its_own_headers(name: str, tmp_path: Path) -> None:
    root = tmp_path / name
    pipeline.new_campaign(installed()[name], root, example=True)
    checked = pipeline.check(root)
    _, campaign, ruleset = pipeline.open_campaign(root)
    lang, turn = campaign.language, campaign.turn
    submitted: dict[str, int] = {}
    for submission in checked.submissions:
        for key, sheet in (submission.orders.sheets if submission.orders else {}).items():
            submitted[key] = submitted.get(key, 0) + len(sheet.frame)
    assert pipeline.run(root).status == "resolved"
    book = openpyxl.load_workbook(root / "campaign.xlsx")
    prefix = f"T{turn:02d} {gettext_in(lang, 'Orders')}"
    tabs = [ws for ws in book.worksheets if ws.title.startswith(prefix)]
    with_rows = [s for s in ruleset.order_schemas if s.key in submitted]
    assert sum(1 for s in with_rows if submitted[s.key]) > 1, "the example fills several order sheets"
    assert len(tabs) == len(with_rows)
    for schema, ws in zip(with_rows, tabs, strict=True):
        assert ws.title.startswith(f"{prefix} {schema.title_in(lang)}"[:31])
        rows = [list(r) for r in ws.iter_rows(values_only=True)]
        expected = [gettext_in(lang, "Faction"), gettext_in(lang, "Row"),
                    *(c.header_in(lang) for c in schema.columns if not c.computed),
                    gettext_in(lang, "Status"), gettext_in(lang, "Outcome")]
        assert rows[0] == expected, (name, schema.key)
        assert len(rows) - 1 == submitted[schema.key], (name, schema.key)
        factions = {r[0] for r in rows[1:]}
        assert factions <= set(campaign.factions)
