"""A large grid's squares as one picture that is resampled once for all its readers.

The squares are drawn with ``imshow`` and nearest-neighbour interpolation: every pixel of the picture that
matplotlib puts on the page is a copy of one square's colour (or, outside the squares, transparent). Which
square each pixel copies depends only on the figure (its size, the axes, the dpi), never on the colours, so it
is worked out once per figure and resolution (matplotlib resamples a picture of the squares' own numbers), and
every reader's picture is then that square-by-pixel table filled with its colours, exactly as matplotlib would
have made it (``tests/core/test_maps_squares.py`` compares both). Should matplotlib ever blend two squares into
one pixel, the table is not used and matplotlib resamples each picture itself, as before.
"""

from __future__ import annotations

from typing import Any

OUTSIDE = -1  # a pixel that copies no square (transparent)
BITS = 7  # of a square's number in each of red, green and blue: (byte + 0.5) / 255 stays within 0..1


def resample_once(image: Any) -> dict[tuple[Any, ...], Any]:
    """Make ``image`` (an ``AxesImage`` of RGBA floats drawn with ``interpolation="nearest"``) find its pixels
    from a square-by-pixel table, kept for each resolution it is drawn at (the PNG's and the SVG's); the tables
    are returned (None for a resolution where matplotlib blends squares)."""
    tables: dict[tuple[Any, ...], Any] = {}
    drawn = type(image).make_image

    def make_image(renderer: Any, magnification: float = 1.0, unsampled: bool = False) -> Any:
        if unsampled or image.get_interpolation() != "nearest":
            return drawn(image, renderer, magnification, unsampled)
        key = _where_drawn(image, magnification)
        if key not in tables:
            tables[key] = _table(image, drawn, renderer, magnification)
        table = tables[key]
        if table is None:  # matplotlib blends squares here: it resamples the picture itself
            return drawn(image, renderer, magnification, unsampled)
        squares, left, bottom, transform = table
        return _filled(image.get_array(), squares), left, bottom, transform

    image.make_image = make_image
    return tables


def _where_drawn(image: Any, magnification: float) -> tuple[Any, ...]:
    """What decides where each square lands: the image's transform to pixels, its extent, its clip box and
    the magnification (the array's shape too, should the picture be given other squares)."""
    clip = image.get_clip_box() or image.axes.bbox
    return (magnification, image.get_array().shape, tuple(image.get_extent()),
            image.get_transform().get_matrix().tobytes(), tuple(clip.extents))


def _table(image: Any, drawn: Any, renderer: Any, magnification: float) -> tuple[Any, ...] | None:
    """The square each pixel copies (row-major number, or OUTSIDE), from matplotlib resampling a picture whose
    colours are the squares' numbers; None if a pixel is not the copy of one square."""
    import numpy as np

    colours = image.get_array()
    rows, cols = colours.shape[:2]
    if colours.ndim != 3 or colours.shape[2] != 4 or colours.dtype.kind != "f" or rows * cols >= 2 ** (3 * BITS):
        return None
    number = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    numbered = np.empty((rows, cols, 4))
    for channel in range(3):  # BITS bits of a square's number a channel, a colour that matplotlib's bytes give back
        numbered[..., channel] = (((number >> (BITS * channel)) & (2**BITS - 1)) + 0.5) / 255
    numbered[..., 3] = 1.0
    image.set_data(numbered)
    try:
        pixels, left, bottom, transform = drawn(image, renderer, magnification, False)
    finally:
        image.set_data(colours)
    if pixels is None:
        return None
    alpha = pixels[..., 3]
    if not np.all((alpha == 0) | (alpha == 255)) or np.any(pixels[..., :3] >= 2**BITS):
        return None
    squares = (pixels[..., 0].astype(np.int64) | pixels[..., 1].astype(np.int64) << BITS
               | pixels[..., 2].astype(np.int64) << (2 * BITS))
    squares[alpha == 0] = OUTSIDE
    if squares.max(initial=OUTSIDE) >= rows * cols:
        return None
    # the table stands for matplotlib only if it gives what matplotlib draws of these very colours
    expected = drawn(image, renderer, magnification, False)[0]
    if expected is None or not np.array_equal(_filled(colours, squares), expected):
        return None
    return squares, left, bottom, transform


def _filled(colours: Any, squares: Any) -> Any:
    """The picture of ``colours`` (rows × columns × RGBA in 0..1): each pixel the bytes matplotlib makes of its
    square's colour (``(colour * 255).astype(uint8)``), transparent outside the squares."""
    import numpy as np

    rows, cols = colours.shape[:2]
    palette = np.zeros((rows * cols + 1, 4), dtype=np.uint8)
    palette[:-1] = (np.asarray(colours, dtype=float).reshape(rows * cols, 4) * 255).astype(np.uint8)
    # each colour's four bytes taken as one (a pixel copied at once: a tenth of the time of copying a row of four)
    whole = palette.view(np.uint32).reshape(-1)[squares]  # OUTSIDE (-1) picks the last, transparent entry
    return whole.view(np.uint8).reshape(*squares.shape, 4)
