"""``adjudicator odds galactic_war --attacker "крейсер=2,истребитель=3" --defender "линкор=1" [--invasion]``."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import click

from adjudicator.i18n import Msg, msg
from adjudicator.rulesets.galactic_war.combat import Contest, PlanError, parse_retreat
from adjudicator.rulesets.galactic_war.odds import Odds, exact, simulate
from adjudicator.rulesets.galactic_war.plans import BattlePlan, parse_priority, unit_type_of
from adjudicator.rulesets.galactic_war.setups import SpaceSide, invasion_contest, space_contest
from adjudicator.rulesets.galactic_war.state import Unit, default_stats, parse_techs
from adjudicator.rulesets.galactic_war.vocabulary import RETREAT_HINT, TECHS_HINT, in_tokens, not_a_condition


def parse_fleet(text: str) -> dict[str, int]:
    """``"крейсер=2, истребитель=3"`` (also ``cruiser x2`` or ``2 cruiser``) → ``{"CRUISER": 2, "FIGHTER": 3}``."""
    fleet: dict[str, int] = {}
    for part in re.split(r"[,;]+", text or ""):
        part = part.strip()
        if not part:
            continue
        found = re.match(r"^(.+?)\s*[=:x×]\s*(\d+)$", part) or re.match(r"^(\d+)\s+(.+)$", part)
        if found:
            a, b = found.groups()
            name, count = (b, int(a)) if a.isdigit() else (a, int(b))
        else:
            name, count = part, 1
        kind = unit_type_of(name.strip())
        if kind is None:
            raise click.BadParameter(msg("{name} is not a unit type.", name=name.strip()).render(_lang()))
        fleet[kind] = fleet.get(kind, 0) + count
    return fleet


def _lang() -> str:
    from adjudicator.cli import State
    from adjudicator.i18n.click import language_from_environment

    return State.lang or language_from_environment() or "en"  # --lang, ADJUDICATOR_LANG, the locale


class ReadersHelp(click.Option):
    """An option whose help (a function giving a :class:`Msg`) is shown in the reader's language, with the
    reader's words (the retreat tokens СВОИ_КОРАБЛИ, ПОТЕРИ...), when the help is asked for."""

    def __init__(self, *args: Any, help: Callable[[], Msg], **kwargs: Any) -> None:  # noqa: A002 - click's name
        super().__init__(*args, **kwargs)
        self.words = help

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        self.help = self.words().render(_lang())
        try:
            return super().get_help_record(ctx)
        finally:
            self.help = None  # rendered afresh each time: no reader's words left behind for another language


def _retreat_help() -> Msg:
    example = in_tokens("OWN_SHIPS<=2 OR LOSSES>=50%", _lang())
    return msg("Retreat condition of the attacker, e.g. '{example}': {forms}", example=example,
               forms=msg(RETREAT_HINT))


def _units(race: str, fleet: dict[str, int]) -> list[Unit]:
    return [Unit(f"{race}-{kind}{n}", race, kind, "X", "P" if kind in ("GF", "PDS") else "")
            for kind, count in fleet.items() for n in range(1, count + 1)]


def _plan(casualties: str, retreat: str) -> BattlePlan:
    try:
        conditions = parse_retreat(retreat)
    except PlanError as error:
        raise click.BadParameter(not_a_condition(str(error)).render(_lang())) from None
    priority = parse_priority(casualties)
    return BattlePlan(priority, priority, conditions)


def build_contest(attacker: dict[str, int], defender: dict[str, int], invasion: bool, params: dict[str, Any],
                  a_plan: BattlePlan, d_plan: BattlePlan, a_techs: set[str], d_techs: set[str],
                  a_can_retreat: bool = True, d_can_retreat: bool = True, dna: str = "none") -> Contest:
    stats = default_stats()
    a_units, d_units = _units("A", attacker), _units("D", defender)
    if invasion:
        landers = [u for u in a_units if u.type in ("GF", "PDS") or (u.type == "FIGHTER" and "ANTIGRAVITON" in a_techs)]
        pds = [u for u in d_units if u.type == "PDS"]
        lifts = params["antigraviton_ignores_pds"] and "ANTIGRAVITON" in a_techs
        bombers = [u for u in a_units if u.type == "DREADNOUGHT"] if not pds or lifts else []  # I03: PDS shield
        return invasion_contest("A", landers, bombers, "D",
                                [u for u in d_units if u.type == "GF"], pds,
                                a_plan, d_plan, stats, params)

    def side(race: str, units: list[Unit], plan: BattlePlan, techs: set[str], can: bool, immediate: bool,
             penalty: bool) -> SpaceSide:
        ships = [u for u in units if stats[u.type].is_ship]
        return SpaceSide(race, ships, plan, [u for u in units if u.type == "PDS"], "ASSAULT_CANNON" in techs, {},
                         can, immediate, penalty)

    return space_contest(side("A", a_units, a_plan, a_techs, a_can_retreat, True, dna == "attacker"),
                         side("D", d_units, d_plan, d_techs, d_can_retreat, False, dna == "defender"), stats, params)


def default_params() -> dict[str, Any]:
    from adjudicator.engine.registry import find_ruleset

    return find_ruleset("galactic_war").parameters().defaults()


ROWS: list[tuple[str, Msg]] = [
    ("ATTACKER_HOLDS", msg("Attacker wins (holds the system)")),
    ("DEFENDER_HOLDS", msg("Defender wins (holds the system)")),
    ("BOTH_DESTROYED", msg("Both destroyed")),
    ("BOTH_RETREATED", msg("Both retreated")),
    ("CAPPED", msg("Unfinished after the last round")),
]


def show(result: Odds, invasion: bool, lang: str) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, soft_wrap=True)
    how = msg("exact") if result.samples is None else msg("Monte Carlo, {n} battles", n=result.samples)
    table = Table(title=msg("Odds ({how}, {seconds} s)", how=how, seconds=f"{result.seconds:.3f}").render(lang),
                  header_style="bold")
    table.add_column(msg("Outcome").render(lang))
    table.add_column(msg("Probability").render(lang), justify="right")
    if invasion:
        success = result.invasion_success or 0.0
        table.add_row(msg("Invasion succeeds").render(lang), f"{success * 100:.4f}%")
        table.add_row(msg("Defender keeps the planet").render(lang), f"{(1 - success) * 100:.4f}%")
    else:
        for key, label in ROWS:
            table.add_row(label.render(lang), f"{result.outcomes[key] * 100:.4f}%")
    console.print(table)
    survivors = Table(title=msg("Units left").render(lang), header_style="bold")
    survivors.add_column(msg("Units").render(lang), justify="right")
    survivors.add_column(msg("Attacker").render(lang), justify="right")
    survivors.add_column(msg("Defender").render(lang), justify="right")
    for n in sorted(set(result.attacker_survivors) | set(result.defender_survivors)):
        survivors.add_row(str(n), f"{result.attacker_survivors.get(n, 0) * 100:.4f}%",
                          f"{result.defender_survivors.get(n, 0) * 100:.4f}%")
    console.print(survivors)


@click.command("odds")
@click.argument("ruleset_name", metavar="RULESET")
@click.option("--attacker", required=True,
              help="Attacking units, named in any language of the ruleset: 'cruiser=2,fighter=3' or "
                   "'крейсер=2,истребитель=3' (PDS: on planets).")
@click.option("--defender", required=True, help="Defending units, written the same way.")
@click.option("--invasion", is_flag=True, help="Odds of an invasion: GF (and Fighters) land, Dreadnoughts bombard.")
@click.option("--attacker-casualties", default="", help="Casualty order, e.g. 'Fighter > Cruiser'.")
@click.option("--defender-casualties", default="", help="Casualty order of the defender.")
@click.option("--attacker-retreat", default="NEVER", cls=ReadersHelp, help=_retreat_help)
@click.option("--defender-retreat", default="NEVER", cls=ReadersHelp,
              help=lambda: msg("Retreat condition of the defender, written the same way."))
@click.option("--attacker-techs", default="", cls=ReadersHelp,
              help=lambda: msg("Technologies of the attacker: {techs}", techs=msg(TECHS_HINT)))
@click.option("--defender-techs", default="", cls=ReadersHelp,
              help=lambda: msg("Technologies of the defender, written the same way."))
@click.option("--dna", type=click.Choice(["none", "attacker", "defender"]), default="none",
              help="Which side gave 'Do not attack' (it does not fire in the first round).")
@click.option("--no-retreat-room", type=click.Choice(["none", "attacker", "defender", "both"]), default="none",
              help="Sides that have no legal system to retreat to.")
@click.option("--param", "overrides", multiple=True, help="A rule parameter, e.g. --param max_rounds=20.")
@click.option("--monte-carlo", "battles", type=int, default=0, help="Also play this many battles with random dice.")
@click.option("--seed", type=int, default=1, help="Seed of the Monte Carlo dice.")
def odds_command(ruleset_name: str, attacker: str, defender: str, invasion: bool, attacker_casualties: str,
                 defender_casualties: str, attacker_retreat: str, defender_retreat: str, attacker_techs: str,
                 defender_techs: str, dna: str, no_retreat_room: str, overrides: tuple[str, ...], battles: int,
                 seed: int) -> None:
    """Exact odds of a Galactic War space battle or invasion (and, optionally, a Monte Carlo check)."""
    from adjudicator.engine.registry import UnknownRulesetError, find_ruleset

    lang = _lang()
    try:
        ruleset = find_ruleset(ruleset_name)
    except UnknownRulesetError:
        raise click.BadParameter(msg("Unknown ruleset {name}.", name=ruleset_name).render(lang)) from None
    if ruleset.name != "galactic_war":
        raise click.BadParameter(msg("The odds command is for galactic_war, not {name}.",
                                     name=ruleset.name).render(lang))
    table = ruleset.parameters()
    try:
        params = table.resolve(dict(o.split("=", 1) for o in overrides if "=" in o))
    except ValueError as error:
        raise click.BadParameter(str(error)) from None
    contest = build_contest(parse_fleet(attacker), parse_fleet(defender), invasion, params,
                            _plan(attacker_casualties, attacker_retreat), _plan(defender_casualties, defender_retreat),
                            parse_techs(attacker_techs), parse_techs(defender_techs),
                            no_retreat_room not in ("attacker", "both"), no_retreat_room not in ("defender", "both"),
                            dna)
    if not contest.attacker.members and not invasion:
        raise click.BadParameter(msg("The attacker has no ships.").render(lang))
    show(exact(contest), invasion, lang)
    if battles > 0:
        show(simulate(contest, battles, seed), invasion, lang)
