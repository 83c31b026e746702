"""What the mail commands have done, kept in the campaign folder so that nothing is done twice.

``mail/journal.json`` holds one entry per message taken from the mailbox (its Message-ID and the
SHA-256 of its bytes), one per reminder and one per message sent. Every change is written at once and
atomically (a temporary file renamed into place), so a command killed at any point leaves the journal
as it was before the step it was doing, and a re-run takes up from there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from adjudicator.outputs.writing import atomic_write_text

FOLDER = "mail"
FILE = "journal.json"
SECTIONS = ("received", "receipts", "reminded", "sent")


class Journal:
    def __init__(self, root: Path) -> None:
        self.path = Path(root) / FOLDER / FILE
        self.data: dict[str, dict[str, Any]] = {s: {} for s in SECTIONS}
        if self.path.exists():
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
            for section in SECTIONS:
                self.data[section] = dict(loaded.get(section, {}))

    def get(self, section: str, key: str) -> dict[str, Any] | None:
        return self.data[section].get(key)

    def put(self, section: str, key: str, entry: dict[str, Any]) -> None:
        """Record ``entry`` and write the journal to disk before returning."""
        self.data[section][key] = entry
        self.save()

    def update(self, section: str, key: str, **changes: Any) -> None:
        entry = dict(self.data[section].get(key, {}))
        entry.update(changes)
        self.put(section, key, entry)

    def entries(self, section: str) -> dict[str, dict[str, Any]]:
        return self.data[section]

    def save(self) -> None:
        atomic_write_text(self.path, json.dumps(self.data, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
