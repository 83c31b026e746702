"""The turn: the GM's jobs on a campaign folder, and the GM's inputs a turn waits for."""
