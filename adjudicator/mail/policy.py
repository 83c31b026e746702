"""``adjudicator mail deadline``: what happens to the turn at its deadline, by the GM's policy.

* every faction has a valid workbook marked final ("Final orders: YES"): the turn is run at once, even
  before the deadline;
* the deadline has not passed: nothing happens, the missing factions are listed;
* it has passed, policy ``wait``: nothing happens until the GM decides (the missing are listed);
* ``resolve``: the turn is run as ``adjudicator run --allow-missing`` runs it, the missing factions
  with their default (empty) orders;
* ``extend``: the deadline is moved on by ``deadline_extension_hours`` in campaign.xlsx, and the
  reminders go out again for the new deadline.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import openpyxl

from adjudicator.engine.ruleset import Campaign
from adjudicator.i18n import fold, msg
from adjudicator.mail.deadline import Deadline, DeadlineError, deadline_of, now_utc
from adjudicator.mail.remind import MissingFaction, inbox_state
from adjudicator.outputs.writing import atomic_save
from adjudicator.store import master
from adjudicator.turn import pipeline
from adjudicator.turn.pipeline import _fail, opened


@dataclass
class PolicyOutcome:
    campaign: Campaign
    deadline: Deadline | None
    action: str  # "open", "waiting", "resolved", "extended", and the run's own statuses
    missing: list[MissingFaction] = field(default_factory=list)
    run: pipeline.RunOutcome | None = None
    new_deadline: Deadline | None = None
    not_final: list[str] = field(default_factory=list)


def set_deadline_setting(path: Path, text: str) -> None:
    """Write ``text`` as the deadline in the Settings sheet of campaign.xlsx (atomically)."""
    wb = openpyxl.load_workbook(path)
    spellings = master.SETTINGS.spellings()
    sheet = next((ws for ws in wb.worksheets if fold(ws.title) in spellings), None)
    if sheet is None:
        raise _fail("M04", msg("The setting {key} is missing.", key="deadline"), None, file=path.name)
    for row in sheet.iter_rows(min_row=2):
        if row[0].value is not None and fold(row[0].value) == "deadline":
            sheet.cell(row=row[0].row, column=2, value=text).data_type = "s"
            break
    else:
        last = sheet.max_row + 1
        sheet.cell(row=last, column=1, value="deadline")
        sheet.cell(row=last, column=2, value=text).data_type = "s"
    atomic_save(wb, path)


def apply_policy(root: Path, now: datetime | None = None) -> PolicyOutcome:
    moment = now or now_utc()
    with opened(root) as (folder, campaign, ruleset):
        try:
            deadline = deadline_of(campaign)
        except DeadlineError as error:
            raise _fail("L10", error.message, None, file="campaign.xlsx") from None
        if deadline is None:
            raise _fail("L10", msg("The campaign has no deadline."),
                        msg("Set the setting deadline in campaign.xlsx, e.g. '2026-12-06 20:00 Europe/Madrid'."),
                        file="campaign.xlsx")
        missing, final = inbox_state(folder, campaign, ruleset)
        outcome = PolicyOutcome(campaign, deadline, "open", missing)
        outcome.not_final = sorted(set(campaign.factions) - final - {m.faction for m in missing})
        if (missing or outcome.not_final) and not deadline.passed(moment):
            return outcome
        if missing and deadline.policy == "wait":
            outcome.action = "waiting"
            return outcome
        if missing and deadline.policy == "extend":
            later = deadline.extended()
            while later.passed(moment):
                later = later.extended()
            set_deadline_setting(folder.master, later.setting_text())
            outcome.action = "extended"
            outcome.new_deadline = later
            return outcome
    outcome.run = pipeline.run(root, allow_missing=bool(missing))
    outcome.action = outcome.run.status
    return outcome
