"""A Babel extractor for the rulesets' data files: the ``description`` of every parameter in
``parameters.toml`` is a message (the GM reads it in campaign.xlsx's Parameters sheet, in the campaign's
language). Named in ``babel-ruleset.cfg``; ``make messages`` runs it."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from typing import IO, Any


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
            options: Any) -> Iterator[tuple[int, None, str, list[str]]]:
    text = fileobj.read().decode("utf-8")
    data = tomllib.loads(text)
    lines = text.splitlines()
    for key, spec in data.items():
        description = spec.get("description") if isinstance(spec, dict) else None
        if not description:
            continue
        header = next((i for i, line in enumerate(lines) if re.match(rf"^\[{re.escape(key)}\]\s*$", line)), 0)
        yield header + 1, None, description, [f"parameter {key}"]
