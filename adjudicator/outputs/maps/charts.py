"""Native spreadsheet charts of each faction's history (its balances and its forces, turn by turn).

The figures come from the ledger (every balance the turn closed with, and the balances of earlier turns
from the master workbook's Ledger sheet) and from the units on the GM's map. campaign.xlsx keeps them
on a History sheet, rebuilt each turn with one line chart per measure; each faction's result workbook
gets its own lines only."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.engine.ledger import account_label
from adjudicator.i18n import LANGUAGES, N_, all_spellings, fold, msg
from adjudicator.outputs.maps.changes import CellStyles

HISTORY_TITLE = N_("History")


@dataclass(frozen=True)
class Point:
    turn: int
    faction: str
    measure: str  # an account's label, or "forces"
    value: float


#: An account in the reader's words: the ruleset's :meth:`~adjudicator.engine.ruleset.Ruleset.account_label`.
AccountLabel = Callable[[str], Any]


def measure_label(account: str, lang: str, label_of: AccountLabel = account_label) -> str:
    """An account as a chart names it: ``label_of`` (the ruleset's words for its accounts), else the catalogs'."""
    label = label_of(account)
    if hasattr(label, "render"):
        return str(label.render(lang))
    return msg(str(label)).render(lang)  # an account the catalogs know ("treasury"), else as it is


def _ledger_label(account: str, lang: str, label_of: AccountLabel = account_label) -> str:
    """An account as the Ledger sheet shows it."""
    label = label_of(account)
    return str(label.render(lang)) if hasattr(label, "render") else str(label)


def measure_names(accounts: Iterable[str], lang: str, label_of: AccountLabel = account_label) -> dict[str, str]:
    """Every spelling of every measure (an account's label in any language, as a chart or the Ledger names it,
    and "forces"), to its label in ``lang``."""
    named = {msg("forces").render(other): msg("forces").render(lang) for other in LANGUAGES}
    for account in accounts:
        if "@" in account:
            continue
        for other in LANGUAGES:
            named[measure_label(account, other, label_of)] = measure_label(account, lang, label_of)
            named.setdefault(_ledger_label(account, other, label_of), measure_label(account, lang, label_of))
            named.setdefault(msg(account).render(other), measure_label(account, lang, label_of))  # as once named
    for spelling, label in list(named.items()):  # as the History sheet writes it, a label's first letter capital
        named.setdefault(as_label(spelling), label)
    return named


def as_label(measure: str) -> str:
    """A measure as a label reads, its first letter a capital ("tesoro" -> "Tesoro")."""
    return measure[:1].upper() + measure[1:]


#: Measures whose largest values are further apart than this share no chart (one line would lie flat).
SHARED_AXIS_RATIO = 10.0


def by_magnitude(points: list[Point]) -> list[list[str]]:
    """The measures of ``points`` in groups that one axis draws readably: each group's largest value within
    :data:`SHARED_AXIS_RATIO` of the group's first (the largest measures first; in name order among equals)."""
    peak: dict[str, float] = {}
    for p in points:
        peak[p.measure] = max(peak.get(p.measure, 0.0), abs(p.value))
    groups: list[list[str]] = []
    for measure in sorted(peak, key=lambda m: (-peak[m], m)):
        top = peak[groups[-1][0]] if groups else None
        if top is not None and (peak[measure] * SHARED_AXIS_RATIO >= top or top == 0):
            groups[-1].append(measure)
        else:
            groups.append([measure])
    return [sorted(g) for g in groups]


def _sheet(wb: Any, title: str, msgid: str | None = None) -> Any:
    """The sheet named ``title``, or ``msgid`` in any language (the GM may have changed the campaign's)."""
    wanted = all_spellings(msgid) if msgid else {fold(title)}
    return next((ws for ws in wb.worksheets if fold(ws.title) in wanted), None)


def earlier_points(base: Path, lang: str, accounts: Iterable[str], before: int,
                   label_of: AccountLabel = account_label) -> list[Point]:
    """What the master workbook ``base`` knows of earlier turns: its History sheet, or else (for turns
    resolved before there was one) the closing balances of its Ledger sheet."""
    import openpyxl

    wb = openpyxl.load_workbook(base, read_only=True, data_only=True)
    try:
        history = _sheet(wb, msg(HISTORY_TITLE).render(lang), HISTORY_TITLE)
        # Measures written in any language, read in ``lang``'s words.
        accounts = list(accounts)
        named = measure_names(accounts, lang, label_of)
        points: dict[tuple[int, str, str], float] = {}
        if history is not None:
            for row in history.iter_rows(min_row=2, max_col=4, values_only=True):
                if isinstance(row[0], int | float) and row[1] and row[2] and isinstance(row[3], int | float):
                    if int(row[0]) < before:
                        points[(int(row[0]), str(row[1]), named.get(str(row[2]), str(row[2])))] = float(row[3])
        known_turns = {t for t, _, _ in points}
        labels = {_ledger_label(a, other, label_of): measure_label(a, lang, label_of) for a in accounts
                  if "@" not in a for other in LANGUAGES}
        ledger = _sheet(wb, msg("Ledger").render(lang), "Ledger")
        if ledger is not None:
            for row in ledger.iter_rows(min_row=2, max_col=6, values_only=True):
                turn, _, faction, account, _, balance = (*row, *[None] * 6)[:6]
                if (isinstance(turn, int | float) and int(turn) < before and int(turn) not in known_turns
                        and str(account) in labels and isinstance(balance, int | float) and faction):
                    points[(int(turn), str(faction), labels[str(account)])] = float(balance)
    finally:
        wb.close()
    return [Point(t, f, m, v) for (t, f, m), v in sorted(points.items())]


def turn_points(turn: int, closing: dict[tuple[str, str], Any], forces: dict[str, float], lang: str,
                label_of: AccountLabel = account_label) -> list[Point]:
    points = [Point(turn, f, measure_label(a, lang, label_of), float(v)) for (f, a), v in sorted(closing.items())
              if "@" not in a]
    points += [Point(turn, f, msg("forces").render(lang), float(v)) for f, v in sorted(forces.items())]
    return points


def _grid(points: list[Point], rows_of: str, cols_of: str) -> tuple[list[int], list[str], dict[tuple[int, str], float]]:
    turns = sorted({p.turn for p in points})
    columns = sorted({getattr(p, cols_of) for p in points})
    cells = {(p.turn, getattr(p, cols_of)): p.value for p in points}
    return turns, columns, cells


CHART_ROWS = 18  # the rows each chart is given (7.5 cm tall, a row is 0.45 to 0.53 cm)
CHARTS_A_PAGE = 2  # two charts' rows (at most 19 cm) and the title fit an upright page


def _alignments() -> tuple[Any, Any, Any]:
    """The points table's alignments: a number (and its header) at the right of its cell; the text after a
    number indented, so that the number never touches it; other text at the left."""
    from openpyxl.styles import Alignment

    return Alignment(horizontal="right"), Alignment(horizontal="left", indent=1), Alignment(horizontal="left")


def write_history(wb: Any, points: list[Point], lang: str, faction: str | None = None) -> Any:
    """A History sheet: a title row, then each chart under its own caption (a line chart per measure, one
    line per faction, for the GM; one chart of all the faction's measures for a faction), then the points
    as a table, and beside it the table each chart draws. Each chart after the first starts a page (a
    faction's sheet printed upright: every other chart)."""
    from openpyxl.chart import LineChart, Reference
    from openpyxl.styles import Font
    from openpyxl.worksheet.pagebreak import Break

    from adjudicator.outputs.writing import BODY_FONT, TITLE_FONT, sheet_title

    NUMBER, AFTER_NUMBER, TEXT = _alignments()  # noqa: N806 - constants of this sheet
    # a caption a little larger than the text: a heading, which flows over the empty cells at its right
    # rather than widening its column (outputs/layout.py)
    CAPTION_FONT = Font(name=BODY_FONT, bold=True, size=12)  # noqa: N806 - named: LibreOffice drew serif
    title = msg(HISTORY_TITLE).render(lang)
    old = _sheet(wb, title, HISTORY_TITLE)
    if old is not None:
        wb.remove(old)
    ws = wb.create_sheet(sheet_title(wb, title))
    shown = [p for p in points if faction is None or p.faction == faction]
    turns_shown = sorted({p.turn for p in shown})
    heading = f"{title} ({faction})" if faction else title
    if turns_shown:
        heading += f", {msg('Turn').render(lang)} {turns_shown[0]}–{turns_shown[-1]}" if len(turns_shown) > 1 \
            else f", {msg('Turn').render(lang)} {turns_shown[0]}"
    ws.cell(1, 1, heading).font = TITLE_FONT
    groups: list[tuple[str, list[Point], str]]
    if faction is None:
        groups = [(m, [p for p in shown if p.measure == m], "faction")
                  for m in sorted({p.measure for p in shown})]
    else:  # one chart per magnitude: forces of 7 beside a treasury of 441.5 would lie flat on its axis
        parts = by_magnitude(shown)
        groups = [(faction if len(parts) == 1 else f"{faction}: {', '.join(as_label(m) for m in part)}",
                   [p for p in shown if p.measure in part], "measure") for part in parts]
    table_row = 3 + CHART_ROWS * len(groups)  # the points table, below the charts
    headers = [msg("Turn"), msg("Faction"), msg("Measure"), msg("Value")]
    styles = CellStyles()
    aligned = {1: NUMBER, 2: AFTER_NUMBER, 3: TEXT, 4: NUMBER}
    for c, h in enumerate(headers, start=1):
        ws.cell(table_row, c, h.render(lang)).alignment = aligned[c]
    for r, p in enumerate(shown, start=table_row + 1):
        for c, value in enumerate((p.turn, p.faction, p.measure, _number(p.value)), start=1):
            styles.give(ws.cell(r, c, value), str(c), lambda cell, a=aligned[c]: setattr(cell, "alignment", a))
    for letter, width in zip("ABCD", (8, 12, 22, 12), strict=True):
        ws.column_dimensions[letter].width = width
    column = 6
    top = table_row
    caption_row = 3
    starts: list[int] = []  # each chart's caption row
    for name, group, series_of in groups:
        turns, series, cells = _grid(group, "turn", series_of)
        # every column of a chart's table holds numbers: each header right-aligned over its numbers
        ws.cell(top, column, msg("Turn").render(lang)).alignment = NUMBER
        shown_as = as_label if series_of == "measure" else str  # a faction's name as it is
        for j, s in enumerate(series, start=1):
            ws.cell(top, column + j, shown_as(s)).alignment = NUMBER
            letter = _letter(column + j)  # room for the longest header or number, and a gap before the next
            widest = max([len(shown_as(s)), *(len(str(_number(v))) for (_, k), v in cells.items() if k == s)])
            ws.column_dimensions[letter].width = max(ws.column_dimensions[letter].width or 0,
                                                     math.ceil(widest * 1.25) + 3)
        for i, turn in enumerate(turns, start=1):
            ws.cell(top + i, column, turn).alignment = NUMBER
            for j, s in enumerate(series, start=1):
                value = cells.get((turn, s))
                ws.cell(top + i, column + j, _number(value) if value is not None else None)
        chart = LineChart()  # a line with a marker at each turn: one turn is one marker
        caption = as_label(name) if faction is None else name  # a measure (the GM's) as a label reads
        chart.title = caption
        chart.y_axis.title = caption if faction is None else None
        chart.x_axis.title = msg("Turn").render(lang)
        chart.x_axis.delete = chart.y_axis.delete = False  # the axes shown (openpyxl hides them from Excel)
        values = [v for (_, k), v in cells.items()]
        chart.y_axis.scaling.min = min(0, math.floor(min(values, default=0)))
        if not any(values):  # all 0: an axis from 0 to 1 in one step, the line on its 0 line
            chart.y_axis.scaling.max = 1
            chart.y_axis.majorUnit = 1
        chart.height, chart.width = 7.5, 14
        data = Reference(ws, min_col=column + 1, max_col=column + len(series), min_row=top,
                         max_row=top + len(turns))
        chart.add_data(data, titles_from_data=True)
        chart.set_categories(Reference(ws, min_col=column, min_row=top + 1, max_row=top + len(turns)))
        for s in chart.series:  # a marker at each turn, large enough to be seen on an axis line
            s.marker.symbol = "circle"
            s.marker.size = 7
            s.smooth = False
        starts.append(caption_row)
        ws.cell(caption_row, 1, caption).font = CAPTION_FONT  # the chart's caption: text on its page
        ws.add_chart(chart, f"A{caption_row + 1}")
        caption_row += CHART_ROWS
        top += len(turns) + 3
    # A page of its own for each chart (no chart cut by a page break); a faction's few charts two a page
    # when the sheet prints upright (a landscape page holds one)
    from adjudicator.outputs.layout import DEFAULT_WIDTH, PORTRAIT_WIDTH

    widths = {letter: dimension.width for letter, dimension in ws.column_dimensions.items()}  # none created
    used = sum(widths.get(_letter(c)) or DEFAULT_WIDTH for c in range(1, ws.max_column + 1))
    a_page = CHARTS_A_PAGE if faction is not None and used <= PORTRAIT_WIDTH else 1
    for number, row in enumerate(starts):
        if number and number % a_page == 0:
            ws.row_breaks.append(Break(id=row - 1))
    return ws


def _letter(col: int) -> str:
    from openpyxl.utils import get_column_letter

    return get_column_letter(col)


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value
