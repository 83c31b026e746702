"""The conformance checks every ruleset must pass, for its own test suite (a plugin's as much as ours).

Each check takes the ruleset and an example turn (a scenario: the data of a case file without its
``[expect]``, e.g. a bundled ``scenario.toml``) and raises :class:`ConformanceError` saying what broke::

    from adjudicator import testing

    def test_my_ruleset_conforms():
        testing.assert_conforms(MyRuleset(), testing.load_example("tests/example.toml"))

:func:`conformance_failures` runs them all and returns the failures instead. The checks:

- :func:`check_templates`: every faction's order workbook builds, and reads back with its rows and no error;
- :func:`check_repeatable`: the example turn resolved twice gives identical results;
- :func:`check_rejected_rows`: a copy of a real order row with one bad cell changes nothing but its own status;
- :func:`check_order_independence`: the order of the submitted files, of the factions and of the state
  tables' rows changes nothing;
- :func:`check_catalog`: every message of the ruleset's own catalogs is translated;
- :func:`check_cases`: the scenario cases it ships pass.
"""

from __future__ import annotations

import copy
import tempfile
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from adjudicator.cases import CaseError, Turn, bundled_cases, campaign_of, resolve_case, run_case
from adjudicator.engine.ruleset import Ruleset
from adjudicator.engine.sheets import Kind, TableSchema
from adjudicator.i18n import LANGUAGES, render, ruleset_catalog

#: A cell no column of a number or a choice can read: it makes its row fail the engine's checks.
BAD_CELL = "¿?kit-bad-cell"


class ConformanceError(AssertionError):
    """Raised when a ruleset breaks a promise of the plugin contract."""


def load_example(path: str | Path) -> dict[str, Any]:
    """An example turn from a TOML file in the case format (``[expect]`` is ignored)."""
    return tomllib.loads(Path(path).read_text(encoding="utf-8"))


def _data(ruleset: Ruleset, example: Mapping[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(dict(example))
    data["ruleset"] = ruleset.name
    data.pop("expect", None)
    data.pop("examples", None)
    return data


def _resolve(ruleset: Ruleset, data: Mapping[str, Any]) -> Turn:
    try:
        return resolve_case(data, ruleset)
    except CaseError as error:
        raise ConformanceError(f"the example turn cannot be run: {error}") from error
    except Exception as error:  # noqa: BLE001 - whatever the ruleset raises is what the check reports
        raise ConformanceError(f"the turn failed: {type(error).__name__}: {error}") from error


def fingerprint(turn: Turn, sort: bool = False) -> dict[str, Any]:
    """Everything a turn gives, as plain values (``sort``: regardless of the order rows and lines come in)."""
    result = turn.result

    def rows(frame: Any) -> list[Any]:
        out = [tuple(sorted((k, repr(v)) for k, v in r.items())) for r in frame.to_dict("records")]
        return sorted(out) if sort else out

    ledger = [(x.phase, x.faction, x.account, x.change, x.balance, render(x.cause, "en"), x.reference)
              for x in turn.ledger.lines]
    def table(t: Any) -> tuple[str, list[Any]]:
        cells = [repr([render(c, "en") for c in r]) for r in t.rows]
        return render(t.title, "en"), sorted(cells) if sort else cells

    reports = {f: [table(t) for t in tables] for f, tables in sorted(result.faction_reports.items())}
    return {
        "waiting": result.needs_gm_input,
        "tables": {k: rows(v) for k, v in sorted(result.tables.items())},
        "requests": {k: rows(v) for k, v in sorted((result.gm_requests or {}).items())},
        "outcomes": sorted((o.faction, o.sheet, o.row, o.status.value, o.code, render(o.message, "en"))
                           for o in result.outcomes),
        "ledger": sorted(ledger) if sort else ledger,
        "dice": sorted((r.purpose, r.sides, r.values) for r in turn.dice.log),
        "reports": reports,
        "gm_reports": [table(t) for t in result.gm_reports],
    }


#: What a check of the rules compares; reports are left out (their rows follow the order the GM keeps in the
#: state tables, and they may mention a rejected row).
RULES = ("waiting", "tables", "requests", "outcomes", "ledger", "dice")


def _differences(a: Mapping[str, Any], b: Mapping[str, Any], keys: tuple[str, ...] | None = None) -> list[str]:
    return [key for key in (keys or tuple(a)) if a[key] != b.get(key)]


# ------------------------------------------------------------------------------------------------ checks
def check_templates(ruleset: Ruleset, example: Mapping[str, Any]) -> None:
    """Every faction's order workbook builds (with the example's rows) and reads back: no error, every row."""
    from adjudicator.intake.submissions import load_submission
    from adjudicator.outputs.templates import build_order_workbook
    from adjudicator.outputs.writing import atomic_save

    data = _data(ruleset, example)
    campaign = campaign_of(ruleset, data)
    orders = data.get("orders", {})
    with tempfile.TemporaryDirectory() as folder:
        for faction in sorted(campaign.factions):
            rows = orders.get(faction, {})
            path = Path(folder) / f"{faction}.xlsx"
            atomic_save(build_order_workbook(ruleset, campaign, faction, rows), path)
            submission = load_submission(path, campaign, ruleset)
            unreadable = [p for p in submission.problems.errors if p.code.startswith("F")]
            if unreadable or submission.orders is None:
                raise ConformanceError(f"the order workbook of {faction} does not read back: "
                                       + "; ".join(f"{p.code} {p.message.render()}" for p in unreadable))
            for key, written in rows.items():
                sheet = submission.orders.sheets.get(key)
                count = 0 if sheet is None else len(sheet.rows)
                if count != len([r for r in written if any(v not in (None, "") for v in r.values())]):
                    raise ConformanceError(f"{faction}: {len(written)} rows written in {key}, {count} read back")


def check_repeatable(ruleset: Ruleset, example: Mapping[str, Any]) -> None:
    """The same turn twice: the same state, outcomes, ledger, dice and reports."""
    data = _data(ruleset, example)
    first, second = fingerprint(_resolve(ruleset, data)), fingerprint(_resolve(ruleset, data))
    if first != second:
        raise ConformanceError(f"the example turn gave different {', '.join(_differences(first, second))} "
                               "when resolved twice")


def _bad_column(schema: TableSchema, keep: set[str]) -> str | None:
    """A column whose cell, made unreadable, rejects its row: a number or a choice; else a required one."""
    for column in schema.columns:
        if column.key not in keep and not column.computed and column.kind in (
                Kind.INT, Kind.NUMBER, Kind.INT_OR_ALL, Kind.CHOICE):
            return column.key
    return next((c.key for c in schema.columns if c.required and c.key not in keep and not c.computed), None)


def check_rejected_rows(ruleset: Ruleset, example: Mapping[str, Any],
                        groups: Mapping[str, str] | None = None) -> None:
    """For each order sheet with rows in the example: a copy of its first row with one bad cell, added at the
    end, is rejected and leaves no trace: the state, the GM's requests, the ledger, the dice and every other
    row's outcome are those of the turn without it. ``groups`` names, per sheet, a column whose rows stand or
    fall together (a
    chain, a coordinated order): the copy gets a group of its own there."""
    groups = dict(getattr(ruleset, "row_groups", {}) or {}, **(groups or {}))
    data = _data(ruleset, example)
    base = _resolve(ruleset, data)
    clean = fingerprint(base)
    tried = 0
    for faction, sheets in sorted(data.get("orders", {}).items()):
        for schema in ruleset.order_schemas:
            rows = sheets.get(schema.key) or []
            if not rows:
                continue
            group = groups.get(schema.key)
            column = _bad_column(schema, {group} if group else set())
            if column is None:
                continue
            bad = dict(rows[0], **{column: BAD_CELL})
            if group:
                bad[group] = "KIT-OWN-GROUP"
            changed = copy.deepcopy(data)
            changed["orders"][faction][schema.key] = [*rows, bad]
            try:
                turn = _resolve(ruleset, changed)
            except ConformanceError as error:
                raise ConformanceError(f"{faction} {schema.key}: with a rejected row added, {error}") from error
            row = 2 + len(rows)
            status, _ = turn.status(faction, schema.key, row)
            if status != "rejected":
                raise ConformanceError(f"{faction} {schema.key}: a row with the bad cell {column} was not rejected")
            after = fingerprint(turn)
            after["outcomes"] = [o for o in after["outcomes"] if (o[0], o[1], o[2]) != (faction, schema.key, row)]
            diff = _differences(clean, after, RULES)
            if diff:
                raise ConformanceError(f"{faction} {schema.key}: a rejected row changed the turn's {', '.join(diff)}")
            tried += 1
    if not tried:
        raise ConformanceError("the example has no order row to copy with a bad cell")


def _reversed_tables(data: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(data)
    changed["tables"] = {k: list(reversed(v)) if isinstance(v, list) else v for k, v in data["tables"].items()}
    return changed


def _reversed_files(data: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(data)
    changed["orders"] = dict(reversed(list(data.get("orders", {}).items())))
    return changed


def check_order_independence(ruleset: Ruleset, example: Mapping[str, Any]) -> None:
    """The order in which the files come in, the order of the factions and of every state table's rows
    change nothing: the state, the GM's requests, the outcomes, the ledger and the dice (rows and ledger lines
    compared regardless of their order)."""
    data = _data(ruleset, example)
    clean = fingerprint(_resolve(ruleset, data), sort=True)
    for label, shuffle in (("the order of the submitted files", _reversed_files),
                           ("the order of the factions and of the state tables' rows", _reversed_tables)):
        after = fingerprint(_resolve(ruleset, shuffle(data)), sort=True)
        diff = _differences(clean, after, RULES)
        if diff:
            raise ConformanceError(f"{label} changed the turn's {', '.join(diff)}")


def catalog_files(ruleset: Ruleset) -> dict[str, list[Any]]:
    """The ``.po`` files a ruleset ships (``<data package>/locale/<lang>/LC_MESSAGES/*.po``), by language."""
    from importlib import resources

    root = resources.files(ruleset.data_package) / "locale"
    out: dict[str, list[Any]] = {}
    for lang in LANGUAGES:
        folder = root / lang / "LC_MESSAGES"
        if folder.is_dir():
            out[lang] = sorted((p for p in folder.iterdir() if p.name.endswith(".po")), key=lambda p: p.name)
    return out


def check_catalog(ruleset: Ruleset) -> None:
    """Every message of the ruleset's own catalogs is translated (no empty or fuzzy entry) in es and ru."""
    from babel.messages.pofile import read_po

    files = catalog_files(ruleset)
    missing = [lang for lang in LANGUAGES if lang != "en" and not files.get(lang)]
    if missing:
        raise ConformanceError(f"{ruleset.name} ships no catalog for {', '.join(missing)}")
    for lang, paths in sorted(files.items()):
        if lang == "en":
            continue
        for path in paths:
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=lang)
            empty = [m.id for m in catalog if m.id and (m.fuzzy or not (all(m.string) if isinstance(m.string, tuple)
                                                                         else m.string))]
            if empty:
                raise ConformanceError(f"{path.name} ({lang}): {len(empty)} messages untranslated, e.g. {empty[0]!r}")


def check_cases(ruleset: Ruleset) -> None:
    """The scenario cases the ruleset ships (``<data package>/cases/*.toml``) all pass."""
    cases = bundled_cases(ruleset)
    if not cases:
        raise ConformanceError(f"{ruleset.name} ships no scenario case (put them in its package's cases/ folder)")
    failed = {case.name: failures for case in cases if (failures := run_case(case, ruleset))}
    if failed:
        name, failures = next(iter(failed.items()))
        raise ConformanceError(f"{len(failed)} of {len(cases)} cases fail; {name}: {'; '.join(failures[:3])}")


EXAMPLE_CHECKS: tuple[Callable[[Ruleset, Mapping[str, Any]], None], ...] = (
    check_templates, check_repeatable, check_rejected_rows, check_order_independence)
RULESET_CHECKS: tuple[Callable[[Ruleset], None], ...] = (check_catalog, check_cases)


def conformance_failures(ruleset: Ruleset, example: Mapping[str, Any]) -> dict[str, str]:
    """Every check of the kit on ``ruleset``: {check name: what broke}; empty when it conforms."""
    failures = {}
    with ruleset_catalog(ruleset.locale()):
        failures.update(_failures(ruleset, example))
    return failures


def _failures(ruleset: Ruleset, example: Mapping[str, Any]) -> dict[str, str]:
    failures = {}
    for check in EXAMPLE_CHECKS:
        try:
            check(ruleset, example)
        except ConformanceError as error:
            failures[check.__name__] = str(error)
    for ruleset_check in RULESET_CHECKS:
        try:
            ruleset_check(ruleset)
        except ConformanceError as error:
            failures[ruleset_check.__name__] = str(error)
    return failures


def assert_conforms(ruleset: Ruleset, example: Mapping[str, Any]) -> None:
    failures = conformance_failures(ruleset, example)
    if failures:
        raise ConformanceError("; ".join(f"{name}: {text}" for name, text in failures.items()))
