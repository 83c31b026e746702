"""Checks made on an untrusted workbook file before any parser touches it.

Workbooks from players are zip archives of XML: a small file can expand to gigabytes, hold
thousands of parts, or carry macros. The limits are generous for any real order workbook and
can be raised by the GM (campaign settings ``max_file_mb`` and ``max_unpacked_mb``).
XML itself is parsed by openpyxl through defusedxml (installed with this package) and by calamine,
which does not expand external entities. No macro is ever run: openpyxl is never asked to keep VBA,
and calamine reads only cell values.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

from adjudicator.i18n import msg
from adjudicator.problems import Problem, Severity

ACCEPTED_SUFFIXES = (".xlsx", ".xlsm", ".ods")


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 20 * 1024 * 1024
    max_unpacked_bytes: int = 200 * 1024 * 1024
    max_parts: int = 5_000
    max_ratio: int = 200  # uncompressed / compressed, per part of any size above 1 MiB


DEFAULT_LIMITS = Limits()


def check_file(path: Path, limits: Limits = DEFAULT_LIMITS) -> list[Problem]:
    """Problems that make the file unsafe or impossible to read; empty when it may be opened."""
    name = path.name
    where = {"file": name}
    if path.suffix.lower() not in ACCEPTED_SUFFIXES:
        return [
            Problem(
                "F03",
                Severity.ERROR,
                msg("{file} is not an .xlsx, .xlsm or .ods workbook.", file=name),
                msg("Save the order workbook as .xlsx (Excel) or .ods (LibreOffice) and send it again."),
                **where,
            )
        ]
    size = path.stat().st_size
    if size > limits.max_file_bytes:
        return [
            Problem(
                "F02",
                Severity.ERROR,
                msg(
                    "{file} is {size} MB; the limit is {limit} MB.",
                    file=name,
                    size=round(size / 2**20, 1),
                    limit=round(limits.max_file_bytes / 2**20, 1),
                ),
                msg("Delete pictures and unused sheets, or ask the GM to raise the limit."),
                **where,
            )
        ]
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        return [_corrupt(name)]
    problems: list[Problem] = []
    total = sum(i.file_size for i in infos)
    suspicious = any(
        i.file_size > 2**20 and i.file_size > limits.max_ratio * max(i.compress_size, 1) for i in infos
    )
    if len(infos) > limits.max_parts or total > limits.max_unpacked_bytes or suspicious:
        problems.append(
            Problem(
                "F02",
                Severity.ERROR,
                msg("{file} unpacks to more data than an order workbook can hold; it was not opened.", file=name),
                msg("Send the order workbook the GM gave you, filled in, without other content."),
                **where,
            )
        )
    if any(i.flag_bits & 0x1 for i in infos):
        problems.append(
            Problem(
                "F01",
                Severity.ERROR,
                msg("{file} is encrypted or password-protected.", file=name),
                msg("Remove the password (File › Info › Protect workbook) and send it again."),
                **where,
            )
        )
    if any(i.filename.lower().endswith("vbaproject.bin") or i.filename.startswith("Basic/") for i in infos):
        problems.append(
            Problem(
                "F14",
                Severity.WARNING,
                msg("{file} contains macros; they were ignored and are never run.", file=name),
                None,
                **where,
            )
        )
    return problems


def _corrupt(name: str) -> Problem:
    return Problem(
        "F01",
        Severity.ERROR,
        msg("{file} cannot be opened as a workbook: it is damaged or not a spreadsheet.", file=name),
        msg("Open it in Excel or LibreOffice, save it again as .xlsx, and send the new file."),
        file=name,
    )


corrupt_file_problem = _corrupt
