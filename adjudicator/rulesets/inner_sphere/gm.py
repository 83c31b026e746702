"""The GM's input of a turn (all optional): damage from combat, technology sales, treasury corrections.

Each row is checked; a wrong row is reported at its cell and the turn waits for the GM to correct it."""

from __future__ import annotations

from typing import Any

import pandas as pd

from adjudicator.engine.ruleset import GmSheets
from adjudicator.i18n import N_, Msg, all_spellings, fold, msg
from adjudicator.rulesets.inner_sphere import schemas
from adjudicator.rulesets.inner_sphere.orders.common import GM, Context, money, post
from adjudicator.rulesets.inner_sphere.orders.research import line_label
from adjudicator.rulesets.inner_sphere.phases.end_of_turn import Event
from adjudicator.rulesets.inner_sphere.state import Sale, World, amount, hex_id, key

#: The word that begins the ID of a combat or an accident (INVASION:0204:K-NS3:5), by kind: the GM input shows it
#: in the GM's words (INVASIÓN:0204:K-NS3:5, ВТОРЖЕНИЕ:0204:K-NS3:5) and reads back any language's, and the code.
ID_WORDS = {
    "INVASION": N_("INVASION"),  # upper case, no spaces: the first part of an ID
    "RAID": N_("RAID"),
    "DEFENCE_FIRE": N_("DEFENCE_FIRE"),
    "ACCIDENT": N_("ACCIDENT"),
}


def shown_id(ident: str) -> Msg | str:
    """A combat's or an accident's ID with its kind in the reader's words (``INVASIÓN:0204:K-NS3:5``)."""
    kind, colon, rest = ident.partition(":")
    if not colon or kind not in ID_WORDS:
        return ident
    return Msg("{kind}:{rest}", {"kind": Msg(ID_WORDS[kind]), "rest": rest})


def read_id(text: object) -> str:
    """The ID a GM input row names, as the turn keys it (``INVASION:0204:K-NS3:5``), whatever the language of
    its kind word (INVASIÓN, ВТОРЖЕНИЕ, Invasión, the code itself)."""
    written = str(text or "").strip()
    kind, colon, rest = written.partition(":")
    code = _id_kinds().get(fold(kind)) if colon else None
    return f"{code}:{rest.strip()}" if code else written


def _id_kinds() -> dict[str, str]:
    if not _ID_KINDS:
        labels = {c.code: c.label for c in schemas.COMBAT_KINDS}
        for code, word in ID_WORDS.items():
            extra = (code, *all_spellings(labels[code])) if code in labels else (code,)
            _ID_KINDS.update({spelling: code for spelling in all_spellings(word, extra)})
    return _ID_KINDS


_ID_KINDS: dict[str, str] = {}


class GmInputs(GmSheets):
    def error(self, name: str, row: int, column: str, message: Any, hint: Any = None) -> None:
        self.add_problem("E-GM", name, row, column, message, hint)

    def apply(self, world: World, ctx: Context) -> list[Event]:
        return self.damage(world) + self.sales(world, ctx) + self.adjustments(world, ctx)

    def damage(self, world: World) -> list[Event]:
        events = []
        for row, r in self.rows("damage"):
            target, result = key(r.get("target")), r.get("result")
            if target in world.regiments:
                regiment = world.regiments[target]
                if result == "DESTROYED":
                    del world.regiments[target]
                    events.append(Event(regiment.owner, msg("Regiment {regiment} was destroyed.",
                                                            regiment=regiment.name)))
                else:
                    regiment.damaged = True
                    events.append(Event(regiment.owner, msg("Regiment {regiment} was damaged.",
                                                            regiment=regiment.name)))
                continue
            factories = world.factories_in(hex_id(target))
            if not factories:
                self.error("damage", row, "target", msg("{target} is neither a regiment nor a system with a factory.",
                                                        target=target))
                continue
            owner = world.owner(hex_id(target))
            for factory in factories:
                if result == "DESTROYED":
                    world.remove_factory(factory.id)
                else:
                    factory.damaged = True
            text = (msg("The factory of {system} was destroyed.", system=hex_id(target)) if result == "DESTROYED"
                    else msg("The factory of {system} was damaged.", system=hex_id(target)))
            events.append(Event(owner, text))
        return events

    def _faction(self, name: str, row: int, column: str, value: Any) -> str | None:
        faction = key(value)
        if faction not in self.factions:
            self.error(name, row, column, msg("{faction} is not a faction of this campaign.", faction=faction))
            return None
        return faction

    def sales(self, world: World, ctx: Context) -> list[Event]:
        events = []
        for row, r in self.rows("sales_agreed"):
            seller = self._faction("sales_agreed", row, "seller", r.get("seller"))
            buyer = self._faction("sales_agreed", row, "buyer", r.get("buyer"))
            if seller is None or buyer is None:
                continue
            line = str(r.get("line"))
            points = r.get("points")
            if points is None:
                points = ctx.snapshot.line_points(seller, line)
            if points > ctx.snapshot.line_points(seller, line):
                have = ctx.snapshot.line_points(seller, line)
                self.error("sales_agreed", row, "points", msg("{seller} has only {points} points in {line}.",
                                                              seller=seller, points=have, line=line_label(line)))
                continue
            when = ctx.turn + int(ctx.params["tech_sale_delay"])
            world.sales.append(Sale(seller, buyer, line, int(points), when))
            price = amount(r.get("price"))
            ref = f"gm:sales:row {row}"
            if price:
                post(world, ctx, buyer, -price, GM, msg("Technology bought from {seller}: {line}.", seller=seller,
                                                        line=line_label(line)), ref)
                post(world, ctx, seller, price, GM, msg("Technology sold to {buyer}: {line}.", buyer=buyer,
                                                        line=line_label(line)), ref)
            text = msg("{seller} sells {points} points of {line} to {buyer} for {price} C; effective in turn {turn}.",
                       seller=seller, buyer=buyer, points=points, line=line_label(line), price=money(price), turn=when)
            events += [Event(buyer, text), Event(seller, text)]
        return events

    def adjustments(self, world: World, ctx: Context) -> list[Event]:
        for row, r in self.rows("adjustments"):
            faction = self._faction("adjustments", row, "faction", r.get("faction"))
            if faction is None:
                continue
            post(world, ctx, faction, amount(r.get("change")), GM,
                 msg("GM adjustment: {reason}", reason=str(r.get("reason") or "")), f"gm:adjustments:row {row}")
        return []

    def combat_results(self, fights: list[Any]) -> dict[str, str]:
        """{combat id: result} for every combat of this turn the GM has decided; a row naming no combat of
        this turn, or a combat without its result, is reported at its cell."""
        wanted = {f.id for f in fights}
        out: dict[str, str] = {}
        for row, r in self.rows("combats"):
            ident = read_id(r.get("id"))
            if ident not in wanted:
                self.error("combats", row, "id", msg("{target} is not a combat of this turn.", target=shown_id(ident)))
            elif r.get("result"):
                out[ident] = str(r["result"])
            elif self.sheets.get("combats") is not None and fights:
                self.error("combats", row, "result", msg("Enter the result of this combat (chapters 4-5)."))
        return out

    def accident_results(self, accidents: list[Any]) -> dict[str, str]:
        """{accident id: result} for every accident of this turn the GM has decided (accident_effect =
        gm_table); a row naming no accident of this turn, or one without its result, is reported at its cell."""
        wanted = {a.id for a in accidents}
        out: dict[str, str] = {}
        for row, r in self.rows("accidents"):
            ident = read_id(r.get("id"))
            if ident not in wanted:
                self.error("accidents", row, "id",
                           msg("{target} is not an accident of this turn.", target=shown_id(ident)))
            elif r.get("result"):
                out[ident] = str(r["result"])
            else:
                self.error("accidents", row, "result", msg("Enter what this accident does."))
        return out

    def apply_accidents(self, world: World, accidents: list[Any], answers: dict[str, str]) -> list[Event]:
        """The GM's verdict on each accident: no damage, the regiments aboard damaged or destroyed, or the
        jumpship destroyed with its cargo."""
        events = []
        for accident in accidents:
            result = answers.get(accident.id, "NONE")
            aboard = [r for r in world.regiments.values() if r.jumpship == accident.ship]
            names = ", ".join(r.name for r in aboard) or "—"
            if result == "DESTROYED":
                world.jumpships.pop(accident.ship, None)
                for regiment in aboard:
                    del world.regiments[regiment.id]
                text = msg("Accident of jumpship {ship} at {hex}: the ship is destroyed with its cargo ({regiments}).",
                           ship=accident.ship, hex=accident.hex, regiments=names)
            elif result == "CARGO_LOST":
                for regiment in aboard:
                    del world.regiments[regiment.id]
                text = msg("Accident of jumpship {ship} at {hex}: the cargo is lost ({regiments}).",
                           ship=accident.ship, hex=accident.hex, regiments=names)
            elif result == "DAMAGED":
                for regiment in aboard:
                    regiment.damaged = True
                text = msg("Accident of jumpship {ship} at {hex}: the cargo is damaged ({regiments}).",
                           ship=accident.ship, hex=accident.hex, regiments=names)
            else:
                text = msg("Accident of jumpship {ship} at {hex}: no damage.", ship=accident.ship, hex=accident.hex)
            events.append(Event(accident.faction, text, accident.hex))
        return events

    def requests(self, fights: list[Any] | None = None, accidents: list[Any] | None = None) -> dict[str, pd.DataFrame]:
        """The GM's sheets as entered, to be corrected, and a row for every combat of the turn (with the
        result already entered, if any) and, with accident_effect = gm_table, for every accident."""
        out = {}
        if accidents:
            given = {read_id(r.get("id")): r.get("result") for _, r in self.rows("accidents")}
            out["accidents"] = pd.DataFrame(
                [{"id": shown_id(a.id), "faction": a.faction, "ship": a.ship, "hex": a.hex, "step": a.step,
                  "cargo": ", ".join(a.cargo), "result": given.get(a.id)} for a in accidents],
                columns=schemas.ACCIDENTS.keys())
        entered = {read_id(r.get("id")): r.get("result") for _, r in self.rows("combats")}
        rows = []
        for fight in fights or []:
            row = fight.row()
            row["id"] = shown_id(fight.id)  # in the GM's words, read back by read_id
            row["result"] = entered.get(fight.id)
            rows.append(row)
        out["combats"] = pd.DataFrame(rows, columns=schemas.COMBATS.keys())
        for schema in (schemas.DAMAGE, schemas.SALES_AGREED, schemas.ADJUSTMENTS):
            sheet = self.sheets.get(schema.key)
            frame = sheet.frame if sheet is not None else pd.DataFrame(columns=schema.keys())
            out[schema.key] = pd.DataFrame([{k: r.get(k) for k in schema.keys()} for r in frame.to_dict("records")],
                                           columns=schema.keys())
        return out
