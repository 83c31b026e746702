"""Inner Sphere: the order workbook's cost preview counts the movement charges beyond the jumpships'
minimum (spec §4.3: cost per hex × max(1, steps); the minimum is upkeep), recalculated by the real
LibreOffice and compared with what the turn's ledger charges."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest

from adjudicator.i18n import gettext_in, render
from adjudicator.outputs.references import shown_reference
from adjudicator.rulesets.inner_sphere.data import tariffs
from adjudicator.turn import pipeline
from tests.conftest import convert
from tests.helpers import make_campaign, sheet_rows
from tests.inner_sphere.kit import RULESET, orders, world_data

pytestmark = pytest.mark.libreoffice


def test_movement_charges_in_the_preview_equal_the_ledger(soffice: str, tmp_path: Path) -> None:
    systems = [{"hex": f"01{n:02d}", "name": f"S{n}", "owner": "D", "income": 0} for n in (1, 2, 3)]
    ships = [{"id": "D-A", "owner": "D", "class": "NS2", "hex": "0101"},
             {"id": "D-B", "owner": "D", "class": "NS3", "hex": "0101"},
             {"id": "D-C", "owner": "D", "class": "NS1", "hex": "0101"}]
    data = world_data({"D": 5000}, systems, jumpships=ships, labs=[{"faction": "D", "lab": 1, "line": "ECO"}],
                      parameters={"accident_pct": 0})
    root = make_campaign(tmp_path / "c", data)
    path = orders(root, "D", {"movement": [
        {"ship": "D-A", "action": "Inicio", "hexes": "0101"},
        {"ship": "D-A", "action": "MOVE", "hexes": "0102 - 0103"},  # a path: 2 steps
        {"ship": "D-A", "action": "Esperar"},
        {"ship": "D-B", "action": "START", "hexes": "0101"},
        {"ship": "D-B", "action": "Movimiento", "hexes": "0102"},
        {"ship": "D-C", "action": "START", "hexes": "0101"},
    ], "research": [{"kind": "ROLL", "line": "ECO", "dice": 1}]})
    recalculated = convert(soffice, path, "xlsx:Calc MS Excel 2007 XML", tmp_path / "lo")
    costs = openpyxl.load_workbook(recalculated, data_only=True)["_costs"]
    preview = {costs.cell(row=r, column=19).value: Decimal(str(costs.cell(row=r, column=21).value))
               for r in range(3, 6)}
    assert pipeline.run(root).status == "resolved"
    charged = {}
    shown = {render(shown_reference(f"D:{key}:row {n}"), "es"): (key, f"row {n}")  # as the GM reads them
             for key in ("movement", "research") for n in range(2, 12)}
    for row in sheet_rows(root / "campaign.xlsx", "Ledger", "es")[1:]:
        if str(row[7]) in shown and row[3] == gettext_in("es", "treasury"):
            charged[shown[str(row[7])]] = -Decimal(str(row[4]))
    research_charge = charged.pop(("research", "row 2"))
    per_hex = tariffs(None).ships["NS2"].per_hex
    assert list(charged.values()) == [per_hex * 2]  # D-A: 3 steps, the first one paid as upkeep
    assert preview == {"D-A": per_hex * 2, "D-B": 0, "D-C": 0}  # one step or none: only the minimum
    assert Decimal(str(costs["E1"].value)) == sum(charged.values())
    schema = RULESET.order_schemas[-1]
    rows = sheet_rows(recalculated, schema.title_in("es"), "es")
    running = rows[0].index(schema.column("running").header_in("es"))
    assert Decimal(str(rows[1][running])) == per_hex * 2 + research_charge  # the running total counts movement
