"""The Coordinated Order sheet: rows grouped by CO code, each CO checked as a whole (V01–V19).

Every check depends on the declarations and the roster only, never on the GM's facts, so ``check``
and ``run`` reach the same verdict. Command Tokens and Regular Orders (V02, V03, V17) are spent in
the order of the rows: a CO finds what the legal COs above it left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.orders import OrderType, Row
from adjudicator.engine.outcome import Done
from adjudicator.i18n import Msg, fold, msg
from adjudicator.rulesets.coordinated_orders import schemas
from adjudicator.rulesets.coordinated_orders.orders.common import Declarations, Rejection, joined, targets_in
from adjudicator.rulesets.coordinated_orders.skills import Skill, Skills, skill
from adjudicator.rulesets.coordinated_orders.state import HIDDEN, Game, Trooper, ident


@dataclass(frozen=True)
class Declared:
    code: str
    tool: str
    target: str
    bonus: int


@dataclass
class Entry:
    row: int
    ref: str
    spearhead: bool
    skills: dict[int, Declared | None]
    invalid: bool
    trooper: Trooper | None = None


@dataclass
class Declaration:
    faction: str
    co: str
    entries: list[Entry]

    @property
    def first_row(self) -> int:
        return self.entries[0].row

    def spearhead(self) -> Entry | None:
        heads = [e for e in self.entries if e.spearhead]
        return heads[0] if len(heads) == 1 else None

    def reference(self) -> Entry:
        return self.spearhead() or self.entries[0]


@dataclass
class Consumption:
    combat_group: int
    tokens: int
    orders: int
    forfeits: list[tuple[str, str]] = field(default_factory=list)  # (trooper, REGULAR | IRREGULAR)
    #: Each participant's deployment when the CO was declared (a Marker may be revealed by it).
    before: dict[str, str] = field(default_factory=dict)


@dataclass
class Verdict:
    declaration: Declaration
    legal: bool
    errors: list[Rejection]
    consumption: Consumption | None = None


def entry_of(row: int, r: Any, invalid: bool) -> Entry:
    """One row of a CO: its trooper, Spearhead and declared Skills."""
    skills: dict[int, Declared | None] = {}
    for k in (1, 2):
        code = r.get(f"skill{k}")
        if code is None and not r.get(f"tool{k}") and not r.get(f"target{k}"):
            skills[k] = None
            continue
        bonus = r.get(f"bonus{k}")
        skills[k] = Declared(str(code or ""), str(r.get(f"tool{k}") or "").strip(),
                             str(r.get(f"target{k}") or "").strip(), int(bonus) if bonus is not None else 0)
    return Entry(row, ident(r.get("trooper")), r.get("spearhead") == "YES", skills, invalid)


def _names(entries: list[Entry]) -> str:
    return ", ".join(e.ref for e in entries)


def _grouped(entries: list[Entry], key: Any, label: Any) -> Msg | str:
    groups: dict[Any, list[str]] = {}
    for e in entries:
        groups.setdefault(key(e), []).append(e.ref)
    return joined([joined([label(k), ", ".join(v)], ": ") for k, v in groups.items()], "; ")


def _training(code: str) -> Any:
    from adjudicator.rulesets.coordinated_orders.schemas import TRAININGS

    return next((msg(c.label) for c in TRAININGS if c.code == code), code)


def static_errors(game: Game, dec: Declaration, params: dict[str, Any], table: Skills) -> list[Rejection]:
    """Declaration errors that do not depend on what other COs spent: V01, V04–V16, V18, V19."""
    errors: list[Rejection] = []
    first = dec.first_row
    if game.active != dec.faction or game.phase != "ORDERS":
        errors.append(Rejection("V01", msg("A Coordinated Order can only be declared during the Orders Phase of "
                                           "your Active Turn."), row=first, column="co"))
    count = len(dec.entries)
    if count > params["max_participants"]:
        errors.append(Rejection("V04", msg_n_participants(count, params["max_participants"]),
                                row=dec.entries[params["max_participants"]].row, column="trooper",
                                hint=msg("Take the extra troopers out of this CO.")))
    if count < params["min_participants"]:
        errors.append(Rejection("V05", msg("A Coordinated Order needs at least {n} Troopers.",
                                           n=params["min_participants"]), row=first, column="co",
                                hint=msg("Add participants, or give the trooper an Order of its own.")))
    seen: set[str] = set()
    for e in dec.entries:
        trooper = game.troopers.get(e.ref)
        if trooper is not None and trooper.faction != dec.faction:
            trooper = None
        if trooper is None:
            trooper = game.find(dec.faction, e.ref)
        e.trooper = trooper
        if trooper is None or not trooper.can_act or trooper.id in seen:
            why = (msg("it is not a trooper of your roster") if trooper is None
                   else msg("it is listed twice") if trooper.id in seen
                   else msg("it cannot receive Orders"))
            errors.append(Rejection("V11", msg("{id} cannot take part in this Order: {why}.", id=e.ref or "?",
                                               why=why), row=e.row, column="trooper"))
            if trooper is not None and trooper.id in seen:
                e.trooper = None
            continue
        seen.add(trooper.id)
        if trooper.link in ("PERIPHERAL", "CONTROLLER"):
            errors.append(Rejection("V09", msg("{id} is a Peripheral or a Controller and cannot join a Coordinated "
                                               "Order.", id=e.ref), row=e.row, column="trooper"))
        if trooper.fireteam and params["fireteam_module_enabled"]:
            errors.append(Rejection("V10", msg("{id} belongs to a Fireteam and cannot join a Coordinated Order.",
                                               id=e.ref), row=e.row, column="trooper"))
    known = [e for e in dec.entries if e.trooper is not None]
    reference = next((e for e in known if e.spearhead), known[0] if known else None)
    if reference is not None:
        groups = {e.trooper.combat_group for e in known}  # type: ignore[union-attr]
        if len(groups) > 1:
            listed = _grouped(known, lambda e: e.trooper.combat_group, lambda g: msg("CG {g}", g=g))
            for e in known:
                if e.trooper.combat_group != reference.trooper.combat_group:  # type: ignore[union-attr]
                    errors.append(Rejection("V06", msg("All participants must belong to the same Combat Group "
                                                       "({list}).", list=listed), row=e.row, column="trooper"))
        trainings = {e.trooper.training for e in known}  # type: ignore[union-attr]
        if len(trainings) > 1:
            listed = _grouped(known, lambda e: e.trooper.training, _training)
            for e in known:
                if e.trooper.training != reference.trooper.training:  # type: ignore[union-attr]
                    errors.append(Rejection("V07", msg("Participants must all be Regular or all be Irregular "
                                                       "({list}).", list=listed), row=e.row, column="trooper"))
    heads = [e for e in dec.entries if e.spearhead]
    if len(heads) != 1:
        at = heads[1:] if heads else dec.entries[:1]
        for e in at:
            errors.append(Rejection("V08", msg("Designate exactly one participant as Spearhead."), row=e.row,
                                    column="spearhead",
                                    hint=msg("Write YES in the Spearhead column of one row of the CO.")))
    errors += _skill_errors(dec, table)
    return errors


def msg_n_participants(count: int, most: int) -> Any:
    return msg("At most {most} Troopers may take part in a Coordinated Order ({n} declared).", most=most, n=count)


def _label(code: str) -> Any:
    from adjudicator.rulesets.coordinated_orders.schemas import SKILLS

    for choice in SKILLS:
        if choice.code == code:
            return msg(choice.label)
    return code or "—"


#: The rule that participants using different tools break, by the tool a Skill's ``compare_tool`` names.
SAME_TOOL_RULES = {"STATE": "V15", "PROGRAM": "V16"}


def _skill_errors(dec: Declaration, table: Skills) -> list[Rejection]:
    errors: list[Rejection] = []
    ref = dec.reference()
    first = {e.row: e.skills.get(1) for e in dec.entries}
    jump_mode = any(d is not None and getattr(skill(table, d.code), "family", "") == "JUMP" for d in first.values())
    for k in (1, 2):
        column = f"skill{k}"
        active: list[Entry] = []
        for e in dec.entries:
            d = e.skills.get(k)
            before = e.skills.get(1)
            if k == 2 and before is not None and getattr(skill(table, before.code), "entire_order", False):
                if d is not None:
                    errors.append(Rejection("V12", msg("{id} declared an Entire Order as its first Skill and "
                                                       "cannot declare a second Skill.", id=e.ref),
                                            row=e.row, column=column))
                continue
            if k == 1 and jump_mode:
                if d is None or d.code not in ("JUMP", "JUMP_ENTIRE", "IDLE"):
                    errors.append(Rejection("V12", msg("All participants must declare the same Skills in the same "
                                                       "sequence (Skill {k}: {a} vs {b}).", k=k,
                                                       a=_label(d.code if d else ""), b=_label("JUMP")),
                                            row=e.row, column=column,
                                            hint=msg("With Jump as first Skill, declare Jump or Idle.")))
                elif d.code == "JUMP" and e.trooper is not None and not e.trooper.super_jump:
                    errors.append(Rejection("V18", msg("{id} lacks Super-Jump: declare Jump as an Entire Order, or "
                                                       "Idle.", id=e.ref), row=e.row, column=column))
                continue
            active.append(e)
        if not active:
            continue
        base = ref if ref in active else active[0]
        base_d = base.skills.get(k)
        base_skill = skill(table, base_d.code) if base_d else None
        for e in active:
            d = e.skills.get(k)
            if e is base:
                continue
            code, base_code = (d.code if d else ""), (base_d.code if base_d else "")
            if code == base_code:
                continue
            this = skill(table, code)
            if this is not None and base_skill is not None and this.family == base_skill.family:
                errors.append(Rejection("V13", msg("{x} is a different Skill from {y}; every participant must "
                                                   "declare {y}.", x=_label(code), y=_label(base_code)),
                                        row=e.row, column=column))
            else:
                errors.append(Rejection("V12", msg("All participants must declare the same Skills in the same "
                                                   "sequence (Skill {k}: {a} vs {b}).", k=k, a=_label(code),
                                                   b=_label(base_code)), row=e.row, column=column))
        if base_skill is None:
            continue
        same = [e for e in active if e.skills.get(k) is not None and e.skills[k].code == base_skill.code]  # type: ignore[union-attr]
        errors += _tool_errors(same, k, base_skill)
        if base_skill.target:
            errors += _target_errors(same, k, base_skill.code, base if base in same else same[0])
        if base_skill.compare_tool:
            tools = {fold(e.skills[k].tool) for e in same}  # type: ignore[union-attr]
            if len(tools) > 1:
                shown = ", ".join(sorted({e.skills[k].tool or "—" for e in same}))  # type: ignore[union-attr]
                base_tool = fold(base_d.tool)  # type: ignore[union-attr]
                for e in same:
                    if fold(e.skills[k].tool) != base_tool:  # type: ignore[union-attr]
                        if base_skill.compare_tool == "STATE":
                            message = msg("All participants must activate the same State ({states}).", states=shown)
                        else:
                            message = msg("All participants must use the same Hacking Program ({programs}).",
                                          programs=shown)
                        errors.append(Rejection(SAME_TOOL_RULES[base_skill.compare_tool], message, row=e.row,
                                                column=f"tool{k}"))
    return errors


def _tool_errors(same: list[Entry], k: int, info: Skill) -> list[Rejection]:
    errors: list[Rejection] = []
    if not info.roll or info.compare_tool == "STATE":  # a State is no tool of the roster
        return errors
    for e in same:
        d = e.skills[k]
        if e.trooper is None or d is None:
            continue
        needs_tool = bool(info.attack)
        if (d.tool and e.trooper.tool(d.tool) is None) or (needs_tool and not d.tool):
            errors.append(Rejection("V19", msg("{id} has no {tool} in its roster.", id=e.ref, tool=d.tool or "—"),
                                    row=e.row, column=f"tool{k}",
                                    hint=msg("Write one of the weapons or pieces of Equipment of "
                                             "the trooper's roster.")))
    return errors


def _target_errors(same: list[Entry], k: int, code: str, base: Entry) -> list[Rejection]:
    errors: list[Rejection] = []
    bound = [e for e in same if not (e.trooper and e.trooper.tool(e.skills[k].tool)  # type: ignore[union-attr]
                                     and e.trooper.tool(e.skills[k].tool).free_placement)]  # type: ignore[union-attr]
    if not bound:
        return errors
    shown = ", ".join(sorted({e.skills[k].target or "—" for e in bound}))  # type: ignore[union-attr]
    base_targets = targets_in(base.skills[k].target) if base in bound else targets_in(bound[0].skills[k].target)  # type: ignore[union-attr]
    for e in bound:
        targets = targets_in(e.skills[k].target)  # type: ignore[union-attr]
        if len(targets) != 1 or targets != base_targets or len(base_targets) != 1:
            errors.append(Rejection("V14", msg("All participants must designate the same single target for {skill} "
                                               "({targets}).", skill=_label(code), targets=shown), row=e.row,
                                    column=f"target{k}"))
    return errors


def forfeiters(dec: Declaration, params: dict[str, Any]) -> list[Trooper]:
    if params["hd_ad_forfeit"] != "EXTRA_ORDER":
        return []
    return [e.trooper for e in dec.entries if e.trooper is not None and e.trooper.deployment in HIDDEN]


#: The codes of what the COs above spent (V02, V03, V17): a CO refused for them alone spends nothing.
RESOURCE_CODES = ("V02", "V03", "V17")


class CoordinatedOrder(OrderType[Declaration, Declarations]):
    """The rows of one CO code, judged as a whole, in the order of their first row: a CO finds the Command
    Tokens and Regular Orders the legal COs above it left; a CO with a row intake refused is illegal whole."""

    sheet = schemas.ORDERS
    group = "co"

    def group_of(self, values: Any, number: int) -> str:
        return ident(values.get("co")) or f"#{number}"  # a row without a code (C03) stands alone

    def read_group(self, rows: list[Row]) -> Declaration:
        co = self.group_of(rows[0].values, rows[0].number)
        return Declaration(rows[0].faction, co, [entry_of(r.number, r.values, r.refused) for r in rows])

    def check(self, state: Declarations, order: Declaration) -> list[Rejection]:
        errors = (static_errors(state.game, order, state.params, state.skills)
                  or _resource_errors(state.game, order, state.params))
        if not errors and any(e.invalid for e in order.entries):  # a row intake refused: illegal whole
            return [Rejection("V00", Msg("{co}", {"co": order.co}), "co", quiet=True, row=order.first_row)]
        return errors

    def refused(self, state: Declarations, order: Declaration, rejections: list[Rejection]) -> None:
        errors = [r for r in rejections if not r.quiet]
        verdict = Verdict(order, False, errors)
        spends = any(e.invalid for e in order.entries) or any(r.code not in RESOURCE_CODES for r in errors)
        if state.params["illegal_co_consumes"] and spends and not any(r.code == "V01" for r in errors):
            verdict.consumption = _spend_illegal(state.game, order, state.params)
        state.verdicts.append(verdict)

    def carry_out(self, state: Declarations, order: Declaration) -> Done:
        state.verdicts.append(Verdict(order, True, [], spend(state.game, order, state.params, state.skills)))
        return Done(Msg("{co}", {"co": order.co}))


def combat_group(dec: Declaration) -> int:
    known = [e for e in dec.entries if e.trooper is not None]
    head = next((e for e in known if e.spearhead), known[0] if known else None)
    return head.trooper.combat_group if head and head.trooper else 0


def _resource_errors(game: Game, dec: Declaration, params: dict[str, Any]) -> list[Rejection]:
    errors = []
    cg = combat_group(dec)
    first = dec.first_row
    if game.tokens.get(dec.faction, 0) < params["cost_command_tokens"]:
        errors.append(Rejection("V02", msg("You have no Command Token left to spend on a Coordinated Order."),
                                row=first, column="co"))
    pool = game.orders.get((dec.faction, cg), 0)
    if pool < params["cost_regular_orders"]:
        errors.append(Rejection("V03", msg("Combat Group {n} has no Regular Order left.", n=cg), row=first,
                                column="co"))
        return errors
    left = pool - params["cost_regular_orders"]
    for trooper in forfeiters(dec, params):
        row = next(e.row for e in dec.entries if e.trooper is trooper)
        if trooper.training == "REGULAR" and left >= 1:
            left -= 1
        elif trooper.training == "IRREGULAR" and trooper.own_orders >= 1:
            pass
        else:
            errors.append(Rejection("V17", msg("{id} would lose its own Order this Player Turn, but it has none "
                                               "available.", id=trooper.id), row=row, column="trooper"))
    return errors


def spend(game: Game, dec: Declaration, params: dict[str, Any], table: Skills) -> Consumption:
    """Spend the CO's Command Token, Regular Order and forfeited own Orders, and update deployments."""
    cg = combat_group(dec)
    used = Consumption(cg, params["cost_command_tokens"], params["cost_regular_orders"])
    used.before = {e.trooper.id: e.trooper.deployment for e in dec.entries if e.trooper is not None}
    game.tokens[dec.faction] = game.tokens.get(dec.faction, 0) - used.tokens
    extra = 0
    for trooper in forfeiters(dec, params):
        if trooper.training == "REGULAR":
            extra += 1
            used.forfeits.append((trooper.id, "REGULAR"))
        else:
            trooper.own_orders -= 1
            used.forfeits.append((trooper.id, "IRREGULAR"))
    game.orders[(dec.faction, cg)] = game.orders.get((dec.faction, cg), 0) - used.orders - extra
    for e in dec.entries:
        trooper = e.trooper
        if trooper is None:
            continue
        if trooper.deployment in HIDDEN:
            trooper.deployment = "ON_TABLE"  # deployed (AD) or revealed by acting (HD)
        elif trooper.deployment == "CAMO_MARKER" and reveals(e, table):
            trooper.deployment = "ON_TABLE"
    return used


def reveals(entry: Entry, table: Skills) -> bool:
    """A declared Skill of this participant reveals its Camouflaged Marker (example D)."""
    return any(d is not None and getattr(skill(table, d.code), "reveals", False) for d in entry.skills.values())


def _spend_illegal(game: Game, dec: Declaration, params: dict[str, Any]) -> Consumption:
    """``illegal_co_consumes``: the Command Token and the Regular Order are spent, if there are any (C2)."""
    cg = combat_group(dec)
    tokens = min(params["cost_command_tokens"], game.tokens.get(dec.faction, 0))
    orders = min(params["cost_regular_orders"], game.orders.get((dec.faction, cg), 0)) if cg else 0
    game.tokens[dec.faction] = game.tokens.get(dec.faction, 0) - tokens
    if cg:
        game.orders[(dec.faction, cg)] = game.orders.get((dec.faction, cg), 0) - orders
    return Consumption(cg, tokens, orders)
