"""The Changes tab: what changed for a faction since its last results, each change with its cause.

Computed from the faction's own rows of the state tables before and after the turn (the rows it owns:
its units, holdings, research and balances), the ledger lines of the turn (every balance with its
cause), and the enemy units its map shows. A change's cause is the order row that names the unit or
place, else the row of its report that does, else the turn's resolution; the cause is a link to that
row."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.engine.ledger import LedgerLine, account_label
from adjudicator.engine.sheets import Kind, TableSchema, plain_rows, records
from adjudicator.i18n import Msg, msg

OWNER_COLUMNS = ("faction", "owner", "race")
PLACE_COLUMNS = ("square", "system", "hex", "planet", "jumpship", "aboard")
NUMERIC = (Kind.INT, Kind.NUMBER, Kind.INT_OR_ALL)
BLANKS = {None, "", "NO", "N", 0}  # a blank cell and its default: not a change
LISTING_TABLES = ("fleets", "units", "forces", "assets", "planets", "control", "gm_units")


@dataclass(frozen=True)
class Change:
    kind: Msg
    table: str
    what: str
    before: Any
    after: Any
    cause: Msg | str
    link: str | None = None  # "'Sheet'!A5"


def _plain(value: Any) -> Any:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        return value.strip() or None
    return value


def owner_column(schema: TableSchema) -> str | None:
    if schema.key == "factions":
        return "id"
    return next((c for c in OWNER_COLUMNS if c in schema.keys()), None)


def key_columns(schema: TableSchema, owner: str, groups: Sequence[Sequence[dict[str, Any]]] = ()) -> tuple[str, ...]:
    """The columns that tell one of a faction's rows from its others: its ID; else its required text columns
    (a fleet's square, a project's name: never its status, which changes), then its required choices (a
    research line), then as many of its required numeric columns (a lab's number, a usage's turn) as it
    takes for no two rows of any of ``groups`` (the faction's rows before, and after) to share them; else
    the whole row."""
    if owner == "id" or "id" in schema.keys():
        return ("id",)
    required = [c for c in schema.columns if c.required and c.key != owner]
    text = tuple(c.key for c in required if c.kind not in NUMERIC and c.kind is not Kind.CHOICE)
    named = text + tuple(c.key for c in required if c.kind is Kind.CHOICE)  # a research line
    numeric = tuple(c.key for c in required if c.kind in NUMERIC)
    candidates = [keys for keys in (text, named) if keys]
    candidates += [named + numeric[:i] for i in range(1, len(numeric) + 1)]
    candidates.append(tuple(c.key for c in schema.columns if c.key != owner))
    for keys in candidates:
        if all(len({tuple(row.get(k) for k in keys) for row in rows}) == len(rows) for rows in groups):
            return keys
    return candidates[-1]


def rows_by_faction(schema: TableSchema, frame: Any) -> dict[str, list[dict[str, Any]]]:
    """Every faction's rows of a state table (one pass over the table)."""
    owner = owner_column(schema)
    found: dict[str, list[dict[str, Any]]] = {}
    if owner is None or frame is None:
        return found
    for row in plain_rows(frame):
        values = {k: _plain(v) for k, v in row.items()}
        found.setdefault(str(values.get(owner) or "").strip().upper(), []).append(values)
    return found


class Tables:
    """The state tables before and after the turn, split by owning faction once for every reader, each
    faction's rows of a table told apart by the same columns before and after (:func:`key_columns`)."""

    def __init__(self, schemas: Sequence[TableSchema], before: dict[str, Any], after: dict[str, Any]) -> None:
        self.schemas = tuple(schemas)
        self.keys: dict[str, dict[str, tuple[str, ...]]] = {}
        self.before: dict[str, dict[str, dict[tuple[Any, ...], dict[str, Any]]]] = {}
        self.after: dict[str, dict[str, dict[tuple[Any, ...], dict[str, Any]]]] = {}
        for s in self.schemas:
            owner = owner_column(s)
            old = rows_by_faction(s, before.get(s.key))
            new = rows_by_faction(s, after.get(s.key, before.get(s.key)))
            self.keys[s.key], self.before[s.key], self.after[s.key] = {}, {}, {}
            for faction in set(old) | set(new):
                keys = key_columns(s, owner or "", (old.get(faction, []), new.get(faction, [])))
                self.keys[s.key][faction] = keys
                self.before[s.key][faction] = {tuple(r.get(k) for k in keys): r for r in old.get(faction, [])}
                self.after[s.key][faction] = {tuple(r.get(k) for k in keys): r for r in new.get(faction, [])}


class Causes:
    """Finds the order row or report row that explains a change, and the cell to link to (by the words of
    each row, indexed once)."""

    def __init__(self, orders: Any, outcome_sheets: dict[str, str], reports: Sequence[Any], report_sheet: str,
                 lang: str) -> None:
        self.lang = lang
        self.orders: dict[str, tuple[str, str, int, int]] = {}  # word -> (sheet title, outcome tab, tab row, row)
        if orders is not None:
            for key, sheet in orders.sheets.items():
                tab = outcome_sheets.get(key, "")
                for position, (number, values) in enumerate(records(sheet.rows)):
                    entry = (sheet.sheet, tab, position + 2, number)
                    self.orders.setdefault(f"#ROW{number}", entry)
                    for v in values.values():
                        if isinstance(v, str):
                            for word in _words(v):
                                self.orders.setdefault(word, entry)
        self.reports: dict[str, list[tuple[int, Any, int, list[str]]]] = {}  # word -> [(order, table, row, cells)]
        row, order = 1, 0
        for table in reports:
            for i, cells in enumerate(table.rows):
                shown = [_text(c, lang) for c in cells]
                words = _words(" ".join(shown))  # the words of every cell of the row (a space parts them)
                for word in words:
                    self.reports.setdefault(word, []).append((order, table, row + 2 + i, shown))
                order += 1
            row += 2 + max(len(table.rows), 1) + 1
        self.report_sheet = report_sheet

    def of(self, terms: Sequence[Any], prefer: Sequence[str] = (), orders: bool = True) -> tuple[Msg | str, str | None]:
        wanted = [w for t in terms if t not in (None, "") for w in (_words(str(t)) or {str(t).upper()})]
        if orders:
            found = [self.orders[w] for w in wanted if w in self.orders]
            if found:
                sheet, tab, tab_row, number = min(found, key=lambda e: e[2])
                return msg("order row {row} of {sheet}", row=number, sheet=sheet), (
                    f"'{tab}'!A{tab_row}" if tab else None)
        candidates = [c for w in wanted for c in self.reports.get(w, [])]
        if candidates:
            _, table, sheet_row, shown = min(candidates, key=lambda c: (c[1].key not in prefer,
                                                                       c[1].key in LISTING_TABLES, c[0]))
            summary = " · ".join(s for s in shown if s)
            if len(summary) > SUMMARY_CHARACTERS:  # shortened at a word, and said to be
                summary = summary[:SUMMARY_CHARACTERS].rsplit(" ", 1)[0].rstrip(" ·,") + " …"
            return msg("{table}: {row}", table=table.title, row=summary), f"'{self.report_sheet}'!A{sheet_row}"
        return msg("the turn's resolution"), None


#: What parts words besides spaces (each read as a space by :func:`_words`).
_MARKS = str.maketrans(dict.fromkeys(",;:·→()[]", " "))


def _words(value: str) -> set[str]:
    """The words of ``value`` in capitals, parted by spaces and by :data:`_MARKS` (``"F000-R0001, 0101"`` gives
    ``{"F000-R0001", "0101"}``)."""
    return set(value.translate(_MARKS).upper().split())


def _text(value: Any, lang: str) -> str:
    if value is None:
        return ""
    return value.render(lang) if hasattr(value, "render") else str(value)


def unit_changes(tables: Tables, faction: str, causes: Causes, ledger_accounts: set[str],
                 lang: str = "en") -> list[Change]:
    changes: list[Change] = []
    for schema in tables.schemas:
        old = tables.before[schema.key].get(faction, {})
        new = tables.after[schema.key].get(faction, {})
        owner = owner_column(schema) or ""
        title = schema.title
        columns = {c.key: c for c in schema.columns}
        key_of = [columns.get(k) for k in tables.keys[schema.key].get(faction, ())] if owner else []
        for key in sorted(set(old) | set(new), key=lambda k: tuple(str(x) for x in k)):
            # The row's identity in the reader's words (a status code as its label); the codes themselves
            # stay the terms that find the cause.
            what = " ".join(str(_shown(column, k, lang) if column is not None else k)
                            for column, k in zip(key_of or [None] * len(key), key, strict=False) if k is not None)
            terms = [k for k in key if k is not None]
            if key not in old:
                cause, link = causes.of(terms)
                changes.append(Change(msg("gained"), title, what, None, _describe(schema, new[key], owner, lang), cause,
                                      link))
                continue
            if key not in new:
                cause, link = causes.of(terms, ("battles", "battle_rounds", "events", "invasions"))
                changes.append(Change(msg("lost"), title, what, _describe(schema, old[key], owner, lang), None, cause,
                                      link))
                continue
            for column in schema.columns:
                a, b = old[key].get(column.key), new[key].get(column.key)
                if a == b or column.key == owner or column.key in ledger_accounts or {a, b} <= BLANKS:
                    continue
                kind = _kind(column.key, a, b)
                cause, link = causes.of([*terms, *(v for v in (a, b) if isinstance(v, str))])
                changes.append(Change(kind, title, f"{what}: {column.header_in(lang)}", _shown(column, a, lang),
                                      _shown(column, b, lang), cause, link))
    return changes


def _kind(column: str, a: Any, b: Any) -> Msg:
    if column in PLACE_COLUMNS:
        return msg("moved")
    if column == "damaged":
        return msg("damaged") if str(b or "").upper() in ("YES", "Y") else msg("repaired")
    return msg("changed")


#: A row gained or lost is described on lines of at most this many widths of a "0" (its column is as wide
#: as its widest line): its lines broken between its fields, so that no office program wraps them again and
#: the row's height is that of its lines, no blank line under them.
DESCRIPTION_WIDTH = 44.0


def _describe(schema: TableSchema, values: dict[str, Any], owner: str, lang: str) -> str:
    return packed([f"{c.header_in(lang)}: {_shown(c, values[c.key], lang)}" for c in schema.columns
                   if c.key != owner and values.get(c.key) is not None])


def packed(fields: Sequence[str], width: float = DESCRIPTION_WIDTH) -> str:
    """``fields`` separated by commas, on as few lines as fit ``width`` (a field longer than a line alone on
    its line)."""
    from adjudicator.outputs.layout import text_width

    lines: list[str] = []
    line = ""
    for field in fields:
        joined = f"{line}, {field}" if line else field
        if line and text_width(joined + ",") > width:
            lines.append(line + ",")
            line = field
        else:
            line = joined
    return "\n".join([*lines, line] if line else lines)


def _shown(column: Any, value: Any, lang: str) -> Any:
    if value is not None and column.choices:
        return column.choice_label(str(value), lang)
    return value


def balance_changes(lines: Sequence[LedgerLine], causes: Causes, ledger_tab: str) -> list[Change]:
    changes = []
    for i, line in enumerate(lines):
        link = f"'{ledger_tab}'!A{i + 2}"
        cause: Msg | str = line.cause
        if "row " in line.reference:
            found, order_link = causes.of([f"#ROW{line.reference.rsplit('row ', 1)[1].strip()}"])
            if order_link:
                link = order_link
        account = line.label if line.label is not None else account_label(line.account)
        changes.append(Change(msg("balance"), "ledger", _text(account, causes.lang),
                              line.balance - line.change, line.balance, cause, link))
    return changes


def seen_changes(view: Any, faction: str, causes: Causes) -> list[Change]:
    """Enemy units the faction's map shows (what its report reveals of others)."""
    if view is None:
        return []
    changes = []
    for unit in sorted(view.units, key=lambda u: (u.owner, u.place, u.id)):
        if unit.owner != faction:
            cause, link = causes.of([unit.place], ("battles", "invasions", "intel"), orders=False)
            changes.append(Change(msg("enemy seen"), unit.owner, unit.label or unit.id, None, unit.place, cause, link))
    return changes


HEADERS = (msg("Change"), msg("Table"), msg("What"), msg("Before"), msg("After"), msg("Cause"))


#: A report row named as a cause is shortened to about this many characters.
SUMMARY_CHARACTERS = 120
#: The widest the cause column grows to hold its longest link on one line, and the width of a character
#: it counts (LibreOffice's default font: a capital or a Cyrillic letter is wider than a "0").
CAUSE_WIDEST = 160
CHARACTER_WIDTH = 1.3


def write_changes(wb: Any, changes: Sequence[Change], lang: str, title: str) -> Any:
    """The Changes tab of ``wb``: described as data (:func:`changes_cells`) in a workbook whose new tabs are
    streamed, which XlsxWriter writes as it saves, else made of openpyxl cells (:func:`fill_changes`, also what
    a streamed tab becomes when openpyxl saves the workbook after all); the same tab either way
    (``tests/core/test_changes_streamed.py``)."""
    from adjudicator.outputs import streamed
    from adjudicator.outputs.writing import sheet_title

    ws = wb.create_sheet(sheet_title(wb, title))
    if streamed.streaming(wb):
        return streamed.describe(ws, streamed.Tab("cells", lang, cells=changes_cells(changes, lang),
                                                  margins=streamed.OPENPYXL_MARGINS,
                                                  fill=lambda sheet: fill_changes(sheet, changes, lang)))
    fill_changes(ws, changes, lang)
    return ws


def _widths(changes: Sequence[Change], lang: str) -> list[int]:
    # A cause is a link, and LibreOffice does not wrap a cell holding a link: its column is as wide as its
    # longest cause (the page is fitted to its width), so that no cause is cut at the cell's edge.
    longest = max((len(_text(c.cause, lang)) for c in changes if c.link), default=0)
    cause_width = min(CAUSE_WIDEST, max(70, math.ceil(longest * CHARACTER_WIDTH) + 2))
    return [12, 16, 30, 22, 22, cause_width]


def _row_values(change: Change) -> tuple[Any, ...]:
    table = msg(change.table) if change.table not in ("ledger",) else msg("Ledger")
    return change.kind, table, change.what, change.before, change.after, change.cause


def changes_cells(changes: Sequence[Change], lang: str) -> Any:
    """The Changes tab as :func:`fill_changes` makes it, as streamed cells (streamed.py): each cell's style as
    openpyxl holds it there (the Hyperlink style of a cause that links: 12 points, blue), its link, and the
    heights it gives the rows it wraps."""
    from adjudicator.outputs.streamed import Cells, Style

    top, wrap = Style(vertical="top"), Style(horizontal="left", vertical="top", wrap=True)
    cause, link = Style(vertical="top", wrap=True, indent=1), Style(size=12.0, colour="0000FF", vertical="top",
                                                                     wrap=True, indent=1)
    cells = Cells()
    widths = _widths(changes, lang)
    cells.header_row(1, list(HEADERS), lang, widths)
    made = cells.cells
    for r, change in enumerate(changes, start=2):
        for c, value in enumerate(_row_values(change), start=1):
            cells.put(r, c, value, lang, top if c < 4 else wrap if c < 6 else link if change.link else cause)
        if change.link:
            cells.links[(r, 6)] = change.link
        height = _wrapped_height([(made.get((r, c)) or [None])[0] for c in WRAPPED], widths)
        if height is not None:
            cells.heights[r] = float(height)
    if not changes:
        cells.put(2, 1, msg("(none)"), lang)
    cells.freeze = "A2"
    return cells


def fill_changes(ws: Any, changes: Sequence[Change], lang: str) -> None:
    """The Changes tab made of openpyxl cells on ``ws``."""
    from openpyxl.styles import Alignment
    from openpyxl.worksheet.hyperlink import Hyperlink

    from adjudicator.outputs.writing import fit_to_page_width, header_row, put

    # Before and After hold text and numbers: both at the left, a number never touching the cause after it
    WRAP = Alignment(wrap_text=True, vertical="top", horizontal="left")  # noqa: N806 - constants of this sheet
    TOP = Alignment(vertical="top")  # noqa: N806
    CAUSE = Alignment(wrap_text=True, vertical="top", indent=1)  # noqa: N806
    fit_to_page_width(ws)
    widths = _widths(changes, lang)
    header_row(ws, 1, list(HEADERS), lang, widths)
    styles = CellStyles()
    cells = ws._cells  # noqa: SLF001 - the written cells, read back for their heights

    def written(r: int, c: int) -> Any:  # the cell put() wrote (openpyxl's ws.cell() checks and looks it up again)
        return cells.get((r, c)) or ws.cell(r, c)

    for r, change in enumerate(changes, start=2):
        for c, value in enumerate(_row_values(change), start=1):
            put(ws, r, c, value, lang)
            if c < 4:
                styles.give(written(r, c), "top", lambda cell: setattr(cell, "alignment", TOP))
            elif c < 6:
                styles.give(written(r, c), "wrap", lambda cell: setattr(cell, "alignment", WRAP))
        cause = written(r, 6)
        if change.link:
            cause.hyperlink = Hyperlink(ref=cause.coordinate, location=change.link)
            styles.give(cause, "link", _link_style(WRAP, CAUSE))
        else:  # set apart from a number at the right of the column before
            styles.give(cause, "cause", _cause_style(WRAP, CAUSE))
        height = _wrapped_height([getattr(cells.get((r, c)), "value", None) for c in WRAPPED], widths)
        if height is not None:
            ws.row_dimensions[r].height = height
    if not changes:
        put(ws, 2, 1, msg("(none)"), lang)
    ws.freeze_panes = "A2"


class CellStyles:
    """Each kind of cell of the sheet styled through openpyxl once (which registers its font, alignment and
    named style in the workbook, in the order a cell-by-cell styling would), then given the same style
    indexes: assigning a style through openpyxl hashes it and searches the workbook's list at every cell."""

    def __init__(self) -> None:
        self.made: dict[str, Any] = {}

    def give(self, cell: Any, kind: str, style: Any) -> None:
        from copy import copy

        made = self.made.get(kind)
        if made is None:
            style(cell)
            self.made[kind] = copy(cell._style)  # noqa: SLF001 - the style's indexes in the workbook
        else:
            cell._style = copy(made)  # noqa: SLF001


def _cause_style(wrap: Any, cause: Any) -> Any:
    def style(cell: Any) -> None:
        cell.alignment = wrap  # as the sheet was first written: every Before, After and Cause wrapped at the left
        cell.alignment = cause

    return style


def _link_style(wrap: Any, cause: Any) -> Any:
    def style(cell: Any) -> None:
        cell.alignment = wrap
        cell.alignment = cause
        cell.style = "Hyperlink"
        cell.alignment = cause

    return style


#: The columns that wrap (Before, After, Cause): a row is as tall as the longest of them.
WRAPPED = (4, 5, 6)


def _wrapped_height(values: Sequence[Any], widths: Sequence[int]) -> int | None:
    """The height of a row whose wrapped cells (:data:`WRAPPED`) hold ``values``, that of its longest, as an
    office program would give it; None for one line."""
    lines = max(_lines(value, widths[col - 1]) for value, col in zip(values, WRAPPED, strict=True))
    return 15 * lines if lines > 1 else None


def _lines(value: Any, width: float) -> int:
    """The lines a wrapped cell's text (``value``) takes in a column ``width`` characters wide (as
    writing.fit_row_heights counts them)."""
    if value is None:
        return 1
    text, per_line = str(value), max(int(width * 1.1), 1)
    return sum(-(-len(line) // per_line) or 1 for line in (text.split("\n") if "\n" in text else (text,)))
