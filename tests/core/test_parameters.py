"""adjudicator.engine.parameters: rule parameters from TOML, overridden by the GM."""

from __future__ import annotations

import math
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import adjudicator
from adjudicator.engine.parameters import Parameter, ParameterError, ParameterTable, parse_table


@pytest.fixture(scope="module")
def table() -> ParameterTable:
    source = resources.files("adjudicator") / "rulesets" / "star_sectors" / "parameters.toml"
    return ParameterTable.from_toml(source)


# --- loading --------------------------------------------------------------------------------------


def test_star_sectors_parameters_load(table: ParameterTable) -> None:
    defaults = table.defaults()
    assert defaults["control_threshold"] == 50 and type(defaults["control_threshold"]) is int
    assert defaults["theft_fraction"] == 0.5 and type(defaults["theft_fraction"]) is float
    assert defaults["loser_factor"] == 1.0 and type(defaults["loser_factor"]) is float
    assert defaults["origin_must_be_fc"] is True
    assert defaults["allow_retreat_from_contested"] is False
    assert defaults["build_rule"] == "FC"
    assert defaults["income_bonus_table"] == {}
    control = table.parameters["control_threshold"]
    assert control.minimum == 1 and control.maximum is None
    assert control.description
    assert table.parameters["theft_fraction"].maximum == 10
    assert table.parameters["build_rule"].choices == ("FC", "OWN_STACK", "GM_LIST")


def test_parameters_keep_the_order_of_the_file(table: ParameterTable) -> None:
    keys = list(table.parameters)
    assert keys[0] == "control_threshold"
    assert keys[-1] == "income_bonus_table"
    assert keys.index("build_rule") < keys.index("build_timing") < keys.index("research_deadline")


def test_from_toml_accepts_a_path() -> None:
    path = Path(adjudicator.__file__).parent / "rulesets" / "star_sectors" / "parameters.toml"
    assert ParameterTable.from_toml(path).defaults()["control_threshold"] == 50  # type: ignore[arg-type]


def test_from_toml_reads_a_table_default(tmp_path: Path) -> None:
    source = tmp_path / "parameters.toml"
    source.write_text(
        '[bonus]\ndefault = { "3" = 10, "5" = 25 }\n\n[speed]\ndefault = 2\nmin = 1\nmax = 4\n',
        encoding="utf-8",
    )
    loaded = ParameterTable.from_toml(source)  # type: ignore[arg-type]
    assert loaded.defaults() == {"bonus": {3: 10, 5: 25}, "speed": 2}
    assert loaded.parameters["speed"].description == ""
    assert (loaded.parameters["speed"].minimum, loaded.parameters["speed"].maximum) == (1, 4)


# --- resolve --------------------------------------------------------------------------------------


def test_resolve_without_overrides_gives_the_defaults(table: ParameterTable) -> None:
    assert table.resolve({}) == table.defaults()


def test_resolve_applies_overrides_and_ignores_blanks(table: ParameterTable) -> None:
    values = table.resolve(
        {"control_threshold": "60", "build_rule": "own_stack", "feasibility_fee": None, "max_steps": "  "}
    )
    assert values["control_threshold"] == 60
    assert values["build_rule"] == "OWN_STACK"
    assert values["feasibility_fee"] == 10
    assert values["max_steps"] == 1
    assert table.defaults()["control_threshold"] == 50  # the defaults are not changed


def test_unknown_parameter_key_raises(table: ParameterTable) -> None:
    with pytest.raises(ParameterError, match="no_such_parameter"):
        table.resolve({"no_such_parameter": 3})
    with pytest.raises(ParameterError):
        table.resolve({"no_such_parameter": None})  # even when blank


def test_bad_override_raises(table: ParameterTable) -> None:
    with pytest.raises(ParameterError):
        table.resolve({"control_threshold": "fifty"})


def test_parameter_error_is_a_value_error() -> None:
    assert issubclass(ParameterError, ValueError)


# --- booleans -------------------------------------------------------------------------------------

SWITCH = Parameter("switch", True, "")


@pytest.mark.parametrize(
    "word",
    [
        "TRUE",
        "true",
        " True ",
        "yes",
        "YES",
        "1",
        "1.0",
        1,
        1.0,
        True,
        "да",
        "ДА",
        "sí",
        "SÍ",
        "si",
        "verdadero",
    ],
)
def test_bool_words_for_true(word: Any) -> None:
    assert Parameter("switch", False, "").coerce(word) is True


@pytest.mark.parametrize(
    "word",
    ["FALSE", "false", "False", "no", "NO", "0", "0.0", 0, 0.0, False, "нет", "НЕТ", "falso"],
)
def test_bool_words_for_false(word: Any) -> None:
    assert SWITCH.coerce(word) is False


@pytest.mark.parametrize("word", ["maybe", "2", "t", "", "truth", "-1"])
def test_bool_rejects_other_words(word: Any) -> None:
    with pytest.raises(ParameterError):
        SWITCH.coerce(word)


def test_bool_parameter_from_the_file(table: ParameterTable) -> None:
    values = table.resolve({"origin_must_be_fc": "false", "allow_retreat_from_contested": "Да"})
    assert values["origin_must_be_fc"] is False
    assert values["allow_retreat_from_contested"] is True


# --- numbers --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"), [("60", 60), (60, 60), (60.0, 60), ("60.0", 60), ("60,0", 60), (" 7 ", 7)]
)
def test_int_accepts_whole_numbers(table: ParameterTable, value: Any, expected: int) -> None:
    result = table.parameters["control_threshold"].coerce(value)
    assert result == expected and type(result) is int


@pytest.mark.parametrize("value", ["2.5", 2.5, "2,5", "50.1"])
def test_int_refuses_decimals(table: ParameterTable, value: Any) -> None:
    with pytest.raises(ParameterError):
        table.parameters["control_threshold"].coerce(value)


@pytest.mark.parametrize("value", ["fifty", "", "50R", "1:2"])
def test_number_refuses_text(table: ParameterTable, value: Any) -> None:
    with pytest.raises(ParameterError):
        table.parameters["control_threshold"].coerce(value)


def test_minimum_is_enforced(table: ParameterTable) -> None:
    control = table.parameters["control_threshold"]  # min = 1
    assert control.coerce("1") == 1
    for value in ("0", "-5", 0):
        with pytest.raises(ParameterError):
            control.coerce(value)
    fee = table.parameters["feasibility_fee"]  # min = 0
    assert fee.coerce("0") == 0
    with pytest.raises(ParameterError):
        fee.coerce("-1")


def test_maximum_is_enforced(table: ParameterTable) -> None:
    theft = table.parameters["theft_fraction"]  # min = 0, max = 10
    assert theft.coerce("10") == 10.0
    with pytest.raises(ParameterError):
        theft.coerce("10.5")
    with pytest.raises(ParameterError):
        theft.coerce("-0.1")


@pytest.mark.parametrize(("value", "expected"), [("0,75", 0.75), ("0.75", 0.75), (2, 2.0), ("3", 3.0)])
def test_float_accepts_decimals_with_comma_or_point(
    table: ParameterTable, value: Any, expected: float
) -> None:
    result = table.parameters["winner_factor"].coerce(value)
    assert result == expected and isinstance(result, float)


@pytest.mark.parametrize("value", ["nan", "inf"])
def test_float_refuses_nan_and_infinity(table: ParameterTable, value: str) -> None:
    try:
        result = table.parameters["winner_factor"].coerce(value)
    except ParameterError:
        return
    assert math.isfinite(result), result


# --- choices --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("FC", "FC"),
        ("fc", "FC"),
        (" Fc ", "FC"),
        ("own_stack", "OWN_STACK"),
        ("Own Stack", "OWN_STACK"),
        ("gm_list", "GM_LIST"),
    ],
)
def test_choices_match_case_insensitively(table: ParameterTable, value: str, expected: str) -> None:
    assert table.parameters["build_rule"].coerce(value) == expected


@pytest.mark.parametrize("value", ["ANYWHERE", "F C", "own", ""])
def test_choices_refuse_other_words(table: ParameterTable, value: str) -> None:
    with pytest.raises(ParameterError):
        table.parameters["build_rule"].coerce(value)


def test_text_without_choices_is_stripped() -> None:
    assert Parameter("title", "x", "").coerce("  My campaign ") == "My campaign"


# --- income tables --------------------------------------------------------------------------------


def test_income_table_parses() -> None:
    assert parse_table("3:10, 5:25") == {3: 10, 5: 25}
    assert parse_table("3:10;5:25") == {3: 10, 5: 25}
    assert parse_table(" 3 : 10 ,5:25, ") == {3: 10, 5: 25}
    assert parse_table("") == {}
    assert parse_table(None) == {}
    assert parse_table("   ") == {}


@pytest.mark.parametrize("value", ["3-10", "3:10, 5", "3:ten", "3:10:5", "three:10", "3.5:10", "3:10, :5"])
def test_malformed_income_table_raises(value: str) -> None:
    with pytest.raises(ParameterError):
        parse_table(value)


def test_income_table_parameter(table: ParameterTable) -> None:
    bonus = table.parameters["income_bonus_table"]
    assert bonus.coerce("3:10, 5:25") == {3: 10, 5: 25}
    with pytest.raises(ParameterError):
        bonus.coerce("3 squares: 10R")
    assert table.resolve({"income_bonus_table": "4:15"})["income_bonus_table"] == {4: 15}
    assert bonus.show({5: 25, 3: 10}) == "3:10, 5:25"
    assert bonus.show(7) == 7
