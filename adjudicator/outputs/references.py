"""Ledger references in the reader's words: ``ALPHA:BUILD:row 3`` is shown as "ALPHA, ПОСТРОЙКА, строка 3",
``gm:sales:row 2`` as "GM, Sales, row 2", ``battle:C3`` as "Битва, C3". The references themselves stay as they
are in the ledger (a stable key the GM's campaign.xlsx keeps); only what a reader sees is translated.

A reference is read with the words of the ruleset being worked for (inside ``ruleset_catalog``): two rulesets
may use one code for different things (Coordinated Orders' ``MOVE`` is "Move", Star Sectors' "MOVE")."""

from __future__ import annotations

import re
from functools import cache

from adjudicator.i18n import N_, Msg, Words, msg, scoped_locale

ROW = re.compile(r"^row (\d+)$")
CORE_WORDS = {"gm": N_("GM"), "income": N_("income")}


def _labels() -> dict[str, str]:
    locale = scoped_locale()
    return _labels_for(str(locale) if locale is not None else None)


@cache
def _labels_for(locale: str | None) -> dict[str, str]:
    """The msgid of every code a reference may hold: order types, sheet and table keys, the ruleset's own words
    (of the ruleset whose catalog folder is ``locale``; of every ruleset outside a ruleset's scope). The ruleset
    of a scope is found among those already loaded (the campaign's own): the others are not imported for it."""
    from adjudicator.engine.registry import installed, loaded

    found: dict[str, str] = dict(CORE_WORDS)
    scoped = [r for r in loaded() if locale is not None and str(r.locale()) == locale]
    for ruleset in scoped or installed().values():
        if locale is not None and str(ruleset.locale()) != locale:
            continue
        for code, label in ruleset.reference_words.items():
            found.setdefault(code, label)
        for schema in (*ruleset.order_schemas, *ruleset.gm_input_schemas):
            found.setdefault(schema.key, schema.title)
            for column in schema.columns:
                for choice in column.choices:
                    found.setdefault(choice.code, choice.label)
        for schema in ruleset.state_schemas:  # a table a reference names ("upkeep:regiments"); never its
            found.setdefault(schema.key, schema.title)  # choices, which hold the races a faction ID spells
    return found


def shown_reference(reference: object) -> Msg | Words | object:
    """``reference`` as a reader's text (anything not a ledger reference is returned as it is)."""
    if not isinstance(reference, str) or not reference:
        return reference
    labels = _labels()
    parts = reference.split(":")
    row = ROW.match(parts[-1])
    words = tuple(labels.get(part, part) for part in (parts[:-1] if row else parts))
    if not row:
        return Words(words) if any(p in labels for p in parts) else reference
    return msg("{source}, row {row}", source=Words(words), row=int(row.group(1)))


def label_of(code: str) -> str | None:
    """The msgid of a ruleset's code (an order type, a unit type...), if it has one."""
    return _labels().get(code) if code not in CORE_WORDS else None
