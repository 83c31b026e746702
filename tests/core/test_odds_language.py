"""`adjudicator odds` speaks the language asked for: --lang (before or after the subcommand), then
ADJUDICATOR_LANG, then the system locale, English by default."""

from __future__ import annotations

import pytest

ODDS = ["odds", "galactic_war", "--attacker", "cruiser=2", "--defender", "fighter=3"]


def odds(*args: str, **env: str) -> str:
    from click.testing import CliRunner

    from adjudicator.cli import main

    unset: dict[str, str | None] = dict.fromkeys(("ADJUDICATOR_LANG", "LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"))
    done = CliRunner(env={**unset, **env, "COLUMNS": "100"}).invoke(main, list(args))
    assert done.exit_code == 0, done.output
    return done.output


@pytest.mark.parametrize(("args", "env", "words"), [
    ((*ODDS,), {"LANG": "en_US.UTF-8"}, "Attacker wins (holds the system)"),
    ((*ODDS,), {"LANG": "es_ES.UTF-8"}, "Gana el atacante (se queda con el sistema)"),
    ((*ODDS,), {"LANG": "en_US.UTF-8", "ADJUDICATOR_LANG": "es"}, "Gana el atacante"),
    (("--lang", "en", *ODDS), {"ADJUDICATOR_LANG": "ru"}, "Attacker wins"),
    ((*ODDS, "--lang", "es"), {"LANG": "ru_RU.UTF-8"}, "Gana el atacante"),
])
def test_odds_follow_the_asked_language(args: tuple[str, ...], env: dict[str, str], words: str) -> None:
    assert words in odds(*args, **env)
