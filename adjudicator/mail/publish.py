"""``adjudicator publish``: the public part of a resolved turn, as a forum post (BBCode and Markdown),
and optionally posted to a Discord-compatible webhook.

What is public is decided without trusting any ruleset to label it: the turn is resolved again in
memory from what the turn folder kept (the state before it, the submitted workbooks, the GM's input
and the seed: the same inputs give the same results), and a row of a report table is public when
**every** faction's report has it. A table no faction shares with all the others (its fleets, its
treasury, its projects) never reaches the post. The post is written in the campaign's language to
``turns/TNN/public/post.md`` and ``post.bbcode``.

For a ruleset with a map, the public map goes with the post: ``map.png`` and ``map.svg`` beside it, drawn
from those public rows alone (see :func:`adjudicator.outputs.maps.view.public_reports`); the Markdown shows it
(``![...](map.png)``), the BBCode places it as the post's first attachment (``[attachment=0]``, as phpBB
does), and the webhook gets both files in one more message.

The webhook's address holds a secret token: it is given with ``--webhook`` or the environment variable
``ADJUDICATOR_WEBHOOK_URL``, never stored in the campaign folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.dice.source import dice_for_turn
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.problems import ProblemList
from adjudicator.engine.registry import find_ruleset
from adjudicator.engine.ruleset import ReportTable, TurnInput  # noqa: F401 - ReportTable for callers
from adjudicator.engine.validity import passed_orders, passed_sheets
from adjudicator.i18n import msg, render
from adjudicator.intake.submissions import load_submission
from adjudicator.outputs.writing import _atomic, atomic_write_text
from adjudicator.store import master
from adjudicator.turn.gm_input import read_gm_input
from adjudicator.turn.pipeline import CampaignError, _fail, limits_of, opened

WEBHOOK_VARIABLE = "ADJUDICATOR_WEBHOOK_URL"
WEBHOOK_LIMIT = 2000  # characters of one Discord message
MARKDOWN_SPECIAL = "\\`*_{}[]<>()#+-.!|~"
BBCODE_BRACKETS = str.maketrans({"[": "［", "]": "］"})


@dataclass
class PublicTable:
    title: str
    headers: list[str]
    rows: list[list[str]]


@dataclass
class Post:
    title: str
    turn: int
    tables: list[PublicTable] = field(default_factory=list)
    files: dict[str, Path] = field(default_factory=dict)
    webhook_messages: int = 0
    map_title: str = ""  # the public map's title, when the ruleset draws one (files "png" and "svg")


def cell_text(value: Any, lang: str) -> str:
    value = render(value, lang)
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())


def public_tables(reports: dict[str, list[ReportTable]], lang: str) -> list[PublicTable]:
    """The rows that every faction's report holds, table by table, in the order of the first report."""
    if len(reports) < 2:
        return []
    rendered: dict[str, dict[str, tuple[str, list[str], list[list[str]]]]] = {}
    for faction, tables in reports.items():
        rendered[faction] = {t.key: (cell_text(t.title, lang), [cell_text(h, lang) for h in t.headers],
                                     [[cell_text(c, lang) for c in row] for row in t.rows]) for t in tables}
    first = next(iter(reports))
    out = []
    for table in reports[first]:
        title, headers, rows = rendered[first][table.key]
        shared = []
        for row in rows:
            if all(table.key in other and other[table.key][1] == headers and row in other[table.key][2]
                   for other in rendered.values()):
                shared.append(row)
        if shared:
            out.append(PublicTable(title, headers, shared))
    return out


def escape_markdown(text: str) -> str:
    return "".join(f"\\{c}" if c in MARKDOWN_SPECIAL else c for c in text)


def escape_bbcode(text: str) -> str:
    return text.translate(BBCODE_BRACKETS)


MAP_FILES = {"png": "map.png", "svg": "map.svg"}


def markdown(post: Post) -> str:
    lines = [f"# {escape_markdown(post.title)}", ""]
    if post.map_title:
        lines += [f"![{escape_markdown(post.map_title)}]({MAP_FILES['png']})", ""]
    for table in post.tables:
        lines += [f"## {escape_markdown(table.title)}", ""]
        lines.append("| " + " | ".join(escape_markdown(h) for h in table.headers) + " |")
        lines.append("|" + "---|" * len(table.headers))
        lines += ["| " + " | ".join(escape_markdown(c) for c in row) + " |" for row in table.rows]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def bbcode(post: Post) -> str:
    lines = [f"[size=150][b]{escape_bbcode(post.title)}[/b][/size]", ""]
    if post.map_title:
        lines += [f"[attachment=0]{MAP_FILES['png']}[/attachment]", ""]
    for table in post.tables:
        lines.append(f"[b]{escape_bbcode(table.title)}[/b]")
        lines.append("[table]")
        lines.append("[tr]" + "".join(f"[th]{escape_bbcode(h)}[/th]" for h in table.headers) + "[/tr]")
        lines += ["[tr]" + "".join(f"[td]{escape_bbcode(c)}[/td]" for c in row) + "[/tr]" for row in table.rows]
        lines += ["[/table]", ""]
    return "\n".join(lines).rstrip() + "\n"


def webhook_chunks(text: str, limit: int = WEBHOOK_LIMIT) -> list[str]:
    """``text`` cut at line ends into messages of at most ``limit`` characters."""
    chunks, current = [], ""
    for line in text.splitlines(keepends=True):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) > limit:
            chunks.append(current)
            current = ""
        current += line
    if current.strip():
        chunks.append(current)
    return chunks


def post_to_webhook(url: str, text: str) -> int:
    """POST ``text`` to a Discord-compatible webhook, in as many messages as it needs; their number."""
    chunks = webhook_chunks(text)
    for chunk in chunks:
        body = json.dumps({"content": chunk, "allowed_mentions": {"parse": []}}).encode("utf-8")
        request = urllib.request.Request(url, body, {"Content-Type": "application/json",
                                                     "User-Agent": "adjudicator"}, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                answer.read()
        except (urllib.error.URLError, OSError) as error:
            raise _fail("L11", msg("The webhook did not take the post: {reason}.", reason=str(error)),
                        msg("Check the webhook's address; the post files were written all the same.")) from None
    return len(chunks)


def post_files_to_webhook(url: str, files: dict[str, Path], caption: str) -> None:
    """POST ``files`` (name -> path) to a Discord-compatible webhook in one message (multipart/form-data, as
    Discord takes attachments: the message as ``payload_json``, each file as ``files[n]``)."""
    payload = {"content": caption[:WEBHOOK_LIMIT], "allowed_mentions": {"parse": []},
               "attachments": [{"id": n, "filename": name} for n, name in enumerate(files)]}
    parts = [("payload_json", None, "application/json", json.dumps(payload).encode("utf-8"))]
    parts += [(f"files[{n}]", name, "image/svg+xml" if name.endswith(".svg") else "image/png", path.read_bytes())
              for n, (name, path) in enumerate(files.items())]
    body, content_type = form_data(parts)
    request = urllib.request.Request(url, body, {"Content-Type": content_type, "User-Agent": "adjudicator"},
                                     method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            answer.read()
    except (urllib.error.URLError, OSError) as error:
        raise _fail("L11", msg("The webhook did not take the post: {reason}.", reason=str(error)),
                    msg("Check the webhook's address; the post files were written all the same.")) from None


def form_data(parts: list[tuple[str, str | None, str, bytes]]) -> tuple[bytes, str]:
    """A multipart/form-data body (RFC 7578) of (field, file name or None, content type, bytes) parts, and its
    Content-Type. The standard library's email package rewrites line ends inside binary parts, so the few
    lines of the format are written here; the boundary is drawn from the content (same parts, same bytes)."""
    digest = hashlib.sha256(b"".join(data for *_, data in parts)).hexdigest()
    boundary = f"adjudicator-{digest[:32]}"
    body = bytearray()
    for name, filename, content_type, data in parts:
        disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename else "")
        body += (f"--{boundary}\r\nContent-Disposition: {disposition}\r\n"
                 f"Content-Type: {content_type}\r\n\r\n").encode()
        body += data + b"\r\n"
    body += f"--{boundary}--\r\n".encode("ascii")
    return bytes(body), f"multipart/form-data; boundary={boundary}"


def _faction_reports(root: Path, turn: int | None) -> tuple[Any, int, dict[str, list[ReportTable]], Any, Any]:
    """The resolved turn's campaign (as it was before the turn), its number, every faction's report, the
    ruleset and the turn's result."""
    with opened(root) as (folder, current, _):
        resolved = turn if turn is not None else current.turn - 1
        manifest = folder.manifest(resolved) if resolved >= 1 else None
        if manifest is None:
            raise _fail("L09", msg("Turn {turn} has not been resolved: there are no results to send.",
                                   turn=resolved), msg("Run 'adjudicator run' first."))
        turn_dir = folder.turn_dir(resolved)
        problems = ProblemList()
        loaded = master.load_campaign(turn_dir / "state_before.xlsx", find_ruleset, problems)
        if loaded is None:
            raise CampaignError(problems)
        campaign, ruleset = loaded
        paths = sorted(p for p in (turn_dir / "submitted").glob("*.*") if p.name != "SHA256SUMS")
        submissions = [load_submission(p, campaign, ruleset, limits_of(campaign)) for p in paths]
        # The same inputs as the run gave the ruleset (pipeline._resolve): only the rows that passed, the
        # turn's own dice (keyed or verifiable) and the ruleset's ledger; else the results differ.
        taken = {s.faction: s for s in submissions if s.accepted}
        orders = {f: passed_orders(s.orders) for f, s in taken.items() if f and s.orders is not None}
        gm_path = turn_dir / "gm_input.xlsx"
        gm_problems = ProblemList()
        gm_sheets = passed_sheets(read_gm_input(gm_path, ruleset, gm_problems)) if gm_path.exists() else None
        dice = dice_for_turn(folder.root, campaign, taken, int(manifest["seed"]))
        result = ruleset.resolve(TurnInput(campaign, orders, gm_sheets, gm_path.name, dice,
                                           Ledger(resolved, ruleset.account_label), gm_problems))
        reports = {f: result.faction_reports.get(f, []) for f in sorted(campaign.factions)}
        return campaign, resolved, reports, ruleset, result


def public_map(ruleset: Any, campaign: Any, result: Any, lang: str) -> tuple[str, Any] | None:
    """The public map of the turn (its title and picture), when the ruleset draws maps."""
    from adjudicator.outputs.maps.draw import render, title_of
    from adjudicator.outputs.maps.view import PUBLIC

    view = ruleset.map_view(campaign, result, PUBLIC)
    return None if view is None else (title_of(view, lang), render(view, lang))


def publish(root: Path, turn: int | None = None, lang: str | None = None, webhook: str | None = None) -> Post:
    campaign, resolved, reports, ruleset, result = _faction_reports(root, turn)
    language = lang or campaign.language
    title = msg("{title}: turn {turn}", title=campaign.title, turn=resolved).render(language)
    post = Post(title, resolved, public_tables(reports, language))
    public = root / "turns" / master.turn_label(resolved) / "public"
    post.files = {"md": public / "post.md", "bbcode": public / "post.bbcode"}
    drawn = public_map(ruleset, campaign, result, language)
    if drawn is not None:
        post.map_title, picture = drawn
        for kind, data in (("png", picture.png), ("svg", picture.svg)):
            post.files[kind] = public / MAP_FILES[kind]
            _atomic(post.files[kind], lambda temporary, data=data: Path(temporary).write_bytes(data))
    text = markdown(post)
    atomic_write_text(post.files["md"], text)
    atomic_write_text(post.files["bbcode"], bbcode(post))
    url = webhook or os.environ.get(WEBHOOK_VARIABLE)
    if url:
        post.webhook_messages = post_to_webhook(url, text)
        if drawn is not None:
            post_files_to_webhook(url, {MAP_FILES[k]: post.files[k] for k in ("png", "svg")}, post.map_title)
            post.webhook_messages += 1
    return post
