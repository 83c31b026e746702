"""A large hex map (above draw.LABELLED_PLACES) draws its hexes as one path for each colour and their edges as one
path over them (draw._areas_by_colour). What a reader sees must be what one path a hex showed: every hex in
its holder's colour at 55 % over white, a grey edge between two hexes, the disputed hexes hatched, and the
rest of the map (units, title) untouched. Judged on the PNG's pixels, at the places the hexes are drawn."""

from __future__ import annotations

import io
import re

import pytest

from adjudicator.outputs.maps import draw
from adjudicator.outputs.maps.layouts import positions
from adjudicator.outputs.maps.view import GM, Layout, MapView, Place, Unit

COLUMNS, ROWS = 14, 10  # 140 hexes: above draw.LABELLED_PLACES
FACTIONS = ("ALPHA", "BETA", "GAMMA")
DISPUTED = {(5, 5), (9, 2)}


def owner_of(col: int, row: int) -> str | None:
    if col < 3:
        return None  # nobody's (known) or unknown: see known_of
    return FACTIONS[(col + row) % 3]


def known_of(col: int, row: int) -> bool:
    return col != 0


def hex_view() -> MapView:
    places = [Place(f"{c:02d}{r:02d}", f"{c:02d}{r:02d}", c, r, owner=owner_of(c, r), disputed=(c, r) in DISPUTED,
                    known=known_of(c, r))
              for c in range(COLUMNS) for r in range(ROWS)]
    units = [Unit("ALPHA@0605", "ALPHA", "0605", "A1", 3)]
    return MapView(Layout.HEX, GM, 2, FACTIONS, places, [], units, [], [])


@pytest.fixture(scope="module")
def drawn() -> tuple[object, dict[str, tuple[float, float]], draw.Picture]:
    """The figure (to find where each hex lands in pixels) and the picture, drawn as a turn draws it."""
    import matplotlib

    view = hex_view()
    assert len(view.places) > draw.LABELLED_PLACES
    with matplotlib.rc_context(draw.RC):
        figure = draw._figure(view, "en")  # noqa: SLF001 - the figure itself, to know its transforms
        picture = draw._save(figure, 100)  # noqa: SLF001
    return figure, positions(view), picture


def pixels(picture: draw.Picture) -> object:
    import numpy as np
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(picture.png)).convert("RGB")).astype(int)


def at(figure: object, where: tuple[float, float], image: object) -> tuple[int, int, int]:
    """The pixel of the PNG at a point of the map (the PNG is drawn at the figure's own 100 dpi)."""
    ax = figure.axes[0]  # type: ignore[attr-defined]
    x, y = ax.transData.transform(where)
    height = image.shape[0]  # type: ignore[attr-defined]
    return tuple(image[int(round(height - y)), int(round(x))])  # type: ignore[index]


def expected_fill(colour: str) -> tuple[int, int, int]:
    from matplotlib.colors import to_rgb

    return tuple(round(255 * (1 - 0.55 * (1 - c))) for c in to_rgb(colour))  # type: ignore[return-value]


def test_every_hex_shows_its_holders_colour_at_its_centre(drawn) -> None:
    figure, where, picture = drawn
    image = pixels(picture)
    palette = draw.colours(hex_view())
    for c in range(COLUMNS):
        for r in range(ROWS):
            if (c, r) in DISPUTED or (c, r) == (6, 5):  # hatched, or a unit's mark on it
                continue
            owner = owner_of(c, r)
            fill = palette[owner] if owner else (draw.NEUTRAL if known_of(c, r) else draw.UNKNOWN)
            # below the centre: clear of nothing but the hex itself (no names on a map this large)
            x, y = where[f"{c:02d}{r:02d}"]
            seen = at(figure, (x + 0.3, y - 0.3), image)
            assert all(abs(a - b) <= 2 for a, b in zip(seen, expected_fill(fill), strict=True)), (c, r, seen, fill)


def one_path_a_hex(ax, view, places, where, fills) -> None:
    """How a large hex map was drawn before: one path for each hex, its colour and its edge (the reference; the
    disputed hexes are hatched over it by draw._contents, as over every map's areas)."""
    from matplotlib.collections import PolyCollection

    from adjudicator.outputs.maps.layouts import outline

    ax.add_collection(PolyCollection([outline(view, where[p.id]) for p in places], facecolors=fills,
                                     edgecolors="#999999", linewidths=0.5, alpha=0.55, zorder=2))


def test_the_picture_is_the_one_a_path_for_each_hex_drew(drawn, monkeypatch) -> None:
    """Edges, hatching, units and title where they were: at most 2 of 255 apart in any pixel's colour (where
    two edges' anti-aliased pixels meet), and in few pixels at all."""
    import matplotlib
    import numpy as np

    _, _, picture = drawn
    monkeypatch.setattr(draw, "_areas_by_colour", one_path_a_hex)
    with matplotlib.rc_context(draw.RC):
        reference = draw._save(draw._figure(hex_view(), "en"), 100)  # noqa: SLF001
    assert reference.png != picture.png  # the reference is drawn the other way indeed
    ours, theirs = pixels(picture), pixels(reference)
    assert ours.shape == theirs.shape
    apart = np.abs(ours - theirs).max(axis=2)
    assert apart.max() <= 2, apart.max()
    assert (apart > 0).mean() < 0.02, (apart > 0).mean()


def test_a_disputed_hex_is_hatched_over_its_colour(drawn) -> None:
    import numpy as np

    figure, where, picture = drawn
    image = pixels(picture)
    ax = figure.axes[0]
    height = image.shape[0]
    for c, r in sorted(DISPUTED):
        x, y = where[f"{c:02d}{r:02d}"]
        (left, top), (right, bottom) = ax.transData.transform([(x - 0.45, y + 0.45), (x + 0.45, y - 0.45)])
        square = image[int(height - top):int(height - bottom), int(left):int(right)]
        dark = int((square.sum(axis=2) < 200).sum())
        assert dark > square.shape[0] * square.shape[1] // 20, (c, r, dark)  # the hatching's black lines
    plain = where["0402"]
    (left, top), (right, bottom) = ax.transData.transform([(plain[0] - 0.3, plain[1] + 0.3),
                                                           (plain[0] + 0.3, plain[1] - 0.3)])
    assert int((image[int(height - top):int(height - bottom), int(left):int(right)].sum(axis=2) < 200).sum()) == 0
    assert np.all(image[int(height - top):int(height - bottom), int(left):int(right)] > 0)


def test_the_svg_holds_a_path_per_colour_not_per_hex(drawn) -> None:
    """What makes the picture cheap: the SVG's paths are counted in colours, not in hexes (140 here)."""
    _, _, picture = drawn
    svg = picture.svg.decode()
    fills = {c.lower() for c in re.findall(r"fill:\s*(#[0-9a-fA-F]{6})", svg)}
    assert {draw.colours(hex_view())[f] for f in FACTIONS} <= fills
    assert svg.count("<path") < 40, svg.count("<path")
