"""Large grids are drawn on one figure that every reader shares (draw.SharedGrid): each reader's picture is
the same, byte for byte, as a figure drawn afresh for that reader alone, whatever was drawn on the shared
figure before it, in one process or in the parallel writer's workers; and nothing of an earlier reader's map
(the GM's enemy units, another faction's squares) is left on the next one."""

from __future__ import annotations

import io
import os
import re
from functools import cache
from pathlib import Path

import pytest

from adjudicator.outputs.maps import draw
from adjudicator.outputs.maps.view import GM, Arrow, Battle, Layout, MapView, Place, Unit, unit_gid
from tests.core.kit import svg_ids

SIZE = 16  # 256 squares: above draw.LABELLED_PLACES, so drawn as a grid's picture
FACTIONS = ("ALPHA", "BETA", "GAMMA")


def square(x: int, y: int) -> str:
    return f"{chr(64 + x)}{y}"


def view_of(reader: str, turn: int = 3) -> MapView:
    """A reader's map: its own column of squares and units; the GM's: everything, with a battle."""
    places, units, arrows, battles = [], [], [], []
    for y in range(1, SIZE + 1):
        for x in range(1, SIZE + 1):
            owner = FACTIONS[x % 3] if x <= 3 else None
            seen = reader == GM or owner == reader
            places.append(Place(square(x, y), square(x, y), x, y, owner=owner if seen else None,
                                disputed=seen and (x, y) == (2, 5), known=seen))
    for x, owner in ((1, FACTIONS[1]), (2, FACTIONS[2]), (3, FACTIONS[0])):
        if reader in (GM, owner):
            units += [Unit(f"{owner}@{square(x, y)}", owner, square(x, y), f"{owner} {y}", y) for y in (1, 4, 9)]
            arrows.append(Arrow(owner, (square(x, 1), square(x, 2)), "1"))
    if reader == GM:
        battles.append(Battle(square(2, 5), (FACTIONS[2], FACTIONS[1])))
    return MapView(Layout.GRID, reader, turn, FACTIONS, places, [], units, arrows, battles)


@cache
def alone(reader: str, lang: str) -> draw.Picture:
    """The picture of a figure made for this reader only (as every map was drawn before the shared figure)."""
    import matplotlib

    with matplotlib.rc_context(draw.RC):
        return draw._save(draw._figure(view_of(reader), lang), 100)  # noqa: SLF001


READERS = [(view_of(GM), "en"), (view_of("ALPHA"), "ru"), (view_of("BETA"), "es")]


def test_each_reader_of_the_shared_figure_gets_the_picture_of_its_own_figure() -> None:
    assert draw.SharedGrid.of(READERS[0][0]) is not None  # the shared path is the one tested
    shared = draw.render_many(READERS)
    backwards = draw.render_many(READERS[::-1])[::-1]  # whatever was drawn on the figure before
    for (view, lang), picture, again in zip(READERS, shared, backwards, strict=True):
        fresh = alone(view.reader, lang)
        assert picture.png == fresh.png, view.reader
        assert picture.svg == fresh.svg, view.reader
        assert again == picture, view.reader


def test_no_unit_or_square_of_an_earlier_reader_is_left_on_the_next_map() -> None:
    from PIL import Image

    gm, alpha = draw.render_many([READERS[0], READERS[1]])
    enemy = {unit_gid(u) for u in READERS[0][0].units if u.owner != "ALPHA"}
    gm_ids, alpha_ids = svg_ids_of(gm.svg), svg_ids_of(alpha.svg)
    assert enemy <= gm_ids  # drawn on the GM's map, by their ids
    assert not enemy & alpha_ids, "the GM's units left on ALPHA's map"
    battles = re.compile(rb'id="battle:([^"]+)"')
    assert battles.findall(gm.svg) == [b"B5"] and not battles.findall(alpha.svg)
    # BETA's squares (column A) are "holder unknown" on ALPHA's picture, in BETA's colour on the GM's
    colours = draw.colours(READERS[0][0])
    at_a7 = {name: Image.open(io.BytesIO(p.png)).convert("RGB").getpixel(a7_pixel(p)) for name, p in
             (("gm", gm), ("alpha", alpha))}
    assert near(at_a7["alpha"], blended(draw.UNKNOWN)), at_a7
    assert near(at_a7["gm"], blended(colours["BETA"])), at_a7
    assert alpha.png == alone("ALPHA", "ru").png


def blended(fill: str) -> tuple[float, ...]:
    return tuple(255 * c for c in draw._blended(fill)[:3])  # noqa: SLF001


def near(pixel: tuple[int, ...], colour: tuple[float, ...]) -> bool:
    return all(abs(a - b) <= 1 for a, b in zip(pixel, colour, strict=True))


def a7_pixel(picture: draw.Picture) -> tuple[int, int]:
    """The pixel at the middle of square A7 (no unit, move or battle on it), from the axes' place in the figure
    (draw._frame: the axes at (0.01, 0.02), 0.98 of the width left of the legend's 2.6 inches, 0.9 high)."""
    from PIL import Image

    width, height = Image.open(io.BytesIO(picture.png)).size
    axes_w, axes_h = 0.98 * (width - 260), 0.9 * height
    # the axes span SIZE + 1 squares each way (x from 0 to SIZE + 1, y from -(SIZE + 1) to 0), drawn square
    # (aspect equal) about their centre; A7 is at x = 1, y = -7
    unit = min(axes_w, axes_h) / (SIZE + 1)
    centre_x, centre_y = 0.01 * width + axes_w / 2, height - (0.02 * height + axes_h / 2)
    middle = (SIZE + 1) / 2
    return round(centre_x - (middle - 1) * unit), round(centre_y - (middle - 7) * unit)


def svg_ids_of(svg: bytes) -> set[str]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "map.svg"
        path.write_bytes(svg)
        return svg_ids(path)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the parallel writer forks its workers")
def test_the_turns_maps_drawn_by_two_workers_are_those_of_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from adjudicator.outputs.maps.sheets import turn_views
    from adjudicator.outputs.parallel import in_parallel

    def turn_maps(ruleset: object, campaign: object) -> dict[str, draw.Picture]:
        """Every reader's map drawn as a turn's writer jobs draw them (TurnPictures.drawn): one job a reader,
        forked onto both cores by in_parallel with two workers, after the views and the shared grid are made."""
        views = turn_views(ruleset, campaign, None)
        pictures = in_parallel([lambda v=view, lang=lang: draw.render_many([(v, lang)])[0]
                                for view, lang in views.values()])
        return dict(zip(views, pictures, strict=True))

    class Ruleset:
        def map_view(self, campaign: object, result: object, reader: str) -> MapView:
            return view_of(reader)

    factions = {f: SimpleNamespace(language=lang) for f, lang in zip(FACTIONS, ("ru", "es", "en"), strict=True)}
    campaign = SimpleNamespace(factions=factions, language="en")
    drawn = {}
    for workers in ("1", "2"):
        monkeypatch.setenv("ADJUDICATOR_WORKERS", workers)
        drawn[workers] = turn_maps(Ruleset(), campaign)
    assert drawn["1"] == drawn["2"]
    assert drawn["1"]["ALPHA"].png == alone("ALPHA", "ru").png
