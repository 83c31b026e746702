"""Deadlines (date, time, zone), the deadline policies, the "final" mark and the mail settings, on real
campaign folders and real workbooks (no mail server needed)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import openpyxl
import pytest

from adjudicator.i18n import all_spellings, fold
from adjudicator.intake.deadlines import FINAL, is_final
from adjudicator.intake.reading import read_workbook
from adjudicator.mail.deadline import DeadlineError, advance, deadline_of, format_deadline, parse_deadline
from adjudicator.mail.policy import apply_policy, set_deadline_setting
from adjudicator.mail.settings import MailSettingsError, faction_addresses, mail_settings, split_addresses
from adjudicator.turn import pipeline
from tests.helpers import example_campaign, state


def test_deadlines_with_zone_names_offsets_and_abbreviations() -> None:
    moscow = parse_deadline("2026-12-06 20:00 Europe/Moscow")
    assert moscow.astimezone(UTC) == datetime(2026, 12, 6, 17, 0, tzinfo=UTC)
    assert parse_deadline("2026-12-06 20:00 MSK") == moscow
    assert parse_deadline("2026-12-06 18:00 +01:00") == moscow
    assert parse_deadline("2026-12-06T17:00 UTC") == moscow
    assert format_deadline(moscow) == "2026-12-06 20:00 MSK (17:00 UTC)"
    assert format_deadline(parse_deadline("2026-12-06 00:30 Europe/Madrid")) == \
        "2026-12-06 00:30 CET (2026-12-05 23:30 UTC)"
    for wrong in ("2026-12-06 20:00", "2026-12-06 20:00 Mars/Olympus", "next friday", "2026-02-30 10:00 UTC"):
        with pytest.raises(DeadlineError):
            parse_deadline(wrong)
    # a week later at the same time of day in its own zone, across the end of summer time
    assert advance("2026-10-20 20:00 Europe/Madrid", 7) == "2026-10-27 20:00 Europe/Madrid"


def test_addresses_several_per_faction() -> None:
    assert split_addresses("A@x.org; Beta Deputy <b@y.org>, c@z.org") == ["a@x.org", "b@y.org", "c@z.org"]
    assert split_addresses(None) == [] and split_addresses("no address here") == []


def _settings(root: Path, values: dict[str, object]) -> None:
    path = root / "campaign.xlsx"
    wb = openpyxl.load_workbook(path)
    ws = next(w for w in wb.worksheets if fold(w.title) in all_spellings("Settings"))
    rows = {fold(ws.cell(row=r, column=1).value): r for r in range(2, ws.max_row + 1)}
    for key, value in values.items():
        row = rows.get(fold(key), ws.max_row + 1)
        ws.cell(row=row, column=1, value=key)
        ws.cell(row=row, column=2, value=value)
    wb.save(path)


def test_passwords_never_from_the_campaign_folder(example: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ADJUDICATOR_MAIL_PASSWORD", raising=False)
    inside = example / "password.txt"
    inside.write_text("secret\n")
    _settings(example, {"campaign_email": "game@example.test", "imap_host": "imap.example.test",
                        "smtp_host": "smtp.example.test", "mail_password_file": str(inside)})
    with pytest.raises(MailSettingsError) as error:
        mail_settings(state(example), example)
    assert [p.code for p in error.value.problems] == ["L02"]
    outside = tmp_path / "password.txt"
    outside.write_text("secret\n")
    _settings(example, {"mail_password_file": str(outside)})
    settings = mail_settings(state(example), example)
    assert settings.imap.password == "secret" and settings.imap.security == "ssl" and settings.imap.port == 993
    assert settings.smtp.security == "starttls" and settings.smtp.port == 587
    assert settings.imap.user == "game@example.test"
    _settings(example, {"smtp_password": "hunter2"})  # a password in the workbook itself is refused
    with pytest.raises(MailSettingsError) as error:
        mail_settings(state(example), example)
    assert [p.code for p in error.value.problems] == ["L02"]
    _settings(example, {"smtp_password": ""})
    _settings(example, {"mail_password_file": "", "imap_security": "telnet"})
    with pytest.raises(MailSettingsError) as error:
        mail_settings(state(example), example)
    assert sorted(p.code for p in error.value.problems) == ["L01", "L03"]


def test_every_factions_email_column_is_read(example: Path) -> None:
    assert faction_addresses(state(example)) == {"ALPHA": [], "BETA": [], "BORYA": [], "GAMMA": []}


def _mark_final(path: Path, value: str) -> None:
    wb = openpyxl.load_workbook(path)
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            if row[0].value is not None and fold(row[0].value) in all_spellings(FINAL):
                row[1].value = value
    wb.save(path)


def test_the_final_mark_runs_the_turn_before_its_deadline(example: Path) -> None:
    inbox = sorted((example / "inbox").iterdir())
    assert not any(is_final(read_workbook(p, pipeline.ProblemList())) for p in inbox)  # NO by default
    _settings(example, {"deadline": "2099-01-01 12:00 UTC"})
    now = datetime(2026, 12, 1, tzinfo=UTC)
    outcome = apply_policy(example, now)
    assert outcome.action == "open" and outcome.not_final == ["ALPHA", "BETA", "BORYA", "GAMMA"]
    for path, word in zip(inbox, ("ДА", "да", "Sí", "YES"), strict=True):  # any language, any case
        _mark_final(path, word)
    assert all(is_final(read_workbook(p, pipeline.ProblemList())) for p in inbox)
    outcome = apply_policy(example, now)
    assert outcome.action == "resolved" and outcome.not_final == []


def test_policies_at_the_deadline(tmp_path: Path) -> None:
    deadline = "2026-12-06 20:00 Europe/Moscow"
    after = parse_deadline(deadline) + timedelta(seconds=1)
    for policy, action in (("wait", "waiting"), ("extend", "extended"), ("resolve", "resolved")):
        root = example_campaign(tmp_path / policy)
        (root / "inbox" / "GAMMA.xlsx").unlink()
        _settings(root, {"deadline": deadline, "deadline_policy": policy, "deadline_extension_hours": 12,
                         "turn_length_days": 7})
        assert apply_policy(root, parse_deadline(deadline) - timedelta(minutes=1)).action == "open"
        outcome = apply_policy(root, after)
        if outcome.action == "waiting" and policy == "resolve":  # the GM's decisions, as proposed
            outcome = apply_policy(root, after)
        assert outcome.action == action
        assert [m.faction for m in outcome.missing] == ["GAMMA"]
        campaign = state(root)
        if policy == "extend":
            assert deadline_of(campaign).when == parse_deadline("2026-12-07 08:00 Europe/Moscow")
        elif policy == "resolve":
            assert campaign.turn == 4  # and the next turn's deadline is a week later
            assert deadline_of(campaign).when == parse_deadline("2026-12-13 20:00 Europe/Moscow")
        else:
            assert campaign.turn == 3 and deadline_of(campaign).when == parse_deadline(deadline)


def test_a_wrong_deadline_setting_is_a_message(example: Path) -> None:
    set_deadline_setting(example / "campaign.xlsx", "friday evening")
    with pytest.raises(pipeline.CampaignError) as error:
        apply_policy(example)
    assert [p.code for p in error.value.problems] == ["L10"]


def test_check_says_which_factions_are_missing_and_why(example: Path) -> None:
    from click.testing import CliRunner

    from adjudicator.cli import main

    (example / "inbox" / "GAMMA.xlsx").unlink()
    result = CliRunner().invoke(main, ["--lang", "en", "check", str(example)], terminal_width=200)
    assert "GAMMA: no workbook received." in result.output
    (example / "inbox" / "BETA.xlsx").write_bytes(b"not a workbook")
    result = CliRunner().invoke(main, ["--lang", "en", "check", str(example)], terminal_width=200)
    assert "GAMMA: no workbook identified as its own (not identified: BETA.xlsx)." in result.output
    assert "No valid workbook yet from: BETA, GAMMA." in result.output


def test_the_deadline_command_speaks_the_gms_language(example: Path) -> None:
    from click.testing import CliRunner

    from adjudicator.cli import main

    (example / "inbox" / "GAMMA.xlsx").unlink()
    _settings(example, {"deadline": "2026-12-06 20:00 Europe/Madrid"})
    result = CliRunner().invoke(main, ["--lang", "es", "mail", "deadline", str(example), "--now",
                                       "2026-12-06 20:30 Europe/Madrid"], terminal_width=100)
    assert result.exit_code == 1, result.output  # policy wait: the GM decides
    assert "Plazo: 2026-12-06 20:00 CET (19:00 UTC) (política: wait)" in result.output
    assert "GAMMA: no se recibió ningún libro." in result.output
    result = CliRunner().invoke(main, ["mail", "deadline", str(example), "--now", "tomorrow"])
    assert result.exit_code == 2 and "Traceback" not in result.output
