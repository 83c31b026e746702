"""The earlier turns' tabs of campaign.xlsx that a change of the campaign's language could not rewrite.

A turn tab is written again in the new language from the data kept beside it (the orders and reports
on the turn tabs' hidden source sheet, the maps on :mod:`adjudicator.outputs.maps.stored`'s). A campaign begun
before that data was kept has tabs with nothing to rewrite them from: they keep their earlier language,
and the GM is told which they are, rather than left to find a Russian tab in a Spanish campaign."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from adjudicator.i18n import LANGUAGES, Msg, fold, gettext_in, msg

#: The words of a turn tab's name besides the order sheets' titles ("T03 Orders Invasion", "T03 Report").
TAB_WORDS = ("Orders", "Report", "Map", "Changes", "Outcome", "Ledger", "History")
TURN_TAB = re.compile(r"^T(\d+) (.+)$")


def _tokens(text: str) -> set[str]:
    return set(fold(text).split())


def tab_language(title: str, lang: str, words: Iterable[str]) -> str | None:
    """The language other than ``lang`` that a turn tab's name is written in, or None (``lang``'s, or no
    word of a turn tab's name)."""
    found = TURN_TAB.match(title)
    if not found:
        return None
    words = list(words)
    spelled = {other: set().union(*(_tokens(gettext_in(other, w)) for w in words)) for other in LANGUAGES}
    own = spelled[lang]
    tokens = _tokens(found.group(2))
    for other in LANGUAGES:
        if other != lang and tokens & (spelled[other] - own):
            return other
    return None


class StaleTabs:
    """What a rewrite in ``lang`` will leave in an earlier language: taken before the rewrite (a map tab's
    picture by its title, which the rewrite renames), told after it (the tabs whose name is still in
    another language, and the maps that were not drawn again)."""

    def __init__(self, wb: Any, lang: str, sheet_titles: Iterable[str]) -> None:
        from adjudicator.outputs.maps.stored import drawn_language

        self.lang = lang
        self.words = [*TAB_WORDS, *sheet_titles]
        self.sheets = [ws for ws in wb.worksheets if TURN_TAB.match(ws.title)]  # held: their ids stay theirs
        self.maps = {id(ws): drawn_language(ws) for ws in self.sheets}

    def after(self, wb: Any, redrawn: Iterable[str]) -> list[str]:
        again = set(redrawn)
        stale = []
        for ws in wb.worksheets:
            if ws.sheet_state != "visible" or not TURN_TAB.match(ws.title) or ws.title in again:
                continue
            drawn_in = self.maps.get(id(ws))
            if (drawn_in is not None and drawn_in != self.lang) or tab_language(ws.title, self.lang, self.words):
                stale.append(ws.title)
        return stale


def stale_note(tabs: list[str]) -> list[Msg]:
    """The GM's warning naming the tabs left in an earlier language (none when there are none)."""
    if not tabs:
        return []
    return [msg("These tabs of campaign.xlsx stay in the language they were written in: {tabs}. They were "
                "written before the adjudicator kept their contents as data, so they cannot be written again in "
                "the campaign's new language.", tabs=", ".join(tabs))]
