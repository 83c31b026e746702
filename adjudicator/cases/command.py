"""``adjudicator cases RULESET|FOLDER``: run a ruleset's bundled scenario cases, or a GM's own."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from adjudicator.cases import Case, CaseError, bundled_cases, folder_cases, run_case
from adjudicator.engine.registry import UnknownRulesetError, find_ruleset
from adjudicator.i18n import msg


def cases_to_run(target: str) -> list[Case]:
    """A folder's cases when ``target`` is a folder, else the bundled cases of the ruleset it names."""
    path = Path(target)
    if path.is_dir():
        return folder_cases(path)
    return bundled_cases(find_ruleset(target))


@click.command("cases")
@click.argument("target", metavar="RULESET|FOLDER")
def cases_command(target: str) -> None:
    """Run scenario cases: a ruleset's bundled ones, or the *.toml cases of a folder."""
    from adjudicator.cli import State, say

    lang = State.lang or "en"
    try:
        cases = cases_to_run(target)
    except (UnknownRulesetError, CaseError) as error:
        say(msg("No cases to run: {reason}", reason=str(error)), lang, "red")
        sys.exit(2)
    passed = failed = 0
    for case in cases:
        failures = run_case(case, lang=lang)
        if not failures:
            passed += 1
            continue
        failed += 1
        say(msg("FAILED {case}: {title}", case=case.name, title=case.title), lang, "red")
        for failure in failures:
            click.echo(f"  - {failure}")
    click.echo(f"{passed} passed, {failed} failed")  # the closing line, the same in every language
    sys.exit(1 if failed or not cases else 0)
