"""The intake's cheaper paths (issue 16) give what the plain ones gave: the survey's memo of cell references,
read_table's cleaning of text cells written out, and translations' memo of the last catalogs of each language."""

from __future__ import annotations

import io
import zipfile
from importlib import resources

import pytest

from adjudicator import i18n
from adjudicator.intake import bounds
from adjudicator.intake.bounds import Overflow, survey_xlsx
from adjudicator.intake.safety import Limits

_BOOK = """<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"
 xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">
<sheets><sheet name="Orders" sheetId="1" r:id="rId1"/></sheets></workbook>"""
_RELS = """<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"
 Target="worksheets/sheet1.xml"/></Relationships>"""


def _archive(cells: str) -> zipfile.ZipFile:
    """An .xlsx of one sheet named Orders whose sheetData holds ``cells``."""
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as book:
        book.writestr("xl/workbook.xml", _BOOK)
        book.writestr("xl/_rels/workbook.xml.rels", _RELS)
        book.writestr("xl/worksheets/sheet1.xml",
                      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
                      ' xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                      f"<sheetData>{cells}</sheetData></worksheet>")
    return zipfile.ZipFile(data)


def test_a_remembered_reference_still_meets_every_limit() -> None:
    """A reference read once (and remembered) passes a tighter limit the next time it is met, at its cell."""
    cells = '<row><c r="$C$7" t="e"><v>#N/A</v></c><c r="d7"><v>1</v></c></row>'  # the row told by its cells
    first = survey_xlsx(_archive(cells), Limits())
    assert first.overflow is None
    assert first.errors == {"Orders": {(7, 3): "#N/A"}}
    assert bounds._REFERENCES["$C$7"] == (3, 7) and bounds._REFERENCES["d7"] == (4, 7)
    assert survey_xlsx(_archive(cells), Limits(max_rows=6)).overflow == Overflow("Orders", "rows", 6, "C7")
    assert survey_xlsx(_archive(cells), Limits(max_columns=3)).overflow == Overflow("Orders", "columns", 3, "D7")
    assert survey_xlsx(_archive(cells), Limits(max_cells=20)).overflow == Overflow("Orders", "cells", 20, "C7")


def test_references_that_are_no_cell_are_counted_along_the_row_and_not_remembered() -> None:
    cells = '<row r="2"><c r="ZZZZ2"><v>1</v></c><c r=""><v>2</v></c><c x:r="B9" x:t="e"><v>#REF!</v></c></row>'
    survey = survey_xlsx(_archive(cells), Limits())
    assert survey.overflow is None
    assert survey.errors == {"Orders": {(9, 2): "#REF!"}}  # the prefixed attributes read as before
    assert "ZZZZ2" not in bounds._REFERENCES and "" not in bounds._REFERENCES
    assert survey_xlsx(_archive(cells), Limits(max_columns=1)).overflow == Overflow("Orders", "columns", 1, "B2")
    assert survey_xlsx(_archive(cells), Limits(max_rows=8)).overflow == Overflow("Orders", "rows", 8, "B9")


def test_text_limits_are_told_at_their_cell_as_before() -> None:
    cells = '<row r="3"><c r="A3" t="inlineStr"><is><t>abcdef</t></is></c><c r="B3"><v>12345</v></c></row>'
    assert survey_xlsx(_archive(cells), Limits(max_text_chars=5)).overflow == Overflow("Orders", "text", 5, "A3")
    assert survey_xlsx(_archive(cells), Limits(max_text_total=10)).overflow == \
        Overflow("Orders", "text_total", 10, "B3")
    assert survey_xlsx(_archive(cells), Limits(max_text_chars=6, max_text_total=11)).overflow is None


def test_the_reference_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds, "_REFERENCES", {f"A{n}": (1, n) for n in range(1, 50_001)})
    assert bounds._reference("B3") == (2, 3)
    assert "B3" not in bounds._REFERENCES and len(bounds._REFERENCES) == 50_000


def _locale(ruleset: str) -> object:
    return resources.files("adjudicator") / "rulesets" / ruleset / "locale"  # a new folder object each time


def test_translations_follow_the_ruleset_folder_whatever_its_object() -> None:
    """Each block gets its own ruleset's catalog first, whether its folder object is the last one met, a new
    object of the same folder, or another ruleset's; outside any block, the core's alone."""
    core = i18n.translations("es")
    with i18n.ruleset_catalog(_locale("star_sectors")):
        own = i18n.translations("es")
        assert own is i18n._translations("es", _locale("star_sectors")) and own is not core
        assert i18n.translations("es") is own
    for ruleset in ("inner_sphere", "star_sectors", "inner_sphere"):
        with i18n.ruleset_catalog(_locale(ruleset)):
            assert i18n.translations("es") is i18n._translations("es", _locale(ruleset))
    assert i18n.translations("es") is core is i18n._translations("es", None)
    assert len(i18n._LAST_BY_LANGUAGE) <= len(i18n.LANGUAGES)
    with pytest.raises(i18n.UnsupportedLanguageError):
        i18n.translations("fr")
    assert "fr" not in i18n._LAST_BY_LANGUAGE
