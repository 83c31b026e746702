"""The GM input workbook: the decisions a turn waits for (battle results, answers), with dropdowns.

It is written when a turn stops after its first pass, with every row to fill and whatever the GM
already entered; it is read back with the same validation as an order workbook.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from openpyxl import Workbook
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from adjudicator.engine.problems import ProblemList
from adjudicator.engine.ruleset import Ruleset, SheetRows
from adjudicator.engine.sheets import Kind
from adjudicator.i18n import Msg, gettext_in, msg
from adjudicator.intake.reading import read_workbook
from adjudicator.intake.safety import Limits
from adjudicator.intake.submissions import read_sheets
from adjudicator.outputs.fast_save import atomic_save_fast
from adjudicator.outputs.streamed import describe, stream_new_tabs
from adjudicator.outputs.templates import INSTRUCTIONS
from adjudicator.outputs.writing import TITLE_FONT, error_alert, number_hint, put, schema_table

GM_LIMITS = Limits(max_file_bytes=100 * 2**20, max_unpacked_bytes=1 << 30, max_rows=200_000, max_columns=500,
                   max_cells=5_000_000, max_text_chars=32_767, max_text_total=200_000_000, max_part_bytes=1 << 30)


def write_gm_input(path: Path, ruleset: Ruleset, requests: dict[str, pd.DataFrame], turn: int, lang: str,
                   problems: ProblemList | None = None) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = gettext_in(lang, INSTRUCTIONS)
    ws.column_dimensions["A"].width = 24
    ws.column_dimensions["B"].width = 100
    put(ws, 1, 1, msg("GM input for turn {turn}", turn=turn), lang)
    ws.cell(row=1, column=1).font = TITLE_FONT
    put(ws, 2, 1, msg("Fill in the empty cells of each sheet, save this file where it is, and run the turn "
                      "again."), lang)
    row = 4
    for schema in ruleset.gm_input_schemas:
        put(ws, row, 1, schema.title_in(lang), lang)
        put(ws, row, 2, gettext_in(lang, schema.help) if schema.help else "", lang)
        row += 1
    if problems:
        row += 1
        put(ws, row, 1, msg("Problems in the previous input"), lang)
        ws.cell(row=row, column=1).font = TITLE_FONT
        for problem in problems:
            row += 1
            put(ws, row, 1, f"{problem.sheet or ''} {problem.cell or ''}".strip(), lang)
            text = problem.message.render(lang) + (" " + problem.hint.render(lang) if problem.hint else "")
            put(ws, row, 2, text, lang)
    stream_new_tabs(wb)  # the request sheets written by XlsxWriter from their rows (streamed.py), not as cells
    for schema in ruleset.gm_input_schemas:
        sheet = wb.create_sheet(schema.title_in(lang))
        frame = requests.get(schema.key, pd.DataFrame(columns=schema.keys()))
        records = frame.to_dict("records")
        rows = []
        for record in records:
            values = []
            for column in schema.columns:
                value = record.get(column.key)
                if value is not None and not isinstance(value, str) and pd.isna(value):
                    value = None
                if value is not None and column.kind is Kind.CHOICE:
                    value = column.choice_label(str(value), lang)
                elif isinstance(value, str):  # a ruleset's word among the row's choices, in the reader's language
                    value = _choice_text(ruleset.gm_row_choices(schema.key, record).get(column.key, ()), value, lang)
                values.append(value)
            rows.append(values)
        describe(sheet, schema_table(schema, rows, lang))  # the master's tables' face
        last = max(len(rows) + 1, 100)
        for index, column in enumerate(schema.columns, start=1):
            letter = get_column_letter(index)
            if column.kind is Kind.CHOICE:
                labels = ",".join(column.choice_label(c.code, lang) for c in column.choices)
                validation = DataValidation(type="list", formula1=f'"{labels}"', allow_blank=True)
                error_alert(validation, lang, msg("Choose a value from the list."))
                validation.add(f"{letter}2:{letter}{last}")
                sheet.add_data_validation(validation)
            elif column.kind not in (Kind.INT, Kind.NUMBER) and not frame.empty:
                for r, record in enumerate(records, start=2):
                    options = ruleset.gm_row_choices(schema.key, record).get(column.key)
                    if options:
                        words = ",".join(o.render(lang) if isinstance(o, Msg) else str(o) for o in options)
                        validation = DataValidation(type="list", formula1=f'"{words}"', allow_blank=True)
                        error_alert(validation, lang, msg("Choose a value from the list."))
                        validation.add(f"{letter}{r}")
                        sheet.add_data_validation(validation)
            elif column.kind in (Kind.INT, Kind.NUMBER) and column.minimum is not None:
                validation = DataValidation(type="decimal", operator="between", formula1=str(column.minimum),
                                            formula2=str(column.maximum if column.maximum is not None else 10**9),
                                            allow_blank=True)
                error_alert(validation, lang, number_hint(column))
                validation.add(f"{letter}2:{letter}{last}")
                sheet.add_data_validation(validation)
    atomic_save_fast(wb, path)  # XlsxWriter writes it: openpyxl's face (tests/core/test_gm_input_face.py)


def _choice_text(options: object, value: str, lang: str) -> str:
    """``value`` in the reader's words when it is one of a row's translatable choices (a ruleset's message)."""
    for option in options:  # type: ignore[attr-defined]
        if isinstance(option, Msg) and option.text == value:
            return option.render(lang)
    return value


def read_gm_input(path: Path, ruleset: Ruleset, problems: ProblemList) -> dict[str, SheetRows] | None:
    book = read_workbook(path, problems, GM_LIMITS)
    if book is None:
        return None
    return read_sheets(book, ruleset.gm_input_schemas, problems)
