"""A Transport carries what its row of the units table says (G21): the Rule tables sheet of campaign.xlsx changes
it, and nothing else (no parameter) overrides it."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from adjudicator.engine.ledger import Ledger
from adjudicator.engine.problems import ProblemList
from adjudicator.engine.ruleset import FactionOrders, TurnInput
from adjudicator.turn import pipeline
from adjudicator.turn.pipeline import CampaignError
from tests.galactic_war.kit import SHEETS, ScriptedDice, gw, transport_capacity, typed
from tests.helpers import make_campaign

PICKUP = {"origin": "2", "units": "T1", "path": "3", "pickups": "3:G1,G2,G3"}


@pytest.mark.parametrize(("capacity", "aboard"), [(2, []), (3, ["G1", "G2", "G3"]), (None, ["G1", "G2", "G3"])])
def test_the_units_table_capacity_decides_what_a_transport_carries(tmp_path: Path, capacity: int | None,
                                                                    aboard: list[str]) -> None:
    data = gw([("T1", "ALPHA", "TRANSPORT", "2"), ("G1", "ALPHA", "GF", "3"), ("G2", "ALPHA", "GF", "3"),
               ("G3", "ALPHA", "GF", "3")],
              rule_tables=[] if capacity is None else [transport_capacity(capacity)])
    root = make_campaign(tmp_path / "c", data)  # a real campaign.xlsx, read back
    _, campaign, ruleset = pipeline.open_campaign(root)
    sheets = {"ALPHA": typed_orders([PICKUP])}
    orders = {race: FactionOrders(race, f"{race}.xlsx", by_sheet) for race, by_sheet in sheets.items()}
    result = ruleset.resolve(TurnInput(campaign, orders, {}, "gm.xlsx", ScriptedDice(), Ledger(campaign.turn),
                                       ProblemList()))
    units = {r["id"]: r for r in result.tables["units"].to_dict("records")}
    carried = sorted(u for u, r in units.items() if r.get("aboard") == "T1")
    assert carried == aboard
    assert units["T1"]["system"] == ("2" if not aboard else "3")  # a refused row moves nothing (MV07)


def typed_orders(rows: list[dict[str, object]]) -> dict[str, object]:
    return {"moves": typed(SHEETS["moves"], rows, "ALPHA.xlsx")}


def test_an_old_campaigns_transport_capacity_parameter_is_m05_naming_the_rule_tables_row(tmp_path: Path) -> None:
    root = make_campaign(tmp_path / "c", gw([("T1", "ALPHA", "TRANSPORT", "2")]))
    book = openpyxl.load_workbook(root / "campaign.xlsx")  # a campaign.xlsx of before the change
    sheet = book["Parameters"]
    sheet.append(["transport_capacity", 4])
    row = sheet.max_row
    book.save(root / "campaign.xlsx")
    with pytest.raises(CampaignError) as caught:
        pipeline.open_campaign(root)
    [problem] = caught.value.problems.errors
    assert (problem.code, problem.sheet, problem.cell) == ("M05", "Parameters", f"A{row}")
    assert "Units | Transport | Capacity" in problem.message.render()  # the Rule tables row, in the GM's words
    assert "Units | Transport | Capacity | 4" in problem.hint.render()
    assert "Подразделения | Транспорт | Вместимость | 4" in problem.hint.render("ru")
    assert "Unidades | Transporte | Capacidad" in problem.message.render("es")
    for lang in ("es", "ru"):
        assert problem.message.render(lang) != problem.message.render("en")
