"""At most so many problems of each workbook on the terminal; the rest are in its checked copy.

Thousands of problems scroll past faster than anyone reads them, and each takes time to print. ``check``
and ``run`` print ``limit`` problems of a workbook (``--max-problems``), its errors first, then one line saying
how many more there are and where: the checked copy's Errors tab, which keeps them all, named as its player
sees it (the tab is named in the workbook's language, which need not be the reader's)."""

from __future__ import annotations

import posixpath
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from adjudicator.engine.problems import Problem
from adjudicator.i18n import Msg, msg

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
OFFICE_DOCUMENT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"

#: How many problems of one workbook ``check`` and ``run`` print unless told (0: all).
DEFAULT_LIMIT = 50


@dataclass(frozen=True)
class Unshown:
    """The problems of one workbook left off the terminal: how many, and where they all are."""

    file: str
    count: int
    checked_copy: Path | None
    #: the checked copy's Errors tab as its player sees it (in the workbook's language); None: unread
    tab: str | None = None

    def line(self) -> Msg:
        if self.checked_copy is None:
            return msg("… and {count} more of {file} (--max-problems 0 prints them all).", count=self.count,
                       file=self.file)
        return msg("… and {count} more in {path} ({tab} tab).", count=self.count, path=str(self.checked_copy),
                   tab=self.tab if self.tab is not None else msg("Errors"))


def first_tab(path: Path) -> str | None:
    """The name of the first tab of the workbook at ``path`` (a checked copy's Errors tab), None if it cannot
    be read."""
    from defusedxml import ElementTree

    try:
        with zipfile.ZipFile(path) as archive:
            rels = ElementTree.fromstring(archive.read("_rels/.rels"))
            target = next(r.get("Target", "") for r in rels if r.get("Type") == OFFICE_DOCUMENT)
            sheets = ElementTree.fromstring(archive.read(posixpath.normpath(target.lstrip("/")))).find(
                f"{MAIN}sheets")
            return sheets[0].get("name") if sheets is not None and len(sheets) else None
    except (OSError, KeyError, StopIteration, zipfile.BadZipFile, ElementTree.ParseError, ValueError):
        return None


def bounded(problems_of: Iterable[tuple[str, Iterable[Problem]]], checked: Mapping[str, Path],
            limit: int) -> tuple[list[Problem], list[Unshown]]:
    """For each workbook (its name and its problems, in order), ``limit`` of its problems, errors first (all
    when ``limit`` is 0), and for each workbook with more, how many more and its checked copy."""
    shown: list[Problem] = []
    unshown = []
    for name, problems in problems_of:
        problems = list(problems)
        kept = problems if limit == 0 else first_errors(problems, limit)
        shown += kept
        if len(kept) < len(problems):
            copy = checked.get(name)
            unshown.append(Unshown(name, len(problems) - len(kept), copy, first_tab(copy) if copy else None))
    return shown, unshown


def first_errors(problems: list[Problem], limit: int) -> list[Problem]:
    """``limit`` of ``problems``, its errors before its warnings (a workbook's many warnings never hide the
    error that refuses it), shown in their own order."""
    chosen = sorted(range(len(problems)), key=lambda i: (not problems[i].is_error, i))[:limit]
    return [problems[i] for i in sorted(chosen)]
