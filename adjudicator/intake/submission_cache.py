"""Submissions read before: a workbook that a check has read is not read again by the run that follows.

Reading a submission is its survey, its cells, its names and the ruleset's validation against the start of the
turn: at 40 factions × 300 orders a quarter of a second of CPU a workbook (issue 16). ``check`` reads every
workbook of the inbox; ``run`` reads them again, and the run after the GM's answers again. What a reading gives
depends only on the workbook (its bytes and its name), on campaign.xlsx (the campaign, its ruleset's parameters,
the limits of a workbook) and on this program (its own files, Python and the libraries it reads with). A reading
is kept under a key made of all of them, and found again only when every one is the same: a workbook sent
again, campaign.xlsx edited, the program upgraded, and the workbook is read anew.

Kept in the user's cache folder (platformdirs' ``user_cache_dir``), never in the campaign's folder: a command
leaves the campaign as it found it, whether it finds a reading or not. ``ADJUDICATOR_CACHE`` names another
folder, or ``off`` keeps nothing. Each reading is the pickle of the :class:`Submission` (what a worker already
sends back, parallel.py), written atomically and stored with its SHA-256; an entry that does not match is
read anew and replaced. The folder holds what this program wrote for its user: trust it as the user's own
installed packages (a folder others may write to is no place for it). Entries unused for :data:`KEPT_DAYS`
days are removed.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import time
from functools import cache
from pathlib import Path

from adjudicator.intake.safety import Limits
from adjudicator.intake.submissions import Submission, sha256_of, unpickled_submission

CACHE_ENV = "ADJUDICATOR_CACHE"
OFF = ("off", "0", "no", "false")
#: Readings not used for this many days are removed (a campaign's turn is a week or two).
KEPT_DAYS = 30
#: Raised whenever what is kept changes shape.
FORMAT = 2  # 2: a sheet's rows kept as lists (engine/row_table.py), not as a DataFrame
#: The libraries a reading depends on (their versions are part of the key).
READ_WITH = ("numpy", "pandas", "python-calamine", "openpyxl", "defusedxml", "olefile", "Babel")


class SubmissionCache:
    """The readings kept for one campaign.xlsx (its digest) and one set of ``limits``, in ``folder``."""

    def __init__(self, folder: Path, campaign_digest: str, limits: Limits) -> None:
        self.folder = folder
        self.base = hashlib.sha256(
            f"{FORMAT}\0{program_fingerprint()}\0{campaign_digest}\0{limits!r}".encode()).hexdigest()

    def entry(self, name: str, sha256: str) -> Path:
        key = hashlib.sha256(f"{self.base}\0{sha256}\0{name}".encode()).hexdigest()
        return self.folder / f"{key}.pickle"

    def get(self, path: Path) -> Submission | None:
        """The reading of the workbook at ``path`` kept from before, or None."""
        try:
            sha256 = sha256_of(path)
        except OSError:
            return None
        entry = self.entry(path.name, sha256)
        payload = read_entry(entry)
        found = None if payload is None else unpickled_submission(payload)
        if found is None or found.sha256 != sha256:
            return None
        found.path = path
        if found.book is not None:
            found.book.path = path
        used(entry)
        return found

    def put(self, submission: Submission, payload: bytes | None) -> None:
        """Keep ``payload``, the pickle of ``submission``, under its workbook's name and the bytes it read. A
        reading that cannot be kept (no pickle, a folder that cannot be written) is simply not kept
        (:func:`write_entry`)."""
        if payload is not None:
            write_entry(self.entry(submission.path.name, submission.sha256), payload)

    def prune(self, now: float | None = None) -> None:
        """Remove the readings unused for :data:`KEPT_DAYS` days (and pieces of writes that never ended)."""
        prune(self.folder, now)


def read_entry(entry: Path) -> bytes | None:
    """The payload kept in ``entry``, or None: no such entry, or one whose digest does not match (torn, damaged)."""
    try:
        data = entry.read_bytes()
    except OSError:
        return None
    digest, payload = data[:32], data[32:]
    return payload if hashlib.sha256(payload).digest() == digest else None


def used(entry: Path) -> None:
    """Mark ``entry`` used now: kept for another :data:`KEPT_DAYS` days."""
    try:
        os.utime(entry)
    except OSError:
        pass


def write_entry(entry: Path, payload: bytes) -> None:
    """Keep ``payload`` in ``entry``, after its SHA-256; an entry that cannot be written is simply not kept. Not
    writing.py's ``_atomic``: an entry stays the user's alone (mkstemp's mode 600, which ``_atomic`` opens to the
    umask's), needs no flush to disk (an entry lost is made anew, a torn one fails its digest), and its pieces
    left by a write that never ended are found by :func:`prune` by their suffix."""
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=entry.parent, suffix=".part")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(hashlib.sha256(payload).digest())
                out.write(payload)
            os.replace(temporary, entry)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        pass


def prune(folder: Path, now: float | None = None) -> None:
    """Remove the entries of ``folder`` unused for :data:`KEPT_DAYS` days (and pieces of writes that never ended)."""
    oldest = (time.time() if now is None else now) - KEPT_DAYS * 86400
    try:
        entries = list(folder.iterdir())
    except OSError:
        return
    for entry in entries:
        try:
            if entry.suffix in (".pickle", ".part") and entry.stat().st_mtime < oldest:
                entry.unlink()
        except OSError:
            pass


def submission_cache(master: Path, limits: Limits) -> SubmissionCache | None:
    """The readings kept for the campaign whose campaign.xlsx is ``master``, or None when the user keeps none
    (``ADJUDICATOR_CACHE=off``) or campaign.xlsx cannot be read."""
    folder = cache_folder()
    if folder is None:
        return None
    try:
        digest = sha256_of(master)
    except OSError:
        return None
    kept = SubmissionCache(folder, digest, limits)
    kept.prune()
    return kept


def cache_folder(kind: str = "submissions") -> Path | None:
    """The folder of what is kept of ``kind`` (the readings of submissions; the surveys of campaign.xlsx,
    kept_survey.py): in ``ADJUDICATOR_CACHE``, else in the user's cache folder; None when off."""
    chosen = os.environ.get(CACHE_ENV, "").strip()
    if chosen.casefold() in OFF:
        return None
    if chosen:
        return Path(chosen) / kind
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("adjudicator", appauthor=False)) / kind


#: The folder of this program's own files.
PACKAGE = Path(__file__).resolve().parents[1]


@cache
def program_fingerprint(package: Path = PACKAGE) -> str:
    """What this program is: Python's version, the versions of the libraries it reads with, and each of its own
    files' name, size and time of change (a file edited, a package upgraded: another fingerprint)."""
    from importlib import metadata  # imported already: the rulesets are found by their entry points

    digest = hashlib.sha256(sys.version.encode())
    for name in READ_WITH:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "-"
        digest.update(f"\0{name}={version}".encode())
    root = str(package)
    for folder, folders, files in os.walk(root):  # os.path, not pathlib: a third of the time, at every command
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for name in sorted(files):
            path = os.path.join(folder, name)
            stat = os.stat(path)
            relative = path[len(root) + 1:].replace(os.sep, "/")
            digest.update(f"\0{relative}\0{stat.st_size}\0{stat.st_mtime_ns}".encode())
    return digest.hexdigest()
