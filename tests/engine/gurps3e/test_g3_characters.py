"""Characters (gurps §B.3 Combat Skill, §B.4 Risk limits, §B.6 reputation expiry)."""

import pytest

from tests.engine.gurps3e.helpers import character
from warfare.engine.systems.gurps3e.characters import (
    DEAD,
    FIT,
    UNCONSCIOUS,
    Character,
    Reputation,
    combat_skill,
    expire_reputation,
    reputation_total,
    risk_range,
    status_for,
)


def test_combat_skill_is_the_average_of_tactics_and_weapon_skill_rounded_down():
    """gurps §B.3 [inferred]: (Tactics + best weapon skill) / 2, rounded down."""
    assert combat_skill(character(tactics=12, weapon_skill=14))[0] == 13
    assert combat_skill(character(tactics=12, weapon_skill=15))[0] == 13
    value, terms = combat_skill(character(tactics=11, weapon_skill=16))
    assert value == 13
    assert terms == (("tactics", 11), ("weapon_skill", 16), ("divisor", 2))


def test_untrained_tactics_defaults_to_iq_minus_6():
    """gurps §0.2 / §B.3: Tactics defaults to IQ-6."""
    value, terms = combat_skill(character(iq=12, weapon_skill=14))
    assert value == 10  # (6 + 14) / 2
    assert terms[:2] == (("iq", 12), ("tactics_default", -6))


@pytest.mark.parametrize(
    ("limits", "expected"),
    [
        ((), (-6, 6)),
        (("coward",), (-1, 6)),
        (("in_reserve",), (-1, 6)),
        (("overconfident",), (-6, 1)),
        (("berserk",), (-6, 0)),
        (("overconfident", "berserk"), (-6, 0)),
        (("coward", "overconfident"), (-1, 1)),
    ],
)
def test_risk_limits(limits, expected):
    """gurps §B.4: Risk -6..+6; cowards and units in reserve not below -1; overconfident
    not above +1; berserkers not above 0."""
    assert risk_range(character(limits=list(limits))) == expected


def test_reputation_counts_until_it_expires():
    """gurps §B.6.1: reputation for N months; a permanent entry never expires."""
    pc = character(reputation=[{"value": 2, "expires": 4}, {"value": 1, "expires": None}])
    assert reputation_total(pc, 3) == 3
    assert reputation_total(pc, 4) == 1
    assert expire_reputation(pc, 4).reputation == (Reputation(1, None),)


def test_status_by_ht():
    """gurps §B.5 (3e Basic Set): out of the fight at 0 HT or less, dead at -5 x HT."""
    assert status_for(1, 10) == FIT
    assert status_for(0, 10) == UNCONSCIOUS
    assert status_for(-49, 10) == UNCONSCIOUS
    assert status_for(-50, 10) == DEAD
    assert character(ht=-1, ht_max=10).status == UNCONSCIOUS


def test_character_round_trips_through_json():
    """gurps §B.10 Character3e: the record survives a JSON round trip."""
    pc = character(tactics=13, limits=["berserk"], reputation=[{"value": -1, "expires": 2}])
    assert Character.from_dict(pc.to_dict()) == pc
