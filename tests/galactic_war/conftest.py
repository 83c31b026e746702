"""Every galactic_war test checks the galaxy's lookups as it goes: each lookup of units by system or by carrier
is compared with a scan of every unit, and the books' balances with a count of every account
(``World.verify_lookups``), so that a change of a unit made without the world's methods fails a test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from adjudicator.rulesets.galactic_war.state import World


@pytest.fixture(autouse=True)
def verified_lookups() -> Iterator[None]:
    World.verify_lookups = True
    try:
        yield
    finally:
        World.verify_lookups = False
