"""Stat blocks, conversions to the 20-ft grid and the siege table (dnd5e §4.1, §5.4, §8)."""

import pytest

from warfare.engine.systems.dnd5e.creatures import (
    LIBRARY,
    Creature,
    footprint,
    range_squares,
    speed_squares,
)
from warfare.engine.systems.dnd5e.house_rules import HOUSE_DEFAULTS
from warfare.engine.systems.dnd5e.siege import SIEGE_ENGINES


@pytest.mark.parametrize(
    ("size", "squares"), [("small", 1), ("medium", 1), ("large", 2), ("huge", 3), ("gargantuan", 4)]
)
def test_space_of_a_stand_by_size(size, squares):
    """dnd5e §4.1 space table: Medium or smaller 1, Large 2×2, Huge 3×3, Gargantuan 4×4."""
    assert footprint(size) == squares


def test_speed_in_squares_is_feet_divided_by_five():
    """dnd5e §4.1: hobgoblins (30 ft) move 6 squares; rounded down [inferred]."""
    assert speed_squares(30) == 6
    assert speed_squares(40) == 8
    assert speed_squares(25) == 5
    assert speed_squares(34) == 6


@pytest.mark.parametrize(
    ("feet", "squares"), [(30, 2), (60, 3), (120, 6), (150, 8), (600, 30), (5, 1), (10, 1)]
)
def test_range_conversion(feet, squares):
    """dnd5e §5.4: max(1, floor((ft + 10) / 20)): 30 → 2, 60 → 3, 120 → 6, 150 → 8, 600 → 30;
    a range under 20 ft still reaches an adjacent square."""
    assert range_squares(feet) == squares


def test_orc_worked_example():
    """dnd5e §4.1 worked example: SRD orc AC 13, HP 15 (not ×10), speed 6 squares, Greataxe
    +5 1d12+3, Javelin +5 range 2/6 squares, Dex +1, Wis +0."""
    orc = LIBRARY["orc"]
    assert (orc.ac, orc.hp, orc.mod("dex"), orc.mod("wis")) == (13, 15, 1, 0)
    assert speed_squares(orc.speeds["walk"]) == 6
    greataxe, javelin = orc.attack("greataxe"), orc.attack("javelin")
    assert (greataxe.to_hit, greataxe.damage) == (5, "1d12+3")
    assert (javelin.to_hit, javelin.damage) == (5, "1d6+3")
    assert (range_squares(javelin.range_ft), range_squares(javelin.long_ft)) == (2, 6)


def test_reach_bonus_attack_only_with_reach_ten_feet():
    """dnd5e §5.4: a melee attack with reach ≥ 10 ft gives one bonus attack."""
    assert LIBRARY["hill_giant"].reach_bonus_attack
    assert not LIBRARY["orc"].reach_bonus_attack


def test_stat_blocks_round_trip_through_json():
    """A GM's stat block is stored as plain JSON (issue #6)."""
    for creature in LIBRARY.values():
        assert Creature.from_dict(creature.to_dict()) == creature


@pytest.mark.parametrize(
    ("key", "size", "ac", "hp", "steps", "to_hit", "damage", "squares"),
    [
        ("ballista", "large", 15, 50, (1, 1, 1), 6, "3d10", (6, 24)),
        ("cannon", "large", 19, 75, (1, 1, 1), 6, "8d10", (30, 120)),
        ("cauldron", "large", 19, 20, (3, 0, 1), None, "3d6", None),
        ("mangonel", "large", 15, 100, (2, 2, 1), 5, "5d10", (10, 40)),
        ("ram", "large", 15, 100, (0, 0, 1), 8, "3d10", None),
        ("siege_tower", "gargantuan", 15, 200, (0, 0, 0), None, None, None),
        ("trebuchet", "huge", 15, 150, (2, 2, 1), 5, "8d10", (15, 60)),
    ],
)
def test_siege_engine_stats(key, size, ac, hp, steps, to_hit, damage, squares):
    """dnd5e §8 table (DMG pp. 255-256) and the grid conversion (ballista 6/24, cannon
    30/120, mangonel 10/40, trebuchet 15/60 squares)."""
    engine = SIEGE_ENGINES[key]
    assert (engine.size, engine.ac, engine.hp) == (size, ac, hp)
    assert (engine.load, engine.aim, engine.fire) == steps
    assert (engine.to_hit, engine.damage, engine.range_squares) == (to_hit, damage, squares)
    assert engine.immunities == ("poison", "psychic")


def test_minimum_range_and_cauldron_save():
    """dnd5e §8: 'can't hit within 60 ft' = at least 4 squares away; oil DC 15 Dex."""
    assert SIEGE_ENGINES["mangonel"].min_squares == 4
    assert SIEGE_ENGINES["trebuchet"].min_squares == 4
    assert SIEGE_ENGINES["ballista"].min_squares == 0
    assert SIEGE_ENGINES["cauldron"].save_dc == 15


def test_house_defaults_are_tagged_and_sourced():
    """Every house default names its tag and a dnd5e section (preamble: one table)."""
    keys = [entry.key for entry in HOUSE_DEFAULTS]
    assert len(keys) == len(set(keys))
    for entry in HOUSE_DEFAULTS:
        assert entry.source.startswith("dnd5e §")
        assert entry.tag in ("inferred", "discrepancy", "gap")
