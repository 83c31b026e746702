"""Order templates of every ruleset: dropdowns and protections exist, and a template filled only through its
dropdowns and number cells never gives a type error in `check`."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from adjudicator.engine.registry import installed
from adjudicator.engine.sheets import Kind
from adjudicator.outputs.templates import INPUT_ROWS, LISTS_SHEET
from adjudicator.turn import pipeline

RULESETS = sorted(installed())
TYPE_ERRORS = {"C01", "C02", "C04"}


@pytest.fixture(params=RULESETS)
def templates(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, list[Path]]:
    root = tmp_path / request.param
    pipeline.new_campaign(installed()[request.param], root, example=True)
    return root, pipeline.make_templates(root)


def offered_values(book: openpyxl.Workbook, sheet: openpyxl.worksheet.worksheet.Worksheet) -> dict[str, list]:
    """For each column letter with a list dropdown, the values the dropdown offers."""
    offered: dict[str, list] = {}
    lists = book[LISTS_SHEET]
    for validation in sheet.data_validations.dataValidation:
        if validation.type != "list":
            continue
        formula = (validation.formula1 or "").lstrip("=")
        if formula.startswith('"'):
            values = formula.strip('"').split(",")
        else:
            target = book.defined_names[formula].attr_text.split("!")[1].replace("$", "")
            values = [c.value for row in lists[target] for c in row if c.value is not None]
        for ref in str(validation.sqref).split():
            offered[ref.split(":")[0].rstrip("0123456789")] = values
    return offered


def test_dropdowns_and_protection_in_every_template(templates: tuple[Path, list[Path]]) -> None:
    root, paths = templates
    _, campaign, ruleset = pipeline.open_campaign(root)
    for path in paths:
        book = openpyxl.load_workbook(path)
        for schema in ruleset.order_schemas:
            lang = campaign.factions[path.stem].language
            sheet = book[schema.title_in(lang)]
            assert sheet.protection.sheet, (path.name, schema.key)
            offered = offered_values(book, sheet)
            for index, column in enumerate(schema.columns, start=1):
                letter = openpyxl.utils.get_column_letter(index)
                header = sheet.cell(row=1, column=index)
                assert header.protection.locked is not False
                input_cell = sheet.cell(row=2, column=index)
                computed = column.computed or str(input_cell.value or "").startswith("=")
                assert input_cell.protection.locked is computed, (schema.key, column.key)
                if column.kind is Kind.CHOICE:
                    assert len(offered.get(letter, [])) == len(column.choices), (schema.key, column.key)


def test_filled_only_through_dropdowns_and_number_cells_no_type_error(templates: tuple[Path, list[Path]]) -> None:
    root, paths = templates
    _, campaign, ruleset = pipeline.open_campaign(root)
    for path in paths:
        book = openpyxl.load_workbook(path)
        lang = campaign.factions[path.stem].language
        for schema in ruleset.order_schemas:
            sheet = book[schema.title_in(lang)]
            offered = offered_values(book, sheet)
            for index, column in enumerate(schema.columns, start=1):
                if column.computed or str(sheet.cell(row=2, column=index).value or "").startswith("="):
                    continue  # the workbook's own formulas
                letter = openpyxl.utils.get_column_letter(index)
                values = offered.get(letter)
                for row in range(2, min(INPUT_ROWS, 40) + 2):
                    if values:
                        value = values[(row - 2) % len(values)]
                    elif column.kind in (Kind.INT, Kind.INT_OR_ALL, Kind.NUMBER):
                        low = column.minimum if column.minimum is not None else 0
                        high = column.maximum if column.maximum is not None else low + 50
                        value = int(low + (row * 7) % (int(high - low) + 1))
                    else:
                        value = f"text {row}"
                    sheet.cell(row=row, column=index, value=value)
        book.save(path)
    outcome = pipeline.check(root, paths)
    type_errors = [(p.file, p.cell, p.code) for s in outcome.submissions for p in s.problems if p.code in TYPE_ERRORS]
    assert not type_errors
    assert all(s.faction for s in outcome.submissions)


def test_instructions_show_one_example_row_per_order_type(tmp_path: Path) -> None:
    """star_sectors: the instructions sheets of the templates show a filled example of every order type, each
    faction's those it could send (ALPHA may steal nothing this turn: its THEFT example is left out)."""
    from tests.helpers import sheet_rows

    root = tmp_path / "star"
    pipeline.new_campaign(installed()["star_sectors"], root, example=True)
    _, campaign, ruleset = pipeline.open_campaign(root)
    column = ruleset.order_schemas[0].column("order")
    shown_by_faction = {}
    for path in pipeline.make_templates(root):
        lang = campaign.factions[path.stem].language
        words = {c.code: column.choice_label(c.code, lang) for c in column.choices}
        shown = {cell for row in sheet_rows(path, "Instructions", lang) for cell in row}
        shown_by_faction[path.stem] = {code for code, word in words.items() if word in shown}
    assert shown_by_faction["ALPHA"] == {"MOVE", "BUILD", "FEASIBILITY", "RESEARCH_PAY"}
    expected = {"MOVE", "BUILD", "FEASIBILITY", "RESEARCH_PAY", "THEFT"}  # DISBAND is off by default
    assert set().union(*shown_by_faction.values()) == expected


@pytest.mark.parametrize("name", RULESETS)
def test_instructions_of_every_ruleset_have_examples_for_every_order_sheet(name: str, tmp_path: Path) -> None:
    from tests.helpers import sheet_rows

    root = tmp_path / name
    pipeline.new_campaign(installed()[name], root, example=True)
    _, campaign, ruleset = pipeline.open_campaign(root)
    examples = ruleset.example_rows(campaign, sorted(campaign.factions)[0])
    assert set(examples) == {s.key for s in ruleset.order_schemas}
    path = pipeline.make_templates(root)[0]
    lang = campaign.factions[path.stem].language
    shown = {cell for row in sheet_rows(path, "Instructions", lang) for cell in row}
    for key, rows in examples.items():
        assert rows, key
        schema = next(s for s in ruleset.order_schemas if s.key == key)
        first = next(v for v in rows[0].values() if v not in (None, ""))
        column = next(c for c in schema.columns if rows[0].get(c.key) == first)
        offered = ruleset.choice_lists(campaign, path.stem, lang).get(column.key)
        if offered and not column.choices and str(first).casefold() not in {str(o).casefold() for o in offered}:
            first = offered[0]  # an example is drawn from the faction's own units and systems
        expected = column.choice_label(str(first), lang) if column.choices else first
        assert expected in shown, (name, key, expected)
