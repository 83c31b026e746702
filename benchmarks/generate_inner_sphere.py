"""An Inner Sphere campaign at any size whose orders are legal for the most part, with a known share of mistakes.

    from generate_inner_sphere import answer, build, campaign
    data, mistake_rows = campaign(factions=40, orders=300, seed=1, mistakes=0.05)
    mistake_rows = build(DIR, factions=40, orders=300)   # the same, written: DIR/campaign.xlsx, DIR/inbox/*.xlsx

``data`` is shaped like :func:`adjudicator.scenario.load_scenario`'s output for the inner_sphere example
("settings", "tables", "orders"; no GM input), for :func:`adjudicator.scenario.build_from_data`. Turn 1,
default parameters, every faction writing in English.

The world grows with the factions and with the rows a sheet: each faction owns a block of 8 hex columns, as
many rows of hexes as its orders need (at least 5), every hex a system of its own but one, the block's
bottom-right hex, an unowned "frontier" system. The blocks are laid in a grid that stays inside the
99 × 99 XXYY map (40 factions × 300 rows: blocks of 8 × 15 hexes, 9 blocks a row, 72 × 75 hexes, 4,800
systems, 14,320 regiments, 1,640 jumpships; 160 factions × 100 rows fit too, 80 × 300 do not: a campaign that
does not fit is refused with ValueError). A faction holds, for L legal rows a sheet:

- ⌈L/4⌉ systems with a working heavy factory (3 production lines), ⌈L/40⌉ systems with a damaged light
  factory, the rest of its block factory-less (one of them in civil discontent), a treasury of 10,000,000 C;
- a damaged regiment on one of its systems for every regiment repair, two healthy regiments for every
  jumpship chain, and one more for the invasion of its frontier system;
- jumpships (NS1, NS2, NS3 in turn) as many as its movement rows need, each at the first of four systems
  of its own, one above the other in a column of its block (adjacent in the odd-q layout);
- five labs, one on each research line, every line opened (Industrial development at 500 points, which
  allows new factories); faction 0 controls the ICNA;
- three commandos established before turn 1 in the next faction's heavy-factory systems (none with one
  faction).

Every sheet of every faction has exactly M rows. Every ``round(1/mistakes)``-th row of a sheet is a deliberate
mistake that ``check`` reports as exactly one error (their kinds taken in turn); the other rows are legal:

- Repairs: regiment repairs of damaged regiments on their own planets, a factory repair of a damaged
  light factory every 40 rows or so (100 % of the legal rows accepted). Mistakes: a regiment that does not
  exist (E-GEN-NOTFOUND), a regiment that is not damaged (E-REP-NOTDAMAGED), a factory that is not damaged
  (E-REP-FNOTDAMAGED).
- Purchases: for each heavy-factory system three regiments of any type (one a production line) and the next
  aerospace defence level (100 %). Mistakes: a system that does not exist (E-GEN-NOTFOUND), the unowned
  frontier system (E-BUY-SYS), a defence level out of sequence (E-DEF-SEQ).
- Movement: first the invasion chain (Start, Load, Move to the adjacent frontier system, Invade), then one
  chain a jumpship within its safe range (no accident roll): Start, Load, Move, Unload, Move, Load, Move,
  Unload down its column of own systems, cut to the class's safe hexes (8, 7 or 6 rows), the last chain
  cut to the rows left (100 %; 41 jumpships a faction at 40 × 300). Each invasion is the one combat of the
  faction's turn: pass 1 of ``run`` asks the GM for its result, :func:`answer` gives it (Attacker takes the
  system). Mistakes: a chain of one row for a jumpship that does not exist (E-MOV-SHIP), which rejects no
  other chain.
- Agency: operations taken in turn from each kind the faction can legally order: espionage, industrial
  sabotage and civil or military discontent where its commandos are, a rumour and technological sabotage
  against the next faction, technological protection of its five lines, bread and circuses for its
  discontented system, new commandos in its frontier system, industrial protection of its factory systems,
  purges of its systems and military protection of its regiments (100 %; at 40 × 300 a faction orders 72
  industrial protections, 97 purges, 96 military protections and 20 others). Mistakes: a system that does not
  exist (E-GEN-NOTFOUND), discontent fomented in an own system (E-AG-OFF), a protection of the unowned
  frontier system (E-AG-DEF).
- Research: the rules allow 5 research dice a turn (one a lab on its line) and one ICNA roll (for its
  owner), and a new factory once a system in the factory-less systems: the sheet holds 5 dice rows (one a
  line), the ICNA roll (faction 0), a stake for a new light factory in each factory-less system, then the
  labs reassigned to another line in turn, each dismantled (150 C), legal as often as it names another line
  than the lab's (100 %; at 40 × 300 about 39 stakes and 240 reassignments a faction). Mistakes: lab 6 of 5
  (E-RES-LAB), a stake that is no multiple of 100 (E-RES-STAKE), a new factory in a system with one
  (E-RES-FACSYS).

Warnings: none are written on purpose (every Move is to an adjacent hex).
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the adjudicator package, run from a checkout

from generated_mistakes import is_mistake, mistake_every  # noqa: E402

BLOCK_COLUMNS = 8  # hex columns of a faction's block
MIN_BLOCK_ROWS = 5  # a column of four own systems for the chains, above the frontier system
MAP_EDGE = 99  # XXYY: columns and rows 01..99
TREASURY = 10_000_000
LINES = ("AERO", "ARM", "IND", "COMM", "ECO")
POINTS = {"AERO": 40, "ARM": 90, "IND": 500, "COMM": 120, "ECO": 160}  # IND 500: new factories allowed
UNIT_TYPES = ("VL", "VM", "VH", "VA", "ML", "MM", "MH", "MA")  # a heavy factory builds them all
EXPERIENCES = ("GREEN", "REGULAR", "VETERAN", "ELITE")
SHIP_CLASSES = ("NS1", "NS2", "NS3")
SAFE_HEXES = {"NS1": 7, "NS2": 6, "NS3": 5}  # tables.toml: no accident roll within them
REGIMENT_WORDS = ("Guards", "Lancers", "Hussars", "Rangers", "Militia", "Regulars", "Dragoons", "Cuirassiers")
MISSING_HEX = "0000"  # never a system: the map's hexes are 0101..9999


# ------------------------------------------------------------------------------------------------ sizes
def legal_rows(orders: int, every: int) -> int:
    """The rows of a sheet that are not mistakes."""
    return orders - (orders // every if every else 0)


@dataclass(frozen=True)
class Sizes:
    """What one faction owns so that ``legal`` rows of each sheet are legal."""

    legal: int

    @property
    def factory_systems(self) -> int:
        """Three regiments and a defence level a heavy-factory system: four purchase rows."""
        return max(1, math.ceil(self.legal / 4))

    @property
    def broken_factories(self) -> int:
        """Damaged light factories, one factory repair every 40 repair rows or so."""
        return max(1, math.ceil(self.legal / 40))

    @property
    def plain_minimum(self) -> int:
        """Factory-less systems at least: new factory stakes, the discontented system, mistakes' targets."""
        return max(2, math.ceil(self.legal / 8))

    @property
    def block_rows(self) -> int:
        own = self.factory_systems + self.broken_factories + self.plain_minimum
        return max(MIN_BLOCK_ROWS, math.ceil((own + 1) / BLOCK_COLUMNS))


def hex_label(column: int, row: int) -> str:
    return f"{column:02d}{row:02d}"


# ------------------------------------------------------------------------------------------------ map
@dataclass
class Block:
    """A faction's block of hexes and what each own system is for."""

    faction: str
    left: int
    top: int
    rows: int
    frontier: str = ""
    own: list[str] = field(default_factory=list)  # every hex of the block but the frontier, column by column
    factory_systems: list[str] = field(default_factory=list)
    broken_systems: list[str] = field(default_factory=list)
    plain_systems: list[str] = field(default_factory=list)

    def at(self, column: int, row: int) -> str:
        """The hex at column ``column`` and row ``row`` of the block (both from 0)."""
        return hex_label(self.left + column, self.top + row)

    def path(self, index: int) -> tuple[str, str, str, str]:
        """Four own systems one above the other (each adjacent to the next), the ``index``-th of the block's
        runs: columns first, then starting rows, never the bottom row (where the frontier system is)."""
        column = index % BLOCK_COLUMNS
        start = (index // BLOCK_COLUMNS) % (self.rows - 4)
        return tuple(self.at(column, start + k) for k in range(4))  # type: ignore[return-value]

    @property
    def invasion_start(self) -> str:
        """The own system right above the frontier system."""
        return self.at(BLOCK_COLUMNS - 1, self.rows - 2)


def lay_out(names: list[str], sizes: Sizes, rng: random.Random) -> list[Block]:
    """The factions' blocks in a grid as square as the map allows, each block's systems given their roles."""
    rows = sizes.block_rows
    across = min(len(names), max(1, math.ceil(math.sqrt(len(names) * rows / BLOCK_COLUMNS))))
    while math.ceil(len(names) / across) * rows > MAP_EDGE and (across + 1) * BLOCK_COLUMNS <= MAP_EDGE:
        across += 1  # wider than square, to stay on the map
    down = math.ceil(len(names) / across)
    if down * rows > MAP_EDGE or across * BLOCK_COLUMNS > MAP_EDGE:
        raise ValueError(f"{len(names)} factions with blocks of {BLOCK_COLUMNS} × {rows} hexes do not fit on the "
                         f"{MAP_EDGE} × {MAP_EDGE} XXYY map: fewer factions or fewer orders")
    blocks = []
    for f, name in enumerate(names):
        block = Block(name, 1 + (f % across) * BLOCK_COLUMNS, 1 + (f // across) * rows, rows)
        block.frontier = block.at(BLOCK_COLUMNS - 1, rows - 1)
        block.own = [block.at(c, r) for c in range(BLOCK_COLUMNS) for r in range(rows)][:-1]
        own = list(block.own)
        rng.shuffle(own)
        cut = sizes.factory_systems + sizes.broken_factories
        block.factory_systems = sorted(own[:sizes.factory_systems])
        block.broken_systems = sorted(own[sizes.factory_systems:cut])
        block.plain_systems = sorted(own[cut:])
        blocks.append(block)
    return blocks


# ------------------------------------------------------------------------------------------------ world
@dataclass
class Holdings:
    """A faction's regiments and jumpships, made as its order rows need them."""

    block: Block
    rng: random.Random
    regiments: list[dict[str, Any]] = field(default_factory=list)
    jumpships: list[dict[str, Any]] = field(default_factory=list)
    invader: str = ""  # the regiment that invades the frontier system

    @property
    def faction(self) -> str:
        return self.block.faction

    def regiment(self, system: str, damaged: bool) -> str:
        """A new regiment of the faction on the planet of ``system``; its ID."""
        n = len(self.regiments) + 1
        rid = f"{self.faction}-R{n:04d}"
        self.regiments.append({
            "id": rid, "name": f"{_ordinal(n)} {self.faction} {self.rng.choice(REGIMENT_WORDS)}",
            "owner": self.faction, "type": self.rng.choice(UNIT_TYPES), "experience": self.rng.choice(EXPERIENCES),
            "system": system, "damaged": "YES" if damaged else "NO"})
        return rid

    def jumpship(self, cls: str, hex_: str) -> str:
        sid = f"{self.faction}-J{len(self.jumpships):03d}"
        self.jumpships.append({"id": sid, "owner": self.faction, "class": cls, "hex": hex_})
        return sid


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def system_rows(block: Block, rng: random.Random, icna: bool) -> list[dict[str, Any]]:
    """The block's systems: its own (the first heavy-factory one holding the ICNA for faction 0) and the
    unowned frontier system."""
    rows = []
    for hex_ in sorted([*block.own, block.frontier]):
        owner = "" if hex_ == block.frontier else block.faction
        defence = rng.randint(0, 2) if hex_ in block.factory_systems else 0
        rows.append({"hex": hex_, "name": f"{block.faction} {hex_}", "owner": owner, "income": rng.randint(2, 6) * 10,
                     "defence": defence, "disputed": "NO",
                     "icna": "YES" if icna and hex_ == block.factory_systems[0] else "NO"})
    return rows


def factory_rows(block: Block) -> list[dict[str, Any]]:
    working = [{"id": f"{h}-F1", "system": h, "type": "HEAVY", "damaged": "NO"} for h in block.factory_systems]
    broken = [{"id": f"{h}-F1", "system": h, "type": "LIGHT", "damaged": "YES"} for h in block.broken_systems]
    return working + broken


# ------------------------------------------------------------------------------------------------ legal rows
def repair_rows(holdings: Holdings, legal: int) -> list[dict[str, Any]]:
    """Regiment repairs of damaged regiments made for them, and the damaged factories' repairs spread among
    them (one a factory)."""
    block = holdings.block
    broken = block.broken_systems[:legal]
    factory_at = {round((k + 0.5) * legal / len(broken)) for k in range(len(broken))} if broken else set()
    rows, left = [], list(broken)
    for i in range(legal):
        if i in factory_at and left:
            rows.append({"kind": "FACTORY", "target": left.pop(0)})
        else:
            rid = holdings.regiment(holdings.rng.choice(block.own), damaged=True)
            rows.append({"kind": "REG", "target": rid})
    return rows


def purchase_rows(holdings: Holdings, defences: dict[str, int], legal: int) -> list[dict[str, Any]]:
    """Each heavy-factory system in turn: three regiments (its three lines) and its next defence level."""
    rows: list[dict[str, Any]] = []
    rng = holdings.rng
    for system in holdings.block.factory_systems:
        for line in range(3):
            row = {"kind": "REG", "system": system, "unit_type": rng.choice(UNIT_TYPES)}
            if line == 0:
                row["name"] = f"{system} Reserve"
            rows.append(row)
        level = defences[system] + 1
        rows.append({"kind": "DEF", "system": system, "level": level} if rng.random() < 0.5 else
                    {"kind": "DEF", "system": system})
    return rows[:legal]


def chain_rows(ship: str, steps: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    return [{"ship": ship, "seq": n, "action": action, **cells} for n, (action, cells) in enumerate(steps, start=1)]


def invasion_chain(holdings: Holdings) -> list[dict[str, Any]]:
    """The faction's one combat: a regiment carried from the system above to the unowned frontier system."""
    block = holdings.block
    start = block.invasion_start
    holdings.invader = holdings.regiment(start, damaged=False)
    ship = holdings.jumpship("NS2", start)
    return chain_rows(ship, [("START", {"hexes": start}), ("LOAD", {"regiments": holdings.invader}),
                             ("MOVE", {"hexes": block.frontier}), ("INVADE", {"regiments": holdings.invader})])


def ferry_chain(holdings: Holdings, index: int) -> list[dict[str, Any]]:
    """A jumpship down a column of own systems A, B, C, D: loads a regiment at A and unloads it at B, loads
    another at C and unloads it at D, cut to its class's safe hexes."""
    a, b, c, d = holdings.block.path(index)
    cls = SHIP_CLASSES[index % len(SHIP_CLASSES)]
    ship = holdings.jumpship(cls, a)
    first, second = holdings.regiment(a, damaged=False), holdings.regiment(c, damaged=False)
    steps = [("START", {"hexes": a}), ("LOAD", {"regiments": first}), ("MOVE", {"hexes": b}),
             ("UNLOAD", {"regiments": first}), ("MOVE", {"hexes": c}), ("LOAD", {"regiments": second}),
             ("MOVE", {"hexes": d}), ("UNLOAD", {"regiments": second})]
    return chain_rows(ship, steps[:1 + SAFE_HEXES[cls]])


def movement_rows(holdings: Holdings, legal: int) -> list[dict[str, Any]]:
    """The invasion chain, then ferry chains until the legal rows are written (the last cut short)."""
    rows = invasion_chain(holdings)
    index = 0
    while len(rows) < legal:
        rows += ferry_chain(holdings, index)
        index += 1
    return rows[:legal]


def agency_kinds(holdings: Holdings, target: Block | None, commandos: list[str]) -> list[list[dict[str, Any]]]:
    """The operations the faction may legally order, by kind (each target once a kind)."""
    block, faction, rng = holdings.block, holdings.faction, holdings.rng
    offensive: list[dict[str, Any]] = []
    if target is not None and commandos:
        offensive += [{"op": "354", "target": target.faction, "text": f"{faction} is massing regiments."},
                      *({"op": "347", "target": f"{target.faction}:{line}"} for line in ("COMM", "IND"))]
    for k, hex_ in enumerate(commandos):
        offensive += [{"op": "353", "target": hex_}, {"op": "343", "target": hex_},
                      {"op": "349" if k % 2 == 0 else "350", "target": hex_}]
    return [
        in_turns(offensive),
        [{"op": "348", "target": f"{faction}:{line}"} for line in LINES],
        [{"op": "352", "target": block.plain_systems[0], "status": "CIVIL"}],
        [{"op": "342", "mode": "NEW", "target": block.frontier, "bribe": bribe} for bribe in (0, 20)],
        [{"op": "344", "target": hex_} for hex_ in block.factory_systems],
        [{"op": "341", "target": hex_} for hex_ in rng.sample(block.own, len(block.own))],
        [{"op": "346", "target": r["id"]} for r in holdings.regiments],
    ]


def in_turns(operations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The operations reordered so that each operation number comes once before any comes twice (a few rows
    show every kind), each number's rows in their order."""
    seen: dict[str, int] = {}
    ranked = []
    for op in operations:
        ranked.append((seen.get(op["op"], 0), len(ranked), op))
        seen[op["op"]] = seen.get(op["op"], 0) + 1
    return [op for *_, op in sorted(ranked, key=lambda item: item[:2])]


def agency_rows(holdings: Holdings, target: Block | None, commandos: list[str], legal: int) -> list[dict[str, Any]]:
    """The kinds' operations taken in turn, one of each kind that has any left, until the legal rows are written."""
    kinds = [list(kind) for kind in agency_kinds(holdings, target, commandos)]
    rows: list[dict[str, Any]] = []
    while len(rows) < legal and any(kinds):
        for kind in kinds:
            if kind and len(rows) < legal:
                rows.append(kind.pop(0))
    if len(rows) < legal:
        raise RuntimeError(f"{holdings.faction}: only {len(rows)} legal agency rows for {legal}")
    return rows


def research_rows(holdings: Holdings, icna: bool, legal: int) -> list[dict[str, Any]]:
    """A die for each line (one lab each), the ICNA roll for its owner, a stake for a new factory in each
    factory-less system, then labs dismantled and reassigned to the next line, lab after lab."""
    rows: list[dict[str, Any]] = [{"kind": "ROLL", "line": line, "dice": 1} for line in LINES]
    if icna:
        rows.append({"kind": "ICNA", "line": "ARM"})
    rows += [{"kind": "FACTORY", "system": hex_, "stake": holdings.rng.randint(1, 5) * 100}
             for hex_ in holdings.block.plain_systems]
    current = {lab: line for lab, line in enumerate(LINES, start=1)}
    n = 0
    while len(rows) < legal:
        lab = n % len(LINES) + 1
        current[lab] = LINES[(LINES.index(current[lab]) + 1) % len(LINES)]
        rows.append({"kind": "LAB", "lab": lab, "line": current[lab], "dismantle": "YES"})
        n += 1
    return rows[:legal]


# ------------------------------------------------------------------------------------------------ mistakes
def mistake_rows(holdings: Holdings, row: int) -> dict[str, list[dict[str, Any]]]:
    """For each sheet, the kinds of deliberate mistake, each one error of ``check`` (see the module's text)."""
    block, faction = holdings.block, holdings.faction
    plain, factory = block.plain_systems[0], block.factory_systems[0]
    return {
        "repairs": [{"kind": "REG", "target": f"{faction}-LOST{row}"}, {"kind": "REG", "target": holdings.invader},
                    {"kind": "FACTORY", "target": factory}],
        "purchases": [{"kind": "REG", "system": MISSING_HEX, "unit_type": "VL"},
                      {"kind": "REG", "system": block.frontier, "unit_type": "VL"},
                      {"kind": "DEF", "system": plain, "level": 2}],
        "movement": [{"ship": f"{faction}-GHOST{row}", "seq": 1, "action": "START"}],
        "agency": [{"op": "353", "target": MISSING_HEX}, {"op": "349", "target": plain},
                   {"op": "344", "target": block.frontier}],
        "research": [{"kind": "LAB", "lab": 6, "line": "ECO"}, {"kind": "FACTORY", "system": plain, "stake": 150},
                     {"kind": "FACTORY", "system": factory, "stake": 100}],
    }


def woven(holdings: Holdings, sheet: str, legal: list[dict[str, Any]], orders: int, every: int) -> tuple[list, int]:
    """The sheet's ``orders`` rows: the legal rows in order, a mistake at every ``every``-th row (their kinds in
    turn); and how many mistakes."""
    rows, wrong, left = [], 0, iter(legal)
    for r in range(orders):
        if is_mistake(r, every):
            kinds = mistake_rows(holdings, r)[sheet]
            rows.append(kinds[wrong % len(kinds)])
            wrong += 1
        else:
            rows.append(next(left))
    return rows, wrong


# ------------------------------------------------------------------------------------------------ campaign
def faction_names(factions: int) -> list[str]:
    return [f"F{i:03d}" for i in range(factions)]


def research_tables(faction: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every line opened with its points, a lab on each, locked until its next level."""
    from adjudicator.rulesets.inner_sphere.data import next_threshold

    points = [{"faction": faction, "line": line, "points": POINTS[line], "opened": "YES"} for line in LINES]
    labs = [{"faction": faction, "lab": lab, "line": line, "unlock_at": next_threshold(line, POINTS[line])}
            for lab, line in enumerate(LINES, start=1)]
    return points, labs


def campaign(factions: int, orders: int, seed: int, mistakes: float) -> tuple[dict, int]:
    """(data, mistake_rows): data shaped like adjudicator.scenario.load_scenario's output for the inner_sphere
    example (keys "settings", "tables", "orders"; no "gm_input"), to be passed to
    adjudicator.scenario.build_from_data(data, out); mistake_rows = how many rows were written as deliberate
    mistakes."""
    rng = random.Random(seed)
    every = mistake_every(mistakes)
    legal = legal_rows(orders, every)
    names = faction_names(factions)
    blocks = lay_out(names, Sizes(legal), rng)
    tables: dict[str, list[dict[str, Any]]] = {key: [] for key in (
        "factions", "systems", "factories", "regiments", "jumpships", "research_points", "labs", "commandos",
        "unrest")}
    sheets: dict[str, dict[str, list[dict[str, Any]]]] = {}
    wrong = 0
    for f, block in enumerate(blocks):
        target = blocks[(f + 1) % factions] if factions > 1 else None
        spied = target.factory_systems[:3] if target is not None else []
        systems = system_rows(block, rng, icna=f == 0)
        defences = {s["hex"]: s["defence"] for s in systems}
        holdings = Holdings(block, rng)
        legal_sheets = {
            "repairs": repair_rows(holdings, legal),
            "purchases": purchase_rows(holdings, defences, legal),
            "movement": movement_rows(holdings, legal),
        }
        legal_sheets["agency"] = agency_rows(holdings, target, spied, legal)
        legal_sheets["research"] = research_rows(holdings, f == 0, legal)
        sheets[block.faction] = {}
        for sheet, rows in legal_sheets.items():
            sheets[block.faction][sheet], count = woven(holdings, sheet, rows, orders, every)
            wrong += count
        points, labs = research_tables(block.faction)
        tables["factions"].append({"id": block.faction, "name": f"Faction {block.faction}", "language": "en",
                                   "treasury": TREASURY})
        tables["systems"] += systems
        tables["factories"] += factory_rows(block)
        tables["regiments"] += holdings.regiments
        tables["jumpships"] += holdings.jumpships
        tables["research_points"] += points
        tables["labs"] += labs
        tables["commandos"] += [{"id": f"{block.faction}-C{k + 1}", "owner": block.faction, "system": hex_,
                                 "established_turn": 0} for k, hex_ in enumerate(spied)]
        tables["unrest"].append({"hex": block.plain_systems[0], "civil": "YES"})
    data = {
        "settings": {"ruleset": "inner_sphere", "campaign": "bench-inner-sphere", "title": "Inner Sphere bench",
                     "seed": seed, "turn": 1, "language": "en", "secret": "bench"},
        "tables": tables,
        "orders": sheets,
    }
    return data, wrong


# ------------------------------------------------------------------------------------------------ the GM
#: What the GM answers, by the kind an ID begins with: invasions of the unowned frontier succeed.
VERDICTS = {"INVASION": "TAKEN", "RAID": "HOLDS", "DEFENCE_FIRE": "HOLDS", "ACCIDENT": "NONE"}


def answer(root: Path) -> None:
    """Between run's two passes: answer every request the GM input workbook of the current turn holds
    (pass 1 of `run` writes it), so that pass 2 resolves the turn. Each row of a GM sheet with a Result
    column and none entered gets the verdict of its kind (:data:`VERDICTS`), written in the campaign's
    language; nothing is done when pass 1 asked nothing (no workbook)."""
    from openpyxl import load_workbook

    from adjudicator.rulesets.inner_sphere.gm import read_id
    from adjudicator.turn import pipeline

    folder, campaign_, ruleset = pipeline.open_campaign(root)
    path = folder.gm_input(campaign_.turn)
    if not path.exists():
        return
    book = load_workbook(path)
    for schema in ruleset.gm_input_schemas:
        title = schema.title_in(campaign_.language)
        if "result" not in schema.keys() or title not in book.sheetnames:
            continue
        sheet, column = book[title], schema.column("result")
        result_at = schema.keys().index("result") + 1
        for row in range(2, sheet.max_row + 1):
            ident = sheet.cell(row=row, column=1).value
            if not ident or sheet.cell(row=row, column=result_at).value:
                continue
            kind = read_id(ident).partition(":")[0]
            sheet.cell(row=row, column=result_at, value=column.choice_label(VERDICTS.get(kind, "HOLDS"),
                                                                            campaign_.language))
    book.save(path)


def build(out: Path, factions: int, orders: int, seed: int = 1, mistakes: float = 0.05) -> int:
    """The campaign written into ``out`` (which must not exist: campaign.xlsx and inbox/); its mistake rows."""
    from adjudicator.scenario import build_from_data

    data, wrong = campaign(factions, orders, seed, mistakes)
    (out / "inbox").mkdir(parents=True)
    build_from_data(data, out)
    return wrong
