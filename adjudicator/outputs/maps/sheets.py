"""Maps of a turn as files and as a workbook tab: one per faction, the GM's and the public one."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.i18n import msg
from adjudicator.outputs.maps.draw import Picture, SharedGrid, import_drawing
from adjudicator.outputs.maps.layouts import positions
from adjudicator.outputs.maps.view import GM, PUBLIC, MapView


@dataclass(frozen=True)
class DrawnMap:
    view: MapView
    picture: Picture


def turn_views(ruleset: Any, campaign: Any, result: Any) -> dict[str, tuple[MapView, str]]:
    """Every reader's view of the turn's map and the language it is drawn in (faction IDs, GM, PUBLIC); empty
    when the ruleset draws none. The figure the readers of a large grid share
    (:class:`~adjudicator.outputs.maps.draw.SharedGrid`), a graph's layout and the drawing libraries' modules
    are made and imported here, before any worker is forked to draw: the workers inherit them."""
    readers = {f: campaign.factions[f].language for f in sorted(campaign.factions)}
    readers[GM] = campaign.language
    readers[PUBLIC] = campaign.language
    views: dict[str, tuple[MapView, str]] = {}
    for reader, lang in readers.items():
        view = ruleset.map_view(campaign, result, reader)
        if view is None:
            return {}
        views[reader] = (view, lang)
    if views:
        import_drawing()
        first = next(iter(views.values()))[0]
        SharedGrid.of(first)
        positions(first)  # a graph's layout, worked out once for the workers to inherit (layouts.py)
    return views


def file_stem(reader: str) -> str:
    return {GM: "gm", PUBLIC: "public"}.get(reader, reader)


def write_map_files(drawn: DrawnMap | None, folder: Path, reader: str) -> list[Path]:
    """``<reader>.map.png`` and ``.svg`` in ``folder``."""
    if drawn is None:
        return []
    written = []
    for suffix, data in (("png", drawn.picture.png), ("svg", drawn.picture.svg)):
        path = folder / f"{file_stem(reader)}.map.{suffix}"
        path.write_bytes(data)
        written.append(path)
    return written


ROW_POINTS = 15.0  # the height of the rows the picture spans (20 pixels each)
PAGE_PIXELS = (900, 520)  # what a landscape A4 page holds within its margins, less a title and a caption row


def add_map_tab(wb: Any, drawn: DrawnMap | None, lang: str, name: str | None = None) -> Any:
    """A tab holding the map: a title row ("Map of turn 3 (ALPHA)" in the reader's words), the picture
    below it (sized as drawn, on rows and a column sized to hold it whole, so that the print area the
    layout sets from the cells covers it), and under the picture the names of its files."""
    if drawn is None:
        return None
    from openpyxl.drawing.image import Image

    from adjudicator.outputs.maps.draw import title_of
    from adjudicator.outputs.writing import TITLE_FONT, sheet_title

    ws = wb.create_sheet(sheet_title(wb, name or msg("Map").render(lang)))
    ws.cell(1, 1, title_of(drawn.view, lang)).font = TITLE_FONT
    image = Image(io.BytesIO(drawn.picture.png))
    image.anchor = "A2"
    ws.add_image(image)
    # Shown at most as large as a landscape A4 page holds beside the title and the caption (the layout
    # fits a sheet to the page's width only, so a taller picture would be cut by a page break); the
    # picture keeps every pixel, only its size on the sheet is scaled.
    scale = min(1.0, PAGE_PIXELS[0] / image.width, PAGE_PIXELS[1] / image.height)
    image.width, image.height = round(image.width * scale), round(image.height * scale)
    rows = math.ceil(image.height / (ROW_POINTS * 4 / 3)) + 1
    ws.column_dimensions["A"].width = math.ceil(image.width / 7) + 2  # ~7 pixels a character
    for row in range(2, rows + 2):
        ws.row_dimensions[row].height = ROW_POINTS
    stem = file_stem(drawn.view.reader)
    ws.cell(rows + 2, 1, f"{stem}.map.png · {stem}.map.svg")
    ws.sheet_view.showGridLines = False
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 1
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    return ws
