"""The GM input workbook is written by XlsxWriter (fast_save.py) and shows the GM what openpyxl's save showed:
the same cells, styles, dropdowns, protection, widths and heights (real workbooks written both ways and read
back), and the same bytes when written again."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from adjudicator.engine.registry import find_ruleset
from adjudicator.outputs import streamed, writing
from adjudicator.turn import gm_input, pipeline
from tests.core.test_writer_same_outputs import workbook_face
from tests.helpers import EVERY_RULESET_SLOW_BUT_ONE


@pytest.mark.parametrize("ruleset", EVERY_RULESET_SLOW_BUT_ONE)
def test_the_gm_input_looks_as_openpyxl_saved_it(ruleset: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "campaign"
    pipeline.new_campaign(find_ruleset(ruleset), root, example=True)
    for pending in sorted((root / "pending").rglob("gm_input.xlsx")):
        pending.unlink()  # the example's own answers: the turn asks again, every question blank
    written: list[tuple[Any, ...]] = []
    real = gm_input.write_gm_input
    monkeypatch.setattr(gm_input, "write_gm_input", lambda *args: written.append(args) or real(*args))
    asked = pipeline.run(root, stop_for_gm=True)
    assert asked.status == "waiting" and asked.gm_input is not None and len(written) == 1
    fast = tmp_path / "fast.xlsx"
    shutil.copyfile(asked.gm_input, fast)
    real(tmp_path / "again.xlsx", *written[0][1:])
    assert (tmp_path / "again.xlsx").read_bytes() == fast.read_bytes()
    # the request sheets are written from their rows (streamed.py): the very bytes of their openpyxl cells'
    with monkeypatch.context() as cells:
        cells.setattr(gm_input, "describe", streamed.fill_plain_table)
        real(tmp_path / "cells.xlsx", *written[0][1:])
    assert (tmp_path / "cells.xlsx").read_bytes() == fast.read_bytes()
    _identifiers_are_text(fast, find_ruleset(ruleset), written[0][4])
    monkeypatch.setattr(gm_input, "atomic_save_fast", writing.atomic_save)  # as it was saved before
    real(tmp_path / "openpyxl.xlsx", *written[0][1:])
    assert workbook_face(fast) == workbook_face(tmp_path / "openpyxl.xlsx")
    assert not (tmp_path / "openpyxl.xlsx").read_bytes() == fast.read_bytes()  # two writers, one face


def _identifiers_are_text(path: Path, ruleset: Any, lang: str) -> None:
    """Each text or choice column of every request sheet is formatted as text, the column and its cells, so that
    what the GM types there (a hex such as 0201) stays as typed."""
    import openpyxl
    from openpyxl.utils import get_column_letter

    from adjudicator.engine.sheets import Kind

    wb = openpyxl.load_workbook(path)
    seen = 0
    for schema in ruleset.gm_input_schemas:
        ws = wb[schema.title_in(lang)]
        for index, column in enumerate(schema.columns, start=1):
            if column.kind not in (Kind.TEXT, Kind.CHOICE):
                continue
            letter = get_column_letter(index)
            assert ws.column_dimensions[letter].number_format == "@", (ws.title, letter)
            assert all(ws.cell(row, index).number_format == "@" for row in range(2, ws.max_row + 1))
            seen += 1
    assert seen
