"""A real mail system on loopback for the tests: Dovecot (IMAP and LMTP) and an SMTP server (aiosmtpd)
that delivers every accepted message into Dovecot through LMTP.

Dovecot runs from its own configuration file in a temporary folder, as root with the unprivileged
login and internal users of the Debian package (``dovenull``, ``dovecot``); mailboxes belong to
``nobody``. Nothing listens beyond 127.0.0.1. Every address of :data:`MailServer.users` is a mailbox
whose password is :data:`PASSWORD`.
"""

from __future__ import annotations

import imaplib
import os
import shutil
import smtplib
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PASSWORD = "loopback-only"
MAILBOX_UID = 65534  # nobody: mail is never stored as root

CONFIG = """\
base_dir = {base}/run
state_dir = {base}/state
log_path = {base}/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_login_user = dovenull
default_internal_user = dovecot
first_valid_uid = 1
mail_location = maildir:{base}/mail/%u
postmaster_address = postmaster@example.test
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {base}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={uid} home={base}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap_port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {lmtp_port}
  }}
}}
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes] | None = None, seconds: float = 15) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port}")


class LmtpRelay:
    """aiosmtpd handler: every message accepted over SMTP is handed to Dovecot's LMTP."""

    def __init__(self, lmtp_port: int) -> None:
        self.lmtp_port = lmtp_port

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        refused = {}
        try:
            # one transaction per recipient: LMTP answers DATA once per recipient, smtplib reads one answer
            for recipient in envelope.rcpt_tos:
                with smtplib.LMTP("127.0.0.1", self.lmtp_port) as lmtp:
                    refused.update(lmtp.sendmail(envelope.mail_from, [recipient], envelope.original_content))
        except smtplib.SMTPException as error:
            return f"451 LMTP delivery failed: {error}"
        if refused:
            return f"550 not delivered to {', '.join(refused)}"
        return "250 OK delivered"


@dataclass
class MailServer:
    base: Path
    imap_port: int
    lmtp_port: int
    smtp_port: int
    users: list[str] = field(default_factory=list)
    dovecot: subprocess.Popen[bytes] | None = None
    smtp: Any = None

    def add_users(self, addresses: Iterable[str]) -> None:
        """Make mailboxes of ``addresses``; returns once Dovecot knows them.

        Dovecot's passwd-file looks at the file at most once a second: a login or a delivery in the same
        second as the last lookup still sees the old file (LMTP: "User doesn't exist"). So the file is
        replaced whole, then a login of a new address is tried until Dovecot has read it again."""
        new = [a for a in dict.fromkeys(addresses) if a not in self.users]
        self.users.extend(new)
        lines = [f"{a}:{{PLAIN}}{PASSWORD}::::::\n" for a in self.users]
        path = self.base / "passwd"
        partial = path.with_name("passwd.new")
        partial.write_text("".join(lines), encoding="utf-8")
        os.replace(partial, path)
        if new and self.dovecot is not None:
            self.wait_for_login(new[-1])

    def wait_for_login(self, address: str, seconds: float = 15) -> None:
        end = time.monotonic() + seconds
        while True:
            with imaplib.IMAP4("127.0.0.1", self.imap_port) as imap:
                try:
                    imap.login(address, PASSWORD)
                except imaplib.IMAP4.error:
                    if time.monotonic() > end:
                        raise RuntimeError(f"Dovecot does not know the mailbox {address}") from None
                else:
                    imap.logout()
                    return
            time.sleep(0.2)

    def deliver(self, sender: str, recipients: list[str], message: bytes) -> None:
        """Send ``message`` through the SMTP server, as a player's mail program would."""
        with smtplib.SMTP("127.0.0.1", self.smtp_port) as smtp:
            smtp.sendmail(sender, recipients, message)

    def log(self) -> str:
        path = self.base / "dovecot.log"
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.smtp is not None:
            self.smtp.stop()
        if self.dovecot is not None and self.dovecot.poll() is None:
            self.dovecot.terminate()
            try:
                self.dovecot.wait(10)
            except subprocess.TimeoutExpired:
                self.dovecot.kill()
                self.dovecot.wait()
        shutil.rmtree(self.base, ignore_errors=True)


def dovecot_binary() -> str | None:
    return shutil.which("dovecot") or (
        "/usr/sbin/dovecot" if os.access("/usr/sbin/dovecot", os.X_OK) else None)


def start_mail_server(dovecot: str) -> MailServer:
    """Dovecot and the SMTP relay, started and listening (the caller stops them)."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    base = Path(tempfile.mkdtemp(prefix="adjudicator-mail-"))
    os.chmod(base, 0o755)  # dovecot's unprivileged processes reach their sockets below it
    (base / "mail").mkdir()
    os.chown(base / "mail", MAILBOX_UID, MAILBOX_UID)
    server = MailServer(base, free_port(), free_port(), free_port())
    server.add_users(["postmaster@example.test"])
    (base / "dovecot.conf").write_text(CONFIG.format(base=base, uid=MAILBOX_UID, imap_port=server.imap_port,
                                                     lmtp_port=server.lmtp_port), encoding="utf-8")
    server.dovecot = subprocess.Popen([dovecot, "-F", "-c", str(base / "dovecot.conf")],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_port(server.imap_port, server.dovecot)
        wait_for_port(server.lmtp_port, server.dovecot)

        def authenticate(smtp: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
            ok = (isinstance(data, LoginPassword) and data.login.decode() in server.users
                  and data.password.decode() == PASSWORD)
            return AuthResult(success=ok, handled=False)

        server.smtp = Controller(LmtpRelay(server.lmtp_port), hostname="127.0.0.1", port=server.smtp_port,
                                 authenticator=authenticate, auth_require_tls=False)
        server.smtp.start()
    except BaseException:
        server.stop()
        raise
    return server
