"""Indexes that keep the world's lookups independent of the map's size.

:class:`Fleets` is the ``(faction, square) → R`` dict of the world, which also keeps every square's fleets
(so "who is in C4" does not scan every fleet); :class:`Squares` is the ``id → Square`` dict, which also keeps
the squares by coordinates (so "the neighbours of C4" does not scan the map). Both stay plain dicts to read,
update their index on every write, and copy (``copy.deepcopy``) as the dicts they are; a copy of
:class:`Squares` shares its index until one of the two is written to.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

_MISSING: Any = object()


class Fleets(dict):
    """``(faction, square) → R``; ``at(square)`` gives ``{faction: R}`` in the order the fleets were added.

    A copy shares each square's fleets with its original until one of the two writes to that square (every
    faction's check copies the whole map's fleets: a copy costs a dict copy at C speed, not a loop)."""

    def __init__(self, items: Iterable[tuple[tuple[str, str], int]] | dict = ()) -> None:
        super().__init__()
        self._by_square: dict[str, dict[str, int]] = {}
        self._own: set[str] | None = None  # None: every square's dict is this object's; else those it owns
        self.update(items)

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.__class__, (dict(self),))

    def _here(self, square: str) -> dict[str, int]:
        """The fleets of ``square``, this object's own to write to."""
        if self._own is not None and square not in self._own:
            self._own.add(square)
            if square in self._by_square:
                self._by_square[square] = dict(self._by_square[square])
        return self._by_square.setdefault(square, {})

    def __setitem__(self, key: tuple[str, str], value: int) -> None:
        super().__setitem__(key, value)
        faction, square = key
        self._here(square)[faction] = value

    def __delitem__(self, key: tuple[str, str]) -> None:
        super().__delitem__(key)
        self._forget(key)

    def _forget(self, key: tuple[str, str]) -> None:
        faction, square = key
        if square in self._by_square:
            here = self._here(square)
            here.pop(faction, None)
            if not here:
                del self._by_square[square]

    def pop(self, key: tuple[str, str], default: Any = _MISSING) -> Any:
        if key in self:
            value = super().pop(key)
            self._forget(key)
            return value
        if default is _MISSING:
            raise KeyError(key)
        return default

    def popitem(self) -> tuple[tuple[str, str], int]:
        key, value = super().popitem()
        self._forget(key)
        return key, value

    def setdefault(self, key: tuple[str, str], default: int = 0) -> int:
        if key not in self:
            self[key] = default
        return self[key]

    def update(self, *others: Any, **named: Any) -> None:
        for other in others:
            for key, value in (other.items() if hasattr(other, "items") else other):
                self[key] = value
        for key, value in named.items():
            self[key] = value

    def clear(self) -> None:
        super().clear()
        self._by_square = {}
        self._own = None

    def copy(self) -> Fleets:
        new = Fleets()
        dict.update(new, self)  # the dict's own update: the index is shared below, not rebuilt
        new._by_square = dict(self._by_square)  # each square's fleets shared until written to
        new._own, self._own = set(), set()
        return new

    def at(self, square: str) -> dict[str, int]:
        """The fleets in ``square`` by faction (every value, zero included, as stored; read, never write)."""
        return self._by_square.get(square, {})


class Squares(dict):
    """``id → Square``; ``at(x, y)`` gives the ids of the squares at those coordinates."""

    def __init__(self, items: Iterable[tuple[str, Any]] | dict = ()) -> None:
        super().__init__()
        self._by_xy: dict[tuple[int, int], dict[str, None]] = {}
        self._shared = False  # the index is shared with a copy: made its own before a write
        self.update(items)

    def _own_index(self) -> None:
        if self._shared:
            self._by_xy = {xy: dict(here) for xy, here in self._by_xy.items()}
            self._shared = False

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.__class__, (dict(self),))

    def __setitem__(self, key: str, square: Any) -> None:
        self._own_index()
        if key in self:
            self._forget(key)
        super().__setitem__(key, square)
        self._by_xy.setdefault((square.x, square.y), {})[key] = None

    def __delitem__(self, key: str) -> None:
        self._forget(key)
        super().__delitem__(key)

    def _forget(self, key: str) -> None:
        self._own_index()
        old = self[key]
        here = self._by_xy.get((old.x, old.y))
        if here is not None:
            here.pop(key, None)
            if not here:
                del self._by_xy[(old.x, old.y)]

    def pop(self, key: str, default: Any = _MISSING) -> Any:
        if key in self:
            self._forget(key)
            return super().pop(key)
        if default is _MISSING:
            raise KeyError(key)
        return default

    def popitem(self) -> tuple[str, Any]:
        key = next(reversed(self))
        return key, self.pop(key)

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def update(self, *others: Any, **named: Any) -> None:
        for other in others:
            for key, value in (other.items() if hasattr(other, "items") else other):
                self[key] = value
        for key, value in named.items():
            self[key] = value

    def clear(self) -> None:
        super().clear()
        self._by_xy = {}
        self._shared = False

    def copy(self) -> Squares:
        """A copy at C speed: the squares' index is shared until either of them is written to (a faction's world
        is copied from the turn's snapshot for every faction checked, and nothing writes to its squares)."""
        new = Squares()
        dict.update(new, self)
        new._by_xy = self._by_xy
        new._shared = self._shared = True
        return new

    def at(self, x: int, y: int) -> Iterator[str]:
        return iter(self._by_xy.get((x, y), ()))
