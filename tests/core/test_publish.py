"""The public post of each ruleset's example turn: only what every faction sees, escaped, and posted to a
webhook served by a real HTTP server on loopback."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from email import policy
from email.parser import BytesParser
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

from adjudicator.engine.registry import find_ruleset
from adjudicator.mail.publish import ReportTable, bbcode, escape_markdown, markdown, public_tables, publish
from adjudicator.paths import examples_root
from adjudicator.scenario import load_scenario
from adjudicator.turn import pipeline
from tests.core.kit import private_facts

RULESETS = ("star_sectors", "galactic_war", "inner_sphere", "coordinated_orders")
MAPPED = RULESETS[:3]


@pytest.fixture(scope="module")
def webhook() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    received: list[dict[str, Any]] = []

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            length = int(self.headers["Content-Length"])
            body = self.rfile.read(length)
            if self.headers.get_content_type() == "multipart/form-data":  # a message with files, as Discord's
                form = BytesParser(policy=policy.HTTP).parsebytes(
                    f"Content-Type: {self.headers['Content-Type']}\r\n\r\n".encode() + body)
                parts = {p.get_param("name", header="content-disposition"): p for p in form.iter_parts()}
                message = json.loads(parts.pop("payload_json").get_payload(decode=True))
                message["files"] = {p.get_filename(): p.get_payload(decode=True) for p in parts.values()}
                received.append(message)
            else:
                received.append(json.loads(body))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/api/webhooks/1/token", received
    server.shutdown()


def private_texts(ruleset: str) -> list[str]:
    """Facts only one faction (and the GM) knows: the campaign's secret, its ledger references, the free
    texts of its orders (descriptions, names of projects) that no other faction wrote."""
    data = load_scenario(examples_root() / ruleset)
    facts = [str(data["settings"]["secret"])]
    orders = data.get("orders", {})
    texts: dict[str, set[str]] = {}
    for faction, sheets in orders.items():
        facts.append(f"{faction}:")
        texts[faction] = {str(v) for rows in sheets.values() for row in rows for v in row.values()
                          if isinstance(v, str) and len(v) > 12 and " " in v}
    for faction, own in texts.items():
        others = set().union(*(t for f, t in texts.items() if f != faction))
        facts += sorted(own - others)
    if ruleset == "star_sectors":
        for faction in orders:
            facts += [f for f in private_facts(faction) if f != "Суперубийца 2000"]  # Beta's theft is public
    return facts


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_public_post_passes_the_fog_of_war_scan(ruleset: str, tmp_path: Path,
                                                    webhook: tuple[str, list[dict[str, Any]]]) -> None:
    root = tmp_path / ruleset
    pipeline.new_campaign(find_ruleset(ruleset), root, example=True)
    assert pipeline.run(root).status == "resolved"
    url, received = webhook
    before = len(received)
    post = publish(root, webhook=url)
    texts = [post.files["md"].read_text(encoding="utf-8"), post.files["bbcode"].read_text(encoding="utf-8")]
    messages = received[before:]
    with_files = [m for m in messages if "files" in m]
    if ruleset in MAPPED:  # the public map: beside the post, shown by it, and sent to the webhook as files
        assert "![" in texts[0] and "(map.png)" in texts[0] and "[attachment=0]map.png" in texts[1]
        texts += [post.files["svg"].read_text(encoding="utf-8")]
        assert [m["files"] for m in with_files] == [{"map.png": post.files["png"].read_bytes(),
                                                     "map.svg": post.files["svg"].read_bytes()}]
        assert post.files["png"].read_bytes().startswith(b"\x89PNG")
    else:
        assert not with_files and "png" not in post.files
    texts += [m["content"] for m in messages]
    for fact in private_texts(ruleset):
        leaks = [t for t in texts if fact in t]
        assert not leaks, f"the public post of {ruleset} shows {fact!r}"
    assert len(messages) == post.webhook_messages >= 1
    assert all(len(m["content"]) <= 2000 and m["allowed_mentions"] == {"parse": []} for m in messages)
    assert "".join(m["content"] for m in messages if "files" not in m) == texts[0]
    again = publish(root)  # same inputs, same bytes
    assert again.files["md"].read_text(encoding="utf-8") == texts[0]


def test_star_sectors_post_holds_the_public_theft(tmp_path: Path) -> None:
    root = tmp_path / "example"
    pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
    assert pipeline.run(root).status == "resolved"
    from click.testing import CliRunner

    from adjudicator.cli import main

    result = CliRunner().invoke(main, ["--lang", "en", "publish", str(root)])
    assert result.exit_code == 0 and "post.bbcode" in result.output
    assert "[b]Thefts announced this turn[/b]" in (root / "turns" / "T03" / "public" / "post.bbcode").read_text()
    post = publish(root, lang="en")
    assert [t.title for t in post.tables] == ["Thefts announced this turn"]
    assert post.tables[0].rows == [["BETA", "ALPHA-T01-1", "ALPHA"]]


def test_only_rows_every_faction_sees_and_text_is_escaped() -> None:
    def table(key: str, rows: list[list[Any]]) -> ReportTable:
        from adjudicator.i18n import msg

        return ReportTable(key, msg("Faction"), [msg("Faction")], rows)

    reports = {"A": [table("news", [["[url=x]y[/url] *z* | w"], ["A only"]]), table("own", [["a"]])],
               "B": [table("news", [["[url=x]y[/url] *z* | w"], ["B only"]]), table("own", [["b"]])]}
    shared = public_tables(reports, "en")
    assert [(t.headers, t.rows) for t in shared] == [(["Faction"], [["[url=x]y[/url] *z* | w"]])]
    from adjudicator.mail.publish import Post

    post = Post("T", 1, shared)
    assert "[url=" not in bbcode(post) and "［url=x］" in bbcode(post)
    assert escape_markdown("*z* | w") in markdown(post) and "*z* |" not in markdown(post)
    assert public_tables({"A": reports["A"]}, "en") == []  # one faction alone: nothing is provably public


def test_the_public_map_shows_what_both_sides_saw_and_no_hidden_fleet(
        tmp_path: Path, webhook: tuple[str, list[dict[str, Any]]]) -> None:
    """ALPHA and BETA fight at A1 (both reports show the battle: public); ALPHA's fleet at D4 and BETA's at D1
    fight nobody (only their own reports show them: hidden)."""
    from tests.core.kit import svg_ids
    from tests.helpers import make_campaign, scenario, write_gm, write_orders

    root = make_campaign(tmp_path / "c", scenario({"ALPHA": 500, "BETA": 500}, [
        ("ALPHA", "A1", 100), ("BETA", "A1", 80), ("ALPHA", "D4", 55), ("BETA", "D1", 33)]))
    for faction in ("ALPHA", "BETA"):
        write_orders(root, faction, [])
    assert pipeline.run(root).status == "waiting"
    write_gm(root, {"battles": [{"faction_a": "ALPHA", "faction_b": "BETA", "squares": "A1", "winner": "ALPHA",
                                 "pct_a": 10, "pct_b": 50}]})
    outcome = pipeline.run(root)
    assert outcome.status == "resolved" and outcome.turn_dir is not None
    results = outcome.turn_dir / "results"
    assert "unit:ALPHA:ALPHA@D4" in svg_ids(results / "ALPHA.map.svg")  # the hidden fleet is there to hide
    assert "unit:BETA:BETA@D1" in svg_ids(results / "BETA.map.svg")
    url, received = webhook
    before = len(received)
    post = publish(root, webhook=url)
    svg = post.files["svg"].read_text(encoding="utf-8")
    assert 'id="battle:A1"' in svg  # the battle both fought, with what was left of each side there
    assert svg_ids(post.files["svg"]) == {"unit:ALPHA:ALPHA@A1", "unit:BETA:BETA@A1"}
    for hidden in ("ALPHA@D4", "BETA@D1", ">ALPHA 55<", ">BETA 33<", "arrow:"):
        assert hidden not in svg
    # the same public map in the results folder (for a campaign that does not use mail), same bytes
    assert (results / "public.map.svg").read_bytes() == post.files["svg"].read_bytes()
    assert (results / "public.map.png").read_bytes() == post.files["png"].read_bytes()
    files = [m["files"] for m in received[before:] if "files" in m]
    assert files == [{"map.png": post.files["png"].read_bytes(), "map.svg": post.files["svg"].read_bytes()}]
