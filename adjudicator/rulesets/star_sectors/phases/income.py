"""Step 4: control of squares on post-battle values, and the income it brings (S2, S3, S7, A1, A2)."""

from __future__ import annotations

from adjudicator.rulesets.star_sectors.state import World


def controllers(world: World, threshold: int) -> dict[str, str]:
    """square → the one faction with at least ``threshold`` R there (none when zero or several do)."""
    out = {}
    for square in sorted(world.squares):
        holder = world.controller(square, threshold)
        if holder is not None:
            out[square] = holder
    return out


def bonus(table: dict[int, int], squares_held: int) -> int:
    """``income_bonus_table[number of squares controlled]`` (spec §5.4, A1): with ``{3: 10, 5: 25}``,
    exactly 3 squares give 10 and exactly 5 give 25; a count not in the table gives nothing."""
    return table.get(squares_held, 0)
