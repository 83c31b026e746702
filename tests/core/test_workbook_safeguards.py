"""What the spreadsheet itself refuses or keeps: every validation's error alert is on (GM percentages
outside 0..100 refused), identifier columns are text, every visible sheet prints its used cells only."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from adjudicator.engine.registry import installed
from adjudicator.engine.sheets import Kind
from adjudicator.outputs.layout import used_range
from adjudicator.turn import pipeline

RULESETS = sorted(installed())


@pytest.fixture(scope="module", params=RULESETS)
def campaign_root(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp(request.param) / request.param
    pipeline.new_campaign(installed()[request.param], root, example=True)
    return root


def test_every_template_validation_alerts_and_identifiers_are_text(campaign_root: Path) -> None:
    _, campaign, ruleset = pipeline.open_campaign(campaign_root)
    for path in pipeline.make_templates(campaign_root):
        lang = campaign.factions[path.stem].language
        book = openpyxl.load_workbook(path)
        for schema in ruleset.order_schemas:
            ws = book[schema.title_in(lang)]
            validations = ws.data_validations.dataValidation
            assert validations
            typed = [dv for dv in validations if dv.type]
            assert all(dv.showErrorMessage and dv.error for dv in typed), (path.name, schema.key)
            for index, column in enumerate(schema.columns, start=1):
                if column.kind in (Kind.TEXT, Kind.CHOICE) and not column.computed and not column.preview:
                    assert ws.cell(row=2, column=index).number_format == "@", (schema.key, column.key)
                    assert ws.cell(row=50, column=index).number_format == "@", (schema.key, column.key)


def test_gm_input_refuses_percentages_outside_0_to_100(tmp_path: Path) -> None:
    from adjudicator.turn.gm_input import write_gm_input

    ruleset = installed()["star_sectors"]
    path = tmp_path / "gm_input.xlsx"
    write_gm_input(path, ruleset, {}, 3, "ru")
    book = openpyxl.load_workbook(path)
    found = 0
    for schema in ruleset.gm_input_schemas:
        ws = book[schema.title_in("ru")]
        for index, column in enumerate(schema.columns, start=1):
            letter = ws.cell(row=1, column=index).column_letter
            covering = [dv for dv in ws.data_validations.dataValidation if f"{letter}2" in str(dv.sqref).split(":")[0]
                        or str(dv.sqref).startswith(f"{letter}2")]
            if column.maximum == 100:
                (dv,) = covering
                assert (dv.type, dv.formula1, dv.formula2) == ("decimal", "0", "100")
                assert dv.showErrorMessage and dv.errorStyle in (None, "stop")
                assert "100" in dv.error and "Введите" in dv.error
                found += 1
            for dv in covering:
                assert dv.showErrorMessage
    assert found >= 4


def test_every_visible_sheet_prints_its_used_cells_one_page_wide(campaign_root: Path) -> None:
    written = [*pipeline.make_templates(campaign_root), *pipeline.check(campaign_root).checked.values()]
    outcome = pipeline.run(campaign_root)
    written += [*outcome.results.values(), campaign_root / "campaign.xlsx"]
    for path in written:
        book = openpyxl.load_workbook(path)
        for ws in book.worksheets:
            if ws.sheet_state != "visible" or ws.max_row < 1 or not used_range(ws)[0]:
                continue
            last_row, _ = used_range(ws)
            area = str(ws.print_area).split("!")[-1].replace("$", "")
            assert area.startswith("A1:") and area.endswith(str(last_row)), (path.name, ws.title, area)
            # fitToWidth left out is 1, the spreadsheet standard's default (XlsxWriter writes it so)
            fit_width = 1 if ws.page_setup.fitToWidth is None else int(ws.page_setup.fitToWidth)
            assert fit_width == 1 and ws.sheet_properties.pageSetUpPr.fitToPage, (path.name, ws.title)
