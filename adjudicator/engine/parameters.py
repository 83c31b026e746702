"""Numbers and switches from the rules, as data: defaults from a ruleset's TOML file, overridden by
the GM in the campaign's Parameters sheet."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import Any

from adjudicator.i18n import fold


class ParameterError(ValueError):
    """Raised when a GM's override does not fit the parameter it overrides."""


@dataclass(frozen=True)
class Parameter:
    key: str
    default: Any
    description: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None

    def coerce(self, value: Any) -> Any:
        """The GM's value in the parameter's type, or :class:`ParameterError`."""
        default = self.default
        if isinstance(default, bool):
            word = fold(value)
            if isinstance(value, bool):
                return value
            if word in {"true", "yes", "1", "si", "да", "verdadero", "1.0"}:
                return True
            if word in {"false", "no", "0", "нет", "falso", "0.0"}:
                return False
            raise ParameterError(f"expected TRUE or FALSE, got {value!r}")
        if isinstance(default, (int, float)) and not isinstance(default, bool):
            try:
                number = float(str(value).replace(",", "."))
            except ValueError:
                raise ParameterError(f"expected a number, got {value!r}") from None
            if not math.isfinite(number):
                raise ParameterError(f"expected a number, got {value!r}")
            if isinstance(default, int):
                if not number.is_integer():
                    raise ParameterError(f"expected a whole number, got {value!r}")
                number = int(number)
            if self.minimum is not None and number < self.minimum:
                raise ParameterError(f"expected at least {self.minimum}, got {value!r}")
            if self.maximum is not None and number > self.maximum:
                raise ParameterError(f"expected at most {self.maximum}, got {value!r}")
            return number
        if isinstance(default, dict):
            return parse_table(value)
        text = str(value).strip()
        if self.choices:
            for choice in self.choices:
                if fold(choice) == fold(text):
                    return choice
            raise ParameterError(f"expected one of {', '.join(self.choices)}, got {value!r}")
        return text

    def show(self, value: Any) -> Any:
        if isinstance(value, dict):
            return ", ".join(f"{k}:{v}" for k, v in sorted(value.items()))
        return value


def parse_table(value: Any) -> dict[int, int]:
    """``"3:10, 5:25"`` → ``{3: 10, 5: 25}``; blank → ``{}``."""
    text = str(value or "").strip()
    if not text:
        return {}
    table: dict[int, int] = {}
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        try:
            key, amount = part.split(":")
            table[int(key)] = int(amount)
        except ValueError:
            raise ParameterError(f"expected pairs like 3:10, 5:25, got {value!r}") from None
    return table


class ParameterTable:
    """The parameters of a ruleset, in the order of its data file."""

    def __init__(self, parameters: list[Parameter]) -> None:
        self.parameters = {p.key: p for p in parameters}

    @classmethod
    def from_toml(cls, source: Traversable) -> ParameterTable:
        data = tomllib.loads(source.read_text(encoding="utf-8"))
        items = []
        for key, spec in data.items():
            default = spec["default"]
            if isinstance(default, dict):
                default = {int(k): int(v) for k, v in default.items()}
            items.append(
                Parameter(
                    key,
                    default,
                    spec.get("description", ""),
                    tuple(spec.get("choices", ())),
                    spec.get("min"),
                    spec.get("max"),
                )
            )
        return cls(items)

    def defaults(self) -> dict[str, Any]:
        return {key: p.default for key, p in self.parameters.items()}

    def resolve(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults with the GM's overrides applied; raises :class:`ParameterError` naming the key."""
        values = self.defaults()
        for key, value in overrides.items():
            if key not in self.parameters:
                raise ParameterError(f"unknown parameter {key!r}")
            if value is None or str(value).strip() == "":
                continue
            values[key] = self.parameters[key].coerce(value)
        return values
