"""Exact odds (a Markov chain over the contest's states) against the engine's own battles, and the odds command."""

from __future__ import annotations

import math

import pytest
from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.rulesets.galactic_war.odds import exact, hits_pmf, simulate
from tests.galactic_war.kit import CASES, contest_of

BATTLES = 4000  # small for speed: the 200,000-battle comparison is benchmarks/galactic_war_odds.py





def test_hit_distribution_is_the_binomial_of_the_dice() -> None:
    pmf = hits_pmf((7, 7, 7))  # 40% each
    assert pmf == pytest.approx([0.216, 0.432, 0.288, 0.064])


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-v-{c[1]}")
def test_exact_odds_agree_with_the_engines_own_battles(case: tuple) -> None:
    contest = contest_of(case)
    odds = exact(contest)
    assert sum(odds.outcomes.values()) == pytest.approx(1.0, abs=1e-9)
    assert sum(odds.attacker_survivors.values()) == pytest.approx(1.0, abs=1e-9)
    sampled = simulate(contest, BATTLES, seed=11)
    for key, p in odds.outcomes.items():
        sigma = math.sqrt(max(p * (1 - p), 1e-6) / BATTLES)
        assert abs(sampled.outcomes[key] - p) <= 4.5 * sigma + 1e-9, (key, p, sampled.outcomes[key])
    for n, p in odds.attacker_survivors.items():
        sigma = math.sqrt(max(p * (1 - p), 1e-6) / BATTLES)
        assert abs(sampled.attacker_survivors.get(n, 0.0) - p) <= 4.5 * sigma + 1e-9
    if case[4]:
        p = odds.invasion_success or 0.0
        assert abs((sampled.invasion_success or 0.0) - p) <= 4.5 * math.sqrt(max(p * (1 - p), 1e-6) / BATTLES)


def test_a_known_battle_by_hand() -> None:
    """One Cruiser (hits on 7+: 40%) against one Fighter (9+: 20%), no retreat: a round decides with prob.
    1 - 0.6*0.8 = 0.52; attacker alone hits 0.4*0.8 = 0.32 → win 0.32/0.52; both 0.08/0.52."""
    odds = exact(contest_of(({"CRUISER": 1}, {"FIGHTER": 1}, "NEVER", "NEVER", False, "none")))
    assert odds.outcomes["ATTACKER_HOLDS"] == pytest.approx(0.32 / 0.52, abs=1e-9)
    assert odds.outcomes["BOTH_DESTROYED"] == pytest.approx(0.08 / 0.52, abs=1e-9)


def test_the_dna_penalty_and_assault_cannon_change_the_odds() -> None:
    base = exact(contest_of(({"DREADNOUGHT": 1}, {"CRUISER": 1}, "NEVER", "NEVER", False, "none")))
    penalised = exact(contest_of(({"DREADNOUGHT": 1}, {"CRUISER": 1}, "NEVER", "NEVER", False, "attacker")))
    assert penalised.outcomes["ATTACKER_HOLDS"] < base.outcomes["ATTACKER_HOLDS"]


def test_twenty_ships_a_side_compute() -> None:
    odds = exact(contest_of(({"FIGHTER": 10, "CRUISER": 10}, {"DREADNOUGHT": 5, "FIGHTER": 15}, "LOSSES>=60%",
                             "OWN_SHIPS<=3", False, "none")))
    assert sum(odds.outcomes.values()) == pytest.approx(1.0, abs=1e-9)


def test_odds_command_prints_a_table() -> None:
    result = CliRunner().invoke(main, ["--lang", "en", "odds", "galactic_war", "--attacker", "крейсер=2,истребитель=3",
                                       "--defender", "линкор=1", "--monte-carlo", "200"])
    assert result.exit_code == 0, result.output
    assert "Attacker wins (holds the system)" in result.output and "Monte Carlo, 200 battles" in result.output
    expected = exact(contest_of(({"CRUISER": 2, "FIGHTER": 3}, {"DREADNOUGHT": 1}, "NEVER", "NEVER", False, "none")))
    assert f"{expected.outcomes['ATTACKER_HOLDS'] * 100:.4f}%" in result.output


def test_odds_command_invasion_and_bad_input() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["--lang", "en", "odds", "galactic_war", "--attacker", "GF=3", "--defender", "GF=1",
                                  "--invasion"])
    assert result.exit_code == 0 and "Invasion succeeds" in result.output
    bad = runner.invoke(main, ["odds", "galactic_war", "--attacker", "warp drive=2", "--defender", "GF=1"])
    assert bad.exit_code != 0 and "warp drive" in bad.output
    other = runner.invoke(main, ["odds", "star_sectors", "--attacker", "GF=1", "--defender", "GF=1"])
    assert other.exit_code != 0
