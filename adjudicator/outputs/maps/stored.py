"""The GM's maps kept as data in campaign.xlsx, so that a map tab can be drawn again in another language.

A map picture is drawn in one language (its title, its legend, "you"). When the GM changes the
campaign's language, the earlier turns' map tabs of campaign.xlsx would keep the old words inside their
pictures; so each turn's :class:`~adjudicator.outputs.maps.view.MapView` (plain data: places, links, units,
arrows, battles) is kept on a hidden sheet, one element a row, with the language it was drawn in, and
:func:`redraw_map_tabs` draws every map of another language again from it, in place."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from typing import Any

from adjudicator.i18n import LANGUAGES, fold, msg
from adjudicator.outputs.maps.view import GM, Arrow, Battle, Layout, Link, MapView, Place, Unit
from adjudicator.outputs.plain_rows import append_plain, sheet_rows
from adjudicator.outputs.writing import hidden_sheet

#: The hidden sheet of the kept maps: one row per element, ``turn | language | kind | JSON``.
MAP_SOURCE = "_map_source"
KINDS: dict[str, Any] = {"place": Place, "link": Link, "unit": Unit, "arrow": Arrow, "battle": Battle}
FIELDS = {"place": "places", "link": "links", "unit": "units", "arrow": "arrows", "battle": "battles"}


def _source(wb: Any) -> Any:
    return hidden_sheet(wb, MAP_SOURCE)


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def keep_view(wb: Any, view: MapView, lang: str) -> None:
    """Keep ``view`` (drawn in ``lang``) as the map of its turn, in place of any kept before for that turn."""
    rows = [r for r in _rows(wb) if r[0] != view.turn]
    head = {"layout": str(view.layout), "reader": view.reader, "turn": view.turn, "factions": list(view.factions)}
    rows.append((view.turn, lang, "view", _dump(head)))
    for kind, name in FIELDS.items():
        # in a fixed order (a ruleset may list its battles in a set's order): the same view, the same bytes
        rows += [(view.turn, lang, kind, text) for text in sorted(_dump(asdict(item)) for item in getattr(view, name))]
    _write(wb, rows)


def _rows(wb: Any) -> list[tuple[int, str, str, str]]:
    if MAP_SOURCE not in wb.sheetnames:
        return []
    return [(int(t), str(lang), str(kind), str(text))
            for t, lang, kind, text in sheet_rows(wb[MAP_SOURCE], 4)
            if isinstance(t, int | float) and lang and kind and text]


def _write(wb: Any, rows: list[tuple[int, str, str, str]]) -> None:
    ws = hidden_sheet(wb, MAP_SOURCE, fresh=True)
    for row in rows:
        append_plain(ws, row)


def kept_views(wb: Any) -> dict[int, tuple[str, MapView]]:
    """Every kept map, by turn: the language it was last drawn in, and its view."""
    views: dict[int, tuple[str, MapView]] = {}
    for turn, lang, kind, text in _rows(wb):
        data = json.loads(text)
        if kind == "view":
            views[turn] = (lang, MapView(Layout(data["layout"]), data["reader"], int(data["turn"]),
                                         tuple(data["factions"])))
        elif kind in KINDS and turn in views:
            if kind == "arrow":
                data["path"] = tuple(data["path"])
            if kind == "battle":
                data["sides"] = tuple(data["sides"])
            getattr(views[turn][1], FIELDS[kind]).append(KINDS[kind](**data))
    return views


def map_tab_of(wb: Any, turn: int) -> Any:
    """The GM's map tab of ``turn`` ("T03 Map", "T03 Mapa", "T03 Карта"), or None."""
    names = {fold(f"T{turn:02d} {msg('Map').render(lang)}") for lang in LANGUAGES}
    return next((ws for ws in wb.worksheets if fold(ws.title) in names), None)


def drawn_language(ws: Any) -> str | None:
    """The language a GM's map tab's picture was drawn in, as its title says ("Карта хода 3 (Мастер)")."""
    found = re.match(r"^T(\d+) ", ws.title)
    if not found:
        return None
    turn = int(found.group(1))
    for lang in LANGUAGES:
        if ws.cell(1, 1).value == msg("Map of turn {turn} ({reader})", turn=turn, reader=msg("GM")).render(lang):
            return lang
    return None


def redraw_map_tabs(wb: Any, lang: str) -> list[str]:
    """Draw again in ``lang``, from the kept views, every GM map tab drawn in another language (same place
    among the tabs, named in ``lang``); the names of the tabs drawn again."""
    from adjudicator.outputs.maps.draw import render
    from adjudicator.outputs.maps.sheets import DrawnMap, add_map_tab

    views = kept_views(wb)
    redrawn = []
    for turn, (drawn_in, view) in sorted(views.items()):
        old = map_tab_of(wb, turn)
        if old is None or view.reader != GM or (drawn_in == lang and drawn_language(old) == lang):
            continue
        index = wb.worksheets.index(old)
        wb.remove(old)
        ws = add_map_tab(wb, DrawnMap(view, render(view, lang)), lang, f"T{turn:02d} {msg('Map').render(lang)}")
        wb.move_sheet(ws, index - wb.worksheets.index(ws))
        keep_view(wb, view, lang)
        redrawn.append(ws.title)
    return redrawn
