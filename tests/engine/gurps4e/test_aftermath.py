"""Pursuit, recovery, new TS, loot (gurps §A.7)."""

from fractions import Fraction

import pytest

from warfare.engine.dice import ScriptedDice
from warfare.engine.systems.gurps4e.aftermath import (
    HOLD,
    PURSUE,
    final_casualties,
    loot_minutes,
    loot_value,
    new_ts,
    pursuit_effects,
    pursuit_roll,
    recovered_winner,
)


def test_pursuit_leadership_success_lets_the_victor_choose():
    """gurps §A.7.1: Leadership success -> the commander chooses."""
    result = pursuit_roll(ScriptedDice([3, 3, 4]), 12)
    assert result["chooses"] is True
    assert "choice" not in result


@pytest.mark.parametrize(("die", "choice"), [(1, PURSUE), (3, PURSUE), (4, HOLD), (6, HOLD)])
def test_pursuit_failed_leadership_rolls_1d(die, choice):
    """gurps §A.7.1: failure -> 1d: 1-3 pursue, 4-6 hold the field."""
    result = pursuit_roll(ScriptedDice([6, 6, 5, die]), 12)
    assert (result["chooses"], result["choice"]) == (False, choice)


def test_pursuit_casualties_and_logistics():
    """gurps §A.7.1: +5 %, +5 % Air superiority, +5 % Cavalry superiority [impl: both];
    1d × 5 % logistics; holding the field: victor −5 %."""
    both = pursuit_effects(ScriptedDice([4]), PURSUE, {"Air": 1, "Cav": 2})
    assert (both["retreating"], both["logistics"]) == (15, 20)
    plain = pursuit_effects(ScriptedDice([1]), PURSUE, {"Air": 0})
    assert (plain["retreating"], plain["logistics"]) == (5, 5)
    one = pursuit_effects(ScriptedDice([1]), PURSUE, {"Air": 1, "Cav": 1},
                          {"pursuit.air_and_cavalry_add": False})  # fmt: skip
    assert one["retreating"] == 10
    assert pursuit_effects(ScriptedDice([]), HOLD, {})["victor"] == -5
    assert "logistics_typed" not in both


def test_a_logistics_die_typed_at_the_table_is_marked():
    """gurps §A.7.1: 1d × 5 % logistics: a typed 4 gives 20 %, marked as typed."""
    from warfare.engine.dice import TypedDice

    typed = pursuit_effects(TypedDice([4]), PURSUE, {})
    assert (typed["logistics"], typed["logistics_die"], typed["logistics_typed"]) == (20, 4, True)


@pytest.mark.parametrize(("casualties", "final"), [(35, 15), (40, 20), (9, 0), (10, 5),
                                                   (100, 50)])  # fmt: skip
def test_winner_recovers_half_to_the_lower_five(casualties, final):
    """gurps §A.7.2 [impl]: floor(c/10) × 5 (the book's 35 % -> 15 %)."""
    assert recovered_winner(casualties) == final
    assert final_casualties(casualties, "winner") == final
    assert final_casualties(casualties, "loser") == casualties


def test_new_ts_rounds_down():
    """gurps §A.7.3 [impl]: TS 75.5 at 15 % final casualties -> 64."""
    assert new_ts(Fraction("75.5"), 15) == 64
    assert new_ts(Fraction(100), 100) == 0


@pytest.mark.parametrize(("elements", "minutes"), [(1, 30), (9, 30), (10, 60), (99, 60),
                                                   (100, 120), (1000, 240)])  # fmt: skip
def test_loot_time(elements, minutes):
    """gurps §A.7.4: 30 min for 1-9 elements, ×2 per ×10 elements [inferred]."""
    assert loot_minutes(elements) == minutes


def test_loot_value_is_a_fifth_of_raise_cost_times_casualties():
    """gurps §A.7.4: 1/5 × raise cost × casualty fraction."""
    assert loot_value(1_000_000, 40) == 80_000
