"""The writer gives the workbooks the old one gave. Every ruleset's example is checked and run; each workbook
the project saves (checked copies, results, the master, GM input) is captured just before its layout, then
made both as it was (tests/writer_reference.py's layout, a walk over every coordinate of the used range, and
openpyxl's save) and as the writer makes it (adjudicator/outputs/layout.py from the cells the sheet holds, and
the XlsxWriter save of adjudicator/outputs/fast_save.py for the checked copies, results and the master), and
the two files are read back and compared: values, styles as a reader sees them, dropdowns and their alerts,
protection, widths, heights, print setup, hidden sheets, defined names, pictures, charts, comments, links."""

from __future__ import annotations

import hashlib
import io
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from adjudicator.engine.registry import find_ruleset
from adjudicator.i18n import gettext_in
from adjudicator.outputs import compose, layout, streamed
from adjudicator.outputs.plain_rows import PLAIN_ROWS, materialize_plain, plain_rows
from adjudicator.outputs.writing import REFIT_ROWS, fill_report_sheet, fill_table_sheet
from adjudicator.store import master_compose
from adjudicator.turn import pipeline
from tests import writer_reference
from tests.helpers import EVERY_RULESET_SLOW_BUT_ONE

ERRORS = {gettext_in(lang, "Errors") for lang in ("en", "es", "ru")}
LEDGER = tuple(gettext_in(lang, "Ledger") for lang in ("en", "es", "ru"))

RULESETS = EVERY_RULESET_SLOW_BUT_ONE


THEME = ("FFFFFF", "000000", "EEECE1", "1F497D", "4F81BD", "C0504D", "9BBB59", "8064A2", "4BACC6", "F79646",
         "0000FF", "800080")


def _colour(color: Any) -> Any:
    """A colour as a reader sees it: RGB without its alpha byte; the automatic colour as None."""
    if color is None:
        return None
    if color.type == "rgb":
        return str(color.rgb)[-6:]
    if color.type == "theme" and color.theme == 1 and not color.tint:
        return None
    if color.type == "indexed" and color.indexed in (64, 65):
        return None
    if color.type == "theme" and not color.tint:  # the Office theme both writers give every workbook
        return THEME[color.theme]
    return (color.type, color.value, color.tint)


def _style(cell: Any) -> tuple[Any, ...]:
    """What a reader sees of a cell's style (two writers spell the defaults differently: a font without a
    name is the default Calibri 11, a fill's background colour is unused when solid)."""
    font, fill, border, alignment, protection = cell.font, cell.fill, cell.border, cell.alignment, cell.protection
    solid = fill.fill_type == "solid"
    return (
        (font.name or "Calibri", float(font.sz or 11), bool(font.b), bool(font.i), font.u, bool(font.strike),
         font.vertAlign, _colour(font.color)),
        (fill.fill_type or None, _colour(fill.fgColor) if fill.fill_type else None,
         None if solid or not fill.fill_type else _colour(fill.bgColor)),
        tuple((getattr(border, side).style, _colour(getattr(border, side).color) if getattr(border, side).style
               else None) for side in ("left", "right", "top", "bottom")),
        (alignment.horizontal if alignment.horizontal != "general" else None, alignment.vertical,
         bool(alignment.wrap_text), bool(alignment.shrink_to_fit), alignment.indent or 0,
         alignment.text_rotation or 0),
        (protection.locked is not False, bool(protection.hidden)),
        cell.number_format,
    )


def _chart(chart: Any) -> tuple[Any, ...]:
    def text(title: Any) -> Any:
        rich = getattr(getattr(title, "tx", None), "rich", None)
        return None if rich is None else "".join(r.t for p in rich.p for r in (p.r or []))

    return (chart.tagname, text(chart.title), text(chart.x_axis.title), text(chart.y_axis.title),
            chart.y_axis.scaling.min,
            [(s.val.numRef.f, (s.cat.numRef or s.cat.strRef).f if s.cat else None,
              s.tx.strRef.f if s.tx and s.tx.strRef else None) for s in chart.series],
            (chart.anchor._from.row, chart.anchor._from.col))  # noqa: SLF001


def _image(image: Any) -> tuple[Any, ...]:
    marker = image.anchor._from  # noqa: SLF001
    return (marker.row, marker.col, hashlib.sha256(image._data()).hexdigest())  # noqa: SLF001


def _validations(ws: Any) -> list[tuple[Any, ...]]:
    """Each validation with its alerts; the defaults (operator "between", error style "stop") spelt out,
    as one writer writes them and the other leaves them implied."""
    return sorted(
        (str(v.sqref), v.type, v.formula1, v.formula2, v.operator or ("between" if v.formula2 else None),
         v.allow_blank, v.showErrorMessage, v.showInputMessage, v.errorStyle or "stop", v.errorTitle, v.error,
         v.promptTitle, v.prompt)
        for v in ws.data_validations.dataValidation
    )


def workbook_face(path: Path) -> dict[str, Any]:
    """Everything a reader of ``path`` sees or is held to, as comparable data."""
    wb = openpyxl.load_workbook(path)
    face: dict[str, Any] = {"sheets": wb.sheetnames, "active": wb.active.title if wb.active else None,
                            "names": sorted((n, d.attr_text) for n, d in wb.defined_names.items())}
    for ws in wb.worksheets:
        face[ws.title] = {
            "state": ws.sheet_state,
            "cells": {c.coordinate: (c.value, c.data_type if c.value is not None else None, _style(c))
                      for row in ws.iter_rows() for c in row if c.value is not None or c.has_style},
            "comments": {c.coordinate: c.comment.text for row in ws.iter_rows() for c in row if c.comment},
            "links": {c.coordinate: (c.hyperlink.location, c.hyperlink.target) for row in ws.iter_rows()
                      for c in row if c.hyperlink},
            "merged": sorted(str(r) for r in ws.merged_cells.ranges),
            "validations": _validations(ws),
            "protection": tuple(bool(getattr(ws.protection, k)) for k in (
                "sheet", "objects", "scenarios", "formatCells", "formatColumns", "formatRows", "insertColumns",
                "insertRows", "insertHyperlinks", "deleteColumns", "deleteRows", "selectLockedCells", "sort",
                "autoFilter", "pivotTables", "selectUnlockedCells")),
            "widths": {k: d.width for k, d in ws.column_dimensions.items() if d.width},
            "formats": {k: d.number_format for k, d in ws.column_dimensions.items()},
            "heights": {k: d.height for k, d in ws.row_dimensions.items() if d.height},
            "hidden": ({k for k, d in ws.column_dimensions.items() if d.hidden},
                       {k for k, d in ws.row_dimensions.items() if d.hidden}),
            # the active tab is selected, as Excel and LibreOffice show it (XlsxWriter also says so)
            "view": (ws.freeze_panes, bool(ws.sheet_view.tabSelected) or ws is wb.active),
            "print": (ws.print_area, ws.print_title_rows, ws.page_setup.orientation,
                      int(ws.page_setup.fitToWidth if ws.page_setup.fitToWidth is not None else 1),
                      int(ws.page_setup.fitToHeight if ws.page_setup.fitToHeight is not None else 1),
                      int(ws.page_setup.paperSize or 1), bool(ws.sheet_properties.pageSetUpPr
                                                              and ws.sheet_properties.pageSetUpPr.fitToPage),
                      [b.id for b in ws.row_breaks.brk],
                      tuple(round(getattr(ws.page_margins, k), 3) for k in ("left", "right", "top", "bottom"))),
            "grid": ws.sheet_view.showGridLines is not False,
            "filter": ws.auto_filter.ref,
            "images": [_image(image) for image in ws._images],  # noqa: SLF001
            "charts": [_chart(chart) for chart in ws._charts],  # noqa: SLF001
        }
    return face


def _save_raw(wb: Any, path: Path) -> None:
    """``wb`` as it is before its layout, saved by openpyxl (its pictures kept readable for the real save), the
    rows of its hidden sheets kept as data (plain_rows.py) saved as the cells ``ws.append`` made of them before;
    ``wb`` is left as it was, for the real save."""
    images = [image for ws in wb.worksheets for image in getattr(ws, "_images", [])]
    pictures = [image._data() for image in images]  # a save reads (and closes) each picture once
    for image, data in zip(images, pictures, strict=True):
        image.ref = io.BytesIO(data)
    kept = [(ws, plain_rows(ws), dict(ws._cells), ws._current_row) for ws in wb.worksheets
            if plain_rows(ws) is not None]
    for ws, *_ in kept:
        materialize_plain(ws)
    wb.save(path)
    for ws, rows, cells, current in kept:
        ws._cells, ws._current_row = cells, current
        ws.__dict__[PLAIN_ROWS] = rows
    for image, data in zip(images, pictures, strict=True):
        image.ref = io.BytesIO(data)


def _filled_the_old_way(path: Path, tabs: dict[str, streamed.Tab]) -> Any:
    """The raw workbook at ``path`` with its streamed tabs built as openpyxl cells, as writing.py built them
    before they were streamed."""
    wb = openpyxl.load_workbook(path)
    for title, tab in tabs.items():
        if tab.kind == "cells" and tab.fill is not None:  # the Changes tab: maps/changes.py's fill_changes
            tab.fill(wb[title])
        elif tab.kind == "table" and tab.fill_table_sheet:
            fill_table_sheet(wb[title], tab.headers, tab.rows, tab.lang, tab.widths)
        elif tab.kind == "table":  # the master's Ledger and Dice: store/master.py's _replace_table cells
            streamed.fill_plain_table(wb[title], tab)
        else:
            fill_report_sheet(wb[title], tab.tables, tab.lang)
    return wb


#: What a sheet is told for its layout that its file does not keep: the rows whose heights were guessed, the
#: widest its columns shared by stacked tables may be.
MARKS = (REFIT_ROWS, layout.COLUMN_CAPS)


def _refit_rows(wb: Any) -> dict[str, dict[str, Any]]:
    return {ws.title: {mark: getattr(ws, mark) for mark in MARKS if getattr(ws, mark, None)} for ws in wb.worksheets}


def _with_refits(wb: Any, refits: dict[str, dict[str, Any]]) -> Any:
    """A reloaded workbook told again which rows' heights were guessed and how wide its shared columns may be
    (marks the file does not keep)."""
    for title, marks in refits.items():
        for mark, value in marks.items():
            setattr(wb[title], mark, type(value)(value))
    return wb


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_layout_equals_the_one_before(ruleset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each saved workbook made the old way (its streamed tabs as openpyxl cells, the reference layout over
    every coordinate, openpyxl's save) and as the project writes it (layout.py, then XlsxWriter writing the
    streamed tabs from their data): the same face."""
    raw = tmp_path / "raw"
    raw.mkdir()
    # (raw workbook, its streamed tabs made the old way, the file the project wrote or None for an openpyxl save)
    captured: list[tuple[Path, dict[str, streamed.Tab], Path | None]] = []
    fast = layout.lay_out
    real_fast_save = pipeline.atomic_save_fast
    real_save_composed = master_compose.save_composed
    in_fast: list[bool] = []

    refits: dict[Path, dict[str, dict[str, Any]]] = {}  # the marks the layout reads (_refit_rows)
    composed_copies: list[bool] = []

    def capture(wb: Any) -> None:
        if not in_fast:
            path = raw / f"{len(captured):03}.xlsx"
            refits[path] = _refit_rows(wb)
            _save_raw(wb, path)
            captured.append((path, {}, None))
        fast(wb)

    def capture_fast(wb: Any, target: Path) -> bool:
        saved = captured_save(wb, target, lambda: real_fast_save(wb, target))
        assert saved, "saved by openpyxl: the writer must translate it whole"
        return saved

    def capture_composed(old: Any, wb: Any, target: Path) -> None:  # a master written by XlsxWriter, composed
        captured_save(wb, target, lambda: real_save_composed(old, wb, target))

    def captured_save(wb: Any, target: Path, save: Callable[[], Any]) -> Any:
        path = raw / f"{len(captured):03}.xlsx"
        composed = getattr(wb, compose.COMPOSED, None)  # a checked copy composed of the player's parts
        reference = composed.today() if composed is not None else wb  # ... and as openpyxl copies it
        tabs = {ws.title: streamed.tab_of(ws) for ws in reference.worksheets if streamed.tab_of(ws) is not None}
        refits[path] = _refit_rows(reference)
        _save_raw(reference, path)
        # the old way's cells made now, in the run's context (the words a run renders them with)
        old_way = _filled_the_old_way(path, tabs)
        for title, marks in _refit_rows(old_way).items():
            refits[path].setdefault(title, {}).update(marks)
        old_way.save(path)
        in_fast.append(True)
        try:
            saved = save()
        finally:
            in_fast.clear()
        written = raw / f"{len(captured):03}.written.xlsx"
        shutil.copyfile(target, written)
        if composed is not None:  # composed indeed, not made the openpyxl way after a failure
            with zipfile.ZipFile(written) as archive:
                composed_copies.append(archive.read("docProps/app.xml") == compose.NEUTRAL_APP)
        captured.append((path, tabs, written))
        return saved

    monkeypatch.setattr(layout, "lay_out", capture)
    monkeypatch.setattr(pipeline, "atomic_save_fast", capture_fast)
    monkeypatch.setattr(master_compose, "save_composed", capture_composed)
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "1")  # captured in this process (workers would lay out their own)
    root = tmp_path / "campaign"
    pipeline.new_campaign(find_ruleset(ruleset), root, example=True)
    assert pipeline.check(root).submissions
    pipeline.run(root)
    assert captured
    monkeypatch.undo()
    checked_copies = results = by_xlsxwriter = streamed_tabs = 0
    for path, tabs, written in captured:
        wb = _with_refits(openpyxl.load_workbook(path), refits[path])
        writer_reference.lay_out(wb)
        wb.save(tmp_path / "before.xlsx")
        if written is not None:  # as the writer wrote it: no openpyxl fallback, it must translate whole
            shutil.copyfile(written, tmp_path / "after.xlsx")
            by_xlsxwriter += 1
            streamed_tabs += len(tabs)
        else:
            wb = _with_refits(openpyxl.load_workbook(path), refits[path])
            layout.lay_out(wb)
            wb.save(tmp_path / "after.xlsx")
        before, after = workbook_face(tmp_path / "before.xlsx"), workbook_face(tmp_path / "after.xlsx")
        assert before.keys() == after.keys(), path.name
        for key in before:
            if isinstance(before[key], dict) and "cells" in before[key]:
                for part in before[key]:
                    old, new = before[key][part], after[key][part]
                    if isinstance(old, dict):
                        differing = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
                        assert not differing, (path.name, key, part, [(k, old.get(k), new.get(k))
                                                                     for k in differing[:3]], len(differing))
                    elif isinstance(old, list):
                        assert old == new, (path.name, key, part, [v for v in old if v not in new][:2],
                                            [v for v in new if v not in old][:2])
            assert before[key] == after[key], f"{path.name}: {key}"
        checked_copies += any(name in ERRORS for name in before["sheets"])
        results += any(name.startswith(LEDGER) for name in before["sheets"])
    if ruleset == "star_sectors":  # its example gives both; inner_sphere's run stops for the GM's input
        assert checked_copies and results, (checked_copies, results)
    # every checked copy and every results workbook of a submitted .xlsx composed of the player's parts
    assert composed_copies == [True] * len(composed_copies) and len(composed_copies) >= checked_copies
    assert by_xlsxwriter >= checked_copies + results, (by_xlsxwriter, checked_copies, results)
    assert streamed_tabs >= checked_copies + 2 * results, (streamed_tabs, checked_copies, results)  # report, ledger
