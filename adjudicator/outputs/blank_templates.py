"""The blank order workbooks of every ruleset, one per language, kept in ``workbook_templates/``.

They show players and GMs what an order workbook looks like before a campaign exists; a real
campaign hands out its own with ``adjudicator templates``. They are built from each ruleset's example
campaign (``make templates``), and a test fails when the committed ones differ from what the code
builds.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from adjudicator.engine.registry import installed
from adjudicator.i18n import LANGUAGES, ruleset_catalog
from adjudicator.outputs.templates import build_order_workbook
from adjudicator.outputs.writing import atomic_save
from adjudicator.scenario import campaign_from_data, load_scenario


def build_all(out: Path) -> list[Path]:
    written = []
    for name, ruleset in installed().items():
        example = ruleset.example_dir()
        if not (example / "scenario.toml").exists():
            continue
        _, campaign = campaign_from_data(load_scenario(example))
        faction = sorted(campaign.factions)[0]
        for lang in LANGUAGES:
            factions = dict(campaign.factions)
            factions[faction] = dataclasses.replace(factions[faction], language=lang)
            blank = dataclasses.replace(campaign, factions=factions)
            path = out / name / f"orders.{lang}.xlsx"
            with ruleset_catalog(ruleset.locale()):  # the ruleset's words, never another ruleset's
                atomic_save(build_order_workbook(ruleset, blank, faction), path)
            written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover
    for path in build_all(Path(sys.argv[1] if len(sys.argv) > 1 else "workbook_templates")):
        print(path)
