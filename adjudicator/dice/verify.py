"""``adjudicator verify RESULTS [--template ORDERS] [--orders SENT]``: a player checks the dice of its results.

Every die of the verification tab must carry a valid signature by the campaign's dice key over its
message fields, and its value must be the one that signature gives; the digest must be the one of
the listed submissions. The key is the one printed in TEMPLATE (the order workbook received before the
deadline) when given, else the one in the results workbook. With ``--orders``, the file the player sent
must be listed under its faction. Exit status: 0 everything checks, 1 something does not (each failure
is named), 2 a file cannot be used. Needs nothing but the installed package: no network, no GM.
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass, field
from pathlib import Path

import click

from adjudicator.dice.keys import DiceKeyError, fingerprint, load_public_text
from adjudicator.dice.report import Verification, VerificationFormatError, read_key_sheet, read_verification
from adjudicator.dice.verifiable import check_die, submissions_digest
from adjudicator.engine.problems import ProblemList
from adjudicator.i18n import LANGUAGES, Msg, msg
from adjudicator.intake.reading import WorkbookData, read_workbook

EXIT_FAILED = 1
EXIT_UNUSABLE = 2


class Unusable(Exception):
    """Raised when a file given to ``verify`` cannot be used at all."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message.render())
        self.message = message


@dataclass
class Report:
    verification: Verification
    key_fingerprint: str
    failures: list[Msg] = field(default_factory=list)
    checked: int = 0


def printable(text: object) -> str:
    """Text from a workbook, safe for a terminal: control characters shown escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def _book(path: Path) -> WorkbookData:
    problems = ProblemList()
    book = read_workbook(path, problems)
    if book is None:
        reason = "; ".join(p.message.render() for p in problems if p.is_error)
        raise Unusable(msg("{file} cannot be read as a workbook: {reason}", file=printable(path.name),
                           reason=printable(reason)))
    return book


def verify(results: Path, template: Path | None = None, orders: Path | None = None) -> Report:
    book = _book(results)
    try:
        found = read_verification(book)
    except VerificationFormatError as error:
        raise Unusable(msg("{file} has no readable dice verification tab ({reason}).", file=printable(results.name),
                           reason=printable(error))) from error
    failures: list[Msg] = []
    key_text = found.public_key
    if template is not None:
        given = read_key_sheet(_book(template))
        if not given or not given.get("public key"):
            raise Unusable(msg("{file} holds no dice key: give the order workbook of this campaign you received.",
                               file=printable(template.name)))
        if str(given.get("campaign") or "") != found.campaign:
            failures.append(msg("The order workbook {file} is of campaign {theirs}, the results of campaign {ours}.",
                                file=printable(template.name), theirs=printable(given.get("campaign")),
                                ours=printable(found.campaign)))
        key_text = str(given["public key"])
    else:
        own = read_key_sheet(book)  # the key of the order workbook the player sent, copied into its results
        if own and own.get("public key") and str(own["public key"]).strip() != found.public_key:
            failures.append(msg("The dice key of the verification tab is not the one of the order workbook you sent."))
    if template is not None and "".join(key_text.split()) != "".join(found.public_key.split()):
        failures.append(msg("The dice key of the verification tab is not the one printed in {file}.",
                            file=printable(template.name)))
    try:
        key = load_public_text(key_text)
    except DiceKeyError as error:
        raise Unusable(msg("The dice key is not a readable public key.")) from error
    report = Report(found, fingerprint(key), failures)
    if submissions_digest(found.submissions) != found.digest.lower():
        failures.append(msg("The digest of the accepted submissions is not the one of the list beside it."))
    if orders is not None:
        sha = hashlib.sha256(orders.read_bytes()).hexdigest()
        if (found.faction, sha) not in found.submissions:
            failures.append(msg("The file you sent, {file}, is not listed under {faction} among the accepted "
                                "submissions.", file=printable(orders.name), faction=printable(found.faction)))
    for shown in found.rolls:
        report.checked += 1
        wrong = shown.problem
        if shown.proof is not None:
            wrong = check_die(key, found.campaign, found.turn, found.digest, shown.proof)
        if wrong is None:
            continue
        index = shown.proof.index if shown.proof else "?"
        if wrong == "value":
            text = msg("Row {row}: the value of {purpose} (die {index}) is not the one its proof gives.",
                       row=shown.row, purpose=printable(shown.purpose), index=index)
        elif wrong == "signature":
            text = msg("Row {row}: the proof of {purpose} (die {index}) is not a signature of the campaign's dice "
                       "key over this roll.", row=shown.row, purpose=printable(shown.purpose), index=index)
        else:
            text = msg("Row {row}: {purpose} has no readable die number, sides or value.", row=shown.row,
                       purpose=printable(shown.purpose))
        failures.append(text)
    return report


def _language(results: Path) -> str:
    try:
        found = read_verification(_book(results))
    except (Unusable, VerificationFormatError):
        return "en"
    return found.language if found.language in LANGUAGES else "en"


@click.command("verify")
@click.argument("results", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--template", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The order workbook you received before the deadline: check against the key printed in it.")
@click.option("--orders", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The workbook you sent: check that it is the one listed for your faction.")
def verify_command(results: Path, template: Path | None, orders: Path | None) -> None:
    """Check every die of a results workbook against the campaign's dice key."""
    from adjudicator.cli import State

    lang = State.lang or _language(results)
    try:
        report = verify(results, template, orders)
    except Unusable as error:
        click.echo(error.message.render(lang), err=True)
        sys.exit(EXIT_UNUSABLE)
    found = report.verification
    click.echo(msg("Campaign {campaign}, turn {turn}, faction {faction}.", campaign=printable(found.campaign),
                   turn=found.turn, faction=printable(found.faction)).render(lang))
    click.echo(msg("Dice key fingerprint: {fingerprint}", fingerprint=report.key_fingerprint).render(lang))
    for failure in report.failures:
        click.echo(failure.render(lang))
    if report.failures:
        click.echo(msg("NOT VERIFIED: {n} problem(s) among {total} dice.", n=len(report.failures),
                       total=report.checked).render(lang))
        sys.exit(EXIT_FAILED)
    click.echo(msg("Verified: all {total} dice come from the campaign's key and the listed submissions.",
                   total=report.checked).render(lang))
