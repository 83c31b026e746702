"""A large grid's squares are resampled once for all its readers (maps.squares): each reader's picture is
the one matplotlib draws of its own colours, pixel for pixel and byte for byte, at the PNG's resolution and
at the SVG's; no square of an earlier reader's colours is left on the next; and where matplotlib would blend
squares into one pixel, it resamples the picture itself."""

from __future__ import annotations

import io

import numpy as np
import pytest

from adjudicator.outputs.maps import draw, squares

ROWS, COLS = 23, 31  # not square, not a power of two: the squares fall unevenly on the pixels


def colourings() -> list[np.ndarray]:
    """Three readers' squares: all "holder unknown"; random colours; the first row alone coloured."""
    unknown = np.ones((ROWS, COLS, 4))
    unknown[..., :3] = np.array(draw._blended(draw.UNKNOWN)[:3])  # noqa: SLF001
    rng = np.random.default_rng(7)
    scattered = np.ones((ROWS, COLS, 4))
    scattered[..., :3] = rng.integers(0, 256, (ROWS, COLS, 3)) / 255
    one_row = unknown.copy()
    one_row[0, :, :3] = np.array(draw._blended(draw.PALETTE[1])[:3])  # noqa: SLF001
    return [unknown, scattered, one_row]


def figure(interpolation: str = "nearest") -> tuple[object, object]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.3, 5.9))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.01, 0.02, 0.7, 0.9))
    ax.set_axis_off()
    ax.set_xlim(-1, COLS + 1)
    ax.set_ylim(-1, ROWS + 1)
    image = ax.imshow(colourings()[0], extent=(-0.5, COLS - 0.5, -0.5, ROWS - 0.5), interpolation=interpolation,
                      zorder=2, aspect="equal")
    return fig, image


def saved(fig: object, image: object, colours: np.ndarray) -> tuple[bytes, bytes]:
    import matplotlib

    image.set_data(colours)  # type: ignore[attr-defined]
    png, svg = io.BytesIO(), io.BytesIO()
    with matplotlib.rc_context(draw.RC):
        fig.savefig(png, format="png", dpi=100, metadata={"Software": None})  # type: ignore[attr-defined]
        fig.savefig(svg, format="svg", metadata={"Date": None, "Creator": "test"})  # type: ignore[attr-defined]
    return png.getvalue(), svg.getvalue()


def test_each_reader_gets_the_bytes_matplotlib_draws_of_its_own_colours() -> None:
    plain_fig, plain = figure()
    fast_fig, fast = figure()
    tables = squares.resample_once(fast)
    for colours in colourings() + colourings()[::-1]:  # whatever was drawn before
        assert saved(fast_fig, fast, colours) == saved(plain_fig, plain, colours)
    assert len(tables) == 2 and all(t is not None for t in tables.values())  # the PNG's and the SVG's, both used


def test_the_pixels_are_matplotlibs_and_no_earlier_colours_are_left() -> None:
    from matplotlib.backends.backend_agg import RendererAgg

    fig, image = figure()
    renderer = RendererAgg(730, 590, 100)
    wanted = []
    for colours in colourings():
        image.set_data(colours)  # type: ignore[attr-defined]
        wanted.append(image.make_image(renderer, 1.0)[0])  # type: ignore[attr-defined]
    squares.resample_once(image)
    for magnification in (1.0, 100 / 72):
        for colours, expected in zip(colourings(), wanted, strict=True):
            image.set_data(colours)  # type: ignore[attr-defined]
            pixels = image.make_image(renderer, magnification)[0]  # type: ignore[attr-defined]
            if magnification == 1.0:
                assert np.array_equal(pixels, expected)
            assert {tuple(p) for p in pixels.reshape(-1, 4)} <= (
                {tuple(c) for c in (colours.reshape(-1, 4) * 255).astype(np.uint8)} | {(0, 0, 0, 0)})


@pytest.mark.parametrize("interpolation", ["bilinear", "antialiased"])
def test_a_picture_that_blends_squares_is_resampled_by_matplotlib(interpolation: str) -> None:
    plain_fig, plain = figure(interpolation)
    fast_fig, fast = figure(interpolation)
    tables = squares.resample_once(fast)
    for colours in colourings():
        assert saved(fast_fig, fast, colours) == saved(plain_fig, plain, colours)
    assert not any(tables.values())  # no table made (bilinear) or none kept (blended pixels)
