"""Which rows of a generated campaign's order sheets are written as deliberate mistakes: the same rule for every
ruleset's generator (generate.py and generate_<ruleset>.py), so that ``expected.json`` and the tests count them
alike."""

from __future__ import annotations


def mistake_every(mistakes: float) -> int:
    """Every how many rows a sheet holds a deliberate mistake (0: none), for a share ``mistakes`` of the rows."""
    return round(1 / mistakes) if mistakes > 0 else 0


def is_mistake(index: int, every: int) -> bool:
    """Whether the sheet's row ``index`` (0 for the first row under the header) is written as a mistake."""
    return bool(every) and index % every == every - 1
