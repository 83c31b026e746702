"""Rulesets are plugins found through the entry-point group ``adjudicator.rulesets``.

The built-in rulesets register there exactly as a third party's would, so a ruleset installed from
another package appears in ``adjudicator rulesets`` with no change here. A plugin that cannot be
loaded, or whose object is not a :class:`Ruleset` named as its entry point, is set aside with the
reason (``adjudicator rulesets`` shows it) and never breaks the other rulesets.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from adjudicator.engine.ruleset import Ruleset

GROUP = "adjudicator.rulesets"


class UnknownRulesetError(ValueError):
    """Raised when no installed ruleset has the given name or alias."""


class InvalidRulesetError(TypeError):
    """Raised when an entry point of the group does not load a :class:`Ruleset` named as the entry point."""


@cache
def _load() -> tuple[dict[str, Ruleset], dict[str, str]]:
    found: dict[str, Ruleset] = {}
    broken: dict[str, str] = {}
    for point in entry_points(group=GROUP):
        try:
            obj = point.load()
            if isinstance(obj, type) and issubclass(obj, Ruleset):
                obj = obj()
            if not isinstance(obj, Ruleset):
                raise InvalidRulesetError(f"entry point {point.name!r} of {GROUP} is not a Ruleset: {obj!r}")
            if obj.name != point.name:
                raise InvalidRulesetError(f"entry point {point.name!r} loads the ruleset {obj.name!r}")
        except Exception as exc:  # noqa: BLE001 - a broken plugin is reported, not fatal
            broken[point.name] = f"{type(exc).__name__}: {exc}"
            continue
        found[obj.name] = obj
    return dict(sorted(found.items())), dict(sorted(broken.items()))


def installed() -> dict[str, Ruleset]:
    """The rulesets that loaded, by name."""
    return _load()[0]


def broken() -> dict[str, str]:
    """Entry points of the group that could not be loaded, with the reason."""
    return _load()[1]


def _key(name: str) -> str:
    return name.strip().casefold().replace("-", "_").replace(" ", "_")


def find_ruleset(name: str) -> Ruleset:
    wanted = _key(name)
    for ruleset in installed().values():
        if wanted == _key(ruleset.name) or wanted in {_key(alias) for alias in ruleset.aliases}:
            return ruleset
    if wanted in broken():
        raise UnknownRulesetError(f"ruleset {name!r} is installed but cannot be loaded: {broken()[wanted]}")
    raise UnknownRulesetError(f"unsupported ruleset: {name!r}")
