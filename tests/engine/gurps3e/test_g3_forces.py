"""Units and troop strength (gurps §B.3a, §B.8.5, §B.10)."""

from tests.engine.gurps3e.helpers import force, set_house, unit
from warfare.engine.systems.gurps3e.forces import (
    Force,
    Unit,
    experience_after_replacements,
    man_ts,
    racial_ts_modifier,
)


def test_racial_modifier_is_half_of_st_ht_and_extra_hp():
    """gurps §B.3a: ½ x (ST mod + HT mod + extra HP); Super Strength 10 per level; the half
    rounds toward zero [inferred]."""
    assert racial_ts_modifier(2, 2, 2) == 3
    assert racial_ts_modifier(-3, 0, 0) == -1
    assert racial_ts_modifier(0, 0, 0, super_strength=1) == 5
    assert racial_ts_modifier(3, 0, 0) == 1


def test_racial_half_rounds_down_when_house_says_so(monkeypatch):
    """gurps §B.3a [inferred]: the rounding of the half is a house default."""
    set_house(monkeypatch, "race.half_rounds_toward_zero", 0)
    assert racial_ts_modifier(-3, 0, 0) == -2


def test_racial_penalty_cannot_lower_ts_below_1_but_equipment_adds_after():
    """gurps §B.3a: racial penalties cannot lower TS below 1; missile and armour bonuses
    are added after that minimum."""
    assert man_ts(1, -1) == 1
    assert man_ts(1, -1, 2) == 3
    assert man_ts(3, -1) == 2
    assert man_ts(2, 3, 1) == 6


def test_unit_and_force_ts():
    """gurps §B.2 step 1: unit TS = men x per-man TS; force TS = sum of its units."""
    assert unit(men=50, ts_per_man=3, racial=-1, equipment=1).ts == 150
    army = force(units=[{"key": "x", "men": 100, "ts_per_man": 2},
                        {"key": "y", "men": 10, "ts_per_man": 5}])  # fmt: skip
    assert army.ts == 250
    assert Force.from_dict(army.to_dict()) == army


def test_veteran_base_morale_is_15():
    """gurps §B.8.3: a Veteran unit has base Morale 15; other grades are GM-entered."""
    assert unit(quality="veteran").morale == 15
    assert unit(quality="green", morale=9).morale == 9


def test_experience_after_replacements_rounds_down():
    """gurps §B.8.5: 87 veterans of 10 battles + 11 recruits of 1 -> 8.99 -> 8."""
    assert experience_after_replacements([(87, 10), (11, 1)]) == 8
    assert experience_after_replacements([]) == 0


def test_the_articles_examples_are_data():
    """gurps §B.3a: lizard-men +3, halflings -1; halfling light infantry TS 2, halfling
    heavy infantry with slings TS 5 (house table, a GM adds his own troop types there)."""
    assert unit(race="lizard_men", ts_per_man=2).racial == 3
    assert unit(race="halflings", ts_per_man=1).ts == 100  # 1 - 1, not below 1
    assert Unit.from_dict({"key": "h", "men": 10, "troop_type": "halfling_light_infantry"}).ts == 20
    heavy = {"key": "h", "men": 10, "troop_type": "halfling_heavy_infantry_slings"}
    assert Unit.from_dict(heavy).ts == 50
    assert unit(race_stats={"st": 2, "ht": 2, "hp": 2}).racial == 3
    assert unit(racial=-2, race="lizard_men").racial == -2  # an explicit value wins
