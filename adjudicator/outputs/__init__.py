"""Outputs: the workbooks, maps and pictures handed back to players and the GM."""
