"""Where each place of a map is drawn, and its outline: squares of a grid, XXYY hexes, or a graph laid out
by networkx when the places have no coordinates."""

from __future__ import annotations

import functools
import math

from adjudicator.outputs.maps.view import Layout, MapView

SQRT3 = math.sqrt(3)


def positions(view: MapView) -> dict[str, tuple[float, float]]:
    """The centre of every place, in drawing units (y grows upwards)."""
    if view.layout is Layout.GRID:
        return {p.id: (float(p.x or 0), -float(p.y or 0)) for p in view.places}
    if view.layout is Layout.HEX:
        return {p.id: hex_centre(int(p.x or 0), int(p.y or 0)) for p in view.places}
    return graph_positions(view)


def hex_centre(col: int, row: int) -> tuple[float, float]:
    """Flat-topped hexes of radius 1 (corner to centre); odd columns half a hex lower (odd-q)."""
    x = 1.5 * col
    y = -SQRT3 * (row + (0.5 if col % 2 else 0.0))
    return x, y


def outline(view: MapView, centre: tuple[float, float]) -> list[tuple[float, float]]:
    """The corners of a place's outline (a graph's nodes are drawn as circles: no outline)."""
    x, y = centre
    return [(x + dx, y + dy) for dx, dy in corners(view.layout)]


def corners(layout: Layout) -> tuple[tuple[float, float], ...]:
    """Where the corners of an outline are from its centre: a grid's unit square, or a hex of radius 0.98."""
    return _SQUARE if layout is Layout.GRID else _HEX


_SQUARE = ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5))
_HEX = tuple((0.98 * math.cos(math.pi / 3 * k), 0.98 * math.sin(math.pi / 3 * k)) for k in range(6))


def graph_positions(view: MapView) -> dict[str, tuple[float, float]]:
    """Places with coordinates keep them; otherwise a seeded spring layout of the links (same every run)."""
    if view.places and all(p.x is not None and p.y is not None for p in view.places):
        return {p.id: (float(p.x), -float(p.y)) for p in view.places}  # type: ignore[arg-type]
    nodes = tuple(sorted(p.id for p in view.places))
    edges = tuple(sorted((min(k.a, k.b), max(k.a, k.b)) for k in view.links if k.kind == "lane"))
    return dict(_spring_layout(nodes, edges))


@functools.lru_cache(maxsize=4)
def _spring_layout(nodes: tuple[str, ...], edges: tuple[tuple[str, str], ...]) -> tuple[tuple[str, tuple[float, float]],
                                                                                      ...]:
    """The layout of a graph, worked out once for every reader of a turn's map who sees the same places and
    lanes (most see them all: a turn's dozens of maps laid out the galaxy again each, a fifth of drawing them)."""
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    laid = nx.spring_layout(graph, seed=1, iterations=200)
    scale = max(2.0, math.sqrt(graph.number_of_nodes()) * 1.6)
    return tuple((node, (round(float(xy[0]) * scale, 6), round(float(xy[1]) * scale, 6))) for node, xy in laid.items())
