"""Helpers shared by the tests of this folder."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import openpyxl

from tests.helpers import example_data


def every_text(path: Path) -> list[str]:
    """Every piece of text a player could dig out of the workbook: cells of all sheets (hidden ones
    too), comments, defined names, document properties."""
    book = openpyxl.load_workbook(path)
    texts: list[str] = []
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if cell.value is not None:
                    texts.append(str(cell.value))
                if cell.comment is not None:
                    texts.append(cell.comment.text)
    texts += [f"{name}={dn.attr_text}" for name, dn in book.defined_names.items()]
    props: Any = book.properties
    texts += [str(getattr(props, a)) for a in ("creator", "title", "subject", "description", "keywords",
                                                "category", "lastModifiedBy") if getattr(props, a)]
    return texts


def private_facts(faction: str, langs: tuple[str, ...] = ("en", "es", "ru")) -> list[str]:
    """What only ``faction`` (and the GM) know: its order references (as a reader in ``langs`` sees them), its
    research requests, its moves."""
    from adjudicator.engine.registry import find_ruleset
    from adjudicator.i18n import render, ruleset_catalog
    from adjudicator.outputs.references import shown_reference

    data = example_data()
    orders = data["orders"][faction]["orders"]
    with ruleset_catalog(find_ruleset("star_sectors").locale()):  # a reference in the example's ruleset's words
        facts = sorted({render(shown_reference(f"{faction}:{row['order']}:row 2"), lang).rsplit(",", 1)[0] + ","
                        for row in orders if row["order"] == "BUILD" for lang in langs})  # "BORYA, СТРОИТЬ,"
    for row in orders:
        if row["order"] == "FEASIBILITY":
            facts.append(row["description"])
        if row["order"] == "MOVE":
            facts.append(f"{row['square']}→{row['to']}")
    facts += [p["description"] for p in data["tables"]["projects"] if p["faction"] == faction]
    return facts


def svg_ids(path: Path) -> set[str]:
    """The units marked in an SVG map: a labelled unit's id, or the link of a unit's mark."""
    return set(re.findall(r'(?:id|xlink:href)="#?(unit:[^"]+)"', path.read_text(encoding="utf-8")))


def saved_with_tab(tab: Any, title: str) -> bytes:
    """An .xlsx (save_fast) holding a sheet of openpyxl cells, then the streamed ``tab`` named ``title``."""
    from adjudicator.outputs import streamed
    from adjudicator.outputs.fast_save import save_fast

    wb = streamed.stream_new_tabs(openpyxl.Workbook())
    wb.active.title = "Settings"
    wb.active["A1"] = "a sheet of openpyxl cells before the tab"
    streamed.describe(wb.create_sheet(title), tab)
    out = io.BytesIO()
    save_fast(wb, out)
    return out.getvalue()
