"""What each reader is shown after a turn, the same way for every ruleset.

A ruleset's reporter (a subclass of :class:`Reporter`) says what one faction may see (:meth:`Reporter.faction`)
and what the GM sees (:meth:`Reporter.gm`), as :class:`~adjudicator.engine.ruleset.ReportTable` objects whose
cells may be messages rendered per reader; :meth:`Reporter.fill` puts them into the turn's result, one report per
faction of the campaign. The outputs write them (a faction's Report tab, the GM's).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable

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

    def fill(self, result: TurnResult, factions: Iterable[str]) -> TurnResult:
        """``result`` with every faction's report (in ID order) and the GM's."""
        result.faction_reports = {f: self.faction(f) for f in sorted(factions)}
        result.gm_reports = self.gm()
        return result
