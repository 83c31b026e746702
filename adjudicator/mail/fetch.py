"""``adjudicator mail fetch``: order workbooks taken from the campaign's mailbox, each message once.

For every message of the mailbox's INBOX (oldest first) that the journal does not list as done:

1. its headers only are read; a sender who is not a faction's address gets nothing accepted and no
   reply (the body is never downloaded), and a message far above the size limit is refused unread;
2. the one order workbook attached is saved under ``mail/incoming/`` and checked exactly as
   ``adjudicator check`` checks it (same limits, same problems); its identity must be the sender's
   faction, and it must have reached the server before the deadline;
3. a workbook that ``run`` would accept (identified and readable; rows with errors are refused and
   listed in the receipt) replaces the faction's workbook in ``inbox/`` (the one it replaces is
   kept in ``mail/archive/TNN/``): the latest valid one before the deadline counts;
4. the receipt is written to ``mail/outbox/`` and the decision to the journal; then it is sent once
   (see :mod:`adjudicator.mail.once`).

Each step can be done again without effect, so a fetch killed at any point and run again takes every
message exactly once. Messages are never deleted from the mailbox.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import re
import shutil
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage, Message
from email.utils import parseaddr
from pathlib import Path

from adjudicator.engine.problems import Problem, Severity
from adjudicator.engine.ruleset import Campaign, Ruleset
from adjudicator.i18n import Msg, msg
from adjudicator.intake.safety import ACCEPTED_SUFFIXES
from adjudicator.intake.submissions import Submission, load_submission, sha256_of
from adjudicator.mail.compose import attach_workbook, crash_point, message_id, new_message, problems_text
from adjudicator.mail.deadline import Deadline, deadline_of, now_utc
from adjudicator.mail.journal import FOLDER, Journal
from adjudicator.mail.once import send_all, was_sent
from adjudicator.mail.settings import MailSettings, faction_of_address, mail_settings
from adjudicator.mail.transport import arrival_time, imap_mailbox
from adjudicator.outputs.faction_workbooks import checked_copy
from adjudicator.outputs.writing import atomic_copy, atomic_write_text
from adjudicator.store import master
from adjudicator.store.folder import CampaignFolder
from adjudicator.turn.pipeline import limits_of, opened

WORKBOOK_SUFFIXES = (*ACCEPTED_SUFFIXES, ".xls", ".csv")
SAFE_NAME = re.compile(r"[^\w.\- ]+", re.UNICODE)


@dataclass
class Received:
    """What became of one message."""

    key: str
    sender: str
    faction: str | None = None
    status: str = "ignored"  # "ignored" (unknown sender), "accepted", "rejected"
    file: str | None = None
    sha256: str | None = None
    problems: list[Problem] = field(default_factory=list)
    receipt_sent: bool = False


@dataclass
class FetchOutcome:
    campaign: Campaign
    received: list[Received] = field(default_factory=list)
    skipped: int = 0  # already in the journal


def message_key(message_id_header: str | None, headers: bytes) -> str:
    identity = (message_id_header or "").strip()
    if identity:
        return identity
    return "sha256:" + hashlib.sha256(headers).hexdigest()


def safe_name(name: str) -> str:
    base = Path(name.replace("\\", "/")).name
    cleaned = SAFE_NAME.sub("_", base).strip(" .") or "workbook.xlsx"
    return cleaned[-120:]


def _problem(code: str, text: Msg, hint: Msg | None = None, file: str | None = None) -> Problem:
    return Problem(code, Severity.ERROR, text, hint, file=file)


def workbook_parts(message: Message) -> tuple[list[Message], list[Problem]]:
    """The attachments that may be order workbooks, and problems that refuse the whole message."""
    parts, problems = [], []
    for part in message.walk():
        if part.get_content_maintype() == "message" or part.get_content_type() == "application/vnd.ms-outlook":
            problems.append(_problem("L06", msg("Your mail carries a forwarded or attached message; order workbooks "
                                                "inside other messages are not read."),
                                     msg("Attach the order workbook itself to a new mail.")))
            return [], problems
        name = part.get_filename()
        if not name or part.is_multipart():
            continue
        if Path(name).suffix.lower() in WORKBOOK_SUFFIXES or part.get_content_disposition() == "attachment":
            parts.append(part)
    workbooks = [p for p in parts if Path(p.get_filename() or "").suffix.lower() in WORKBOOK_SUFFIXES]
    if not workbooks and parts:
        workbooks = parts  # an attachment of another type: check it, so that the player learns why (F03)
    if not workbooks:
        problems.append(_problem("L04", msg("Your mail has no order workbook attached."),
                                 msg("Attach the order workbook (.xlsx or .ods) and send it again.")))
    elif len(workbooks) > 1:
        names = ", ".join(safe_name(p.get_filename() or "") for p in workbooks)
        problems.append(_problem("L07", msg("Your mail has several attachments ({files}); send one order workbook "
                                            "per mail.", files=names),
                                 msg("Send the order workbook alone.")))
        return [], problems
    return workbooks, problems


class Intake:
    """One run of ``mail fetch`` on an opened campaign (the campaign's lock is held)."""

    def __init__(self, folder: CampaignFolder, campaign: Campaign, ruleset: Ruleset, settings: MailSettings,
                 now: datetime | None = None) -> None:
        self.folder = folder
        self.campaign = campaign
        self.ruleset = ruleset
        self.settings = settings
        self.journal = Journal(folder.root)
        self.deadline: Deadline | None = deadline_of(campaign)
        self.now = now
        self.limits = limits_of(campaign)
        self.owners = faction_of_address(campaign)
        self.mail = folder.root / FOLDER
        self.label = master.turn_label(campaign.turn)

    # ------------------------------------------------------------------------------------- run
    def run(self) -> FetchOutcome:
        outcome = FetchOutcome(self.campaign)
        with imap_mailbox(self.settings.imap) as box:
            for head in box.fetch(mark_seen=False, headers_only=True, bulk=200):
                key = message_key(head.obj.get("Message-ID"), bytes(head.obj))
                known = self.journal.get("received", key)
                if known is not None:
                    outcome.skipped += known.get("status") != "own"
                    continue
                received = self._take(box, head, key)
                if received is not None:
                    outcome.received.append(received)
        receipts = []
        for key, entry in sorted(self.journal.entries("received").items()):
            if entry.get("receipt_file") and not was_sent(self.journal, "receipts", key):
                raw = (self.mail / "outbox" / entry["receipt_file"]).read_bytes()
                receipt = email.message_from_bytes(raw, policy=email.policy.default)
                receipts.append((key, receipt, {"to": entry.get("from")}))
        sent = set(send_all(self.journal, "receipts", self.settings, receipts))  # type: ignore[arg-type]
        for item in outcome.received:
            item.receipt_sent = item.key in sent
        return outcome

    def _take(self, box: object, head: object, key: str) -> Received | None:
        sender = parseaddr(str(head.obj.get("From") or ""))[1].lower()  # type: ignore[attr-defined]
        received = Received(key, sender, self.owners.get(sender))
        uid = head.uid  # type: ignore[attr-defined]
        if sender == self.settings.address:  # the campaign's own copy of what it sent (see mail/once.py)
            self.journal.put("received", key, {"from": sender, "status": "own", "turn": self.campaign.turn})
            return None
        if received.faction is None:  # no relay for spam: nothing read, nothing answered
            self.journal.put("received", key, {"from": sender, "status": "ignored", "turn": self.campaign.turn})
            return received
        size = head.size_rfc822  # type: ignore[attr-defined]
        arrived = arrival_time(box, uid) or self.now or now_utc()  # type: ignore[arg-type]
        body_limit = 2 * self.limits.max_file_bytes + 2**20
        if size > body_limit:
            received.problems = [_problem("F02", msg("Your mail is {size} MB; an order workbook may have {limit} MB.",
                                                     size=round(size / 2**20, 1),
                                                     limit=round(self.limits.max_file_bytes / 2**20, 1)),
                                          msg("Delete pictures and unused sheets, or ask the GM to raise the "
                                              "limit."))]
            return self._decide(received, None, arrived, key)
        full = next(iter(box.fetch(mark_seen=False, uid_list=[uid])), None)  # type: ignore[attr-defined]
        if full is None:  # gone from the mailbox meanwhile
            return None
        raw = bytes(full.obj)
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        workbooks, problems = workbook_parts(parsed)
        received.problems = problems
        submission = None
        if workbooks:
            part = workbooks[0]
            name = safe_name(part.get_filename() or "")
            digest = hashlib.sha256(raw).hexdigest()
            target = self.mail / "incoming" / self.label / digest[:16] / name
            payload = part.get_payload(decode=True) or b""
            if not target.exists() or sha256_of(target) != hashlib.sha256(payload).hexdigest():
                target.parent.mkdir(parents=True, exist_ok=True)
                temporary = target.with_name(f".{name}.part")
                temporary.write_bytes(payload)
                temporary.replace(target)
            submission = load_submission(target, self.campaign, self.ruleset, self.limits)
            received.file = name
            received.sha256 = submission.sha256
            received.problems = list(submission.problems)
        return self._decide(received, submission, arrived, key, message_sha=hashlib.sha256(raw).hexdigest())

    # -------------------------------------------------------------------------------- decision
    def _decide(self, received: Received, submission: Submission | None, arrived: datetime, key: str,
                message_sha: str | None = None) -> Received:
        faction = received.faction
        assert faction is not None
        problems = list(received.problems)
        if submission is not None and submission.faction and submission.faction != faction:
            problems.append(_problem("L05", msg("{file} is the order workbook of {other}, but it was sent from an "
                                                "address of {faction}.", file=submission.name,
                                                other=submission.faction, faction=faction),
                                     msg("Send your own faction's workbook from your own address."),
                                     file=submission.name))
        late = self.deadline is not None and arrived >= self.deadline.when
        if late:
            problems.append(_problem("L08", msg("Your mail reached the campaign at {time}, after the deadline "
                                                "{deadline}.", time=arrived.strftime("%Y-%m-%d %H:%M UTC"),
                                                deadline=self.deadline.shown()),  # type: ignore[union-attr]
                                     msg("Ask the GM whether late orders can still be taken.")))
        # the same rule as 'run': a workbook that is identified and readable is taken (rows with errors are
        # refused, and the receipt lists them); problems of the mail itself refuse it whole
        own = [p for p in problems if p.code.startswith("L") and p.is_error]
        valid = submission is not None and submission.accepted and not own
        received.problems = problems
        received.status = "accepted" if valid else "rejected"
        if valid:
            self._into_inbox(faction, submission)  # type: ignore[arg-type]
            crash_point("after-inbox")
        receipt = self._receipt(received, submission, key)
        name = hashlib.sha256(key.encode("utf-8")).hexdigest()[:24] + ".eml"
        atomic_write_text(self.mail / "outbox" / name, receipt.as_string())
        self.journal.put("received", key, {
            "from": received.sender, "faction": faction, "status": received.status, "file": received.file,
            "sha256": received.sha256, "message_sha256": message_sha, "turn": self.campaign.turn,
            "arrived": arrived.strftime("%Y-%m-%dT%H:%M:%SZ"), "receipt_file": name,
            "codes": sorted({p.code for p in problems if p.is_error}),
        })
        crash_point("after-journal")
        return received

    def _into_inbox(self, faction: str, submission: Submission) -> None:
        """The faction's workbook in inbox/ becomes this one; the one it replaces goes to the archive."""
        self.folder.inbox.mkdir(parents=True, exist_ok=True)
        target = self.folder.inbox / f"{faction}{submission.path.suffix.lower()}"
        for old in sorted(self.folder.inbox.glob(f"{faction}.*")):
            digest = sha256_of(old)
            if old == target and digest == submission.sha256:
                return
            archive = self.mail / "archive" / self.label / f"{faction}-{digest[:12]}{old.suffix.lower()}"
            if not archive.exists():
                archive.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(old, archive)
            if old != target:
                old.unlink()
        atomic_copy(submission.path, target)

    def _receipt(self, received: Received, submission: Submission | None, key: str) -> EmailMessage:
        faction = received.faction or ""
        lang = self.campaign.factions[faction].language
        turn = self.campaign.turn
        title = self.campaign.title
        paragraphs: list[Msg | str] = []
        if received.status == "accepted":
            subject = msg("{title}: orders of {faction} for turn {turn} accepted", title=title, faction=faction,
                          turn=turn)
            paragraphs.append(msg("Your order workbook {file} was accepted as the orders of {faction} for turn "
                                  "{turn}.", file=received.file or "", faction=faction, turn=turn))
            if problems_have_errors(received.problems):
                paragraphs.append(msg("The rows with errors listed below will not be carried out; the checked copy "
                                      "attached marks them. Send a corrected workbook before the deadline to have "
                                      "them carried out."))
            paragraphs.append(msg("SHA-256 of the accepted file: {sha}", sha=received.sha256 or ""))
            paragraphs.append(msg("You may send a new workbook until the deadline; the last one accepted counts."))
        else:
            subject = msg("{title}: orders of {faction} for turn {turn} NOT accepted", title=title, faction=faction,
                          turn=turn)
            paragraphs.append(msg("Your mail was not accepted as the orders of {faction} for turn {turn}. "
                                  "Correct what is listed below and send the workbook again.", faction=faction,
                                  turn=turn))
            previous = next((e for e in self.journal.entries("received").values()
                             if e.get("faction") == faction and e.get("status") == "accepted"
                             and e.get("turn") == turn), None)
            if previous:
                paragraphs.append(msg("Your workbook {file} accepted earlier (SHA-256 {sha}) still counts.",
                                      file=previous.get("file") or "", sha=previous.get("sha256") or ""))
        if self.deadline is not None:
            paragraphs.append(msg("Deadline: {deadline}", deadline=self.deadline.shown()))
        if received.problems:
            paragraphs.append(msg("Problems:").render(lang) + "\n\n" + problems_text(received.problems, lang))
        receipt = new_message(self.settings.address, [received.sender], subject, paragraphs, lang,
                              identity=message_id(self.settings.address, "receipt", key), reply_to=key)
        if submission is not None and problems_have_errors(received.problems) and submission.book is not None:
            attach_workbook(receipt, checked_copy(submission, lang), f"{submission.path.stem}.checked.xlsx")
        return receipt


def problems_have_errors(problems: list[Problem]) -> bool:
    return any(p.is_error for p in problems)


def fetch(root: Path, now: datetime | None = None) -> FetchOutcome:
    """Take the order workbooks waiting in the campaign's mailbox (see the module's docstring)."""
    with opened(root) as (folder, campaign, ruleset):
        settings = mail_settings(campaign, folder.root)
        return Intake(folder, campaign, ruleset, settings, now).run()

