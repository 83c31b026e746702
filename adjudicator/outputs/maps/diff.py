"""What a reprocessed turn changed in the results already produced, faction by faction: the changed
cells of each result workbook (sheet, cell, before, after) and whether its map picture changed."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.i18n import Msg, msg

Cells = dict[str, dict[str, Any]]  # sheet -> cell -> value


@dataclass
class FactionDiff:
    faction: str
    cells: list[tuple[str, str, Any, Any]] = field(default_factory=list)  # sheet, cell, before, after
    map_changed: bool = False

    @property
    def empty(self) -> bool:
        return not self.cells and not self.map_changed


@dataclass(frozen=True)
class Snapshot:
    workbooks: dict[str, Cells]
    maps: dict[str, str]


def snapshot(results: Path) -> Snapshot:
    """The cell values of every result workbook in ``results`` and the hash of every map picture."""
    import openpyxl

    books: dict[str, Cells] = {}
    maps: dict[str, str] = {}
    if not results.is_dir():
        return Snapshot(books, maps)
    for path in sorted(results.glob("*.xlsx")):
        wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
        try:
            books[path.stem] = {
                ws.title: {cell.coordinate: cell.value for row in ws.iter_rows() for cell in row
                           if getattr(cell, "value", None) is not None}
                for ws in wb.worksheets
            }
        finally:
            wb.close()
    for path in sorted(results.glob("*.map.png")):
        maps[path.name.split(".")[0]] = hashlib.sha256(path.read_bytes()).hexdigest()
    return Snapshot(books, maps)


def compare(before: Snapshot, after: Snapshot) -> list[FactionDiff]:
    diffs = []
    for faction in sorted(set(before.workbooks) | set(after.workbooks)):
        diff = FactionDiff(faction, map_changed=before.maps.get(faction) != after.maps.get(faction))
        old, new = before.workbooks.get(faction, {}), after.workbooks.get(faction, {})
        for sheet in sorted(set(old) | set(new)):
            a, b = old.get(sheet, {}), new.get(sheet, {})
            for cell in sorted(set(a) | set(b), key=_cell_order):
                if a.get(cell) != b.get(cell):
                    diff.cells.append((sheet, cell, a.get(cell), b.get(cell)))
        diffs.append(diff)
    return diffs


def _cell_order(ref: str) -> tuple[int, str]:
    letters = "".join(ch for ch in ref if ch.isalpha())
    digits = "".join(ch for ch in ref if ch.isdigit())
    return int(digits or 0), letters.rjust(3)


def lines(diffs: list[FactionDiff]) -> list[Msg]:
    """The diff as messages for the GM: one line per faction, then one per changed cell."""
    out: list[Msg] = []
    for diff in diffs:
        if diff.empty:
            out.append(msg("{faction}: nothing changed.", faction=diff.faction))
            continue
        out.append(msg("{faction}: {count} changed cells.", faction=diff.faction, count=len(diff.cells)))
        if diff.map_changed:
            out.append(msg("  the map changed"))
        for sheet, cell, a, b in diff.cells:
            out.append(msg("  {sheet}!{cell}: {before} → {after}", sheet=sheet, cell=cell, before=_show(a),
                           after=_show(b)))
    return out


def _show(value: Any) -> str:
    return "∅" if value is None else repr(value) if isinstance(value, str) else str(value)


def write(diffs: list[FactionDiff], target: Path, lang: str) -> Path:
    from adjudicator.outputs.writing import atomic_write_text

    atomic_write_text(target, "\n".join(m.render(lang) for m in lines(diffs)) + "\n")
    return target
