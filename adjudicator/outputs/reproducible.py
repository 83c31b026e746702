"""The same workbook, the same bytes: zip members with a fixed time, in a fixed order.

openpyxl stamps every zip member with the time of the save and the document's *created* and
*modified* properties with the clock, so two saves of one workbook differ. After a save,
:func:`make_reproducible` rewrites the archive with every member dated 1980-01-01 (the zip format's
first day), the content types first, and both dates of ``docProps/core.xml`` set to one fixed
instant (:data:`FIXED_CREATED`), so the same inputs give files with the same SHA-256: a turn's
results (``results_sha256`` in ``turn.json`` can be compared), the templates and the bundled
examples, however often and whenever they are built.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

FIXED_DATE = (1980, 1, 1, 0, 0, 0)
#: The *created* and *modified* dates every workbook the project writes carries (the results' own date).
FIXED_CREATED = b"2000-01-01T00:00:00Z"
CORE = "docProps/core.xml"
_DATES = re.compile(rb"(<dcterms:(created|modified)[^>]*>)[^<]*(</dcterms:\2>)")


def make_reproducible(path: Path | str) -> None:
    """Rewrite the zip at ``path`` in place with fixed dates and member order."""
    with zipfile.ZipFile(path) as archive:
        members = _members(archive)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        _write(archive, members)


def reproducible_bytes(data: bytes) -> bytes:
    """The workbook ``data`` (a saved .xlsx) with fixed dates and member order, e.g. for a mail attachment."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = _members(archive)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        _write(archive, members)
    return buffer.getvalue()


def _members(archive: zipfile.ZipFile) -> list[tuple[zipfile.ZipInfo, bytes]]:
    members = [(info, archive.read(info)) for info in archive.infolist()]
    members.sort(key=lambda item: item[0].filename != "[Content_Types].xml")  # stable: the rest keep their order
    return members


def _write(archive: zipfile.ZipFile, members: list[tuple[zipfile.ZipInfo, bytes]]) -> None:
    for info, data in members:
        if info.filename == CORE:
            data = fixed_dates(data)
        fixed = zipfile.ZipInfo(info.filename, FIXED_DATE)
        fixed.compress_type = zipfile.ZIP_DEFLATED
        fixed.external_attr = 0o600 << 16
        archive.writestr(fixed, data)


def fixed_dates(core: bytes) -> bytes:
    """``docProps/core.xml`` with its *created* and *modified* dates set to :data:`FIXED_CREATED`."""
    return _DATES.sub(lambda m: m.group(1) + FIXED_CREATED + m.group(3), core)
