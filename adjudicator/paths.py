"""Where the bundled example campaigns are: the repository's ``examples/`` in a checkout, or the copy
packed into the wheel."""

from __future__ import annotations

from pathlib import Path


def examples_root() -> Path:
    here = Path(__file__).resolve().parent
    checkout = here.parent / "examples"
    if checkout.is_dir():
        return checkout
    return here / "_bundled_examples"
