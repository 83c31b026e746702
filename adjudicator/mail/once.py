"""Sending each message once, even when a command is killed halfway.

Before a message goes, the journal records it as "sending" with its Message-ID (the same message always
has the same one); once the server has taken it, as "sent". Every message also goes, unseen by its
readers, to the campaign's own mailbox. A command that finds an entry still "sending" (it was killed
between the two records) looks for that Message-ID in the campaign's mailbox: found, the message went
and is not sent again; not found, it is sent now.
"""

from __future__ import annotations

from collections.abc import Sequence
from email.message import EmailMessage
from typing import Any

from adjudicator.mail.compose import crash_point
from adjudicator.mail.journal import Journal
from adjudicator.mail.settings import MailSettings
from adjudicator.mail.transport import delivered, send_with_copy, smtp_connection


def was_sent(journal: Journal, section: str, key: str) -> bool:
    return (journal.get(section, key) or {}).get("state") == "sent"


def settle(journal: Journal, section: str, settings: MailSettings) -> None:
    """Entries left "sending" by an interrupted command: "sent" when the campaign's mailbox has the copy."""
    sending = {key: entry["message_id"] for key, entry in journal.entries(section).items()
               if entry.get("state") == "sending"}
    if not sending:
        return
    found = delivered(settings.imap, sorted(set(sending.values())))
    for key, identity in sending.items():
        if identity in found:
            journal.update(section, key, state="sent")


def send_all(journal: Journal, section: str, settings: MailSettings,
             items: Sequence[tuple[str, EmailMessage, dict[str, Any]]]) -> list[str]:
    """Send every item (key, message, what to record) not yet sent; the keys sent now."""
    settle(journal, section, settings)
    due = [item for item in items if not was_sent(journal, section, item[0])]
    if not due:
        return []
    sent = []
    with smtp_connection(settings.smtp) as smtp:
        for key, message, record in due:
            journal.put(section, key, {**record, "state": "sending", "message_id": str(message["Message-ID"])})
            crash_point(f"before-{section}")
            send_with_copy(smtp, message, settings.address, settings.address)
            crash_point(f"after-{section}")
            journal.update(section, key, state="sent")
            sent.append(key)
    return sent
