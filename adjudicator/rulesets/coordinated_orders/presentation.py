"""How the order workbook of Coordinated Orders looks: dropdowns of the faction's troopers and tools and of the
enemy it can see, and read-only sheets of its roster, weapons, Orders left and the visible enemy."""

from __future__ import annotations

from adjudicator.engine.presentation import Presentation
from adjudicator.engine.ruleset import Campaign, ReportTable
from adjudicator.rulesets.coordinated_orders.reports import enemy_table, orders_left_table, roster_table, weapons_table
from adjudicator.rulesets.coordinated_orders.state import game_from_tables


class CoordinatedPresentation(Presentation):
    def choice_lists(self, campaign: Campaign, faction: str, lang: str) -> dict[str, list[str]]:
        """Own troopers and tools; enemy troopers and Markers the faction can see (never hidden ones)."""
        game = game_from_tables(campaign.tables)
        own = game.roster(faction)
        seen = sorted({t.public_name() for t in game.troopers.values()
                       if t.faction != faction and t.deployment not in ("HIDDEN_DEPLOYMENT", "AIRBORNE_OFF_TABLE")})
        tools = sorted({tool.name for t in own for tool in t.tools.values()})
        ids = [t.id for t in own]
        targets = seen + ids  # a Doctor, MediKit or Engineer targets an ally
        return {"trooper": ids, "reactive": ids, "target1": targets, "target2": targets, "target": seen,
                "tool1": tools, "tool2": tools, "tool": tools}

    def reference_tables(self, campaign: Campaign, faction: str) -> list[ReportTable]:
        """Read-only sheets of the order workbook: the faction's roster, its weapons with their Bursts, its
        Command Tokens and Regular Orders, and the enemy it can see (never a Hidden or off-table trooper; a
        Camouflaged Marker only by its label)."""
        game = game_from_tables(campaign.tables)
        return [roster_table(game, faction), weapons_table(game, faction, campaign.parameters),
                orders_left_table(game, faction), enemy_table(game, faction)]
