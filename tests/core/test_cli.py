"""The command line as a GM uses it: exit codes, messages, no tracebacks."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli import EXIT_PROBLEMS, EXIT_UNUSABLE, EXIT_WAITING, main


def invoke(*args: str):  # noqa: ANN201
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_rulesets_lists_the_installed_rulesets() -> None:
    result = invoke("rulesets")
    assert result.exit_code == 0 and "star_sectors" in result.output


def test_a_whole_turn_from_the_command_line(tmp_path: Path) -> None:
    root = tmp_path / "camp"
    assert invoke("new", "star_sectors", str(root), "--example").exit_code == 0
    assert invoke("templates", str(root)).exit_code == 0
    assert sorted(p.name for p in (root / "turns" / "T03" / "templates").iterdir()) == [
        "ALPHA.xlsx", "BETA.xlsx", "BORYA.xlsx", "GAMMA.xlsx"]
    checked = invoke("check", str(root))
    assert checked.exit_code == EXIT_PROBLEMS and "E03" in checked.output
    ran = invoke("run", str(root), "--seed", "5")
    assert ran.exit_code == 0, ran.output
    assert (root / "turns" / "T03" / "turn.json").exists()
    again = invoke("run", str(root))
    assert again.exit_code == EXIT_PROBLEMS  # turn 4: nobody has sent orders yet


def test_run_waits_for_the_gm(tmp_path: Path) -> None:
    root = tmp_path / "camp"
    invoke("new", "star_sectors", str(root), "--example")
    (root / "pending" / "T03" / "gm_input.xlsx").unlink()
    result = invoke("run", str(root))
    assert result.exit_code == EXIT_WAITING
    assert (root / "pending" / "T03" / "gm_input.xlsx").exists()


def test_unusable_folder_and_unknown_ruleset(tmp_path: Path) -> None:
    assert invoke("check", str(tmp_path)).exit_code == EXIT_UNUSABLE
    result = invoke("new", "chess", str(tmp_path / "x"))
    assert result.exit_code == EXIT_UNUSABLE and "star_sectors" in result.output
    root = tmp_path / "camp"
    invoke("new", "star_sectors", str(root))
    assert invoke("new", "star_sectors", str(root)).exit_code == EXIT_UNUSABLE  # already a campaign
    assert invoke("templates", str(root)).exit_code == EXIT_UNUSABLE  # no factions yet


def test_messages_in_the_chosen_language(tmp_path: Path) -> None:
    root = tmp_path / "camp"
    invoke("new", "star_sectors", str(root), "--example")
    english = invoke("--lang", "en", "check", str(root)).output
    russian = invoke("check", str(root)).output  # the example campaign speaks Russian
    assert "Submitted workbooks" in english and "Submitted workbooks" not in russian


def test_demo_runs_every_example(tmp_path: Path) -> None:
    result = invoke("demo", "--out", str(tmp_path / "demo"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "demo" / "star_sectors" / "turns" / "T03" / "results" / "ALPHA.xlsx").exists()
    assert invoke("demo", "--out", str(tmp_path / "demo")).exit_code == 0  # again, over its own output


def test_clicks_own_messages_are_translated() -> None:
    spanish = invoke("--lang", "es", "check")
    assert spanish.exit_code == 2 and "Uso:" in spanish.output and "Usage:" not in spanish.output
    russian = invoke("--lang", "ru", "run", "--help")
    assert "Показать это сообщение и выйти." in russian.output
    english = invoke("--lang", "en", "check")
    assert "Usage:" in english.output


def test_language_from_the_environment(monkeypatch) -> None:  # noqa: ANN001
    import subprocess
    import sys

    env = {"ADJUDICATOR_LANG": "ru", "PATH": "/usr/bin:/bin"}
    shown = subprocess.run([sys.executable, "-m", "adjudicator", "--help"], env=env, capture_output=True, text=True)
    assert shown.returncode == 0 and "Показать это сообщение и выйти." in shown.stdout
    env = {"LANG": "es_ES.UTF-8", "PATH": "/usr/bin:/bin"}
    shown = subprocess.run([sys.executable, "-m", "adjudicator", "--help"], env=env, capture_output=True, text=True)
    assert "Muestra este mensaje y sale." in shown.stdout
