"""The order checks made cheaper without changing what they find (issue 16): inner_sphere's world copied by
exact type, its start world shared as the check's snapshot, the engine's rows of a kind found by lookup."""

from __future__ import annotations

import copy
import shutil
from dataclasses import dataclass
from pathlib import Path

from adjudicator.engine import plain_copy
from adjudicator.engine.orders import _by_kind
from adjudicator.paths import examples_root
from adjudicator.rulesets.inner_sphere import state
from adjudicator.turn.pipeline import check, open_campaign


def _objects(value: object) -> list[object]:
    """Every container and dataclass inside a world (what a copy must not share)."""
    found = [value]
    if isinstance(value, dict):
        for item in value.values():
            found += _objects(item)
    elif isinstance(value, (list, set, tuple)):
        for item in value:
            found += _objects(item)
    elif hasattr(value, "__dict__"):
        for item in vars(value).values():
            found += _objects(item)
    return [v for v in found if not isinstance(v, plain_copy._PLAIN)]  # noqa: SLF001


def test_world_copy_equals_deepcopy_and_shares_nothing_mutable(tmp_path: Path) -> None:
    _, campaign, _ = open_campaign(examples_root() / "inner_sphere")
    world = state.world_from_tables(campaign.tables)
    world.unrest["0101"] = state.Unrest(civil=True)
    twin = world.copy()
    assert twin == copy.deepcopy(world)
    assert {id(o) for o in _objects(twin)}.isdisjoint(id(o) for o in _objects(world) if not isinstance(o, tuple))
    next(iter(twin.regiments.values())).damaged = not next(iter(world.regiments.values())).damaged
    assert twin != world


def test_a_check_leaves_the_shared_start_world_as_the_tables_say(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("ADJUDICATOR_WORKERS", "1")  # the check in this process, where the start world is held
    state._START.held = None  # noqa: SLF001
    root = tmp_path / "campaign"
    shutil.copytree(examples_root() / "inner_sphere", root)
    check(root)
    held = state._START.held  # noqa: SLF001 - the start world the check shared with every faction
    assert held is not None and held[-1] == state.world_from_tables(held[0])


def test_rows_by_kind_keep_sheet_order_and_refuse_unhashable_cells() -> None:
    rows = [(2, {"kind": "A"}), (3, {"kind": "B"}), (4, {"kind": "A"}), (5, {"kind": None})]
    kinds = _by_kind(rows, "kind")
    assert kinds is not None and [n for n, _ in kinds["A"]] == [2, 4] and [n for n, _ in kinds[None]] == [5]
    assert _by_kind([*rows, (6, {"kind": ["A"]})], "kind") is None


class _Refuses:
    """A value plain_copy hands to copy.deepcopy, which fails on it."""

    def __deepcopy__(self, memo: object) -> object:
        raise RuntimeError("not copied")


def test_plain_copy_holds_the_cycle_collector_off_only_while_it_copies() -> None:
    import gc

    import pytest

    seen: list[bool] = []

    class Watched:
        def __deepcopy__(self, memo: object) -> object:
            seen.append(gc.isenabled())
            return self

    assert gc.isenabled()
    assert plain_copy.plain_copy({"a": [1, Watched()]})["a"][0] == 1
    assert seen == [False] and gc.isenabled()  # off inside, on again after
    with pytest.raises(RuntimeError):
        plain_copy.plain_copy([_Refuses()])
    assert gc.isenabled()  # on again after a copy that failed
    gc.disable()
    try:
        plain_copy.plain_copy({"a": Watched()})
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()


@dataclass(frozen=True)
class _Fixed:
    a: int
    b: str


@dataclass
class _Loose:
    a: int
    items: list[object]


def test_plain_copy_copies_the_records_of_a_dict_frozen_ones_too() -> None:
    value = {"x": _Fixed(1, "b"), "y": _Loose(2, [_Fixed(3, "c")]), "z": [_Loose(4, [])], "n": None,
             "w": _Fixed(5, "d"), "v": _Loose(6, [])}  # a kind met again in a dict: copied there, not by a call
    twin = plain_copy.plain_copy(value)
    assert twin == value == copy.deepcopy(value)
    assert twin["x"] is not value["x"] and twin["w"] is not value["w"] and twin["v"] is not value["v"]
    assert twin["x"] is not value["x"] and twin["y"] is not value["y"] and twin["z"][0] is not value["z"][0]
    assert twin["y"].items is not value["y"].items and twin["y"].items[0] is not value["y"].items[0]
    twin["y"].items.append(5)
    assert value["y"].items == [_Fixed(3, "c")]
