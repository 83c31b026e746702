"""Galactic War: the Generals' movement, space battles, invasions and placement, with exact battle odds."""

from adjudicator.rulesets.galactic_war.rules import GalacticWar

ruleset = GalacticWar()
