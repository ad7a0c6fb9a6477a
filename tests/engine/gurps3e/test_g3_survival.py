"""The Survival roll and the TL damage table (gurps §B.5)."""

import pytest

from tests.engine.gurps3e.helpers import character, rolled, set_house
from warfare.engine.dice import ScriptedDice
from warfare.engine.systems.gurps3e.characters import DEAD, UNCONSCIOUS
from warfare.engine.systems.gurps3e.survival import (
    DamageSpec,
    damage_spec,
    effective_dr,
    roll_damage,
    survival_result,
    take_damage,
)


@pytest.mark.parametrize(
    ("roll", "skill", "expected"),
    [
        (7, 12, "unhurt"),  # made by 5
        (5, 12, "unhurt"),  # made by 7
        (8, 12, "one_hit"),  # made by 4
        (11, 12, "one_hit"),  # made by 1
        (12, 12, "two_hits"),  # made exactly
        (13, 12, "A"),  # missed by 1
        (14, 12, "A"),  # missed by 2
        (15, 12, "B"),  # missed by 3
        (16, 12, "B"),  # missed by 4
        (15, 10, "C"),  # missed by 5
        (16, 10, "C"),  # missed by 6
        (15, 8, "D"),  # missed by 7
        (17, 12, "D"),  # critical failure (17 at skill 15 or less)
        (18, 20, "D"),  # critical failure
        (4, 3, "unhurt"),  # critical success [inferred]
        (17, 18, "A"),  # 17 fails at 16+: read as missed by 1 [inferred]
    ],
)
def test_survival_rows(roll, skill, expected):
    """gurps §B.5: made by 5+ unhurt; 1-4 one hit; exactly two hits; missed by 1-2 A,
    3-4 B, 5-6 C, 7+ or critical failure D."""
    assert survival_result(rolled(roll, skill)) == expected


def test_critical_success_by_margin_only_when_house_says_so(monkeypatch):
    """gurps §B.5 [inferred]: the critical-success reading is a house default."""
    set_house(monkeypatch, "survival.critical_success_unhurt", 0)
    assert survival_result(rolled(4, 3)) == "A"  # margin -1


@pytest.mark.parametrize(
    ("tl", "a", "b", "c", "d"),
    [
        # (hits, dice, adds, DR divisor) per column
        (0, (1, 1, 2, 1), (2, 1, 2, 1), (2, 2, 2, 1), (3, 2, 2, 1)),
        (3, (1, 1, 2, 1), (2, 1, 2, 1), (2, 2, 2, 1), (3, 2, 2, 1)),
        (4, (1, 2, 0, 1), (2, 2, 0, 1), (2, 4, 0, 1), (3, 4, 0, 1)),
        (5, (1, 2, 0, 1), (2, 2, 0, 1), (2, 5, 0, 1), (3, 5, 0, 1)),  # (5/2)d rounds down
        (7, (1, 3, 0, 1), (2, 3, 0, 1), (2, 7, 0, 1), (3, 7, 0, 1)),
        (8, (1, 5, 0, 1), (2, 5, 0, 1), (2, 11, 0, 1), (3, 11, 0, 1)),
        (9, (1, 6, 0, 1), (2, 6, 0, 1), (2, 12, 0, 1), (3, 12, 0, 1)),
        (10, (1, 10, 0, 2), (2, 10, 0, 2), (2, 20, 0, 2), (3, 20, 0, 2)),
        (13, (1, 13, 0, 2), (2, 13, 0, 2), (2, 26, 0, 2), (3, 26, 0, 2)),
        (14, (1, 14, 0, 5), (2, 14, 0, 5), (2, 28, 0, 5), (3, 28, 0, 5)),
        (15, (1, 15, 0, 10), (2, 15, 0, 10), (2, 30, 0, 10), (3, 30, 0, 10)),
        (16, (1, 16, 0, 10), (2, 16, 0, 10), (2, 32, 0, 10), (3, 32, 0, 10)),
    ],
)
def test_damage_table_every_row_and_column(tl, a, b, c, d):
    """gurps §B.5 damage table: TL<=3 1d+2 / 2x(1d+2) / 2x(2d+2) / 3x(2d+2); TL4-7
    (TL/2)d / 2x / 2x(TL)d / 3x; TL8-9 (TL-3)d / 2x / 2x(TL+3)d / 3x; TL10-13 (TL)d and
    (2xTL)d vs DR/2; TL14 vs DR/5; TL15-16 vs DR/10."""
    for column, expected in zip("ABCD", (a, b, c, d), strict=True):
        assert damage_spec(tl, column) == DamageSpec(*expected)


def test_odd_tl_dice_round_up_when_house_says_so(monkeypatch):
    """gurps §B.5, Gaps 12 [inferred]: fractional dice rounding is a house default."""
    set_house(monkeypatch, "damage.round_fractions_down", 0)
    assert damage_spec(5, "A").dice == 3


def test_tl_beyond_16_is_refused():
    """gurps §B.5: the damage table stops at TL 16."""
    with pytest.raises(ValueError, match="0..16"):
        damage_spec(17, "A")


def test_dr_with_toughness_and_divisor():
    """gurps §B.5: DR/k for high-TL weapons; Toughness counts (added to DR [inferred])."""
    assert effective_dr(character(dr=7), 1) == 7
    assert effective_dr(character(dr=7), 2) == 3
    assert effective_dr(character(dr=9, toughness=1), 5) == 2
    assert effective_dr(character(dr=25, toughness=2), 10) == 2


def test_each_hit_takes_dr_separately_and_never_goes_negative():
    """gurps §B.5: "2 x (1d+2 - DR)" is two hits, DR against each [inferred]; a hit below
    DR does 0 [B]."""
    total, hits = roll_damage(ScriptedDice([6, 1]), DamageSpec(2, 1, 2, 1), 4)
    assert total == 4  # (8 - 4) + max(0, 3 - 4)
    assert [hit["damage"] for hit in hits] == [4, 0]


def test_one_roll_times_hits_when_not_separate(monkeypatch):
    """gurps §B.5, Gaps 12 [inferred]: "N x" as one roll times N is a house default."""
    set_house(monkeypatch, "damage.separate_hits", 0)
    total, hits = roll_damage(ScriptedDice([6, 6]), DamageSpec(3, 2, 2, 1), 4)
    assert total == 30  # 3 x (14 - 4)
    assert len(hits) == 1


def test_damage_to_ht_and_death_checks():
    """gurps §B.5: damage comes off HT; at each full -HT an HT roll or death; -5 x HT dead."""
    pc = character(ht=10)
    assert take_damage(ScriptedDice([]), pc, 12) == (-2, UNCONSCIOUS, [])
    ht, status, rolls = take_damage(ScriptedDice([6, 6, 6]), pc, 20)
    assert (ht, status) == (-10, DEAD)
    assert rolls[0]["threshold"] == -10
    ht, status, rolls = take_damage(ScriptedDice([1] * 12), pc, 45)
    assert (ht, status, len(rolls)) == (-35, UNCONSCIOUS, 3)  # -10, -20, -30
    assert take_damage(ScriptedDice([]), pc, 60)[:2] == (-50, DEAD)
