"""A faction's new tabs, written by XlsxWriter to be composed with the player's file at once, are written in
memory (fast_save.py's ``in_memory``, compose.py): no temporary file is made for their parts or their rows, and
the composed workbook is byte for byte the one their parts written through temporary files give. Real .xlsx
files written, composed and read back."""

from __future__ import annotations

import io
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from adjudicator.engine.ruleset import ReportTable
from adjudicator.outputs import compose, fast_save, streamed

WORDS = ["Flota", "кредиты", "línea\nsegunda", "a cause long enough to need more than the fifty characters of a column"]


def _tabs() -> list[tuple[str, streamed.Tab]]:
    """A results workbook's kinds of new tabs: a long table (written early, 16 rows at a time), a report, a tab of
    cells with links to another tab."""
    cells = streamed.Cells()
    for row in range(1, 30):
        cells.put(row, 1, f"Flota {row}", "es")
        cells.put(row, 2, WORDS[row % len(WORDS)], "es")
        if row % 7 == 0:
            cells.put(row, 3, "ver", "es")
            cells.links[(row, 3)] = f"'Informe T01'!A{row}"
    rows = [[n, WORDS[n % len(WORDS)], f"F{n % 4}", n / 3] for n in range(300)]
    return [("Resultado T01", streamed.Tab("table", "es", headers=["Turno", "Causa", "Flota", "Saldo"], rows=rows,
                                           widths=[8, 50, 10, 10], text_columns=[3])),
            ("Informe T01", streamed.Tab("report", "es", tables=[ReportTable("a", "Movimientos", ["Turno", "Causa"],
                                                                             rows[:40])])),
            ("Cambios T01", streamed.Tab("cells", "es", cells=cells))]


def _composed(player: Path, monkeypatch: pytest.MonkeyPatch, in_memory: bool) -> tuple[bytes, list[bytes], int]:
    """The composed results, the package of new tabs XlsxWriter wrote for them, and how many temporary files
    were made meanwhile; ``in_memory=False``: the new tabs written through temporary files, as before."""
    made = 0
    packages: list[bytes] = []
    save_fast, mkstemp, temporary_file = fast_save.save_fast, tempfile.mkstemp, tempfile.TemporaryFile

    def counted(maker: Any) -> Any:
        def make(*args: Any, **kwargs: Any) -> Any:
            nonlocal made
            made += 1
            return maker(*args, **kwargs)
        return make

    def saved(wb: Any, target: Any, *args: Any, **kwargs: Any) -> None:
        kwargs["in_memory"] = kwargs.get("in_memory", False) and in_memory
        save_fast(wb, target, *args, **kwargs)
        packages.append(target.getvalue())

    with monkeypatch.context() as patched:
        patched.setattr(fast_save, "save_fast", saved)
        patched.setattr(tempfile, "mkstemp", counted(mkstemp))
        patched.setattr(tempfile, "TemporaryFile", counted(temporary_file))
        wb = streamed.stream_new_tabs(openpyxl.Workbook())
        wb.active.title = "Mapa T01"
        wb.active["A1"] = "a sheet of openpyxl cells among the new tabs"
        for title, tab in _tabs():
            streamed.describe(wb.create_sheet(title), tab)
        composed = compose.ComposedCopy(player, [], lambda: None, first=False).bytes(wb)
    return composed, packages, made


def test_new_tabs_composed_in_memory_are_the_bytes_of_temporary_files(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from adjudicator.engine.registry import find_ruleset
    from adjudicator.turn import pipeline

    root = tmp_path / "campaign"
    pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
    player = sorted((root / "inbox").glob("*.xlsx"))[0]
    in_memory, (memory_package,), made_in_memory = _composed(player, monkeypatch, in_memory=True)
    on_disk, (disk_package,), made_on_disk = _composed(player, monkeypatch, in_memory=False)
    assert made_in_memory == 0
    assert made_on_disk > 10  # a file for each part of the package, and one for each tab's rows written early
    assert in_memory == on_disk
    with zipfile.ZipFile(io.BytesIO(memory_package)) as memory, zipfile.ZipFile(io.BytesIO(disk_package)) as disk:
        assert memory.namelist() == disk.namelist()
        assert all(memory.read(part) == disk.read(part) for part in memory.namelist())
    wb = openpyxl.load_workbook(io.BytesIO(in_memory))
    assert wb["Resultado T01"]["B3"].value == WORDS[1] and wb["Resultado T01"].max_row == 301
    assert wb["Cambios T01"]["C7"].hyperlink.location == "'Informe T01'!A7"
    assert wb["Informe T01"]["A1"].value == "Movimientos"
    assert set(openpyxl.load_workbook(player).sheetnames) <= set(wb.sheetnames)
