"""The turn tabs of campaign.xlsx (``T05 Orders …``, ``T05 Report``, ``T05 Map``) kept as data, so that they are
written again wholly in the campaign's language when the GM changes it.

The turn folders keep the workbooks a turn used and wrote, but not the report tables nor the outcome of each
order as data (they are rendered text): so each tab's content is kept, as the Ledger's lines are, in a hidden
sheet of campaign.xlsx (``_turn_tabs_source``): message ids and their arguments (:mod:`adjudicator.i18n.message_data`),
an order's choice as its word, a problem's code and text joined; a message whose arguments would not read back
the same (:func:`kept_as_data`), and every such value a campaign kept before, as its text in every language. A
tab is rewritten only when the campaign's language is not the one it was written in."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from adjudicator.engine.ruleset import ReportTable
from adjudicator.i18n import LANGUAGES, N_, Joined, Msg, Words, fold, gettext_in, msg, render
from adjudicator.i18n.message_data import InLanguages, dumps, loads, reads_back
from adjudicator.outputs.plain_rows import append_plain, sheet_rows
from adjudicator.outputs.writing import hidden_sheet

if TYPE_CHECKING:
    from openpyxl import Workbook

#: The hidden sheet keeping each turn tab's content as data; its folded name is no spelling of a visible sheet.
SOURCE = "_turn_tabs_source"

#: The orders of one order sheet of every faction: the sheet's title (a msgid), headers and rows.
OrderTable = tuple[str, list[Any], list[list[Any]]]


def kept_as_data(value: Any) -> Any:
    """A cell of a turn tab as campaign.xlsx keeps it: a message (or words, or parts joined) that reads back the
    same from message data (:func:`~adjudicator.i18n.message_data.reads_back`) stays a message, rendered in
    whatever language the tab is written in; another is kept rendered in every language (:class:`InLanguages`)."""
    if isinstance(value, (Msg, Words, Joined)) and not reads_back(value):
        return InLanguages(tuple((lang, render(value, lang)) for lang in LANGUAGES))
    return value


def _shown(value: Any, lang: str) -> Any:
    return value.render(lang) if isinstance(value, InLanguages) else value


#: The word of an orders tab's name ("T03 Orders Repairs").
ORDERS = N_("Orders")


def _orders_name(turn: int, title: str | None, lang: str) -> str:
    orders = f"T{turn:02d} {gettext_in(lang, ORDERS)}"
    return orders if title is None else f"{orders} {gettext_in(lang, title)}"


def _write_orders(wb: Workbook, tab: Mapping[str, Any], lang: str) -> Any:
    from adjudicator.outputs.writing import write_table_sheet

    (headers, rows), = [(t["headers"], t["rows"]) for t in tab["tables"]]
    headers = [_shown(h, lang) for h in headers]
    widths = [10, 6, *[14] * max(len(headers) - 4, 0), 12, 70]
    return write_table_sheet(wb, _orders_name(tab["turn"], tab.get("title"), lang), headers,
                             [[_shown(v, lang) for v in row] for row in rows], lang, widths)


def _write_report(wb: Workbook, tab: Mapping[str, Any], lang: str) -> Any:
    from adjudicator.outputs.writing import write_report_sheet

    tables = [ReportTable(str(t.get("key", "")), t["title"], [_shown(h, lang) for h in t["headers"]],
                          [[_shown(v, lang) for v in row] for row in t["rows"]]) for t in tab["tables"]]
    return write_report_sheet(wb, f"T{tab['turn']:02d} " + msg("Report").render(lang), tables, lang)


WRITERS = {"orders": _write_orders, "report": _write_report}


def add_turn_tabs(wb: Workbook, turn: int, order_tables: Mapping[str, OrderTable], reports: list[ReportTable],
                  lang: str) -> None:
    """The turn's tabs: one orders tab per order sheet ("T03 Orders", or "T03 Orders Repairs" when the
    ruleset has several), each under that sheet's own headers, then the GM's report; each kept as data too."""
    several = len(order_tables) > 1
    new = [{"turn": turn, "kind": "orders", "title": title if several else None,
            "tables": [{"headers": headers, "rows": rows}]} for title, headers, rows in order_tables.values()]
    new.append({"turn": turn, "kind": "report",
                "tables": [{"key": t.key, "title": t.title, "headers": t.headers, "rows": t.rows} for t in reports]})
    for tab in new:
        tab.update(lang=lang, sheet=WRITERS[tab["kind"]](wb, tab, lang).title)
    heads = _heads(wb)
    if heads and all(head["turn"] != turn for head in heads):  # the earlier turns' lines stay as they are
        _append_tabs(wb[SOURCE], new)
        return
    _save_tabs(wb, [t for t in _tabs(wb) if t["turn"] != turn] + new)


def rewrite_turn_tabs(wb: Workbook, lang: str) -> None:
    """Write again, in ``lang``, every turn tab written in another language (in place, same position),
    and the GM's map tabs' names and titles."""
    if all(head["lang"] == lang or head["sheet"] not in wb.sheetnames for head in _heads(wb)):
        tabs: list[dict[str, Any]] = []  # none to write again: their rows are not read
    else:
        tabs = _tabs(wb)
    changed = False
    for tab in tabs:
        if tab["lang"] == lang or tab["sheet"] not in wb.sheetnames:
            continue
        old = wb[tab["sheet"]]
        index = wb.worksheets.index(old)
        wb.remove(old)
        ws = WRITERS[tab["kind"]](wb, tab, lang)
        wb.move_sheet(ws, index - wb.worksheets.index(ws))
        tab.update(lang=lang, sheet=ws.title)
        changed = True
    if changed:
        _save_tabs(wb, tabs)
    _rename_map_tabs(wb, lang)
    _rewrite_history(wb, lang)


def _rewrite_history(wb: Workbook, lang: str) -> None:
    """The GM's History sheet (charts and points) drawn again in ``lang`` from its own points, when it is in
    another language."""
    from adjudicator.outputs.maps.charts import HISTORY_TITLE, Point, write_history
    from adjudicator.store.master import LEDGER_SOURCE

    spellings = {fold(gettext_in(other, HISTORY_TITLE)) for other in LANGUAGES}
    old = next((ws for ws in wb.worksheets if fold(ws.title) in spellings), None)
    if old is None or old.title == gettext_in(lang, HISTORY_TITLE):
        return
    index = wb.worksheets.index(old)
    named = {msg("forces").render(other): msg("forces").render(lang) for other in LANGUAGES}
    if LEDGER_SOURCE in wb.sheetnames:  # the measures are the ledger's accounts, as its lines name them
        for (text,) in sheet_rows(wb[LEDGER_SOURCE], 1):
            row = loads(str(text)) if text else []
            if len(row) > 3 and row[3] is not None:
                named |= {str(render(row[3], other)): str(render(row[3], lang)) for other in LANGUAGES}
    points = [Point(int(r[0]), str(r[1]), named.get(str(r[2]), str(r[2])), float(r[3]))
              for r in old.iter_rows(min_row=2, max_col=4, values_only=True)
              if isinstance(r[0], int | float) and r[1] and r[2] and isinstance(r[3], int | float)]
    ws = write_history(wb, points, lang)
    wb.move_sheet(ws, index - wb.worksheets.index(ws))


def _rename_map_tabs(wb: Workbook, lang: str) -> None:
    """The GM's map tabs ("T03 Map", its title "Map of turn 3 (GM)") in ``lang``; the picture stays as drawn."""
    from adjudicator.outputs.writing import sheet_title

    names = {fold(msg("Map").render(other)) for other in LANGUAGES}
    for ws in list(wb.worksheets):
        found = re.match(r"^T(\d+) (.+)$", ws.title)
        if not found or fold(found.group(2)) not in names:
            continue
        turn = int(found.group(1))
        titles = {msg("Map of turn {turn} ({reader})", turn=turn, reader=msg("GM")).render(other): other
                  for other in LANGUAGES}
        if ws.cell(1, 1).value not in titles:  # not the map tab the turn wrote
            continue
        wanted = f"T{turn:02d} {msg('Map').render(lang)}"
        if ws.title != wanted:
            ws.title = "_"  # free its own name first
            ws.title = sheet_title(wb, wanted)
        ws.cell(1, 1).value = msg("Map of turn {turn} ({reader})", turn=turn, reader=msg("GM")).render(lang)


def _tabs(wb: Workbook) -> list[dict[str, Any]]:
    if SOURCE not in wb.sheetnames:
        return []
    tabs: list[dict[str, Any]] = []
    for kind, text in sheet_rows(wb[SOURCE], 2):
        if not text:
            continue
        data = loads(str(text)) if kind != "tab" else json.loads(str(text))
        if kind == "tab":
            tabs.append({**data, "tables": []})
        elif kind == "table" and tabs:
            tabs[-1]["tables"].append({**data, "rows": []})
        elif kind == "row" and tabs and tabs[-1]["tables"]:
            tabs[-1]["tables"][-1]["rows"].append(data)
    return tabs


def _heads(wb: Workbook) -> list[dict[str, Any]]:
    """The ``tab`` lines of the source sheet (turn, kind, language, sheet of each tab), its rows left unread."""
    if SOURCE not in wb.sheetnames:
        return []
    return [json.loads(str(text)) for kind, text in sheet_rows(wb[SOURCE], 2) if kind == "tab" and text]


def _save_tabs(wb: Workbook, tabs: Sequence[Mapping[str, Any]]) -> None:
    """Rewrite the source sheet: a ``tab`` line, then per table a ``table`` line and its ``row`` lines (one
    cell each, so that no cell grows past a spreadsheet's 32,767 characters)."""
    _append_tabs(hidden_sheet(wb, SOURCE, fresh=True), tabs)


def _append_tabs(ws: Any, tabs: Sequence[Mapping[str, Any]]) -> None:
    """The lines of ``tabs`` after the source sheet's own (see :func:`_save_tabs`)."""
    for tab in tabs:
        head = {k: v for k, v in tab.items() if k != "tables"}
        append_plain(ws, ["tab", json.dumps(head, ensure_ascii=False, sort_keys=True, separators=(",", ":"))])
        for table in tab["tables"]:
            append_plain(ws, ["table", dumps({k: v for k, v in table.items() if k != "rows"})])
            for row in table["rows"]:
                append_plain(ws, ["row", dumps(list(row))])
