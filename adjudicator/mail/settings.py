"""The mail settings of a campaign (Settings sheet of campaign.xlsx) and its factions' addresses.

Settings (a row each; ``_`` and spaces are the same; every one but the hosts has a default)::

    campaign email       the campaign's own address: players send their orders to it
    gm email             where the GM's summary goes
    imap host / port / user / security      the campaign's mailbox (security: starttls, ssl or plain)
    smtp host / port / user / security      the server that sends receipts, reminders and results
    mail password env    the environment variable holding the password (default ADJUDICATOR_MAIL_PASSWORD)
    mail password file   or a file holding it, which must lie outside the campaign folder

No password is ever read from the campaign folder: it would travel with every copy of the folder.
``plain`` sends the password unencrypted and is meant for a server on the GM's own machine.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from email.utils import getaddresses
from pathlib import Path
from typing import Any

import pandas as pd

from adjudicator.engine.problems import ProblemList
from adjudicator.engine.ruleset import Campaign
from adjudicator.i18n import fold, msg

SECURITY_MODES = ("starttls", "ssl", "plain")
DEFAULT_PORTS = {("imap", "ssl"): 993, ("imap", "starttls"): 143, ("imap", "plain"): 143,
                 ("smtp", "ssl"): 465, ("smtp", "starttls"): 587, ("smtp", "plain"): 25}
DEFAULT_PASSWORD_ENV = "ADJUDICATOR_MAIL_PASSWORD"
ADDRESS_SEPARATORS = re.compile(r"[,;\s]+")


class MailSettingsError(ValueError):
    """Raised when the campaign's mail settings cannot be used; ``problems`` says which and why."""

    def __init__(self, problems: ProblemList) -> None:
        super().__init__("; ".join(p.message.render() for p in problems))
        self.problems = problems


@dataclass(frozen=True)
class Server:
    kind: str  # "imap" or "smtp"
    host: str
    port: int
    user: str
    security: str  # one of SECURITY_MODES
    password: str


@dataclass(frozen=True)
class MailSettings:
    address: str
    gm_address: str | None
    imap: Server
    smtp: Server


def setting(campaign: Campaign, key: str) -> str:
    value = campaign.settings.get(fold(key))
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def split_addresses(text: Any) -> list[str]:
    """``"a@x.org; B <b@y.org>, c@z.org"`` → the bare addresses, lower-cased."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return []
    parts = [p for p in ADDRESS_SEPARATORS.split(str(text).replace("<", " <")) if p]
    return [address.lower() for _, address in getaddresses(parts) if "@" in address]


def faction_addresses(campaign: Campaign) -> dict[str, list[str]]:
    """Each faction's addresses, from the Email column of the Factions sheet."""
    frame = campaign.tables.get("factions")
    found: dict[str, list[str]] = {f: [] for f in campaign.factions}
    if frame is None or "email" not in frame.columns:
        return found
    for record in frame.to_dict("records"):
        faction = str(record.get("id") or "").strip().upper()
        if faction in found:
            found[faction] = split_addresses(record.get("email"))
    return found


def faction_of_address(campaign: Campaign) -> dict[str, str]:
    """Address → faction (an address listed for two factions belongs to neither)."""
    owners: dict[str, set[str]] = {}
    for faction, addresses in faction_addresses(campaign).items():
        for address in addresses:
            owners.setdefault(address, set()).add(faction)
    return {address: next(iter(f)) for address, f in owners.items() if len(f) == 1}


def read_password(campaign: Campaign, root: Path, problems: ProblemList) -> str:
    for key in ("mail password", "imap password", "smtp password", "password"):
        if setting(campaign, key):
            problems.error("L02", msg("campaign.xlsx holds a mail password (setting {key}); delete it from the "
                                      "workbook, which is copied and shared, and give the password in an "
                                      "environment variable or a file outside the campaign folder.",
                                      key=key.replace(" ", "_")), None, file="campaign.xlsx")
            return ""
    env_name = setting(campaign, "mail password env") or DEFAULT_PASSWORD_ENV
    file_name = setting(campaign, "mail password file")
    if file_name:
        path = Path(os.path.expanduser(file_name))
        if not path.is_absolute():
            problems.error("L02", msg("The setting mail_password_file must be an absolute path outside the "
                                      "campaign folder."), None, file="campaign.xlsx")
            return ""
        inside = path.resolve().is_relative_to(root.resolve())
        if inside:
            problems.error("L02", msg("The mail password file {path} is inside the campaign folder; move it "
                                      "out of the folder, which is copied and shared.", path=str(path)),
                           None, file="campaign.xlsx")
            return ""
        try:
            return path.read_text(encoding="utf-8").strip()
        except OSError as error:
            problems.error("L03", msg("The mail password file {path} cannot be read: {reason}.", path=str(path),
                                      reason=error.strerror or str(error)), None, file="campaign.xlsx")
            return ""
    password = os.environ.get(env_name)
    if password is None:
        problems.error("L03", msg("The mail password is not set: put it in the environment variable {name}, or "
                                  "name a file outside the campaign folder in the setting mail_password_file.",
                                  name=env_name), None, file="campaign.xlsx")
        return ""
    return password


def _server(campaign: Campaign, kind: str, default_user: str, password: str, problems: ProblemList) -> Server:
    host = setting(campaign, f"{kind} host")
    if not host:
        problems.error("L01", msg("The setting {key} is missing.", key=f"{kind}_host"),
                       msg("Add it to the Settings sheet of campaign.xlsx (see docs/mail.md)."), file="campaign.xlsx")
    security = setting(campaign, f"{kind} security").casefold() or ("ssl" if kind == "imap" else "starttls")
    if security not in SECURITY_MODES:
        problems.error("L01", msg("The setting {key} must be one of: {choices}.", key=f"{kind}_security",
                                  choices=", ".join(SECURITY_MODES)), None, file="campaign.xlsx")
        security = "ssl"
    port_text = setting(campaign, f"{kind} port")
    port = DEFAULT_PORTS[(kind, security)]
    if port_text:
        try:
            port = int(float(port_text))
            if not 0 < port < 65536:
                raise ValueError
        except ValueError:
            problems.error("L01", msg("The setting {key} must be a port number.", key=f"{kind}_port"), None,
                           file="campaign.xlsx")
    user = setting(campaign, f"{kind} user") or default_user
    return Server(kind, host, port, user, security, password)


def mail_settings(campaign: Campaign, root: Path) -> MailSettings:
    """The campaign's mail settings, or :class:`MailSettingsError` naming every one that is wrong."""
    problems = ProblemList()
    address = (split_addresses(setting(campaign, "campaign email")) or [""])[0]
    if not address:
        problems.error("L01", msg("The setting {key} is missing.", key="campaign_email"),
                       msg("Add it to the Settings sheet of campaign.xlsx (see docs/mail.md)."), file="campaign.xlsx")
    password = read_password(campaign, root, problems)
    imap = _server(campaign, "imap", address, password, problems)
    smtp = _server(campaign, "smtp", address, password, problems)
    if problems.has_errors():
        raise MailSettingsError(problems)
    gm = (split_addresses(setting(campaign, "gm email")) or [None])[0]
    return MailSettings(address, gm, imap, smtp)
