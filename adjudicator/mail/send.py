"""``adjudicator mail send``: the results of a resolved turn, each faction only its own.

Before any turn is resolved, each faction receives its order workbook of the current turn. After a turn,
each faction's addresses receive one message with its results workbook (``turns/TNN/results/F.xlsx``)
and its order workbook for the next turn (made if it is not there yet), in the faction's language; the
GM receives a summary and the master workbook as the turn left it. The journal records every message
as soon as the server has taken it, so a re-run after an interruption sends only what had not gone;
``--dry-run`` shows what would go and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.engine.ruleset import Campaign
from adjudicator.i18n import Msg, msg
from adjudicator.intake.submissions import sha256_of
from adjudicator.mail.compose import attach_file, message_id, new_message
from adjudicator.mail.deadline import deadline_of
from adjudicator.mail.journal import Journal
from adjudicator.mail.once import send_all, settle, was_sent
from adjudicator.mail.settings import faction_addresses, mail_settings
from adjudicator.store import master
from adjudicator.turn.pipeline import _fail, _make_templates, opened


@dataclass
class Delivery:
    key: str
    recipient: str  # a faction id, or "GM"
    addresses: list[str]
    files: list[Path]
    status: str = "due"  # "due", "sent", "already sent", "no address"


@dataclass
class SendOutcome:
    campaign: Campaign
    turn: int
    deliveries: list[Delivery] = field(default_factory=list)


def send_results(root: Path, turn: int | None = None, dry_run: bool = False) -> SendOutcome:
    with opened(root) as (folder, campaign, ruleset):
        resolved = turn if turn is not None else campaign.turn - 1
        manifest = folder.manifest(resolved) if resolved >= 1 else None
        if manifest is None and turn is None:  # no turn resolved yet: the order workbooks of this one
            return _send_templates(folder, campaign, ruleset, dry_run)
        if manifest is None:
            raise _fail("L09", msg("Turn {turn} has not been resolved: there are no results to send.",
                                   turn=resolved), msg("Run 'adjudicator run' first."))
        settings = mail_settings(campaign, folder.root)
        journal = Journal(folder.root)
        addresses = faction_addresses(campaign)
        label = master.turn_label(resolved)
        results = folder.turn_dir(resolved) / "results"
        next_turn = resolved + 1 == campaign.turn
        templates_dir = folder.templates_dir(campaign.turn)
        if next_turn and not dry_run:
            _make_templates(folder, campaign, ruleset)
        outcome = SendOutcome(campaign, resolved)
        for faction in sorted(campaign.factions):
            files = [results / f"{faction}.xlsx"]
            if next_turn:
                files.append(templates_dir / f"{faction}.xlsx")
            outcome.deliveries.append(Delivery(f"{label} {faction}", faction, addresses.get(faction, []), files))
        if settings.gm_address:
            gm_files = [folder.turn_dir(resolved) / "campaign_after.xlsx"]
            outcome.deliveries.append(Delivery(f"{label} GM", "GM", [settings.gm_address], gm_files))
        if not dry_run:
            settle(journal, "sent", settings)
        for delivery in outcome.deliveries:
            if was_sent(journal, "sent", delivery.key):
                delivery.status = "already sent"
            elif not delivery.addresses:
                delivery.status = "no address"
        due = [d for d in outcome.deliveries if d.status == "due"]
        if dry_run or not due:
            return outcome
        deadline = deadline_of(campaign) if next_turn else None
        items = []
        for delivery in due:
            if delivery.recipient == "GM":
                lang = campaign.language
                subject: Msg = msg("{title}: turn {turn} resolved, summary for the GM", title=campaign.title,
                                   turn=resolved)
                lines = [f"{d.recipient}: {', '.join(d.addresses) or '-'}"
                         for d in outcome.deliveries if d.recipient != "GM"]
                paragraphs: list[Msg | str] = [
                    msg("Turn {turn} was resolved (seed {seed}). The master workbook as the turn left it is "
                        "attached.", turn=resolved, seed=manifest.get("seed", "")),
                    msg("Results sent to the factions:"), "\n".join(lines)]
            else:
                lang = campaign.factions[delivery.recipient].language
                subject = msg("{title}: results of turn {turn} for {faction}", title=campaign.title,
                              turn=resolved, faction=delivery.recipient)
                paragraphs = [msg("Attached are your results of turn {turn} ({file}).", turn=resolved,
                                  file=delivery.files[0].name)]
                if next_turn:
                    paragraphs.append(msg("Your order workbook for turn {turn} is attached too: fill it in and "
                                          "send it back to {address}.", turn=campaign.turn,
                                          address=settings.address))
                if deadline is not None:
                    paragraphs.append(msg("Deadline: {deadline}", deadline=deadline.shown()))
                paragraphs.append(msg("SHA-256 of the results: {sha}", sha=sha256_of(delivery.files[0])))
            identity = message_id(settings.address, "results", campaign.campaign_id, delivery.key)
            message = new_message(settings.address, delivery.addresses, subject, paragraphs, lang,
                                  identity=identity)
            for path in delivery.files:
                name = path.name if delivery.recipient == "GM" else f"{delivery.recipient}-{path.parent.name}-" \
                    f"{master.turn_label(resolved if path.parent == results else campaign.turn)}.xlsx"
                attach_file(message, path, name)
            items.append((delivery.key, message, {"to": delivery.addresses,
                                                  "files": {p.name: sha256_of(p) for p in delivery.files}}))
        sent = set(send_all(journal, "sent", settings, items))
        for delivery in due:
            if delivery.key in sent:
                delivery.status = "sent"
        return outcome


def _send_templates(folder: Any, campaign: Campaign, ruleset: Any, dry_run: bool) -> SendOutcome:
    """Each faction its order workbook of the current turn (the first mail of a campaign)."""
    settings = mail_settings(campaign, folder.root)
    journal = Journal(folder.root)
    addresses = faction_addresses(campaign)
    label = master.turn_label(campaign.turn)
    if not dry_run:
        _make_templates(folder, campaign, ruleset)
        settle(journal, "sent", settings)
    outcome = SendOutcome(campaign, campaign.turn)
    for faction in sorted(campaign.factions):
        delivery = Delivery(f"{label} {faction} orders", faction, addresses.get(faction, []),
                            [folder.templates_dir(campaign.turn) / f"{faction}.xlsx"])
        if was_sent(journal, "sent", delivery.key):
            delivery.status = "already sent"
        elif not delivery.addresses:
            delivery.status = "no address"
        outcome.deliveries.append(delivery)
    due = [d for d in outcome.deliveries if d.status == "due"]
    if dry_run or not due:
        return outcome
    deadline = deadline_of(campaign)
    items = []
    for delivery in due:
        lang = campaign.factions[delivery.recipient].language
        paragraphs: list[Msg | str] = [
            msg("Your order workbook for turn {turn} is attached: fill it in and send it back to {address}.",
                turn=campaign.turn, address=settings.address)]
        if deadline is not None:
            paragraphs.append(msg("Deadline: {deadline}", deadline=deadline.shown()))
        message = new_message(settings.address, delivery.addresses,
                              msg("{title}: order workbook of {faction} for turn {turn}", title=campaign.title,
                                  faction=delivery.recipient, turn=campaign.turn), paragraphs, lang,
                              identity=message_id(settings.address, "orders", campaign.campaign_id, delivery.key))
        attach_file(message, delivery.files[0], f"{delivery.recipient}-{label}.xlsx")
        items.append((delivery.key, message, {"to": delivery.addresses}))
    sent = set(send_all(journal, "sent", settings, items))
    for delivery in due:
        if delivery.key in sent:
            delivery.status = "sent"
    return outcome


def status_text(delivery: Delivery) -> Msg:
    return {"due": msg("to send"), "sent": msg("sent"), "already sent": msg("sent earlier"),
            "no address": msg("no address")}[delivery.status]
