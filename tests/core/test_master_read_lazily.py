"""The master is read lazily (``read_workbook(..., lazy=True)``): opening a campaign reads the sheets it looks
for (settings, parameters, factions, the ruleset's state tables), never its ledger, dice or a turn's tabs,
which after a large turn are most of it; the campaign read is the very one an eager reading gives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from python_calamine import CalamineError, CalamineWorkbook

from adjudicator.engine.problems import ProblemList
from adjudicator.intake import reading
from adjudicator.paths import examples_root
from adjudicator.store import master
from adjudicator.turn import pipeline


@pytest.mark.parametrize("ruleset", ["inner_sphere", "star_sectors"])
def test_opening_a_campaign_reads_only_the_sheets_it_looks_for(ruleset: str, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / ruleset
    shutil.copytree(examples_root() / ruleset, folder)
    read: list[str] = []
    grid = reading._grid
    monkeypatch.setattr(reading, "_grid", lambda book, meta, errors: read.append(meta.name) or grid(book, meta, errors))
    _, lazily, found = pipeline.open_campaign(folder)
    names = CalamineWorkbook.from_path(str(folder / "campaign.xlsx")).sheet_names
    kept = {name for name in names if any(reading.fold(name) in schema.spellings() for schema in
                                          (master.SETTINGS, master.PARAMETERS, master.factions_schema(found),
                                           *found.state_schemas))}
    assert set(read) == kept and len(read) == len(kept) > 5  # each sheet looked for, read once
    assert len(set(names) - kept) >= 3 and "_ledger_source" in names  # the ledger, its source, the dice: not read
    monkeypatch.setattr(master, "read_workbook",
                        lambda path, problems, limits, lazy, survey: reading.read_workbook(path, problems, limits))
    _, eagerly, _ = pipeline.open_campaign(folder)
    assert (lazily.settings, lazily.parameters, lazily.factions) == (eagerly.settings, eagerly.parameters,
                                                                    eagerly.factions)
    assert lazily.tables.keys() == eagerly.tables.keys()
    assert all(lazily.tables[key].equals(eagerly.tables[key]) for key in lazily.tables)


def test_a_sheet_that_cannot_be_read_later_is_a_damaged_file_once(tmp_path: Path) -> None:
    problems = ProblemList()

    def failing() -> reading.SheetGrid:
        raise CalamineError("broken sheet")

    book = reading.WorkbookData(tmp_path / "campaign.xlsx", readers={
        name: lambda n=name: reading._read_later(failing, n, "campaign.xlsx", problems)
        for name in ("Settings", "Parameters")})
    settings = book.find(master.SETTINGS)
    assert settings is not None and (settings.name, settings.rows) == ("Settings", [])
    assert book.find(master.SETTINGS) is settings and book.find(master.PARAMETERS) is not None
    assert [p.code for p in problems] == ["F01"] and problems.has_errors()  # told once, as a damaged file
