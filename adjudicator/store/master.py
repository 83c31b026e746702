"""The GM's master workbook, campaign.xlsx: settings, parameters, factions, the ruleset's state
tables, the cumulative Ledger and Dice sheets, and the tabs of every resolved turn.

The GM may edit it by hand (parameters, map, corrections); it is read with the same validation as a
player's workbook, so a GM's typo is reported at its cell, never as a traceback.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.dice import Roll
from adjudicator.engine.ledger import LedgerLine, ledger_row
from adjudicator.engine.parameters import ParameterError
from adjudicator.engine.problems import ProblemList
from adjudicator.engine.row_table import FrameTables, RowTable
from adjudicator.engine.rule_table_words import ruleset_words
from adjudicator.engine.rules_data import RULE_TABLES, check_changes, retired_parameter, shown_rows
from adjudicator.engine.ruleset import Campaign, Faction, ReportTable, Ruleset
from adjudicator.engine.sheets import Column, Kind, TableSchema, records
from adjudicator.i18n import (
    N_,
    UnsupportedLanguageError,
    fold,
    gettext_in,
    msg,
    normalise_language,
    render,
    ruleset_catalog,
)
from adjudicator.i18n.message_data import dumps, loads
from adjudicator.intake.deadlines import next_turn_settings
from adjudicator.intake.kept_survey import inspected
from adjudicator.intake.reading import read_table, read_workbook
from adjudicator.intake.safety import Limits
from adjudicator.intake.validation import validate_table
from adjudicator.outputs.plain_rows import append_plain, sheet_rows
from adjudicator.outputs.writing import schema_table, sheet_title
from adjudicator.store.setting_words import MEANING_HEADER, meaning

if TYPE_CHECKING:  # pandas is imported where frames are made or written: reading the campaign needs none
    import pandas as pd
    from openpyxl import Workbook

    from adjudicator.i18n import Msg

MASTER_LIMITS = Limits(max_file_bytes=500 * 2**20, max_unpacked_bytes=4 * 2**30, max_parts=50_000,
                       max_rows=1_000_000, max_columns=1_000, max_cells=20_000_000, max_text_chars=32_767,
                       max_text_total=1_000_000_000, max_part_bytes=2**31)

SETTINGS = TableSchema("settings", N_("Settings"), (
    Column("setting", N_("Setting"), required=True, width=20),
    Column("value", N_("Value"), width=40),
    Column("meaning", MEANING_HEADER, width=60),  # written in the GM's words at each write, never read
))
PARAMETERS = TableSchema("parameters", N_("Parameters"), (
    Column("parameter", N_("Parameter"), required=True, width=28),
    Column("value", N_("Value"), width=14),
    Column("default", N_("Default"), width=14),
    Column("description", N_("Description"), width=90),
))
FACTION_BASE = (
    Column("id", N_("ID"), required=True, width=10),
    Column("name", N_("Name"), required=True, width=24),
    Column("language", N_("Language"), width=10),
)
#: The factions' mail addresses (several: separated by , or ;), last, after the ruleset's columns.
EMAIL = Column("email", N_("Email"), width=30, synonyms=("e-mail", "mail"))
LEDGER = TableSchema("ledger", N_("Ledger"), (
    Column("turn", N_("Turn"), Kind.INT, width=6),
    Column("phase", N_("Phase"), width=10),
    Column("faction", N_("Faction"), width=10),
    Column("account", N_("Account"), width=14),
    Column("change", N_("Change"), Kind.INT, width=10),
    Column("balance", N_("Balance"), Kind.INT, width=10),
    Column("cause", N_("Cause"), width=50),
    Column("reference", N_("Reference"), width=28),
))
DICE = TableSchema("dice", N_("Dice"), (
    Column("turn", N_("Turn"), Kind.INT, width=6),
    Column("decides", N_("What the roll decides"), width=50),  # the ruleset's words, made again at each write
    Column("purpose", N_("Roll key"), width=40),
    Column("dice", N_("Dice"), width=8),
    Column("results", N_("Results"), width=24),
    Column("total", N_("Total"), Kind.INT, width=8),
))

#: Settings every campaign has, in the order they are shown.
SETTING_KEYS = ("campaign", "title", "ruleset", "seed", "turn", "language", "deadline", "secret")


def factions_schema(ruleset: Ruleset) -> TableSchema:
    return TableSchema("factions", N_("Factions"), FACTION_BASE + ruleset.faction_columns + (EMAIL,))


def new_secret() -> str:
    return secrets.token_hex(16)


def turn_label(turn: int) -> str:
    return f"T{turn:02d}"


# ---------------------------------------------------------------------------------------- reading
def load_campaign(path: Path, ruleset_lookup: Any, problems: ProblemList) -> tuple[Campaign, Ruleset] | None:
    """The campaign in ``path`` and its ruleset; None with problems (at their cells) when it is unusable."""
    # the sheets read here, not the turns' tabs; its survey found again while its bytes stay the same
    book = read_workbook(path, problems, MASTER_LIMITS, lazy=True, survey=inspected)
    if book is None:
        return None
    where = {"file": path.name}
    table = read_table(book, SETTINGS, problems)
    if table is None:
        return None
    settings = {fold(r["setting"]): r["value"] for _, r in records(table.rows) if r["setting"] is not None}
    try:
        ruleset = ruleset_lookup(str(settings.get("ruleset") or ""))
    except ValueError as error:
        problems.error("M01", msg("The ruleset {name} cannot be used: {reason}.", name=str(settings.get("ruleset")),
                                  reason=str(error)),
                       msg("Run 'adjudicator rulesets' to see the installed rulesets."), sheet=table.sheet,
                       **where)
        return None

    def setting_cell(key: str) -> str:
        for row, r in records(table.rows):
            if r["setting"] is not None and fold(r["setting"]) == key:
                return table.cell(int(row), "value")
        return "B1"

    numbers = {}
    for key in ("seed", "turn"):
        try:
            numbers[key] = int(float(settings.get(key)))  # type: ignore[arg-type]
            if numbers[key] < (1 if key == "turn" else 0):
                raise ValueError
        except (TypeError, ValueError):
            problems.error("M02", msg("The setting {key} must be a whole number.", key=key), None,
                           sheet=table.sheet, cell=setting_cell(key), **where)
    try:
        language = normalise_language(settings.get("language") or ruleset.default_language)
    except UnsupportedLanguageError:
        problems.error("M03", msg("Language {value} is not supported; use en, es or ru.",
                                  value=str(settings.get("language"))), None,
                       sheet=table.sheet, cell=setting_cell("language"), **where)
        language = ruleset.default_language
    for key in ("max file mb", "max unpacked mb"):  # optional limits of submitted workbooks
        value = settings.get(key)
        if value in (None, ""):
            continue
        try:
            if float(value) <= 0:
                raise ValueError
        except (TypeError, ValueError):
            problems.error("M02", msg("The setting {key} must be a positive number of megabytes.",
                                      key=key.replace(" ", "_")), None,
                           sheet=table.sheet, cell=setting_cell(key), **where)
    for key in ("campaign", "secret"):
        if not settings.get(key):
            problems.error("M04", msg("The setting {key} is missing.", key=key), None, sheet=table.sheet, **where)

    parameters: dict[str, Any] = {}
    param_table = read_table(book, PARAMETERS, problems)
    defaults = ruleset.parameters()
    if param_table is not None:
        overrides: dict[str, Any] = {}
        for row, r in records(param_table.rows):
            key = str(r["parameter"] or "").strip()
            if not key:
                continue
            if key in ruleset.retired_parameters:  # now a cell of the rule tables: say which
                reason, hint = retired_parameter(key, ruleset.retired_parameters[key], r["value"],
                                                 ruleset_words(ruleset))
                problems.error("M05", reason, hint, sheet=param_table.sheet,
                               cell=param_table.cell(int(row), "parameter"), **where)
                continue
            try:
                overrides[key] = r["value"]
                defaults.resolve({key: r["value"]})
            except ParameterError as exc:
                overrides.pop(key, None)
                problems.error("M05", msg("Parameter {key}: {reason}.", key=key, reason=exc.reason),
                               msg("Correct the value, or clear it to use the default."),
                               sheet=param_table.sheet, cell=param_table.cell(int(row), "value"), **where)
        parameters = defaults.resolve(overrides)
    else:
        parameters = defaults.defaults()

    tables: dict[str, RowTable] = {}
    for schema in (factions_schema(ruleset), *ruleset.state_schemas):
        found = read_table(book, schema, problems)
        if found is None:
            tables[schema.key] = RowTable.empty(schema.keys())
            continue
        tables[schema.key] = validate_table(found, problems, path.name)
        if schema.key == RULE_TABLES.key:  # each change must fit the ruleset's tables
            check_changes(ruleset.data_package, found, tables[schema.key], problems, path.name)
        if schema.key == "factions":
            faction_sheet = found
    factions: dict[str, Faction] = {}
    for row, r in records(tables["factions"]):
        fid = str(r.get("id") or "").strip().upper()
        if not fid:
            continue
        try:
            lang = normalise_language(r.get("language") or language)
        except UnsupportedLanguageError:
            problems.error("M03", msg("Language {value} is not supported; use en, es or ru.",
                                      value=str(r.get("language"))), None,
                           sheet=faction_sheet.sheet, cell=faction_sheet.cell(int(row), "language"), **where)
            lang = language
        if fid in factions:
            problems.error("M06", msg("Faction {faction} is listed twice.", faction=fid), None,
                           sheet=faction_sheet.sheet, cell=faction_sheet.cell(int(row), "id"), **where)
        factions[fid] = Faction(fid, str(r.get("name") or fid), lang)
    if "factions" in tables:
        tables["factions"] = tables["factions"].with_column(
            "id", [str(v or "").strip().upper() for v in tables["factions"].column("id")])
    if problems.has_errors():
        return None
    campaign = Campaign(
        campaign_id=str(settings["campaign"]),
        title=str(settings.get("title") or settings["campaign"]),
        ruleset=ruleset.name,
        seed=numbers["seed"],
        turn=numbers["turn"],
        language=language,
        secret=str(settings["secret"]),
        factions=factions,
        parameters=parameters,
        tables=FrameTables({k: v.without("_invalid") for k, v in tables.items()}),  # frames made when asked
        settings=settings,
    )
    return campaign, ruleset


# ---------------------------------------------------------------------------------------- writing
def _frame_rows(frame: pd.DataFrame, schema: TableSchema, lang: str = "en") -> list[list[Any]]:
    import pandas as pd

    rows = []
    for record in frame.to_dict("records"):
        row = []
        for key in schema.keys():
            value = record.get(key)
            if value is not None and not isinstance(value, str) and pd.isna(value):
                value = None
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            if value is not None and schema.column(key).choices:  # a word, or free text kept
                value = schema.column(key).choice_label(str(value), lang)
            row.append(value)
        rows.append(row)
    return rows


#: The tables whose wide columns wrap (the settings' words: a sentence each).
WRAPPED_TABLES = ("settings",)


def _replace_table(wb: Workbook, schema: TableSchema, rows: Sequence[Sequence[Any]], lang: str) -> None:
    """Rewrite ``schema``'s sheet in place (same position), or add it. In a workbook whose new tabs stream, the
    table is described as data, written by XlsxWriter from its rows (outputs/table_tab.py), not built as
    openpyxl cells: the same cells, styles, widths and heights (the Ledger and Dice, the state tables, the
    settings and parameters)."""
    from adjudicator.outputs import streamed

    wanted = schema.spellings()
    index = None
    for i, ws in enumerate(wb.worksheets):
        if fold(ws.title) in wanted:
            index = i
            wb.remove(ws)
            break
    ws = wb.create_sheet(sheet_title(wb, schema.title_in(lang)), index)
    tab = schema_table(schema, rows, lang, wrap_long=schema.key in WRAPPED_TABLES)
    if streamed.streaming(wb):
        streamed.describe(ws, tab)
    else:
        streamed.fill_plain_table(ws, tab)


def write_state(wb: Workbook, ruleset: Ruleset, campaign: Campaign, tables: dict[str, pd.DataFrame],
                turn: int, ledger: bool = True) -> list[Msg]:
    """Write the campaign's state (settings, parameters, state tables, Ledger and Dice) in its language, and
    every earlier turn's tabs again when they are in another; what the GM must be told (the tabs that could
    not be written again). ``ledger`` False: the Ledger and Dice are left to the caller, who writes them
    wholly with the turn's lines (:func:`append_ledger_and_dice`), so all turns' rows are not written twice."""
    lang = campaign.language
    settings = dict(campaign.settings) if turn <= campaign.turn else next_turn_settings(dict(campaign.settings))
    settings.update({"campaign": campaign.campaign_id, "title": campaign.title, "ruleset": ruleset.name,
                     "seed": campaign.seed, "turn": turn, "language": lang, "secret": campaign.secret})
    ordered = [k for k in SETTING_KEYS if k in settings] + sorted(k for k in settings if k not in SETTING_KEYS)
    _replace_table(wb, SETTINGS, [[k, settings[k], meaning(k, lang)] for k in ordered], lang)
    defaults = ruleset.parameters()
    rows = []
    for key, parameter in defaults.parameters.items():
        value = campaign.parameters.get(key, parameter.default)
        shown = parameter.show(value) if value != parameter.default else None
        with ruleset_catalog(ruleset.locale()):  # the ruleset's data file's words, in its own catalog
            description = gettext_in(lang, parameter.description) if parameter.description else ""
        rows.append([key, shown, parameter.show(parameter.default), description])
    _replace_table(wb, PARAMETERS, rows, lang)
    for schema in (factions_schema(ruleset), *ruleset.state_schemas):
        frame = tables.get(schema.key, campaign.tables.get(schema.key))
        rows = _frame_rows(frame, schema, lang) if frame is not None else []
        if schema.key == RULE_TABLES.key:  # the tables, rows and columns in the campaign's words
            rows = shown_rows(ruleset, frame, lang)
        _replace_table(wb, schema, rows, lang)
    if ledger and _sheet_of(wb, LEDGER) is not None:
        append_ledger_and_dice(wb, [], [], lang, ruleset)  # the whole Ledger and Dice in the campaign's (new) language
    from adjudicator.outputs.maps.stored import redraw_map_tabs
    from adjudicator.store.stale_tabs import StaleTabs, stale_note
    from adjudicator.store.turn_tabs import rewrite_turn_tabs

    with ruleset_catalog(ruleset.locale()):  # the order sheets' titles in the ruleset's words
        stale = StaleTabs(wb, lang, [schema.title for schema in ruleset.order_schemas])
        rewrite_turn_tabs(wb, lang)  # the earlier turns' tabs too, when written in another language
        redrawn = redraw_map_tabs(wb, lang)  # and the pictures of their maps, from the kept views
        return stale_note(stale.after(wb, redrawn))


#: The hidden sheet that keeps each Ledger line as data (JSON), so that the Ledger can be written again in
#: another language when the GM changes the campaign's.
LEDGER_SOURCE = "_ledger_source"  # its folded name is no spelling of the Ledger sheet


def _sheet_of(wb: Workbook, schema: TableSchema) -> Any:
    wanted = schema.spellings()
    return next((w for w in wb.worksheets if fold(w.title) in wanted), None)


def _table_rows(ws: Any, schema: TableSchema) -> list[list[Any]]:
    """The rows of ``schema``'s sheet ``ws`` that hold something: its cells, or its rows as described (a
    streamed tab of this turn)."""
    from adjudicator.outputs import streamed

    tab = streamed.tab_of(ws)
    found = tab.rows if tab is not None else ws.iter_rows(min_row=2, max_col=len(schema.columns), values_only=True)
    return [list(r) for r in found if any(v is not None for v in r)]


def _ledger_source(wb: Workbook) -> Any:
    """The hidden source sheet; made (from the Ledger's own cells, as they read) for a campaign without one."""
    if LEDGER_SOURCE in wb.sheetnames:
        return wb[LEDGER_SOURCE]
    ws = wb.create_sheet(LEDGER_SOURCE)
    ws.sheet_state = "hidden"
    old = _sheet_of(wb, LEDGER)
    if old is not None:  # a campaign made before the source sheet: its earlier lines as they were written
        for row in _table_rows(old, LEDGER):
            append_plain(ws, [dumps(row)])
    return ws


def append_ledger_and_dice(wb: Workbook, lines: Sequence[LedgerLine], rolls: Sequence[Roll], lang: str,
                           ruleset: Ruleset | None = None) -> None:
    """Add the turn's ledger lines and rolls, and write the Ledger and Dice sheets wholly in ``lang`` (the
    campaign's language, which the GM may have changed since the earlier turns were written); each roll's words
    (``ruleset``'s :meth:`roll_label`) are made again from its key, in ``lang``."""
    from adjudicator.outputs.references import shown_reference

    source = _ledger_source(wb)
    earlier = [r[0] for r in sheet_rows(source, 1) if r[0]]  # the earlier turns' lines, read from their text
    new_rows = []
    for line in lines:
        row = ledger_row(line)
        new_rows.append([*row[:-1], shown_reference(row[-1])])
        append_plain(source, [dumps(new_rows[-1])])
    ledger_rows = [loads(str(text)) for text in earlier] + new_rows  # the turn's own kept as made, not read back
    old_dice = _sheet_of(wb, DICE)
    keyed = _dice_rows(old_dice) if old_dice is not None else []
    keyed += [[r.turn, r.purpose, r.notation(), " ".join(map(str, r.values)), r.total] for r in rolls]
    words = roll_words(ruleset, [row[1] for row in keyed], lang)
    _replace_table(wb, LEDGER, ledger_rows, lang)
    _replace_table(wb, DICE, [[turn, said, key, *rest] for said, (turn, key, *rest) in zip(words, keyed, strict=True)],
                   lang)


def _dice_rows(ws: Any) -> list[list[Any]]:
    """The Dice sheet's rows without their words: turn, key, dice, results, total (a sheet written before the
    words' column had only these five)."""
    from adjudicator.outputs import streamed

    rows = _table_rows(ws, DICE)
    described = streamed.tab_of(ws) is not None
    if not described and sum(1 for c in next(ws.iter_rows(max_row=1, values_only=True), ()) if c) < len(DICE.columns):
        return [row[:5] for row in rows]
    return [[row[0], *row[2:]] for row in rows]


def roll_words(ruleset: Ruleset | None, keys: Sequence[str], lang: str) -> list[str]:
    """What each roll decides, in ``lang``, from its key (the ruleset's catalog entered once for them all);
    empty where the ruleset has no words for it."""
    if ruleset is None:
        return ["" for _ in keys]
    with ruleset_catalog(ruleset.locale()):
        texts = [render(ruleset.roll_label(str(key)), lang) for key in keys]
    return ["" if text == key else text for text, key in zip(texts, keys, strict=True)]


def new_master(ruleset: Ruleset, campaign: Campaign) -> Workbook:
    from openpyxl import Workbook

    wb = Workbook()
    wb.remove(wb.active)
    write_state(wb, ruleset, campaign, campaign.tables, campaign.turn)
    append_ledger_and_dice(wb, [], [], campaign.language, ruleset)
    return wb


#: The orders of one order sheet of every faction: the sheet's title (a msgid), headers and rows.
OrderTable = tuple[str, list[Any], list[list[Any]]]


def add_turn_tabs(wb: Workbook, turn: int, order_tables: Mapping[str, OrderTable], reports: list[ReportTable],
                  lang: str) -> None:
    """The turn's tabs: one orders tab per order sheet ("T03 Orders", or "T03 Orders Repairs" when the
    ruleset has several), each under that sheet's own headers, then the GM's report (kept as data too, to be
    written again in another language: see turn_tabs.py)."""
    from adjudicator.store.turn_tabs import add_turn_tabs as add_tabs

    add_tabs(wb, turn, order_tables, reports, lang)


def sheets_written_anew(ruleset: Ruleset, names: Sequence[str]) -> list[str]:
    """Of the master's sheets ``names``, those a turn writes anew without reading them: the tables of
    :func:`write_state` (from the campaign's data) and the Ledger (from its source sheet, when there is one)."""
    schemas = [SETTINGS, PARAMETERS, factions_schema(ruleset), *ruleset.state_schemas]
    if LEDGER_SOURCE in names:
        schemas.append(LEDGER)
    spelled = set().union(*(schema.spellings() for schema in schemas))
    return [name for name in names if fold(name) in spelled]


def open_master(path: Path) -> Workbook:
    import openpyxl

    return openpyxl.load_workbook(path)


