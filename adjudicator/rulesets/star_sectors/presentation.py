"""How the order workbook of Star Sectors looks: example rows on the faction's own squares, the dropdowns, the
budget block with the cost of each row, and the price of each theft for the cost column's formula."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.presentation import Presentation
from adjudicator.engine.ruleset import Campaign
from adjudicator.i18n import msg
from adjudicator.rulesets.star_sectors.dropdowns import fleet_squares, square_lists
from adjudicator.rulesets.star_sectors.orders import theft
from adjudicator.rulesets.star_sectors.state import snapshot_of


class StarSectorsPresentation(Presentation):
    def example_rows(self, campaign: Campaign, faction: str) -> dict[str, list[dict[str, Any]]]:
        """One example per order type, on the faction's own squares where it has some: a square it holds alone
        where there is one (a fleet may leave it, R may be invested in it), one it fully controls first."""
        world = snapshot_of(campaign.tables)
        own = sorted(fleet_squares(world).get(faction, ())) or sorted(world.squares)[:1]
        alone = [s for s in own if s in world.squares and set(world.present(s)) <= {faction}]
        controlled = [s for s in alone if world.fully_controls(faction, s, campaign.parameters["fc_threshold"])]
        home = next(iter(controlled + alone + own), "A1")
        near = sorted(world.neighbours(home)) if home in world.squares else []
        project = next((p.id for p in world.projects.values() if p.faction == faction and p.status == "FEASIBLE"),
                       f"{faction}-T01-1")
        others = sorted(f for f in campaign.factions if f != faction)
        seen = sorted({(u.project, u.faction) for u in world.usages if u.faction != faction})
        stolen, victim = seen[0] if seen else (f"{others[0]}-T01-1" if others else "", others[0] if others else "")
        rows: list[dict[str, Any]] = [
            {"order": "MOVE", "square": home, "to": near[0] if near else home, "amount": 40},
            {"order": "BUILD", "square": home, "amount": 25},
            {"order": "FEASIBILITY", "description": msg("a gun like the ordinary one, only bigger")},
            {"order": "RESEARCH_PAY", "project": project, "amount": 100},
        ]
        if victim:
            rows.append({"order": "THEFT", "project": stolen, "victim": victim})
        if campaign.parameters["allow_disband"]:
            rows.append({"order": "DISBAND", "square": home, "amount": 10})
        return {"orders": rows}

    def template_lookups(self, campaign: Campaign, faction: str) -> dict[str, list[tuple[str, float]]]:
        """The price of stealing each component seen in battle (what THEFT would cost)."""
        world = snapshot_of(campaign.tables)  # read only: the world built once for every faction's template
        seen = sorted({world.projects[u.project].component for u in world.usages
                       if u.faction != faction and u.project in world.projects})
        paid_now = not campaign.parameters["theft_installments"]  # in instalments nothing is paid when declared
        return {"theft_prices": [(c, theft.price(world, c, campaign.parameters) if paid_now else 0) for c in seen]}

    def template_budget(self, campaign: Campaign, faction: str) -> int | None:
        return snapshot_of(campaign.tables).treasury.get(faction, 0)

    def preview_cost(self, campaign: Campaign, faction: str, row: dict[str, Any]) -> float:
        kind = row.get("order")
        amount = row.get("amount")
        if kind in ("BUILD", "RESEARCH_PAY"):
            return amount if isinstance(amount, int) else 0
        if kind == "DISBAND":
            return -amount if isinstance(amount, int) else 0
        if kind == "FEASIBILITY":
            return campaign.parameters["feasibility_fee"]
        if kind == "THEFT":
            prices = dict(self.template_lookups(campaign, faction)["theft_prices"])
            return prices.get(str(row.get("project") or ""), 0)
        return 0

    def choice_lists(self, campaign: Campaign, faction: str, lang: str) -> dict[str, list[str]]:
        world = snapshot_of(campaign.tables)
        own = sorted(p.id for p in world.projects.values() if p.faction == faction and p.status == "FEASIBLE")
        seen = sorted({u.project for u in world.usages if u.faction != faction})
        return {
            **square_lists(world, faction, campaign.parameters),  # what this faction may name, not the map
            "project": own + [p for p in seen if p not in own],
            "victim": sorted(f for f in campaign.factions if f != faction),
        }
