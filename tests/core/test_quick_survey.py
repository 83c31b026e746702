"""The survey's quick way (adjudicator/intake/quick_survey.py) changes nothing the survey reports: on any sheet
it either vouches for what the exact (streaming) survey would find, or leaves the sheet to it. Compared on
generated sheets (hypothesis), on the hostile corpus, and taken on every bundled example's workbooks."""

from __future__ import annotations

import dataclasses
import io
import os
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from adjudicator.intake import bounds, quick_survey
from adjudicator.intake.bounds import Survey, survey_xlsx
from adjudicator.intake.safety import Limits
from adjudicator.paths import examples_root

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_BOOK = (f'<workbook xmlns="{_MAIN}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
         'relationships"><sheets><sheet name="Orders" sheetId="1" r:id="rId1"/></sheets></workbook>')
_RELS = ('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship '
         'Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
         'Target="worksheets/sheet1.xml"/></Relationships>')


def _book(sheet: bytes, shared: bytes | None = None) -> zipfile.ZipFile:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as book:
        book.writestr("xl/workbook.xml", _BOOK)
        book.writestr("xl/_rels/workbook.xml.rels", _RELS)
        book.writestr("xl/worksheets/sheet1.xml", sheet)
        if shared is not None:
            book.writestr("xl/sharedStrings.xml", shared)
    return zipfile.ZipFile(data)


def _both_ways(archive: zipfile.ZipFile, limits: Limits, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    """The survey with the quick way, then the exact survey alone (each a Survey, or the error it raised)."""
    quick = _outcome(archive, limits)
    with monkeypatch.context() as patch:
        patch.setattr(quick_survey, "plainly_within", lambda *_: False)
        exact = _outcome(archive, limits)
    return quick, exact


def _outcome(archive: zipfile.ZipFile, limits: Limits) -> Survey | str:
    try:
        return survey_xlsx(archive, limits)
    except Exception as error:  # noqa: BLE001 - what the caller (safety.py) is handed, compared by its type
        return type(error).__name__


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


#: A cell's text: mostly plain letters (its bytes are its characters), now and then escapes and wide letters.
_TEXT = st.one_of(st.text(alphabet="ab e", max_size=12), st.text(alphabet="ab e", max_size=12),
                  st.text(alphabet=st.sampled_from('abe <>&"\'é€\U0001f600'), max_size=12)).map(_escaped)
#: The text of the one thing written otherwise: longer than any other, so that a limit it passes is its own.
_LONG_TEXT = st.text(alphabet="ab e", min_size=13, max_size=30)
#: What the quick way vouches for: cells as writers write them (text, numbers, formulas, empty).
_PLAIN_KINDS = ("", ' t="s"', ' t="inlineStr"', ' t="str"', ' t="n"')
_PLAIN_BODIES = ("<v>{}</v>", '<is><t xml:space="preserve">{}</t></is>', "<f>{}</f><v>1</v>", "", "<v/>",
                 '<f t="shared" si="0"/><v>2</v>', "<xm:f>{}</xm:f>")
#: One thing the quick way must leave to the exact survey (each sheet holds one of these at most). An odd
#: cell comes last in its row, a column past every other (its own, or the next one if it has no reference).
_ODD = {
    "reference": ("$B$3", "b3", "A0", "A007", "ZZZZ2", "", "B&#51;", "A1048577", "XFD1", "{col}{row}"),
    "kind": (' t="e"', " t='e'", ' t = "e"'),
    "body": ("<is><t>{}<x/>{}</t></is>", "<v><![CDATA[{}]]></v>", '<f a="x>y">{}</f>', "<v>{}<!-- x --></v>",
             "<is><t>a</t><t>{}</t></is>"),
    "form": ("<c", '<c s="1" r="{ref}"', "<c r='{ref}'", '<x:c r="{ref}"', '<c\tr="{ref}"', '<c  r="{ref}"'),
    "row": ("<row", '<row spans="1:3" r="{n}"', "<row r='{n}'", '<row r="0{n}"', '<row r="{n}0"'),
    "dimension": ("", '<dimension ref="A1:XFD1048576"/>', "<dimension ref='A1'/>", '<dimension ref="a1:zz99"/>'),
    "extra": ("<!-- <c r=\"XFD9\"/> -->", "<?pi <c r='XFD9'?>", "<x14:a>xm:f</x14:a>"),
    "head": ("", "<?xml version='1.0' encoding='ISO-8859-1'?>", "\ufeff"),
    "strings": ("<si><r><t>{}</t></r><r><t>{}</t></r></si>", "<x:si><x:t>{}</x:t></x:si>", "<si/>",
                "<t>{}</t>", "<x:t>{}</x:t>"),
}


@st.composite
def _book_parts(draw: st.DrawFn) -> tuple[bytes, bytes | None, str | None]:
    """A sheet, its shared strings (or None), and what is written otherwise in them (or None)."""
    odd_kind = draw(st.none() | st.sampled_from(sorted(_ODD)))
    odd = draw(st.sampled_from(_ODD[odd_kind])) if odd_kind else None
    numbers = sorted(set(draw(st.lists(st.integers(1, 45), min_size=1, max_size=6))))
    columns = [sorted(set(draw(st.lists(st.integers(1, 30), max_size=5)))) for _ in numbers]
    last_column = max((c for row in columns for c in row), default=0)
    odd_row = draw(st.sampled_from(range(len(numbers))))
    rows = []
    for r, (number, row) in enumerate(zip(numbers, columns, strict=True)):
        xml = []
        for column in row:
            kind, body = draw(st.sampled_from(_PLAIN_KINDS)), draw(st.sampled_from(_PLAIN_BODIES))
            filled = body.replace("{}", draw(_TEXT))
            start = f'<c r="{bounds.column_letters(column)}{number}"{kind}'
            xml.append(f"{start}/>" if not filled and draw(st.booleans()) else f"{start}>{filled}</c>")
        if r == odd_row and odd_kind in ("reference", "kind", "body", "form"):
            ref = f"{bounds.column_letters(last_column + 1)}{number}"
            ref = odd.format(col=bounds.column_letters(last_column + 1), row=number) if odd_kind == "reference" else ref
            kind = odd if odd_kind == "kind" else ' t="str"'
            body = (odd if odd_kind == "body" else "<v>{}</v>").replace("{}", draw(_LONG_TEXT))
            start = (odd if odd_kind == "form" else '<c r="{ref}"').format(ref=ref) + kind
            xml.append(f"{start}>{body}{'</x:c>' if start.startswith('<x:c') else '</c>'}")
        start = (odd if odd_kind == "row" and r == odd_row else '<row r="{n}"').format(n=number)
        rows.append(f"{start}>{''.join(xml)}</row>")
    # the plain cells' extent, as a writer gives it: the odd cell not in it
    plain_extent = f'<dimension ref="A1:{bounds.column_letters(max(last_column, 1))}{numbers[-1]}"/>'
    dimension = odd if odd_kind == "dimension" else draw(st.sampled_from([plain_extent, ""]))
    extra = odd if odd_kind == "extra" else draw(st.sampled_from(["", "<x14:dv><xm:f>Lists!$A$1:$A$9</xm:f></x14:dv>"]))
    head = odd if odd_kind == "head" else '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    xml = (f'{head}<worksheet xmlns="{_MAIN}" xmlns:x="{_MAIN}" xmlns:xm="urn:xm" xmlns:x14="urn:x14">'
           f"{dimension}<sheetData>{''.join(rows)}</sheetData>{extra}</worksheet>")
    sheet = xml.encode("latin-1" if "ISO-8859-1" in head else "utf-8", errors="xmlcharrefreplace")
    if odd_kind != "strings" and draw(st.booleans()):
        return sheet, None, odd_kind
    strings = [draw(st.sampled_from(["<si><t>{}</t></si>", '<si><t xml:space="preserve">{}</t></si>']))
               .replace("{}", draw(_TEXT)) for _ in range(draw(st.integers(0, 4)))]
    if odd_kind == "strings":
        strings.insert(draw(st.integers(0, len(strings))), odd.replace("{}", draw(_LONG_TEXT)))
    return sheet, f'<sst xmlns="{_MAIN}" xmlns:x="{_MAIN}">{"".join(strings)}</sst>'.encode(), odd_kind


class _Measured(bounds._XlsxSheet):
    """The exact survey's sheet handler, noting the longest text it counted, the last row a row element or
    the dimension names, and the last column the dimension names."""

    longest = rows = columns = 0

    def startElement(self, name: str, attrs: Any) -> None:  # noqa: N802 - SAX API
        super().startElement(name, attrs)
        local = bounds._local(name)
        if local == "row":
            self.rows = max(self.rows, self.row)
        elif local == "dimension":
            match = bounds._CELL.match((bounds._attr(attrs, "ref") or "").rpartition(":")[2])
            if match:
                self.rows = max(self.rows, int(match.group(2)))
                self.columns = max(self.columns, bounds.column_number(match.group(1)))

    def characters(self, content: str) -> None:
        super().characters(content)
        if self.in_text:
            self.longest = max(self.longest, self.text)


class _MeasuredStrings(bounds._SharedStrings):
    longest = 0

    def characters(self, content: str) -> None:
        super().characters(content)
        self.longest = max(self.longest, self.text)


def _what_it_holds(sheet: bytes, shared: bytes | None) -> Limits | None:
    """The smallest limits the exact survey finds the sheet within (None when it cannot read it)."""
    total = [0]
    handler, strings = _Measured("Orders", _UNBOUNDED, total), _MeasuredStrings(_UNBOUNDED, total)
    try:
        if shared is not None:
            bounds._sax(io.BytesIO(shared), strings)
        bounds._sax(io.BytesIO(sheet), handler)
    except Exception:  # noqa: BLE001 - unreadable: the default limits are compared then
        return None
    return Limits(max_rows=max(handler.max_row, handler.rows), max_columns=max(handler.max_col, handler.columns),
                  max_cells=max(handler.cells, handler.max_row * handler.max_col, -(-strings.strings // 4)),
                  max_text_chars=max(handler.longest, strings.longest), max_text_total=total[0])


_UNBOUNDED = Limits(max_rows=10**9, max_columns=10**9, max_cells=10**18, max_text_chars=10**9,
                    max_text_total=10**12)
_COUNTED = ("max_rows", "max_columns", "max_cells", "max_text_chars", "max_text_total")


#: The limit the one thing written otherwise may pass (the quick way must not miss it).
_PASSED_BY = {"reference": "max_columns", "form": "max_columns", "body": "max_text_chars", "row": "max_rows",
              "strings": "max_text_chars"}


@st.composite
def _limits(draw: st.DrawFn, held: Limits | None, odd_kind: str | None) -> Limits:
    """The defaults; or one limit set at what the sheet holds (nothing passed), or one less (the exact survey
    reports it, and the quick way must not vouch for the sheet), mostly the limit the one thing written
    otherwise may pass; or anything."""
    choice = draw(st.sampled_from(["default", "held", "one less", "one less", "one less", "any"]))
    if choice == "default" or (held is None and choice != "any"):
        return Limits()
    if choice == "any":
        return Limits(**{name: draw(st.integers(0, 60)) for name in _COUNTED})
    name = draw(st.sampled_from(_COUNTED))
    if odd_kind in _PASSED_BY and draw(st.integers(0, 3)):
        name = _PASSED_BY[odd_kind]
    return dataclasses.replace(Limits(), **{name: getattr(held, name) - (choice == "one less")})


@settings(max_examples=int(os.environ.get("QUICK_SURVEY_EXAMPLES", "600")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=_book_parts(), data=st.data())
def test_the_quick_way_reports_what_the_exact_survey_reports(parts: tuple[bytes, bytes | None, str | None],
                                                             data: st.DataObject,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    sheet, shared, odd_kind = parts
    limits = data.draw(_limits(_what_it_holds(sheet, shared), odd_kind))
    archive = _book(sheet, shared)
    quick, exact = _both_ways(archive, limits, monkeypatch)
    assert quick == exact
    taken = quick_survey.plainly_within(archive, shared and "xl/sharedStrings.xml", ["xl/worksheets/sheet1.xml"],
                                        limits)
    event(f"quick way taken: {taken}")


@settings(max_examples=int(os.environ.get("QUICK_SURVEY_EXAMPLES", "600")) // 2, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=_book_parts(), data=st.data())
def test_the_quick_way_read_in_small_pieces_reports_what_the_exact_survey_reports(
        parts: tuple[bytes, bytes | None, str | None], data: st.DataObject, monkeypatch: pytest.MonkeyPatch) -> None:
    """As above, each part read a few bytes at a time and scanned in pieces cut before its rows and strings."""
    sheet, shared, odd_kind = parts
    limits = data.draw(_limits(_what_it_holds(sheet, shared), odd_kind))
    monkeypatch.setattr(quick_survey, "READ_BLOCK", data.draw(st.integers(1, 64)))
    quick, exact = _both_ways(_book(sheet, shared), limits, monkeypatch)
    assert quick == exact


@settings(max_examples=int(os.environ.get("QUICK_SURVEY_EXAMPLES", "600")) // 2, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=_book_parts(), data=st.data())
def test_short_references_leave_the_quick_way_no_sheet_it_took(parts: tuple[bytes, bytes | None, str | None],
                                                               data: st.DataObject,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A piece of short references is taken for the largest row and column they may name, without reading each:
    a sheet the quick way vouched for when it read every reference it still vouches for so, whatever the limits
    and wherever the pieces are cut (its grid never passes a limit the exact one does not)."""
    sheet, shared, odd_kind = parts
    limits = data.draw(_limits(_what_it_holds(sheet, shared), odd_kind))
    monkeypatch.setattr(quick_survey, "READ_BLOCK", data.draw(st.sampled_from([2**20, 7, 60, 200])))
    archive, parts_named = _book(sheet, shared), ["xl/worksheets/sheet1.xml"]
    shared_named = shared and "xl/sharedStrings.xml"
    taken = quick_survey.plainly_within(archive, shared_named, parts_named, limits)
    with monkeypatch.context() as patch:
        patch.setattr(quick_survey, "_short_references", lambda _: None)
        read_one_by_one = quick_survey.plainly_within(archive, shared_named, parts_named, limits)
    assert taken or not read_one_by_one
    event(f"short references read: {quick_survey._short_references(limits) is not None}")


def test_short_references_are_read_in_two_searches_within_the_defaults() -> None:
    """The defaults (5,000 rows, 200 columns, 200,000 cells): a cell of one letter and at most three digits is
    short (999 x 26 is within every limit, and so is 999 rows by any 200 columns, or 26 columns by any 5,000
    rows); the GM's input and the master have their own."""
    from adjudicator.store.master import MASTER_LIMITS
    from adjudicator.turn.gm_input import GM_LIMITS

    short = quick_survey._short_references(Limits())
    assert short is not None and (short.last_row, short.last_column) == (999, 26)
    assert short.odd_cell.search(b'<row r="999"><c r="Z999" t="s"><v>1</v></c></row>') is None
    for odd in (b'<c r="AA1">', b'<c r="A1000">', b'<c r="$A$1">', b'<c s="1" r="A1">', b'<c r="A01">'):
        assert short.odd_cell.search(odd), odd
    assert short.odd_row.search(b'<row r="1000">') and short.odd_row.search(b'<row spans="1:2" r="9">')
    assert (quick_survey._short_references(GM_LIMITS).last_row, quick_survey._short_references(GM_LIMITS)
            .last_column) == (9_999, 25)
    assert quick_survey._short_references(MASTER_LIMITS).last_column == 20
    assert quick_survey._short_references(Limits(max_rows=9)).last_row == 9
    assert quick_survey._short_references(Limits(max_columns=0)) is None


def test_a_part_larger_than_a_piece_is_vouched_for_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """A part larger than the quick way holds at once is read in pieces cut before its rows and strings (the
    master of a large turn: parts of 17 and 56 MB); a piece with no row to cut it before goes the exact way."""
    cells = "".join(f'<row r="{r}"><c r="A{r}" t="s"><v>{r - 1}</v></c><c r="C{r}"><v>{r}</v></c></row>'
                    for r in range(1, 201))
    sheet = f'<worksheet xmlns="{_MAIN}"><dimension ref="A1:C200"/><sheetData>{cells}</sheetData></worksheet>'
    strings = "".join(f"<si><t>Order {n}</t></si>" for n in range(200))
    archive = _book(sheet.encode(), f'<sst xmlns="{_MAIN}">{strings}</sst>'.encode())
    parts = ["xl/worksheets/sheet1.xml"]
    monkeypatch.setattr(quick_survey, "READ_BLOCK", 100)
    monkeypatch.setattr(quick_survey, "QUICK_PART_BYTES", 400)
    assert len(sheet) > 10 * quick_survey.QUICK_PART_BYTES
    assert quick_survey.plainly_within(archive, "xl/sharedStrings.xml", parts, Limits())
    assert not quick_survey.plainly_within(archive, None, parts, Limits(max_rows=199))
    assert not quick_survey.plainly_within(archive, "xl/sharedStrings.xml", parts, Limits(max_cells=49))
    row = "".join(f'<c r="{bounds.column_letters(c)}1"><v>{c}</v></c>' for c in range(1, 151))
    wide = _book(f'<worksheet xmlns="{_MAIN}"><sheetData><row r="1">{row}</row></sheetData></worksheet>'.encode())
    assert not quick_survey.plainly_within(wide, None, parts, Limits())  # a row longer than a piece: no place to cut
    assert survey_xlsx(wide, Limits()) == Survey()  # the exact survey finds it within every limit
    # the last row in one piece, the last column in another: the grid a reader allocates spans both
    rows = "".join(f'<row r="{r}"><c r="{"EU" if r == 1 else "A"}{r}"><v>{r}</v></c></row>'
                   for r in (300, *range(2, 40), 1))
    apart = _book(f'<worksheet xmlns="{_MAIN}"><sheetData>{rows}</sheetData></worksheet>'.encode())
    assert not quick_survey.plainly_within(apart, None, parts, Limits(max_cells=300 * 151 - 1))
    assert quick_survey.plainly_within(apart, None, parts, Limits(max_cells=300 * 151))
    assert survey_xlsx(apart, Limits(max_cells=300 * 151 - 1)).overflow is not None


def test_a_plain_sheet_within_its_limits_is_vouched_for_and_its_limits_still_hold() -> None:
    """The quick way is taken on a plain sheet, and refuses it (the exact survey reports it) at each limit."""
    cells = "".join(f'<row r="{r}"><c r="A{r}" t="s"><v>0</v></c><c r="C{r}"><v>{r}</v></c></row>'
                    for r in range(1, 31))
    sheet = f'<worksheet xmlns="{_MAIN}"><dimension ref="A1:C30"/><sheetData>{cells}</sheetData></worksheet>'
    archive = _book(sheet.encode(), f'<sst xmlns="{_MAIN}"><si><t>Move</t></si></sst>'.encode())
    parts = ["xl/worksheets/sheet1.xml"]
    assert quick_survey.plainly_within(archive, "xl/sharedStrings.xml", parts, Limits())
    assert quick_survey.plainly_within(archive, None, parts, Limits(max_rows=30, max_columns=3, max_cells=90))
    for tight in (Limits(max_rows=29), Limits(max_columns=2), Limits(max_cells=89), Limits(max_cells=59),
                  Limits(max_text_total=len(sheet) - 1)):
        assert not quick_survey.plainly_within(archive, None, parts, tight), tight
    for passed in (Limits(max_rows=29), Limits(max_columns=2), Limits(max_cells=89)):  # the exact survey tells it
        assert survey_xlsx(archive, passed).overflow is not None, passed


def _inbox_workbooks() -> list[Path]:
    return sorted(examples_root().glob("*/inbox/*.xlsx"))


@pytest.mark.parametrize("path", _inbox_workbooks(), ids=lambda p: f"{p.parents[1].name}/{p.name}")
def test_every_example_workbook_goes_the_quick_way(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The players' workbooks the examples hold are vouched for (the quick way is what a check of them costs),
    and the quick way finds what the exact survey finds."""
    taken = []
    real = quick_survey.plainly_within
    monkeypatch.setattr(quick_survey, "plainly_within", lambda *a: taken.append(real(*a)) or taken[-1])
    with zipfile.ZipFile(path) as archive:
        quick = survey_xlsx(archive, Limits())
        assert taken == [True]
        monkeypatch.setattr(quick_survey, "plainly_within", lambda *_: False)
        assert survey_xlsx(archive, Limits()) == quick


@pytest.mark.slow
def test_the_hostile_corpus_is_surveyed_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.hostile.make_corpus import make_corpus

    make_corpus(tmp_path)
    surveyed = 0
    for path in sorted((tmp_path / "corpus").iterdir()):
        try:
            archive = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError):
            continue  # not a zip: never surveyed
        with archive:
            if path.suffix.lower() == ".ods":
                continue
            for limits in (Limits(), Limits(max_rows=40, max_text_chars=30)):
                quick, exact = _both_ways(archive, limits, monkeypatch)
                assert quick == exact, path.name
            surveyed += 1
    assert surveyed >= 20
