"""The XXYY hex map (spec §1): XX column, YY row; odd-q layout by default (odd columns drawn lower).

Pure geometry, for the orders that need distances and neighbours (movement and agency, part 2)."""

from __future__ import annotations


def parse(hex_: str) -> tuple[int, int]:
    """``"0305"`` → (3, 5)."""
    text = str(hex_).strip()
    if len(text) != 4 or not text.isdigit():
        raise ValueError(f"not an XXYY hex: {hex_!r}")
    return int(text[:2]), int(text[2:])


def label(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def _lower(col: int, layout: str) -> bool:
    """Whether column ``col`` is drawn half a hex lower."""
    return col % 2 == (1 if layout == "odd-q" else 0)


def neighbours(hex_: str, layout: str = "odd-q") -> set[str]:
    col, row = parse(hex_)
    if _lower(col, layout):
        candidates = [(col, row - 1), (col, row + 1), (col - 1, row), (col + 1, row), (col - 1, row + 1),
                      (col + 1, row + 1)]
    else:
        candidates = [(col, row - 1), (col, row + 1), (col - 1, row - 1), (col + 1, row - 1), (col - 1, row),
                      (col + 1, row)]
    return {label(c, r) for c, r in candidates if 0 <= c <= 99 and 0 <= r <= 99}


def _cube(hex_: str, layout: str) -> tuple[int, int, int]:
    col, row = parse(hex_)
    shift = (col + (col & 1)) // 2 if layout == "even-q" else (col - (col & 1)) // 2
    x, z = col, row - shift
    return x, -x - z, z


def distance(a: str, b: str, layout: str = "odd-q") -> int:
    ax, ay, az = _cube(a, layout)
    bx, by, bz = _cube(b, layout)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))
