"""The pictures of one turn, as the pipeline stages it: each reader's map drawn by the job that writes its
workbook, then added to each faction's result workbook (Map, Changes and History tabs, map files beside it),
to the results folder (the public map) and to campaign.xlsx (the GM's map on the turn's Map tab, the History
sheet with its charts).

Only the readers' views (what each may see), the figure a large grid's readers share and the state tables split
by faction (for every reader's Changes tab) are made before the writers are forked; each job draws its own
reader's picture: held by the forking process, the pictures of every reader (160 factions: 162 PNG and SVG
files, 16 MB, with what drawing them left behind) were in every writer's memory
(``benchmarks/master_memory.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adjudicator.i18n import fold, msg
from adjudicator.outputs.maps.changes import (
    Causes,
    Tables,
    balance_changes,
    seen_changes,
    unit_changes,
    write_changes,
)
from adjudicator.outputs.maps.charts import Point, earlier_points, measure_names, turn_points, write_history
from adjudicator.outputs.maps.draw import render_many
from adjudicator.outputs.maps.sheets import DrawnMap, add_map_tab, turn_views, write_map_files
from adjudicator.outputs.maps.stored import keep_view
from adjudicator.outputs.maps.view import GM, PUBLIC


class TurnPictures:
    def __init__(self, base: Path, campaign: Any, ruleset: Any, result: Any, ledger: Any, staging: Path) -> None:
        self.campaign = campaign
        self.ruleset = ruleset
        self.ledger = ledger
        self.lines: dict[str, list[Any]] = {}  # each faction's ledger lines, in order: one pass for every reader
        for line in ledger.lines:
            self.lines.setdefault(line.faction, []).append(line)
        # the state tables split by faction once, here: made by the first results written, they were made again
        # by each writer (forked before any results were written; 0.7 s of CPU each for 40 Inner Sphere states)
        self.tables = Tables((*ruleset.state_schemas, _factions(ruleset)), campaign.tables, result.tables)
        self.views = turn_views(ruleset, campaign, result)
        self.gm_map: DrawnMap | None = None  # drawn by the job writing campaign.xlsx (draw_master_maps)
        self.folders = {reader: staging if reader == GM else staging / "results" for reader in self.views}
        lang = campaign.language
        forces: dict[str, float] = {}
        if GM in self.views:
            for unit in self.views[GM][0].units:
                forces[unit.owner] = forces.get(unit.owner, 0) + unit.strength
        self.accounts = sorted({a for _, a in result.closing_balances})
        label_of = ruleset.account_label  # the ruleset's words for its accounts ("credits": Кредиты)
        self.points: list[Point] = earlier_points(base, lang, self.accounts, campaign.turn, label_of)
        self.points += turn_points(campaign.turn, result.closing_balances, forces, lang, label_of)

    def drawn(self, reader: str) -> DrawnMap | None:
        """``reader``'s map, drawn, its files written (``<reader>.map.png`` and ``.svg``); None without a map."""
        if reader not in self.views:
            return None
        view, lang = self.views[reader]
        drawn = DrawnMap(view, render_many([(view, lang)])[0])
        write_map_files(drawn, self.folders[reader], reader)
        return drawn

    def decorate_results(self, wb: Any, faction: str, submission: Any, result: Any, lang: str, label: str) -> None:
        drawn = self.drawn(faction)
        add_map_tab(wb, drawn, lang, f"{msg('Map').render(lang)} {label}")
        report = _find(wb, f"{msg('Report').render(lang)} {label}")
        ledger_tab = _find(wb, f"{msg('Ledger').render(lang)} {label}")
        orders = submission.orders if submission is not None else None
        outcome_tabs = {}
        if orders is not None:
            several = len(orders.sheets) > 1
            for key, sheet in orders.sheets.items():
                outcome_tabs[key] = _find(wb, f"{msg('Outcome').render(lang)} {sheet.sheet + ' ' if several else ''}"
                                              f"{label}")
        causes = Causes(orders, outcome_tabs, result.faction_reports.get(faction, []), report, lang)
        lines = self.lines.get(faction, [])
        accounts = {line.account for line in lines}
        changes = unit_changes(self.tables, faction, causes, accounts, lang)
        changes += balance_changes(lines, causes, ledger_tab)
        changes += seen_changes(drawn.view if drawn else None, faction, causes)
        write_changes(wb, changes, lang, f"{msg('Changes').render(lang)} {label}")
        names = measure_names(self.accounts, lang, self.ruleset.account_label)
        own = [Point(p.turn, p.faction, names.get(p.measure, p.measure), p.value)
               for p in self.points if p.faction == faction]
        write_history(wb, own, lang, faction)

    def draw_master_maps(self) -> None:
        """The GM's and the public map drawn (their files written), before campaign.xlsx is built: what drawing
        them leaves in memory is handed back first, not carried through the master's save."""
        from adjudicator.outputs.parallel import release_free_memory

        self.gm_map = self.drawn(GM)
        self.drawn(PUBLIC)
        release_free_memory()

    def decorate_master(self, wb: Any, label: str) -> None:
        """The GM's map (:meth:`draw_master_maps`) and the History on campaign.xlsx."""
        lang = self.campaign.language
        add_map_tab(wb, self.gm_map, lang, f"{label} {msg('Map').render(lang)}")
        if self.gm_map is not None:  # kept as data: drawn again when the GM changes the campaign's language
            keep_view(wb, self.gm_map.view, lang)
        write_history(wb, self.points, lang)


def turn_pictures(folder: Any, base: Path, campaign: Any, ruleset: Any, result: Any, ledger: Any,
                  staging: Path) -> TurnPictures:
    return TurnPictures(base, campaign, ruleset, result, ledger, staging)


def _find(wb: Any, title: str) -> str:
    wanted = fold(title)
    return next((ws.title for ws in wb.worksheets if fold(ws.title).startswith(wanted[:31])), title)


def _factions(ruleset: Any) -> Any:
    from adjudicator.store.master import factions_schema

    return factions_schema(ruleset)
