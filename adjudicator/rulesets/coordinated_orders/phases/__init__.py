"""The resolution of a legal Coordinated Order: statuses and Burst (plan), then the dice (rolls)."""
