"""The deadline of the current turn and the GM's policy when it passes.

Settings of campaign.xlsx::

    deadline                  2026-12-06 20:00 Europe/Moscow   (a date, a time and a time zone)
    deadline policy           wait | resolve | extend
    deadline extension hours  24    (for ``extend``)
    turn length days          7     (optional: each resolved turn moves the deadline on by as many days)

The time zone is an IANA name (``Europe/Madrid``), a UTC offset (``+03:00``, ``UTC-5``) or one of the
abbreviations of :data:`ABBREVIATIONS`, each of which stands for one fixed offset. A deadline is always
shown as an absolute time with its zone and its UTC equivalent, never as "in 59 minutes".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from adjudicator.engine.ruleset import Campaign
from adjudicator.i18n import Msg, msg
from adjudicator.mail.settings import setting

POLICIES = ("wait", "resolve", "extend")
DEFAULT_EXTENSION_HOURS = 24

#: Abbreviations a GM may write after the time; each is one fixed offset from UTC, in hours.
ABBREVIATIONS = {
    "UTC": 0, "GMT": 0, "Z": 0, "WET": 0, "WEST": 1, "CET": 1, "CEST": 2, "EET": 2, "EEST": 3, "MSK": 3,
    "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7, "ART": -3,
    "BRT": -3,
}
PATTERN = re.compile(
    r"^\s*(?P<date>\d{4}-\d{1,2}-\d{1,2})[ T]+(?P<time>\d{1,2}:\d{2})(?::\d{2})?\s*(?P<zone>\S*)\s*$")
OFFSET = re.compile(r"^(?:UTC|GMT)?(?P<sign>[+-])(?P<hours>\d{1,2})(?::?(?P<minutes>\d{2}))?$", re.IGNORECASE)


class DeadlineError(ValueError):
    """Raised when the deadline setting cannot be read; the message says what is wrong."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message.render())
        self.message = message


def parse_zone(text: str) -> tzinfo:
    if not text:
        raise DeadlineError(msg("The deadline has no time zone: write it after the time, e.g. "
                                "'2026-12-06 20:00 Europe/Madrid' or '2026-12-06 20:00 +01:00'."))
    if text.upper() in ABBREVIATIONS:
        hours = ABBREVIATIONS[text.upper()]
        return timezone(timedelta(hours=hours), text.upper())
    match = OFFSET.match(text)
    if match:
        sign = -1 if match["sign"] == "-" else 1
        delta = timedelta(hours=int(match["hours"]), minutes=int(match["minutes"] or 0))
        return timezone(sign * delta)
    try:
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        raise DeadlineError(msg("The time zone {zone} of the deadline is unknown; use a name such as "
                                "Europe/Madrid or an offset such as +01:00.", zone=text)) from None


def parse_deadline(text: str) -> datetime:
    """``"2026-12-06 20:00 MSK"`` → an aware datetime."""
    match = PATTERN.match(text or "")
    if not match:
        raise DeadlineError(msg("The deadline {value} is not a date, a time and a time zone, e.g. "
                                "'2026-12-06 20:00 Europe/Madrid'.", value=text))
    try:
        naive = datetime.strptime(f"{match['date']} {match['time']}", "%Y-%m-%d %H:%M")
    except ValueError:
        raise DeadlineError(msg("The deadline {value} is not a real date and time.", value=text)) from None
    return naive.replace(tzinfo=parse_zone(match["zone"]))


def format_deadline(when: datetime) -> str:
    """The absolute time, in the deadline's own zone and in UTC: ``2026-12-06 20:00 MSK (17:00 UTC)``."""
    zone = when.tzname() or when.strftime("%z")
    utc = when.astimezone(UTC)
    same_day = utc.date() == when.date()
    shown_utc = utc.strftime("%H:%M") if same_day else utc.strftime("%Y-%m-%d %H:%M")
    return f"{when.strftime('%Y-%m-%d %H:%M')} {zone} ({shown_utc} UTC)"


def write_deadline(when: datetime, zone_text: str) -> str:
    """The setting's text for ``when``, keeping the GM's way of naming the zone."""
    return f"{when.strftime('%Y-%m-%d %H:%M')} {zone_text}"


@dataclass(frozen=True)
class Deadline:
    when: datetime
    zone_text: str
    policy: str
    extension: timedelta

    def shown(self) -> str:
        return format_deadline(self.when)

    @property
    def key(self) -> str:
        """The deadline as a stable key (for the once-per-deadline reminders)."""
        return self.when.astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ")

    def passed(self, now: datetime) -> bool:
        return now >= self.when

    def extended(self) -> Deadline:
        later = self.when + self.extension
        if isinstance(self.when.tzinfo, ZoneInfo):
            later = (self.when.astimezone(UTC) + self.extension).astimezone(self.when.tzinfo)
        return Deadline(later, self.zone_text, self.policy, self.extension)

    def setting_text(self) -> str:
        return write_deadline(self.when, self.zone_text)


def deadline_of(campaign: Campaign) -> Deadline | None:
    """The current turn's deadline, None when the GM set none; :class:`DeadlineError` when it is wrong."""
    text = setting(campaign, "deadline")
    if not text:
        return None
    when = parse_deadline(text)
    match = PATTERN.match(text)
    zone_text = match["zone"] if match else ""
    policy = setting(campaign, "deadline policy").casefold() or "wait"
    if policy not in POLICIES:
        raise DeadlineError(msg("The setting deadline_policy must be one of: {choices}.",
                                choices=", ".join(POLICIES)))
    hours_text = setting(campaign, "deadline extension hours")
    try:
        hours = float(hours_text) if hours_text else DEFAULT_EXTENSION_HOURS
        if hours <= 0:
            raise ValueError
    except ValueError:
        raise DeadlineError(msg("The setting deadline_extension_hours must be a positive number of hours.")) \
            from None
    return Deadline(when, zone_text, policy, timedelta(hours=hours))


def advance(text: str, days: float) -> str:
    """The deadline ``text`` moved on by ``days``, at the same time of day in its own zone."""
    when = parse_deadline(text)
    match = PATTERN.match(text)
    later = when.replace(tzinfo=None) + timedelta(days=days)
    return write_deadline(later, match["zone"] if match else "")


def now_utc() -> datetime:
    return datetime.now(UTC)
