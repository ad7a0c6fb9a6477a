"""Degrees of success (pf2e §0.1), checks and flat checks."""

import pytest

from warfare.engine.checks import (
    CheckResult,
    Degree,
    check,
    degree_of_success,
    flat_check,
    gurps_degree,
    improve,
    quick_contest,
    success_roll,
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


# --- GURPS 3d6 core (gurps-mass-combat.md §0.2) ------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "skill", "expected"),
    [
        (3, 3, Degree.CRIT_SUCCESS),  # 3 always critical
        (4, 2, Degree.CRIT_SUCCESS),  # 4 always critical, even above skill
        (5, 14, Degree.SUCCESS),  # 5 is critical only at skill 15+
        (5, 15, Degree.CRIT_SUCCESS),
        (6, 15, Degree.SUCCESS),  # 6 is critical only at skill 16+
        (6, 16, Degree.CRIT_SUCCESS),
        (10, 10, Degree.SUCCESS),  # roll <= skill succeeds
        (11, 10, Degree.FAILURE),
        (16, 20, Degree.SUCCESS),
        (17, 15, Degree.CRIT_FAILURE),  # 17 critical at skill 15 or less
        (17, 16, Degree.FAILURE),  # ordinary failure at 16+
        (17, 25, Degree.FAILURE),  # 17 always fails
        (18, 30, Degree.CRIT_FAILURE),  # 18 always critical
        (15, 5, Degree.CRIT_FAILURE),  # skill + 10 or more
        (14, 5, Degree.FAILURE),
    ],
)
def test_gurps_degree_bands(roll, skill, expected):
    """gurps §0.2 critical success / failure and automatic results."""
    assert gurps_degree(roll, skill) is expected


def test_success_roll_margin_and_quick_contest():
    """gurps §0.2: margin = skill - roll; Quick Contest compares signed margins."""
    dice = ScriptedDice([3, 3, 4, 6, 6, 1])
    first = success_roll(dice, 12, purpose="strategy")  # roll 10, margin +2
    second = success_roll(dice, 11, purpose="strategy")  # roll 13, margin -2
    assert (first.roll, first.margin, first.succeeded) == (10, 2, True)
    assert (second.roll, second.margin, second.succeeded) == (13, -2, False)
    contest = quick_contest(first, second)
    assert (contest.winner, contest.margin_of_victory) == (0, 4)
    tie = quick_contest(first, first)
    assert (tie.winner, tie.margin_of_victory) == (None, 0)
    assert first.to_dict()["margin"] == 2


def test_success_roll_counts_the_dice_typed_at_the_table():
    """gurps §0.2 3d6 roll: the dice typed in from the table (source "typed", used before the
    server's) are counted and shown in the roll's dict; a server roll has no `typed` key."""
    from warfare.engine.battle.protocol import CommandDice

    dice = CommandDice(7, [6, 5])
    typed = success_roll(dice, 12, purpose="strategy")
    assert typed.dice[:2] == (6, 5) and typed.typed == 2
    assert typed.to_dict()["typed"] == 2
    server = success_roll(dice, 12, purpose="strategy")
    assert server.typed == 0 and "typed" not in server.to_dict()
