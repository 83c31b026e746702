"""Checks made on an untrusted workbook file before any parser touches it.

Workbooks from players are zip archives of XML: a small file can expand to gigabytes, hold
thousands of parts, or carry macros. The limits are generous for any real order workbook and
can be raised by the GM (campaign settings ``max_file_mb`` and ``max_unpacked_mb``).
XML itself is parsed by openpyxl through defusedxml (installed with this package) and by calamine,
which does not expand external entities. No macro is ever run: openpyxl is never asked to keep VBA,
and calamine reads only cell values.

Before either reader opens a file, :mod:`adjudicator.intake.bounds` streams each sheet's XML and
refuses a sheet past the limits of rows, columns, cells or text length (F18, F19): a reader sizes
its grid from a sheet's last cell, so one cell at ``XFD1048576`` would otherwise ask for 17 billion.
Files that are not workbooks at all get a precise refusal: protected by a password (F15), an old
``.xls`` (F16), a text file such as a CSV renamed (F17).
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import olefile

from adjudicator.engine.problems import Problem, Severity
from adjudicator.i18n import msg
from adjudicator.intake.bounds import Overflow, Survey, ods_is_encrypted, survey_ods, survey_xlsx

ACCEPTED_SUFFIXES = (".xlsx", ".xlsm", ".ods")


@dataclass(frozen=True)
class Limits:
    max_file_bytes: int = 20 * 1024 * 1024
    max_unpacked_bytes: int = 200 * 1024 * 1024
    max_parts: int = 5_000
    max_ratio: int = 200  # uncompressed / compressed, per part of any size above 1 MiB
    max_part_bytes: int = 50 * 1024 * 1024  # unpacked, any one part (a sheet, the styles, a picture)
    max_rows: int = 5_000  # the last row of any sheet holding a cell
    max_columns: int = 200  # the last column of any sheet holding a cell
    max_cells: int = 200_000  # cells of one sheet
    max_text_chars: int = 10_000  # characters of one cell's text
    max_text_total: int = 5_000_000  # characters of text in the whole workbook


@dataclass
class Inspection:
    """What the checks found: the problems, and the sheets a reader must not open (XLM macro sheets)."""

    problems: list[Problem] = field(default_factory=list)
    skip_sheets: list[str] = field(default_factory=list)
    #: Cells holding an error value, by sheet and (row, column) (readers show them blank).
    errors: dict[str, dict[tuple[int, int], str]] = field(default_factory=dict)


DEFAULT_LIMITS = Limits()

#: Settings of campaign.xlsx that replace a limit of the players' workbooks (a count, not MB).
COUNTED_SETTINGS = ("max_rows", "max_columns", "max_cells", "max_text_chars", "max_text_total")


def counted_limits(settings: dict[str, object]) -> dict[str, int]:
    """The limits the GM set in the Settings sheet (``max_rows`` 10000…); a value that is not a whole
    number ≥ 1 is ignored, as the MB settings are."""
    out: dict[str, int] = {}
    for name in COUNTED_SETTINGS:
        value = settings.get(name.replace("_", " "))
        try:
            number = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
        if number >= 1 and number.is_integer() and number < 2**40:
            out[name] = int(number)
    return out


def check_file(path: Path, limits: Limits = DEFAULT_LIMITS) -> list[Problem]:
    """Problems that make the file unsafe or impossible to read; empty when it may be opened."""
    return inspect(path, limits).problems


OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def inspect(path: Path, limits: Limits = DEFAULT_LIMITS) -> Inspection:
    """Check the file as a container, then survey its sheets; nothing is parsed by a spreadsheet reader."""
    name = path.name
    where = {"file": name}
    if path.suffix.lower() not in ACCEPTED_SUFFIXES:
        if path.suffix.lower() == ".xls" and _starts_with(path, OLE_MAGIC):
            return Inspection([_ole_problem(path)])
        return Inspection([
            Problem(
                "F03",
                Severity.ERROR,
                msg("{file} is not an .xlsx, .xlsm or .ods workbook.", file=name),
                msg("Save the order workbook as .xlsx (Excel) or .ods (LibreOffice) and send it again."),
                **where,
            )
        ])
    size = path.stat().st_size
    if size > limits.max_file_bytes:
        return Inspection([
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
        ])
    with open(path, "rb") as handle:
        head = handle.read(4096)
    if head.startswith(OLE_MAGIC):
        return Inspection([_ole_problem(path)])
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        return Inspection([_renamed_text(name) if _looks_like_text(head) else _corrupt(name)])
    problems: list[Problem] = []
    total = sum(i.file_size for i in infos)
    suspicious = any(
        i.file_size > 2**20 and i.file_size > limits.max_ratio * max(i.compress_size, 1) for i in infos
    )
    suspicious = suspicious or any(i.file_size > limits.max_part_bytes for i in infos)
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
        problems.append(_password(name))
    macros = any(i.filename.lower().endswith("vbaproject.bin") or i.filename.startswith("Basic/") for i in infos)
    inspection = Inspection(problems)
    if any(p.is_error for p in problems):
        return inspection
    survey = _survey(path, limits)
    if survey == "encrypted":
        problems.append(_password(name))
        return inspection
    assert isinstance(survey, Survey)
    inspection.errors = survey.errors
    if survey.macro_sheets:
        macros = True
        inspection.skip_sheets = list(survey.macro_sheets)
    if macros:
        problems.append(
            Problem(
                "F14",
                Severity.WARNING,
                msg("{file} contains macros; they were ignored and are never run.", file=name),
                None,
                **where,
            )
        )
    if survey.unreadable:
        problems.append(_corrupt(name))
    elif survey.overflow is not None:
        problems.append(overflow_problem(name, survey.overflow))
    return inspection


def _survey(path: Path, limits: Limits) -> Survey | str:
    try:
        with zipfile.ZipFile(path) as archive:
            if path.suffix.lower() == ".ods":
                if ods_is_encrypted(archive):
                    return "encrypted"
                return survey_ods(archive, limits)
            return survey_xlsx(archive, limits)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, RuntimeError, NotImplementedError):
        return Survey(unreadable=True)


def overflow_problem(file: str, overflow: Overflow) -> Problem:
    """F18 (rows, columns, cells) or F19 (text), at the sheet and the first cell past the limit."""
    where = {"file": file, "sheet": overflow.sheet, "cell": overflow.cell}
    sheet = overflow.sheet or "?"
    if overflow.what == "text_total":
        return Problem(
            "F19", Severity.ERROR,
            msg("{file} holds more than {limit} characters of text; the workbook was not read.", file=file,
                limit=overflow.limit),
            msg("Send the order workbook with your orders only, or ask the GM to raise the limit (setting "
                "max_text_total)."),
            **where,
        )
    if overflow.what == "text":
        return Problem(
            "F19", Severity.ERROR,
            msg("A cell of the sheet {sheet} holds more than {limit} characters; the workbook was not read.",
                sheet=sheet, limit=overflow.limit),
            msg("Shorten that text, or ask the GM to raise the limit (setting max_text_chars)."),
            **where,
        )
    messages = {
        "rows": (msg("The sheet {sheet} has cells beyond row {limit}; the workbook was not read.", sheet=sheet,
                     limit=overflow.limit),
                 msg("Delete the rows below your orders (select them, then Delete rows), or ask the GM to raise "
                     "the limit (setting max_rows).")),
        "columns": (msg("The sheet {sheet} has cells beyond column {limit}; the workbook was not read.",
                        sheet=sheet, limit=overflow.limit),
                    msg("Delete the columns to the right of the table, or ask the GM to raise the limit "
                        "(setting max_columns).")),
        "cells": (msg("The sheet {sheet} holds more than {limit} cells; the workbook was not read.", sheet=sheet,
                      limit=overflow.limit),
                  msg("Delete what is not an order, or ask the GM to raise the limit (setting max_cells).")),
    }
    message, hint = messages[overflow.what]
    return Problem("F18", Severity.ERROR, message, hint, **where)


def _password(name: str) -> Problem:
    return Problem(
        "F15", Severity.ERROR,
        msg("{file} is protected by a password; it cannot be read.", file=name),
        msg("Save it without a password (Excel: File › Info › Protect workbook › Encrypt with password, clear "
            "it; LibreOffice: File › Save As, untick Save with password) and send it again."),
        file=name,
    )


def _old_xls(name: str) -> Problem:
    return Problem(
        "F16", Severity.ERROR,
        msg("{file} is in the old Excel 97-2003 format (.xls), which is not read.", file=name),
        msg("Open it and save it as Excel Workbook (.xlsx), then send the new file."),
        file=name,
    )


def _renamed_text(name: str) -> Problem:
    return Problem(
        "F17", Severity.ERROR,
        msg("{file} is a text file (such as CSV) with a workbook's name; it is not a workbook.", file=name),
        msg("Fill in the order workbook the GM sent you and send it back as .xlsx or .ods; do not export or "
            "rename it."),
        file=name,
    )


def _ole_problem(path: Path) -> Problem:
    """An OLE compound file: an encrypted .xlsx (EncryptionInfo stream) or an old .xls."""
    try:
        with olefile.OleFileIO(str(path)) as ole:
            encrypted = ole.exists("EncryptionInfo") or ole.exists("EncryptedPackage")
    except Exception:  # noqa: BLE001 - a damaged compound file is reported as damaged
        return _corrupt(path.name)
    return _password(path.name) if encrypted else _old_xls(path.name)


def _starts_with(path: Path, magic: bytes) -> bool:
    with open(path, "rb") as handle:
        return handle.read(len(magic)) == magic


def _looks_like_text(head: bytes) -> bool:
    if not head or b"\x00" in head:
        return False
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = head.decode("cp1252")
        except UnicodeDecodeError:
            return False
    printable = sum(ch.isprintable() or ch in "\r\n\t" for ch in text)
    return printable >= 0.95 * len(text) and any(sep in text for sep in ",;\t\n")


def _corrupt(name: str) -> Problem:
    return Problem(
        "F01",
        Severity.ERROR,
        msg("{file} cannot be opened as a workbook: it is damaged or not a spreadsheet.", file=name),
        msg("Open it in Excel or LibreOffice, save it again as .xlsx, and send the new file."),
        file=name,
    )


corrupt_file_problem = _corrupt
