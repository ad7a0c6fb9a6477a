"""Degrees of success (pf2e §0.1), checks and flat checks."""

import pytest

from warfare.engine.checks import (
    CheckResult,
    Degree,
    check,
    degree_of_success,
    flat_check,
    improve,
    worsen,
)
from warfare.engine.dice import ScriptedDice
from warfare.engine.systems.pf2e.modifiers import Stat

CF, F, S, CS = Degree.CRIT_FAILURE, Degree.FAILURE, Degree.SUCCESS, Degree.CRIT_SUCCESS


@pytest.mark.parametrize(
    ("total", "expected"),
    [(31, CS), (30, CS), (29, S), (20, S), (19, F), (11, F), (10, CF), (3, CF)],
)
def test_section_0_1_ten_above_or_below_the_dc_is_critical(total, expected):
    """§0.1: >= DC+10 crit success, >= DC success, < DC failure, <= DC-10 crit failure."""
    assert degree_of_success(total, 20) is expected


@pytest.mark.parametrize(
    ("total", "natural", "expected"),
    [
        (19, 20, S),  # failure -> success
        (10, 20, F),  # critical failure -> failure
        (35, 20, CS),  # already critical: clamped
        (25, 1, F),  # success -> failure
        (30, 1, S),  # critical success -> success
        (10, 1, CF),  # already critical failure: clamped
        (19, 19, F),  # other faces do nothing
    ],
)
def test_section_0_1_natural_20_and_1_shift_one_step_after_comparison(total, natural, expected):
    """§0.1: a natural 20 improves / natural 1 worsens by one step, after the comparison."""
    assert degree_of_success(total, 20, natural) is expected


def test_section_0_1_improve_and_worsen_clamp():
    """§0.1: a degree never goes above critical success or below critical failure."""
    assert improve(F) is S
    assert improve(S, 2) is CS
    assert improve(CS) is CS
    assert worsen(S) is F
    assert worsen(F, 3) is CF
    assert worsen(CF) is CF


def test_degree_codes_are_message_codes():
    assert [d.code for d in Degree] == [
        "critical_failure",
        "failure",
        "success",
        "critical_success",
    ]
    assert S.succeeded and not F.succeeded


def test_check_rolls_d20_plus_modifier_against_dc():
    """§0.1: d20 + modifier vs DC."""
    dice = ScriptedDice([14])
    result = check(dice, 12, 20, purpose="advance")
    assert result == CheckResult(die=14, modifier=12, total=26, dc=20, degree=S, purpose="advance")
    assert dice.log[0].purpose == "advance"


def test_check_with_a_stat_keeps_its_breakdown():
    """§0.2: statistics are used as modifiers; the result says where the modifier came from."""
    maneuver = Stat(14, (("level", 15), ("condition.weary", -1)))
    result = check(ScriptedDice([20]), maneuver, 35, purpose="disengage")
    assert result.total == 34
    assert result.degree is S  # failure by the numbers, improved by the natural 20
    assert result.breakdown == (("level", 15), ("condition.weary", -1))
    assert result.to_dict()["degree"] == "success"


@pytest.mark.parametrize(
    ("die", "dc", "succeeded"),
    [(11, 11, True), (10, 11, False), (16, 16, True), (15, 16, False), (6, 6, True), (5, 6, False)],
)
def test_section_0_1_flat_check_is_a_bare_d20_vs_dc(die, dc, succeeded):
    """§0.1: flat checks (DC 11 shaken, DC 16 defeated, DC 6/11 Deploy Army damage)."""
    result = flat_check(ScriptedDice([die]), dc)
    assert result.succeeded is succeeded
    assert result.total == die
    assert result.degree in (S, F)
