"""A ruleset's presentation, apart from its rules: what its order workbook shows besides the declared columns.

The rules of a game (its tables, parameters, order types, ``resolve``) are the :class:`Ruleset`; how its order
workbook looks (example rows, dropdown suggestions, reference sheets, the budget block and its preview costs,
the lookups of its formulas, a last touch to the workbook) is a :class:`Presentation` the ruleset gives with
:meth:`Ruleset.presentation`. The engine only declares this interface; the workbook library is used by the
template writer (``adjudicator.outputs.templates``), which hands :meth:`Presentation.decorate_template` its
workbook.

A ruleset written before this interface overrides the same methods on the ruleset itself; :func:`of_ruleset`
gives such a ruleset a presentation that forwards to them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adjudicator.engine.ruleset import Campaign, ReportTable, Ruleset

#: The presentation hooks, once methods of the ruleset (kept there, forwarding, for older rulesets and callers).
HOOKS = ("example_rows", "reference_tables", "decorate_template", "template_lookups", "template_budget",
         "preview_cost", "choice_lists")


class Presentation:
    """How a ruleset's order workbook looks; every hook is optional."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    def example_rows(self, campaign: Campaign, faction: str) -> dict[str, list[dict[str, Any]]]:
        """One filled example row per order type, by order sheet key (values by column key), shown on the
        instructions sheet of the faction's order workbook. By default, the ``[examples]`` table of the
        ruleset's bundled ``scenario.toml`` (illustrative rows, the same for every faction)."""
        import tomllib

        scenario = self.ruleset.example_dir() / "scenario.toml"
        if not scenario.exists():
            return {}
        examples = tomllib.loads(scenario.read_text(encoding="utf-8")).get("examples", {})
        return {key: list(rows) for key, rows in examples.items() if isinstance(rows, list)}

    def reference_tables(self, campaign: Campaign, faction: str) -> list[ReportTable]:
        """Read-only tables shown in the faction's order workbook (its roster, its forces...), each on a
        protected sheet after the order sheets. Only what the faction may see."""
        return []

    def decorate_template(self, wb: Any, campaign: Campaign, faction: str) -> None:
        """Last touches to a freshly built order workbook (the template writer's workbook object), for what
        the declarative columns cannot say. Whatever it adds is a preview: the engine never reads it back."""

    def template_lookups(self, campaign: Campaign, faction: str) -> dict[str, list[tuple[str, float]]]:
        """Two-column tables (key, number) that the template's formulas look up as ``{lookup:NAME}``."""
        return {}

    def template_budget(self, campaign: Campaign, faction: str) -> int | None:
        """The treasury shown in the order workbook's budget block (None: no budget block)."""
        return None

    def preview_cost(self, campaign: Campaign, faction: str, row: dict[str, Any]) -> float:
        """What the template's cost column should show for an order row (the engine's own figure)."""
        return 0

    def choice_lists(self, campaign: Campaign, faction: str, lang: str) -> dict[str, list[str]]:
        """Values offered in dropdowns of the order template, by column key, in the reader's language ``lang``
        (names are the same in every language; a word such as Galactic War's ALL is the reader's: ВСЕ). A key
        ``"sheet.column"`` (``"repairs.target"``) is that sheet's column alone: a column key two sheets share
        may mean different things (see :func:`offered_in`)."""
        return {}

    def choice_aliases(self, campaign: Campaign, faction: str, lang: str) -> dict[str, dict[str, list[str]]]:
        """Other spellings of the words among :meth:`choice_lists` (by column key, then offered value): the same
        word in every other language, which the reader takes too, with a warning saying what it read."""
        return {}


def offered_in(offered: Mapping[str, Sequence[str]], sheet: str, column: str) -> list[str]:
    """The values offered in ``column`` of the order sheet ``sheet``: the sheet's own list (``"repairs.target"``)
    before the list that the column of that key shares with every sheet (``"target"``)."""
    return list(offered.get(f"{sheet}.{column}") or offered.get(column) or [])


def of_ruleset(ruleset: Ruleset) -> Presentation:
    """The ruleset's ``presentation_type``, except for the hooks the ruleset's class still overrides on itself
    (the former ``Ruleset`` methods): those are the ruleset's."""
    from adjudicator.engine.ruleset import Ruleset

    presentation = (ruleset.presentation_type or Presentation)(ruleset)
    for name in HOOKS:
        if getattr(type(ruleset), name) is not getattr(Ruleset, name):
            hook = getattr(ruleset, name)
            setattr(presentation, name, _without_language(hook) if name == "choice_lists" else hook)
    return presentation


def _without_language(hook: Callable[..., dict[str, list[str]]]) -> Callable[..., dict[str, list[str]]]:
    """A ruleset's own ``choice_lists`` of the former shape ``(campaign, faction)``, called as the new one
    ``(campaign, faction, lang)``: its lists, which knew no language, are the same in each."""
    parameters = inspect.signature(hook).parameters
    if "lang" in parameters or any(p.kind is p.VAR_POSITIONAL for p in parameters.values()) or len(parameters) > 2:
        return hook

    def in_any_language(campaign: Campaign, faction: str, lang: str = "en") -> dict[str, list[str]]:
        return hook(campaign, faction)

    return in_any_language
