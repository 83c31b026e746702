"""Numbers and switches from the rules, as data: defaults from a ruleset's TOML file, overridden by
the GM in the campaign's Parameters sheet."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import Any

from adjudicator.engine.values import ValueTypeError, read_value
from adjudicator.i18n import msg


class ParameterError(ValueTypeError):
    """Raised when a GM's override does not fit the parameter it overrides (``reason``: translatable)."""


@dataclass(frozen=True)
class Parameter:
    key: str
    default: Any
    description: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None

    def coerce(self, value: Any) -> Any:
        """The GM's value in the parameter's type (read as :func:`adjudicator.engine.values.read_value` reads
        every value of campaign.xlsx), or :class:`ParameterError`."""
        if isinstance(self.default, dict):
            return parse_table(value)
        try:
            return read_value(self.default, value, minimum=self.minimum, maximum=self.maximum,
                              choices=self.choices)
        except ValueTypeError as error:
            raise ParameterError(error.reason) from None

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
            raise ParameterError(msg("expected pairs like 3:10, 5:25, got {value}", value=text)) from None
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
                raise ParameterError(msg("unknown parameter {key}", key=key))
            if value is None or str(value).strip() == "":
                continue
            values[key] = self.parameters[key].coerce(value)
        return values
