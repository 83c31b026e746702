"""Building real campaigns and workbooks for tests, and reading them back."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd
import pytest
import python_calamine as pc

from adjudicator.engine.registry import find_ruleset
from adjudicator.i18n import gettext_in
from adjudicator.outputs.templates import build_order_workbook
from adjudicator.outputs.writing import atomic_save
from adjudicator.paths import examples_root
from adjudicator.scenario import campaign_from_data, load_scenario
from adjudicator.store.folder import CampaignFolder
from adjudicator.store.master import new_master
from adjudicator.turn import pipeline
from adjudicator.turn.gm_input import write_gm_input

EXAMPLE = examples_root() / "star_sectors"

#: every ruleset's example, Star Sectors in the quick set and the three others in the slow set
EVERY_RULESET_SLOW_BUT_ONE = [
    "star_sectors",
    pytest.param("galactic_war", marks=pytest.mark.slow),
    pytest.param("inner_sphere", marks=pytest.mark.slow),
    pytest.param("coordinated_orders", marks=pytest.mark.slow),
]


def example_campaign(root: Path) -> Path:
    pipeline.new_campaign(find_ruleset("star_sectors"), root, example=True)
    return root


def example_data() -> dict[str, Any]:
    return copy.deepcopy(load_scenario(EXAMPLE))


def grid_map(width: int, height: int, income: int = 10) -> list[dict[str, Any]]:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return [
        {"square": f"{letters[x - 1]}{y}", "x": x, "y": y, "income": income, "passable": "YES"}
        for y in range(1, height + 1) for x in range(1, width + 1)
    ]


def scenario(factions: dict[str, int], fleets: list[tuple[str, str, int]], turn: int = 1,
             width: int = 4, height: int = 4, projects: list[dict[str, Any]] | None = None,
             usages: list[dict[str, Any]] | None = None, parameters: dict[str, Any] | None = None,
             languages: dict[str, str] | None = None) -> dict[str, Any]:
    """Scenario data of a small star_sectors campaign: factions with treasuries, fleets as (faction, square, R)."""
    return {
        "settings": {"ruleset": "star_sectors", "campaign": "test", "seed": 7, "turn": turn, "language": "en",
                     "secret": "test-secret"},
        "parameters": parameters or {},
        "tables": {
            "factions": [{"id": f, "name": f.title(), "language": (languages or {}).get(f, "en"), "treasury": t}
                         for f, t in factions.items()],
            "fleets": [{"faction": f, "square": s, "value": v} for f, s, v in fleets],
            "map": grid_map(width, height),
            "projects": projects or [],
            "usages": usages or [],
        },
    }


def make_campaign(root: Path, data: dict[str, Any]) -> Path:
    ruleset, campaign = campaign_from_data(data)
    root.mkdir(parents=True, exist_ok=True)
    (root / "inbox").mkdir(exist_ok=True)
    atomic_save(new_master(ruleset, campaign), root / "campaign.xlsx")
    return root


def write_orders(root: Path, faction: str, rows: list[dict[str, Any]], name: str | None = None,
                 sheet: str = "orders") -> Path:
    """A faction's order workbook for the campaign's current turn, filled in, dropped into the inbox."""
    _, campaign, ruleset = pipeline.open_campaign(root)
    path = root / "inbox" / (name or f"{faction}.xlsx")
    atomic_save(build_order_workbook(ruleset, campaign, faction, {sheet: rows}), path)
    return path


def write_gm(root: Path, sheets: dict[str, list[dict[str, Any]]]) -> Path:
    folder, campaign, ruleset = pipeline.open_campaign(root)
    requests = {s.key: pd.DataFrame(sheets.get(s.key, []), columns=s.keys()) for s in ruleset.gm_input_schemas}
    path = folder.gm_input(campaign.turn)
    write_gm_input(path, ruleset, requests, campaign.turn, campaign.language)
    return path


def sheet_rows(path: Path, name_part: str, lang: str = "en") -> list[list[Any]]:
    """The non-empty rows of the first sheet whose name contains ``name_part`` (an English msgid,
    looked for in ``lang``)."""
    name_part = gettext_in(lang, name_part)
    book = pc.CalamineWorkbook.from_path(str(path))
    for name in book.sheet_names:
        if name_part in name:
            return [r for r in book.get_sheet_by_name(name).to_python() if any(c != "" for c in r)]
    raise KeyError(f"{name_part!r} not in {book.sheet_names}")


def report_table(path: Path, title: str, lang: str = "en") -> list[dict[str, Any]]:
    """The rows of one titled table of a report sheet, as {English header: value}: values are read under
    their headers, since a long text spans the blank columns after it."""
    book = pc.CalamineWorkbook.from_path(str(path))
    wanted = gettext_in(lang, title)
    for name in book.sheet_names:
        if "Report" not in name and gettext_in(lang, "Report") not in name:
            continue
        grid = book.get_sheet_by_name(name).to_python()
        for i, row in enumerate(grid):
            if row and row[0] == wanted and (len(row) < 2 or row[1] == ""):
                headers = {col: h for col, h in enumerate(grid[i + 1]) if h != ""}
                out = []
                for values in grid[i + 2:]:
                    if all(v == "" for v in values):
                        break
                    out.append({h: _plain(values[col]) if col < len(values) else "" for col, h in headers.items()})
                return out
    raise KeyError(title)


def _plain(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def all_values(path: Path) -> dict[str, list[list[Any]]]:
    book = pc.CalamineWorkbook.from_path(str(path))
    return {name: book.get_sheet_by_name(name).to_python() for name in book.sheet_names}


def tree_digest(root: Path) -> dict[str, str]:
    """Every file below ``root`` with its SHA-256 (to prove nothing changed)."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*")) if p.is_file()
    }


def state(root: Path) -> Any:
    _, campaign, _ = pipeline.open_campaign(root)
    return campaign


def fleets_of(root: Path) -> dict[tuple[str, str], int]:
    frame = state(root).tables["fleets"]
    return {(r["faction"], r["square"]): int(r["value"]) for r in frame.to_dict("records")}


def treasuries(root: Path) -> dict[str, int]:
    frame = state(root).tables["factions"]
    return {r["id"]: int(r["treasury"]) for r in frame.to_dict("records")}


def folder(root: Path) -> CampaignFolder:
    return CampaignFolder(root)


def checked_example_with_problems(root: Path, ruleset: str = "star_sectors") -> list[Any]:
    """A new campaign of ``ruleset``'s example at ``root``, checked: its submissions that have problems."""
    pipeline.new_campaign(find_ruleset(ruleset), root, example=True)
    outcome = pipeline.check(root)
    with_problems = [s for s in outcome.submissions if s.problems and s.book is not None]
    assert with_problems
    return with_problems


def mutables(value: Any, found: list[Any] | None = None) -> list[Any]:
    """Every object of a ruleset's world that can be changed in place (containers and dataclass instances)."""
    found = [] if found is None else found
    if isinstance(value, (dict, list, set)) or dataclasses.is_dataclass(value):
        found.append(value)
    if isinstance(value, dict):
        for item in value.values():
            mutables(item, found)
    elif isinstance(value, (list, set, tuple, frozenset)):
        for item in value:
            mutables(item, found)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            mutables(getattr(value, f.name), found)
    return found


def generated_folder(root: Path, data: dict[str, Any]) -> Path:
    """A campaign folder as benchmarks/generate.py writes one: campaign.xlsx and the filled workbooks in inbox/."""
    from adjudicator.scenario import build_from_data

    (root / "inbox").mkdir(parents=True)
    build_from_data(data, root)
    return root


class Generated(NamedTuple):
    """A generator's campaign: its folder, its data, the rows written as mistakes."""

    folder: Path
    data: dict[str, Any]
    mistake_rows: int


def generated_campaign(tmp_path_factory: Any, ruleset: str, campaign: Any, *args: Any) -> Generated:
    """The campaign of a ruleset's generator (benchmarks/generate_<ruleset>.py: ``campaign(*args)`` gives its data
    and the rows written as mistakes), written in a folder of its own as generate.py writes one."""
    data, mistake_rows = campaign(*args)
    return Generated(generated_folder(tmp_path_factory.mktemp("generated") / ruleset, data), data, mistake_rows)


def errors_and_no_warning(checked: pipeline.CheckOutcome) -> list[tuple[Any, ...]]:
    """Every error of a check as (faction, sheet, row, code), the check having warned of nothing."""
    warnings = [p for s in checked.submissions for p in s.problems if not p.is_error]
    assert not warnings, [(p.sheet, p.cell, p.code) for p in warnings]
    return [(s.faction, p.sheet, p.row, p.code) for s in checked.submissions for p in s.problems.errors]


def order_statuses(master: Path, turn: int = 1) -> dict[tuple[str, str, int], str]:
    """(order tab, faction, sheet row) → the status the resolved turn gave the row (the master's Orders tabs)."""
    book = pc.CalamineWorkbook.from_path(str(master))
    out = {}
    for name in book.sheet_names:
        if name.startswith(f"T{turn:02d} Orders"):
            header, *rows = book.get_sheet_by_name(name).to_python()
            faction, row, status = header.index("Faction"), header.index("Row"), header.index("Status")
            out |= {(name, r[faction], int(r[row])): r[status] for r in rows}
    return out


def codes_of_mistakes(checked: pipeline.CheckOutcome, mistake_rows: int, first_row: int, every: int) -> set[str]:
    """The codes of a generated campaign's errors, once the check is seen to report exactly one error on each
    row written as a mistake (every ``every``-th order row from ``first_row``), none elsewhere, no warning."""
    errors = errors_and_no_warning(checked)
    assert len(errors) == mistake_rows > 0
    assert all((row - first_row) % every == every - 1 for _, _, row, _ in errors), errors
    assert len({error[:3] for error in errors}) == len(errors), "one error a row"
    return {code for *_, code in errors}

