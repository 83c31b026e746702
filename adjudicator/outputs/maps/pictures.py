"""Pictures of the maps, charts and Changes tabs for the docs, from each ruleset's bundled example:

    python -m adjudicator.outputs.maps.pictures docs/images        (or: make map-pictures)

Of each example's first faction whose Changes tab lists something (alphabetically): its map as drawn
(``<ruleset>-map.png``), for every ruleset with a map; its Changes tab and History chart as LibreOffice
prints them (``<ruleset>-changes.png``, ``<ruleset>-chart.png``)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from adjudicator.engine.registry import installed
from adjudicator.i18n import msg
from adjudicator.outputs.libreoffice import convert
from adjudicator.outputs.pictures import crop, only_sheet, tools
from adjudicator.turn import pipeline


def pictures(out: Path, names: list[str] | None = None) -> list[Path]:
    soffice, _, _ = tools()
    out.mkdir(parents=True, exist_ok=True)
    made = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        sheets: list[tuple[Path, Path]] = []  # (workbook with the one sheet, picture)
        for name, ruleset in installed().items():
            if (names and name not in names) or not (ruleset.example_dir() / "campaign.xlsx").exists():
                continue
            root = work / name
            pipeline.new_campaign(ruleset, root, example=True)
            outcome = pipeline.run(root)
            if outcome.status != "resolved" or outcome.turn_dir is None:
                continue
            faction = _showing_changes(outcome)
            lang = outcome.campaign.factions[faction].language
            drawn = outcome.turn_dir / "results" / f"{faction}.map.png"
            if drawn.exists():
                made.append(Path(shutil.copyfile(drawn, out / f"{name}-map.png")))
            results = outcome.results[faction]
            for tab, picture in ((msg("Changes").render(lang), "changes"), (msg("History").render(lang), "chart")):
                kept = only_sheet(results, tab, work / f"{name}-{picture}.xlsx")
                sheets.append((kept, out / f"{name}-{picture}.png"))
        pdfs = work / "pdf"
        convert(soffice, [source for source, _ in sheets], "pdf", pdfs, timeout=600)
        made += [crop(pdfs / f"{source.stem}.pdf", picture) for source, picture in sheets]
    return made


def _showing_changes(outcome: pipeline.RunOutcome) -> str:
    """The first faction (alphabetically) whose Changes tab lists something (coordinated_orders' reactive
    player may have nothing changed), else the first faction."""
    import openpyxl

    for faction, path in sorted(outcome.results.items()):
        lang = outcome.campaign.factions[faction].language
        wb = openpyxl.load_workbook(path, read_only=True)
        tab = next(ws for ws in wb.worksheets if ws.title.startswith(msg("Changes").render(lang)))
        listed = tab.cell(2, 1).value != msg("(none)").render(lang)
        wb.close()
        if listed:
            return faction
    return sorted(outcome.results)[0]


if __name__ == "__main__":  # pragma: no cover
    for path in pictures(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"), sys.argv[2:] or None):
        print(path)
