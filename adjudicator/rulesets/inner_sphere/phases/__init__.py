"""The phases of a turn: economy (income, upkeep, jumpship charges), research dice, end of turn."""
