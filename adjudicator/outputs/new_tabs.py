"""A workbook of new tabs only, described as data, without openpyxl.

A checked copy composed of the player's own parts (compose.py) needs of its workbook only the Errors tab's
description (streamed.py), its place, and the document properties: :func:`adjudicator.outputs.errors_tab.direct_tab`
writes that tab as worksheet XML. :class:`NewTabs` holds exactly that, so that a ``check`` does not import openpyxl
(a sixth of a one-workbook check's time: benchmarks/startup.py). Should the tab need XlsxWriter after all,
:meth:`NewTabs.in_openpyxl` gives the openpyxl workbook the check used to build, placeholder for placeholder.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from adjudicator.outputs.streamed import describe, stream_new_tabs, tab_of


@dataclass(eq=False)
class TabSheet:
    """One new tab's place: its title and state; its description is set by :func:`streamed.describe`."""

    title: str
    sheet_state: str = "visible"


@dataclass(eq=False)
class NewTabs:
    """The new tabs, in order, and the document properties (``creator``, ``title``, … as openpyxl names them)."""

    worksheets: list[TabSheet] = field(default_factory=list)
    properties: Any = field(default_factory=SimpleNamespace)

    def __post_init__(self) -> None:
        stream_new_tabs(self)  # its tables and reports are described, never built (writing.write_table_sheet)

    def create_sheet(self, title: str) -> TabSheet:
        sheet = TabSheet(title)
        self.worksheets.append(sheet)
        return sheet

    def in_openpyxl(self) -> Any:
        """The same new tabs as streamed placeholders of an openpyxl workbook, with the same properties."""
        from openpyxl import Workbook

        wb = stream_new_tabs(Workbook())
        wb.remove(wb.active)
        for sheet in self.worksheets:
            ws = wb.create_sheet(sheet.title)
            ws.sheet_state = sheet.sheet_state
            tab = tab_of(sheet)
            if tab is not None:
                describe(ws, tab)
        for name, value in vars(self.properties).items():
            setattr(wb.properties, name, value)
        return wb
