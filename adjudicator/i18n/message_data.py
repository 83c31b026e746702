"""Messages as plain data (JSON), so that a text written in one language can be written again in another:
campaign.xlsx keeps its Ledger lines so, and rewrites them wholly when the GM changes the campaign's language."""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from adjudicator.i18n import Joined, Msg, Words


@dataclass(frozen=True)
class InLanguages:
    """A value already rendered by the code that made it, kept in every language: ``((lang, value), ...)``."""

    values: tuple[tuple[str, Any], ...]

    def render(self, lang: str = "en") -> Any:
        found = dict(self.values)
        return found.get(lang, found.get("en"))

    def __str__(self) -> str:
        return str(self.render("en"))


#: The types that are JSON-ready as they are (most of a table's cells): told apart by the type itself, first.
_PLAIN = frozenset({str, int, float, bool, type(None)})


def to_data(value: Any) -> Any:
    """``value`` (a :class:`Msg`, :class:`Words`, :class:`Joined`, a list, a number or text) as JSON-ready data;
    anything else as its English text."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is list or kind is tuple:
        return [v if type(v) in _PLAIN else to_data(v) for v in value]
    if isinstance(value, Msg):
        data: dict[str, Any] = {"msg": value.text, "params": {k: to_data(v) for k, v in value.params.items()}}
        if value.plural is not None:
            data.update(plural=value.plural, n=value.n)
        return data
    if isinstance(value, Words):
        return {"words": list(value.words), "separator": value.separator}
    if isinstance(value, Joined):
        return {"joined": [to_data(p) for p in value.parts], "separator": value.separator}
    if isinstance(value, Decimal):
        return {"decimal": str(value)}
    if isinstance(value, InLanguages):
        return {"languages": {lang: to_data(v) for lang, v in value.values}}
    if isinstance(value, dict):
        return {"dict": {str(k): to_data(v) for k, v in value.items()}}
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def reads_back(value: Any) -> bool:
    """Whether ``value`` read back from :func:`to_data` is the same value (and so renders the same in every
    language): plain values, and messages, words and joined parts made of them. A list (read back as a list
    where a tuple was), an :class:`InLanguages` or any other type is not."""
    kind = type(value)
    if kind in _PLAIN or kind is Decimal or kind is Words:
        return True
    if kind is Msg:
        return all(reads_back(v) for v in value.params.values())
    if kind is Joined:
        return all(reads_back(part) for part in value.parts)
    return False


def from_data(data: Any) -> Any:
    """The inverse of :func:`to_data`."""
    if isinstance(data, list):
        return [from_data(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "msg" in data:
        return Msg(str(data["msg"]), {k: from_data(v) for k, v in dict(data.get("params") or {}).items()},
                   plural=data.get("plural"), n=data.get("n"))
    if "words" in data:
        return Words(tuple(map(str, data["words"])), str(data.get("separator", ", ")))
    if "joined" in data:
        return Joined(tuple(from_data(p) for p in data["joined"]), str(data.get("separator", "; ")))
    if "decimal" in data:
        return Decimal(str(data["decimal"]))
    if "languages" in data:
        return InLanguages(tuple((str(k), from_data(v)) for k, v in sorted(dict(data["languages"]).items())))
    if "dict" in data:
        return {k: from_data(v) for k, v in dict(data["dict"]).items()}
    return data


def dumps(value: Any) -> str:
    return json.dumps(to_data(value), ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def loads(text: str) -> Any:
    return from_data(json.loads(text))
