"""``adjudicator mail remind``: once per deadline, a reminder to each faction without a valid workbook.

A faction is "missing" when the inbox holds no workbook of it that the checks accept (the same checks
as ``adjudicator check``). The journal records each reminder by deadline and faction before the
next one is sent, so running the command again (every hour from cron, say) reminds nobody twice; a new
deadline (an extension, the next turn) reminds again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from adjudicator.engine.ruleset import Campaign, Ruleset
from adjudicator.i18n import msg
from adjudicator.intake.deadlines import is_final
from adjudicator.intake.submissions import inbox_files, load_submission
from adjudicator.mail.compose import message_id, new_message
from adjudicator.mail.deadline import Deadline, deadline_of, now_utc
from adjudicator.mail.journal import Journal
from adjudicator.mail.once import send_all, settle, was_sent
from adjudicator.mail.settings import faction_addresses, mail_settings
from adjudicator.store.folder import CampaignFolder
from adjudicator.turn.pipeline import limits_of, opened


@dataclass
class MissingFaction:
    faction: str
    reason: str  # "none" (no workbook), "rejected" (its workbooks have errors)
    files: list[str] = field(default_factory=list)


def missing_factions(folder: CampaignFolder, campaign: Campaign, ruleset: Ruleset) -> list[MissingFaction]:
    """The factions without a valid workbook in the inbox, and why."""
    return inbox_state(folder, campaign, ruleset)[0]


def inbox_state(folder: CampaignFolder, campaign: Campaign,
                ruleset: Ruleset) -> tuple[list[MissingFaction], set[str]]:
    """The factions without a valid workbook in the inbox (and why), and those whose workbook is final."""
    limits = limits_of(campaign)
    valid: set[str] = set()
    final: set[str] = set()
    tried: dict[str, list[str]] = {}
    for path in inbox_files(folder.inbox):
        submission = load_submission(path, campaign, ruleset, limits)
        if submission.faction is None:
            continue
        tried.setdefault(submission.faction, []).append(path.name)
        if submission.accepted:
            valid.add(submission.faction)
            if is_final(submission.book):
                final.add(submission.faction)
    missing = [MissingFaction(f, "rejected" if f in tried else "none", tried.get(f, []))
               for f in sorted(campaign.factions) if f not in valid]
    return missing, final


@dataclass
class RemindOutcome:
    campaign: Campaign
    deadline: Deadline | None
    reminded: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    without_address: list[str] = field(default_factory=list)


def remind(root: Path, now: datetime | None = None) -> RemindOutcome:
    with opened(root) as (folder, campaign, ruleset):
        deadline = deadline_of(campaign)
        outcome = RemindOutcome(campaign, deadline)
        if deadline is None or deadline.passed(now or now_utc()):
            return outcome
        settings = mail_settings(campaign, folder.root)
        journal = Journal(folder.root)
        settle(journal, "reminded", settings)
        addresses = faction_addresses(campaign)
        due = []
        for missing in missing_factions(folder, campaign, ruleset):
            key = f"{deadline.key} {missing.faction}"
            if was_sent(journal, "reminded", key):
                outcome.already.append(missing.faction)
            elif not addresses.get(missing.faction):
                outcome.without_address.append(missing.faction)
            else:
                due.append((key, missing.faction))
        if not due:
            return outcome
        items = []
        for key, faction in due:
            lang = campaign.factions[faction].language
            message = new_message(
                settings.address, addresses[faction],
                msg("{title}: reminder, orders of {faction} for turn {turn} are due by {deadline}",
                    title=campaign.title, faction=faction, turn=campaign.turn, deadline=deadline.shown()),
                [msg("The campaign has no valid order workbook of {faction} for turn {turn} yet.",
                     faction=faction, turn=campaign.turn),
                 msg("Deadline: {deadline}", deadline=deadline.shown()),
                 msg("Send the filled-in order workbook to {address} before then.", address=settings.address)],
                lang, identity=message_id(settings.address, "reminder", campaign.campaign_id, key))
            items.append((key, message, {"faction": faction, "deadline": deadline.shown(), "turn": campaign.turn}))
        sent = set(send_all(journal, "reminded", settings, items))
        outcome.reminded = [faction for key, faction in due if key in sent]
        return outcome
