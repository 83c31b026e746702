"""Star Sectors: territories held by fleet value, battle losses, income, research and theft."""

from adjudicator.rulesets.star_sectors.rules import StarSectors

ruleset = StarSectors()
