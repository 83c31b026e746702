"""One vocabulary per language: no internal code and no English word of the rulesets' vocabularies
(choice values, statuses, units, the keys and word values of the rule tables) in a cell a Spanish or Russian
reader sees, in any workbook of the examples (order templates, checked copies, results, GM input, campaign.xlsx).

The example's Rule tables sheet is first given every cell of the ruleset's tables, typed as its codes (the
default value, so the turn is unchanged): the campaign.xlsx the turn writes must show each table, row, column and
word value in the campaign's words."""

from __future__ import annotations

import re
import shutil
from functools import cache
from pathlib import Path

import openpyxl
import pytest

from adjudicator.engine.registry import installed
from adjudicator.engine.rules_data import RULE_TABLES, default_tables, ships_tables
from adjudicator.i18n import gettext_in
from adjudicator.rulesets.coordinated_orders import rules as coordinated_orders_rules
from adjudicator.rulesets.galactic_war import rules as galactic_war_rules
from adjudicator.rulesets.galactic_war import vocabulary as galactic_war_words
from adjudicator.rulesets.inner_sphere import gm as inner_sphere_gm
from adjudicator.rulesets.inner_sphere.orders import common as is_common
from adjudicator.rulesets.star_sectors import rules as star_sectors_rules
from adjudicator.turn import pipeline

RULESETS = sorted(installed())
STATUSES = ("done", "partial", "rejected")
#: Keys joined by colons (DAVION:IND, a combat's INVASION:0204:K-NS3:5, a dice purpose): identifiers the
#: player types or the GM looks up, not words.
IDENTIFIER = re.compile(r"[\w-]+(?::[\w-]+)+")
#: Known gaps, each with its reason (the test still scans every other cell of these sheets).
NOT_SCANNED = {
    ("Parameters", "value"),  # parameter values are the codes the GM types (BEFORE_INCOME, none)
    ("Parameters", "default"),
}
#: Codes a hint teaches the player to type, which the column reads ("GF x3, PDS" in galactic_war's landings).
TYPED = {"GF", "PDS"}
#: The rulesets' ledger phase names (msgids), which the Ledger sheets show in the reader's words.
PHASES = (*star_sectors_rules.LEDGER_PHASES, galactic_war_rules.MOVEMENT, coordinated_orders_rules.PHASE,
          is_common.ECONOMY, is_common.REPAIRS, is_common.PURCHASES, is_common.MOVEMENT, is_common.AGENCY,
          is_common.RESEARCH, is_common.JUMPSHIPS, is_common.END, is_common.GM)
#: Words a reader types that are no choice of a column: Galactic War's scope for every system, its retreat
#: conditions' tokens and its technologies (ВСЕ, СВОИ_КОРАБЛИ, Штурмовое орудие for a Russian reader).
TYPED_WORDS = {"galactic_war": {galactic_war_words.ALL, *galactic_war_words.TECHS,
                                *(w for code, w in galactic_war_words.RETREAT_TOKENS["en"].items() if code != "OR")}}
#: An identifier that begins with a kind in English (INVASION:0204:K-NS3:5), shown to the GM in their words.
ENGLISH_ID = re.compile(r"(?<![\w-])(" + "|".join(inner_sphere_gm.ID_WORDS) + r")(?=:)")
#: The hidden sheet of the dropdowns' values: what a reader picks from a list.
LISTS = "_lists"
#: English words of ledger references and report fragments ("ALPHA:BUILD:row 3", "(MEDIUM)", "damaged").
ENGLISH = re.compile(r"(?<![\w-])(row \d+|damaged|repaired|ground combat|rounds)(?![\w-])")
#: A ledger reference shown as its key ("battle:C3", "upkeep:defences"), not in the reader's words.
RAW_REFERENCE = re.compile(r"(?<![\w-])([a-z]+:[\w-]+)")


def table_cells(tables: dict, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str, object]]:
    """Every cell of a ruleset's rule tables: (table and row keys, column key, default value)."""
    found = []
    for k, v in tables.items():
        if isinstance(v, dict):
            found += table_cells(v, (*path, str(k)))
        elif isinstance(v, list):
            for number, item in enumerate(v, 1):
                found += table_cells(item, (*path, str(k), str(number)))
        elif path:
            found.append((path, str(k), v))
    return found


@cache
def rule_table_codes(lang: str, name: str) -> frozenset[str]:
    """The keys of a ruleset's rule tables (tables, rows, columns) and their word values (Galactic War's unit
    class "ship"), where the reader's word differs: none may be a cell's whole text, nor a part of a row path."""
    from adjudicator.engine.rule_table_words import TableWords, ruleset_words

    ruleset = installed()[name]
    if not ships_tables(ruleset.data_package):
        return frozenset()
    words = ruleset_words(ruleset)
    declared = getattr(ruleset, "rule_table_words", {})
    values = getattr(ruleset, "rule_table_values", {})

    def word(table: str, key: str) -> str | None:  # a column's own words in one table ("research.research") first
        own = declared.get(f"{table}.{key}")
        if own:
            return TableWords({key: own}, words.locale).shown(key, lang)
        return words.shown(key, lang) if key in words.labels else None

    def value_word(table: str, column: str, value: str) -> str | None:
        label = values.get(f"{table}.{column}", values.get(column, {})).get(value)
        return TableWords({value: label}, words.locale).shown(value, lang) if label else None

    codes = set()
    for path, column, value in table_cells(default_tables(ruleset.data_package)):
        shown = {path[0]: word("", path[0]), column: word(path[0], column)}
        shown |= {p: word(path[0], p) for p in path[1:]}
        if isinstance(value, str) and value:
            shown[value] = value_word(path[0], column, value)
        # a code without words, or whose words differ from it (NS1 is its own word; rolls 2-3 are no code)
        codes |= {code for code, text in shown.items() if code != text and not re.fullmatch(r"[\d.-]+", code)}
    return frozenset(codes)


def fill_rule_tables(name: str, master: Path) -> None:
    """The Rule tables sheet of ``master`` given every cell of the ruleset's tables, as codes and defaults."""
    ruleset = installed()[name]
    if not ships_tables(ruleset.data_package):
        return
    book = openpyxl.load_workbook(master)
    lang = str(next(row[1] for row in book.worksheets[0].iter_rows(values_only=True) if row[0] == "language"))
    sheet = book[gettext_in(lang, RULE_TABLES.title)]
    for path, column, value in table_cells(default_tables(ruleset.data_package)):
        sheet.append([path[0], ".".join(path[1:]), column, value])
    book.save(master)


@cache
def vocabulary(lang: str, name: str) -> tuple[set[str], set[str]]:
    """(codes, English labels) that a reader of ``lang`` of ruleset ``name``'s workbooks should never see: those
    of its choices whose word in ``lang`` differs from them (another ruleset's words may mean something else
    here: Galactic War's "Y" is yes, Star Sectors' Y a coordinate)."""
    from adjudicator.i18n import translations

    kept = {text for text in translations(lang)._catalog.values()  # type: ignore[attr-defined]
            if isinstance(text, str) and re.fullmatch(r"[\w-]+", text)}  # a word translated as itself (ICNA)
    factions = {f for r in installed().values() if (r.example_dir() / "scenario.toml").exists()
                for f in re.findall(r'\bid\s*=\s*"([A-Z]+)"', (r.example_dir() / "scenario.toml").read_text())}
    codes, labels = set(TYPED_WORDS.get(name, ())), set(STATUSES) | set(PHASES)
    for ruleset in (installed()[name],):
        for schema in (*ruleset.order_schemas, *ruleset.gm_input_schemas, *ruleset.state_schemas):
            for column in schema.columns:
                for choice in column.choices:
                    word = gettext_in(lang, choice.label)
                    if (choice.code != word and not choice.code.isdigit() and len(choice.code) > 1
                            and choice.code not in kept and choice.code not in factions and choice.code not in TYPED):
                        codes.add(choice.code)
                    if choice.label != word:
                        labels.add(choice.label)
    this = installed()[name]
    own = {choice.code: choice.label for schema in (*this.order_schemas, *this.gm_input_schemas)
           for column in schema.columns for choice in column.choices}
    for other in installed().values():  # a code two rulesets share (MOVE) shows this ruleset's word, not the other's
        for schema in (*other.order_schemas, *other.gm_input_schemas):
            for column in schema.columns:
                for choice in column.choices:
                    if choice.code in own and choice.label != own[choice.code] and gettext_in(lang, own[choice.code]) \
                            != choice.label:
                        labels.add(choice.label)
    return codes, labels


def _outputs(name: str, root: Path) -> list[tuple[Path, str]]:
    """(workbook, its reader's language) of every output of the example."""
    pipeline.new_campaign(installed()[name], root, example=True)
    fill_rule_tables(name, root / "campaign.xlsx")
    _, campaign, _ = pipeline.open_campaign(root)
    lang_of = {f: campaign.factions[f].language for f in campaign.factions}
    found = [(p, lang_of[p.stem]) for p in pipeline.make_templates(root)]
    found += [(p, lang_of.get(p.name.split(".")[0], campaign.language)) for p in pipeline.check(root).checked.values()]
    for gm in sorted((root / "pending").rglob("gm_input.xlsx"))[:1]:
        found.append((shutil.copyfile(gm, root.parent / f"{name}-gm.xlsx"), campaign.language))
        gm.unlink()  # the GM input the turn asks for (its combats, accidents...), then the example's own again
        asked = pipeline.run(root, stop_for_gm=True)
        assert asked.status == "waiting" and asked.gm_input is not None
        found.append((shutil.copyfile(asked.gm_input, root.parent / f"{name}-gm-asked.xlsx"), campaign.language))
        shutil.copyfile(root.parent / f"{name}-gm.xlsx", gm)
    outcome = pipeline.run(root)
    assert outcome.status == "resolved"
    found += [(p, lang_of[f]) for f, p in outcome.results.items()]
    found.append((root / "campaign.xlsx", campaign.language))
    return [(p, lang) for p, lang in found if lang in ("es", "ru")]


def foreign_words(path: Path, lang: str, name: str) -> list[str]:
    codes, labels = vocabulary(lang, name)
    table_codes = rule_table_codes(lang, name)
    code_pattern = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, codes), key=len, reverse=True))
                              + r")(?![\w-])")
    book = openpyxl.load_workbook(path)
    reference = gettext_in(lang, "Reference")  # a ledger's column (dice keys stay keys: a player verifies them)
    found = []
    for ws in book.worksheets:
        if ws.sheet_state != "visible" and ws.title != LISTS:
            continue
        headers = {c.column: str(c.value) for c in ws[1] if c.value is not None}
        skipped = {col for col, header in headers.items()
                   for sheet, key in NOT_SCANNED
                   if gettext_in(lang, sheet) in ws.title and header == gettext_in(lang, key.capitalize())}
        for row in ws.iter_rows():
            for cell in row:
                if not isinstance(cell.value, str) or cell.data_type == "f" or cell.column in skipped:
                    continue
                text = cell.value.strip()
                if text in labels or text in codes or any(part in labels for part in text.split(", ")[1:]):
                    found.append(f"{ws.title}!{cell.coordinate}: {text!r}")
                elif headers.get(cell.column) == reference and (hit := RAW_REFERENCE.search(text)):
                    found.append(f"{ws.title}!{cell.coordinate}: the reference {hit.group(1)!r} in {text!r}")
                elif text in table_codes or any(part.strip() in table_codes for part in text.split(".")):
                    found.append(f"{ws.title}!{cell.coordinate}: rule tables' {text!r}")
                elif hit := (code_pattern.search(IDENTIFIER.sub(" ", text)) or ENGLISH.search(text)
                             or ENGLISH_ID.search(text)):
                    found.append(f"{ws.title}!{cell.coordinate}: {hit.group(1)!r} in {text!r}")
    return found


@pytest.mark.parametrize("name", RULESETS)
def test_no_code_or_english_word_reaches_a_spanish_or_russian_reader(name: str, tmp_path: Path) -> None:
    outputs = _outputs(name, tmp_path / name)
    assert outputs, "every example has Spanish or Russian readers"
    faults = [f"{path.name} ({lang}) {where}" for path, lang in outputs for where in foreign_words(path, lang, name)]
    assert not faults, "\n".join(faults[:40])
    for path, lang in outputs:  # tab names within Excel's 31 characters; a turn's tabs keep their turn
        for title in openpyxl.load_workbook(path, read_only=True).sheetnames:
            assert len(title) <= 31, (path.name, title)
            turn_tab = any(title.startswith(gettext_in(lang, t)) for t in ("Outcome", "Report", "Ledger"))
            if turn_tab and path.parent.name == "results":
                assert re.search(r" T\d\d$", title), (path.name, title)
