"""A whole turn played by mail through a real Dovecot (IMAP, LMTP) and a real SMTP server on loopback."""

from __future__ import annotations

import email
import email.policy
import hashlib
import os
import secrets
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from random import Random
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from imap_tools import MailBoxUnencrypted

from adjudicator.cli import main
from adjudicator.i18n import all_spellings, fold
from adjudicator.mail.compose import CRASH_VARIABLE
from adjudicator.mail.deadline import format_deadline, parse_deadline
from adjudicator.mail.fetch import fetch
from adjudicator.mail.journal import Journal
from adjudicator.mail.policy import apply_policy
from adjudicator.mail.remind import remind
from adjudicator.mail.send import send_results
from adjudicator.outputs.templates import build_order_workbook
from adjudicator.outputs.writing import atomic_save
from adjudicator.store import master
from adjudicator.turn import pipeline
from tests.helpers import example_campaign
from tests.mailserver import PASSWORD, MailServer, dovecot_binary, start_mail_server

pytestmark = pytest.mark.mail
FACTIONS = ("ALPHA", "BETA", "BORYA", "GAMMA")


@pytest.fixture(scope="module")
def mail_server() -> Iterator[MailServer]:
    """One Dovecot and one SMTP relay for the module. Missing Dovecot: skip here, fail in CI."""
    binary = dovecot_binary()
    missing: str | None = None
    if binary is None:
        missing = "Dovecot is not installed (apt-get install dovecot-imapd dovecot-lmtpd); .ci/run installs it"
    elif os.geteuid() != 0:
        missing = "the test Dovecot runs as root (its mailboxes belong to nobody); run the mail tests as root"
    if missing:
        if os.environ.get("ADJUDICATOR_REQUIRE_MAIL"):
            pytest.fail(f"the mail tests are required here (ADJUDICATOR_REQUIRE_MAIL): {missing}")
        pytest.skip(missing)
    server = start_mail_server(binary)
    yield server
    server.stop()


# ------------------------------------------------------------------------------------------ helpers
def addresses(tag: str) -> dict[str, str]:
    """Mailboxes of one test: every faction, the campaign, the GM, a stranger (unique per test)."""
    names = {f: f"{f.lower()}.{tag}@example.test" for f in FACTIONS}
    names.update(beta2=f"beta-deputy.{tag}@example.test", campaign=f"campaign.{tag}@example.test",
                 gm=f"gm.{tag}@example.test", stranger=f"stranger.{tag}@example.test")
    return names


def configure(root: Path, server: MailServer, names: dict[str, str], deadline: str,
              extra: dict[str, Any] | None = None) -> None:
    """The example campaign with Email addresses in its Factions sheet and the mail settings."""
    server.add_users(names.values())
    path = root / "campaign.xlsx"
    wb = openpyxl.load_workbook(path)
    factions = next(ws for ws in wb.worksheets if fold(ws.title) in all_spellings("Factions"))
    headers = [fold(c.value) for c in factions[1] if c.value is not None]
    spellings = master.EMAIL.spellings()
    column = next((i for i, h in enumerate(headers, start=1) if h in spellings), len(headers) + 1)
    factions.cell(row=1, column=column, value="Email")
    for row in range(2, factions.max_row + 1):
        faction = str(factions.cell(row=row, column=1).value or "").upper()
        if faction == "BETA":
            value = f"{names['BETA']}; Beta Deputy <{names['beta2']}>"
        else:
            value = names.get(faction)
        factions.cell(row=row, column=column, value=value)
    settings = next(ws for ws in wb.worksheets if fold(ws.title) in master.SETTINGS.spellings())
    values = {
        "deadline": deadline, "deadline_policy": "wait", "campaign_email": names["campaign"],
        "gm_email": names["gm"], "imap_host": "127.0.0.1", "imap_port": server.imap_port, "imap_security": "plain",
        "smtp_host": "127.0.0.1", "smtp_port": server.smtp_port, "smtp_security": "plain", "max_file_mb": 0.5,
    }
    values.update(extra or {})
    rows = {fold(settings.cell(row=r, column=1).value): r for r in range(2, settings.max_row + 1)}
    for key, value in values.items():
        row = rows.get(fold(key), settings.max_row + 1)
        settings.cell(row=row, column=1, value=key)
        settings.cell(row=row, column=2, value=value)
    atomic_save(wb, path)


def mail_with(sender: str, to: str, subject: str, attachments: list[tuple[str, bytes]]) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = f"<{secrets.token_hex(8)}@example.test>"
    message.set_content("Orders attached.\n")
    for name, data in attachments:
        message.add_attachment(data, maintype="application",
                               subtype="vnd.openxmlformats-officedocument.spreadsheetml.sheet", filename=name)
    return message.as_bytes(policy=email.policy.SMTP)


def mailbox(server: MailServer, address: str) -> list[email.message.EmailMessage]:
    box = MailBoxUnencrypted("127.0.0.1", server.imap_port)
    box.login(address, PASSWORD)
    try:
        return [email.message_from_bytes(bytes(m.obj), policy=email.policy.default)  # type: ignore[misc]
                for m in box.fetch(mark_seen=False)]
    finally:
        box.logout()


def attachments(message: email.message.EmailMessage) -> dict[str, bytes]:
    return {part.get_filename(): part.get_payload(decode=True) for part in message.iter_attachments()}


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def alpha_orders(root: Path, target: Path, amount: Any) -> Path:
    """ALPHA's order workbook of the current turn with one BUILD order of ``amount``."""
    _, campaign, ruleset = pipeline.open_campaign(root)
    rows = [{"order": "BUILD", "square": "A1", "amount": amount}]
    atomic_save(build_order_workbook(ruleset, campaign, "ALPHA", {"orders": rows}), target)
    return target


def resaved(source: Path, target: Path) -> Path:
    """The same orders, saved again (other bytes)."""
    openpyxl.load_workbook(source).save(target)
    return target


def too_large(source: Path, target: Path) -> Path:
    wb = openpyxl.load_workbook(source)
    ws = wb.create_sheet("Notes")
    for r in range(1, 2500):
        for c in range(1, 13):
            ws.cell(row=r, column=c, value=secrets.token_hex(16))
    wb.save(target)
    return target


def future_deadline(days: int = 3) -> tuple[str, datetime]:
    when = (datetime.now(UTC) + timedelta(days=days)).replace(second=0, microsecond=0)
    moscow = when.astimezone(parse_deadline("2000-01-01 00:00 Europe/Moscow").tzinfo)
    return f"{moscow.strftime('%Y-%m-%d %H:%M')} Europe/Moscow", when


@pytest.fixture(autouse=True)
def mail_password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADJUDICATOR_MAIL_PASSWORD", PASSWORD)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, mail_server: MailServer) -> Iterator[dict[str, Any]]:
    """The example campaign, its orders mailed in by four factions and a stranger, then fetched: one turn
    played through the tests of this module, in their order (intake, reminders, the deadline)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ADJUDICATOR_MAIL_PASSWORD", PASSWORD)
        yield play(tmp_path_factory.mktemp("played"), mail_server)


def play(tmp_path: Path, mail_server: MailServer) -> dict[str, Any]:
    names = addresses(secrets.token_hex(3))
    root = example_campaign(tmp_path / "campaign")
    deadline_text, deadline = future_deadline()
    configure(root, mail_server, names, deadline_text)
    originals = {f: root / "inbox" / f"{f}.xlsx" for f in FACTIONS}
    kept = tmp_path / "workbooks"
    kept.mkdir()
    for path in originals.values():
        shutil.move(path, kept / path.name)
    work = {f: kept / f"{f}.xlsx" for f in FACTIONS}
    bad = alpha_orders(root, kept / "ALPHA-orders.xlsx", "сорок")
    fixed = alpha_orders(root, kept / "ALPHA-fixed.xlsx", 50)
    beta_first = resaved(work["BETA"], kept / "BETA-first.xlsx")
    big = too_large(work["BORYA"], kept / "BORYA-big.xlsx")
    campaign = names["campaign"]

    def post(sender: str, subject: str, files: list[Path]) -> None:
        mail_server.deliver(sender, [campaign], mail_with(sender, campaign, subject,
                                                          [(p.name, p.read_bytes()) for p in files]))

    post(names["ALPHA"], "orders", [bad])                    # one bad row
    post(names["BETA"], "orders", [beta_first])
    post(names["stranger"], "orders for Gamma", [work["GAMMA"]])  # not a faction's address
    post(names["BORYA"], "orders", [big])                    # above the campaign's 0.5 MB limit
    post(names["beta2"], "orders, again", [work["BETA"]])     # Beta's second address, the second time
    first = fetch(root)
    post(names["ALPHA"], "orders, corrected", [fixed])
    second = fetch(root)
    return {"root": root, "names": names, "deadline": deadline, "first": first, "second": second,
            "work": work, "fixed": fixed, "bad": bad, "beta_first": beta_first}


# ---------------------------------------------------------------------------------------- the tests
def test_intake_receipts_and_inbox(played: dict[str, Any], mail_server: MailServer) -> None:
    root, names = played["root"], played["names"]
    first = {r.sender: r for r in played["first"].received}
    assert first[names["stranger"]].status == "ignored"
    assert first[names["BORYA"]].status == "rejected"
    assert "F02" in {p.code for p in first[names["BORYA"]].problems}
    assert first[names["ALPHA"]].status == "accepted"
    assert any(p.is_error for p in first[names["ALPHA"]].problems)  # the bad row, refused
    assert first[names["BETA"]].status == first[names["beta2"]].status == "accepted"
    assert [r.status for r in played["second"].received] == ["accepted"]
    assert played["second"].skipped == 5

    # inbox/: the last valid workbook of each faction, byte for byte; the earlier ones archived
    inbox = sorted(p.name for p in (root / "inbox").iterdir())
    assert inbox == ["ALPHA.xlsx", "BETA.xlsx"]
    assert sha((root / "inbox" / "ALPHA.xlsx").read_bytes()) == sha(played["fixed"].read_bytes())
    assert sha((root / "inbox" / "BETA.xlsx").read_bytes()) == sha(played["work"]["BETA"].read_bytes())
    archived = {sha(p.read_bytes()) for p in (root / "mail" / "archive" / "T03").iterdir()}
    assert archived == {sha(played["bad"].read_bytes()), sha(played["beta_first"].read_bytes())}

    # receipts: in each sender's mailbox, in its faction's language; the stranger gets nothing
    assert mailbox(mail_server, names["stranger"]) == []
    alpha = mailbox(mail_server, names["ALPHA"])
    assert len(alpha) == 2
    assert "приняты" in alpha[0]["Subject"] and alpha[0]["In-Reply-To"]
    body = alpha[0].get_body(("plain",)).get_content()
    assert "C01" in body and "сорок" in body
    assert format_deadline(parse_deadline(_setting(root, "deadline"))) in body
    checked = attachments(alpha[0])
    assert list(checked) == ["ALPHA-orders.checked.xlsx"]  # the checked copy, as there are errors
    assert attachments(alpha[1]) == {}
    assert sha(played["fixed"].read_bytes()) in alpha[1].get_body(("plain",)).get_content()
    borya = mailbox(mail_server, names["BORYA"])
    assert len(borya) == 1 and "НЕ приняты" in borya[0]["Subject"]
    assert "F02" in borya[0].get_body(("plain",)).get_content()
    assert len(mailbox(mail_server, names["BETA"])) == 1 and len(mailbox(mail_server, names["beta2"])) == 1
    assert mailbox(mail_server, names["GAMMA"]) == []

    # fetching again takes nothing twice
    again = fetch(root)
    assert again.received == [] and again.skipped == 6
    assert len(mailbox(mail_server, names["ALPHA"])) == 2


def _setting(root: Path, key: str) -> str:
    wb = openpyxl.load_workbook(root / "campaign.xlsx")
    ws = next(w for w in wb.worksheets if fold(w.title) in master.SETTINGS.spellings())
    return next(str(r[1].value) for r in ws.iter_rows(min_row=2) if fold(r[0].value) == fold(key))


def test_reminders_reach_only_the_missing_once(played: dict[str, Any], mail_server: MailServer) -> None:
    root, names = played["root"], played["names"]
    outcome = remind(root)
    assert sorted(outcome.reminded) == ["BORYA", "GAMMA"]
    assert sorted(remind(root).already) == ["BORYA", "GAMMA"]  # once per deadline
    gamma = mailbox(mail_server, names["GAMMA"])
    assert len(gamma) == 1
    shown = format_deadline(played["deadline"].astimezone(parse_deadline("2000-01-01 00:00 Europe/Moscow").tzinfo))
    assert "recordatorio" in gamma[0]["Subject"].casefold()  # Gamma plays in Spanish
    assert shown in gamma[0].get_body(("plain",)).get_content()
    assert len(mailbox(mail_server, names["BORYA"])) == 2  # its receipt and the reminder
    assert len(mailbox(mail_server, names["ALPHA"])) == 2 and len(mailbox(mail_server, names["BETA"])) == 1


def test_the_three_policies_and_the_results(played: dict[str, Any], mail_server: MailServer,
                                            tmp_path: Path) -> None:
    root, names = played["root"], played["names"]
    after = played["deadline"] + timedelta(minutes=1)
    before = played["deadline"] - timedelta(hours=1)
    assert apply_policy(root, before).action == "open"

    waiting = tmp_path / "wait"
    shutil.copytree(root, waiting)
    outcome = apply_policy(waiting, after)
    assert outcome.action == "waiting" and [m.faction for m in outcome.missing] == ["BORYA", "GAMMA"]
    assert not (waiting / "turns" / "T03" / "turn.json").exists()

    extending = tmp_path / "extend"
    shutil.copytree(root, extending)
    _set(extending, {"deadline_policy": "extend", "deadline_extension_hours": 48})
    outcome = apply_policy(extending, after)
    assert outcome.action == "extended"
    assert outcome.new_deadline.when == played["deadline"] + timedelta(hours=48)
    assert parse_deadline(_setting(extending, "deadline")) == played["deadline"] + timedelta(hours=48)
    assert not (extending / "turns" / "T03" / "turn.json").exists()

    _set(root, {"deadline_policy": "resolve"})
    outcome = apply_policy(root, after)
    if outcome.action == "waiting":  # the rules ask the GM (the battle the missing factions were to fight)
        assert outcome.run is not None and outcome.run.gm_input is not None
        outcome = apply_policy(root, after)  # the GM accepts the proposed decisions as they are
    assert outcome.action == "resolved", outcome.run
    assert (root / "turns" / "T03" / "turn.json").exists()

    dry = send_results(root, dry_run=True)
    assert {d.recipient: d.status for d in dry.deliveries} == {f: "due" for f in (*FACTIONS, "GM")}
    assert not Journal(root).entries("sent")
    result = CliRunner().invoke(main, ["mail", "send", str(root)])
    assert result.exit_code == 0, result.output
    assert {d.status for d in send_results(root).deliveries} == {"already sent"}

    every_file = {}
    for faction in FACTIONS:
        every_file[faction] = {sha((root / "turns" / "T03" / "results" / f"{faction}.xlsx").read_bytes()),
                               sha((root / "turns" / "T04" / "templates" / f"{faction}.xlsx").read_bytes())}
    for faction in FACTIONS:
        boxes = [names[faction]] + ([names["beta2"]] if faction == "BETA" else [])
        for address in boxes:
            received = mailbox(mail_server, address)
            results = [m for m in received if m["Subject"].endswith(faction) and attachments(m)
                       and not m["In-Reply-To"]]
            assert len(results) == 1, [m["Subject"] for m in received]
            got = {sha(data) for m in received for data in attachments(m).values()}
            assert every_file[faction] <= got
            for other in FACTIONS:
                if other != faction:
                    assert not (every_file[other] & got), f"{address} holds {other}'s files"
                    assert all(other not in str(m["Subject"]) for m in received)
    gm = mailbox(mail_server, names["gm"])
    assert len(gm) == 1 and list(attachments(gm[0])) == ["campaign_after.xlsx"]


def _set(root: Path, values: dict[str, Any]) -> None:
    wb = openpyxl.load_workbook(root / "campaign.xlsx")
    ws = next(w for w in wb.worksheets if fold(w.title) in master.SETTINGS.spellings())
    rows = {fold(ws.cell(row=r, column=1).value): r for r in range(2, ws.max_row + 1)}
    for key, value in values.items():
        row = rows.get(fold(key), ws.max_row + 1)
        ws.cell(row=row, column=1, value=key)
        ws.cell(row=row, column=2, value=value)
    atomic_save(wb, root / "campaign.xlsx")


# --------------------------------------------------------------------------- killed and run again
def mail_command(root: Path, command: str, crash: str | None = None,
                 kill_after: float | None = None) -> int:
    """``adjudicator mail COMMAND ROOT`` in its own process; killed (SIGKILL) at the crash point
    ``crash`` or after ``kill_after`` seconds. Its return code (-9 when it was killed)."""
    env = {**os.environ, "ADJUDICATOR_MAIL_PASSWORD": PASSWORD}
    env.pop(CRASH_VARIABLE, None)
    if crash:
        env[CRASH_VARIABLE] = crash
    process = subprocess.Popen([sys.executable, "-m", "adjudicator", "mail", command, str(root)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if kill_after is not None:
        try:
            process.wait(kill_after)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
    out, err = process.communicate(timeout=180)
    assert process.returncode in (0, -signal.SIGKILL), (out + err).decode(errors="replace")[-3000:]
    return process.returncode


@pytest.mark.slow
def test_killed_fetch_and_send_do_everything_exactly_once(tmp_path: Path, mail_server: MailServer) -> None:
    names = addresses(secrets.token_hex(3))
    root = example_campaign(tmp_path / "campaign")
    deadline_text, _ = future_deadline()
    configure(root, mail_server, names, deadline_text)
    kept = tmp_path / "workbooks"
    kept.mkdir()
    for path in sorted((root / "inbox").iterdir()):
        shutil.move(path, kept / path.name)
    big = too_large(kept / "BORYA.xlsx", kept / "BORYA-big.xlsx")
    sent_by = {"ALPHA": [kept / "ALPHA.xlsx"], "BETA": [kept / "BETA.xlsx"], "BORYA": [big],
               "stranger": [kept / "GAMMA.xlsx"], "beta2": [kept / "BETA.xlsx"]}
    for who, files in sent_by.items():
        mail_server.deliver(names[who], [names["campaign"]], mail_with(
            names[who], names["campaign"], "orders", [(p.name, p.read_bytes()) for p in files]))

    random = Random(13)
    kills = 0
    # killed with a workbook in inbox/ but nothing in the journal; with a decision journaled but its receipt
    # not sent; with a receipt taken by the server but not journaled as sent; then at a random moment
    for crash in ("after-inbox:1", "after-journal:2", "after-receipts:1"):
        kills += mail_command(root, "fetch", crash) != 0
    kills += mail_command(root, "fetch", kill_after=random.uniform(0.5, 3)) != 0
    assert mail_command(root, "fetch") == 0
    assert kills >= 3
    journal = Journal(root)
    taken = [e for e in journal.entries("received").values() if e["status"] != "own"]
    assert sorted(e["from"] for e in taken) == sorted(names[w] for w in sent_by)
    assert all(e["state"] == "sent" for e in journal.entries("receipts").values())
    for who in sent_by:
        receipts = mailbox(mail_server, names[who])
        assert len(receipts) == (0 if who == "stranger" else 1), (who, [m["Subject"] for m in receipts])
    assert sha((root / "inbox" / "BETA.xlsx").read_bytes()) == sha((kept / "BETA.xlsx").read_bytes())
    assert sorted(p.name for p in (root / "inbox").iterdir()) == ["ALPHA.xlsx", "BETA.xlsx"]

    outcome = pipeline.run(root, allow_missing=True)
    if outcome.status == "waiting":
        outcome = pipeline.run(root, allow_missing=True)
    assert outcome.status == "resolved"
    kills = 0
    for crash in ("after-sent:1", "before-sent:2"):  # sent but not journaled; journaled "sending", not sent
        kills += mail_command(root, "send", crash) != 0
    kills += mail_command(root, "send", kill_after=random.uniform(0.5, 3)) != 0
    assert mail_command(root, "send") == 0
    assert kills >= 2
    for faction in FACTIONS:
        results = [m for m in mailbox(mail_server, names[faction]) if not m["In-Reply-To"]]
        assert len(results) == 1, (faction, [m["Subject"] for m in results])
        files = attachments(results[0])
        assert sha((root / "turns" / "T03" / "results" / f"{faction}.xlsx").read_bytes()) in map(sha, files.values())
    assert len(mailbox(mail_server, names["gm"])) == 1
    assert len([m for m in mailbox(mail_server, names["beta2"]) if not m["In-Reply-To"]]) == 1


def test_before_the_first_turn_each_faction_gets_its_order_workbook(tmp_path: Path,
                                                                   mail_server: MailServer) -> None:
    names = addresses(secrets.token_hex(3))
    root = example_campaign(tmp_path / "campaign")
    configure(root, mail_server, names, future_deadline()[0])
    assert {d.status for d in send_results(root, dry_run=True).deliveries} == {"due"}
    assert not (root / "turns" / "T03" / "templates").exists()  # a dry run writes nothing
    outcome = send_results(root)
    assert {d.recipient: d.status for d in outcome.deliveries} == {f: "sent" for f in FACTIONS}
    assert {d.status for d in send_results(root).deliveries} == {"already sent"}
    for faction in FACTIONS:
        received = mailbox(mail_server, names[faction])
        assert len(received) == 1
        template = (root / "turns" / "T03" / "templates" / f"{faction}.xlsx").read_bytes()
        assert list(map(sha, attachments(received[0]).values())) == [sha(template)]
    assert "Срок" in mailbox(mail_server, names["ALPHA"])[0].get_body(("plain",)).get_content()
    assert mailbox(mail_server, names["gm"]) == []


def test_another_factions_workbook_and_a_late_mail_are_refused(tmp_path: Path, mail_server: MailServer) -> None:
    names = addresses(secrets.token_hex(3))
    root = example_campaign(tmp_path / "campaign")
    passed = (datetime.now(UTC) - timedelta(hours=1)).strftime("%Y-%m-%d %H:%M UTC")
    configure(root, mail_server, names, passed)
    beta = (root / "inbox" / "BETA.xlsx").read_bytes()
    for path in list((root / "inbox").iterdir()):
        path.unlink()
    mail_server.deliver(names["ALPHA"], [names["campaign"]],
                        mail_with(names["ALPHA"], names["campaign"], "orders", [("BETA.xlsx", beta)]))
    mail_server.deliver(names["BETA"], [names["campaign"]],
                        mail_with(names["BETA"], names["campaign"], "orders", [("BETA.xlsx", beta)]))
    outcome = fetch(root)
    codes = {r.sender: {p.code for p in r.problems if p.is_error} for r in outcome.received}
    assert {r.status for r in outcome.received} == {"rejected"}
    assert "L05" in codes[names["ALPHA"]] and "L08" in codes[names["BETA"]]
    assert list((root / "inbox").iterdir()) == []
    alpha = mailbox(mail_server, names["ALPHA"])
    assert len(alpha) == 1 and "L05" in alpha[0].get_body(("plain",)).get_content()
    assert "L08" in mailbox(mail_server, names["BETA"])[0].get_body(("plain",)).get_content()
