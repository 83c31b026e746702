"""Example campaigns as data: ``scenario.toml`` → campaign.xlsx, filled order workbooks in inbox/,
and the GM's input.

The bundled examples are built from their scenario with this module (``python -m
adjudicator.scenario examples/star_sectors``), and a test fails when the committed workbooks differ
from what the scenario builds, so the examples can never drift from the code that reads them.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from typing import Any

import pandas as pd

from adjudicator.dice import Dice
from adjudicator.engine.ledger import Ledger
from adjudicator.engine.problems import ProblemList
from adjudicator.engine.registry import find_ruleset
from adjudicator.engine.ruleset import Campaign, Faction, Ruleset, TurnInput
from adjudicator.engine.validity import passed_orders
from adjudicator.i18n import Msg, normalise_language, ruleset_catalog
from adjudicator.intake.submissions import load_submission
from adjudicator.outputs.templates import build_order_workbook
from adjudicator.outputs.writing import atomic_save
from adjudicator.store.master import factions_schema, new_master
from adjudicator.turn.gm_input import write_gm_input


def load_scenario(folder: Path) -> dict[str, Any]:
    return tomllib.loads((folder / "scenario.toml").read_text(encoding="utf-8"))


def campaign_from_data(data: dict[str, Any]) -> tuple[Ruleset, Campaign]:
    """The campaign a scenario describes (settings, parameters, tables)."""
    settings = data["settings"]
    ruleset = find_ruleset(settings["ruleset"])
    language = normalise_language(settings.get("language", ruleset.default_language))
    factions = {
        f["id"]: Faction(f["id"], f["name"], normalise_language(f.get("language", language)))
        for f in data["tables"]["factions"]
    }
    tables = {}
    for schema in (factions_schema(ruleset), *ruleset.state_schemas):
        rows = data["tables"].get(schema.key, [])
        tables[schema.key] = pd.DataFrame([{k: r.get(k) for k in schema.keys()} for r in rows],
                                          columns=schema.keys())
    defaults = ruleset.parameters()
    campaign = Campaign(
        campaign_id=settings["campaign"],
        title=settings.get("title", settings["campaign"]),
        ruleset=ruleset.name,
        seed=int(settings["seed"]),
        turn=int(settings["turn"]),
        language=language,
        secret=settings["secret"],
        factions=factions,
        parameters=defaults.resolve(data.get("parameters", {})),
        tables=tables,
        settings={"deadline": settings.get("deadline", "")},
    )
    return ruleset, campaign


def build(folder: Path, out: Path | None = None) -> list[Path]:
    """Write the example's campaign.xlsx, inbox/*.xlsx and gm_input.xlsx into ``out`` (default: ``folder``)."""
    return build_from_data(load_scenario(folder), out or folder)


def build_from_data(data: dict[str, Any], out: Path) -> list[Path]:
    ruleset, campaign = campaign_from_data(data)
    with ruleset_catalog(ruleset.locale()):  # the ruleset's words, never another ruleset's
        return _write(data, ruleset, campaign, out)


def _write(data: dict[str, Any], ruleset: Ruleset, campaign: Campaign, out: Path) -> list[Path]:
    written = [out / "campaign.xlsx"]
    atomic_save(new_master(ruleset, campaign), written[0])
    for faction, sheets in sorted(data.get("orders", {}).items()):
        path = out / "inbox" / f"{faction}.xlsx"
        atomic_save(build_order_workbook(ruleset, campaign, faction, sheets), path)
        written.append(path)
    if "gm_input" in data:
        path = out / "gm_input.xlsx"
        asked = requested(ruleset, campaign, written[1:])
        requests = {
            schema.key: described(pd.DataFrame(data["gm_input"].get(schema.key, []), columns=schema.keys()),
                                  asked.get(schema.key))
            for schema in ruleset.gm_input_schemas
        }
        write_gm_input(path, ruleset, requests, campaign.turn, campaign.language)
        written.append(path)
    return written


def requested(ruleset: Ruleset, campaign: Campaign, inbox: list[Path]) -> dict[str, pd.DataFrame]:
    """What the turn asks the GM, as a run of the example's inbox without GM input would write it."""
    submissions = [load_submission(path, campaign, ruleset) for path in inbox]
    orders = {s.faction: passed_orders(s.orders) for s in submissions if s.accepted and s.orders is not None}
    turn = TurnInput(campaign, orders, None, "gm_input.xlsx", Dice(campaign.seed, campaign.turn),
                     Ledger(campaign.turn, ruleset.account_label), ProblemList())
    return ruleset.resolve(turn).gm_requests or {}


def described(answers: pd.DataFrame, asked: pd.DataFrame | None) -> pd.DataFrame:
    """The scenario's answers, each on the row the turn asks it on: the GM input of the example shows what a
    real one shows (the combat's sides, systems, forces…) and not only the identifier and the answer. An answer
    belongs to the asked row whose first column it shares and whose filled cells it does not contradict."""
    if asked is None or asked.empty or answers.empty:
        return answers
    first = answers.columns[0]
    free = [dict(row) for row in asked.reindex(columns=answers.columns).to_dict("records")]
    rows = []
    for answer in answers.to_dict("records"):
        match = next((row for row in free if _agrees(row, answer, first)), None)
        if match is not None:
            free.remove(match)
            rows.append({key: answer[key] if _filled(answer[key]) and not isinstance(match[key], Msg) else match[key]
                         for key in answers.columns})  # an asked text in the reader's words (an ID) is kept
        else:
            rows.append(answer)
    return pd.DataFrame(rows, columns=answers.columns)


def _filled(value: Any) -> bool:
    return value is not None and (isinstance(value, str) or not pd.isna(value)) and value != ""


def _agrees(asked: dict[str, Any], answer: dict[str, Any], first: str) -> bool:
    if not (_filled(asked[first]) and _filled(answer[first])):
        return False
    return all(str(asked[key]) == str(answer[key]) for key in answer  # an asked ID in the reader's words: its key
               if _filled(asked[key]) and _filled(answer[key]) and (key == first or not isinstance(asked[key], Msg)))


if __name__ == "__main__":  # pragma: no cover
    for argument in sys.argv[1:]:
        for path in build(Path(argument)):
            print(path)
