"""The example rows a faction's Instructions sheet shows are orders that faction could send (issue 10).

As a player would: every faction's order workbook of every bundled example is opened, the rows under each
"Examples" heading of its Instructions sheet are copied into the order sheet with the same headers, the
workbook is saved and sent to `check`. No copied example may be refused, but for the order types that
the faction cannot give this turn at all (Coordinated Orders: the active player's orders and the reactive
player's AROs), whose example still shows the sheet's form.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from adjudicator.engine.registry import installed
from adjudicator.i18n import gettext_in
from adjudicator.turn import pipeline

#: Refusals that say the order type is not the faction's to give this turn, whatever its rows hold.
NOT_THIS_TURN = {("coordinated_orders", "V01"), ("coordinated_orders", "A03")}


def _order_sheets(wb: Any) -> dict[str, list[Any]]:
    """Each visible order sheet's header row, by sheet name (the Instructions sheet is the first)."""
    return {ws.title: [c.value for c in ws[1]] for ws in wb.worksheets[1:]
            if ws.sheet_state == "visible" and ws.cell(1, 1).value}


def copy_examples(path: Path, target: Path, lang: str) -> int:
    """The examples shown on ``path``'s Instructions sheet copied into its order sheets, saved as ``target``;
    how many rows were copied. An example table is a header row made of an order sheet's headers, under the
    label "Examples" in the reader's language."""
    wb = openpyxl.load_workbook(path)
    sheets = _order_sheets(wb)
    rows = [list(r) for r in wb.worksheets[0].iter_rows(values_only=True)]
    examples = gettext_in(lang, "Examples")
    copied, i = 0, 1
    while i < len(rows):
        filled = [v for v in rows[i] if v not in (None, "")]
        label_above = [v for v in rows[i - 1] if v not in (None, "")] == [examples]
        target_sheet = next((name for name, headers in sheets.items()
                             if label_above and filled and rows[i][0] == headers[0] and set(filled) <= set(headers)),
                            None)
        i += 1
        if target_sheet is None:
            continue
        header, ws = rows[i - 1], wb[target_sheet]
        column_of = {h: j + 1 for j, h in enumerate(sheets[target_sheet]) if h}
        out = 2
        while i < len(rows) and any(v not in (None, "") for v in rows[i]) and rows[i][0] not in sheets:
            for name, value in zip(header, rows[i], strict=False):
                if name in column_of and value not in (None, ""):
                    ws.cell(out, column_of[name], value)
            out, copied, i = out + 1, copied + 1, i + 1
    wb.save(target)
    return copied


@pytest.mark.parametrize("name", sorted(installed()))
def test_every_example_shown_is_an_order_the_faction_could_send(name: str, tmp_path: Path) -> None:
    root = tmp_path / name
    pipeline.new_campaign(installed()[name], root, example=True)
    for sent in (root / "inbox").iterdir():
        sent.unlink()
    templates = pipeline.make_templates(root)
    campaign = pipeline.open_campaign(root)[1]
    assert templates
    for path in templates:
        lang = campaign.factions[path.stem].language
        assert copy_examples(path, root / "inbox" / path.name, lang) >= 1, path.name
    outcome = pipeline.check(root)
    assert len(outcome.submissions) == len(templates)
    refused = [(s.name, p.code, p.sheet, p.cell, str(p.message)) for s in outcome.submissions for p in s.problems
               if p.is_error and (name, p.code) not in NOT_THIS_TURN]
    assert not refused, refused
