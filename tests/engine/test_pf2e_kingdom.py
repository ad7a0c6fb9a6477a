"""Kingdom-side numbers warfare uses: pf2e reference §10.4 (Control DC, skills)."""

import pytest

from warfare.engine.systems.pf2e import kingdom


@pytest.mark.parametrize(
    ("level", "base"),
    [(1, 14), (2, 15), (3, 16), (4, 18), (5, 20), (9, 26), (12, 30), (15, 34), (19, 39), (20, 40)],
)
def test_base_control_dc_by_level(level, base):
    """§10.4 Base Control DC table."""
    assert kingdom.control_dc(level, 1).total == base


@pytest.mark.parametrize(
    ("hexes", "modifier"),
    [(0, 0), (9, 0), (10, 1), (24, 1), (25, 2), (49, 2), (50, 3), (99, 3), (100, 4), (500, 4)],
)
def test_size_modifier_bands(hexes, modifier):
    """§10.4 size modifier: 1-9 +0, 10-24 +1, 25-49 +2, 50-99 +3, 100+ +4."""
    assert kingdom.size_modifier(hexes) == modifier


def test_control_dc_adds_size_and_vacant_ruler_with_breakdown():
    """§10.4: level 5 (20) + size 50 hexes (+3) + Ruler vacant (+2) = 25."""
    dc = kingdom.control_dc(5, 50, ruler_vacant=True)
    assert dc.total == 25
    assert dc.breakdown() == [("level", 20), ("size", 3), ("ruler_vacant", 2)]
    assert sum(value for _term, value in dc.breakdown()) == dc.total


@pytest.mark.parametrize("level", [0, 21, -3])
def test_control_dc_refuses_levels_outside_1_to_20(level):
    with pytest.raises(ValueError, match="1-20"):
        kingdom.control_dc(level, 1)


def test_warfare_uses_fourteen_kingdom_skills():
    """§10.4 lists 14 kingdom skills used by warfare."""
    assert len(kingdom.WARFARE_SKILLS) == 14
    assert kingdom.validate_skills(kingdom.default_skills()) == []


def test_skill_validation_names_each_problem():
    skills = kingdom.default_skills()
    skills["magic"] = {"modifier": 99, "rank": "expert"}
    skills["arts"] = {"modifier": 2, "rank": "grandmaster"}
    del skills["trade"]
    skills["agriculture"] = {"modifier": 1, "rank": "trained"}
    assert kingdom.validate_skills(skills) == [
        "skills.unknown:agriculture",
        "skills.bad_modifier:magic",
        "skills.missing:trade",
        "skills.bad_rank:arts",
    ]
    assert kingdom.validate_skills(["warfare"]) == ["skills.not_a_mapping"]


def test_proficiency_gates():
    """§10.4: Magic expert buys magic gear; master deploys by Magic."""
    assert kingdom.at_least("expert", kingdom.Proficiency.EXPERT)
    assert kingdom.at_least("legendary", kingdom.Proficiency.MASTER)
    assert not kingdom.at_least("trained", kingdom.Proficiency.EXPERT)


def test_ruin_threshold_is_a_tagged_house_default():
    entry = kingdom.HOUSE_DEFAULTS[0]
    assert (entry.key, entry.value, entry.tag) == ("ruin_threshold", 10, "gap")
    assert kingdom.DEFAULT_RUIN_THRESHOLD == 10
