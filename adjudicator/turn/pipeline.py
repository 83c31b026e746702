"""The GM's jobs on a campaign folder: new, templates, check, run.

Each job reads the campaign, does its work in memory or in a staging folder, and changes the
campaign only at the end (see :mod:`adjudicator.store.folder`). None of them ever writes to a
submitted workbook.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator import __version__
from adjudicator.dice import Dice
from adjudicator.engine.books import unbalanced
from adjudicator.engine.collector import fewer_collections
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.problems import ProblemList, RulesetFailure
from adjudicator.engine.registry import find_ruleset
from adjudicator.engine.ruleset import Campaign, FactionOrders, Ruleset, TurnInput, TurnResult
from adjudicator.engine.validity import passed_orders, passed_sheets
from adjudicator.i18n import Msg, msg, ruleset_catalog
from adjudicator.intake.safety import Limits, counted_limits
from adjudicator.intake.submission_cache import submission_cache
from adjudicator.intake.submissions import (
    Submission,
    flag_duplicates,
    inbox_files,
    load_submission,
    load_submissions,
    sha256_of,
)
from adjudicator.outputs.compose import note_slow_copies
from adjudicator.outputs.faction_workbooks import checked_copy, composed_results, outcome_cells, results_workbook
from adjudicator.outputs.fast_save import atomic_save_fast
from adjudicator.outputs.parallel import in_parallel, pools_in_a_row
from adjudicator.outputs.writing import atomic_copy, atomic_save
from adjudicator.quiet_collector import collector_paused
from adjudicator.store import master
from adjudicator.store.folder import CampaignFolder
from adjudicator.store.master_compose import write_master_file
from adjudicator.store.turn_tabs import kept_as_data


class CampaignError(Exception):
    """Raised when a campaign folder cannot be used; ``problems`` says why, at their cells."""

    def __init__(self, problems: ProblemList) -> None:
        super().__init__("; ".join(p.message.render() for p in problems))
        self.problems = problems


class LedgerMismatchError(RuntimeError):
    """Raised when a ruleset's ledger does not reconcile; the turn is not committed."""


def _fail(code: str, message: Any, hint: Any = None, **where: Any) -> CampaignError:
    problems = ProblemList()
    problems.error(code, message, hint, **where)
    return CampaignError(problems)


def _require_master(folder: CampaignFolder) -> None:
    if not folder.master.exists():
        raise _fail("M00", msg("There is no campaign in {folder}: campaign.xlsx is missing.",
                               folder=folder.root.name),
                    msg("Start one with 'adjudicator new RULESET FOLDER'."))


@contextmanager
def opened(root: Path) -> Iterator[tuple[CampaignFolder, Campaign, Ruleset]]:
    """The campaign, read (and recovered) under its lock, which is held until the block ends."""
    folder = CampaignFolder(root)
    _require_master(folder)
    with folder.locked():
        folder_campaign_ruleset = open_campaign(root)
        with ruleset_catalog(folder_campaign_ruleset[2].locale()):
            yield folder_campaign_ruleset


def open_campaign(root: Path) -> tuple[CampaignFolder, Campaign, Ruleset]:
    """The campaign in ``root``, after finishing or undoing an interrupted commit (call it under the lock)."""
    folder = CampaignFolder(root)
    _require_master(folder)
    problems = ProblemList()
    loaded = master.load_campaign(folder.master, find_ruleset, problems)
    if loaded is None:
        raise CampaignError(problems)
    campaign, ruleset = loaded
    folder.recovered = folder.recover(campaign.turn)
    if folder.recovered:
        loaded = master.load_campaign(folder.master, find_ruleset, problems)
        if loaded is None:
            raise CampaignError(problems)
        campaign, ruleset = loaded
    return folder, campaign, ruleset


# --------------------------------------------------------------------------------------------- new
def new_campaign(ruleset: Ruleset, root: Path, example: bool = False) -> CampaignFolder:
    from adjudicator.dice.keys import new_dice_key  # here: cryptography is needed by new and run only

    folder = CampaignFolder(root)
    if folder.master.exists():
        raise _fail("M07", msg("{folder} already holds a campaign.", folder=root.name),
                    msg("Choose an empty folder."))
    root.mkdir(parents=True, exist_ok=True)
    folder.inbox.mkdir(exist_ok=True)
    if example:
        source = ruleset.example_dir()
        if not (source / "campaign.xlsx").exists():
            raise _fail("M08", msg("The ruleset {name} has no bundled example.", name=ruleset.name))
        for workbook in inbox_files(source / "inbox"):
            shutil.copyfile(workbook, folder.inbox / workbook.name)
        atomic_copy(source / "campaign.xlsx", folder.master)
        gm = source / "gm_input.xlsx"
        if gm.exists():
            _, campaign, _ = open_campaign(root)
            folder.pending_dir(campaign.turn).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(gm, folder.gm_input(campaign.turn))
        return folder
    import pandas as pd

    campaign = Campaign(
        campaign_id=root.name, title=root.name, ruleset=ruleset.name, seed=int.from_bytes(os.urandom(4), "big"),
        turn=1, language=ruleset.default_language, secret=master.new_secret(), factions={},
        parameters=ruleset.parameters().defaults(),
        tables={s.key: pd.DataFrame(columns=s.keys())
                for s in (master.factions_schema(ruleset), *ruleset.state_schemas)},
        settings={"deadline": "", **new_dice_key(root, root.name)},
    )
    with ruleset_catalog(ruleset.locale()):  # the ruleset's words, never another ruleset's
        atomic_save(master.new_master(ruleset, campaign), folder.master)
    return folder


# ---------------------------------------------------------------------------------------- templates
def make_templates(root: Path) -> list[Path]:
    with opened(root) as (folder, campaign, ruleset):
        return _make_templates(folder, campaign, ruleset)


def _make_templates(folder: CampaignFolder, campaign: Campaign, ruleset: Ruleset) -> list[Path]:
    from adjudicator.outputs.templates import build_order_workbook  # openpyxl: not imported by a check

    if not campaign.factions:
        raise _fail("M09", msg("The campaign has no factions."),
                    msg("List them in the Factions sheet of campaign.xlsx."), file="campaign.xlsx")
    out = []
    target = folder.templates_dir(campaign.turn)
    for faction in sorted(campaign.factions):
        path = target / f"{faction}.xlsx"
        if not path.exists():
            atomic_save(build_order_workbook(ruleset, campaign, faction), path)
        out.append(path)
    return out


# ------------------------------------------------------------------------------------------- check
@dataclass
class CheckOutcome:
    campaign: Campaign
    submissions: list[Submission]
    missing: list[str]
    checked: dict[str, Path] = field(default_factory=dict)
    notes: list[Msg] = field(default_factory=list)  # what recovery did when the campaign was opened

    @property
    def has_errors(self) -> bool:
        return any(s.problems.has_errors() for s in self.submissions)


def limits_of(campaign: Campaign) -> Limits:
    """The size limits of submitted workbooks; the GM may raise them with the settings max_file_mb and
    max_unpacked_mb of campaign.xlsx."""
    limits = Limits()
    overrides = {}
    for setting, field_name in (("max file mb", "max_file_bytes"), ("max unpacked mb", "max_unpacked_bytes")):
        value = campaign.settings.get(setting)
        try:
            if value not in (None, ""):
                overrides[field_name] = int(float(value) * 2**20)
        except (TypeError, ValueError, OverflowError):
            continue
    overrides.update(counted_limits(campaign.settings))
    return dataclasses.replace(limits, **overrides)


def _submissions(folder: CampaignFolder, campaign: Campaign, ruleset: Ruleset, files: list[Path]) -> list[Submission]:
    paths = files or inbox_files(folder.inbox)
    limits = limits_of(campaign)
    kept = submission_cache(folder.master, limits)  # a check's readings, found again by the run that follows
    submissions = load_submissions(sorted(paths, key=lambda p: p.name), campaign, ruleset, limits, kept)  # both cores
    flag_duplicates(submissions)
    return submissions


def _language_of(submission: Submission, campaign: Campaign) -> str:
    if submission.faction and submission.faction in campaign.factions:
        return campaign.factions[submission.faction].language
    return campaign.language


def _write_checked(folder: CampaignFolder, campaign: Campaign, submissions: list[Submission]) -> dict[str, Path]:
    written = {}
    stems = [s.path.stem.casefold() for s in submissions]
    jobs = []
    for submission in submissions:
        if not submission.problems:
            continue
        name = submission.path.stem  # ALPHA.ods beside ALPHA.xlsx: ALPHA-ods.checked.xlsx, ALPHA-xlsx.checked.xlsx
        if stems.count(name.casefold()) > 1:
            name = f"{name}-{submission.path.suffix.lstrip('.').lower()}"
        target = folder.checks_dir(campaign.turn) / f"{name}.checked.xlsx"
        jobs.append(lambda s=submission, t=target: atomic_save_fast(
            checked_copy(s, _language_of(s, campaign), streamed=True), t))
        written[submission.name] = target
    saved = in_parallel(jobs)  # on both cores: see parallel.py
    note_slow_copies(folder.recovered, [getattr(s, "slow_way", None) for s in saved])  # told with the notes
    return written


def check(root: Path, files: list[Path] | None = None) -> CheckOutcome:
    with opened(root) as (folder, campaign, ruleset):
        outcome = _check(folder, campaign, ruleset, list(files or []))
        outcome.notes = folder.recovered
        return outcome


def _check(folder: CampaignFolder, campaign: Campaign, ruleset: Ruleset, files: list[Path]) -> CheckOutcome:
    # a quarter of a large check's CPU was the garbage collector's: see collector.py, and parallel.py for the pools
    with fewer_collections(), pools_in_a_row():
        submissions = _submissions(folder, campaign, ruleset, files)
        taken = {s.faction for s in submissions if s.accepted}
        outcome = CheckOutcome(campaign, submissions, sorted(set(campaign.factions) - taken))
        outcome.checked = _write_checked(folder, campaign, submissions)
    return outcome


# --------------------------------------------------------------------------------------------- run
@dataclass
class RunOutcome:
    status: str  # "resolved", "waiting", "invalid", "missing"
    campaign: Campaign
    submissions: list[Submission] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    gm_input: Path | None = None
    gm_problems: ProblemList = field(default_factory=ProblemList)
    results: dict[str, Path] = field(default_factory=dict)
    turn_dir: Path | None = None
    seed: int = 0
    checked: dict[str, Path] = field(default_factory=dict)
    notes: list[Msg] = field(default_factory=list)  # what recovery did when the campaign was opened
    reprocess_diff: list[Any] | None = None  # a reprocess: what changed in the results, faction by faction


def run(
    root: Path,
    files: list[Path] | None = None,
    seed: int | None = None,
    allow_missing: bool = False,
    reprocess: bool = False,
    stop_for_gm: bool = False,
) -> RunOutcome:
    # as in a check, the collector runs rarely: a turn builds millions of objects that live on (collector.py)
    with opened(root) as (folder, campaign, ruleset), fewer_collections(), pools_in_a_row():
        if reprocess:
            outcome = _reprocess(folder, campaign, ruleset, list(files or []), seed)
        else:
            submissions = _submissions(folder, campaign, ruleset, list(files or []))
            outcome = _resolve(folder, campaign, ruleset, submissions, seed, allow_missing, stop_for_gm,
                               folder.gm_input(campaign.turn), None, folder.master)
        outcome.notes = folder.recovered + outcome.notes
        return outcome


def _reprocess(folder: CampaignFolder, current: Campaign, ruleset: Ruleset, files: list[Path],
               seed: int | None) -> RunOutcome:
    from adjudicator.outputs.maps import diff as results_diff

    turn = current.turn - 1
    manifest = folder.manifest(turn) if turn >= 1 else None
    if manifest is None:
        raise _fail("M10", msg("There is no resolved turn to reprocess."), None)
    turn_dir = folder.turn_dir(turn)
    problems = ProblemList()
    state_before = turn_dir / "state_before.xlsx"
    loaded = master.load_campaign(state_before, find_ruleset, problems)
    if loaded is None:
        raise CampaignError(problems)
    campaign, ruleset = loaded
    paths = files or sorted((turn_dir / "submitted").glob("*.*"))
    paths = [p for p in paths if p.name != "SHA256SUMS"]
    submissions = [load_submission(p, campaign, ruleset, limits_of(campaign))
                   for p in sorted(paths, key=lambda p: p.name)]
    flag_duplicates(submissions)
    gm = folder.gm_input(turn) if folder.gm_input(turn).exists() else turn_dir / "gm_input.xlsx"
    before = results_diff.snapshot(turn_dir / "results")
    outcome = _resolve(folder, campaign, ruleset, submissions, seed if seed is not None else manifest["seed"],
                       allow_missing=True, stop_for_gm=False, gm_path=gm, supersede=turn, base=state_before)
    if outcome.status == "resolved":
        outcome.reprocess_diff = results_diff.compare(before, results_diff.snapshot(turn_dir / "results"))
        results_diff.write(outcome.reprocess_diff, turn_dir / "reprocess_diff.txt", campaign.language)
    return outcome


@collector_paused(young=True)
def _resolve(
    folder: CampaignFolder,
    campaign: Campaign,
    ruleset: Ruleset,
    submissions: list[Submission],
    seed: int | None,
    allow_missing: bool,
    stop_for_gm: bool,
    gm_path: Path,
    supersede: int | None,
    base: Path,
) -> RunOutcome:
    """Resolve ``campaign`` (read from the master workbook ``base``) and commit the turn. Run with the
    collector off: a turn's resolution makes millions of objects that live on (the world, the outcomes, the
    ledger) and no garbage in cycles, and the collector walked them again and again meanwhile (a fifth of Inner
    Sphere's resolution of 40 states, freeing nothing), then again once it was over. Garbage left by the writing
    is collected all the same: after each workbook's job, and wholly before the writers are forked (parallel.py);
    the youngest objects once the turn is committed."""
    from adjudicator.dice.source import dice_for_turn  # here: `check` needs none of these
    from adjudicator.turn.gm_input import read_gm_input, write_gm_input

    turn = campaign.turn
    used_seed = campaign.seed if seed is None else int(seed)
    outcome = RunOutcome("invalid", campaign, submissions, seed=used_seed)
    rejected = [s for s in submissions if not s.accepted]
    taken = {s.faction: s for s in submissions if s.accepted}
    outcome.missing = sorted(set(campaign.factions) - set(taken))
    if rejected:
        outcome.checked = _write_checked(folder, campaign, submissions)
        return outcome
    if outcome.missing and not allow_missing:
        outcome.status = "missing"
        return outcome

    orders: dict[str, FactionOrders] = {f: passed_orders(s.orders) for f, s in taken.items() if s.orders is not None}
    gm_problems = ProblemList()
    gm_sheets = passed_sheets(read_gm_input(gm_path, ruleset, gm_problems)) if gm_path.exists() else None
    dice = dice_for_turn(folder.root, campaign, taken, used_seed)
    ledger = Ledger(turn, ruleset.account_label)
    try:
        result = ruleset.resolve(TurnInput(campaign, orders, gm_sheets, gm_path.name, dice, ledger, gm_problems))
    except Exception as error:  # noqa: BLE001 - the ruleset's own failure: reported as such, nothing changed
        raise RulesetFailure(ruleset.name, turn, error) from error
    outcome.gm_problems = gm_problems
    if result.needs_gm_input or (stop_for_gm and gm_sheets is None):
        requests = result.gm_requests if result.gm_requests is not None else {}
        target = folder.gm_input(turn)
        write_gm_input(target, ruleset, requests, turn, campaign.language, gm_problems)
        outcome.status = "waiting"
        outcome.gm_input = target
        return outcome
    bad = unbalanced(ruleset, campaign, result, ledger.lines)
    if bad:
        raise LedgerMismatchError(f"ledger does not reconcile: {bad[:5]}")

    staging = folder.new_staging(turn)
    try:
        manifest = _stage(folder, staging, base, campaign, ruleset, taken, result, ledger, dice, gm_sheets,
                          gm_path, used_seed)
        folder.commit(turn, staging, manifest, supersede=supersede is not None)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _archive_inbox(folder, turn, submissions)
    shutil.rmtree(folder.pending_dir(turn), ignore_errors=True)
    outcome.status = "resolved"
    outcome.turn_dir = folder.turn_dir(turn)
    outcome.results = {f: outcome.turn_dir / "results" / f"{f}.xlsx" for f in sorted(campaign.factions)}
    return outcome


def _stage(
    folder: CampaignFolder,
    staging: Path,
    base: Path,
    campaign: Campaign,
    ruleset: Ruleset,
    taken: dict[str | None, Submission],
    result: TurnResult,
    ledger: Ledger,
    dice: Dice,
    gm_sheets: Any,
    gm_path: Path,
    used_seed: int,
) -> dict[str, Any]:
    from adjudicator.dice.report import add_verification_tab  # here: `check` needs neither
    from adjudicator.outputs.maps.turn import turn_pictures

    turn = campaign.turn
    label = master.turn_label(turn)
    submitted = staging / "submitted"
    submitted.mkdir()
    sums = []
    manifest_files: dict[str, Any] = {}
    for faction, submission in sorted(taken.items()):
        name = f"{faction}{submission.path.suffix.lower()}"
        shutil.copyfile(submission.path, submitted / name)
        sums.append(f"{submission.sha256}  {name}")
        manifest_files[str(faction)] = {"received_as": submission.name, "stored_as": name,
                                        "sha256": submission.sha256}
    (submitted / "SHA256SUMS").write_text("\n".join(sums) + "\n", encoding="utf-8")
    shutil.copyfile(base, staging / "state_before.xlsx")
    if gm_sheets is not None:
        shutil.copyfile(gm_path, staging / "gm_input.xlsx")

    results_dir = staging / "results"
    results_dir.mkdir()
    pictures = turn_pictures(folder, base, campaign, ruleset, result, ledger, staging)

    outcomes_of: dict[str, list[Any]] = {}  # each faction's outcomes, gathered once (not a scan a faction)
    for outcome in result.outcomes:
        outcomes_of.setdefault(outcome.faction, []).append(outcome)

    def write_results(faction: str) -> tuple[str, str | None]:
        """The faction's results workbook written; its digest, and why it was made the slow way (or None)."""
        lang = campaign.factions[faction].language
        submission = taken.get(faction)

        def build(new_tabs_only: bool) -> Any:
            wb = results_workbook(
                submission, faction, label,
                outcomes_of.get(faction, []),
                result.faction_reports.get(faction, []),
                ledger.for_faction(faction),
                lang,
                msg("Results of turn {turn}", turn=turn),
                streamed=True,  # the new tabs written by XlsxWriter from their data (streamed.py)
                new_tabs_only=new_tabs_only,  # composed with the player's parts (compose.py)
            )
            add_verification_tab(wb, dice, ruleset, campaign, faction, lang, label)
            pictures.decorate_results(wb, faction, submission, result, lang, label)
            return wb

        path = results_dir / f"{faction}.xlsx"
        saved = atomic_save_fast(composed_results(submission, build), path)
        return sha256_of(path), saved.slow_way

    def write_master() -> tuple[list[Msg], str | None]:
        """campaign.xlsx of the next turn, composed of the old master's parts (master_compose.py) or made today's
        way; its answer: the earlier tabs a new language could not rewrite, and why it was made today's way."""

        def build(wb: Any) -> list[Msg]:  # the turn written into the old master, opened (its new tabs streamed)
            stale = master.write_state(wb, ruleset, campaign, result.tables, turn + 1, ledger=False)  # written next
            master.append_ledger_and_dice(wb, ledger.lines, dice.sorted_log(), campaign.language, ruleset)
            order_tables: dict[str, master.OrderTable] = {s.key: (s.title, [], []) for s in ruleset.order_schemas}
            for faction, submission in sorted(taken.items()):
                if submission.orders is None:
                    continue
                for sheet in submission.orders.sheets.values():
                    faction_problems = list(submission.problems)
                    headers, rows = outcome_cells(sheet, str(faction), outcomes_of.get(str(faction), []),
                                                  faction_problems)  # kept as data: the GM may change the language
                    rows = [[kept_as_data(cell) for cell in row] for row in rows]
                    title, shown, table = order_tables.setdefault(sheet.schema.key, (sheet.schema.title, [], []))
                    shown[:] = [msg("Faction"), *headers]
                    table += [[faction, *row] for row in rows]
            master.add_turn_tabs(wb, turn, {k: t for k, t in order_tables.items() if t[1]}, result.gm_reports,
                                 campaign.language)
            pictures.decorate_master(wb, label)
            return stale

        pictures.draw_master_maps()
        return write_master_file(base, turn, build, staging / "campaign_after.xlsx",
                                 lambda names: master.sheets_written_anew(ruleset, names), atomic_save_fast)

    # the factions' workbooks and the master, on both cores (see parallel.py); the master, the largest, first
    factions = sorted(campaign.factions)
    (stale, slow_master), *written = in_parallel([write_master, *[lambda f=f: write_results(f) for f in factions]])
    folder.recovered += stale  # told to the GM with the run's notes
    # one line with the copies' (the master's, should it not be composed, counted with them)
    note_slow_copies(folder.recovered, [slow_master, *(slow_way for _, slow_way in written)])
    result_hashes = dict(zip(factions, [digest for digest, _ in written], strict=True))
    return {
        "turn": turn,
        "ruleset": ruleset.name,
        "adjudicator": __version__,
        "seed": used_seed,
        "submitted": manifest_files,
        "gm_input_sha256": sha256_of(gm_path) if gm_sheets is not None else None,
        "results_sha256": result_hashes,
        "ledger_lines": len(ledger.lines),
        "dice_rolls": len(dice.log),
    }


def _archive_inbox(folder: CampaignFolder, turn: int, submissions: list[Submission]) -> None:
    """Move the inbox files this turn used out of the inbox (they are kept, byte for byte)."""
    archive = folder.turn_dir(turn) / "inbox"
    for submission in submissions:
        if submission.path.parent.resolve() == folder.inbox.resolve() and submission.path.exists():
            archive.mkdir(exist_ok=True)
            os.replace(submission.path, archive / submission.name)
