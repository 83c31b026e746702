"""What the rulesets' worlds share: a deep copy of plain data made fast, and a world built once for the very
same state tables."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping
from decimal import Decimal
from functools import cache
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from adjudicator.quiet_collector import collector_paused

if TYPE_CHECKING:
    import pandas as pd

T = TypeVar("T")


class BuiltOnce(Generic[T]):
    """``build(tables, *also)``, kept for as long as the very same tables and tables' rows (as kept, see
    :func:`~adjudicator.engine.row_table.table_rows`: no frame made to compare) and the very same, equal ``also``
    values are asked about: a check asks for the world of the campaign for every faction. What it gives is
    SHARED: read it, or copy it before changing anything. The rows are held, so an identity match cannot be new
    rows at a freed address; the state tables are never changed in place once loaded."""

    def __init__(self, build: Callable[..., T]) -> None:
        self.build = build
        self.held: tuple[dict[str, pd.DataFrame], tuple[tuple[str, pd.DataFrame], ...], tuple[Any, ...],
                         tuple[Any, ...], T] | None = None

    def __call__(self, tables: Mapping[str, pd.DataFrame], *also: Any) -> T:
        from adjudicator.engine.row_table import table_rows

        frames = tuple((name, table_rows(tables, name)) for name in tables)  # as kept: no frame made
        if self.held is not None:
            held, held_frames, held_also, equal_also, built = self.held
            if (held is tables and len(held_frames) == len(frames)
                    and all(name == other and frame is same
                            for (name, frame), (other, same) in zip(frames, held_frames, strict=True))
                    and len(held_also) == len(also)
                    and all(a is b for a, b in zip(also, held_also, strict=True)) and also == equal_also):
                return built
        built = self.build(tables, *also)
        self.held = (tables, frames, also, copy.deepcopy(also), built)
        return built


_PLAIN = (str, int, float, bool, Decimal, type(None))
_PLAIN_TYPES = frozenset(_PLAIN)
#: Whether a type is a record (:func:`_is_record`), by type, as asked.
_RECORDS: dict[type, bool] = {}
_new = object.__new__


def plain_copy(value: Any) -> Any:
    """A deep copy of the plain data a ruleset's world is made of (dicts, lists, sets, tuples, dataclasses of
    such): equal to ``copy.deepcopy``'s, made without its bookkeeping (a check copies the world for every
    faction). Anything else goes through ``copy.deepcopy``. Dispatched on the exact type first (a world holds
    thousands of values, most of them plain or a dataclass of plain fields). Unlike deepcopy, an object met
    twice is copied twice: a world holds none twice.

    Python's cycle collector is held off while the copy is made: the tens of thousands of objects a world is
    made of set it off again and again, and each time it walks every object alive (40 races' galaxy: 74 ms a
    copy, 48 without). A copy of plain data makes no cycle for it to find; it runs again as soon as the copy
    is made."""
    with collector_paused():
        return _copied(value)


def _copied(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN_TYPES:
        return value
    if kind is dict:
        return _copied_dict(value)
    if kind is list:
        return [_copied(v) for v in value]
    if kind is tuple or kind is set:
        return kind([_copied(v) for v in value])
    record = _RECORDS.get(kind)
    if record is None:
        record = _is_record(kind)
    if record:
        twin = _new(kind)
        fields = value.__dict__
        if _PLAIN_TYPES.issuperset(map(type, fields.values())):  # most records: their fields as they are
            twin.__dict__.update(fields)
        else:
            twin.__dict__.update({name: item if type(item) in _PLAIN_TYPES else _copied(item)
                                  for name, item in fields.items()})
        return twin
    return _copied_other(value)


def _copied_dict(value: dict[Any, Any]) -> dict[Any, Any]:
    """:func:`_copied` of a dict: its plain values as they are, and its records of plain fields (a world's
    thousands of regiments, systems, factories) copied here, without a call each (a third of a copy's time)."""
    out = {}
    plain, records, all_plain = _PLAIN_TYPES, _RECORDS, _PLAIN_TYPES.issuperset
    for key, item in value.items():
        kind = type(item)
        if kind in plain:
            out[key] = item
        elif records.get(kind) and all_plain(map(type, (fields := item.__dict__).values())):
            twin = out[key] = _new(kind)
            twin.__dict__.update(fields)  # not assigned: a frozen record refuses it
        else:
            out[key] = _copied(item)
    return out


def _copied_other(value: Any) -> Any:
    """:func:`_copied` of a value that is not of a plain type exactly (a subclass, a set, a tuple, a dataclass
    with slots or its own copy rules)."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    if isinstance(value, (set, frozenset, tuple)):
        return type(value)(_copied(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        twin = copy.copy(value)
        for name in _field_names(type(value)):
            item = getattr(value, name)
            if not isinstance(item, _PLAIN):
                setattr(twin, name, _copied(item))
        return twin
    return copy.deepcopy(value)


def _is_record(cls: type) -> bool:
    """A dataclass of a world's kind: its fields in its ``__dict__`` and nothing else there, copied by
    ``copy.copy`` as a new instance with the same ``__dict__`` (no slots, no copy or pickle hooks of its own).
    Kept in :data:`_RECORDS` once asked."""
    found = _RECORDS[cls] = (
        dataclasses.is_dataclass(cls) and "__slots__" not in cls.__dict__
        and all(getattr(cls, hook, None) is getattr(object, hook, None)
                for hook in ("__copy__", "__deepcopy__", "__getstate__", "__setstate__", "__reduce_ex__",
                             "__reduce__")))
    return found


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))
