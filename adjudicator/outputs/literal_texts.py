"""An XlsxWriter workbook whose texts are always written as texts.

XlsxWriter writes a shared string that begins with ``<r>`` and ends with ``</r>`` into ``sharedStrings.xml`` as
it is, unescaped: that is how its own rich strings are kept. A text of a player's workbook shaped so (an order's
name, a fleet's, a note) would then be read as markup where the project echoes it — in that player's results,
another faction's, the GM's ``campaign.xlsx`` — drawing other text than the player wrote, or, ill-formed
(``<r></t></r>``), leaving a workbook no spreadsheet opens. The project writes no rich string, so this
workbook's packager writes every shared string as a plain text, escaped, as XlsxWriter writes any other
(:func:`adjudicator.outputs.errors_tab.shared_string`, the Errors tab's own): the same bytes for every text
but those. XlsxWriter provides for its packager to be replaced (``Workbook._get_packager``).

A workbook written only to be taken apart at once (the new tabs that compose.py merges into a player's file,
the master's turn that master_compose.py merges with its kept parts) may have its parts stored rather than
deflated (``deflated=False``): the package is read back in the same breath and its parts deflated once, in the
composed file; deflating them here too was undone right away (a few percent of writing a faction's
results).
"""

from __future__ import annotations

import zipfile
from typing import Any

import xlsxwriter
import xlsxwriter.workbook
from xlsxwriter.packager import Packager
from xlsxwriter.sharedstrings import SharedStrings

#: Shared strings joined into one write (a bounded piece of text: a master's table holds a hundred thousand).
_STRINGS_A_WRITE = 4096


class _LiteralSharedStrings(SharedStrings):  # type: ignore[misc]
    def _write_sst_strings(self) -> None:  # a write of a few thousand <si> at a time, rather than of each
        from adjudicator.outputs.errors_tab import shared_string

        strings = self.string_table.string_array
        for start in range(0, len(strings), _STRINGS_A_WRITE):
            self.fh.write("".join(["<si>" + shared_string(string) + "</si>"
                                   for string in strings[start:start + _STRINGS_A_WRITE]]))


class _LiteralPackager(Packager):  # type: ignore[misc]
    def _write_shared_strings_file(self) -> None:  # Packager's own, with the shared strings above
        if not self.workbook.str_table.count:
            return
        strings = _LiteralSharedStrings()
        strings.string_table = self.workbook.str_table
        strings._set_xml_writer(self._filename("xl/sharedStrings.xml"))  # noqa: SLF001
        strings._assemble_xml_file()  # noqa: SLF001


class LiteralTextsWorkbook(xlsxwriter.Workbook):  # type: ignore[misc]
    """``xlsxwriter.Workbook``, every shared string written as a plain text; ``deflated=False``: its parts
    stored, not deflated (the module's docstring)."""

    def __init__(self, filename: Any, options: dict[str, Any] | None = None, deflated: bool = True) -> None:
        super().__init__(filename, options)
        self.deflated = deflated

    def _get_packager(self) -> Any:
        return _LiteralPackager()

    def _store_workbook(self) -> None:
        # XlsxWriter opens its zip with the compression its module names ZIP_DEFLATED, read when it stores the
        # workbook: named ZIP_STORED for as long as this one is stored (one thread writes a workbook at a time)
        module = xlsxwriter.workbook
        if self.deflated or getattr(module, "ZIP_DEFLATED", None) != zipfile.ZIP_DEFLATED:
            super()._store_workbook()
            return
        module.ZIP_DEFLATED = zipfile.ZIP_STORED
        try:
            super()._store_workbook()
        finally:
            module.ZIP_DEFLATED = zipfile.ZIP_DEFLATED
