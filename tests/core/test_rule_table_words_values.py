"""Every table, column and word value of the rulesets' rule tables in the GM's words, through
real workbooks: rows typed in any language, case, accents or look-alike letters are read as their codes, written
back in the campaign's words (again in another language when the GM changes it), and a value a column does not
take is M11 at its cell with the closest words."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from adjudicator.engine.rules_data import RULE_TABLES, rule_tables
from adjudicator.i18n import gettext_in
from adjudicator.paths import examples_root
from adjudicator.store.master import write_state
from adjudicator.turn import pipeline
from adjudicator.turn.pipeline import CampaignError

#: (table, row, column, value) as a GM types them → (path of keys, column): the value read.
GALACTIC_WAR: list[tuple[tuple[Any, ...], tuple[tuple[str, ...], str], Any]] = [
    (("ПОДРАЗДЕЛЕНИЯ", "эсминец", "класс", "Kорабль"), (("units", "DESTROYER"), "class"), "ship"),  # a Latin K
    (("Unidades", "Sol de guerra", "En juego", "sí"), (("units", "WAR_SUN"), "enabled"), True),
    (("units", "FIGHTER", "Movement rate", 1), (("units", "FIGHTER"), "move"), 1),
    (("подразделения", "Наземный отряд", "КЛАСС", "Estructura"), (("units", "GF"), "class"), "structure"),
    (("Unidades", "Transporte", "capacidad", 4), (("units", "TRANSPORT"), "capacity"), 4),
    (("Подразделения", "Линкор", "Вооружение", 4), (("units", "DREADNOUGHT"), "combat"), 4),
]
#: The same rows as campaign.xlsx shows them afterwards, in Russian and in Spanish.
GALACTIC_WAR_SHOWN = {
    "ru": [["Подразделения", "Эсминец", "Класс", "Корабль"], ["Подразделения", "Боевая звезда", "В игре", "ДА"],
           ["Подразделения", "Истребитель", "Движение", 1], ["Подразделения", "Наземный отряд", "Класс", "Сооружение"],
           ["Подразделения", "Транспорт", "Вместимость", 4], ["Подразделения", "Линкор", "Вооружение", 4]],
    "es": [["Unidades", "Destructor", "Clase", "Nave"], ["Unidades", "Sol de guerra", "En juego", "SI"],
           ["Unidades", "Caza", "Movimiento", 1], ["Unidades", "Fuerza terrestre", "Clase", "Estructura"],
           ["Unidades", "Transporte", "Capacidad", 4], ["Unidades", "Acorazado", "Valor de combate", 4]],
}
INNER_SPHERE: list[tuple[tuple[Any, ...], tuple[tuple[str, ...], str], Any]] = [
    (("Espionaje", "3-5", "alcance del informe", "INFORME BASICO"), (("espionage", "3-5"), "depth"), "basic"),
    (("Purga", "1-3", "descubre", "ничего"), (("purge", "1-3"), "finds"), "nothing"),
    (("Resultados de revuelta", "1", "Cambio de bando", "each on a roll"), (("revolt_outcomes", "1"), "defect"),
     "roll"),
    (("Regimientos", "Mechs Asalto", "tipo de factoria", "f. media"), (("regiments", "MA"), "factory"), "MEDIUM"),
    (("naves de salto", "NS3", "Vuelo seguro", 6), (("jumpships", "NS3"), "safe"), 6),
    (("Investigación", "Comunicaciones.4", "Dados de investigación de otras líneas", 2),
     (("research", "COMM", 3), "research"), 2),
    (("Agente doble", "Informe", "Factor máximo", "2,5"), (("double_agent", "report"), "high"), 2.5),
    (("Pan y circo", "10", "Solo por la fuerza de las armas", "no"), (("bread_and_circuses", "10"), "rises"), False),
    (("Operaciones de la agencia", "352 Pan y circo", "Revueltas", 150), (("agency", "352"), "revolt"), 150),
    (("Destino de los regimientos enviados", "2-3", "Destino", "Пропускает ход"), (("bread_fates", "2-3"), "fate"),
     "loses_turn"),
]
INNER_SPHERE_SHOWN = {
    "es": [["Espionaje", "3-5", "Alcance del informe", "Informe básico"], ["Purga", "1-3", "Descubre", "Nada"],
           ["Resultados de revuelta", "1", "Cambio de bando", "Cada uno según tirada"],
           ["Regimientos", "Mechs Asalto", "Tipo de factoría", "F. Media"],
           ["Naves de salto", "NS3", "Vuelo seguro", 6],
           ["Investigación", "Comunicaciones e Investigación.4", "Dados de investigación de otras líneas", 2],
           ["Agente doble", "Informe", "Factor máximo", 2.5],
           ["Pan y circo", "10", "Solo por la fuerza de las armas", "NO"],
           ["Operaciones de la agencia", "352 Pan y circo", "Revueltas", 150],
           ["Destino de los regimientos enviados", "2-3", "Destino", "Pierde el turno"]],
    "ru": [["Шпионаж", "3-5", "Полнота отчёта", "Базовый отчёт"], ["Чистка", "1-3", "Находит", "Ничего"],
           ["Исходы восстания", "1", "Переход полков", "Каждый по броску"],
           ["Полки", "Штурмовые мехи", "Минимальный завод", "Средний завод"],
           ["Прыжковые корабли", "NS3", "Безопасные гексы", 6],
           ["Исследования", "Связь и исследования.4", "Кубики других направлений", 2],
           ["Двойной агент", "Отчёт", "Наибольший множитель", 2.5],
           ["Хлеба и зрелищ", "10", "Только силой оружия", "НЕТ"],
           ["Операции агентства", "352 Хлеба и зрелищ", "Восстания", 150],
           ["Судьба направленных полков", "2-3", "Судьба", "Пропускает ход"]],
}
COORDINATED_ORDERS: list[tuple[tuple[Any, ...], tuple[tuple[str, ...], str], Any]] = [
    (("Habilidades", "Saltar (Habilidad Larga)", "forma", "habilidad corta básica"),
     (("skills", "JUMP_ENTIRE"), "form"), "SHORT_MOVEMENT"),
    (("способности", "Атака ДБ", "Атака", "ВЗЛOМ"), (("skills", "BS_ATTACK"), "attack"), "HACK"),  # a Latin O
    (("Skills", "Dodge", "Attribute", "wip"), (("skills", "DODGE"), "attribute"), "WIP"),
    (("habilidades", "activar un estado", "misma herramienta", "Programa de hacker"),
     (("skills", "STATE"), "compare_tool"), "PROGRAM"),
    (("Habilidades", "Médico", "familia", "Ataque CC"), (("skills", "DOCTOR"), "family"), "CC_ATTACK"),
    (("Habilidades", "Reset", "Revela un Marcador", "sí"), (("skills", "RESET"), "reveals"), True),
    (("skills", "MOVE", "family", "SALTAR"), (("skills", "MOVE"), "family"), "JUMP"),
]
COORDINATED_ORDERS_SHOWN = {
    "es": [["Habilidades", "Saltar (Habilidad Larga)", "Forma", "Habilidad Corta Básica"],
           ["Habilidades", "Ataque CD", "Ataque", "Hackeo"], ["Habilidades", "Esquivar", "Atributo", "VOL"],
           ["Habilidades", "Activar un Estado", "Misma herramienta", "Programa de Hacker"],
           ["Habilidades", "Médico", "Familia", "Ataque CC"], ["Habilidades", "Reset", "Revela un Marcador", "SI"],
           ["Habilidades", "Movimiento", "Familia", "Saltar"]],
    "ru": [["Способности", "Прыжок (весь приказ)", "Форма", "Короткое движение"],
           ["Способности", "Атака ДБ", "Атака", "Взлом"], ["Способности", "Уклонение", "Характеристика", "ВОЛ"],
           ["Способности", "Активировать состояние", "Тот же инструмент", "Программа взлома"],
           ["Способности", "Врач", "Семейство", "Атака ББ"], ["Способности", "Сброс", "Раскрывает маркер", "ДА"],
           ["Способности", "Движение", "Семейство", "Прыжок"]],
}
CASES = [("galactic_war", "ru", GALACTIC_WAR, GALACTIC_WAR_SHOWN, "es"),
         ("inner_sphere", "es", INNER_SPHERE, INNER_SPHERE_SHOWN, "ru"),
         ("coordinated_orders", "es", COORDINATED_ORDERS, COORDINATED_ORDERS_SHOWN, "ru")]


def _example(tmp_path: Path, name: str, rows: list[tuple[Any, ...]]) -> tuple[Path, int]:
    """A copy of the example whose Rule tables sheet holds ``rows`` after its own; the first new row's number."""
    root = tmp_path / name
    shutil.copytree(examples_root() / name, root)
    book = openpyxl.load_workbook(root / "campaign.xlsx")
    sheet = next(ws for ws in book.worksheets if ws.title in {gettext_in(lang, RULE_TABLES.title)
                                                              for lang in ("en", "es", "ru")})
    first = sheet.max_row + 1
    for row in rows:
        sheet.append(list(row))
    book.save(root / "campaign.xlsx")
    return root, first


def _cell(tables: dict[str, Any], path: tuple[Any, ...], column: str) -> Any:
    node: Any = tables
    for part in path:
        node = node[part]
    return node[column]


def _sheet_rows(path: Path, lang: str) -> list[list[Any]]:
    book = openpyxl.load_workbook(path)
    return [list(r) for r in book[gettext_in(lang, RULE_TABLES.title)].iter_rows(min_row=2, values_only=True)]


@pytest.mark.parametrize(("name", "lang", "typed", "shown", "other"), CASES, ids=[c[0] for c in CASES])
def test_every_spelling_reads_as_the_code_and_is_written_back_in_the_campaigns_words(
        tmp_path: Path, name: str, lang: str, typed: list[Any], shown: dict[str, list[list[Any]]],
        other: str) -> None:
    root, first = _example(tmp_path, name, [row for row, _, _ in typed])
    _, campaign, ruleset = pipeline.open_campaign(root)
    assert campaign.language == lang
    tables = rule_tables(ruleset.data_package, campaign.tables[RULE_TABLES.key])
    assert [_cell(tables, *place) for _, place, _ in typed] == [value for _, _, value in typed]

    master = root / "campaign.xlsx"
    for written in (lang, other):  # the campaign's words, then the GM changes its language
        book = openpyxl.load_workbook(master)
        write_state(book, ruleset, dataclasses.replace(campaign, language=written), campaign.tables, campaign.turn)
        book.save(master)
        assert _sheet_rows(master, written)[first - 2:] == shown[written]
        _, again, _ = pipeline.open_campaign(root)  # and the words written read back as the same codes
        tables = rule_tables(ruleset.data_package, again.tables[RULE_TABLES.key])
        assert [_cell(tables, *place) for _, place, _ in typed] == [value for _, _, value in typed]


@pytest.mark.parametrize(("name", "row", "near"), [
    ("galactic_war", ("Подразделения", "Крейсер", "Класс", "Корабел"), "Корабль"),
    ("inner_sphere", ("Espionaje", "1-2", "Alcance del informe", "Informe complto"), "Informe completo"),
    ("coordinated_orders", ("Habilidades", "Esquivar", "Forma", "Habilidad Cort"), "Habilidad Corta"),
])
def test_a_value_the_column_does_not_take_is_m11_at_its_cell_with_the_closest_words(
        tmp_path: Path, name: str, row: tuple[str, ...], near: str) -> None:
    root, first = _example(tmp_path, name, [row])
    with pytest.raises(CampaignError) as caught:
        pipeline.open_campaign(root)
    [problem] = caught.value.problems.errors
    lang = "ru" if name == "galactic_war" else "es"
    assert (problem.code, problem.cell) == ("M11", f"D{first}")
    assert row[-1] in problem.message.render(lang) and row[1] in problem.message.render(lang)
    assert near in problem.hint.render(lang)


@pytest.mark.parametrize("name", ["galactic_war", "inner_sphere", "coordinated_orders"])
def test_the_rulesets_docs_list_every_word_of_its_rule_tables(name: str) -> None:
    """Where the GM looks for them: each key and word value, with its words in the three languages."""
    from adjudicator.engine.registry import installed
    from adjudicator.i18n import ruleset_catalog

    ruleset = installed()[name]
    docs = Path(__file__).resolve().parents[2] / "docs" / "rulesets" / f"{name}.md"
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in docs.read_text(encoding="utf-8").splitlines() if line.startswith("| ")]

    def words(msgid: str) -> set[str]:
        with ruleset_catalog(ruleset.locale()):
            return {gettext_in(lang, msgid) for lang in ("en", "es", "ru")}

    wanted = [((f"`{key}`",), msgid) for key, msgid in ruleset.rule_table_words.items()]
    wanted += [((column, f"`{code}`"), msgid) for column, codes in ruleset.rule_table_values.items()
               for code, msgid in codes.items()]
    for marks, msgid in wanted:
        found = [set(row[1:]) for row in rows if all(mark in row[0] for mark in marks)]
        assert words(msgid) in found, (marks, words(msgid))
