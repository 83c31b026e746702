"""Results workbooks composed of the player's parts and the new tabs XlsxWriter writes
(adjudicator/outputs/compose.py): for every ruleset's example, each faction's results have the face of the
workbook made today's way (the player's file reloaded by openpyxl), and were composed indeed; LibreOffice
shows the words of every tab; two runs give the same bytes; a player's part composing does not keep makes the
results (and the checked copy) the slow way, and ``check`` and ``run`` say so in one line, in the GM's
language."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.dice.source import use_verifiable_dice
from adjudicator.engine.registry import find_ruleset
from adjudicator.i18n import gettext_in
from adjudicator.outputs import compose, faction_workbooks, xlsx_package
from adjudicator.turn import pipeline
from tests.conftest import convert
from tests.core.test_verifiable_dice import fixed_key
from tests.core.test_writer_same_outputs import workbook_face
from tests.helpers import EVERY_RULESET_SLOW_BUT_ONE

RULESETS = EVERY_RULESET_SLOW_BUT_ONE


def _composed(path: Path) -> bool:
    """The file was composed of the player's parts (its neutral properties, not XlsxWriter's or openpyxl's)."""
    with zipfile.ZipFile(path) as archive:
        return archive.read("docProps/app.xml") == compose.NEUTRAL_APP


def _run_capturing(ruleset: str, root: Path, kept: Path, monkeypatch: pytest.MonkeyPatch,
                   verifiable: bool = False, selected: bool = False) -> list[dict[str, Any]]:
    """The example of ``ruleset`` (``verifiable``: with verifiable dice, so with a verification tab) checked
    and run; each results workbook composed as the run composes it and also made today's way (kept in
    ``kept``), with what the composed workbook held before its merge. ``selected``: every inbox workbook's
    first sheet saved as the selected tab, as Excel and LibreOffice save the tab the player looked at."""
    real = pipeline.atomic_save_fast
    made: list[dict[str, Any]] = []

    def capture(wb: Any, target: Path) -> Any:
        composed = getattr(wb, compose.COMPOSED, None)
        if composed is None or composed.first:  # the master, checked copies: as the run saves them
            return real(wb, target)
        number = len(made)
        new_tabs = list(wb.sheetnames)
        today = kept / f"{number}.today.xlsx"
        assert not real(composed.today(), today).slow_way
        saved = real(wb, target)
        shutil.copyfile(target, kept / f"{number}.composed.xlsx")
        player = openpyxl.load_workbook(composed.player, read_only=True).sheetnames  # before the run moves it
        made.append({"player": player, "new_tabs": new_tabs, "saved": saved,
                     "today": today, "composed": kept / f"{number}.composed.xlsx"})
        return saved

    monkeypatch.setattr(pipeline, "atomic_save_fast", capture)
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "1")  # captured in this process
    pipeline.new_campaign(find_ruleset(ruleset), root, example=True)
    if verifiable:
        use_verifiable_dice(root, fixed_key(ruleset))
        pipeline.make_templates(root)
    if selected:
        for path in sorted((root / "inbox").glob("*.xlsx")):
            wb = openpyxl.load_workbook(path)
            wb.worksheets[0].sheet_view.tabSelected = True
            wb.save(path)
    pipeline.check(root)
    outcome = pipeline.run(root)
    assert outcome.status == "resolved", outcome.status
    monkeypatch.undo()
    return made


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[Any]:
    """Where two faces differ: (sheet, part, first differing keys or items)."""
    found = []
    for key in old.keys() | new.keys():
        if old.get(key) == new.get(key):
            continue
        if isinstance(old.get(key), dict) and isinstance(new.get(key), dict):
            for part in old[key].keys() | new[key].keys():
                a, b = old[key].get(part), new[key].get(part)
                if a != b:
                    if isinstance(a, dict) and isinstance(b, dict):
                        keys = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))[:3]
                        found.append((key, part, [(k, a.get(k), b.get(k)) for k in keys]))
                    else:
                        found.append((key, part, a, b))
        else:
            found.append((key, old.get(key), new.get(key)))
    return found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_composed_results_have_the_face_of_todays_results(ruleset: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    kept = tmp_path / "kept"
    kept.mkdir()
    made = _run_capturing(ruleset, tmp_path / "campaign", kept, monkeypatch)
    assert made, "no results workbook was composed"
    pictures = charts = links = 0
    for entry in made:
        player = entry["player"]
        assert not set(entry["new_tabs"]) & set(player), "the player's sheets were loaded"
        assert entry["saved"] and entry["saved"].slow_way is None, entry["saved"]
        assert _composed(entry["composed"]) and not _composed(entry["today"])
        old, new = workbook_face(entry["today"]), workbook_face(entry["composed"])
        assert new["sheets"] == player + entry["new_tabs"]  # the player's sheets, then the new tabs
        assert new["active"] == entry["new_tabs"][0]
        assert [s for s in new["sheets"] if new[s]["view"][1]] == [entry["new_tabs"][0]]  # the only selected
        assert old == new, _differences(old, new)[:5]
        for sheet in entry["new_tabs"]:
            pictures += len(new[sheet]["images"])
            charts += len(new[sheet]["charts"])
            links += len(new[sheet]["links"])
    if ruleset == "star_sectors":  # its results hold a map picture, the History chart and the Changes' links
        assert pictures and charts and links, (pictures, charts, links)


def test_composed_results_keep_the_dice_verification_tab_and_verify(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Verifiable dice: the verification tab (merged cells, wrapped text) composed as today, and
    ``adjudicator verify`` passes on the composed workbook."""
    kept = tmp_path / "kept"
    kept.mkdir()
    made = _run_capturing("galactic_war", tmp_path / "campaign", kept, monkeypatch, verifiable=True)
    merged = 0
    for entry in made:
        assert entry["saved"].slow_way is None and _composed(entry["composed"])
        old, new = workbook_face(entry["today"]), workbook_face(entry["composed"])
        assert old == new, _differences(old, new)[:5]
        merged += sum(len(new[sheet]["merged"]) for sheet in entry["new_tabs"])
        said = CliRunner().invoke(main, ["--lang", "en", "verify", str(entry["composed"])])
        assert said.exit_code == 0, said.output
    assert merged  # the verification tab's merged cells were compared


def test_the_first_new_tab_is_the_only_selected_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = tmp_path / "kept"
    kept.mkdir()
    made = _run_capturing("star_sectors", tmp_path / "campaign", kept, monkeypatch, selected=True)
    for entry in made:
        with zipfile.ZipFile(entry["composed"]) as archive:
            selected = [name for name in archive.namelist() if name.startswith("xl/worksheets/sheet")
                        and b'tabSelected="1"' in archive.read(name)]
        assert len(selected) == 1, selected  # not the player's first sheet too
        old, new = workbook_face(entry["today"]), workbook_face(entry["composed"])
        assert [s for s in new["sheets"] if new[s]["view"][1]] == [entry["new_tabs"][0]]
        assert old == new, _differences(old, new)[:5]


def test_internal_links_of_composed_results_land_on_their_tabs(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    kept = tmp_path / "kept"
    kept.mkdir()
    made = _run_capturing("star_sectors", tmp_path / "campaign", kept, monkeypatch)
    landed = 0
    for entry in made:
        wb = openpyxl.load_workbook(entry["composed"])
        for ws in wb.worksheets:
            for row in ws.iter_rows():
                for cell in row:
                    if cell.hyperlink is None or not cell.hyperlink.location:
                        continue
                    sheet, _, ref = cell.hyperlink.location.rpartition("!")
                    assert sheet.strip("'").replace("''", "'") in wb.sheetnames, cell.hyperlink.location
                    assert wb[sheet.strip("'").replace("''", "'")][ref.replace("$", "")] is not None
                    landed += 1
    assert landed


def test_composed_results_convert_in_libreoffice_with_every_tabs_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, soffice: str) -> None:
    kept = tmp_path / "kept"
    kept.mkdir()
    made = _run_capturing("star_sectors", tmp_path / "campaign", kept, monkeypatch)
    path = made[0]["composed"]
    assert _composed(path)
    pdf = convert(soffice, path, "pdf", tmp_path / "pdf")
    text = subprocess.run(["pdftotext", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    words = set(text.split())
    wb = openpyxl.load_workbook(path)
    shown = [ws for ws in wb.worksheets if ws.sheet_state == "visible"]
    assert len(shown) > len(made[0]["new_tabs"])  # the player's visible sheets and the new tabs
    for ws in shown:
        word = next((w for row in ws.iter_rows(max_row=8) for c in row if isinstance(c.value, str)
                     for w in c.value.split() if len(w) > 3 and w.isalpha()), None)
        assert word is not None, ws.title
        assert word in words, (ws.title, word)


def _results_digests(root: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("results/*.xlsx"))}


def test_two_runs_compose_the_same_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    digests = []
    for name in ("a", "b"):
        root = tmp_path / name
        pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
        pipeline.check(root)
        assert pipeline.run(root).status == "resolved"
        results = sorted(root.rglob("results/*.xlsx"))
        assert results and all(_composed(p) for p in results)
        digests.append(_results_digests(root))
    assert digests[0] == digests[1]


def _with_a_comment(path: Path) -> None:
    """The player's workbook with a comment of its own (comments are a part composing does not keep)."""
    wb = openpyxl.load_workbook(path)
    from openpyxl.comments import Comment

    ws = next(ws for ws in wb.worksheets if ws.sheet_state == "visible")
    ws["A1"].comment = Comment("the player's own note", "player")
    wb.save(path)


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_part_composing_does_not_keep_makes_the_slow_way_and_is_told(
        lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "campaign"
    pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
    inbox = sorted((root / "inbox").glob("*.xlsx"))
    odd = inbox[0]
    _with_a_comment(odd)
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "1")
    checked = pipeline.check(root)
    slow = [n for n in checked.notes if "slow_ways" in n.params]
    copies = [s for s in checked.submissions if s.problems]
    assert any(s.path == odd for s in copies)  # the example's file has problems: its checked copy, the slow way
    comments = gettext_in(lang, "the player's own comments")  # why, in the GM's words
    assert comments != "the player's own comments"
    assert len(slow) == 1 and slow[0].n == 1 and comments in slow[0].render(lang)
    assert "refers to" not in slow[0].render(lang)  # not the composer's own English
    runner = CliRunner()
    said = runner.invoke(main, ["--lang", lang, "run", str(root)])
    assert said.exit_code == 0, said.output
    folder, campaign, _ = pipeline.open_campaign(root)
    results = sorted(folder.turn_dir(campaign.turn - 1).glob("results/*.xlsx"))
    by_name = {p.stem: p for p in results}
    faction = next(s.faction for s in checked.submissions if s.path == odd)
    assert not _composed(by_name[faction])  # made the slow way, still whole: the player's sheets and new tabs
    assert all(_composed(p) for name, p in by_name.items() if name != faction)
    made = openpyxl.load_workbook(by_name[faction])
    assert made.worksheets[0]["A1"].comment is not None and len(made.sheetnames) > 4
    count = 1  # the results (a run writes no checked copy of an accepted file)
    notes: list[Any] = []
    compose.note_slow_copies(notes, ["-"] * count)
    told = notes[0].render(lang).split("): ")[0]  # the translated line with its count, before its reasons
    assert told != notes[0].render("en").split("): ")[0]
    output = " ".join(said.output.split())
    assert output.count(told) == 1, said.output  # one line
    assert comments in output.split(told)[1].split("\n")[0], said.output  # and why


def test_no_line_when_every_copy_is_composed(tmp_path: Path) -> None:
    root = tmp_path / "campaign"
    pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
    said = CliRunner().invoke(main, ["--lang", "en", "check", str(root)])
    assert said.exit_code in (0, 1), said.output
    assert "slow way" not in said.output
    said = CliRunner().invoke(main, ["--lang", "en", "run", str(root)])
    assert "slow way" not in said.output, said.output


def test_the_slow_ways_of_one_command_make_one_line() -> None:
    notes: list[Any] = []
    compose.note_slow_copies(notes, [None, None])
    assert notes == []
    compose.note_slow_copies(notes, ["a part", None, "a part"])
    compose.note_slow_copies(notes, ["another part"])
    assert len(notes) == 1
    assert notes[0].render("en") == ("3 workbooks made the slow way (their parts could not be composed): "
                                     "a part the adjudicator does not keep as it is")


@pytest.mark.parametrize(("reason", "told"), [
    ("xl/worksheets/sheet1.xml refers to comments", "the player's own comments"),
    ("the sheet has comments already", "the player's own comments"),
    ("xl/worksheets/sheet2.xml refers to drawing", "pictures, charts or shapes"),
    ("workbook refers to externalLink", "links to other workbooks"),
    ("workbook refers to pivotCacheDefinition", "pivot tables"),
    ("a sheet that is not a worksheet", "chart sheets"),
    ("xl/styles.xml: not well-formed (invalid token)", "a part the adjudicator does not keep as it is"),
    ("", "a part the adjudicator does not keep as it is"),
])
def test_a_reason_is_told_by_what_the_workbook_held(reason: str, told: str) -> None:
    assert compose.reason_words(reason) == told


@pytest.mark.parametrize(("name", "env", "composed"), [
    ("ALPHA.xlsx", None, True), ("ALPHA.xlsm", None, True), ("ALPHA.ods", None, False), (None, None, False),
    ("ALPHA.xlsx", "0", False),
])
def test_only_an_xlsx_is_composed_unless_told_not_to(name: str | None, env: str | None, composed: bool,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    if env is None:
        monkeypatch.delenv(faction_workbooks.COMPOSE_ENV, raising=False)
    else:
        monkeypatch.setenv(faction_workbooks.COMPOSE_ENV, env)
    submission = None if name is None else SimpleNamespace(path=Path(name), book=object())
    built: list[bool] = []

    def build(new_tabs_only: bool) -> Any:
        built.append(new_tabs_only)
        return openpyxl.Workbook()

    wb = faction_workbooks.composed_results(submission, build)  # type: ignore[arg-type]
    assert (getattr(wb, compose.COMPOSED, None) is not None) == composed
    assert built == [composed]


def test_compose_off_makes_todays_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(faction_workbooks.COMPOSE_ENV, "0")
    root = tmp_path / "campaign"
    pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
    outcome = pipeline.run(root)
    assert outcome.status == "resolved"
    results = sorted(root.rglob("results/*.xlsx"))
    assert results and not any(_composed(p) for p in results)
    assert not [n for n in outcome.notes if "slow_ways" in n.params]  # told not to: no slow way to tell


def test_inlining_xlsxwriters_cells_at_once_equals_the_general_way() -> None:
    """The one-match form of XlsxWriter's cells gives what the general way gives, cell for cell."""
    import io

    import xlsxwriter
    from defusedxml import ElementTree

    buffer = io.BytesIO()
    out = xlsxwriter.Workbook(buffer, {"in_memory": True})
    ws = out.add_worksheet("T")
    bold = out.add_format({"bold": True})
    ws.write_string(0, 0, "ä & <b>", bold)
    ws.write_number(0, 1, 3.5)
    ws.write_blank(0, 2, None, bold)
    ws.write_formula(1, 0, "=B1*2", None, 7)
    ws.write_boolean(1, 1, True)
    ws.write_url(2, 0, "internal:'T'!A1", None, "link")
    ws.set_row(3, 20, bold)
    ws.set_column(4, 4, 12, bold)
    out.close()
    with zipfile.ZipFile(buffer) as archive:
        sheet, strings = archive.read("xl/worksheets/sheet1.xml"), archive.read("xl/sharedStrings.xml")
    shared = xlsx_package.shared_strings(strings)

    def cells(xml: bytes) -> list[Any]:
        root = ElementTree.fromstring(xml)
        return [(sorted(c.attrib.items()), [e.tag for e in c.iter()], "".join(c.itertext())) for c in root.iter()
                if c.tag.endswith("}c")]

    fast = compose.inline_strings(sheet, shared, 40)
    assert b"inlineStr" in fast and b' t="s"' not in fast
    assert cells(fast) == cells(compose._inline_strings_generally(sheet, shared, 40)) != cells(sheet)  # noqa: SLF001
    assert any(text == "ä & <b>" for _, _, text in cells(fast))
    assert re.search(rb'<row r="4"[^>]*\ss="41"', fast) and re.search(rb'<col\b[^>]*\sstyle="41"', fast)


WORKBOOK = (b'<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            b'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">%s<sheets>'
            b'<sheet name="Orders" sheetId="1" r:id="rId1"/></sheets>%s</workbook>')
THEIRS = (b'<workbook><definedNames><definedName name="_xlnm.Print_Area" localSheetId="0">Report!$A$1:$B$2'
          b'</definedName><definedName name="_xlnm.Print_Area" localSheetId="1">_comments1!$A$1</definedName>'
          b"</definedNames></workbook>")


@pytest.mark.parametrize("views", [b"", b'<bookViews><workbookView activeTab="0" firstSheet="0"/></bookViews>'])
def test_the_new_tabs_go_last_with_their_print_names_and_the_first_active(views: bytes) -> None:
    from defusedxml import ElementTree

    player = WORKBOOK % (views, b'<definedNames><definedName name="_xlnm.Print_Area" localSheetId="0">'
                                b"Orders!$A$1</definedName></definedNames>")
    merged = compose._workbook_xml(player, [("Report", "rIdAdjudicator1", "visible")], THEIRS,  # noqa: SLF001
                                   first=False, player_sheets=1, tabs=1)
    root = ElementTree.fromstring(merged)
    main = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    assert [s.get("name") for s in root.find(f"{main}sheets")] == ["Orders", "Report"]
    assert [v.get("activeTab") for v in root.iter(f"{main}workbookView")] == ["1"]
    assert b"firstSheet" not in merged
    names = sorted((n.get("localSheetId"), n.text) for n in root.iter(f"{main}definedName"))
    assert names == [("0", "Orders!$A$1"), ("1", "Report!$A$1:$B$2")]  # the helper sheet's name left out


def test_a_new_tab_named_like_a_players_sheet_is_not_composed(tmp_path: Path) -> None:
    """A player's sheet already called like a new tab (in any case): composing refuses, today's way names it."""
    import io

    import xlsxwriter

    root = tmp_path / "campaign"
    pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
    player = sorted((root / "inbox").glob("*.xlsx"))[0]
    taken = compose.read_package(player).sheets[0][0]

    def new_tabs(offset: int) -> bytes:
        buffer = io.BytesIO()
        out = xlsxwriter.Workbook(buffer, {"in_memory": True})
        out.add_worksheet(taken.upper() if taken.upper() != taken else taken.lower())
        out.close()
        return buffer.getvalue()

    with pytest.raises(compose.CannotCompose, match="name is taken"):
        compose.compose_bytes(player, new_tabs, [], 1, first=False)
