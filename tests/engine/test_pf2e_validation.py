"""Army validation (pf2e §2, §3, §4.6, §4.8, §5, §6, §9): problems as codes with params."""

import pytest

from warfare.engine.problems import Problem, codes
from warfare.engine.systems.pf2e.armies import ArmySpec, new_basic_spec, new_specialized_spec
from warfare.engine.systems.pf2e.gear import GearChoice, GearSource, Weapon
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES
from warfare.engine.systems.pf2e.tables import ArmyType
from warfare.engine.systems.pf2e.validation import (
    counted_tactics,
    learnable_tactics,
    validate_army,
    validate_tactic_change,
)

INF, CAV, SKI, SIE = ArmyType.INFANTRY, ArmyType.CAVALRY, ArmyType.SKIRMISHER, ArmyType.SIEGE


def check(spec: ArmySpec, *, kingdom_level: int | None = None, magic_rank="expert", **kw):
    level = spec.level if kingdom_level is None else kingdom_level
    return validate_army(spec, kingdom_level=level, magic_rank=magic_rank, **kw)


def test_a_plain_basic_infantry_is_valid():
    assert check(ArmySpec(INF, 1, tactics=("darkvision",))) == []


# §3.1 recruiting limits ----------------------------------------------------------------------


@pytest.mark.parametrize(("army_type", "minimum"), [(CAV, 3), (SKI, 5), (SIE, 7)])
def test_section_3_1_basic_army_minimum_kingdom_level(army_type, minimum):
    """§1.3/§3.1: cavalry 3, skirmishers 5, siege 7; not recruitable below that."""
    spec = new_basic_spec(army_type, minimum, ("darkvision",) if army_type is SKI else ())
    assert check(spec, kingdom_level=minimum) == []
    problems = check(spec, kingdom_level=minimum - 1)
    assert (
        Problem(
            "army.kingdom_level_too_low",
            {"army": army_type.value, "minimum": minimum, "kingdom_level": minimum - 1},
        )
        in problems
    )


def test_section_1_3_army_level_below_its_type_minimum():
    problems = check(ArmySpec(SKI, 4, tactics=("darkvision",)), kingdom_level=5)
    assert (
        Problem("army.level_below_minimum", {"army": "skirmisher", "minimum": 5, "level": 4})
        in problems
    )


def test_section_3_3_one_specialized_army_of_each_kind_per_faction():
    """§3.3: only one army per faction/group."""
    spec = new_specialized_spec("sootscale_warriors")
    assert check(spec, faction_specialized_keys={"nomen_scouts"}) == []
    assert codes(check(spec, faction_specialized_keys={"sootscale_warriors"})) == [
        "army.specialized_already_in_faction"
    ]


def test_section_3_3_specialized_level_is_the_minimum_kingdom_level():
    spec = new_specialized_spec("tiger_lord_berserkers")
    assert codes(check(spec, kingdom_level=11)) == ["army.kingdom_level_too_low"]


@pytest.mark.parametrize("key", sorted(SPECIALIZED_ARMIES))
def test_section_3_4_every_specialized_army_is_valid_as_printed(key):
    """§3.3/§3.4: printed tactics fit max tactics (free Darkvision not counted), printed gear
    is not bought."""
    spec = new_specialized_spec(key)
    assert check(spec, magic_rank="untrained") == []


def test_section_3_3_free_darkvision_does_not_count_toward_max_tactics():
    """§3.3: Sootscale Warriors (level 3, max 1) know Darkvision free + Accustomed to Panic."""
    spec = new_specialized_spec("sootscale_warriors")
    assert counted_tactics(spec) == 1
    assert counted_tactics(ArmySpec(INF, 3, tactics=("darkvision", "hold_the_line"))) == 2


def test_specialized_type_must_match():
    spec = ArmySpec(
        CAV, 3, specialized="sootscale_warriors", tactics=("darkvision", "accustomed_to_panic")
    )
    assert codes(check(spec)) == ["army.type_mismatch"]


# §6 tactics ---------------------------------------------------------------------------------


def test_section_6_tactic_level_must_not_exceed_army_level():
    """§6: Sharpshooter is level 5; a level 4 infantry cannot know it."""
    problems = check(ArmySpec(INF, 4, tactics=("sharpshooter",)))
    assert problems == [
        Problem("tactic.level_too_high", {"tactic": "sharpshooter", "level": 5, "army_level": 4})
    ]


def test_section_6_army_type_must_be_among_the_tactic_types():
    """§6.1: Ambush is skirmisher-only; Field Triage is infantry/skirmisher."""
    assert check(ArmySpec(INF, 8, tactics=("ambush",))) == [
        Problem("tactic.wrong_type", {"tactic": "ambush", "type": "infantry"})
    ]
    assert check(ArmySpec(INF, 8, tactics=("field_triage",))) == []


def test_section_1_2_max_tactics_for_level():
    """§1.2: max tactics 1 at level 3, 2 at level 4."""
    tactics = ("darkvision", "hold_the_line")
    assert check(ArmySpec(INF, 3, tactics=tactics)) == [
        Problem("tactic.too_many", {"count": 2, "max": 1})
    ]
    assert check(ArmySpec(INF, 4, tactics=tactics)) == []


def test_section_6_no_duplicates_unless_repeatable():
    """§6: a tactic cannot be learned twice, except Toughened Soldiers / Increased Ammunition."""
    assert codes(check(ArmySpec(INF, 4, tactics=("darkvision", "darkvision")))) == [
        "tactic.duplicate"
    ]
    assert check(ArmySpec(INF, 4, tactics=("toughened_soldiers", "toughened_soldiers"))) == []
    assert check(ArmySpec(INF, 5, tactics=("increased_ammunition",) * 2)) == []


def test_section_3_3_every_army_knows_at_least_one_tactic():
    assert codes(check(ArmySpec(INF, 1))) == ["tactic.none_known"]


@pytest.mark.parametrize(
    ("army_type", "level", "tactic"), [(CAV, 3, "overrun"), (SIE, 7, "engines_of_war")]
)
def test_section_2_basic_cavalry_and_siege_must_know_their_mandatory_tactic(
    army_type, level, tactic
):
    """§2: cavalry must take Overrun, siege engines Engines of War."""
    problems = check(ArmySpec(army_type, level, tactics=("darkvision",)))
    assert Problem("tactic.mandatory_missing", {"tactic": tactic}) in problems


def test_section_6_2_unique_tactics_belong_to_their_army():
    """§6.2: unique tactics cannot be learned by other armies."""
    problems = check(ArmySpec(INF, 8, tactics=("brave",)))
    assert problems == [
        Problem("tactic.unique_to_other_army", {"tactic": "brave", "army": "nomen_scouts"})
    ]


def test_section_3_3_specialized_army_must_keep_its_unique_tactics():
    spec = ArmySpec(INF, 3, specialized="sootscale_warriors", tactics=("darkvision",))
    assert check(spec) == [Problem("tactic.unique_missing", {"tactic": "accustomed_to_panic"})]


def test_section_4_8_unique_and_mandatory_tactics_cannot_be_replaced():
    """§4.8: Train Army may replace a known tactic, but not a unique one nor Overrun/Engines."""
    assert (
        validate_tactic_change(
            ("overrun", "darkvision"), ("overrun", "hold_the_line"), army_type=CAV, level=4
        )
        == []
    )
    assert codes(validate_tactic_change(("overrun",), ("darkvision",), army_type=CAV, level=3)) == [
        "tactic.cannot_replace_mandatory",
        "tactic.mandatory_missing",
    ]
    problems = validate_tactic_change(
        ("darkvision", "accustomed_to_panic"),
        ("darkvision", "hold_the_line"),
        army_type=INF,
        level=3,
        specialized="sootscale_warriors",
    )
    assert codes(problems) == ["tactic.cannot_replace_unique", "tactic.unique_missing"]


def test_section_4_8_tactic_change_checks_the_new_list():
    problems = validate_tactic_change(("darkvision",), ("sharpshooter",), army_type=INF, level=4)
    assert codes(problems) == ["tactic.level_too_high"]


def test_section_4_8_learnable_tactics_for_a_level_1_infantry():
    """§4.8/§6.1: level 1 infantry qualifies for Darkvision, Hold the Line, Keen Eyed, Live off
    the Land, Low-Light Vision and Toughened Soldiers (repeatable, so still offered)."""
    spec = ArmySpec(INF, 1, tactics=("toughened_soldiers", "darkvision"))
    assert sorted(t.key for t in learnable_tactics(spec)) == [
        "hold_the_line",
        "keen_eyed",
        "live_off_the_land",
        "low_light_vision",
        "toughened_soldiers",
    ]


# §4.6 / §5 gear ------------------------------------------------------------------------------


def test_section_4_6_gear_level_must_not_exceed_army_level():
    """§4.6: magic armor is level 5."""
    spec = ArmySpec(INF, 4, tactics=("darkvision",), gear=(GearChoice("magic_armor"),))
    problems = check(spec, kingdom_level=10)
    assert problems == [
        Problem(
            "gear.level_too_high", {"gear": "magic_armor", "tier": 1, "level": 5, "army_level": 4}
        )
    ]


def test_section_4_6_bought_gear_must_not_exceed_kingdom_level():
    spec = ArmySpec(INF, 11, tactics=("darkvision",), gear=(GearChoice("magic_armor", 2),))
    assert codes(check(spec, kingdom_level=10)) == ["gear.above_kingdom_level"]
    spoils = ArmySpec(
        INF,
        11,
        tactics=("darkvision",),
        gear=(GearChoice("magic_armor", 2, source=GearSource.SPOILS),),
    )
    assert check(spoils, kingdom_level=10) == []


@pytest.mark.parametrize(
    ("gear", "rank", "needs_expert"),
    [
        ("magic_armor", "trained", True),
        ("magic_armor", "expert", False),
        ("magic_armor", "legendary", False),
        ("healing_potions", "untrained", True),
        ("additional_weapon", "untrained", False),
    ],
)
def test_section_4_6_magic_gear_needs_magic_expert(gear, rank, needs_expert):
    """§4.6: you cannot buy magic gear unless the kingdom is at least expert in Magic."""
    choice = GearChoice(gear, doses=1 if gear == "healing_potions" else 0)
    spec = ArmySpec(INF, 5, tactics=("darkvision",), gear=(choice,))
    problems = check(spec, magic_rank=rank)
    assert ("gear.needs_magic_expert" in codes(problems)) is needs_expert


def test_section_5_siege_engines_cannot_take_gear():
    """§5/§6.1 Engines of War: cannot be outfitted."""
    spec = ArmySpec(SIE, 7, tactics=("engines_of_war",), gear=(GearChoice("magic_armor"),))
    assert codes(check(spec)) == ["gear.engines_of_war"]


def test_section_5_one_piece_of_gear_per_slot():
    """§5: new gear of a type the army has replaces the old; two magic armors is an error."""
    spec = ArmySpec(
        INF,
        11,
        tactics=("darkvision",),
        gear=(GearChoice("magic_armor", 1), GearChoice("magic_armor", 2)),
    )
    assert check(spec) == [Problem("gear.duplicate", {"gear": "magic_armor", "weapon": None})]


def test_section_5_magic_weapons_once_per_weapon_the_army_has():
    """§5: magic weapons apply to one weapon; can be bought once per weapon type."""
    both = (
        GearChoice("magic_weapons", 1, Weapon.MELEE),
        GearChoice("magic_weapons", 1, Weapon.RANGED),
    )
    melee_only = ArmySpec(INF, 5, tactics=("darkvision",), gear=both)
    assert codes(check(melee_only)) == ["gear.no_such_weapon"]
    with_bow = ArmySpec(
        INF, 5, tactics=("darkvision",), gear=(*both, GearChoice("additional_weapon"))
    )
    assert check(with_bow) == []
    catspaw = new_specialized_spec("catspaw_marauders")
    unspecified = ArmySpec(
        SKI,
        11,
        specialized="catspaw_marauders",
        tactics=catspaw.tactics,
        gear=(GearChoice("magic_weapons"),),
    )
    assert codes(check(unspecified)) == ["gear.weapon_required"]


def test_section_5_additional_weapon_only_for_armies_with_one_weapon():
    spec = ArmySpec(
        SKI,
        11,
        specialized="catspaw_marauders",
        tactics=new_specialized_spec("catspaw_marauders").tactics,
        gear=(GearChoice("additional_weapon"),),
    )
    assert codes(check(spec)) == ["gear.already_has_both_weapons"]


@pytest.mark.parametrize(("doses", "ok"), [(0, False), (1, True), (3, True), (4, False)])
def test_section_5_healing_potions_carry_at_most_three_doses(doses, ok):
    spec = ArmySpec(
        INF, 1, tactics=("darkvision",), gear=(GearChoice("healing_potions", doses=doses),)
    )
    assert (check(spec) == []) is ok


# §9 conditions and runtime state -------------------------------------------------------------


@pytest.mark.parametrize(
    ("conditions", "code"),
    [
        ({"weary": 2}, None),
        ({"outflanked": 1}, None),
        ({"weary": 0}, "condition.bad_value"),
        ({"outflanked": 2}, "condition.bad_value"),
        ({"sleepy": 1}, "condition.unknown"),
    ],
)
def test_section_9_condition_keys_and_values(conditions, code):
    """§9: 14 conditions; mired, shaken and weary carry a value, the others do not."""
    problems = check(ArmySpec(INF, 1, tactics=("darkvision",), conditions=conditions))
    assert (problems[0].code if problems else None) == code


def test_current_hp_cannot_exceed_max_hp():
    spec = ArmySpec(INF, 1, tactics=("toughened_soldiers",), current_hp=6)
    assert check(spec) == [Problem("army.hp_out_of_range", {"hp": 6, "max_hp": 5})]


def test_level_outside_1_to_20_stops_validation_early():
    assert codes(check(ArmySpec(INF, 0, tactics=("darkvision",)), kingdom_level=1)) == [
        "army.level_out_of_range"
    ]


def test_enemy_armies_skip_kingdom_checks():
    """kingdom_level/magic_rank None: a GM's enemy army is not limited by a kingdom."""
    spec = ArmySpec(INF, 11, tactics=("darkvision",), gear=(GearChoice("magic_armor", 2),))
    assert validate_army(spec, kingdom_level=None, magic_rank=None) == []
