"""The pictures of one turn, as the pipeline stages it: maps drawn once, then added to each faction's
result workbook (Map, Changes and History tabs, map files beside it), to the results folder (the public
map) and to campaign.xlsx (the GM's map on the turn's Map tab, the History sheet with its charts)."""

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
from adjudicator.outputs.maps.sheets import DrawnMap, add_map_tab, turn_maps, write_map_files
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
        self.tables: Tables | None = None  # the state tables split by faction, when the first results need them
        self.maps: dict[str, DrawnMap] = turn_maps(ruleset, campaign, result)
        results = staging / "results"
        for reader in self.maps:
            write_map_files(self.maps[reader], staging if reader == GM else results, reader)
        lang = campaign.language
        forces: dict[str, float] = {}
        if GM in self.maps:
            for unit in self.maps[GM].view.units:
                forces[unit.owner] = forces.get(unit.owner, 0) + unit.strength
        self.accounts = sorted({a for _, a in result.closing_balances})
        label_of = ruleset.account_label  # the ruleset's words for its accounts ("credits": Кредиты)
        self.points: list[Point] = earlier_points(base, lang, self.accounts, campaign.turn, label_of)
        self.points += turn_points(campaign.turn, result.closing_balances, forces, lang, label_of)

    def decorate_results(self, wb: Any, faction: str, submission: Any, result: Any, lang: str, label: str) -> None:
        add_map_tab(wb, self.maps.get(faction), lang, f"{msg('Map').render(lang)} {label}")
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
        if self.tables is None:
            self.tables = Tables((*self.ruleset.state_schemas, _factions(self.ruleset)), self.campaign.tables,
                                 result.tables)
        changes = unit_changes(self.tables, faction, causes, accounts, lang)
        changes += balance_changes(lines, causes, ledger_tab)
        drawn = self.maps.get(faction)
        changes += seen_changes(drawn.view if drawn else None, faction, causes)
        write_changes(wb, changes, lang, f"{msg('Changes').render(lang)} {label}")
        names = measure_names(self.accounts, lang, self.ruleset.account_label)
        own = [Point(p.turn, p.faction, names.get(p.measure, p.measure), p.value)
               for p in self.points if p.faction == faction]
        write_history(wb, own, lang, faction)

    def decorate_master(self, wb: Any, label: str) -> None:
        lang = self.campaign.language
        add_map_tab(wb, self.maps.get(GM), lang, f"{label} {msg('Map').render(lang)}")
        if GM in self.maps:  # kept as data: drawn again when the GM changes the campaign's language
            keep_view(wb, self.maps[GM].view, lang)
        write_history(wb, self.points, lang)

    def public_map(self) -> DrawnMap | None:
        return self.maps.get(PUBLIC)


def turn_pictures(folder: Any, base: Path, campaign: Any, ruleset: Any, result: Any, ledger: Any,
                  staging: Path) -> TurnPictures:
    return TurnPictures(base, campaign, ruleset, result, ledger, staging)


def _find(wb: Any, title: str) -> str:
    wanted = fold(title)
    return next((ws.title for ws in wb.worksheets if fold(ws.title).startswith(wanted[:31])), title)


def _factions(ruleset: Any) -> Any:
    from adjudicator.store.master import factions_schema

    return factions_schema(ruleset)
