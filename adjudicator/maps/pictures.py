"""Pictures of the maps, charts and Changes tabs for the docs, from each ruleset's bundled example:

    python -m adjudicator.maps.pictures docs/images        (or: make map-pictures)

For every ruleset with a map: the first faction's map as drawn (``<ruleset>-map.png``); for every
ruleset: that faction's Changes tab and History chart as LibreOffice prints them
(``<ruleset>-changes.png``, ``<ruleset>-chart.png``)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from adjudicator.campaign import pipeline
from adjudicator.engine.registry import installed
from adjudicator.i18n import msg
from adjudicator.pictures import only_sheet, render, tools


def pictures(out: Path, names: list[str] | None = None) -> list[Path]:
    tools()
    out.mkdir(parents=True, exist_ok=True)
    made = []
    for name, ruleset in installed().items():
        if (names and name not in names) or not (ruleset.example_dir() / "campaign.xlsx").exists():
            continue
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            root = work / name
            pipeline.new_campaign(ruleset, root, example=True)
            outcome = pipeline.run(root)
            if outcome.status != "resolved" or outcome.turn_dir is None:
                continue
            faction = sorted(outcome.results)[0]
            lang = outcome.campaign.factions[faction].language
            drawn = outcome.turn_dir / "results" / f"{faction}.map.png"
            if drawn.exists():
                made.append(Path(shutil.copyfile(drawn, out / f"{name}-map.png")))
            results = outcome.results[faction]
            for tab, picture in ((msg("Changes").render(lang), "changes"), (msg("History").render(lang), "chart")):
                made.append(render(only_sheet(results, tab, work / f"{name}-{picture}.xlsx"),
                                   out / f"{name}-{picture}.png", work))
    return made


if __name__ == "__main__":  # pragma: no cover
    for path in pictures(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"), sys.argv[2:] or None):
        print(path)
