"""The terminal at 80 columns and through a pipe: every ruleset name, alias, problem code, file, cell
and checked-copy path printed whole; ``run`` shows the problems ``check`` shows; ``--lang`` anywhere."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from adjudicator.engine.registry import installed
from adjudicator.i18n import gettext_in
from adjudicator.turn import pipeline


def adjudicator(*args: str, columns: str | None = "80") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "ADJUDICATOR_LANG")}
    if columns:
        env["COLUMNS"] = columns
    return subprocess.run([sys.executable, "-m", "adjudicator", *args], env=env, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.parametrize("columns", ["80", None])
def test_rulesets_names_and_aliases_whole(columns: str | None) -> None:
    shown = adjudicator("rulesets", columns=columns)
    assert shown.returncode == 0, shown.stderr
    tokens = set(shown.stdout.split())
    for name, ruleset in installed().items():
        assert name in tokens, name
        for alias in ruleset.aliases:
            assert alias in tokens, alias


def _whole_problems(out: str, outcome: pipeline.CheckOutcome, paths: bool = True) -> None:
    tokens = set(out.replace("│", " ").split())
    lines = out.splitlines()
    assert outcome.submissions
    for submission in outcome.submissions:
        assert submission.name in tokens
        for problem in submission.problems:
            assert problem.code in tokens, problem.code
            if problem.cell:
                assert problem.cell in tokens, problem.cell
    for path in outcome.checked.values() if paths else ():
        assert any(str(path) in line for line in lines), path


def test_check_and_run_show_codes_cells_and_paths_whole(tmp_path: Path) -> None:
    root = tmp_path / "a-rather-long-folder-name-for-the-campaign" / "star"
    pipeline.new_campaign(installed()["star_sectors"], root, example=True)
    shown = adjudicator("check", str(root))
    assert shown.returncode == 1, shown.stderr
    checked = pipeline.check(root)
    _whole_problems(shown.stdout, checked)
    ran = adjudicator("run", str(root))
    assert ran.returncode == 0, ran.stderr
    _whole_problems(ran.stdout, checked, paths=False)  # the same problems as check, on the same rows
    rejected = gettext_in("ru", "Rejected rows")
    assert rejected in ran.stdout
    for line in ran.stdout.splitlines():
        if "ALPHA.xlsx" in line and "│" in line and line.count("│") == 6:  # the summary row of ALPHA
            cells = [c.strip() for c in line.split("│")[1:-1]]
            errors = {(p.sheet, p.row) for s in checked.submissions if s.faction == "ALPHA"
                      for p in s.problems.errors if p.row}
            assert cells[-1] == str(len(errors)) and len(errors) > 0
            break
    else:
        raise AssertionError(ran.stdout)


def test_lang_after_the_subcommand(tmp_path: Path) -> None:
    before = adjudicator("--lang", "es", "check", str(tmp_path / "nowhere"))
    after = adjudicator("check", "--lang", "es", str(tmp_path / "nowhere"))
    also = adjudicator("check", str(tmp_path / "nowhere"), "--lang=es")
    assert before.returncode == after.returncode == also.returncode == 2
    assert "Carpeta" in before.stderr and "no existe" in before.stderr
    assert after.stderr == before.stderr == also.stderr


def test_two_files_of_one_faction_get_two_checked_copies(tmp_path: Path) -> None:
    root = tmp_path / "star"
    pipeline.new_campaign(installed()["star_sectors"], root, example=True)
    shutil.copyfile(root / "inbox" / "ALPHA.xlsx", root / "inbox" / "ALPHA.xlsm")
    outcome = pipeline.check(root)
    alpha = [path for name, path in outcome.checked.items() if name.startswith("ALPHA")]
    assert len(alpha) == 2 and len(set(alpha)) == 2
    assert all(path.exists() for path in alpha)


def test_names_that_look_like_emoji_codes_print_as_typed(tmp_path: Path) -> None:
    root = tmp_path / "star"
    pipeline.new_campaign(installed()["star_sectors"], root, example=True)
    (root / "inbox" / "ALPHA.xlsx").rename(root / "inbox" / ":warning:ALPHA.xlsx")
    shown = adjudicator("check", str(root))
    assert shown.returncode == 1, shown.stderr
    checked = pipeline.check(root)
    assert ":warning:ALPHA.xlsx" in checked.checked
    _whole_problems(shown.stdout, checked)  # the checked copy's path as it is on disk, to copy and open
    assert "\N{WARNING SIGN}" not in shown.stdout


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
@pytest.mark.parametrize("columns", ["80", None])
def test_help_lists_every_command_with_its_whole_first_sentence(lang: str, columns: str | None) -> None:
    """``adjudicator --help`` and ``adjudicator mail --help`` at 80 columns and through a pipe: no summary cut
    with "...", every line within 80 columns, and each command's first sentence there whole (words joined across
    the wrapped lines): the sentence of the reader's language."""
    from adjudicator.cli import main
    from adjudicator.i18n import click as click_i18n
    from adjudicator.mail.cli import mail_group

    before = click_i18n.installed_language()
    click_i18n.install(lang, main)
    try:
        _whole_first_sentences(lang, columns, ((["--help"], main), (["mail", "--help"], mail_group)))
    finally:
        click_i18n.install(before, main)


def _whole_first_sentences(lang: str, columns: str | None, groups: tuple[tuple[list[str], click.Group], ...]) -> None:
    for words, group in groups:
        shown = adjudicator("--lang", lang, *words, columns=columns)
        assert shown.returncode == 0, shown.stderr
        listing = shown.stdout.split("\n\n")[-1]
        assert "..." not in listing and "…" not in listing, listing
        assert all(len(line) <= 80 for line in shown.stdout.splitlines()), shown.stdout
        joined = " ".join(shown.stdout.split())
        context = group.make_context(group.name or "adjudicator", ["--help"], resilient_parsing=True)
        for name in group.list_commands(context):
            first_sentence = group.get_command(context, name).get_short_help_str(limit=10_000)
            assert f"{name} {first_sentence}" in joined, (name, shown.stdout)


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_rulesets_game_titles_wrap_between_words_only(lang: str) -> None:
    """At 80 columns the game column wraps "Órdenes Coordinadas" between its words, never inside one."""
    from adjudicator.i18n import msg

    shown = adjudicator("--lang", lang, "rulesets")
    assert shown.returncode == 0, shown.stderr
    cells = [line.split("│")[2].strip() for line in shown.stdout.splitlines() if line.count("│") == 5]
    printed = {word for cell in cells for word in cell.split()}
    for ruleset in installed().values():
        for word in msg(ruleset.title).render(lang).split():
            assert word in printed, (word, shown.stdout)
