"""A submitted order workbook: read safely, identified, validated, every problem collected."""

from __future__ import annotations

import hashlib
import os
import pickle
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from adjudicator.engine.problems import HINT_ASK_GM, HINT_USE_TEMPLATE, ProblemList, RulesetFailure
from adjudicator.engine.ruleset import Campaign, FactionOrders, Ruleset, SheetRows
from adjudicator.engine.sheets import TableSchema
from adjudicator.engine.validity import mark_rejected, passed_orders
from adjudicator.i18n import msg
from adjudicator.intake.identity import (
    OLDEST_READABLE_VERSION,
    TEMPLATE_VERSION,
    Identity,
    read_identity,
    token_matches,
)
from adjudicator.intake.names import read_names, suggest
from adjudicator.intake.reading import WorkbookData, read_table, read_workbook
from adjudicator.intake.safety import ACCEPTED_SUFFIXES, DEFAULT_LIMITS, Limits
from adjudicator.intake.validation import validate_table
from adjudicator.quiet_collector import collector_paused

if TYPE_CHECKING:
    from adjudicator.intake.submission_cache import SubmissionCache


@dataclass
class Submission:
    path: Path
    sha256: str
    problems: ProblemList = field(default_factory=ProblemList)
    identity: Identity | None = None
    faction: str | None = None
    orders: FactionOrders | None = None
    book: WorkbookData | None = None

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def accepted(self) -> bool:
        """Identified and readable: its orders can be resolved (rows with errors are rejected)."""
        return self.orders is not None and not any(p.code.startswith("F") and p.is_error for p in self.problems)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def inbox_files(folder: Path) -> list[Path]:
    """Workbooks waiting in ``folder`` (lock files and hidden files of office programs are skipped)."""
    if not folder.is_dir():
        return []
    return sorted(
        p for p in folder.iterdir()
        if p.is_file() and not p.name.startswith((".", "~$")) and p.suffix.lower() in (*ACCEPTED_SUFFIXES, ".xls")
    )


def load_submission(path: Path, campaign: Campaign, ruleset: Ruleset, limits: Limits = DEFAULT_LIMITS) -> Submission:
    submission = Submission(path, sha256_of(path))
    problems = submission.problems
    book = read_workbook(path, problems, limits)
    if book is None:
        return submission
    submission.book = book
    where = {"file": path.name}
    identity = read_identity(book)
    submission.identity = identity
    if identity is None:
        problems.error("F07", msg("{file} is not an order workbook of this campaign.", file=path.name),
                       HINT_USE_TEMPLATE, **where)
        return submission
    if identity.ruleset != ruleset.name or identity.campaign != campaign.campaign_id:
        problems.error("F08", msg("{file} belongs to another campaign ({campaign}).", file=path.name,
                                  campaign=identity.campaign), HINT_USE_TEMPLATE, **where)
        return submission
    faction = identity.faction
    if faction not in campaign.factions:
        problems.error("F11", msg("{file} names the faction {faction}, which is not in this campaign.",
                                  file=path.name, faction=faction), HINT_ASK_GM, **where)
        return submission
    if not token_matches(campaign.secret, identity):
        problems.error("F10", msg("{file} was not handed out to {faction} for turn {turn}; it cannot be accepted "
                                  "as that faction's orders.", file=path.name, faction=faction, turn=identity.turn),
                       HINT_ASK_GM, **where)
        return submission
    submission.faction = faction
    if identity.version < OLDEST_READABLE_VERSION or identity.version > TEMPLATE_VERSION:
        problems.error("F13", msg("{file} was made from template version {version}; this adjudicator reads "
                                  "version {current}.", file=path.name, version=identity.version,
                                  current=TEMPLATE_VERSION), HINT_ASK_GM, **where)
        return submission
    if identity.turn != campaign.turn:
        problems.error("F09", msg("{file} holds orders for turn {turn}, but the current turn is {current}.",
                                  file=path.name, turn=identity.turn, current=campaign.turn),
                       msg("Use the order workbook of turn {current}.", current=campaign.turn), **where)
    orders = FactionOrders(faction, path.name, read_sheets(book, ruleset.order_schemas, problems))
    presentation, lang = ruleset.presentation(), campaign.factions[faction].language
    unknown = read_names(orders.sheets, presentation.choice_lists(campaign, faction, lang),
                         {f: [campaign.factions[f].name] for f in campaign.factions}, problems,  # А1 = A1
                         presentation.choice_aliases(campaign, faction, lang))  # ALL = ВСЕ
    if not problems.has_errors() or all(not p.code.startswith("F") for p in problems.errors):
        try:
            ruleset.validate_orders(campaign, faction, passed_orders(orders), problems)
        except Exception as error:  # noqa: BLE001 - the ruleset's own failure, not the player's
            raise RulesetFailure(ruleset.name, campaign.turn, error) from error
    suggest(problems, unknown)
    problems.supersede("C05")
    mark_invalid_rows(orders, problems)
    problems.sort()
    submission.orders = orders
    return submission


def load_submissions(paths: Sequence[Path], campaign: Campaign, ruleset: Ruleset,
                     limits: Limits = DEFAULT_LIMITS, kept: SubmissionCache | None = None) -> list[Submission]:
    """:func:`load_submission` of each of ``paths``, in order, on both cores where that pays (parallel.py):
    each workbook is read on its own, by the same code as in one process, so the submissions are the same.
    A workbook whose reading fails in a worker (a ruleset's failure, say), or whose submission cannot come
    back from it, is read again here, where its error is raised as it would be in one process. ``kept``: the
    readings kept from before (submission_cache.py), found there instead of read again, and those read here
    kept in it."""
    from adjudicator.outputs.parallel import in_parallel

    parent = os.getpid()

    def job(path: Path) -> Submission | bytes | None:
        if os.getpid() == parent:  # in this process: as if called directly
            return load_submission(path, campaign, ruleset, limits)
        try:
            return pickle.dumps(load_submission(path, campaign, ruleset, limits), pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - told by reading it again in the parent
            return None

    found = [kept.get(path) if kept is not None else None for path in paths]  # a path named twice: read twice
    unread = [i for i, submission in enumerate(found) if submission is None]
    for i, loaded in zip(unread, in_parallel([lambda p=paths[i]: job(p) for i in unread], first_here=True),
                         strict=True):
        payload = loaded if isinstance(loaded, bytes) else None
        if payload is not None:
            loaded = unpickled_submission(payload)
        if not isinstance(loaded, Submission):
            loaded = load_submission(paths[i], campaign, ruleset, limits)
        if kept is not None:
            kept.put(loaded, payload or _pickled(loaded))
        found[i] = loaded
    return found  # type: ignore[return-value] - every one read or found


def _pickled(submission: Submission) -> bytes | None:
    """The pickle of a submission read in this process, to keep; None if it cannot be made (then it is not
    kept, and the command goes on)."""
    try:
        return pickle.dumps(submission, pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001
        return None


def unpickled_submission(data: bytes) -> Submission | None:
    """The submission a worker sent (or a reading kept, submission_cache.py), or None if it cannot be read
    back. The collector is held off meanwhile: tens of thousands of small objects (the problems) would start it
    over and over (4× slower)."""
    try:
        with collector_paused():
            found = pickle.loads(data)  # noqa: S301 - made by this program: its own worker, or its user's cache
    except Exception:  # noqa: BLE001
        return None
    return found if isinstance(found, Submission) else None


def read_sheets(book: WorkbookData, schemas: Sequence[TableSchema], problems: ProblemList) -> dict[str, SheetRows]:
    """The typed rows of each sheet of ``schemas`` found in ``book`` (problems for what is missing or wrong)."""
    sheets: dict[str, SheetRows] = {}
    for schema in schemas:
        table = read_table(book, schema, problems)
        if table is None:
            continue
        typed = validate_table(table, problems, book.name)
        sheets[schema.key] = SheetRows(schema, table.sheet, typed, table.letters, book.name)
    return sheets


def mark_invalid_rows(orders: FactionOrders, problems: ProblemList) -> None:
    mark_rejected(orders, problems)


def flag_duplicates(submissions: list[Submission]) -> None:
    """Two workbooks for one faction: neither is taken (F12), the GM decides which one counts."""
    by_faction: dict[str, list[Submission]] = defaultdict(list)
    for submission in submissions:
        if submission.faction:
            by_faction[submission.faction].append(submission)
    for faction, group in by_faction.items():
        if len(group) < 2:
            continue
        names = ", ".join(s.name for s in group)
        for submission in group:
            submission.problems.error(
                "F12",
                msg("Several workbooks were submitted for {faction}: {files}.", faction=faction, files=names),
                msg("Keep only the workbook that counts in the inbox, or name it on the command line."),
                file=submission.name,
            )
