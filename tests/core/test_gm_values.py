"""One reading of a GM's typed value for the Parameters and the Rule tables sheets of campaign.xlsx: the same
yes/no words in both (in es, ru and en, any case, with or without accents), the same errors at the cell."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from adjudicator.engine.parameters import Parameter, ParameterError
from adjudicator.engine.rules_data import RuleTableError, apply_change, default_tables
from adjudicator.engine.values import ValueTypeError, read_switch, read_value
from adjudicator.rulesets.coordinated_orders import skills
from adjudicator.turn import pipeline
from adjudicator.turn.pipeline import CampaignError
from tests.coordinated_orders.kit import data
from tests.helpers import make_campaign

YES = ["SÍ", "si", "Sí", "s", "ДА", "да", "Д", "YES", "yes", "y", "Y", "TRUE", "true", "VERDADERO", "verdadero",
       "ИСТИНА", "истина", "1", "1.0", "1,0", 1, 1.0, True, " Sí "]
NO = ["NO", "no", "n", "N", "НЕТ", "нет", "Н", "FALSE", "false", "FALSO", "Falso", "ЛОЖЬ", "ложь", "0", "0.0",
      "0,0", 0, 0.0, False]
NEITHER = ["maybe", "quizás", "2", "-1", "t", "f", "truth", "0.5", "да нет"]


@pytest.mark.parametrize("word", YES)
def test_every_yes_word_reads_yes_in_both_sheets(word: Any) -> None:
    assert read_switch(word) is True
    assert Parameter("switch", False, "").coerce(word) is True
    tables = default_tables(skills.PACKAGE)
    apply_change(tables, {"table": "skills", "row": "MOVE", "column": "roll", "value": word})
    assert tables["skills"]["MOVE"]["roll"] is True


@pytest.mark.parametrize("word", NO)
def test_every_no_word_reads_no_in_both_sheets(word: Any) -> None:
    assert read_switch(word) is False
    assert Parameter("switch", True, "").coerce(word) is False
    tables = default_tables(skills.PACKAGE)
    apply_change(tables, {"table": "skills", "row": "BS_ATTACK", "column": "roll", "value": word})
    assert tables["skills"]["BS_ATTACK"]["roll"] is False


@pytest.mark.parametrize("word", NEITHER)
def test_other_words_are_refused_by_both_sheets_alike(word: Any) -> None:
    with pytest.raises(ValueTypeError) as caught:
        read_switch(word)
    with pytest.raises(ParameterError) as by_parameters:
        Parameter("switch", True, "").coerce(word)
    with pytest.raises(RuleTableError) as by_tables:
        apply_change(default_tables(skills.PACKAGE),
                     {"table": "skills", "row": "MOVE", "column": "roll", "value": word})
    assert by_parameters.value.reason == caught.value.reason
    assert by_tables.value.column == "value"
    assert caught.value.reason.render("es").startswith("se esperaba SÍ o NO")
    assert caught.value.reason.render("ru").startswith("ожидалось ДА или НЕТ")


def test_numbers_and_words_read_alike_in_both_sheets() -> None:
    assert read_value(3, "4,0") == 4 and type(read_value(3, "4,0")) is int
    assert read_value(0.5, "0,75") == 0.75
    with pytest.raises(ValueTypeError):
        read_value(3, True)  # a TRUE cell is no number
    with pytest.raises(ValueTypeError):
        read_value(3, "2.5")
    assert read_value("X", 201.0) == "201"
    assert read_value("FC", " own_stack ", choices=("FC", "OWN_STACK")) == "OWN_STACK"


# --- through the real campaign.xlsx ---------------------------------------------------------------

def _spanish_campaign(root: Path) -> Path:
    spec = data()
    spec["settings"]["language"] = "es"
    spec["tables"]["rule_tables"] = [{"table": "skills", "row": "BS_ATTACK", "column": "facts", "value": "TRUE"}]
    return make_campaign(root, spec)


def _type(root: Path, parameter: str, value: Any, change: Any) -> tuple[int, int]:
    """Type ``value`` for ``parameter`` in the Parameters sheet and ``change`` as the Rule tables row's value, as
    the GM does in a spreadsheet; the rows typed in."""
    path = root / "campaign.xlsx"
    book = openpyxl.load_workbook(path)
    params, tables = book["Parámetros"], book["Tablas de reglas"]
    row = next(r for r in range(2, params.max_row + 1) if params.cell(r, 1).value == parameter)
    params.cell(row, 2).value = value
    tables.cell(2, 4).value = change
    book.save(path)
    return row, 2


@pytest.mark.parametrize(("typed", "meant"), [("sí", True), ("Нет", False), ("VERDADERO", True), (0.0, False),
                                              ("n", False), (True, True)])
def test_a_gm_types_the_same_words_in_both_sheets_of_a_real_workbook(tmp_path: Path, typed: Any,
                                                                     meant: bool) -> None:
    root = _spanish_campaign(tmp_path / "c")
    _type(root, "core_roll_module", typed, typed)
    _, campaign, _ = pipeline.open_campaign(root)
    assert campaign.parameters["core_roll_module"] is meant
    assert skills.campaign_skills(campaign.tables["rule_tables"])["BS_ATTACK"].facts is meant


def test_a_word_neither_sheet_reads_is_one_error_at_each_cell_in_the_gms_language(tmp_path: Path) -> None:
    root = _spanish_campaign(tmp_path / "c")
    row, change_row = _type(root, "core_roll_module", "quizás", "quizás")
    with pytest.raises(CampaignError) as caught:
        pipeline.open_campaign(root)
    found = {(p.code, p.sheet, p.cell): p.message.render("es") for p in caught.value.problems.errors}
    assert set(found) == {("M05", "Parámetros", f"B{row}"), ("M11", "Tablas de reglas", f"D{change_row}")}
    for text in found.values():
        assert "se esperaba SÍ o NO (o VERDADERO o FALSO, 1 o 0), pero dice quizás" in text, text
