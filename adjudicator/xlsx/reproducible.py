"""The same workbook, the same bytes: zip members with a fixed time, in a fixed order.

openpyxl stamps every zip member with the time of the save and the document's *modified* property
with the clock, so two saves of one workbook differ. After a save, :func:`make_reproducible`
rewrites the archive with every member dated 1980-01-01 (the zip format's first day), the content
types first, and *modified* set to the document's own *created* date, so the same turn with the same
seed gives files with the same SHA-256 (``results_sha256`` in ``turn.json`` can be compared).
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

FIXED_DATE = (1980, 1, 1, 0, 0, 0)
CORE = "docProps/core.xml"
_CREATED = re.compile(rb"<dcterms:created[^>]*>([^<]*)</dcterms:created>")
_MODIFIED = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")


def make_reproducible(path: Path | str) -> None:
    """Rewrite the zip at ``path`` in place with fixed dates and member order."""
    with zipfile.ZipFile(path) as archive:
        members = [(info, archive.read(info)) for info in archive.infolist()]
    members.sort(key=lambda item: item[0].filename != "[Content_Types].xml")  # stable: the rest keep their order
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, data in members:
            if info.filename == CORE:
                data = _same_dates(data)
            fixed = zipfile.ZipInfo(info.filename, FIXED_DATE)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o600 << 16
            archive.writestr(fixed, data)


def _same_dates(core: bytes) -> bytes:
    created = _CREATED.search(core)
    value = created.group(1) if created else b"2000-01-01T00:00:00Z"
    return _MODIFIED.sub(lambda m: m.group(1) + value + m.group(2), core)
