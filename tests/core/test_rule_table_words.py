"""The Rule tables sheet in the campaign's words: the committed examples show their rows as the dropdowns name
them (a Russian Крейсер, a Spanish F. Ligera), and a campaign reads them back, or any other spelling, as the code."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from adjudicator.engine.rule_table_words import package_words
from adjudicator.engine.rules_data import RuleTableError, default_tables, find_place, rule_tables
from adjudicator.paths import examples_root
from adjudicator.turn import pipeline

EXAMPLES = [("galactic_war", "Таблицы правил", ["Подразделения", "Крейсер", "Вооружение", 7],
             ("units", "CRUISER", "combat"), 7),
            ("inner_sphere", "Tablas de reglas", ["Factorías", "F. Ligera", "Ingresos", 50],
             ("factories", "LIGHT", "income"), 50)]


@pytest.mark.parametrize(("name", "sheet", "shown", "place", "value"), EXAMPLES)
def test_the_examples_rule_tables_are_in_the_readers_words_and_read_back(
        tmp_path: Path, name: str, sheet: str, shown: list[object], place: tuple[str, str, str], value: int) -> None:
    root = tmp_path / name
    shutil.copytree(examples_root() / name, root)
    book = openpyxl.load_workbook(root / "campaign.xlsx")
    assert [c.value for c in book[sheet][2]] == shown
    book[sheet]["D2"] = value + 1  # the GM changes the value of the row as the sheet shows it
    book.save(root / "campaign.xlsx")
    _, campaign, ruleset = pipeline.open_campaign(root)
    table, row, column = place
    tables = rule_tables(ruleset.data_package, campaign.tables["rule_tables"])
    assert tables[table][row][column] == value + 1


@pytest.mark.parametrize(("package", "typed", "meant"), [
    ("galactic_war", ("units", "крейсер", "combat"), ("units", ["CRUISER"], "combat")),
    ("galactic_war", ("UNITS", "Cruiser", " Combat "), ("units", ["CRUISER"], "combat")),
    ("galactic_war", ("units", "Sol de guerra", "cost"), ("units", ["WAR_SUN"], "cost")),
    ("galactic_war", ("Подразделения", "Крейсер", "вооружение"), ("units", ["CRUISER"], "combat")),
    ("galactic_war", ("UNIDADES", "Crucero", "valor de combate"), ("units", ["CRUISER"], "combat")),
    ("galactic_war", ("Подpазделения", "Транспорт", "Вместимость"), ("units", ["TRANSPORT"], "capacity")),  # Latin p
    ("inner_sphere", ("Factorías", "F. Ligera", "Ingresos"), ("factories", ["LIGHT"], "income")),
    ("inner_sphere", ("Заводы", "Лёгкий завод", "доход"), ("factories", ["LIGHT"], "income")),
    ("inner_sphere", ("Investigacion", "Economía.1", "Ingresos, %"), ("research", ["ECO", "1"], "income_pct")),
    ("inner_sphere", ("Investigación", "Comunicaciones.3", "Comandos al sabotear"), ("research", ["COMM", "3"],
                                                                                      "sabotage")),
    ("inner_sphere", ("Sabotaje", "Límites", "Dados de parada (d4)"), ("sabotage", ["limits"], "halt_dice")),
    ("inner_sphere", ("Revuelta", "tirada", "Cambia de bando desde"), ("revolt", ["roll"], "defects_from")),
    ("inner_sphere", ("factories", "f ligera", "income"), ("factories", ["LIGHT"], "income")),
    ("inner_sphere", ("research", "Aeroespacial.2", "points"), ("research", ["AERO", "2"], "points")),
    ("inner_sphere", ("regiments", "Vehiculos Ligero", "upkeep"), ("regiments", ["VL"], "upkeep")),
    ("inner_sphere", ("agency", 341.0, "cost"), ("agency", ["341"], "cost")),
    ("coordinated_orders", ("Способности", "Mover", "roll"), ("skills", ["MOVE"], "roll")),
])
def test_every_spelling_of_a_name_reads_as_its_code(package: str, typed: tuple[object, ...],
                                                     meant: tuple[str, list[str], str]) -> None:
    full = f"adjudicator.rulesets.{package}"
    found = find_place(default_tables(full), dict(zip(("table", "row", "column"), typed, strict=True)),
                       package_words(full))
    assert (found.table, found.row, found.column) == meant


def test_an_unknown_row_names_the_closest_in_the_readers_words() -> None:
    full = "adjudicator.rulesets.galactic_war"
    with pytest.raises(RuleTableError) as caught:
        find_place(default_tables(full), {"table": "units", "row": "Крейсор", "column": "combat"}, package_words(full))
    assert caught.value.column == "row"
    assert caught.value.hint is not None and "Крейсер" in caught.value.hint.render("ru")
