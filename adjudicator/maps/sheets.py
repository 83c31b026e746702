"""Maps of a turn as files and as a workbook tab: one per faction, the GM's and the public one."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.i18n import msg
from adjudicator.maps.draw import Picture, render
from adjudicator.maps.view import GM, PUBLIC, MapView


@dataclass(frozen=True)
class DrawnMap:
    view: MapView
    picture: Picture


def turn_maps(ruleset: Any, campaign: Any, result: Any) -> dict[str, DrawnMap]:
    """Every reader's map of the turn (faction IDs, GM, PUBLIC); empty when the ruleset draws none."""
    readers = {f: campaign.factions[f].language for f in sorted(campaign.factions)}
    readers[GM] = campaign.language
    readers[PUBLIC] = campaign.language
    drawn: dict[str, DrawnMap] = {}
    for reader, lang in readers.items():
        view = ruleset.map_view(campaign, result, reader)
        if view is None:
            return {}
        drawn[reader] = DrawnMap(view, render(view, lang))
    return drawn


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


def add_map_tab(wb: Any, drawn: DrawnMap | None, lang: str, name: str | None = None) -> Any:
    """A tab holding the map picture (placed at A1, sized as drawn)."""
    if drawn is None:
        return None
    from openpyxl.drawing.image import Image

    from adjudicator.xlsx.writing import sheet_title

    ws = wb.create_sheet(sheet_title(wb, name or msg("Map").render(lang)))
    image = Image(io.BytesIO(drawn.picture.png))
    image.anchor = "A1"
    ws.add_image(image)
    ws.sheet_view.showGridLines = False
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 1
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    return ws
