"""The Glory roll, reputation and promotion (gurps §B.6)."""

import pytest

from tests.engine.gurps3e.helpers import rolled, set_house
from warfare.engine.dice import ScriptedDice
from warfare.engine.systems.gurps3e.characters import Reputation
from warfare.engine.systems.gurps3e.glory import (
    PROMOTION,
    REVIEW,
    glory_row,
    reaction_band,
    reaction_effects,
    reputation_gained,
    strategy_modifier,
)


@pytest.mark.parametrize(
    ("roll", "skill", "expected"),
    [
        (4, 12, "critical_success"),
        (6, 16, "critical_success"),
        (9, 16, "made_7"),  # made by 7
        (8, 20, "made_7"),  # made by 12, no critical [inferred]
        (8, 12, "made_4_6"),  # made by 4
        (6, 12, "made_4_6"),  # made by 6 (6 is not critical below skill 16)
        (9, 12, "made_0_3"),  # made by 3
        (12, 12, "made_0_3"),  # made exactly
        (13, 12, "missed_1_3"),
        (15, 12, "missed_1_3"),  # missed by 3
        (14, 10, "missed_4_6"),  # missed by 4
        (16, 10, "missed_4_6"),  # missed by 6
        (15, 8, "missed_7"),  # missed by 7
        (17, 10, "missed_7"),  # critical failure
        (18, 20, "missed_7"),  # critical failure
    ],
)
def test_glory_rows(roll, skill, expected):
    """gurps §B.6.1: critical success; made by 7+; 4-6; 0-3; missed by 1-3; 4-6; 7+ or
    critical failure."""
    assert glory_row(rolled(roll, skill)) == expected


@pytest.mark.parametrize(
    ("row", "unit", "army"),
    [
        ("critical_success", 2, 3),
        ("made_7", 1, 2),
        ("made_4_6", 1, 2),
        ("made_0_3", 0, 0),
        ("missed_1_3", 0, 0),
        ("missed_4_6", -1, -2),
        ("missed_7", -3, -4),
    ],
)
def test_glory_strategy_modifiers(row, unit, army):
    """gurps §B.6.1: +2/+1/+1/0/0/-1/-3 for a unit commander; the army commander's are one
    point larger in size [inferred]; a trooper's Glory does not touch the Strategy roll."""
    assert strategy_modifier(row, "unit_commander") == unit
    assert strategy_modifier(row, "army_commander") == army
    assert strategy_modifier(row, "trooper") == 0


def test_army_commander_penalty_reading_is_a_house_default(monkeypatch):
    """gurps §B.6.1, Gaps 11: "the penalty one point less" read literally: 0 / -2."""
    set_house(monkeypatch, "glory.army_commander.penalty_extra", -1)
    assert strategy_modifier("missed_4_6", "army_commander") == 0
    assert strategy_modifier("missed_7", "army_commander") == -2
    assert strategy_modifier("made_7", "army_commander") == 2


def test_critical_success_gives_plus_2_for_1d_months_and_plus_1_permanently():
    """gurps §B.6.1: "covered himself in glory": +2 for 1d months and +1 permanently."""
    gained = reputation_gained(ScriptedDice([4]), "critical_success", 10)
    assert [entry for entry, _ in gained] == [Reputation(2, 14), Reputation(1, None)]


@pytest.mark.parametrize(("die", "months"), [(1, 1), (3, 1), (4, 2), (6, 4)])
def test_made_by_7_gives_plus_1_for_1d_minus_2_months_minimum_1(die, months):
    """gurps §B.6.1: +1 for (1d-2) months, minimum 1."""
    ((entry, detail),) = reputation_gained(ScriptedDice([die]), "made_7", 0)
    assert entry == Reputation(1, months)
    assert detail["months"] == months


def test_poor_rows_lose_reputation():
    """gurps §B.6.1: missed by 4-6: -1 for (1d-2) months min 1; 7+: -2 for 1d months."""
    assert reputation_gained(ScriptedDice([5]), "missed_4_6", 0)[0][0] == Reputation(-1, 3)
    assert reputation_gained(ScriptedDice([5]), "missed_7", 0)[0][0] == Reputation(-2, 5)
    for row in ("made_4_6", "made_0_3", "missed_1_3"):
        assert reputation_gained(ScriptedDice([]), row, 0) == []


@pytest.mark.parametrize(
    ("total", "band"),
    [
        (0, "disastrous"),
        (1, "very_bad"),
        (3, "very_bad"),
        (4, "bad"),
        (6, "bad"),
        (7, "poor"),
        (9, "poor"),
        (10, "neutral"),
        (12, "neutral"),
        (13, "good"),
        (15, "good"),
        (16, "very_good"),
        (18, "very_good"),
        (19, "excellent"),
    ],
)
def test_reaction_bands(total, band):
    """gurps §0.2: reaction bands."""
    assert reaction_band(total) == band


def test_promotion_and_demotion_reactions():
    """gurps §B.6.2: Good+ favour, Very Good+ promotion, Excellent elite offer; after a poor
    Glory row, Bad or worse (6 or less) means possible demotion."""
    assert reaction_effects(PROMOTION, 12) == ()
    assert reaction_effects(PROMOTION, 13) == ("favour",)
    assert reaction_effects(PROMOTION, 16) == ("favour", "promotion")
    assert reaction_effects(PROMOTION, 19) == ("favour", "promotion", "elite_offer")
    assert reaction_effects(REVIEW, 6) == ("possible_demotion",)
    assert reaction_effects(REVIEW, 7) == ()
    assert reaction_effects(REVIEW, 20) == ()
