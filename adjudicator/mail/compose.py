"""Building the messages the campaign sends (std ``email.message``), in the reader's language."""

from __future__ import annotations

import hashlib
import io
import os
import signal
from collections.abc import Iterable, Sequence
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

from openpyxl import Workbook

from adjudicator.engine.problems import Problem
from adjudicator.i18n import Msg, msg
from adjudicator.outputs.reproducible import reproducible_bytes

XLSX_TYPE = ("application", "vnd.openxmlformats-officedocument.spreadsheetml.sheet")
CRASH_VARIABLE = "ADJUDICATOR_MAIL_CRASH_AT"
_reached: dict[str, int] = {}


def crash_point(name: str) -> None:
    """For the tests of recovery: ``ADJUDICATOR_MAIL_CRASH_AT=name:N`` kills the process (SIGKILL, no
    clean-up of any kind) the N-th time it reaches the point ``name``."""
    wanted = os.environ.get(CRASH_VARIABLE, "")
    if not wanted:
        return
    point, _, count = wanted.partition(":")
    if point != name:
        return
    _reached[name] = _reached.get(name, 0) + 1
    if _reached[name] >= int(count or 1):
        os.kill(os.getpid(), signal.SIGKILL)


def message_id(domain_of: str, *parts: str) -> str:
    """A Message-ID made from ``parts``: the same message always has the same one."""
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()[:32]
    domain = domain_of.rpartition("@")[2] or "adjudicator.invalid"
    return f"<{digest}@{domain}>"


def problems_text(problems: Sequence[Problem], lang: str) -> str:
    """The problems table as plain text, one problem a paragraph, in ``lang``."""
    lines = []
    for p in problems:
        severity = (msg("error") if p.is_error else msg("warning")).render(lang)
        where = " › ".join(x for x in (p.sheet, p.cell) if x) or (p.file or "")
        lines.append(f"{p.code} ({severity}) {where}".rstrip())
        lines.append(f"  {p.message.render(lang)}")
        if p.hint:
            lines.append(f"  {msg('What to do').render(lang)}: {p.hint.render(lang)}")
    return "\n".join(lines)


def new_message(sender: str, recipients: Iterable[str], subject: Msg | str, paragraphs: Iterable[Msg | str],
                lang: str, identity: str | None = None, reply_to: str | None = None,
                when: object = None) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = ", ".join(recipients)
    message["Subject"] = subject.render(lang) if isinstance(subject, Msg) else subject
    message["Message-ID"] = identity or make_msgid(domain=sender.rpartition("@")[2] or None)
    if when is not None:
        message["Date"] = format_datetime(when)  # type: ignore[arg-type]
    else:
        from email.utils import localtime

        message["Date"] = format_datetime(localtime())
    if reply_to:
        message["In-Reply-To"] = reply_to
        message["References"] = reply_to
    message["Content-Language"] = lang
    message["Auto-Submitted"] = "auto-replied" if reply_to else "auto-generated"
    body = "\n\n".join(p.render(lang) if isinstance(p, Msg) else p for p in paragraphs if p)
    message.set_content(body + "\n", charset="utf-8")
    return message


def attach_file(message: EmailMessage, path: Path, name: str | None = None) -> None:
    maintype, subtype = XLSX_TYPE if path.suffix.lower() in (".xlsx", ".xlsm") else ("application", "octet-stream")
    message.add_attachment(path.read_bytes(), maintype=maintype, subtype=subtype, filename=name or path.name)


def attach_workbook(message: EmailMessage, wb: Workbook, name: str) -> None:
    buffer = io.BytesIO()
    wb.save(buffer)
    message.add_attachment(reproducible_bytes(buffer.getvalue()), maintype=XLSX_TYPE[0], subtype=XLSX_TYPE[1],
                           filename=name)
