"""campaign.xlsx composed of the old master's parts (adjudicator/store/master_compose.py): consecutive turns of every
ruleset's example, run composed and today's way (``ADJUDICATOR_COMPOSE=0``), their masters read back and compared
as a reader sees them (tests/core/test_writer_same_outputs.py's ``workbook_face``)."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from adjudicator.engine.problems import ProblemList
from adjudicator.engine.registry import find_ruleset
from adjudicator.store import master, master_compose
from adjudicator.turn import pipeline
from tests.conftest import convert
from tests.core.test_writer_same_outputs import workbook_face
from tests.helpers import EVERY_RULESET_SLOW_BUT_ONE

RULESETS = EVERY_RULESET_SLOW_BUT_ONE


def _answer_battles(path: Path) -> None:
    """star_sectors' GM input: each battle won by its first faction, no losses (the other requests left empty)."""
    book = openpyxl.load_workbook(path)
    sheet = book.worksheets[1]
    for row in range(2, sheet.max_row + 1):
        sheet.cell(row, 4, sheet.cell(row, 1).value)
        sheet.cell(row, 5, 0)
        sheet.cell(row, 6, 0)
    book.save(path)


def _resolve(root: Path) -> pipeline.RunOutcome:
    outcome = pipeline.run(root, allow_missing=True)
    if outcome.status == "waiting":
        if outcome.gm_input is not None and pipeline.open_campaign(root)[2].name == "star_sectors":
            _answer_battles(outcome.gm_input)
        outcome = pipeline.run(root, allow_missing=True)
    assert outcome.status == "resolved", outcome.status
    return outcome


def turns(ruleset: str, out: Path, count: int) -> tuple[list[Path], list[Any]]:
    """``count`` turns of ``ruleset``'s example (after the first, every faction sends its blank orders): the
    master after each, and each run's notes."""
    root = out / "campaign"
    pipeline.new_campaign(find_ruleset(ruleset), root, example=True)
    masters, notes = [], []
    for number in range(count):
        if number:
            for template in pipeline.make_templates(root):
                shutil.copyfile(template, root / "inbox" / template.name)
        notes.append([note.render("en") for note in _resolve(root).notes])
        masters.append(out / f"master{number + 1}.xlsx")
        shutil.copyfile(root / "campaign.xlsx", masters[-1])
    return masters, notes


def kept_tabs(path: Path, turn: int) -> list[str]:
    return list(master_compose.read_old_master(path, turn).kept)


def assert_composed(path: Path, kept: list[str]) -> None:
    """The kept tabs of the master at ``path`` were composed (their strings inline), not made today's way."""
    package = master_compose.read_old_master(path, 99)
    for name in kept:
        sheet = package.theirs.parts[package.kept[name]]
        assert b't="inlineStr"' in sheet and b't="s"' not in sheet, name


def _turn(path: Path) -> int:
    loaded = master.load_campaign(path, find_ruleset, ProblemList())
    assert loaded is not None
    return loaded[0].turn


def _same_face(today: dict[str, Any], composed: dict[str, Any], where: str) -> None:
    assert today.keys() == composed.keys(), where
    for key in today:
        if isinstance(today[key], dict):
            for part in today[key]:
                assert today[key][part] == composed[key][part], (where, key, part)
        assert today[key] == composed[key], (where, key)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_composed_master_has_todays_face_and_keeps_the_earlier_tabs_as_written(
        ruleset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three turns composed and three today's way: each master the same face (values, styles, widths, heights,
    validations, protection, print setup, names, hidden sheets, order, active tab), except that an earlier turn's
    tab is the one its own turn wrote (today's way lays it out again, and the Report tabs' widths drift); the
    composed masters compose indeed (their kept tabs' strings inline), and nothing is told."""
    composed, notes = turns(ruleset, tmp_path / "composed", 3)
    monkeypatch.setenv("ADJUDICATOR_COMPOSE", "0")
    today, _ = turns(ruleset, tmp_path / "today", 3)
    assert notes == [[], [], []] or all("slow way" not in note for turn in notes for note in turn), notes
    assert zipfile.ZipFile(composed[0]).read("xl/workbook.xml") == zipfile.ZipFile(today[0]).read("xl/workbook.xml")
    for number in (1, 2):
        kept = kept_tabs(composed[number - 1], _turn(composed[number - 1]))
        assert kept, "the master of the turn before holds earlier tabs"
        before = workbook_face(composed[number - 1])
        new, old = workbook_face(composed[number]), workbook_face(today[number])
        for name in kept:
            _same_face(before[name], new[name], f"{name} of turn {number + 1}, kept as written")
            new[name] = old[name] = None
        _same_face(old, new, f"the master after turn {number + 1}")
        assert_composed(composed[number], kept)


def test_two_runs_give_the_same_bytes_and_the_campaign_goes_on(tmp_path: Path) -> None:
    """The composed master: the same bytes from two runs of the same turns; it loads, and its kept map tab keeps
    its picture."""
    first, _ = turns("star_sectors", tmp_path / "one", 2)
    second, _ = turns("star_sectors", tmp_path / "two", 2)
    assert first[1].read_bytes() == second[1].read_bytes()
    assert_composed(first[1], kept_tabs(first[0], _turn(first[0])))
    assert _turn(first[1]) == _turn(first[0]) + 1
    wb = openpyxl.load_workbook(first[1])
    maps = [wb[name] for name in kept_tabs(first[0], _turn(first[0])) if wb[name]._images]  # noqa: SLF001
    assert maps, "the earlier turn's map tab keeps its picture"


def test_a_master_saved_by_another_program_is_made_todays_way_and_told(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The GM saved campaign.xlsx with another program (here openpyxl): the next master is made today's way,
    the same face, and the run says one workbook was made the slow way."""
    turns("star_sectors", tmp_path / "composed", 1)
    shutil.copytree(tmp_path / "composed" / "campaign", tmp_path / "today" / "campaign")
    for out, compose in (("composed", None), ("today", "0")):
        root = tmp_path / out / "campaign"
        if compose is not None:
            monkeypatch.setenv("ADJUDICATOR_COMPOSE", compose)
        book = openpyxl.load_workbook(root / "campaign.xlsx")
        book.save(root / "campaign.xlsx")  # openpyxl's own file, as another program would save it
        for template in pipeline.make_templates(root):
            shutil.copyfile(template, root / "inbox" / template.name)
        outcome = _resolve(root)
        notes = [note.render("en") for note in outcome.notes]
        told = "1 workbook made the slow way (its parts could not be composed): campaign.xlsx last saved by " \
            "another program"
        assert notes.count(told) == (compose is None), notes
        if compose is None:  # in the GM's language too
            assert any("другой программой" in note.render("ru") for note in outcome.notes), notes
    _same_face(workbook_face(tmp_path / "today" / "campaign" / "campaign.xlsx"),
               workbook_face(tmp_path / "composed" / "campaign" / "campaign.xlsx"), "made today's way")


def test_libreoffice_opens_every_tab_of_the_composed_master(soffice: str, tmp_path: Path) -> None:
    """LibreOffice reads the composed master: every tab, the kept tabs' cells as written, their pictures."""
    masters, _ = turns("star_sectors", tmp_path, 2)
    kept = kept_tabs(masters[0], _turn(masters[0]))
    assert_composed(masters[1], kept)
    converted = convert(soffice, masters[1], "xlsx:Calc MS Excel 2007 XML", tmp_path / "lo")
    ours, theirs = openpyxl.load_workbook(masters[1]), openpyxl.load_workbook(converted)
    assert theirs.sheetnames == ours.sheetnames
    for name in kept:
        values = [[c.value for c in row] for row in ours[name].iter_rows()]
        assert [[c.value for c in row] for row in theirs[name].iter_rows()][:len(values)] == values, name
        assert len(theirs[name]._images) == len(ours[name]._images), name  # noqa: SLF001
    assert any(values for name in kept for values in ours[name].iter_rows(values_only=True) if any(values))


def test_a_kept_tab_the_turn_changed_in_place_is_not_composed(tmp_path: Path) -> None:
    """A kept tab that something wrote into (its stub no longer what was loaded) cannot be given its old part;
    one the turn wrote again (removed, replaced) is simply not composed."""
    masters, _ = turns("star_sectors", tmp_path, 1)
    old = master_compose.read_old_master(masters[0], _turn(masters[0]) + 1)
    wb = master_compose.open_stubbed(old)
    assert master_compose.still_kept(old, wb) == list(old.kept)
    first, second, *_ = old.kept
    wb.remove(wb[first])
    assert master_compose.still_kept(old, wb) == [name for name in old.kept if name != first]
    wb[second]["B2"] = "written into"
    with pytest.raises(master_compose.CannotCompose, match="a kept tab changed"):
        master_compose.still_kept(old, wb)


def test_a_first_turns_master_saved_by_another_program_is_written_anew_unread_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A campaign's first master saved by another program (here openpyxl, as a generated campaign's is): its state
    tables are stubbed, not loaded (they are written anew), and the next master is the very bytes today's way
    makes; nothing is told."""
    pipeline.new_campaign(find_ruleset("star_sectors"), tmp_path / "composed" / "campaign", example=True)
    book = openpyxl.load_workbook(tmp_path / "composed" / "campaign" / "campaign.xlsx")
    book.save(tmp_path / "composed" / "campaign" / "campaign.xlsx")
    shutil.copytree(tmp_path / "composed" / "campaign", tmp_path / "today" / "campaign")
    old = master_compose.read_old_master(tmp_path / "composed" / "campaign" / "campaign.xlsx", 1,
                                         lambda names: master.sheets_written_anew(find_ruleset("star_sectors"), names))
    assert not old.kept and book.sheetnames[0] in old.anew
    assert old.not_composable == "the old master was saved by another program"
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "1")  # the master written in this process, where it is watched
    loaded: list[Path] = []
    whole = master.open_master
    monkeypatch.setattr(master, "open_master", lambda path: loaded.append(path) or whole(path))
    outcome = _resolve(tmp_path / "composed" / "campaign")
    assert loaded == [] and not [n for n in outcome.notes if "slow way" in n.render("en")]
    monkeypatch.setenv("ADJUDICATOR_COMPOSE", "0")
    _resolve(tmp_path / "today" / "campaign")
    assert loaded, "today's way loads the whole master"
    assert (tmp_path / "composed" / "campaign" / "campaign.xlsx").read_bytes() == \
        (tmp_path / "today" / "campaign" / "campaign.xlsx").read_bytes()


def test_a_first_turns_stub_left_unwritten_makes_the_master_todays_way_untold(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sheet stubbed as written anew that the turn did not write again cannot be given back its part when the
    master was saved by another program: the master is made today's way, whole, and nothing is told."""
    from adjudicator.outputs.fast_save import atomic_save_fast

    root = tmp_path / "campaign"
    pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
    book = openpyxl.load_workbook(root / "campaign.xlsx")
    book.save(root / "campaign.xlsx")
    settings = book.sheetnames[0]
    rows = book[settings].max_row
    target = tmp_path / "next.xlsx"
    answer = master_compose.write_master_file(root / "campaign.xlsx", 1, lambda wb: "built", target,
                                              lambda names: [settings], atomic_save_fast)
    assert answer == ("built", None)
    assert rows > 1 and openpyxl.load_workbook(target)[settings].max_row == rows
    monkeypatch.setenv("ADJUDICATOR_COMPOSE", "0")
    master_compose.write_master_file(root / "campaign.xlsx", 1, lambda wb: "built", tmp_path / "today.xlsx",
                                     lambda names: [settings], atomic_save_fast)
    assert target.read_bytes() == (tmp_path / "today.xlsx").read_bytes()
