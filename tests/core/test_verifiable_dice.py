"""Verifiable dice through real turns of every ruleset that rolls: each faction's verification tab checks
with ``adjudicator verify``, and every kind of tampering or re-rolling is caught."""

from __future__ import annotations

import base64
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.dice.keys import (
    PRIVATE_KEY_FILE,
    PUBLIC_KEY_SETTING,
    VERIFIABLE,
    dice_kind,
    new_private_key,
    public_text,
    read_private_key,
)
from adjudicator.dice.report import FIELDS, FIRST_TABLE_ROW, find_verification_grid, read_verification
from adjudicator.dice.source import use_verifiable_dice
from adjudicator.dice.verifiable import message, sign, value_of
from adjudicator.dice.verify import verify
from adjudicator.engine.problems import ProblemList
from adjudicator.engine.registry import find_ruleset
from adjudicator.intake.reading import read_workbook
from adjudicator.store import master
from adjudicator.turn import pipeline
from tests.conftest import convert
from tests.core.kit import every_text
from tests.helpers import sheet_rows

ROLLING = ("galactic_war", "inner_sphere", "coordinated_orders")
KEYS = Path(__file__).parents[1] / "dice_keys"


def fixed_key(label: str) -> Any:
    """A fixed key (see dice_keys/README.md), so that the example turns roll the same dice every time."""
    key = read_private_key(KEYS / f"{label}.pem")
    assert key is not None
    return key


def prepare(root: Path, name: str) -> Path:
    """The ruleset's example campaign switched to verifiable dice, with its order workbooks made."""
    pipeline.new_campaign(find_ruleset(name), root, example=True)
    use_verifiable_dice(root, fixed_key(name))
    pipeline.make_templates(root)
    return root


@pytest.fixture(scope="module")
def campaigns(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    made: dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in made:
            root = prepare(tmp_path_factory.mktemp("verifiable") / name, name)
            assert pipeline.run(root).status == "resolved"
            made[name] = root
        return made[name]

    return get


def turn_dir(root: Path) -> Path:
    return sorted((root / "turns").iterdir())[-1]


def factions(root: Path) -> list[str]:
    return sorted(p.stem for p in (turn_dir(root) / "results").glob("*.xlsx"))


def tab(path: Path) -> Any:
    problems = ProblemList()
    book = read_workbook(path, problems)
    assert book is not None, problems
    return read_verification(book)


def cli(*args: Any, lang: str | None = "en") -> Any:
    """``adjudicator verify ARGS`` (in English unless ``lang`` is None: then in the workbook's language)."""
    return CliRunner().invoke(main, [*(["--lang", lang] if lang else []), "verify", *map(str, args)])


def tampered(source: Path, target: Path, change: Callable[[Any], None]) -> Path:
    """A copy of a results workbook with ``change`` applied to its verification tab."""
    book = openpyxl.load_workbook(source)
    sheet = next(ws for ws in book.worksheets if ws.cell(FIELDS["format"], 2).value == "adjudicator-dice 1")
    change(sheet)
    book.save(target)
    return target


def first_roll_row(sheet: Any) -> int:
    return next(r for r in range(FIRST_TABLE_ROW, sheet.max_row + 1)
                if isinstance(sheet.cell(r, 3).value, int) and sheet.cell(r, 6).value)


# ------------------------------------------------------------------------------------------ passes
def test_new_campaigns_get_a_key_beside_the_master_and_verifiable_dice(tmp_path: Path) -> None:
    root = tmp_path / "fresh"
    pipeline.new_campaign(find_ruleset("galactic_war"), root)
    _, campaign, _ = pipeline.open_campaign(root)
    assert dice_kind(campaign.settings) == VERIFIABLE
    assert read_private_key(root / PRIVATE_KEY_FILE) is not None
    assert "PRIVATE" not in (root / "campaign.xlsx").read_bytes().decode("latin-1")
    assert campaign.settings[PUBLIC_KEY_SETTING] in (root / "dice_public_key.txt").read_text().replace("\n", "")


def test_examples_without_the_setting_keep_keyed_dice(tmp_path: Path) -> None:
    root = tmp_path / "keyed"
    pipeline.new_campaign(find_ruleset("coordinated_orders"), root, example=True)
    assert pipeline.run(root).status == "resolved"
    for results in (turn_dir(root) / "results").glob("*.xlsx"):
        book = read_workbook(results, ProblemList())
        assert book is not None and find_verification_grid(book) is None


@pytest.mark.parametrize("name", ROLLING)
def test_verify_passes_on_every_faction_and_shows_the_dice_of_the_dice_sheet(
        campaigns: Callable[[str], Path], name: str) -> None:
    root = campaigns(name)
    ruleset = find_ruleset(name)
    loaded = master.load_campaign(turn_dir(root) / "state_before.xlsx", find_ruleset, ProblemList())
    assert loaded is not None
    campaign = loaded[0]  # who sees a roll is decided from the state the turn started from
    turn = campaign.turn
    dice_sheet = sheet_rows(root / "campaign.xlsx", "Dice", campaign.language)
    logged = {row[2]: [int(v) for v in str(row[4]).split()] for row in dice_sheet[1:]
              if row[0] == turn}
    assert logged, "the example turn rolls dice"
    viewers = ruleset.roll_viewers(campaign, sorted(logged))
    shown_somewhere = 0
    for faction in factions(root):
        results = turn_dir(root) / "results" / f"{faction}.xlsx"
        report = verify(results, turn_dir(root) / "templates" / f"{faction}.xlsx",
                        turn_dir(root) / "submitted" / f"{faction}.xlsx")
        assert report.failures == [], [f.render() for f in report.failures]
        found = tab(results)
        values: dict[str, list[int]] = {}
        for roll in found.rolls:
            assert roll.proof is not None
            values.setdefault(roll.purpose, []).append(roll.proof.value)
        assert values == {p: v for p, v in logged.items() if faction in viewers[p]}
        shown_somewhere += len(values)
        result = cli(results, "--template", turn_dir(root) / "templates" / f"{faction}.xlsx")
        assert result.exit_code == 0, result.output
    assert shown_somewhere > 0


def test_reprocess_and_another_seed_give_the_same_dice(campaigns: Callable[[str], Path],
                                                      tmp_path: Path) -> None:
    root = shutil.copytree(campaigns("galactic_war"), tmp_path / "again")
    before = {f: tab(turn_dir(root) / "results" / f"{f}.xlsx") for f in factions(root)}
    assert pipeline.run(root, reprocess=True, seed=12345).status == "resolved"
    for faction, found in before.items():
        again = tab(turn_dir(root) / "results" / f"{faction}.xlsx")
        assert [(r.purpose, r.proof) for r in again.rolls] == [(r.purpose, r.proof) for r in found.rolls]
        assert again.digest == found.digest


def test_inner_sphere_operations_and_detection_rolls_stay_with_their_faction(
        campaigns: Callable[[str], Path]) -> None:
    root = campaigns("inner_sphere")
    for faction in factions(root):
        purposes = {r.purpose for r in tab(turn_dir(root) / "results" / f"{faction}.xlsx").rolls}
        for purpose in purposes:
            parts = purpose.split(":")
            if parts[0] == "agency":
                assert parts[2] == faction and parts[1] != "353", (faction, purpose)


# ------------------------------------------------------------------------------------------ fails
@pytest.fixture
def results(campaigns: Callable[[str], Path]) -> Path:
    root = campaigns("galactic_war")
    # the faction with the most dice shown
    return max((turn_dir(root) / "results").glob("*.xlsx"), key=lambda p: len(tab(p).rolls))


def test_a_tampered_value_fails_naming_the_roll(results: Path, tmp_path: Path) -> None:
    def change(ws: Any) -> None:
        row = first_roll_row(ws)
        ws.cell(row, 5).value = ws.cell(row, 5).value % ws.cell(row, 4).value + 1

    bad = tampered(results, tmp_path / "value.xlsx", change)
    purpose = tab(bad).rolls[0].purpose
    result = cli(bad)
    assert result.exit_code == 1
    assert purpose in result.output and "value" in result.output


def test_a_tampered_proof_fails(results: Path, tmp_path: Path) -> None:
    def change(ws: Any) -> None:
        row = first_roll_row(ws)
        signature = bytearray(base64.b64decode(ws.cell(row, 6).value))
        signature[10] ^= 1
        ws.cell(row, 6).value = base64.b64encode(bytes(signature)).decode()

    result = cli(tampered(results, tmp_path / "proof.xlsx", change))
    assert result.exit_code == 1 and "proof" in result.output


def test_a_proof_moved_to_another_roll_fails(results: Path, tmp_path: Path) -> None:
    def change(ws: Any) -> None:
        row = first_roll_row(ws)
        ws.cell(row + 1, 6).value, ws.cell(row + 1, 5).value = ws.cell(row, 6).value, ws.cell(row, 5).value

    assert cli(tampered(results, tmp_path / "moved.xlsx", change)).exit_code == 1


@pytest.mark.parametrize("how", ["omit", "change"])
def test_a_submission_list_that_omits_or_changes_the_players_file_fails(results: Path, tmp_path: Path,
                                                                       how: str) -> None:
    faction = results.stem

    def change(ws: Any) -> None:
        row = next(r for r in range(FIRST_TABLE_ROW + 2, ws.max_row) if ws.cell(r, 1).value == faction)
        if how == "omit":
            last = next(r for r in range(row, ws.max_row) if ws.cell(r + 1, 1).value is None)
            for r in range(row, last):
                ws.cell(r, 1).value, ws.cell(r, 2).value = ws.cell(r + 1, 1).value, ws.cell(r + 1, 2).value
            ws.cell(last, 1).value = ws.cell(last, 2).value = None
        else:
            ws.cell(row, 2).value = "0" * 64

    bad = tampered(results, tmp_path / f"{how}.xlsx", change)
    result = cli(bad)
    assert result.exit_code == 1 and "digest" in result.output
    # Even a GM who recomputed the digest (and so re-signed every die) is caught by the player's own file.
    sent = results.parent.parent / "submitted" / f"{faction}.xlsx"
    assert cli(results, "--orders", sent).exit_code == 0
    assert cli(results, "--orders", results).exit_code == 1


def test_a_turn_rerolled_with_another_key_fails_against_the_template(campaigns: Callable[[str], Path],
                                                                   tmp_path: Path) -> None:
    original = campaigns("galactic_war")
    root = prepare(tmp_path / "rekeyed", "galactic_war")
    (root / PRIVATE_KEY_FILE).unlink()
    use_verifiable_dice(root, fixed_key("rekeyed"))  # the GM makes a new key pair after the workbooks went out
    assert pipeline.run(root).status == "resolved"
    for faction in factions(root):
        results = turn_dir(root) / "results" / f"{faction}.xlsx"
        assert verify(results).failures == []  # consistent with itself…
        template = turn_dir(root) / "templates" / f"{faction}.xlsx"  # …but not with the key handed out before
        shutil.copyfile(turn_dir(original) / "templates" / f"{faction}.xlsx", template)
        result = cli(results, "--template", template)
        assert result.exit_code == 1, result.output
        assert "not the one printed" in result.output


def test_a_swapped_private_key_is_refused_before_any_die(tmp_path: Path) -> None:
    root = tmp_path / "swapped"
    pipeline.new_campaign(find_ruleset("galactic_war"), root, example=True)
    use_verifiable_dice(root, fixed_key("galactic_war"))
    shutil.copyfile(KEYS / "inner_sphere.pem", root / PRIVATE_KEY_FILE)
    with pytest.raises(pipeline.CampaignError) as error:
        pipeline.run(root)
    assert [p.code for p in error.value.problems] == ["M22"]
    assert not (root / "turns").exists() or not list((root / "turns").glob("*/turn.json"))
    (root / PRIVATE_KEY_FILE).unlink()  # a lost key: no verifiable die can be rolled, nothing changes
    with pytest.raises(pipeline.CampaignError) as error:
        pipeline.run(root)
    assert [p.code for p in error.value.problems] == ["M21"]
    result = CliRunner().invoke(main, ["--lang", "en", "run", str(root)])
    assert result.exit_code == 2 and "backup" in result.output and "Traceback" not in result.output


def test_the_template_of_another_campaign_fails(campaigns: Callable[[str], Path], results: Path) -> None:
    other = campaigns("coordinated_orders")
    template = next((turn_dir(other) / "templates").glob("*.xlsx"))
    result = cli(results, "--template", template)
    assert result.exit_code == 1
    assert "campaign" in result.output


def test_unusable_files_exit_2_and_messages_follow_the_workbook(campaigns: Callable[[str], Path],
                                                               tmp_path: Path) -> None:
    root = campaigns("galactic_war")
    junk = tmp_path / "junk.xlsx"
    junk.write_bytes(b"not a workbook")
    assert cli(junk).exit_code == 2
    assert cli(root / "campaign.xlsx").exit_code == 2
    results = turn_dir(root) / "results" / f"{factions(root)[0]}.xlsx"
    assert tab(results).language == "ru"
    assert "Проверено" in cli(results, lang=None).output


def test_values_are_unbiased_rejection_sampling_from_the_signature() -> None:
    key = fixed_key("inner_sphere")
    faces = [value_of(sign(key, message("c", 1, f"p{i}", 1, "d")), 6) for i in range(600)]
    assert set(faces) == set(range(1, 7))
    assert all(60 < faces.count(face) < 140 for face in range(1, 7))
    assert value_of(b"x", 1) == 1


def test_the_verification_tab_is_found_whatever_its_position(campaigns: Callable[[str], Path]) -> None:
    results = next((turn_dir(campaigns("coordinated_orders")) / "results").glob("*.xlsx"))
    problems = ProblemList()
    book = read_workbook(results, problems)
    assert book is not None and find_verification_grid(book) is not None


# ------------------------------------------------------------------------------------------- fog of war
def broken_copy(template: Path, target: Path) -> Path:
    """The faction's order workbook with a nonsense cell, so that ``check`` hands back a checked copy."""
    book = openpyxl.load_workbook(template)
    sheet = book.worksheets[2]
    sheet.protection.sheet = False
    sheet.cell(2, 1).value = "??? not an order ???"
    book.save(target)
    return target


@pytest.mark.parametrize("name", ["inner_sphere", "galactic_war"])
def test_no_private_key_no_seed_and_no_proof_of_a_hidden_roll(campaigns: Callable[[str], Path], name: str,
                                                            tmp_path: Path) -> None:
    root = shutil.copytree(campaigns(name), tmp_path / name)
    here = turn_dir(root)
    key = read_private_key(root / PRIVATE_KEY_FILE)
    assert key is not None
    numbers = key.private_numbers()
    pem = (root / PRIVATE_KEY_FILE).read_text(encoding="ascii")
    secret_texts = ["PRIVATE KEY", *(line for line in pem.splitlines() if not line.startswith("-----")),
                    *(f(n) for n in (numbers.d, numbers.p, numbers.q) for f in (str, lambda n: format(n, "x")))]
    loaded = master.load_campaign(here / "state_before.xlsx", find_ruleset, ProblemList())
    assert loaded is not None
    campaign, ruleset = loaded
    digest = tab(here / "results" / f"{factions(root)[0]}.xlsx").digest
    dice_sheet = sheet_rows(root / "campaign.xlsx", "Dice", campaign.language)[1:]
    proofs = {row[2]: [base64.b64encode(sign(key, message(campaign.campaign_id, campaign.turn, row[2], i, digest)))
                       .decode() for i in range(1, len(str(row[4]).split()) + 1)]
              for row in dice_sheet if row[0] == campaign.turn}
    viewers = ruleset.roll_viewers(campaign, sorted(proofs))
    if name == "inner_sphere":  # others' operations and their detection rolls are among the hidden ones
        assert any(":detect" in p and "KURITA" not in viewers[p] for p in proofs)
    broken = [broken_copy(here / "templates" / f"{f}.xlsx", tmp_path / f"{f}.xlsx") for f in factions(root)]
    checked = pipeline.check(root, broken).checked
    for faction in factions(root):
        assert f"{faction}.xlsx" in checked, "the broken workbook got a checked copy"
        texts = [t for path in (here / "templates" / f"{faction}.xlsx", checked[f"{faction}.xlsx"],
                                here / "results" / f"{faction}.xlsx")
                 for t in every_text(path)]
        assert not [s for s in secret_texts if any(s in t for t in texts)]
        assert str(campaign.seed) not in texts
        hidden = [p for p in proofs if faction not in viewers[p]]
        shown = [p for p in proofs if faction in viewers[p]]
        assert shown or hidden
        for purpose in hidden:
            leaks = [p for p in proofs[purpose] if any(p in t for t in texts)]
            assert not leaks, f"{faction} holds a proof of {purpose}"
        joined = "\n".join(texts)
        assert all(p in joined for purpose in shown for p in proofs[purpose])  # the search does find proofs


def test_orders_sent_on_the_template_are_accepted_and_pin_the_key_of_their_results(tmp_path: Path) -> None:
    root = tmp_path / "sent"
    pipeline.new_campaign(find_ruleset("coordinated_orders"), root, example=True)
    use_verifiable_dice(root, fixed_key("coordinated_orders"))
    for path in (root / "inbox").iterdir():
        path.unlink()
    for template in pipeline.make_templates(root):  # each player sends back the workbook it received
        shutil.copyfile(template, root / "inbox" / template.name)
    assert all(not s.problems for s in pipeline.check(root).submissions)
    outcome = pipeline.run(root)
    assert outcome.status == "resolved"
    other = public_text(new_private_key().public_key())
    for results in outcome.results.values():
        assert verify(results).failures == []
        bad = tampered(results, tmp_path / results.name, lambda ws: setattr(ws.cell(FIELDS["public_key"], 2),
                                                                           "value", other))
        result = cli(bad)
        assert result.exit_code == 1 and "order workbook you sent" in result.output


def test_new_on_the_command_line_says_where_the_key_is_and_what_to_post(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["--lang", "en", "new", "coordinated_orders", str(tmp_path / "cli")])
    assert result.exit_code == 0, result.output
    assert "dice_key.pem" in result.output and "dice_public_key.txt" in result.output
    post = (tmp_path / "cli" / "dice_public_key.txt").read_text(encoding="utf-8")
    assert "SHA-256 fingerprint" in post and "BEGIN PUBLIC KEY" in post and "PRIVATE" not in post


@pytest.mark.libreoffice
@pytest.mark.parametrize("fmt", ["xlsx:Calc MS Excel 2007 XML", "ods"])
def test_results_and_templates_saved_by_libreoffice_still_verify(campaigns: Callable[[str], Path], soffice: str,
                                                                 tmp_path: Path, fmt: str) -> None:
    """A player who opens and saves its results (and its order workbook) in LibreOffice can still verify."""
    root = campaigns("galactic_war")
    faction = factions(root)[0]
    results = convert(soffice, turn_dir(root) / "results" / f"{faction}.xlsx", fmt, tmp_path / "results")
    template = convert(soffice, turn_dir(root) / "templates" / f"{faction}.xlsx", fmt, tmp_path / "template")
    report = verify(results, template)
    assert report.failures == [] and report.checked == len(tab(turn_dir(root) / "results" / f"{faction}.xlsx").rolls)
    assert report.checked > 0
