"""Order workbooks: one per faction and turn, in the faction's language, with dropdowns, input
messages, protected headers and the workbook's identity."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, Protection
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from adjudicator.engine.presentation import offered_in
from adjudicator.engine.ruleset import Campaign, Ruleset
from adjudicator.engine.sheets import Kind, TableSchema
from adjudicator.i18n import N_, gettext_in, msg, render
from adjudicator.intake.deadlines import FINAL, mark_final_cell
from adjudicator.intake.identity import TEMPLATE_VERSION, Identity, faction_token, write_identity
from adjudicator.outputs.example_rows import sendable
from adjudicator.outputs.writing import (
    BODY_FONT,
    TITLE_FONT,
    error_alert,
    fit_to_page_width,
    header_row,
    number_hint,
    put,
    write_report_sheet,
)

LISTS_SHEET = "_lists"
INSTRUCTIONS = N_("Instructions")
INPUT_ROWS = 200


def build_order_workbook(
    ruleset: Ruleset,
    campaign: Campaign,
    faction: str,
    rows: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
) -> Workbook:
    """The order workbook of ``faction`` for the campaign's current turn; ``rows`` pre-fills sheets
    (by schema key, values by column key), as the bundled examples do."""
    lang = campaign.factions[faction].language
    wb = Workbook()
    wb.remove(wb.active)
    _instructions(wb, ruleset, campaign, faction, lang)
    lists = wb.create_sheet(LISTS_SHEET)
    lists.sheet_state = "hidden"
    offered = ruleset.presentation().choice_lists(campaign, faction, lang)
    list_col = 0
    lookups: dict[str, str] = {}
    for name, pairs in ruleset.presentation().template_lookups(campaign, faction).items():
        list_col += 2
        key_letter, value_letter = get_column_letter(list_col - 1), get_column_letter(list_col)
        for r, (key, value) in enumerate(pairs, start=1):
            put(lists, r, list_col - 1, key)
            put(lists, r, list_col, value)
        defined = f"lookup_{name}"
        end = max(len(pairs), 1)
        ref = f"{quote_sheetname(LISTS_SHEET)}!${key_letter}$1:${value_letter}${end}"
        wb.defined_names[defined] = DefinedName(defined, attr_text=ref)
        lookups[name] = defined
    for schema in ruleset.order_schemas:
        ws = wb.create_sheet(schema.title_in(lang))
        header_row(ws, 1, [c.header_in(lang) for c in schema.columns], lang, [c.width for c in schema.columns])
        _numbers_right(ws, schema)
        ws.freeze_panes = "A2"
        fit_to_page_width(ws)
        letters = {c.key: get_column_letter(i) for i, c in enumerate(schema.columns, start=1)}
        for index, column in enumerate(schema.columns, start=1):
            letter = get_column_letter(index)
            area = f"{letter}2:{letter}{INPUT_ROWS + 1}"
            if column.preview:
                continue  # the ruleset's decorate_template writes it
            if column.computed:
                for r in range(2, INPUT_ROWS + 2):
                    ws.cell(row=r, column=index, value=expand_formula(
                        column.formula, r, letters, schema, lang, campaign.parameters, lookups))
                continue
            values = ([column.choice_label(c.code, lang) for c in column.choices]
                      or offered_in(offered, schema.key, column.key))
            validation: DataValidation | None = None
            if values:
                list_col += 1
                list_letter = get_column_letter(list_col)
                for r, value in enumerate(values, start=1):
                    put(lists, r, list_col, value)
                name = f"list_{schema.key}_{column.key}"
                ref = f"{quote_sheetname(LISTS_SHEET)}!${list_letter}$1:${list_letter}${len(values)}"
                wb.defined_names[name] = DefinedName(name, attr_text=ref)
                strict = column.kind is Kind.CHOICE
                validation = DataValidation(type="list", formula1=f"={name}", allow_blank=True,
                                            showErrorMessage=True, errorStyle="stop" if strict else "warning")
                error_alert(validation, lang, msg("Choose a value from the list."))
            elif column.kind in (Kind.INT, Kind.NUMBER):
                validation = DataValidation(
                    type="whole" if column.kind is Kind.INT else "decimal",
                    operator="between",
                    formula1=str(int(column.minimum) if column.minimum is not None else -(10**9)),
                    formula2=str(int(column.maximum) if column.maximum is not None else 10**9),
                    allow_blank=True,
                    showErrorMessage=True,
                )
                error_alert(validation, lang, number_hint(column))
            if validation is None:
                validation = DataValidation(allow_blank=True)
            if column.help:
                validation.promptTitle = column.header_in(lang)[:32]
                validation.prompt = gettext_in(lang, column.help)[:255]
                validation.showInputMessage = True
            validation.add(area)
            ws.add_data_validation(validation)
            as_text = column.kind in (Kind.TEXT, Kind.CHOICE)  # identifiers (0201, A1, IDs) stay text
            if as_text:
                ws.column_dimensions[letter].number_format = "@"
            for r in range(2, INPUT_ROWS + 2):
                ws.cell(row=r, column=index).protection = Protection(locked=False)
                if as_text:
                    ws.cell(row=r, column=index).number_format = "@"
        for r, values in enumerate((rows or {}).get(schema.key, []), start=2):
            for index, column in enumerate(schema.columns, start=1):
                value = values.get(column.key)
                if column.kind is Kind.CHOICE and value is not None:
                    value = column.choice_label(str(value), lang)
                put(ws, r, index, value, lang)
        if schema.budget:
            _budget_block(ws, schema, letters, ruleset.presentation().template_budget(campaign, faction), lang)
        ws.protection.sheet = True
        ws.protection.formatColumns = False
        ws.protection.autoFilter = False
    for table in ruleset.presentation().reference_tables(campaign, faction):
        sheet = write_report_sheet(wb, render(table.title, lang), [table], lang)
        sheet.protection.sheet = True
    ruleset.presentation().decorate_template(wb, campaign, faction)
    from adjudicator.dice.report import write_key_sheet  # here: cryptography only when a template is made

    write_key_sheet(wb, campaign)
    token = faction_token(campaign.secret, campaign.campaign_id, faction, campaign.turn)
    write_identity(
        wb,
        Identity(ruleset.name, campaign.campaign_id, faction, campaign.turn, TEMPLATE_VERSION, token, lang),
    )
    wb.active = 1
    return wb


#: A number a player types: aligned right as spreadsheets align numbers, one indent in from the cell's edge so
#: that it never touches the text of the next column; its header above it the same way. A computed column (a
#: formula's number, beside other computed ones or last) is aligned right without the indent.
NUMBER_CELL = Alignment(horizontal="right", indent=1)
NUMBER_HEADER = Alignment(horizontal="right", indent=1, wrap_text=True, vertical="top")
COMPUTED_CELL = Alignment(horizontal="right")
COMPUTED_HEADER = Alignment(horizontal="right", wrap_text=True, vertical="top")
NUMBER_KINDS = (Kind.INT, Kind.NUMBER, Kind.INT_OR_ALL)
#: The room an indent takes, in widths of a "0", added to the column's width.
INDENT_WIDTH = 2.0


def _numbers_right(ws: Any, schema: TableSchema) -> None:
    """Number columns (the ones players type numbers in, and the computed costs) right-aligned, header too."""
    for index, column in enumerate(schema.columns, start=1):
        if column.computed:
            header, cell = COMPUTED_HEADER, COMPUTED_CELL
        elif column.kind in NUMBER_KINDS:
            header, cell = NUMBER_HEADER, NUMBER_CELL
            dimension = ws.column_dimensions[get_column_letter(index)]
            dimension.width = (dimension.width or 8.43) + INDENT_WIDTH
        else:
            continue
        ws.cell(row=1, column=index).alignment = header
        for r in range(2, INPUT_ROWS + 2):
            ws.cell(row=r, column=index).alignment = cell


def expand_formula(template: str, row: int, letters: Mapping[str, str], schema: TableSchema, lang: str,
                   parameters: Mapping[str, Any], lookups: Mapping[str, str]) -> str:
    """A computed column's formula for one row. Placeholders:

    - ``{row}``: the row number; ``{col:KEY}``: the cell of column KEY in this row (``D5``);
    - ``{is:KEY:CODE}``: TRUE when column KEY holds choice CODE, in the workbook's language or as the code;
    - ``{param:NAME}``: the campaign's value of a parameter; ``{lookup:NAME}``: the defined name of a
      two-column lookup table given by the ruleset (for VLOOKUP).
    """

    def replace(match: re.Match[str]) -> str:
        kind, _, rest = match.group(1).partition(":")
        if kind == "row":
            return str(row)
        if kind == "col":
            return f"{letters[rest]}{row}"
        if kind == "is":
            key, code = rest.split(":")
            cell = f"{letters[key]}{row}"
            label = schema.column(key).choice_label(code, lang).replace('"', '""')
            return f'OR({cell}="{label}",{cell}="{code}")'
        if kind == "param":
            return str(parameters[rest])
        if kind == "lookup":
            return lookups[rest]
        raise ValueError(f"unknown formula placeholder {match.group(0)!r}")

    return re.sub(r"\{([a-z]+(?::[A-Za-z0-9_]+)*)\}", replace, template)


def _budget_block(ws: Any, schema: TableSchema, letters: Mapping[str, str], treasury: int | None, lang: str) -> None:
    """Treasury, spent (the sum of the cost column) and what is left, to the right of the table."""
    if treasury is None:
        return
    label_col = len(schema.columns) + 2
    cost = letters[schema.budget]
    label_letter = get_column_letter(label_col + 1)
    rows = [
        (msg("Treasury"), treasury),
        (msg("Spent"), f"=SUM({cost}2:{cost}{INPUT_ROWS + 1})"),
        (msg("Left"), f"={label_letter}2-{label_letter}3"),
    ]
    for r, (label, value) in enumerate(rows, start=2):
        put(ws, r, label_col, label, lang)
        ws.cell(row=r, column=label_col).font = Font(name=BODY_FONT, bold=True)
        ws.cell(row=r, column=label_col + 1, value=value)
    ws.column_dimensions[get_column_letter(label_col)].width = 14


def _instructions(wb: Workbook, ruleset: Ruleset, campaign: Campaign, faction: str, lang: str) -> None:
    """The Instructions sheet, top to bottom: who and when, how to fill it in, then each order sheet's
    columns with a few example rows laid out in that sheet's own columns. Texts span the columns the
    example tables use (merged cells), so nothing sits beside a long text."""
    ws = wb.create_sheet(gettext_in(lang, INSTRUCTIONS))
    shown = [[c for c in schema.columns if not c.computed] for schema in ruleset.order_schemas]
    span = max([2, *(len(columns) for columns in shown)])
    examples = ruleset.presentation().example_rows(campaign, faction)
    offered = ruleset.presentation().choice_lists(campaign, faction, lang)
    rows = sendable(ruleset, campaign, faction, lang,
                    {key: [_in_language(values, lang) for values in listed] for key, listed in examples.items()},
                    offered)
    tables = {schema.key: [_example_values(values, columns, lang) for values in rows[schema.key]]
              for schema, columns in zip(ruleset.order_schemas, shown, strict=True)}
    widths = example_widths([[column.header_in(lang) for column in columns] for columns in shown],
                            [tables[schema.key] for schema in ruleset.order_schemas], span, lang)
    for i, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = width
    fit_to_page_width(ws)
    put(ws, 1, 1, msg("{game}: orders of {faction} for turn {turn}", game=msg(ruleset.title),
                      faction=campaign.factions[faction].name, turn=campaign.turn), lang)
    ws.cell(row=1, column=1).font = TITLE_FONT
    lines: list[tuple[Any, Any]] = [
        (msg("Campaign"), campaign.title),
        (msg("Faction"), f"{faction} ({campaign.factions[faction].name})"),
        (msg("Turn"), campaign.turn),
    ]
    deadline = campaign.settings.get("deadline")
    if deadline:
        lines.append((msg("Deadline"), str(deadline)))
    from adjudicator.dice.report import instruction_lines

    lines += instruction_lines(campaign)
    lines.append((msg(FINAL), None))  # the player's "final" mark, a YES/NO dropdown
    lines.append((msg("How to fill it in"),
                  msg("Write one order per row on the order sheet. Choose values from the dropdowns where "
                      "there are any. Do not rename sheets or headers. Save and send the file back to the GM.")))
    row = 3
    for label, value in lines:
        _label_and_text(ws, row, label, value, span, lang)
        if value is None:
            mark_final_cell(ws, row, lang)
        row += 1
    row += 1
    blocks = []
    for schema, columns in zip(ruleset.order_schemas, shown, strict=True):
        row = _describe_sheet(ws, row, schema, span, lang)
        if tables[schema.key]:
            start = row
            row = _example_table(ws, row, columns, tables[schema.key], lang)
            blocks.append((start, row - 2))
    keep_together(ws, blocks)
    ws.protection.sheet = True


#: A4 in points (portrait: width, height).
A4_POINTS = (595.3, 841.9)
#: The points a "0" width of a column prints at: Calibri's (Excel, and LibreOffice with Carlito), and DejaVu
#: Sans's, which LibreOffice draws where Carlito is missing (measured: 7.0 to 7.2). A page break is placed for
#: both, so that the sheet's fit to page width shrinks it to either scale without splitting a block.
POINTS_PER_WIDTH = (5.25, 7.1)


def page_rows(ws: Any, last_col: int, points_per_width: float) -> float:
    """The points of rows a printed page of ``ws`` holds, at the scale (a whole percent) its fit to page width
    prints its columns at when a "0" width is ``points_per_width`` points."""
    width, height = A4_POINTS if ws.page_setup.orientation != "landscape" else A4_POINTS[::-1]
    margins = ws.page_margins
    across = width - (margins.left + margins.right) * 72
    down = height - (margins.top + margins.bottom) * 72
    columns = sum(float(ws.column_dimensions[get_column_letter(c)].width or 8.43)
                  for c in range(1, last_col + 1)) * points_per_width
    scale = min(1.0, math.floor(100 * across / columns) / 100) if columns else 1.0
    return down / scale


def keep_together(ws: Any, blocks: Sequence[tuple[int, int]]) -> None:
    """A page break before each block of rows (an example table: its label, headers and rows) that would
    otherwise run over the foot of a page, so that no page begins with rows whose headers are on the one
    before. Heights are those the sheet is laid out at (every row given one, so that LibreOffice and Excel
    page alike); a block taller than a page is left to split."""
    from openpyxl.worksheet.pagebreak import Break

    from adjudicator.outputs.layout import DEFAULT_ROW, lay_out_sheet, used_range

    lay_out_sheet(ws)  # the final widths, heights and orientation (the save lays it out again, alike)
    last_row, last_col = used_range(ws)
    for r in range(1, last_row + 1):
        if ws.row_dimensions[r].height is None:
            ws.row_dimensions[r].height = DEFAULT_ROW  # LibreOffice (12.8 points) pages as Excel (15) does
    heights = {r: float(ws.row_dimensions[r].height) for r in range(1, last_row + 1)}
    pages = [page_rows(ws, last_col, points) - DEFAULT_ROW for points in POINTS_PER_WIDTH]  # a line of room
    ends = dict(blocks)
    used = [0.0] * len(pages)
    for r in range(1, last_row + 1):
        if r in ends:
            block = sum(heights[x] for x in range(r, ends[r] + 1))
            if any(u and u + block > page >= block for u, page in zip(used, pages, strict=True)):
                ws.row_breaks.append(Break(id=r - 1))  # row r starts a page
                used = [0.0] * len(pages)
        used = [0.0 if u + heights[r] > page else u for u, page in zip(used, pages, strict=True)]
        used = [u + heights[r] for u in used]


def _label_and_text(ws: Any, row: int, label: Any, text: Any, span: int, lang: str, bold: bool = True) -> None:
    """A label in column A and its text across columns B to ``span``, wrapped."""
    put(ws, row, 1, label, lang)
    ws.cell(row=row, column=1).font = Font(name=BODY_FONT, bold=bold)
    ws.cell(row=row, column=1).alignment = Alignment(vertical="top", wrap_text=True)
    put(ws, row, 2, text, lang)
    ws.cell(row=row, column=2).alignment = Alignment(wrap_text=True, horizontal="left", vertical="top")
    if span > 2:
        ws.merge_cells(start_row=row, start_column=2, end_row=row, end_column=span)


def _in_language(values: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """An example row whose free texts are written in each language (``{ ru = "…", es = "…" }`` in the
    scenario) with the reader's version of each: a text order reads in the words the player writes."""
    return {key: (value.get(lang) or value.get("en") or next(iter(value.values()), None))
            if isinstance(value, Mapping) else value for key, value in values.items()}


def _example_values(values: Mapping[str, Any], columns: Sequence[Any], lang: str) -> list[Any]:
    """An example row as its cells show it, in the sheet's column order (a choice by its label)."""
    shown = []
    for column in columns:
        value = values.get(column.key)
        if column.kind is Kind.CHOICE and value is not None:
            value = column.choice_label(str(value), lang)
        shown.append(render(value, lang))
    return shown


#: The widest an example's column grows for its values (a longer text wraps inside it), in "0" widths.
EXAMPLE_COLUMN = 32.0
#: The first column also holds the labels of the sheet's lines (wrapped when longer).
LABEL_COLUMN = 24.0
#: What the texts of the Instructions sheet (merged from the second column to the last) span at least.
TEXT_SPAN = 80.0
#: Room in a cell beside its text, in "0" widths: a number or word never touches the next column's.
ROOM = 2.0


def example_widths(headers: Sequence[Sequence[Any]], tables: Sequence[Sequence[Sequence[Any]]], span: int,
                   lang: str) -> list[float]:
    """Column widths of the Instructions sheet chosen for its example tables: each column as wide as the
    widest header (bold) or value that any table shows in it, plus room, so that every number stays inside
    its own cell and apart from its neighbour's text; a long text wraps at EXAMPLE_COLUMN."""
    from adjudicator.outputs.layout import text_width

    widths = [0.0] * span
    for names, rows in zip(headers, tables, strict=True):
        for i, name in enumerate(names):
            header = str(render(name, lang))
            widest = max([text_width(word, bold=True) for word in header.split()] or [0.0])
            widths[i] = max(widths[i], min(text_width(header, bold=True), max(EXAMPLE_COLUMN, widest)) + ROOM)
        for values in rows:
            for i, value in enumerate(values):
                if value is not None and str(value) != "":
                    text = _as_shown(value)
                    widest = max([text_width(word) for word in text.split()] or [0.0])
                    widths[i] = max(widths[i], min(text_width(text), max(EXAMPLE_COLUMN, widest)) + ROOM)
    widths = [round(max(w, 6.0), 1) for w in widths]
    widths[0] = max(widths[0], LABEL_COLUMN)
    if sum(widths[1:]) < TEXT_SPAN:
        widths[-1] = round(widths[-1] + TEXT_SPAN - sum(widths[1:]), 1)
    return widths


def _as_shown(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _example_table(ws: Any, row: int, columns: Sequence[Any], rows: Sequence[Sequence[Any]], lang: str) -> int:
    """Filled example rows under a sheet's description, in the sheet's own columns and headers. Every cell,
    numbers too, is aligned left under its header: a number aligned right would touch the text of the
    next column and read as part of it."""
    put(ws, row, 1, msg("Examples"), lang)
    ws.cell(row=row, column=1).font = Font(name=BODY_FONT, bold=True, italic=True)
    row += 1
    header_row(ws, row, [column.header_in(lang) for column in columns], lang, [0] * len(columns))
    for values in rows:
        row += 1
        for offset, value in enumerate(values, start=1):
            put(ws, row, offset, value, lang)
            ws.cell(row=row, column=offset).alignment = Alignment(horizontal="left", wrap_text=True,
                                                                  vertical="top")
    return row + 2


def _describe_sheet(ws: Any, row: int, schema: TableSchema, span: int, lang: str) -> int:
    put(ws, row, 1, schema.title_in(lang), lang)
    ws.cell(row=row, column=1).font = TITLE_FONT
    row += 1
    if schema.help:
        _label_and_text(ws, row, "", gettext_in(lang, schema.help), span, lang)
        row += 1
    for column in schema.columns:
        _label_and_text(ws, row, column.header_in(lang), gettext_in(lang, column.help) if column.help else "",
                        span, lang)
        row += 1
    return row + 1
