"""A map's legend lists every faction a reader sees: on a GM's map of a large campaign too. Too many entries for
the figure's height are set smaller, then in columns, each text cut with "…" to its column: every entry on the
picture, none over another, none past the figure's edge. Judged on the texts as drawn (their extents from the
renderer that draws the PNG)."""

from __future__ import annotations

import pytest

from adjudicator.outputs.maps import draw
from adjudicator.outputs.maps.view import GM, Layout, MapView, Place

SIDE = 12  # 144 squares: a large grid's picture


def gm_view(factions: int, name: str = "F{:03d}") -> MapView:
    ids = tuple(name.format(i) for i in range(factions))
    places = [Place(f"{x}-{y}", f"{x}-{y}", x, y, owner=ids[(x * SIDE + y) % factions]) for x in range(SIDE)
              for y in range(SIDE)]
    return MapView(Layout.GRID, GM, 4, ids, places, [], [], [], [])


def gm_figure_height() -> float:
    import matplotlib

    with matplotlib.rc_context(draw.RC):
        return draw._frame(gm_view(3))[0].get_figheight()  # noqa: SLF001


def legend_texts(view: MapView, lang: str = "en") -> tuple[list[tuple[str, object]], object]:
    """The legend's texts as drawn (text, extent in pixels), and the figure's extent."""
    import matplotlib

    with matplotlib.rc_context(draw.RC):
        figure = draw._figure(view, lang)  # noqa: SLF001
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        texts = [(t.get_text(), t.get_window_extent(renderer)) for t in figure.texts
                 if t is not figure._suptitle]  # noqa: SLF001
        return texts, figure.bbox


@pytest.mark.parametrize("factions", [3, 45, 160])
def test_every_faction_is_in_the_legend_within_the_picture_and_none_over_another(factions: int) -> None:
    texts, page = legend_texts(gm_view(factions))
    shown = [t for t, _ in texts]
    for i in range(factions):
        assert f"F{i:03d}" in shown, (factions, i)
    for text, box in texts:
        assert page.x0 <= box.x0 and box.x1 <= page.x1 and page.y0 <= box.y0 and box.y1 <= page.y1, (text, box)
    for a, (text, box) in enumerate(texts):
        for other, second in texts[a + 1:]:
            assert not box.overlaps(second), (text, other)


def test_a_legend_that_fits_is_set_as_always() -> None:
    """Up to what a figure's height holds, one column at 8 points (the pictures of small campaigns unchanged);
    then smaller; then the factions in columns."""
    assert draw.legend_grid(15, 5, 7.8) == (1.0, 1, 20)
    scale, columns, _ = draw.legend_grid(40, 5, 7.8)
    assert columns == 1 and draw.LEGEND_SMALLEST <= scale * draw.LEGEND_FONT < draw.LEGEND_FONT
    scale, columns, lines = draw.legend_grid(160, 5, 7.8)
    assert columns >= 2 and columns * lines >= 160 and (lines + 5) * draw.LEGEND_LINE * scale <= 7.8 - 0.5


def test_long_names_in_columns_are_cut_to_their_column_keeping_what_tells_them_apart() -> None:
    texts, page = legend_texts(gm_view(100, name="Very long faction name {:03d}"), "es")
    assert draw.legend_grid(100, 5, gm_figure_height())[1] >= 2
    names = [t for t, _ in texts if "…" in t]
    assert len(names) == 100 and len(set(names)) == 100  # cut, and each still its own
    assert all(name.startswith("Ve") and name[-3:].isdigit() for name in names)
    signs = ["De nadie", "Dueño desconocido", "Disputado", "Movimiento de este turno", "Batalla"]
    assert all(sign in [t for t, _ in texts] for sign in signs)  # the signs whole, on lines of their own
    for a, (text, box) in enumerate(texts):
        assert box.x1 <= page.x1, text
        for other, second in texts[a + 1:]:
            assert not box.overlaps(second), (text, other)
