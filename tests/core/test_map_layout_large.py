"""A galaxy of 500 systems or more is laid out too: networkx solves its layout with scipy's sparse arrays
from 500 places on (a large galactic_war galaxy once stopped the turn with ModuleNotFoundError)."""

from __future__ import annotations

import math

import pytest

from adjudicator.outputs.maps.layouts import graph_positions
from adjudicator.outputs.maps.view import Layout, Link, MapView, Place


@pytest.mark.parametrize("places", [499, 520])
def test_a_graph_of_any_size_is_laid_out_the_same_every_run(places: int) -> None:
    ids = [str(n) for n in range(1, places + 1)]
    links = [Link(a, b) for a, b in zip(ids, ids[1:], strict=False)]  # a chain of lanes
    links += [Link(ids[n], ids[n + 20]) for n in range(0, places - 20, 7)]  # and some across
    view = MapView(Layout.GRAPH, "GM", 1, ("A",), [Place(i) for i in ids], links)
    laid = graph_positions(view)
    assert sorted(laid) == sorted(ids)
    assert all(math.isfinite(x) and math.isfinite(y) for x, y in laid.values())
    assert len(set(laid.values())) == places  # no two places drawn at one spot
    assert graph_positions(view) == laid  # seeded: the same map every run
