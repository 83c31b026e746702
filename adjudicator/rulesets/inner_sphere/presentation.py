"""How the order workbook of Inner Sphere looks: dropdowns of the state's own systems, ships and damaged
assets, and the cost preview (formulas) of ``template.py``."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.presentation import Presentation
from adjudicator.engine.ruleset import Campaign
from adjudicator.rulesets.inner_sphere.state import start_world


class InnerSpherePresentation(Presentation):
    def choice_lists(self, campaign: Campaign, faction: str, lang: str) -> dict[str, list[str]]:
        world = start_world(campaign.tables)  # read only
        own = sorted(h for h, s in world.systems.items() if s.owner == faction)
        ships = sorted(s.id for s in world.jumpships.values() if s.owner == faction)
        damaged = sorted(r.id for r in world.regiments.values() if r.owner == faction and r.damaged)
        broken = sorted({f.system for f in world.factories.values() if f.damaged and world.owner(f.system) == faction})
        return {"target": damaged + broken, "system": own, "ship": ships}

    def decorate_template(self, wb: Any, campaign: Campaign, faction: str) -> None:
        """Add the cost preview (formulas) to an order workbook built by the core."""
        from adjudicator.rulesets.inner_sphere.template import decorate

        decorate(wb, campaign, faction)
