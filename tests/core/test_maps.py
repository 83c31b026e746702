"""Maps, charts, the Changes tab and the reprocess diff, on the bundled examples run through the pipeline."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest

from adjudicator.engine.problems import ProblemList
from adjudicator.engine.registry import find_ruleset
from adjudicator.engine.sheets import Kind
from adjudicator.i18n import msg
from adjudicator.outputs.maps.view import GM, PUBLIC
from adjudicator.outputs.writing import atomic_save
from adjudicator.scenario import load_scenario
from adjudicator.store import master
from adjudicator.store.folder import CampaignFolder
from adjudicator.turn import pipeline
from adjudicator.turn.gm_input import write_gm_input
from tests.core.kit import svg_ids

MAPPED = ("star_sectors", "galactic_war", "inner_sphere")


def run_example(root: Path, name: str, spy: list[Any] | None = None, plant: Any = None) -> Path:
    ruleset = find_ruleset(name)
    pipeline.new_campaign(ruleset, root, example=True)
    if plant is not None:
        plant(root)
    outcome = pipeline.run(root)
    assert outcome.status == "resolved"
    assert outcome.turn_dir is not None
    return outcome.turn_dir




def state_after(turn_dir: Path) -> Any:
    loaded = master.load_campaign(turn_dir / "campaign_after.xlsx", find_ruleset, ProblemList())
    assert loaded is not None
    return loaded[0]


def state_before(turn_dir: Path) -> Any:
    loaded = master.load_campaign(turn_dir / "state_before.xlsx", find_ruleset, ProblemList())
    assert loaded is not None
    return loaded[0]


def own_units(name: str, campaign: Any, faction: str) -> set[str]:
    """The IDs the map gives a faction's own units, from the state tables (independently of the map code)."""
    t = campaign.tables
    if name == "star_sectors":
        return {f"{faction}@{r['square']}" for r in t["fleets"].to_dict("records")
                if r["faction"] == faction and int(r["value"]) > 0}
    if name == "galactic_war":
        return {r["id"] for r in t["units"].to_dict("records") if r["race"] == faction}
    ships = {r["id"] for r in t["jumpships"].to_dict("records") if r["owner"] == faction}
    regiments = {r["id"] for r in t["regiments"].to_dict("records") if r["owner"] == faction
                 and (isinstance(r.get("system"), str) and r["system"] or isinstance(r.get("jumpship"), str)
                      and r["jumpship"])}
    return ships | regiments


RUNS: dict[str, Path] = {}
DRAWN: dict[str, Any] = {}  # star_sectors: every reader's MapView, as the pipeline drew them


def example_turn(name: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example's turn folder after its turn, resolved once for the whole module (never changed). The
    star_sectors example has a hidden GAMMA fleet planted, and the views its maps are drawn from recorded."""
    if name not in RUNS:
        root = tmp_path_factory.mktemp(name) / "c"
        if name != "star_sectors":
            RUNS[name] = run_example(root, name)
            return RUNS[name]
        ruleset_type = type(find_ruleset("star_sectors"))
        real = ruleset_type.map_view

        def spy(self: Any, campaign: Any, result: Any, reader: str) -> Any:
            DRAWN[reader] = real(self, campaign, result, reader)
            return DRAWN[reader]

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(ruleset_type, "map_view", spy)
            RUNS[name] = run_example(root, name, plant=plant_hidden_fleet)
    return RUNS[name]


@pytest.fixture(scope="module", params=MAPPED)
def resolved(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    return request.param, example_turn(request.param, tmp_path_factory)


def test_a_map_per_faction_a_public_map_and_the_gms(resolved: tuple[str, Path]) -> None:
    name, turn_dir = resolved
    after = state_after(turn_dir)
    label = master.turn_label(after.turn - 1)
    for faction, info in after.factions.items():
        for suffix in ("png", "svg"):
            assert (turn_dir / "results" / f"{faction}.map.{suffix}").stat().st_size > 1000
        wb = openpyxl.load_workbook(turn_dir / "results" / f"{faction}.xlsx")
        tab = f"{msg('Map').render(info.language)} {label}"
        assert tab in wb.sheetnames and len(wb[tab]._images) == 1
        assert f"{msg('Changes').render(info.language)} {label}" in wb.sheetnames
        history = wb[msg("History").render(info.language)]
        assert 1 <= len(history._charts) <= 2  # a second chart for measures of another magnitude
    assert (turn_dir / "results" / "public.map.png").exists()
    assert (turn_dir / "gm.map.svg").exists() and not (turn_dir / "results" / "gm.map.svg").exists()
    wb = openpyxl.load_workbook(turn_dir / "campaign_after.xlsx")
    assert len(wb[f"{label} {msg('Map').render(after.language)}"]._images) == 1
    assert wb[msg("History").render(after.language)]._charts


def test_each_faction_map_shows_every_unit_of_its_own(resolved: tuple[str, Path]) -> None:
    name, turn_dir = resolved
    after = state_after(turn_dir)
    every = set()
    for faction in after.factions:
        ids = svg_ids(turn_dir / "results" / f"{faction}.map.svg")
        mine = own_units(name, after, faction)
        every |= {f"unit:{faction}:{u}" for u in mine}
        assert mine, f"{faction} has no unit in the example"
        assert {f"unit:{faction}:{u}" for u in mine} <= ids
    assert every <= svg_ids(turn_dir / "gm.map.svg")
    assert not svg_ids(turn_dir / "results" / "public.map.svg")


def plant_hidden_fleet(root: Path) -> None:
    """A GAMMA fleet alone in H1, far from every other fleet: nobody fights it, nobody else may see it."""
    path = root / "campaign.xlsx"
    wb = openpyxl.load_workbook(path)
    ws = next(w for w in wb.worksheets if w.title.casefold() in ("флоты", "fleets"))
    ws.append(["GAMMA", "H1", 77])
    atomic_save(wb, path)


def test_a_hidden_enemy_unit_is_on_the_gms_map_only(star_sectors: Path) -> None:
    turn_dir = star_sectors / "turns" / "T03"
    drawn = DRAWN
    hidden = "unit:GAMMA:GAMMA@H1"
    assert "GAMMA@H1" in drawn[GM].unit_ids() and hidden in svg_ids(turn_dir / "gm.map.svg")
    assert "GAMMA@H1" in drawn["GAMMA"].unit_ids()
    assert hidden in svg_ids(turn_dir / "results" / "GAMMA.map.svg")
    for faction in ("ALPHA", "BETA", "BORYA"):
        assert "GAMMA@H1" not in drawn[faction].unit_ids()
        assert hidden not in svg_ids(turn_dir / "results" / f"{faction}.map.svg")
        assert "GAMMA@H1" not in (turn_dir / "results" / f"{faction}.map.svg").read_text(encoding="utf-8")
    assert not drawn[PUBLIC].units


def changes_of(path: Path, lang: str) -> list[tuple[Any, ...]]:
    wb = openpyxl.load_workbook(path)
    ws = next(w for w in wb.worksheets if w.title.startswith(msg("Changes").render(lang)))
    return [tuple(c.value for c in row) + (row[5].hyperlink.location if row[5].hyperlink else None,)
            for row in ws.iter_rows(min_row=2)]


def test_changes_list_every_change_of_units_and_balances_with_a_cause(resolved: tuple[str, Path]) -> None:
    name, turn_dir = resolved
    before, after = state_before(turn_dir), state_after(turn_dir)
    for faction, info in after.factions.items():
        rows = changes_of(turn_dir / "results" / f"{faction}.xlsx", info.language)
        assert all(r[5] for r in rows), "a change without a cause"
        whats = " | ".join(str(r[2]) for r in rows)
        old, new = own_units(name, before, faction), own_units(name, after, faction)
        for unit in old ^ new:  # gained or lost
            assert unit.split("@")[-1] in whats, f"{faction}: {unit} gained/lost but not listed"
        ledger = openpyxl.load_workbook(turn_dir / "results" / f"{faction}.xlsx")
        tab = next(w for w in ledger.worksheets if w.title.startswith(msg("Ledger").render(info.language) + " T"))
        lines = [r for r in tab.iter_rows(min_row=2, values_only=True) if r[0] is not None]
        balances = [r for r in rows if r[0] == msg("balance").render(info.language)]
        assert len(balances) == len(lines)
        assert [(b[3], b[4]) for b in balances] == [(line[5] - line[4], line[5]) for line in lines]
        assert all(b[6] for b in balances), "a balance without a link to its row"


def test_star_sectors_changes_name_the_order_row_and_the_battle(star_sectors: Path) -> None:
    turn_dir = star_sectors / "turns" / "T03"
    rows = changes_of(turn_dir / "results" / "BETA.xlsx", "ru")
    moved = [r for r in rows if r[2] == "F7"][0]
    assert "3" in str(moved[5]) and moved[6].endswith("!A3")  # the MOVE of order row 3, on the Outcome tab
    fought = [r for r in rows if str(r[2]).startswith("D7")][0]
    assert "D7" in str(fought[5]) and "Отчёт" in fought[6]
    before, after = state_before(turn_dir), state_after(turn_dir)
    def value(campaign: Any) -> int:
        return next(int(r["value"]) for r in campaign.tables["fleets"].to_dict("records")
                    if (r["faction"], r["square"]) == ("BETA", "D7"))

    assert (fought[3], fought[4]) == (value(before), value(after))


@pytest.fixture(scope="module")
def star_sectors(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The star_sectors example after its turn (copied by each test that changes it)."""
    return example_turn("star_sectors", tmp_path_factory).parents[1]


def copy_of_campaign(root: Path, target: Path) -> Path:
    shutil.copytree(root, target)
    return target


def test_reprocess_with_the_same_inputs_changes_nothing(star_sectors: Path, tmp_path: Path) -> None:
    root = copy_of_campaign(star_sectors, tmp_path / "c")
    turn_dir = root / "turns" / "T03"
    maps = {p.name: p.read_bytes() for p in (turn_dir / "results").glob("*.map.*")}
    outcome = pipeline.run(root, reprocess=True)
    assert outcome.status == "resolved" and outcome.reprocess_diff is not None
    assert [d.faction for d in outcome.reprocess_diff] == ["ALPHA", "BETA", "BORYA", "GAMMA"]
    assert all(d.empty for d in outcome.reprocess_diff)
    assert maps == {p.name: p.read_bytes() for p in (turn_dir / "results").glob("*.map.*")}  # same bytes
    text = (turn_dir / "reprocess_diff.txt").read_text(encoding="utf-8")
    assert text.count("\n") == 4


def test_reprocess_with_a_changed_gm_input_shows_exactly_the_changed_results(star_sectors: Path,
                                                                               tmp_path: Path) -> None:
    root = copy_of_campaign(star_sectors, tmp_path / "c")
    turn_dir = root / "turns" / "T03"
    old = {p.stem: openpyxl.load_workbook(p) for p in (turn_dir / "results").glob("*.xlsx")}
    ruleset = find_ruleset("star_sectors")
    data = load_scenario(ruleset.example_dir())["gm_input"]
    data["battles"][0]["pct_a"] = 50  # ALPHA loses half its fleet at C3 instead of three quarters
    requests = {s.key: pd.DataFrame(data.get(s.key, []), columns=s.keys()) for s in ruleset.gm_input_schemas}
    folder = CampaignFolder(root)
    folder.pending_dir(3).mkdir(parents=True, exist_ok=True)
    write_gm_input(folder.gm_input(3), ruleset, requests, 3, "ru")
    outcome = pipeline.run(root, reprocess=True)
    diffs = {d.faction: d for d in outcome.reprocess_diff or []}
    assert diffs["ALPHA"].cells and diffs["BETA"].cells
    assert diffs["GAMMA"].empty and diffs["BORYA"].empty
    for faction, diff in diffs.items():  # every changed cell listed, and only those
        new = openpyxl.load_workbook(turn_dir / "results" / f"{faction}.xlsx")
        actual = {(ws.title, c.coordinate) for ws in new.worksheets for row in ws.iter_rows() for c in row
                  if c.value != (old[faction][ws.title][c.coordinate].value if ws.title in old[faction].sheetnames
                                 else None)}
        assert {(s, c) for s, c, _, _ in diff.cells} == actual
    assert "ALPHA" in (turn_dir / "reprocess_diff.txt").read_text(encoding="utf-8")


# ------------------------------------------------------------------ the Changes tab of a real second turn
# star_sectors's second turn in `make test`; the others (each tens of seconds on two cores) in `make test-slow`
SECOND_TURN = ("star_sectors", *(pytest.param(n, marks=pytest.mark.slow)
                                 for n in ("galactic_war", "inner_sphere", "coordinated_orders")))
BLANK = {None, "", "NO", "N", 0}  # a blank cell and its default: the same value
UNIT_KINDS = ("gained", "lost", "moved", "changed", "damaged", "repaired")


def second_turn_orders(root: Path) -> None:
    """The next turn's order workbooks, built as `adjudicator templates` builds them, filled with the example's
    orders again (rows the new state no longer allows are refused at their cells, as a player's would be)."""
    from adjudicator.outputs.templates import build_order_workbook

    _, campaign, ruleset = pipeline.open_campaign(root)
    orders = load_scenario(ruleset.example_dir())["orders"]
    for faction, sheets in sorted(orders.items()):
        atomic_save(build_order_workbook(ruleset, campaign, faction, sheets), root / "inbox" / f"{faction}.xlsx")


def new_player_turn(root: Path) -> None:
    """coordinated_orders: the GM starts the active player's next Player Turn in campaign.xlsx, as between two
    Player Turns: its Command Tokens, Regular Orders and Irregular troopers' own Orders as the example has them
    at the start (the first turn spent them all)."""
    _, campaign, ruleset = pipeline.open_campaign(root)
    start = load_scenario(ruleset.example_dir())["tables"]
    tables = {k: v.copy() for k, v in campaign.tables.items()}
    tokens = {r["id"]: r["command_tokens"] for r in start["factions"]}
    tables["factions"]["command_tokens"] = [tokens[f] for f in tables["factions"]["id"]]
    orders = {(r["faction"], r["combat_group"]): r["regular_orders"] for r in start["combat_groups"]}
    groups = tables["combat_groups"]
    groups["regular_orders"] = [orders[(f, int(g))] for f, g in zip(groups["faction"], groups["combat_group"],
                                                                     strict=True)]
    own = {r["trooper"]: r.get("own_orders") for r in start["troopers"]}
    tables["troopers"]["own_orders"] = [own.get(t) for t in tables["troopers"]["trooper"]]
    wb = master.open_master(root / "campaign.xlsx")
    master.write_state(wb, ruleset, campaign, tables, campaign.turn)
    atomic_save(wb, root / "campaign.xlsx")


def answer_second_pass(root: Path) -> None:
    """The GM's decisions the second turn asks for: every battle won by its first side (20 % and 50 % lost),
    every research feasible at 300, a treasury adjustment; galactic_war's purchases as in the example."""
    from adjudicator.turn.gm_input import read_gm_input

    folder, campaign, ruleset = pipeline.open_campaign(root)
    path = folder.gm_input(campaign.turn)
    asked = read_gm_input(path, ruleset, ProblemList()) or {}
    example = load_scenario(ruleset.example_dir()).get("gm_input", {})
    answers: dict[str, list[dict[str, Any]]] = {}
    if ruleset.name == "star_sectors":
        answers["battles"] = [{**r, "winner": r["faction_a"], "pct_a": 20, "pct_b": 50}
                              for r in asked["battles"].frame.to_dict("records")]
        answers["feasibility"] = [{**r, "answer": "FEASIBLE", "price": 300}
                                  for r in asked["feasibility"].frame.to_dict("records")]
        answers["adjustments"] = [{"faction": "GAMMA", "account": "treasury", "change": 15,
                                   "reason": "Компенсация за второй сбой связи"}]
    else:
        answers = {k: list(v) for k, v in example.items()}
    requests = {s.key: pd.DataFrame(answers.get(s.key, []), columns=s.keys()) for s in ruleset.gm_input_schemas}
    write_gm_input(path, ruleset, requests, campaign.turn, campaign.language)


def run_second_turn(name: str, first: Path, root: Path) -> Path:
    shutil.copytree(first, root)
    if name == "coordinated_orders":
        new_player_turn(root)
    second_turn_orders(root)
    outcome = pipeline.run(root)
    if outcome.status == "waiting":
        answer_second_pass(root)
        outcome = pipeline.run(root)
    assert outcome.status == "resolved" and outcome.turn_dir is not None
    return outcome.turn_dir


def first_turn(name: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if name in MAPPED:
        return example_turn(name, tmp_path_factory).parents[1]
    root = tmp_path_factory.mktemp(name) / "c"
    run_example(root, name)
    return root


@pytest.fixture(scope="module", params=SECOND_TURN)
def second_turn(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The example after a real second turn (the turn folder of that turn)."""
    name = request.param
    return name, run_second_turn(name, first_turn(name, tmp_path_factory), tmp_path_factory.mktemp(name) / "second")


def _value(value: Any) -> Any:
    if value is None or (isinstance(value, float) and value != value):
        return None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        return value.strip() or None
    return value


def expected_changes(schema: Any, before: Any, after: Any, faction: str, lang: str,
                     accounts: set[str]) -> set[tuple[Any, ...]]:
    """What changed of ``faction``'s rows of one state table, worked out here from the two tables: a row is
    the same thing before and after when its ID is the same (else its required text columns, then its
    required choices, then as many of its required numbers as no two of the faction's rows share: a lab's
    number; else the whole row); a row that
    only one side has was gained or lost, and each other cell that differs (not a ledger account: those are
    the balances) is a change of it. Each as (table, kind, what, before, after) in the reader's words."""
    keys = schema.keys()
    owner = "id" if schema.key == "factions" else next((c for c in ("faction", "owner", "race") if c in keys), None)
    if owner is None:
        return set()
    columns = {c.key: c for c in schema.columns}
    def plain(frame: Any) -> list[dict[str, Any]]:
        return [{k: _value(v) for k, v in row.items()} for row in (frame.to_dict("records") if frame is not None
                                                                    else [])]

    def tells_apart(names: tuple[str, ...]) -> bool:  # the faction's rows, before and after
        return all(len({tuple(r[k] for k in names) for r in rows}) == len(rows)
                   for rows in ([r for r in plain(frame) if str(r[owner] or "").upper() == faction]
                                for frame in (before, after)))

    required = [c for c in schema.columns if c.required and c.key != owner]
    text = tuple(c.key for c in required if c.kind is Kind.TEXT)
    named = text + tuple(c.key for c in required if c.kind is Kind.CHOICE)
    numbers = tuple(c.key for c in required if c.key not in named)
    tries = [("id",)] if "id" in keys else [t for t in (text, named) if t] + [named + numbers[:i]
                                                                           for i in range(1, len(numbers) + 1)]
    identity = next((t for t in tries if tells_apart(t)), tuple(k for k in keys if k != owner))

    def shown(key: str, value: Any) -> Any:
        column = columns[key]
        return column.choice_label(str(value), lang) if value is not None and column.kind is Kind.CHOICE else value

    def rows(frame: Any) -> dict[tuple[Any, ...], dict[str, Any]]:
        found: dict[tuple[Any, ...], dict[str, Any]] = {}
        for row in plain(frame):
            if str(row.get(owner) or "").upper() == faction:
                assert tuple(row[k] for k in identity) not in found, f"{schema.key}: two rows of one thing"
                found[tuple(row[k] for k in identity)] = row
        return found

    old, new = rows(before), rows(after)
    title = schema.title_in(lang)
    out = set()
    for key in set(old) | set(new):
        what = " ".join(str(shown(k, v)) for k, v in zip(identity, key, strict=True) if v is not None)
        if key not in old or key not in new:
            out.add((title, "gained" if key in new else "lost", what, None, None))
            continue
        for column in schema.columns:
            a, b = old[key].get(column.key), new[key].get(column.key)
            if a != b and not {a, b} <= BLANK and column.key not in accounts and column.key != owner:
                out.add((title, "cell", f"{what}: {column.header_in(lang)}", shown(column.key, a),
                         shown(column.key, b)))
    return out


def test_the_changes_of_a_second_turn_are_those_of_the_state_tables(second_turn: tuple[str, Path]) -> None:
    name, turn_dir = second_turn
    ruleset = find_ruleset(name)
    before, after = state_before(turn_dir), state_after(turn_dir)
    assert after.turn == before.turn + 1 and (turn_dir.parent / master.turn_label(before.turn - 1)).is_dir()
    schemas = (*ruleset.state_schemas, master.factions_schema(ruleset))
    balances = {c.key for c in ruleset.faction_columns if c.kind in (Kind.INT, Kind.NUMBER)}  # the accounts
    listed_anything = False
    for faction, info in after.factions.items():
        lang = info.language
        path = turn_dir / "results" / f"{faction}.xlsx"
        book = openpyxl.load_workbook(path)
        rows = changes_of(path, lang)
        ledger_tab = next(w for w in book.worksheets if w.title.startswith(msg("Ledger").render(lang) + " T"))
        lines = [r for r in ledger_tab.iter_rows(min_row=2, values_only=True) if r[0] is not None]
        expected: set[tuple[Any, ...]] = set()
        for schema in schemas:
            expected |= expected_changes(schema, before.tables.get(schema.key), after.tables.get(schema.key),
                                         faction, lang, set(balances))
        kinds = {msg(k).render(lang): k for k in UNIT_KINDS}
        listed = set()
        for kind, table, what, old, new, *_ in rows:
            if kind not in kinds:
                continue
            plain = "gained" if kinds[kind] == "gained" else "lost" if kinds[kind] == "lost" else "cell"
            listed.add((table, plain, what, *((None, None) if plain != "cell" else (_value(old), _value(new)))))
        assert listed == expected, (f"{name} {faction}: listed but not a change {sorted(listed - expected)}; "
                                    f"a change not listed {sorted(expected - listed)}")
        listed_anything |= bool(listed)
        # balances: one row per ledger line, each account's rows chained from its balance in the state
        # before the turn to its balance in the state after
        shown = [r for r in rows if r[0] == msg("balance").render(lang)]
        assert [(b[3], b[4]) for b in shown] == [(line[5] - line[4], line[5]) for line in lines]
        for account in balances:
            opening, closing = (_value(frame.set_index("id").loc[faction, account])
                                for frame in (before.tables["factions"], after.tables["factions"]))
            label = ruleset.account_label(account)  # as the ruleset names it to the reader
            chain = [(b[3], b[4]) for b in shown if b[2] == (label.render(lang) if hasattr(label, "render") else label)]
            ends = [opening, *(x for pair in chain for x in pair), closing]
            assert all(a == b for a, b in zip(ends[::2], ends[1::2], strict=True)), (name, faction, account, ends)
        for row in rows:
            if row[0] == msg("(none)").render(lang):
                assert len(rows) == 1 and not expected and not lines
                continue
            assert row[5], f"{name} {faction}: a change without a cause: {row}"
            if row[6]:  # the link goes to a row that exists and says something
                sheet, cell = row[6].rsplit("!", 1)
                target = book[sheet.strip("'")]
                assert any(c.value not in (None, "") for c in target[int(cell[1:])]), row
    assert listed_anything, f"{name}: the second turn changed nothing of anybody"


def chart_parts(path: Path) -> list[Any]:
    """Every chart of a workbook as its XML holds it (what LibreOffice and Excel draw): the plot's kind, the
    series' names, markers and cached values, and the value axis' scaling."""
    import zipfile
    from xml.etree import ElementTree

    ns = {"c": "http://schemas.openxmlformats.org/drawingml/2006/chart"}
    charts = []
    with zipfile.ZipFile(path) as book:
        for part in sorted(n for n in book.namelist() if n.startswith("xl/charts/chart")):
            root = ElementTree.fromstring(book.read(part))
            plot = root.find("c:chart/c:plotArea", ns)
            assert plot is not None
            kinds = [child.tag.rsplit("}", 1)[1] for child in plot if child.tag.endswith("Chart")]
            series = [(s.findtext("c:tx//c:v", "", ns), s.findtext("c:marker/c:symbol", None, ns) or
                       (s.find("c:marker/c:symbol", ns).get("val") if s.find("c:marker/c:symbol", ns) is not None
                        else None),
                       [float(v.text or 0) for v in s.findall("c:val//c:pt/c:v", ns)])
                      for s in plot.iter(f"{{{ns['c']}}}ser")]
            scaling = {e.tag.rsplit("}", 1)[1]: float(e.get("val") or 0)
                       for e in plot.findall("c:valAx/c:scaling/*", ns) if e.get("val") not in (None, "minMax")}
            major = plot.find("c:valAx/c:majorUnit", ns)
            if major is not None:
                scaling["majorUnit"] = float(major.get("val") or 0)
            charts.append((kinds, series, scaling))
    return charts


@pytest.mark.parametrize("name", ["inner_sphere", "coordinated_orders"])
def test_each_history_chart_is_a_readable_line_of_capitalised_measures(
        name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every History chart of every result workbook and of campaign.xlsx, read back from the chart XML: a
    line chart with a marker at each turn (the examples have one turn: one marker each), its series named as
    labels read (Tesoro, Fuerzas), no two series of one chart further apart than ten times (Inner Sphere's
    forces of 7 and treasury of 441.5 on charts of their own), and a chart of only zeros on an axis 0 to 1 in
    one step, its marker on the 0 line."""
    turn_dir = example_turn(name, tmp_path_factory)
    books = [*sorted((turn_dir / "results").glob("*.xlsx")), turn_dir / "campaign_after.xlsx"]
    seen: set[str] = set()
    zeros = 0
    for book in books:
        charts = chart_parts(book)
        assert charts, book.name
        for kinds, series, scaling in charts:
            assert kinds == ["lineChart"], (book.name, kinds)
            for title, symbol, values in series:
                assert symbol == "circle" and values, (book.name, title)
                seen.add(title)
            peaks = [max(abs(v) for v in values) for _, _, values in series]
            if book.parent.name == "results":  # a faction's measures: each chart's lines on one scale
                assert max(peaks) <= 10 * min(peaks) or max(peaks) == 0, (book.name, series)
                assert all(title[:1].isupper() for title, _, _ in series), (book.name, series)
            if max(peaks) == 0:
                zeros += 1
                assert scaling == {"min": 0.0, "max": 1.0, "majorUnit": 1.0}, (book.name, scaling)
    if name == "inner_sphere":
        assert {"Tesoro", "Fuerzas"} <= seen
        davion = chart_parts(turn_dir / "results" / "DAVION.xlsx")
        assert sorted(t for _, series, _ in davion for t, _, _ in series) == ["Fuerzas", "Tesoro"]
        assert len(davion) == 2
    else:
        assert zeros, "the coordinated_orders example has a faction whose command tokens are all 0"


def test_the_gms_history_charts_are_captioned_as_labels_read(tmp_path_factory: pytest.TempPathFactory) -> None:
    """campaign.xlsx's History sheet: each chart's caption (the cell above it) a measure as a label reads
    (Tesoro, Fuerzas); its points table keeps the measures as the next turn reads them back."""
    from adjudicator.outputs.maps.charts import earlier_points

    turn_dir = example_turn("inner_sphere", tmp_path_factory)
    wb = openpyxl.load_workbook(turn_dir / "campaign_after.xlsx")
    history = wb[msg("History").render("es")]
    captions = {history.cell(row, 1).value for row in range(3, 3 + 18 * 2, 18)}
    assert captions == {"Tesoro", "Fuerzas"}, captions
    earlier = earlier_points(turn_dir / "campaign_after.xlsx", "es", ["treasury"], before=99)
    assert {p.measure for p in earlier} == {"tesoro", "fuerzas"}


def test_inner_sphere_hex_names_are_readable_and_overlap_nothing(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The GM's map of the inner_sphere example, drawn as the turn drew it (from the view campaign.xlsx
    keeps) at the picture's size: every hex name at least 11 pixels a line, inside its hex's width, and no
    name, unit or battle mark over another."""
    from adjudicator.outputs.maps import draw
    from adjudicator.outputs.maps.stored import kept_views

    turn_dir = example_turn("inner_sphere", tmp_path_factory)
    wb = openpyxl.load_workbook(turn_dir / "campaign_after.xlsx")
    (lang, view), = kept_views(wb).values()
    figure = draw._figure(view, lang)  # noqa: SLF001 - the figure the PNG is saved from
    figure.set_dpi(100)  # the dpi the turn saves its PNG at
    renderer = figure.canvas.get_renderer()
    ax = figure.axes[0]
    names = [t for t in ax.texts if (t.get_gid() or "").startswith("place:")]
    units = [t for t in ax.texts if t not in names and t.get_gid()]
    assert len(names) == len(view.places) == 36
    for text in names:
        lines = text.get_text().count("\n") + 1
        assert text.get_fontsize() * 100 / 72 >= 11, (text.get_text(), text.get_fontsize())
        box = text.get_window_extent(renderer)
        assert box.height / lines >= 11
        x, y = ax.transData.transform((0, 0))  # a hex's width at its name's height: 1.6 radii
        radius = ax.transData.transform((1, 0))[0] - x
        assert box.width <= 1.6 * radius, text.get_text()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in names + units]
    from matplotlib.transforms import Bbox

    battles = {c.get_gid(): c for c in ax.collections if (c.get_gid() or "").startswith("battle:")}
    for mark in battles.values():  # (two battles in one hex are one mark)
        (cx, cy), = ax.transData.transform(mark.get_offsets())
        half = (mark.get_sizes()[0] ** 0.5) / 2 * 100 / 72  # a marker's size is its width squared, in points
        boxes.append((mark.get_gid(), Bbox([[cx - half, cy - half], [cx + half, cy + half]])))
    assert any(gid.startswith("battle:") for gid, _ in boxes)
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1:]:
            assert not box_a.overlaps(box_b), (a, b)


def test_inner_sphere_changes_show_each_cause_whole_and_each_row_as_tall_as_its_lines(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """DAVION's Changes tab as written: no cause shortened with "…" (a link is one line: LibreOffice does not
    wrap it), its column as wide as its longest link, and every Before/After text broken into lines that fit
    their column (no office program breaks them again), the row no taller than those lines."""
    from adjudicator.outputs.layout import CELL_PADDING, LINE_POINTS, ROW_PADDING, text_width
    from adjudicator.outputs.maps.changes import CHARACTER_WIDTH

    turn_dir = example_turn("inner_sphere", tmp_path_factory)
    wb = openpyxl.load_workbook(turn_dir / "results" / "DAVION.xlsx")
    ws = wb[f"{msg('Changes').render('es')} T05"]
    links = [ws.cell(r, 6).value for r in range(2, ws.max_row + 1) if ws.cell(r, 6).hyperlink]
    assert links and not [c for c in links if "…" in c], links
    assert any("el sistema queda disputado." in c for c in links)  # the invasion's report row, whole
    assert ws.column_dimensions["F"].width >= max(len(c) for c in links) * CHARACTER_WIDTH
    wrapped = 0
    for r in range(2, ws.max_row + 1):
        lines = 1
        for c in (4, 5):
            value = ws.cell(r, c).value
            if isinstance(value, str):
                width = ws.column_dimensions["DE"[c - 4]].width
                assert all(text_width(line) <= width - CELL_PADDING for line in value.split("\n")), value
                lines = max(lines, value.count("\n") + 1)
        if lines > 1:
            wrapped += 1
            size = max(float(c.font.sz or 11) for c in ws[r] if c.value is not None) / 11  # a link's is 12
            assert ws.row_dimensions[r].height <= lines * LINE_POINTS * size + ROW_PADDING + 0.1, (r, lines)
    assert wrapped >= 3  # the production rows gained


@pytest.mark.slow
def test_inner_sphere_changes_print_each_cause_whole(tmp_path_factory: pytest.TempPathFactory, soffice: str,
                                                     tmp_path: Path) -> None:
    """The Changes tab of DAVION as LibreOffice prints it: every cause's text on the page whole."""
    import re

    from adjudicator.outputs.pictures import only_sheet
    from tests.conftest import convert

    turn_dir = example_turn("inner_sphere", tmp_path_factory)
    tab = f"{msg('Changes').render('es')} T05"
    kept = only_sheet(turn_dir / "results" / "DAVION.xlsx", tab, tmp_path / "changes.xlsx")
    pdf = convert(soffice, kept, "pdf", tmp_path / "pdf")
    import subprocess

    printed = " ".join(subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True,
                                      text=True).stdout.split())
    ws = openpyxl.load_workbook(kept)[tab]
    causes = {ws.cell(r, 6).value for r in range(2, ws.max_row + 1) if ws.cell(r, 6).value}
    assert causes
    for cause in causes:
        assert " ".join(str(cause).split()) in printed, cause
    assert not re.search(r"…", printed)
