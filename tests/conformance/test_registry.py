"""Rulesets are found by name or alias through the entry-point group; a broken plugin is set aside."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from adjudicator.engine import registry


def test_find_by_name_and_alias() -> None:
    assert registry.find_ruleset("star_sectors").name == "star_sectors"
    assert registry.find_ruleset("Star-Sectors").name == "star_sectors"
    with pytest.raises(registry.UnknownRulesetError, match="unsupported ruleset: 'chess'"):
        registry.find_ruleset("chess")


def test_a_broken_plugin_is_reported_and_the_others_still_load(monkeypatch: pytest.MonkeyPatch) -> None:
    points = [
        EntryPoint("star_sectors", "adjudicator.rulesets.star_sectors:ruleset", registry.GROUP),
        EntryPoint("missing", "no_such_package.rules:ruleset", registry.GROUP),
        EntryPoint("not_a_ruleset", "adjudicator.i18n:LANGUAGES", registry.GROUP),
        EntryPoint("misnamed", "adjudicator.rulesets.star_sectors:ruleset", registry.GROUP),
    ]
    monkeypatch.setattr(registry, "entry_points", lambda group: points)
    registry._load.cache_clear()
    try:
        assert list(registry.installed()) == ["star_sectors"]
        reasons = registry.broken()
        assert set(reasons) == {"missing", "not_a_ruleset", "misnamed"}
        assert "ModuleNotFoundError" in reasons["missing"]
        assert "not a Ruleset" in reasons["not_a_ruleset"]
        assert "loads the ruleset 'star_sectors'" in reasons["misnamed"]
        with pytest.raises(registry.UnknownRulesetError, match="cannot be loaded"):
            registry.find_ruleset("missing")
    finally:
        registry._load.cache_clear()
