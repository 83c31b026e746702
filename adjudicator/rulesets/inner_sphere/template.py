"""The cost preview of an order workbook: formula columns that show each row's cost, the running total
in payment order (repairs, purchases, research) and what is left of the treasury.

The core calls ``Ruleset.decorate_template`` at the end of every order workbook it builds
(``adjudicator templates``, the example builder, the blank templates), which fills these formulas in.
The engine never reads these columns back as anything but ignored text; every cost is recomputed
when the turn runs."""

from __future__ import annotations

from typing import Any

from openpyxl.styles import Protection
from openpyxl.utils import quote_sheetname
from openpyxl.workbook.workbook import Workbook

from adjudicator.engine.ledger import Amount, Ledger
from adjudicator.engine.row_table import table_rows
from adjudicator.engine.ruleset import Campaign
from adjudicator.i18n import gettext_in
from adjudicator.outputs.templates import INPUT_ROWS
from adjudicator.rulesets.inner_sphere import schemas
from adjudicator.rulesets.inner_sphere.data import tariffs
from adjudicator.rulesets.inner_sphere.orders.common import Context
from adjudicator.rulesets.inner_sphere.orders.repair import regiment_repair_cost
from adjudicator.rulesets.inner_sphere.phases import economy
from adjudicator.rulesets.inner_sphere.state import amount, world_from_tables

COSTS_SHEET = "_costs"


def available(campaign: Campaign, faction: str) -> Amount:
    """C a state has for its orders: treasury + income − upkeep − jumpship minimum."""
    world = world_from_tables(campaign.tables)
    ctx = Context(campaign.parameters, campaign.turn, Ledger(campaign.turn),  # lines thrown away
                  tariffs(table_rows(campaign.tables, "rule_tables")), world)
    economy.collect(world, ctx, faction)
    return world.treasury.get(faction, 0)


def _letter(schema: schemas.TableSchema, key: str) -> str:
    return "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[schema.keys().index(key)]


def _label(column: Any, code: str, lang: str) -> str:
    return gettext_in(lang, next(c.label for c in column.choices if c.code == code)).replace('"', "")


def _is(cell: str, column: Any, code: str, lang: str) -> str:
    """TRUE when ``cell`` holds the choice ``code`` as a player may write it: the label of the workbook's
    language, the code, or one of the synonyms the engine accepts (the source document's words)."""
    choice = next(c for c in column.choices if c.code == code)
    words = dict.fromkeys([_label(column, code, lang), code, *choice.synonyms])
    return "OR(" + ",".join(f'{cell}="{w.replace(chr(34), "")}"' for w in words) + ")"


def _table(ws: Any, col: int, rows: list[tuple[str, Any]]) -> str:
    for r, (k, v) in enumerate(rows, start=3):
        ws.cell(row=r, column=col, value=k).data_type = "s"
        ws.cell(row=r, column=col + 1, value=v)
    first = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[col - 1]
    second = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[col]
    return f"{quote_sheetname(COSTS_SHEET)}!${first}$3:${second}${max(3, 2 + len(rows))}"


def decorate(wb: Workbook, campaign: Campaign, faction: str) -> None:
    lang = campaign.factions[faction].language
    world = world_from_tables(campaign.tables)
    tariff = tariffs(table_rows(campaign.tables, "rule_tables"))
    params = campaign.parameters
    costs = wb.create_sheet(COSTS_SHEET)
    costs.sheet_state = "hidden"
    costs["A1"] = "available"
    costs["B1"] = amount(available(campaign, faction))
    repairs = [(r.id, amount(regiment_repair_cost(tariff.units[r.type].purchase, r.experience, params)))
               for r in world.regiments.values() if r.owner == faction and r.damaged]
    repairs += [(f.system, params["factory_repair_cost"]) for f in world.factories.values()
                if f.damaged and world.owner(f.system) == faction]
    unit_col = schemas.PURCHASES.column("unit_type")
    units = [(_label(unit_col, code, lang), amount(u.purchase)) for code, u in tariff.units.items()]
    units += [(code, amount(u.purchase)) for code, u in tariff.units.items()]
    defences = [(s.hex, amount(tariff.defences[s.defence + 1].purchase)) for s in world.systems.values()
                if s.owner == faction and s.defence < tariff.top_defence]
    line_col = schemas.RESEARCH.column("line")
    lines = [(_label(line_col, code, lang), 1 if (faction, code) in world.opened else 0)
             for code in schemas.LINE_ORDER]
    op_col = schemas.AGENCY.column("op")
    agency = tariff.tables["agency"]
    ops = [(_label(op_col, code, lang), agency[code]["cost"]) for code in sorted(agency)]
    ops += [(code, agency[code]["cost"]) for code in sorted(agency)]
    ops += [(synonym, agency[c.code]["cost"]) for c in op_col.choices for synonym in c.synonyms if synonym != c.code]
    ranges = {"repair": _table(costs, 1, repairs), "units": _table(costs, 4, units),
              "defences": _table(costs, 7, defences), "lines": _table(costs, 10, lines), "ops": _table(costs, 13, ops)}
    sheets = (schemas.REPAIRS, schemas.PURCHASES, schemas.AGENCY, schemas.RESEARCH)
    titles = {s.key: quote_sheetname(s.title_in(lang)) for s in sheets}
    last = INPUT_ROWS + 1

    def total_of(schema: schemas.TableSchema) -> str:
        letter = _letter(schema, "cost")
        return f"SUM({titles[schema.key]}!${letter}$2:${letter}${last})"

    moving = _movement(wb, costs, world, tariff, faction, lang, last)
    paid = f"{total_of(schemas.REPAIRS)}+{total_of(schemas.PURCHASES)}+{moving}"
    before = {"repairs": "0", "purchases": total_of(schemas.REPAIRS), "agency": paid,
              "research": f"{paid}+{total_of(schemas.AGENCY)}"}
    for schema in sheets:
        title = schema.title_in(lang)
        if title not in wb.sheetnames:
            continue
        ws = wb[title]
        c, t, left = (_letter(schema, k) for k in ("cost", "running", "left"))
        for r in range(2, last + 1):
            cost = _cost_formula(schema, r, lang, params, ranges, agency)
            ws[f"{c}{r}"] = f'=IF($A{r}="","",{cost})'
            ws[f"{t}{r}"] = f'=IF($A{r}="","",{before[schema.key]}+SUM(${c}$2:${c}{r}))'
            ws[f"{left}{r}"] = f'=IF($A{r}="","",{quote_sheetname(COSTS_SHEET)}!$B$1-{t}{r})'
            for letter in (c, t, left):
                ws[f"{letter}{r}"].protection = Protection(locked=True)


def _movement(wb: Workbook, costs: Any, world: Any, tariff: Any, faction: str, lang: str, last: int) -> str:
    """The movement charges beyond the minimum already taken as upkeep (spec §4.3: cost per hex ×
    max(1, steps) for each chain): column P of the hidden sheet counts each Movement row's steps (Start 0,
    Move the hexes of its path, Raid its rounds, any other action 1), columns S–U sum them per own
    jumpship, and E1 holds the total the later sheets' running totals count. A Move to a hex that is not
    adjacent is counted as 1 step here; the turn charges the path it expands to (W-MOV-PATH tells)."""
    schema = schemas.MOVEMENT
    title = schema.title_in(lang)
    if title not in wb.sheetnames:
        return "0"
    sheet = quote_sheetname(title)
    ship, action, hexes, rounds = (_letter(schema, k) for k in ("ship", "action", "hexes", "rounds"))
    kind = schema.column("action")
    costs["D1"] = "movement"
    costs["P1"] = "steps"
    for r in range(2, last + 1):
        a, h = f"{sheet}!${action}{r}", f"{sheet}!${hexes}{r}"
        norm = h
        for sep in (",", ";", "→", ">", "-"):
            norm = f'SUBSTITUTE({norm},"{sep}"," ")'
        norm = f"TRIM({norm})"
        count = f'IF({norm}="",0,LEN({norm})-LEN(SUBSTITUTE({norm}," ",""))+1)'
        costs[f"P{r}"] = (f'=IF({sheet}!${ship}{r}="",0,IF({_is(a, kind, "START", lang)},0,'
                          f'IF({_is(a, kind, "MOVE", lang)},{count},'
                          f'IF({_is(a, kind, "RAID", lang)},MAX(1,N({sheet}!${rounds}{r})),1))))')
    ships = sorted((s for s in world.jumpships.values() if s.owner == faction), key=lambda s: s.id)
    for i, s in enumerate(ships, start=3):
        costs.cell(row=i, column=19, value=s.id).data_type = "s"
        costs.cell(row=i, column=20, value=amount(tariff.ships[s.cls].per_hex))
        costs[f"U{i}"] = f"=T{i}*(MAX(1,SUMIF({sheet}!${ship}$2:${ship}${last},S{i},$P$2:$P${last}))-1)"
    end = max(3, 2 + len(ships))
    costs["E1"] = f"=SUM(U3:U{end})"
    return f"{quote_sheetname(COSTS_SHEET)}!$E$1"


def _key(cell: str) -> str:
    return f'IF(ISNUMBER({cell}),TEXT({cell},"0000"),{cell})'


def _cost_formula(schema: schemas.TableSchema, r: int, lang: str, params: dict, ranges: dict[str, str],
                  agency: dict[str, Any]) -> str:
    if schema.key == "agency":
        return _agency_formula(r, lang, ranges["ops"], agency)
    kind = schema.column("kind")
    if schema.key == "repairs":
        return f"IFERROR(VLOOKUP({_key(f'B{r}')},{ranges['repair']},2,FALSE),0)"
    if schema.key == "purchases":
        return (f'IF({_is(f"$A{r}", kind, "REG", lang)},IFERROR(VLOOKUP(C{r},{ranges["units"]},2,FALSE),0),'
                f'IF({_is(f"$A{r}", kind, "DEF", lang)},'
                f'IFERROR(VLOOKUP({_key(f"B{r}")},{ranges["defences"]},2,FALSE),0),0))')
    roll = _label(kind, "ROLL", lang)
    yes = _label(schemas.RESEARCH.column("dismantle"), "YES", lang)
    die, opening = params["research_die_cost"], params["research_open_cost"]
    first = (f'IF(AND(IFERROR(VLOOKUP(C{r},{ranges["lines"]},2,FALSE),1)=0,'
             f'COUNTIFS($A$1:$A{r - 1},"{roll}",$C$1:$C{r - 1},C{r})=0),{opening - die},0)')
    return (f'IF({_is(f"$A{r}", kind, "LAB", lang)},IF(E{r}="{yes}",{params["lab_reassign_cost"]},0),'
            f'IF({_is(f"$A{r}", kind, "ROLL", lang)},N(D{r})*{die}+{first},'
            f'IF({_is(f"$A{r}", kind, "ICNA", lang)},{params["icna_cost"]},N(G{r}))))')


def _agency_formula(r: int, lang: str, table: str, agency: dict[str, Any]) -> str:
    """The operation's cost (by label, code or Spanish name) + the bribe; 352 by the status quelled;
    342 Attach is free."""
    schema = schemas.AGENCY
    op, mode, status, bribe = (_letter(schema, k) for k in ("op", "mode", "status", "bribe"))
    attach = _label(schema.column("mode"), "ATTACH", lang)
    civil, military, revolt = (_label(schema.column("status"), code, lang) for code in ("CIVIL", "MILITARY", "REVOLT"))
    b = agency["352"]
    by_status = (f'IF({status}{r}="{civil}",{b["civil"]},IF({status}{r}="{military}",{b["military"]},'
                 f'IF({status}{r}="{revolt}",{b["revolt"]},0)))')
    key = f'IF(ISNUMBER(${op}{r}),TEXT(${op}{r},"0"),${op}{r})'
    base = f"IFERROR(VLOOKUP({key},{table},2,FALSE),0)"
    return f'IF({mode}{r}="{attach}",0,IF({status}{r}<>"",{by_status},{base})+N({bribe}{r}))'
