"""Drawing a :class:`~adjudicator.outputs.maps.view.MapView` to PNG and SVG with matplotlib (Agg, no pyplot, no
window), the same bytes on every run: fixed SVG ids, no dates, text kept as text so a unit can be found
in the SVG by its id."""

from __future__ import annotations

import io
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.i18n import msg
from adjudicator.outputs.maps.layouts import corners, outline, positions
from adjudicator.outputs.maps.view import GM, PUBLIC, Layout, MapView, unit_gid

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
           "#bcbd22", "#7f7f7f", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd",
           "#e6550d", "#31a354", "#756bb1", "#636363")
UNKNOWN = "#eeeeee"
#: Above these counts a map is drawn without place names and with unit marks only (text is what costs).
LABELLED_PLACES = 120
LABELLED_UNITS = 80
ARROWS = 12  # more moves than this are drawn as one quiver
NEUTRAL = "#ffffff"
RC = {"svg.hashsalt": "adjudicator", "svg.fonttype": "none", "font.family": "DejaVu Sans",
      "path.simplify": False}


@dataclass(frozen=True)
class Picture:
    png: bytes
    svg: bytes


def colours(view: MapView) -> dict[str, str]:
    return {f: PALETTE[i % len(PALETTE)] for i, f in enumerate(sorted(view.factions))}


def reader_name(view: MapView, lang: str) -> str:
    if view.reader == GM:
        return msg("GM").render(lang)
    if view.reader == PUBLIC:
        return msg("public").render(lang)
    return view.reader


def title_of(view: MapView, lang: str) -> str:
    return msg("Map of turn {turn} ({reader})", turn=view.turn, reader=reader_name(view, lang)).render(lang)


def import_drawing() -> None:
    """Import what drawing a map takes (matplotlib, its Agg and SVG backends, Pillow's writers): called
    before the writers are forked, which inherit them, instead of each importing them again (about 0.5 s of
    CPU a worker, a tenth of a small campaign's turn)."""
    import matplotlib.collections
    import matplotlib.colors
    import matplotlib.figure
    import matplotlib.patches  # noqa: F401
    from matplotlib.backends import backend_agg, backend_svg  # noqa: F401
    from PIL import Image

    Image.preinit()  # its writers (PNG, and the few it imports with it), as saving a picture would


def render(view: MapView, lang: str, dpi: int = 100) -> Picture:
    """The map as PNG and SVG bytes."""
    return render_many([(view, lang)], dpi)[0]


def render_many(maps: Sequence[tuple[MapView, str]], dpi: int = 100) -> list[Picture]:
    """Every map of ``maps`` (a view and the language it is drawn in), as :func:`render` draws each alone.
    Large grids of the same squares share one figure (see :class:`SharedGrid`): what is the same for every
    reader (the figure, its axes, the grid's lines and its picture's array) is made once, and each reader's
    map draws only what it shows (its squares' colours, units, moves, battles, legend)."""
    import matplotlib

    pictures = []
    with matplotlib.rc_context(RC):
        for view, lang in maps:
            shared = SharedGrid.of(view)
            if shared is None:
                pictures.append(_save(_figure(view, lang), dpi))
            else:
                pictures.append(shared.picture(view, lang, dpi))
    return pictures


#: zlib's level for a map's PNG (the same pixels at any level). Level 3 (zlib's fast matcher) against its default 6,
#: every map of a 40-faction turn (benchmarks/maps_drawn.py's views): saved with 23 % less CPU for both rulesets,
#: Inner Sphere's maps 5 % smaller, star_sectors' 27 % larger (a faction's map 27 → 36 KB). Levels 1 and 2 make
#: files a tenth to nine tenths larger for little more speed.
PNG_LEVEL = 3


def _save(figure: Any, dpi: int) -> Picture:
    png, svg = io.BytesIO(), io.BytesIO()
    figure.savefig(png, format="png", dpi=dpi, metadata={"Software": None}, pil_kwargs={"compress_level": PNG_LEVEL})
    figure.savefig(svg, format="svg", metadata={"Date": None, "Creator": "adjudicator"})
    return Picture(png.getvalue(), svg.getvalue())


def _figure(view: MapView, lang: str) -> Any:
    figure, ax, where, scale = _frame(view)
    _contents(figure, ax, view, lang, where, scale)
    return figure


def _frame(view: MapView) -> tuple[Any, Any, dict[str, tuple[float, float]], float]:
    """The figure and its axes, sized to the places of ``view`` (the same for every reader of one map)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    where = positions(view)
    xs = [x for x, _ in where.values()] or [0.0]
    ys = [y for _, y in where.values()] or [0.0]
    width, height = max(xs) - min(xs) + 2, max(ys) - min(ys) + 2
    scale = min(9.0 / width, 7.0 / height, 0.9)
    figure = Figure(figsize=(max(width * scale, 4.0) + 2.6, max(height * scale, 3.0) + 0.8))
    FigureCanvasAgg(figure)
    ax = figure.add_axes((0.01, 0.02, 0.98 * (1 - 2.6 / figure.get_figwidth()), 0.9))
    ax.set_axis_off()
    ax.set_aspect("equal")
    ax.set_xlim(min(xs) - 1, max(xs) + 1)
    ax.set_ylim(min(ys) - 1, max(ys) + 1)
    return figure, ax, where, scale


def _contents(figure: Any, ax: Any, view: MapView, lang: str, where: dict[str, tuple[float, float]], scale: float,
              grid: SharedGrid | None = None) -> None:
    """Everything of one reader's map on its frame; with ``grid``, the shared grid's picture and lines stand
    for the squares."""
    from matplotlib.collections import LineCollection, PolyCollection

    palette = colours(view)
    figure.suptitle(title_of(view, lang), fontsize=11, x=0.02, ha="left")
    font = max(4.0, min(8.0, 60.0 * scale / 6))

    # links under everything, as one collection of lines (a line each cost as much as the rest of the map)
    lanes = [(where[link.a], where[link.b]) for link in sorted(view.links, key=lambda k: (k.kind, k.a, k.b))
             if link.a in where and link.b in where and link.kind == "lane"]
    if lanes:
        ax.add_collection(LineCollection(lanes, colors="#bbbbbb", linewidths=0.8, zorder=1, capstyle="projecting",
                                         joinstyle="round"), autolim=False)

    places = sorted(view.places, key=lambda p: p.id)
    fills = [palette.get(p.owner, UNKNOWN) if p.owner else (UNKNOWN if not p.known else NEUTRAL) for p in places]
    if view.layout is Layout.GRAPH:
        ax.scatter([where[p.id][0] for p in places], [where[p.id][1] for p in places], s=380, c=fills,
                   edgecolors=["#000000" if p.disputed else "#666666" for p in places],
                   linewidths=[2.0 if p.disputed else 0.8 for p in places], zorder=2)
    else:  # areas: the disputed ones hatched over them
        if grid is not None:
            grid.paint(places, fills)
        elif view.layout is Layout.GRID and len(places) > LABELLED_PLACES:
            _grid_image(ax, places, where, fills)
        elif len(places) > LABELLED_PLACES:
            _areas_by_colour(ax, view, places, where, fills)
        else:
            ax.add_collection(PolyCollection([outline(view, where[p.id]) for p in places], facecolors=fills,
                                             edgecolors="#999999", linewidths=0.5, alpha=0.55, zorder=2))
        disputed = [outline(view, where[p.id]) for p in places if p.disputed]
        if disputed:
            ax.add_collection(PolyCollection(disputed, facecolors="none", edgecolors="#000000", hatch="///",
                                             linewidths=1.0, zorder=3))
    wormholes: dict[str, list[str]] = defaultdict(list)
    for link in view.links:
        if link.kind == "wormhole":
            wormholes[link.a].append(link.b)
    hexes = view.layout is Layout.HEX
    labelled = places if len(places) <= LABELLED_PLACES else []  # a large map's places are not named
    names = {p.id: hex_label(p.label or p.id) if hexes else p.label or p.id for p in labelled}
    hex_font = hex_label_font(names.values(), scale) if hexes else font
    for p in labelled:
        x, y = where[p.id]
        top = 0.32 if view.layout is not Layout.GRAPH else 0.0
        if hexes:  # a hex's name in its upper half, on two lines (its code above its name)
            top = HEX_LABEL_HEIGHT
        # on a light ground of its own, so that a disputed area's hatching does not cross out its name
        ground = None if view.layout is Layout.GRAPH else {"boxstyle": "round,pad=0.12", "facecolor": "#ffffff",
                                                           "alpha": 0.75, "edgecolor": "none"}
        graph = view.layout is Layout.GRAPH  # a node's name inside its circle, as large as the circle allows
        size = max(font, 7.0) if graph else hex_font if hexes else font
        ax.text(x, y + top, names[p.id], ha="center", va="center", fontsize=size, linespacing=1.05,
                color="#333333", zorder=4, gid=f"place:{p.id}", bbox=ground)
        if p.id in wormholes:  # a graph's units hang under its node: the wormhole is written above it
            ax.text(x, y + 0.42 if graph else y - 0.42, "◎ " + ", ".join(sorted(wormholes[p.id])), ha="center",
                    va="center", fontsize=max(font * 0.8, 6.0), color="#6a3d9a", zorder=4)

    _draw_arrows(ax, view, where, palette)

    for battle in sorted(view.battles, key=lambda b: b.place):
        if battle.place in where:
            x, y = where[battle.place]
            # beside a node; in an area, at its left, clear of its name (top) and its units (below the centre)
            sx, sy = (x + 0.3, y + 0.3) if view.layout is Layout.GRAPH else (x - 0.36, y + 0.1)
            if view.layout is Layout.HEX:  # in a hex, at the left of its units, below its two-line name
                sx, sy = x - 0.6, y - 0.1
            ax.scatter([sx], [sy], marker="*", s=140, c="#ffd700", edgecolors="#b00000",
                       linewidths=0.8, zorder=7, gid=f"battle:{battle.place}")

    # a unit's label as large as the room between two stacked labels allows (0.22 of an area), and as its
    # longest label allows within an area's width (a bold letter is about 0.75 of the font's size)
    longest = max((len(u.label or u.id) for u in view.units), default=1)
    unit_font = min(9.0, max(font * 0.85, 0.22 * scale * 72 / 1.45), 0.9 * scale * 72 / (0.75 * longest))
    _draw_units(ax, view, where, palette, max(unit_font, 4.0) / 0.85)

    shown = {view.reader} | {p.owner for p in places} | {u.owner for u in view.units} | {a.owner for a in view.arrows}
    if view.reader in (GM, PUBLIC):
        shown |= set(view.factions)
    factions: list[tuple[dict[str, Any], str]] = [
        ({"facecolor": palette[f]}, f + (" — " + msg("you").render(lang) if f == view.reader else ""))
        for f in sorted(view.factions) if f in shown]
    signs: list[tuple[dict[str, Any], str]] = [
        ({"facecolor": NEUTRAL, "edgecolor": "#999999"}, msg("Nobody's").render(lang)),
        ({"facecolor": UNKNOWN, "edgecolor": "#999999"}, msg("Holder unknown").render(lang)),
        ({"facecolor": "none", "edgecolor": "#000000", "hatch": "///"}, msg("Disputed").render(lang)),
        ({"arrow": True}, msg("Move this turn").render(lang)),
        ({"star": True}, msg("Battle").render(lang))]
    if wormholes:
        signs.append(({"wormhole": True}, msg("Wormhole").render(lang)))
    _legend(figure, factions, signs, msg("Legend").render(lang))
    return figure


#: A hex's name is centred this far above the hex's centre (a hex's radius is 1), and its lines are at most
#: this wide (the hex's width there, less a margin); its font never larger than HEX_FONT_LARGEST points.
HEX_LABEL_HEIGHT = 0.46
HEX_LABEL_ROOM = 1.4
HEX_FONT_LARGEST = 11.0
#: The width of a character of DejaVu Sans, in ems (its average over letters, digits and spaces).
CHARACTER_EMS = 0.62


def hex_label(label: str) -> str:
    """A hex's name on two lines: its code ("0201") above its name ("Donegal")."""
    code, _, name = label.partition(" ")
    return f"{code}\n{name}" if name else code


def hex_label_font(labels: Any, scale: float) -> float:
    """The font (in points) at which every line of ``labels`` fits a hex's width at its name's height, on a
    map of ``scale`` inches per hex radius."""
    longest = max((len(line) for label in labels for line in label.split("\n")), default=1)
    return min(HEX_FONT_LARGEST, HEX_LABEL_ROOM * scale * 72 / (CHARACTER_EMS * max(longest, 1)))


def _draw_units(ax: Any, view: MapView, where: dict[str, tuple[float, float]], palette: dict[str, str],
                font: float) -> None:
    """Each unit as a mark in its place; on small maps a labelled box. Every mark carries the unit's id
    (the SVG id of its label, or the link of its mark), so a unit can be found in the SVG."""
    here: dict[str, list[Any]] = defaultdict(list)
    for unit in sorted(view.units, key=lambda u: (u.place, u.owner, u.id)):
        if unit.place in where:
            here[unit.place].append(unit)
    below = 0.55 if view.layout is Layout.GRAPH else 0.05  # a graph's units hang under its node
    if sum(len(u) for u in here.values()) <= LABELLED_UNITS and len(view.places) <= LABELLED_PLACES:
        for place, units in here.items():
            x, y = where[place]
            y -= below - 0.05
            shown = units[:4]
            for i, unit in enumerate(shown):
                ax.text(x, y - 0.05 - 0.22 * i, unit.label or unit.id, ha="center", va="center",
                        fontsize=font * 0.85, color="#ffffff", fontweight="bold", zorder=6, gid=unit_gid(unit),
                        bbox={"boxstyle": "round,pad=0.15", "facecolor": palette.get(unit.owner, "#000000"),
                              "edgecolor": "none"})
            if len(units) > len(shown):
                ax.text(x, y - 0.05 - 0.22 * len(shown), f"+{len(units) - len(shown)}", ha="center",
                        va="center", fontsize=font * 0.8, zorder=6)
                _marks(ax, [(x, y)] * (len(units) - len(shown)), units[len(shown):], palette, 0.0)
        return
    points, units = [], []
    for place, there in here.items():
        x, y = where[place]
        for i, unit in enumerate(there):
            points.append((x - 0.3 + 0.2 * (i % 4), y - 0.1 - 0.2 * (i // 4)))
            units.append(unit)
    _marks(ax, points, units, palette, 1.0)


def _marks(ax: Any, points: list[tuple[float, float]], units: list[Any], palette: dict[str, str],
           alpha: float) -> None:
    if not points:
        return
    marks = ax.scatter([p[0] for p in points], [p[1] for p in points], s=22, marker="s", zorder=6, alpha=alpha,
                       c=[palette.get(u.owner, "#000000") for u in units], edgecolors="#000000", linewidths=0.4)
    marks.set_urls([f"#{unit_gid(u)}" for u in units])


def _draw_arrows(ax: Any, view: MapView, where: dict[str, tuple[float, float]], palette: dict[str, str]) -> None:
    """Each step of each move as an arrow in its faction's colour (a step drawn once, however many moved);
    many steps are drawn as one quiver, which costs the same for ten arrows or ten thousand."""
    from matplotlib.patches import FancyArrowPatch

    steps = sorted({(arrow.owner, a, b) for arrow in view.arrows
                    for a, b in zip(arrow.path, arrow.path[1:], strict=False) if a in where and b in where and a != b})
    if len(steps) <= ARROWS:
        for owner, a, b in steps:
            ax.add_patch(FancyArrowPatch(where[a], where[b], arrowstyle="-|>", mutation_scale=9, linewidth=1.4,
                                         color=palette.get(owner, "#000000"), zorder=5, shrinkA=6, shrinkB=6,
                                         gid=f"arrow:{owner}:{a}-{b}"))
        return
    if steps:
        xs = [where[a][0] for _, a, _ in steps]
        ys = [where[a][1] for _, a, _ in steps]
        us = [(where[b][0] - where[a][0]) * 0.85 for _, a, b in steps]
        vs = [(where[b][1] - where[a][1]) * 0.85 for _, a, b in steps]
        ax.quiver(xs, ys, us, vs, color=[palette.get(o, "#000000") for o, _, _ in steps], angles="xy",
                  scale_units="xy", scale=1, width=0.003, zorder=5)


def _grid_image(ax: Any, places: list[Any], where: dict[str, tuple[float, float]], fills: list[str]) -> None:
    """A large grid as one picture of its squares (one artist, not one path per square), with its lines (the
    disputed squares are hatched over it by :func:`_contents`, as every map's areas are)."""
    import numpy as np
    from matplotlib.colors import to_rgba

    xs = sorted({int(where[p.id][0]) for p in places})
    ys = sorted({int(where[p.id][1]) for p in places})
    x0, y1 = xs[0], ys[-1]
    grid = np.ones((ys[-1] - ys[0] + 1, xs[-1] - x0 + 1, 4))
    for place, fill in zip(places, fills, strict=True):
        x, y = where[place.id]
        r, g, b, _ = to_rgba(fill)
        grid[y1 - int(y), int(x) - x0] = (1 - 0.55 * (1 - r), 1 - 0.55 * (1 - g), 1 - 0.55 * (1 - b), 1.0)
    ax.imshow(grid, extent=(x0 - 0.5, xs[-1] + 0.5, ys[0] - 0.5, y1 + 0.5), interpolation="nearest", zorder=2,
              aspect="equal")
    ax.vlines([x - 0.5 for x in range(x0, xs[-1] + 2)], ys[0] - 0.5, y1 + 0.5, colors="#999999", linewidths=0.5,
              zorder=2)
    ax.hlines([y - 0.5 for y in range(ys[0], y1 + 2)], x0 - 0.5, xs[-1] + 0.5, colors="#999999", linewidths=0.5,
              zorder=2)


def _areas_by_colour(ax: Any, view: MapView, places: list[Any], where: dict[str, tuple[float, float]],
                     fills: list[str]) -> None:
    """A large map's areas (hexes) as one path for each colour, not one path for each area: matplotlib spends
    as much on an area as on a path (its SVG writer most), and a map of thousands of hexes took about a fifth of
    a turn. Seen by a reader, the same picture: each hex in its colour at 55 % over white with a thin grey
    edge (``tests/core/test_maps_hex_areas.py`` compares the pixels; :func:`_contents` hatches the disputed
    ones over them)."""
    import numpy as np
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path as Outline

    # every outline at once (the same corners as outline() gives: each a centre plus the same offset)
    outlines = np.array([where[p.id] for p in places])[:, None, :] + np.array(corners(view.layout))[None, :, :]
    by_colour: dict[str, list[int]] = defaultdict(list)
    for number, fill in enumerate(fills):
        by_colour[fill].append(number)
    # add_artist, not add_patch: the axes' limits are set (add_patch would walk every segment of every path)
    for fill in sorted(by_colour):
        ax.add_artist(PathPatch(Outline.make_compound_path_from_polys(outlines[by_colour[fill]]), facecolor=fill,
                                edgecolor="#999999", linewidth=0.5, alpha=0.55, zorder=2))


def _blended(fill: str) -> tuple[float, float, float, float]:
    """A square's colour as the grid's picture shows it: its fill over white, at 55 %."""
    from matplotlib.colors import to_rgba

    r, g, b, _ = to_rgba(fill)
    return (1 - 0.55 * (1 - r), 1 - 0.55 * (1 - g), 1 - 0.55 * (1 - b), 1.0)


class SharedGrid:
    """One figure for every reader of a large grid (the same squares at the same places): its frame, axes,
    grid lines and the picture of its squares are made once; each reader's map sets the colours of the
    squares it knows the holder of (every other square is drawn as the base has it, "holder unknown"),
    adds its own units, moves, battles, title and legend, is saved, and has them taken away again.
    The pictures are the same, byte for byte, as a figure drawn afresh for each reader
    (``tests/core/test_maps_shared.py``)."""

    _last: SharedGrid | None = None  # the grid of the last map drawn (a turn draws one grid for every reader)

    def __init__(self, view: MapView, key: tuple[Any, ...]) -> None:
        import numpy as np

        from adjudicator.outputs.maps.squares import resample_once

        self.key = key
        self.figure, self.ax, self.where, self.scale = _frame(view)
        places = sorted(view.places, key=lambda p: p.id)
        xs = sorted({int(self.where[p.id][0]) for p in places})
        ys = sorted({int(self.where[p.id][1]) for p in places})
        x0, y1 = xs[0], ys[-1]
        self.cell = {p.id: (y1 - int(self.where[p.id][1]), int(self.where[p.id][0]) - x0) for p in places}
        self.base = np.ones((ys[-1] - ys[0] + 1, xs[-1] - x0 + 1, 4))
        unknown = _blended(UNKNOWN)
        for row, col in self.cell.values():
            self.base[row, col] = unknown
        self.colours: dict[str, tuple[float, float, float, float]] = {UNKNOWN: unknown}
        self.image = self.ax.imshow(self.base.copy(), extent=(x0 - 0.5, xs[-1] + 0.5, ys[0] - 0.5, y1 + 0.5),
                                    interpolation="nearest", zorder=2, aspect="equal")
        resample_once(self.image)  # the same pixels, the squares found once per resolution, not per reader
        self.ax.vlines([x - 0.5 for x in range(x0, xs[-1] + 2)], ys[0] - 0.5, y1 + 0.5, colors="#999999",
                       linewidths=0.5, zorder=2)
        self.ax.hlines([y - 0.5 for y in range(ys[0], y1 + 2)], x0 - 0.5, xs[-1] + 0.5, colors="#999999",
                       linewidths=0.5, zorder=2)
        self.kept = len(self.ax._children)  # noqa: SLF001 - the shared artists, first among the axes' children

    @classmethod
    def of(cls, view: MapView) -> SharedGrid | None:
        """The shared figure of ``view``'s grid, when it is a large grid without links (else None)."""
        if view.layout is not Layout.GRID or len(view.places) <= LABELLED_PLACES or view.links:
            return None
        key = tuple(sorted((p.id, p.x, p.y) for p in view.places))
        if cls._last is None or cls._last.key != key:
            cls._last = cls(view, key)
        return cls._last

    def paint(self, places: list[Any], fills: list[str]) -> None:
        """The squares' colours for this reader: the base, with the squares whose fill is not the base's."""
        grid = self.base.copy()
        for place, fill in zip(places, fills, strict=True):
            if fill != UNKNOWN:
                colour = self.colours.get(fill)
                if colour is None:
                    colour = self.colours[fill] = _blended(fill)
                grid[self.cell[place.id]] = colour
        self.image.set_data(grid)

    def picture(self, view: MapView, lang: str, dpi: int) -> Picture:
        try:
            _contents(self.figure, self.ax, view, lang, self.where, self.scale, self)
            return _save(self.figure, dpi)
        finally:
            self._clear()

    def _clear(self) -> None:
        """Take away everything of the last reader: what it added to the axes, its legend."""
        for artist in self.ax._children[self.kept:]:  # noqa: SLF001
            artist.remove()
        title = self.figure._suptitle  # noqa: SLF001 - kept, its words set again by the next reader
        for text in [t for t in self.figure.texts if t is not title]:
            text.remove()
        del self.figure.patches[:]


#: A legend's line (inches) and font (points); shrunk together down to LEGEND_SMALLEST points when its entries do
#: not fit the figure's height, and beyond that the factions set in columns (a GM's map lists every faction).
LEGEND_LINE = 0.2
LEGEND_FONT = 8.0
LEGEND_SMALLEST = 5.5
LEGEND_WIDTH = 2.5  # inches: the strip at the right of the map (_frame leaves 2.6)


def legend_grid(factions: int, signs: int, height: float) -> tuple[float, int, int]:
    """How a legend of ``factions`` and ``signs`` (the other entries) is set on a figure ``height`` inches high:
    (the scale of its lines and font, the columns of its factions, the lines of a column). Its title takes the
    top 0.35 inch; 0.15 inch is left at the bottom. In one column, every entry in turn; in several, the signs
    first, each on a line of its own, then the factions in columns."""
    entries = factions + signs
    room = max(height - 0.35 - 0.15, LEGEND_LINE)
    scale = min(1.0, room / (max(entries, 1) * LEGEND_LINE))
    if scale * LEGEND_FONT >= LEGEND_SMALLEST:
        return scale, 1, max(entries, 1)
    scale = LEGEND_SMALLEST / LEGEND_FONT
    lines = max(int(room // (LEGEND_LINE * scale)) - signs, 1)
    columns = math.ceil(factions / lines)
    return scale, columns, math.ceil(factions / columns)


def _legend(figure: Any, factions: list[tuple[dict[str, Any], str]], signs: list[tuple[dict[str, Any], str]],
            title: str) -> None:
    """The legend in a strip at the right: a swatch and a text per entry, placed directly in figure
    coordinates (matplotlib's own legend lays itself out again at every draw, which costs more than the map).
    Entries that do not fit the figure's height are set smaller, then the factions in columns
    (:func:`legend_grid`), each name cut to its column's width (:func:`fitted`)."""
    width, height = figure.get_figwidth(), figure.get_figheight()
    scale, columns, lines = legend_grid(len(factions), len(signs), height)
    top = 1 - 0.35 / height
    figure.text(1 - LEGEND_WIDTH / width + 0.05 / width, top, title, fontsize=9, fontweight="bold", va="center")
    if columns == 1:
        places = [(0, line) for line in range(len(factions) + len(signs))]
        entries = factions + signs
    else:
        places = [(0, line) for line in range(len(signs))]
        places += [(i // lines, len(signs) + i % lines) for i in range(len(factions))]
        entries = signs + factions
    column_width = LEGEND_WIDTH / columns  # inches
    for (column, line), (style, label) in zip(places, entries, strict=True):
        full = columns == 1 or line < len(signs)
        _legend_entry(figure, style, label if full else fitted(label, column_width - 0.1 - 0.4 * scale,
                                                                    LEGEND_FONT * scale),
                      (0.05 + column * column_width, top * height - (line + 1) * LEGEND_LINE * scale), scale)


def _legend_entry(figure: Any, style: dict[str, Any], label: str, at: tuple[float, float], scale: float) -> None:
    """One entry of the legend: its swatch (or sign) and its text, at ``at`` inches from the strip's left and
    the figure's bottom."""
    from matplotlib.patches import FancyArrowPatch, Rectangle

    width, height = figure.get_figwidth(), figure.get_figheight()
    x, y = 1 - LEGEND_WIDTH / width + at[0] / width, at[1] / height
    swatch_w, swatch_h = 0.3 * scale / width, 0.12 * scale / height
    if style.get("arrow"):
        figure.patches.append(FancyArrowPatch((x, y), (x + swatch_w, y), arrowstyle="-|>", mutation_scale=8 * scale,
                                              color="#444444", transform=figure.transFigure))
    elif style.get("star"):
        figure.text(x + swatch_w / 2, y, "★", color="#ffd700", ha="center", va="center", fontsize=11 * scale)
    elif style.get("wormhole"):
        figure.text(x + swatch_w / 2, y, "◎", color="#6a3d9a", ha="center", va="center", fontsize=9 * scale)
    else:
        figure.patches.append(Rectangle((x, y - swatch_h / 2), swatch_w, swatch_h, linewidth=0.8,
                                        transform=figure.transFigure, **style))
    figure.text(x + swatch_w + 0.1 * scale / width, y, label, fontsize=LEGEND_FONT * scale, va="center")


def fitted(label: str, room: float, font: float) -> str:
    """``label`` cut to ``room`` inches at ``font`` points (a letter of DejaVu Sans about :data:`CHARACTER_EMS`
    of the font's size): its start and its end kept about "…", where names of one campaign differ most."""
    letters = max(int(room * 72 / (CHARACTER_EMS * font)), 3)
    if len(label) <= letters:
        return label
    head = (letters - 1) // 2
    return label[:head] + "…" + label[len(label) - (letters - 1 - head):]
