"""The campaign folder as a store: its paths, its lock, and the commit of a turn.

::

    campaign.xlsx                 the GM's master workbook (the current state)
    inbox/                        submitted workbooks waiting for the turn
    pending/T01/gm_input.xlsx     what the GM fills when a turn waits for decisions
    checks/T01/                   copies of submitted workbooks with an Errors tab
    turns/T01/templates/          the order workbooks handed out
    turns/T01/submitted/          the workbooks used, exactly as received, and SHA256SUMS
    turns/T01/state_before.xlsx   campaign.xlsx as it was before the turn
    turns/T01/gm_input.xlsx       the GM's decisions used
    turns/T01/results/            one results workbook per faction
    turns/T01/campaign_after.xlsx campaign.xlsx as the turn left it
    turns/T01/turn.json           the manifest; written last, it marks the turn as resolved

A turn is staged in a hidden folder, moved into ``turns/TNN/`` (``turn.json`` last), and only then is
``campaign.xlsx`` replaced; a journal file (``.adjudicator-commit.json``) lives from the first move to
the last. An interruption before ``turn.json`` leaves the campaign as it was (the partial files are
moved aside, and a reprocessed turn's earlier results are put back); one after it is rolled forward the
next time the campaign is opened.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from adjudicator.i18n import Msg, msg
from adjudicator.outputs.writing import atomic_copy, atomic_write_text
from adjudicator.store.master import turn_label

MASTER = "campaign.xlsx"
MANIFEST = "turn.json"
JOURNAL = ".adjudicator-commit.json"
LOCK = ".adjudicator.lock"
#: A temporary file of an atomic write (:func:`adjudicator.outputs.writing._temporary_beside`): ``.STEM.XXXXXXXX.tmp``.
TEMPORARY = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")
STAGED_ITEMS = ("submitted", "state_before.xlsx", "gm_input.xlsx", "results", "campaign_after.xlsx",
                "gm.map.png", "gm.map.svg")


class CampaignBusyError(RuntimeError):
    """Raised when another adjudicator process holds the campaign's lock."""


class CampaignFolder:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        #: What :meth:`recover` did when the campaign was last opened (for the GM).
        self.recovered: list[Msg] = []

    @property
    def master(self) -> Path:
        return self.root / MASTER

    @property
    def inbox(self) -> Path:
        return self.root / "inbox"

    @property
    def turns(self) -> Path:
        return self.root / "turns"

    def turn_dir(self, turn: int) -> Path:
        return self.turns / turn_label(turn)

    def pending_dir(self, turn: int) -> Path:
        return self.root / "pending" / turn_label(turn)

    def gm_input(self, turn: int) -> Path:
        return self.pending_dir(turn) / "gm_input.xlsx"

    def checks_dir(self, turn: int) -> Path:
        return self.root / "checks" / turn_label(turn)

    def templates_dir(self, turn: int) -> Path:
        return self.turn_dir(turn) / "templates"

    def manifest(self, turn: int) -> dict[str, Any] | None:
        path = self.turn_dir(turn) / MANIFEST
        if not path.exists():
            return None
        return json.loads(path.read_text(encoding="utf-8"))

    # ------------------------------------------------------------------ lock
    @contextmanager
    def locked(self) -> Iterator[None]:
        """Only one adjudicator at a time works on a campaign (the lock file holds its process id)."""
        lock = self.root / LOCK
        claim = self.root / f".adjudicator.lock.{os.getpid()}"
        claim.write_text(str(os.getpid()))
        try:
            for _ in range(2):
                try:
                    os.link(claim, lock)  # atomic: the lock appears with its owner already written in it
                    break
                except FileExistsError:
                    if _stale(lock):
                        lock.unlink(missing_ok=True)
                        continue
                    raise CampaignBusyError(str(self.root)) from None
            else:  # pragma: no cover - a stale lock reappeared at once
                raise CampaignBusyError(str(self.root))
        finally:
            claim.unlink(missing_ok=True)
        try:
            yield
        finally:
            lock.unlink(missing_ok=True)

    # -------------------------------------------------------------- staging
    def new_staging(self, turn: int) -> Path:
        self.turns.mkdir(parents=True, exist_ok=True)
        staging = self.turns / f".{turn_label(turn)}.staging-{os.getpid()}"
        if staging.exists():
            shutil.rmtree(staging)
        staging.mkdir()
        return staging

    def commit(self, turn: int, staging: Path, manifest: dict[str, Any], supersede: bool = False) -> None:
        """Move a staged turn into place, write its manifest, then replace campaign.xlsx.

        A journal file records the commit from its first step to its last, so that an interruption
        at any point is finished (once the manifest is written) or undone (before) by :meth:`recover`."""
        target = self.turn_dir(turn)
        journal: dict[str, Any] = {"turn": turn, "superseded": None, "phase": "commit"}
        if supersede:
            aside = _numbered(target, "superseded")
            journal.update(superseded=aside.name, phase="supersede")
            atomic_write_text(self.root / JOURNAL, json.dumps(journal))
            self.supersede(turn, aside)
            journal["phase"] = "commit"
        atomic_write_text(self.root / JOURNAL, json.dumps(journal))
        target.mkdir(parents=True, exist_ok=True)
        for item in STAGED_ITEMS:
            source = staging / item
            if source.exists():
                os.replace(source, target / item)
        atomic_write_text(target / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False))
        shutil.rmtree(staging, ignore_errors=True)
        atomic_copy(target / "campaign_after.xlsx", self.master)
        (self.root / JOURNAL).unlink()

    def supersede(self, turn: int, aside: Path) -> Path:
        """Move a resolved turn's outputs aside into ``aside`` (to reprocess it); the templates stay."""
        source = self.turn_dir(turn)
        aside.mkdir(exist_ok=True)
        os.replace(source / MANIFEST, aside / MANIFEST)
        for item in STAGED_ITEMS:
            if (source / item).exists():
                os.replace(source / item, aside / item)
        return aside

    # ------------------------------------------------------------- recovery
    def recover(self, current_turn: int) -> list[Msg]:
        """Finish or undo what an interrupted run left; returns what was done, for the GM."""
        notes: list[Msg] = self._remove_temporaries()
        if self.turns.is_dir():
            for leftover in sorted(self.turns.glob(".T*.staging-*")):
                shutil.rmtree(leftover, ignore_errors=True)
                notes.append(msg("Removed the staging folder of an interrupted run: {name}.", name=leftover.name))
        journal_path = self.root / JOURNAL
        if journal_path.exists():
            journal = json.loads(journal_path.read_text(encoding="utf-8"))
            turn, target = int(journal["turn"]), self.turn_dir(int(journal["turn"]))
            if (target / MANIFEST).exists() and (target / "campaign_after.xlsx").exists():
                atomic_copy(target / "campaign_after.xlsx", self.master)
                notes.append(msg("Completed the interrupted commit of turn {turn}.", turn=turn))
            else:
                if journal.get("phase") != "supersede":  # what is in the turn folder is new and partial
                    notes += self._move_partial_aside(target, turn)
                if journal.get("superseded") and (target / journal["superseded"]).is_dir():
                    aside = target / journal["superseded"]
                    for item in STAGED_ITEMS:
                        if (aside / item).exists():
                            os.replace(aside / item, target / item)
                    if (aside / MANIFEST).exists():
                        os.replace(aside / MANIFEST, target / MANIFEST)
                    aside.rmdir()
                    notes.append(msg("Restored the results of turn {turn} that an interrupted reprocessing had "
                                     "set aside.", turn=turn))
            journal_path.unlink()
            return notes + self._finish_inbox_archive(turn)
        target = self.turn_dir(current_turn)
        if (target / MANIFEST).exists() and (target / "campaign_after.xlsx").exists():
            atomic_copy(target / "campaign_after.xlsx", self.master)
            notes.append(msg("Completed the interrupted commit of turn {turn}.", turn=current_turn))
            return notes + self._finish_inbox_archive(current_turn)
        return notes + self._finish_inbox_archive(current_turn - 1) + self._move_partial_aside(target, current_turn)

    def _finish_inbox_archive(self, turn: int) -> list[Msg]:
        """Finish what a run interrupted after its commit left: move to ``turns/TNN/inbox/`` the workbooks the
        turn used that are still in the inbox and not yet archived (a copy put back by the GM stays), and
        remove ``pending/TNN/`` when it holds the GM input the turn used (only files of the name and SHA-256
        the manifest records)."""
        manifest = self.manifest(turn) if turn >= 1 else None
        if not manifest or not self.inbox.is_dir():
            return []
        from adjudicator.intake.submissions import sha256_of

        notes: list[Msg] = []
        for entry in (manifest.get("submitted") or {}).values():
            name = str(entry.get("received_as", ""))
            path = self.inbox / name
            archive = self.turn_dir(turn) / "inbox"
            if (name and "/" not in name and path.is_file() and not (archive / name).exists()
                    and sha256_of(path) == entry.get("sha256")):
                archive.mkdir(exist_ok=True)
                os.replace(path, archive / name)
                notes.append(msg("Moved {name}, used by turn {turn}, out of the inbox.", name=name, turn=turn))
        pending = self.gm_input(turn)
        if pending.is_file() and sha256_of(pending) == manifest.get("gm_input_sha256"):
            shutil.rmtree(self.pending_dir(turn), ignore_errors=True)  # the GM input the turn used, kept in turns/
        return notes

    def _remove_temporaries(self) -> list[Msg]:
        """Delete the half-written files an interrupted atomic write left (``.NAME.XXXXXXXX.tmp`` beside
        its target: ``.campaign.*.tmp``, ``turns/TNN/.turn.*.tmp``, results, checked copies, templates…),
        and lock claims of processes that are gone. The inbox, the players' folder, is never touched."""
        found = [p for p in self.root.glob(".*.tmp") if TEMPORARY.match(p.name)]
        for folder in (self.turns, self.root / "checks", self.root / "pending"):
            if folder.is_dir():
                found += [p for p in folder.rglob(".*.tmp") if TEMPORARY.match(p.name)]
        for claim in self.root.glob(f"{LOCK}.*"):  # a claim of the lock whose process was killed
            if claim.name != f"{LOCK}.{os.getpid()}" and _stale(claim):
                claim.unlink(missing_ok=True)
        notes: list[Msg] = []
        for path in sorted(set(found)):
            if path.is_file():
                path.unlink(missing_ok=True)
                notes.append(msg("Removed a file an interrupted run left half written: {name}.",
                                 name=str(path.relative_to(self.root))))
        return notes

    def _move_partial_aside(self, target: Path, turn: int) -> list[Msg]:
        partial = [item for item in STAGED_ITEMS if (target / item).exists()]
        if not partial:
            return []
        aside = _numbered(target, "interrupted")
        aside.mkdir(parents=True)
        for item in partial:
            os.replace(target / item, aside / item)
        return [msg("Moved the partial files of an interrupted run of turn {turn} to {name}.", turn=turn,
                    name=aside.name)]


def _numbered(folder: Path, stem: str) -> Path:
    number = 1
    while (folder / f"{stem}-{number}").exists():
        number += 1
    return folder / f"{stem}-{number}"


def _stale(lock: Path) -> bool:
    try:
        pid = int(lock.read_text() or "0")
    except (OSError, ValueError):
        return True
    if pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False
