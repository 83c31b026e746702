"""Workbooks that went through the real LibreOffice (headless) are read the same way."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adjudicator.i18n import gettext_in, render
from adjudicator.outputs.references import shown_reference
from adjudicator.turn import pipeline
from tests.conftest import convert
from tests.helpers import sheet_rows

pytestmark = pytest.mark.libreoffice


def codes_and_cells(outcome: pipeline.CheckOutcome, faction: str) -> list[tuple[str, str | None]]:
    submission = next(s for s in outcome.submissions if s.faction == faction)
    return [(p.code, p.cell) for p in submission.problems]


@pytest.mark.parametrize("fmt", ["ods", "xlsx:Calc MS Excel 2007 XML"])
def test_orders_saved_by_libreoffice_are_read_identically(example: Path, soffice: str, tmp_path: Path,
                                                          fmt: str) -> None:
    original = pipeline.check(example)
    inbox = example / "inbox"
    saved = convert(soffice, inbox / "ALPHA.xlsx", fmt, tmp_path / "lo")
    (inbox / "ALPHA.xlsx").unlink()
    target = inbox / f"ALPHA-libreoffice.{saved.suffix.lstrip('.')}"
    shutil.copyfile(saved, target)
    again = pipeline.check(example)
    assert codes_and_cells(again, "ALPHA") == codes_and_cells(original, "ALPHA")
    before = next(s for s in original.submissions if s.faction == "ALPHA").orders.sheets["orders"].frame
    after = next(s for s in again.submissions if s.faction == "ALPHA").orders.sheets["orders"].frame
    assert before.to_dict("records") == after.to_dict("records")
    outcome = pipeline.run(example)
    assert outcome.status == "resolved"
    rows = sheet_rows(outcome.results["ALPHA"], "Outcome", "ru")
    done, rejected = gettext_in("ru", "done"), gettext_in("ru", "rejected")
    assert [r[-2] for r in rows[1:]] == [done, done, done, rejected, rejected, done, rejected, done]
    assert (example / "turns" / "T03" / "submitted" / f"ALPHA{target.suffix}").read_bytes() == saved.read_bytes()


def test_results_open_in_libreoffice(example: Path, soffice: str, tmp_path: Path) -> None:
    outcome = pipeline.run(example)
    converted = convert(soffice, outcome.results["GAMMA"], "ods", tmp_path / "lo")
    assert sheet_rows(converted, "Ledger", "es")[1][2] == "GAMMA"


def test_cost_preview_recalculated_by_libreoffice_matches_the_engine(example: Path, soffice: str,
                                                                     tmp_path: Path) -> None:
    """LibreOffice computes the template's cost column and budget; the engine agrees with every figure."""
    import openpyxl

    _, campaign, ruleset = pipeline.open_campaign(example)
    checked = pipeline.check(example)
    for faction in ("ALPHA", "BETA"):
        saved = convert(soffice, example / "inbox" / f"{faction}.xlsx", "xlsx:Calc MS Excel 2007 XML",
                        tmp_path / faction)
        lang = campaign.factions[faction].language
        rows = sheet_rows(saved, "Orders", lang)
        header = rows[0]
        cost_col = header.index(gettext_in(lang, "Cost"))
        submission = next(s for s in checked.submissions if s.faction == faction)
        frame = submission.orders.sheets["orders"].frame
        expected = [ruleset.preview_cost(campaign, faction, record) for record in frame.to_dict("records")]
        assert [r[cost_col] for r in rows[1:len(expected) + 1]] == expected
        assert any(expected), "the example must cost something"
        budget = {r[cost_col + 2]: r[cost_col + 3] for r in rows[1:4]}
        treasury = ruleset.template_budget(campaign, faction)
        assert budget == {gettext_in(lang, "Treasury"): treasury, gettext_in(lang, "Spent"): sum(expected),
                          gettext_in(lang, "Left"): treasury - sum(expected)}
        book = openpyxl.load_workbook(saved)  # what LibreOffice kept of the template's safeguards
        orders = book[gettext_in(lang, "Orders")]
        assert orders.protection.sheet
        assert orders["A2"].protection.locked is False and orders["A1"].protection.locked is not False
        lists = [dv for dv in orders.data_validations.dataValidation if dv.type == "list"]
        assert any("list_orders_order" in (dv.formula1 or "") for dv in lists)
        assert {"list_orders_order", "lookup_theft_prices"} <= set(book.defined_names)


def convert_all(soffice: str, sources: list[Path], target_ext: str, out_dir: Path) -> list[Path]:
    """One LibreOffice run converting several workbooks (each start of LibreOffice costs seconds)."""
    from adjudicator.outputs import libreoffice

    return libreoffice.convert(soffice, sources, target_ext, out_dir, timeout=300)


def _orders_and_problems(outcome: pipeline.CheckOutcome) -> dict[str, object]:
    found = {}
    for submission in outcome.submissions:
        sheets = submission.orders.sheets if submission.orders else {}
        found[submission.faction] = (
            {key: sheet.frame.to_dict("records") for key, sheet in sheets.items()},
            [(p.code, p.sheet, p.cell) for p in submission.problems],
        )
    return found


@pytest.mark.parametrize("name", sorted(__import__("adjudicator.engine.registry", fromlist=["x"]).installed()))
@pytest.mark.parametrize("fmt", ["ods", "xlsx:Calc MS Excel 2007 XML"])
def test_every_rulesets_filled_orders_round_trip_through_libreoffice(name: str, fmt: str, soffice: str,
                                                                    tmp_path: Path) -> None:
    from adjudicator.engine.registry import installed

    root = tmp_path / name
    pipeline.new_campaign(installed()[name], root, example=True)
    original = pipeline.check(root)
    inbox = sorted((root / "inbox").iterdir())
    converted = convert_all(soffice, inbox, fmt, tmp_path / "lo")
    for path in inbox:
        path.unlink()
    for path in converted:
        shutil.copyfile(path, root / "inbox" / path.name)
    again = pipeline.check(root)
    assert _orders_and_problems(again) == _orders_and_problems(original)
    templates = pipeline.make_templates(root)
    blank = convert_all(soffice, templates, fmt, tmp_path / "lo-templates")
    clean = pipeline.check(root, blank)
    assert [s.problems.codes() for s in clean.submissions] == [[] for _ in blank]


def test_inner_sphere_cost_preview_recalculated_by_libreoffice_matches_what_the_turn_charges(
        soffice: str, tmp_path: Path) -> None:
    """Every order row the turn pays: LibreOffice's recalculated preview equals the ledger's charge for it."""
    from decimal import Decimal

    from adjudicator.engine.registry import installed

    ruleset = installed()["inner_sphere"]
    root = tmp_path / "is"
    pipeline.new_campaign(ruleset, root, example=True)
    _, campaign, _ = pipeline.open_campaign(root)
    inbox = sorted((root / "inbox").iterdir())
    recalculated = {p.stem: p for p in convert_all(soffice, inbox, "xlsx:Calc MS Excel 2007 XML", tmp_path / "lo")}
    assert pipeline.run(root).status == "resolved"
    lang = campaign.language
    charges = {}
    shown = {render(shown_reference(f"{f}:{s.key}:row {n}"), lang): (f, s.key, n)  # as the GM reads them
             for f in campaign.factions for s in ruleset.order_schemas for n in range(2, 60)}
    for row in sheet_rows(root / "campaign.xlsx", "Ledger", lang)[1:]:
        if row[3] == gettext_in(lang, "treasury") and str(row[7]) in shown:
            charges[shown[str(row[7])]] = -Decimal(str(row[4]))
    compared = 0
    for (faction, sheet_key, number), charge in charges.items():
        schema = next((s for s in ruleset.order_schemas if s.key == sheet_key), None)
        if schema is None or not any(c.key == "cost" for c in schema.columns):
            continue
        faction_lang = campaign.factions[faction].language
        rows = sheet_rows(recalculated[faction], schema.title_in(faction_lang), faction_lang)
        cost = rows[0].index(schema.column("cost").header_in(faction_lang))
        preview = rows[number - 1][cost]
        assert Decimal(str(preview)) == charge, (faction, sheet_key, number)
        compared += 1
    assert compared >= 8, "the example pays orders on several sheets"


@pytest.mark.parametrize("name", sorted(__import__("adjudicator.engine.registry", fromlist=["x"]).installed()))
def test_every_rulesets_safeguards_survive_a_libreoffice_save(name: str, soffice: str, tmp_path: Path) -> None:
    """Dropdowns (with their named lists), locked headers and sheet protection are still there after
    LibreOffice saves a template as .xlsx."""
    import openpyxl

    from adjudicator.engine.registry import installed

    root = tmp_path / name
    pipeline.new_campaign(installed()[name], root, example=True)
    _, campaign, ruleset = pipeline.open_campaign(root)
    templates = pipeline.make_templates(root)
    saved = convert_all(soffice, templates, "xlsx:Calc MS Excel 2007 XML", tmp_path / "lo")
    for before_path, after_path in zip(templates, saved, strict=True):
        lang = campaign.factions[before_path.stem].language
        before, after = openpyxl.load_workbook(before_path), openpyxl.load_workbook(after_path)
        assert set(before.defined_names) <= set(after.defined_names)
        for schema in ruleset.order_schemas:
            old, new = before[schema.title_in(lang)], after[schema.title_in(lang)]
            assert new.protection.sheet and new["A1"].protection.locked is not False
            assert new["A2"].protection.locked is False
            lists = lambda ws: sorted((dv.formula1 or "").lstrip("=") for dv in ws.data_validations.dataValidation  # noqa: E731
                                      if dv.type == "list")
            assert lists(new) == lists(old), (name, schema.key)
