"""The survey of campaign.xlsx found again: a master surveyed before, byte for byte, is not surveyed again.

Every command of a turn opens campaign.xlsx, and opening it starts with its safety survey (safety.inspect: the
container checked, every sheet's cells and texts bounded before calamine reads them), which grows with the
campaign: the master of an Inner Sphere campaign of 40 states holds 44 MB of sheet XML after one turn, and its
survey took 3.6 s of the 4.5 s of CPU that opening it took (issue 16). A GM checks the inbox again as the
workbooks arrive, then runs the turn twice: the same file was surveyed every time. What a survey finds depends
only on the file's bytes, its name, the limits and this program; it is kept, pickled after its digest, in the
folder of kept readings (submission_cache.py: ``ADJUDICATOR_CACHE``, else the user's cache folder; ``off``
keeps nothing), under a key made of all four, and found there by the next command that opens the same bytes.
The file is hashed before and after its survey, and what was found is kept only when both are the same: a file
saved again meanwhile is surveyed anew next time. An entry that is missing, torn or not a survey's findings is
surveyed anew and replaced.
"""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

from adjudicator.intake.safety import Inspection, Limits, inspect
from adjudicator.intake.submission_cache import (
    FORMAT,
    cache_folder,
    program_fingerprint,
    prune,
    read_entry,
    used,
    write_entry,
)
from adjudicator.intake.submissions import sha256_of
from adjudicator.quiet_collector import collector_paused

#: The folder, beside the kept readings, of the kept surveys.
KIND = "surveys"


def inspected(path: Path, limits: Limits) -> Inspection:
    """``inspect(path, limits)``: kept from an earlier survey of the same bytes, else surveyed (and kept)."""
    folder = cache_folder(KIND)
    if folder is None:
        return inspect(path, limits)
    try:
        before = sha256_of(path)
    except OSError:
        return inspect(path, limits)  # which tells what cannot be read
    entry = folder / f"{_key(path.name, before, limits)}.pickle"
    found = _findings(read_entry(entry))
    if found is not None:
        used(entry)
        return found
    inspection = inspect(path, limits)
    try:
        unchanged = sha256_of(path) == before
    except OSError:
        unchanged = False
    if unchanged:
        try:
            payload = pickle.dumps(inspection, pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - findings no pickle holds are simply not kept
            return inspection
        write_entry(entry, payload)
        prune(folder)
    return inspection


def _key(name: str, sha256: str, limits: Limits) -> str:
    return hashlib.sha256(
        f"{FORMAT}\0{KIND}\0{program_fingerprint()}\0{limits!r}\0{sha256}\0{name}".encode()).hexdigest()


def _findings(payload: bytes | None) -> Inspection | None:
    """The survey's findings kept in ``payload``, or None (nothing kept, or not findings)."""
    if payload is None:
        return None
    try:
        with collector_paused():
            found = pickle.loads(payload)  # noqa: S301 - made by this program, in its user's cache
    except Exception:  # noqa: BLE001
        return None
    return found if isinstance(found, Inspection) else None
