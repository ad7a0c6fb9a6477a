"""§6.1: every general tactic's level and army types, checked through validation.

The expected values are typed here from the reference table (not read from the data module),
so a wrong row in `tactics.py` fails a test.
"""

import pytest

from warfare.engine.systems.pf2e.armies import ArmySpec
from warfare.engine.systems.pf2e.tables import ArmyType
from warfare.engine.systems.pf2e.validation import validate_army

C, IN, SI, SK = ArmyType.CAVALRY, ArmyType.INFANTRY, ArmyType.SIEGE, ArmyType.SKIRMISHER
ALL = {C, IN, SI, SK}

# §6.1 table: tactic -> (level, types). Overrun and Engines of War are mandatory features.
GENERAL = {
    "ambush": (8, {SK}),
    "bloodied_but_unbroken": (5, {C, IN, SK}),
    "cavalry_experts": (6, {C}),
    "darkvision": (1, ALL),
    "defensive_tactics": (3, ALL),
    "explosive_shot": (11, {SI}),
    "field_triage": (6, {IN, SK}),
    "flaming_shot": (9, ALL),
    "flexible_tactics": (5, {IN, SK}),
    "focused_devotion": (3, ALL),
    "hold_the_line": (1, ALL),
    "increased_ammunition": (5, ALL),
    "keen_eyed": (1, ALL),
    "keep_up_the_pressure": (3, ALL),
    "live_off_the_land": (1, {C, IN, SK}),
    "low_light_vision": (1, ALL),
    "merciless": (5, {C, IN}),
    "opening_salvo": (8, {C, SI, SK}),
    "reckless_flankers": (5, {C, SK}),
    "sharpshooter": (5, {C, IN, SK}),
    "toughened_soldiers": (1, ALL),
}
MANDATORY = {C: "overrun", SI: "engines_of_war"}
MINIMUM_LEVEL = {IN: 1, C: 3, SK: 5, SI: 7}  # §1.3


def _codes(spec: ArmySpec) -> set[str]:
    return {problem.code for problem in validate_army(spec, kingdom_level=None, magic_rank=None)}


def _spec(army_type: ArmyType, level: int, tactic: str) -> ArmySpec:
    mandatory = MANDATORY.get(army_type)
    tactics = (mandatory, tactic) if mandatory and mandatory != tactic else (tactic,)
    return ArmySpec(army_type, level, tactics=tactics)


def test_the_table_lists_the_21_learnable_general_tactics():
    assert len(GENERAL) == 21


@pytest.mark.parametrize("tactic", sorted(GENERAL))
def test_a_qualifying_army_may_learn_it_at_its_level(tactic):
    level, types = GENERAL[tactic]
    for army_type in types:
        # Level 20 gives the slots for a mandatory tactic plus this one (§1.2: 6 tactics).
        at_level = 20 if army_type in MANDATORY else max(level, MINIMUM_LEVEL[army_type])
        assert _codes(_spec(army_type, at_level, tactic)) == set(), (tactic, army_type)


@pytest.mark.parametrize("tactic", sorted(t for t, (level, _types) in GENERAL.items() if level > 1))
def test_it_is_refused_below_its_level(tactic):
    level, types = GENERAL[tactic]
    army_type = next(t for t in (IN, SK, C, SI) if t in types and MINIMUM_LEVEL[t] < level)
    assert "tactic.level_too_high" in _codes(_spec(army_type, level - 1, tactic))


@pytest.mark.parametrize("tactic", sorted(GENERAL))
def test_it_is_refused_for_other_army_types(tactic):
    level, types = GENERAL[tactic]
    for army_type in ALL - types:
        spec = _spec(army_type, 20, tactic)
        assert "tactic.wrong_type" in _codes(spec), (tactic, army_type)
