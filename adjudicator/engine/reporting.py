"""What each reader is shown after a turn, the same way for every ruleset.

A ruleset's reporter (a subclass of :class:`Reporter`) says what one faction may see (:meth:`Reporter.faction`)
and what the GM sees (:meth:`Reporter.gm`), as :class:`~adjudicator.engine.ruleset.ReportTable` objects whose
cells may be messages rendered per reader; :meth:`Reporter.fill` puts them into the turn's result, one report per
faction of the campaign. The outputs write them (a faction's Report tab, the GM's).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import Any

from adjudicator.engine.ruleset import ReportTable, TurnResult
from adjudicator.i18n import Msg, msg


def headers(*texts: str) -> list[Msg]:
    """Column headers (English message ids, marked with ``N_``) as messages rendered per reader."""
    return [msg(text) for text in texts]


class Reporter(ABC):
    """The reports of one turn: each faction's and the GM's."""

    @abstractmethod
    def faction(self, faction: str) -> list[ReportTable]:
        """What ``faction`` is shown, and nothing it may not see."""

    @abstractmethod
    def gm(self) -> list[ReportTable]:
        """What the GM is shown."""

    def by_faction(self, name: str, rows: Callable[[], Iterable[Any]],
                   faction_of: Callable[[Any], Iterable[str | None]]) -> dict[str | None, list[Any]]:
        """The rows that ``rows()`` makes (once a turn, in their order) by the factions ``faction_of`` gives each
        (each row once under each), and all of them under None: each reader's table is its own rows, in the same
        order, without a scan or a sort of every faction's rows for each reader (a report is made for every
        faction: 40 of them sorted 14,000 regiments 40 times)."""
        cache = self.__dict__.setdefault("_grouped", {})
        if name not in cache:
            grouped: dict[str | None, list[Any]] = {None: list(rows())}
            for row in grouped[None]:
                for faction in dict.fromkeys(faction_of(row)):
                    if faction is not None:  # None is every row's key
                        grouped.setdefault(faction, []).append(row)
            cache[name] = grouped
        return cache[name]

    def fill(self, result: TurnResult, factions: Iterable[str]) -> TurnResult:
        """``result`` with every faction's report (in ID order) and the GM's."""
        result.faction_reports = {f: self.faction(f) for f in sorted(factions)}
        result.gm_reports = self.gm()
        return result
