"""The one LibreOffice rendering test of ``make test``: every kind of workbook of galactic_war's example (Russian
and Spanish factions, a map, charts, four order sheets), in each of its languages, campaign.xlsx written again
in Spanish, printed with nothing overlapping, nothing cut, no blank page and every number of the Instructions'
examples inside its own cell. Every ruleset's are rendered by
test_rendering.py, in the slow set (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tests.core.test_rendering as rendering

pytestmark = pytest.mark.libreoffice


def test_galactic_war_prints_whole_in_each_of_its_languages(tmp_path: Path, soffice: str) -> None:
    rendered = rendering.render_all(["galactic_war"], tmp_path, soffice)
    labels = {label for label, _, _ in rendered}
    wanted = {f"galactic_war-{kind}-{lang}" for kind in ("template", "checked", "results", "gm-input", "campaign")
              for lang in ("ru", "es")}
    assert wanted <= labels, sorted(wanted - labels)
    faults = (rendering.page_faults(rendered) + rendering.cut_words(rendered)
              + rendering.numbers_out_of_their_cells(rendered))
    assert not faults, "\n".join(faults[:40])
