"""Names typed by players, read as a careful GM would, through real order workbooks: Cyrillic look-alike
letters, another case, a faction's name in another alphabet, a hex typed as a number."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from adjudicator.engine.registry import installed
from adjudicator.intake.names import NameReader, key, sound_key
from adjudicator.turn import pipeline

TO_CYRILLIC = str.maketrans("ABCEHKMOPTXaceopx", "АВСЕНКМОРТХасеорх")


def test_keys() -> None:
    assert key("А1") == key("a1")  # Cyrillic А
    assert key("alpha-t01-1") == key("ALPHA-T01-1")
    assert sound_key("АЛЬФА") == sound_key("ALPHA") == "alfa"
    reader = NameReader(["0201", "0104"])
    assert reader.read(201) == "0201" and reader.read("104") == "0104" and reader.read(301) is None
    assert NameReader(["A1", "B2"]).closest("A9") == ["A1"]


def test_a_suggestion_joins_the_hint_of_the_error_at_its_cell_and_is_dropped_without_one() -> None:
    from adjudicator.engine.problems import Problem, ProblemList, Severity
    from adjudicator.i18n import msg
    from adjudicator.intake.names import suggest

    problems = ProblemList([Problem("E01", Severity.ERROR, msg("Bad."), msg("Fix it."), sheet="S", cell="B2")])
    suggest(problems, [Problem("N02", Severity.WARNING, msg("?"), msg("Did you mean {values}?", values="A1"),
                               sheet="S", cell="B2"),
                       Problem("N02", Severity.WARNING, msg("?"), msg("Did you mean {values}?", values="C3"),
                               sheet="S", cell="C3")])
    assert [p.code for p in problems] == ["E01"]
    assert list(problems)[0].hint.render("en") == "Fix it. Did you mean A1?"


def _append_row(path: Path, sheet: str, headers: dict[str, str], values: dict[str, object]) -> int:
    book = openpyxl.load_workbook(path)
    ws = book[sheet]
    columns = {ws.cell(row=1, column=c).value: c for c in range(1, ws.max_column + 1)}
    row = next(r for r in range(2, 300) if all(ws.cell(row=r, column=columns[h]).value in (None, "")
                                                for h in (headers[k] for k in values)))
    for column_key, value in values.items():
        ws.cell(row=row, column=columns[headers[column_key]], value=value)
    book.save(path)
    return row


def _submission(outcome: pipeline.CheckOutcome, faction: str):  # noqa: ANN202
    return next(s for s in outcome.submissions if s.faction == faction)


def test_look_alikes_case_and_a_factions_name_are_read_as_meant(tmp_path: Path) -> None:
    root = tmp_path / "star"
    ruleset = installed()["star_sectors"]
    pipeline.new_campaign(ruleset, root, example=True)
    _, campaign, _ = pipeline.open_campaign(root)
    schema = ruleset.order_schemas[0]
    lang = campaign.factions["ALPHA"].language
    headers = {c.key: c.header_in(lang) for c in schema.columns}
    examples = {row["order"]: row for row in ruleset.example_rows(campaign, "ALPHA")["orders"]}
    move, theft, pay = examples["MOVE"], examples["THEFT"], examples["RESEARCH_PAY"]
    typed_square = move["square"].translate(TO_CYRILLIC)
    if typed_square == move["square"]:
        typed_square = move["square"].lower()
    typed_victim = {"BETA": "БЕТА", "GAMMA": "гамма", "ALPHA": "АЛЬФА"}.get(theft["victim"], theft["victim"].lower())
    typed_project = pay["project"].lower()
    path = root / "inbox" / "ALPHA.xlsx"
    move_row = _append_row(path, schema.title_in(lang), headers, {
        "order": schema.column("order").choice_label("MOVE", lang), "square": typed_square, "to": move["to"],
        "amount": 1})
    theft_row = _append_row(path, schema.title_in(lang), headers, {
        "order": schema.column("order").choice_label("THEFT", lang), "victim": typed_victim})
    pay_row = _append_row(path, schema.title_in(lang), headers, {
        "order": schema.column("order").choice_label("RESEARCH_PAY", lang), "project": typed_project, "amount": 1})
    outcome = pipeline.check(root)
    alpha = _submission(outcome, "ALPHA")
    letters = {c.key: openpyxl.utils.get_column_letter(i) for i, c in enumerate(schema.columns, start=1)}
    read = {(p.cell, p.code) for p in alpha.problems}
    for column_key, row in (("square", move_row), ("project", pay_row), ("victim", theft_row)):
        assert (f"{letters[column_key]}{row}", "N01") in read, (column_key, sorted(read))
    frame = alpha.orders.sheets["orders"].frame
    assert frame.at[move_row, "square"] == move["square"]
    assert frame.at[theft_row, "victim"] == theft["victim"]
    assert frame.at[pay_row, "project"] == pay["project"]
    errors_on_those_cells = [p for p in alpha.problems.errors
                             if p.cell in {f"{letters['square']}{move_row}", f"{letters['project']}{pay_row}"}]
    assert not errors_on_those_cells
    warning = next(p for p in alpha.problems if p.cell == f"{letters['square']}{move_row}")
    assert typed_square in warning.message.render(lang) and move["square"] in warning.message.render(lang)


def test_unknown_names_get_the_closest_legal_values(tmp_path: Path) -> None:
    root = tmp_path / "star"
    ruleset = installed()["star_sectors"]
    pipeline.new_campaign(ruleset, root, example=True)
    _, campaign, _ = pipeline.open_campaign(root)
    schema = ruleset.order_schemas[0]
    lang = campaign.factions["ALPHA"].language
    headers = {c.key: c.header_in(lang) for c in schema.columns}
    home = ruleset.example_rows(campaign, "ALPHA")["orders"][0]["square"]
    row = _append_row(root / "inbox" / "ALPHA.xlsx", schema.title_in(lang), headers, {
        "order": schema.column("order").choice_label("BUILD", lang), "square": home + "9", "amount": 1})
    alpha = _submission(pipeline.check(root), "ALPHA")
    letter = openpyxl.utils.get_column_letter([c.key for c in schema.columns].index("square") + 1)
    found = [p for p in alpha.problems if p.cell == f"{letter}{row}"]
    assert len(found) == 1, found  # the ruleset's error, its hint now naming the closest squares
    assert found[0].is_error and home in found[0].hint.render(lang)


@pytest.mark.parametrize("typed", [104, "104"])
def test_a_hex_typed_as_a_number_is_the_hex(tmp_path: Path, typed: object) -> None:
    root = tmp_path / "is"
    ruleset = installed()["inner_sphere"]
    pipeline.new_campaign(ruleset, root, example=True)
    _, campaign, _ = pipeline.open_campaign(root)
    faction = next(f for f in sorted(campaign.factions)
                   if any(str(h).lstrip("0") == str(int(str(typed))) for h in
                          ruleset.choice_lists(campaign, f, "en").get("system", [])))
    hexes = ruleset.choice_lists(campaign, faction, "en")["system"]
    meant = next(h for h in hexes if h.lstrip("0") == str(int(str(typed))))
    schema = next(s for s in ruleset.order_schemas if s.key == "purchases")
    lang = campaign.factions[faction].language
    headers = {c.key: c.header_in(lang) for c in schema.columns}
    row = _append_row(root / "inbox" / f"{faction}.xlsx", schema.title_in(lang), headers, {"system": typed})
    submission = _submission(pipeline.check(root), faction)
    assert submission.orders.sheets["purchases"].frame.at[row, "system"] == meant
    assert any(p.code == "N01" and p.row == row for p in submission.problems)
