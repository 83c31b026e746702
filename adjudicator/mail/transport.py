"""Connections to the campaign's mail servers: IMAP through imap-tools, SMTP through smtplib.

TLS is the default (implicit TLS, ``ssl``, or ``starttls``) with the system's certificate checks;
``plain`` is for a server on the GM's own machine only.
"""

from __future__ import annotations

import imaplib
import smtplib
import ssl
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import getaddresses

from imap_tools import AND, BaseMailBox, H, MailBox, MailBoxStartTls, MailBoxUnencrypted

from adjudicator.mail.settings import Server

TIMEOUT = 60


class MailServerError(RuntimeError):
    """Raised when a mail server cannot be reached or refuses the campaign's login."""


@contextmanager
def imap_mailbox(server: Server, folder: str = "INBOX") -> Iterator[BaseMailBox]:
    try:
        if server.security == "ssl":
            box: BaseMailBox = MailBox(server.host, server.port, timeout=TIMEOUT,
                                       ssl_context=ssl.create_default_context())
        elif server.security == "starttls":
            box = MailBoxStartTls(server.host, server.port, timeout=TIMEOUT, ssl_context=ssl.create_default_context())
        else:
            box = MailBoxUnencrypted(server.host, server.port, timeout=TIMEOUT)
        box.login(server.user, server.password, initial_folder=folder)
    except (OSError, imaplib.IMAP4.error, ssl.SSLError) as error:
        raise MailServerError(f"IMAP {server.host}:{server.port}: {error}") from error
    try:
        yield box
    finally:
        try:
            box.logout()
        except (OSError, imaplib.IMAP4.error):
            pass


def arrival_time(box: BaseMailBox, uid: str) -> datetime | None:
    """When the server received message ``uid`` (its INTERNALDATE), which the sender cannot set."""
    status, data = box.client.uid("fetch", uid, "(INTERNALDATE)")
    if status != "OK":
        return None
    for item in data:
        raw = item if isinstance(item, bytes) else (item[0] if isinstance(item, tuple) else b"")
        parsed = imaplib.Internaldate2tuple(raw) if raw else None
        if parsed is not None:
            return datetime.fromtimestamp(time.mktime(parsed), UTC)
    return None


@contextmanager
def smtp_connection(server: Server) -> Iterator[smtplib.SMTP]:
    try:
        if server.security == "ssl":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(server.host, server.port, timeout=TIMEOUT,
                                                  context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(server.host, server.port, timeout=TIMEOUT)
            if server.security == "starttls":
                smtp.starttls(context=ssl.create_default_context())
        if server.user and server.password:
            smtp.login(server.user, server.password)
    except (OSError, smtplib.SMTPException, ssl.SSLError) as error:
        raise MailServerError(f"SMTP {server.host}:{server.port}: {error}") from error
    try:
        yield smtp
    finally:
        try:
            smtp.quit()
        except (OSError, smtplib.SMTPException):
            pass


def send(smtp: smtplib.SMTP, message: EmailMessage, sender: str) -> None:
    try:
        smtp.send_message(message, from_addr=sender)
    except (OSError, smtplib.SMTPException) as error:
        raise MailServerError(f"SMTP: {error}") from error


def send_with_copy(smtp: smtplib.SMTP, message: EmailMessage, sender: str, copy_to: str) -> None:
    """Send ``message`` to the addresses of its To header and, unseen by them, a copy to ``copy_to`` (the
    campaign's own mailbox): the copy is how an interrupted command learns afterwards that the message went."""
    recipients = [address for _, address in getaddresses(message.get_all("To", []))]
    try:
        smtp.send_message(message, from_addr=sender, to_addrs=[*recipients, copy_to])
    except (OSError, smtplib.SMTPException) as error:
        raise MailServerError(f"SMTP: {error}") from error


def delivered(server: Server, message_ids: list[str]) -> set[str]:
    """Which of ``message_ids`` the campaign's mailbox holds (its copies of what it sent)."""
    if not message_ids:
        return set()
    found = set()
    with imap_mailbox(server) as box:
        for identity in message_ids:
            if any(True for _ in box.fetch(AND(header=H("Message-ID", identity)), mark_seen=False,
                                           headers_only=True, limit=1)):
                found.add(identity)
    return found
