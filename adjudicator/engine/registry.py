"""Rulesets are plugins found through the entry-point group ``adjudicator.rulesets``.

The built-in rulesets register there exactly as a third party's would, so a ruleset installed from
another package appears in ``adjudicator rulesets`` with no change here. A plugin whose object is
not a :class:`Ruleset` is refused when the registry is built, not when a turn runs.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.metadata import entry_points

from adjudicator.engine.ruleset import Ruleset

GROUP = "adjudicator.rulesets"


class UnknownRulesetError(ValueError):
    """Raised when no installed ruleset has the given name or alias."""


class InvalidRulesetError(TypeError):
    """Raised when an entry point of the group does not load a :class:`Ruleset`."""


@lru_cache(maxsize=1)
def installed() -> dict[str, Ruleset]:
    found: dict[str, Ruleset] = {}
    for point in entry_points(group=GROUP):
        obj = point.load()
        if isinstance(obj, type) and issubclass(obj, Ruleset):
            obj = obj()
        if not isinstance(obj, Ruleset):
            raise InvalidRulesetError(f"entry point {point.name!r} of {GROUP} is not a Ruleset: {obj!r}")
        if obj.name != point.name:
            raise InvalidRulesetError(f"entry point {point.name!r} loads the ruleset {obj.name!r}")
        found[obj.name] = obj
    return dict(sorted(found.items()))


def find_ruleset(name: str) -> Ruleset:
    wanted = name.strip().casefold().replace("-", "_")
    for ruleset in installed().values():
        if wanted == ruleset.name or wanted in ruleset.aliases:
            return ruleset
    raise UnknownRulesetError(f"unsupported ruleset: {name!r}")
