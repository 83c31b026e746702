"""Rulesets are plugins found through the entry-point group ``adjudicator.rulesets``.

The built-in rulesets register there exactly as a third party's would, so a ruleset installed from
another package appears in ``adjudicator rulesets`` with no change here. A plugin that cannot be
loaded, or whose object is not a :class:`Ruleset` named as its entry point, is set aside with the
reason (``adjudicator rulesets`` shows it) and never breaks the other rulesets.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points

from adjudicator.engine.ruleset import Ruleset
from adjudicator.quiet_collector import collector_paused

GROUP = "adjudicator.rulesets"


class UnknownRulesetError(ValueError):
    """Raised when no installed ruleset has the given name or alias."""


class InvalidRulesetError(TypeError):
    """Raised when an entry point of the group does not load a :class:`Ruleset` named as the entry point."""


@cache
def _points() -> dict[str, EntryPoint]:
    """The group's entry points by name (metadata only: nothing is imported)."""
    return {point.name: point for point in entry_points(group=GROUP)}


#: The rulesets loaded so far, by entry point (see :func:`loaded`).
_LOADED: dict[str, Ruleset] = {}


@cache
def _load_one(name: str) -> Ruleset | str:
    """The ruleset of one entry point, or why it cannot be loaded (only its own modules are imported)."""
    point = _points()[name]
    try:
        with collector_paused():  # a ruleset's modules: see adjudicator/quiet_collector.py
            obj = point.load()
        if isinstance(obj, type) and issubclass(obj, Ruleset):
            obj = obj()
        if not isinstance(obj, Ruleset):
            raise InvalidRulesetError(f"entry point {point.name!r} of {GROUP} is not a Ruleset: {obj!r}")
        if obj.name != point.name:
            raise InvalidRulesetError(f"entry point {point.name!r} loads the ruleset {obj.name!r}")
    except Exception as exc:  # noqa: BLE001 - a broken plugin is reported, not fatal
        return f"{type(exc).__name__}: {exc}"
    _LOADED[name] = obj
    return obj


@cache
def _load() -> tuple[dict[str, Ruleset], dict[str, str]]:
    found: dict[str, Ruleset] = {}
    failed: dict[str, str] = {}
    for name in _points():
        loaded = _load_one(name)
        if isinstance(loaded, Ruleset):
            found[loaded.name] = loaded
        else:
            failed[name] = loaded
    return dict(sorted(found.items())), dict(sorted(failed.items()))


_forget_loaded = _load.cache_clear


def _forget() -> None:
    """Forget the entry points and every ruleset loaded (tests swap the entry points)."""
    _points.cache_clear()
    _load_one.cache_clear()
    _LOADED.clear()
    _forget_loaded()


_load.cache_clear = _forget  # type: ignore[method-assign]


def installed() -> dict[str, Ruleset]:
    """The rulesets that loaded, by name (every plugin is imported)."""
    return _load()[0]


def loaded() -> list[Ruleset]:
    """The rulesets loaded so far (by :func:`find_ruleset` or :func:`installed`), none imported for this: a
    question about the campaign's own ruleset is answered without importing the others."""
    return list(_LOADED.values())


def broken() -> dict[str, str]:
    """Entry points of the group that could not be loaded, with the reason."""
    return _load()[1]


def _key(name: str) -> str:
    return name.strip().casefold().replace("-", "_").replace(" ", "_")


def find_ruleset(name: str) -> Ruleset:
    """The ruleset of that name or alias. A name that is an entry point's loads that plugin alone (a
    campaign's check imports only its own ruleset); an alias needs every plugin loaded to be found."""
    wanted = _key(name)
    for point_name in _points():
        if _key(point_name) == wanted:
            loaded = _load_one(point_name)
            if isinstance(loaded, Ruleset):
                return loaded
            raise UnknownRulesetError(f"ruleset {name!r} is installed but cannot be loaded: {loaded}")
    for ruleset in installed().values():
        if wanted == _key(ruleset.name) or wanted in {_key(alias) for alias in ruleset.aliases}:
            return ruleset
    if wanted in broken():
        raise UnknownRulesetError(f"ruleset {name!r} is installed but cannot be loaded: {broken()[wanted]}")
    raise UnknownRulesetError(f"unsupported ruleset: {name!r}")
