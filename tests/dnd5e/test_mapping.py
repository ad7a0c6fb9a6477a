"""Stat block text and terrain maps as the forms read them, and back (property tests)."""

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given
from hypothesis import strategies as st

from warfare.engine.systems.dnd5e.creatures import LIBRARY, Attack
from warfare.systems.dnd5e.mapping import attacks_text, parse_attacks, parse_pairs
from warfare.systems.dnd5e.setup import PRESETS, parse_map, parse_squares, preset_map

feet = st.one_of(st.none(), st.integers(min_value=5, max_value=600))
attacks = st.lists(
    st.builds(
        lambda key, hit, dice, sides, bonus, kind, reach, rng, long, count: {
            "key": key, "to_hit": hit, "damage": f"{dice}d{sides}+{bonus}" if bonus else
            f"{dice}d{sides}", "damage_type": kind, "reach_ft": reach,
            "range_ft": rng if rng or reach is None else None,
            "long_ft": long if (rng or reach is None) and long else None, "count": count},
        st.from_regex(r"[a-z]{1,8}(_[a-z]{1,8})?", fullmatch=True),
        st.integers(-5, 20), st.integers(1, 10), st.sampled_from([4, 6, 8, 10, 12]),
        st.integers(0, 9), st.sampled_from(["slashing", "piercing", "fire", ""]),
        feet, feet, feet, st.integers(1, 4),
    ).filter(lambda a: a["reach_ft"] is not None or a["range_ft"] is not None),
    max_size=4, unique_by=lambda a: a["key"],
)  # fmt: skip


@given(attacks)
def test_attack_lines_read_back_what_they_show(rows):
    """Every stat block the form shows reads back to the same engine attacks (dnd5e §4.1)."""
    assert parse_attacks(attacks_text(rows)) == rows
    for row in parse_attacks(attacks_text(rows)):
        Attack.from_dict(row)  # the engine takes it


def test_the_srd_attacks_survive_the_form():
    for creature in LIBRARY.values():
        rows = [a.to_dict() for a in creature.attacks]
        assert parse_attacks(attacks_text(rows)) == rows


@pytest.mark.parametrize(
    "text", ["Bite | five | 1d6", "Bite | +5 | d", "Bite | +5 | 1d6 | | - | -", "| +1 | 1d4",
             "Bite | +5 | 1d6 | | 5 | - | x", "Bite | +5 | 1d6\nBite | +3 | 1d4"],
)  # fmt: skip
def test_bad_attack_lines_are_refused(text):
    with pytest.raises(ValidationError):
        parse_attacks(text)


def test_saves_and_speeds():
    assert parse_pairs("con +4, WIS +2", ("con", "wis")) == {"con": 4, "wis": 2}
    with pytest.raises(ValidationError):
        parse_pairs("luck +1", ("con",))


@given(st.sampled_from(sorted(PRESETS)), st.integers(4, 40), st.integers(3, 30))
def test_every_preset_fits_its_grid(preset, width, height):
    """§4.7: presets only use the terrains the engine knows, inside the grid."""
    squares = parse_map(preset_map(preset, width, height), width, height)
    assert all(0 <= s["x"] < width and 0 <= s["y"] < height for s in squares)


def test_a_terrain_map_names_each_square():
    squares = parse_map("r.\nfx\n2d", 2, 3)
    assert squares == [
        {"x": 0, "y": 0, "terrain": "road", "difficult": False},
        {"x": 0, "y": 1, "terrain": "forest", "difficult": False},
        {"x": 1, "y": 1, "terrain": "clear", "difficult": True},
        {"x": 0, "y": 2, "terrain": "clear", "elevation": 2},
        {"x": 1, "y": 2, "terrain": "water_deep", "difficult": False},
    ]
    with pytest.raises(ValidationError):
        parse_map("...", 2, 3)  # wider than the grid
    assert parse_squares("3,4; 5:6", 10, 10) == [(3, 4), (5, 6)]
