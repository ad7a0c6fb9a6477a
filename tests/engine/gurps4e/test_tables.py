"""Printed tables of seed A (gurps §A.4.4, §A.5.2, §A.6.1, §A.6.4)."""

import pytest

from warfare.engine.systems.gurps4e.house_rules import HOUSE_RULES, Tag, house_rule, house_value
from warfare.engine.systems.gurps4e.tables import (
    casualty_penalty,
    crt_row,
    round_length,
    terrain_rating,
)


@pytest.mark.parametrize(
    ("margin", "row"),
    [(0, (10, 10, 0)), (1, (15, 10, 1)), (3, (15, 10, 1)), (4, (20, 10, 2)), (6, (20, 10, 2)),
     (7, (25, 5, 2)), (9, (25, 5, 2)), (10, (30, 5, 3)), (14, (30, 5, 3)), (15, (35, 0, 3)),
     (19, (35, 0, 3)), (20, (40, 0, 4)), (31, (40, 0, 4))],
)  # fmt: skip
def test_combat_results_table_every_row(margin, row):
    """gurps §A.6.4 CRT: (loser %, winner %, PB change) by margin of victory."""
    assert crt_row(margin) == row


@pytest.mark.parametrize(
    ("elements", "minutes"),
    [(1, 15), (9, 15), (10, 30), (99, 30), (100, 60), (999, 60), (1000, 120), (9999, 120),
     (10000, 240)],
)  # fmt: skip
def test_round_length_from_the_smaller_force(elements, minutes):
    """gurps §A.6.1: 1-9 15 min, 10-99 30 min, 100-999 1 h, 1,000-9,999 2 h, 10,000+ 4 h."""
    assert round_length(elements) == minutes


@pytest.mark.parametrize(
    ("terrain", "rating"),
    [("arctic", 6), ("urban", 6), ("desert", 7), ("hills", 6), ("islands", 6), ("jungle", 3),
     ("mountains", 4), ("ocean", 8), ("plains", 8), ("rural", 6), ("swamp", 4),
     ("woodlands", 5)],
)  # fmt: skip
def test_terrain_ratings(terrain, rating):
    """gurps §A.4.4 Terrain Rating table."""
    assert terrain_rating(terrain) == rating


@pytest.mark.parametrize(("casualties", "penalty"), [(0, 0), (4, 0), (5, -1), (15, -3), (99, -19)])
def test_every_full_five_percent_of_casualties_is_minus_one(casualties, penalty):
    """gurps §A.5.2: -1 per full 5 % (15 % -> -3)."""
    assert casualty_penalty(casualties) == penalty


def test_house_rules_each_name_a_tag_and_section_and_can_be_overridden():
    """gurps §0 tags: every house rule carries its tag and the section it comes from."""
    keys = [entry.key for entry in HOUSE_RULES]
    assert len(keys) == len(set(keys))
    for entry in HOUSE_RULES:
        assert isinstance(entry.tag, Tag)
        assert entry.source.startswith("gurps §")
    assert house_rule("desperate.bonus").tag is Tag.IMPL
    assert house_value("desperate.bonus") == 4
    assert house_value("desperate.bonus", {"desperate.bonus": 3}) == 3
    with pytest.raises(KeyError):
        house_rule("nope")
