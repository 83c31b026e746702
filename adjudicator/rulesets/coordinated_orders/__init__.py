"""Coordinated Orders: up to four troopers on one Order, a Spearhead, halved Burst, one target, and AROs."""

from adjudicator.rulesets.coordinated_orders.rules import CoordinatedOrders

ruleset = CoordinatedOrders()
