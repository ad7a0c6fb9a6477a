"""Derived army statistics (pf2e §1-§3, §5, §6, §9) with their breakdowns."""

import json

import pytest

from warfare.engine.systems.pf2e.armies import (
    ArmySpec,
    new_basic_spec,
    new_specialized_spec,
    spec_from_dict,
    spec_to_dict,
    stat_block,
)
from warfare.engine.systems.pf2e.gear import GearChoice, Weapon
from warfare.engine.systems.pf2e.house_rules import house_value
from warfare.engine.systems.pf2e.modifiers import (
    BonusType,
    Modifier,
    Stat,
    combine,
)
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES, PrintedStats
from warfare.engine.systems.pf2e.tables import BASIC_ARMIES, ArmyType

INF, CAV, SKI, SIE = ArmyType.INFANTRY, ArmyType.CAVALRY, ArmyType.SKIRMISHER, ArmyType.SIEGE
ARMOR = GearChoice("magic_armor")


def infantry(level: int = 5, **kwargs) -> ArmySpec:
    kwargs.setdefault("tactics", ("darkvision",))
    return ArmySpec(INF, level, **kwargs)


# §2: the basic armies at minimum level come out as printed ------------------------------------


@pytest.mark.parametrize("army_type", list(ArmyType))
def test_section_2_basic_armies_at_minimum_level_match_the_printed_blocks(army_type):
    """§1.2 + §1.3 derivation reproduces §2 (siege ranged: see the next test)."""
    printed = BASIC_ARMIES[army_type]
    block = stat_block(new_basic_spec(army_type, printed.level))
    assert block.scouting.value == printed.scouting
    assert block.recruitment_dc.value == printed.recruitment_dc
    assert block.consumption.value == printed.consumption
    assert block.ac.value == printed.ac
    assert (block.maneuver.value, block.morale.value) == (printed.maneuver, printed.morale)
    assert (block.max_hp.value, block.rout_threshold.value) == (printed.hp, printed.rt)
    assert (block.melee.value if block.melee else None) == printed.melee
    if army_type is not SIE:
        assert block.ranged is None


def test_section_2_siege_ranged_uses_the_table_attack_by_house_default():
    """§2 / §15 item 6 [discrepancy]: AP prints +15 at level 7; the table (Foundry) gives +18."""
    block = stat_block(new_basic_spec(SIE, 7))
    assert house_value("siege_engines.ranged_adjustment") == 0
    assert block.ranged.value == 18
    assert block.ranged.breakdown == (("level", 18),)
    assert block.melee is None
    assert block.shots.value == 5


def test_section_1_3_skirmisher_adjustment_is_reapplied_at_every_level():
    """§1.3: level 10 skirmishers: AC 30-2=28, Maneuver 22+2=24 (high), Morale 16+2=18 (low)."""
    block = stat_block(ArmySpec(SKI, 10, tactics=("darkvision",)))
    assert block.ac == Stat(28, (("level", 30), ("type", -2)))
    assert block.maneuver == Stat(24, (("level", 22), ("type", 2)))
    assert block.morale == Stat(18, (("level", 16), ("type", 2)))


def test_section_1_3_cavalry_maneuver_high_morale_low_at_level_12():
    """§1.2 level 12: high +25, low +19; §1.3 cavalry: Maneuver high, Morale low."""
    block = stat_block(new_basic_spec(CAV, 12))
    assert (block.maneuver.value, block.morale.value) == (25, 19)
    assert block.melee.value == 26
    assert block.max_tactics.value == 4


# §5 gear and item bonuses --------------------------------------------------------------------


def test_section_5_and_9_ac_22_is_level_plus_magic_armor_minus_weary():
    """AC 22 = 22 (level 5) + 1 magic armor (item) - 1 weary (circumstance)."""
    block = stat_block(infantry(5, gear=(ARMOR,), conditions={"weary": 1}))
    assert block.ac == Stat(22, (("level", 22), ("gear.magic_armor", 1), ("condition.weary", -1)))


def test_section_5_magic_weapons_apply_to_one_weapon():
    """§5: +2 item bonus (greater, level 10) to the melee Strike only."""
    block = stat_block(
        infantry(
            10, gear=(GearChoice("magic_weapons", 2, Weapon.MELEE), GearChoice("additional_weapon"))
        )
    )
    assert block.melee == Stat(25, (("level", 23), ("gear.magic_weapons", 2)))
    assert block.ranged == Stat(23, (("level", 23),))
    assert block.shots.value == 5


def test_section_5_additional_weapon_gives_infantry_a_ranged_strike_with_5_shots():
    """§5 Additional Weapon: the other Strike at the level's attack, normal 5 shots."""
    plain = stat_block(infantry(3))
    armed = stat_block(infantry(3, gear=(GearChoice("additional_weapon"),)))
    assert plain.ranged is None and plain.shots.value == 0
    assert armed.ranged.value == 12
    assert armed.shots.value == 5


def test_section_9_item_bonuses_do_not_stack_fortified_beats_magic_armor():
    """§9 Fortified: +4 item to AC; greater magic armor's +2 item bonus is then ignored."""
    block = stat_block(
        infantry(11, gear=(GearChoice("magic_armor", 2),), conditions={"fortified": 1})
    )
    assert block.ac == Stat(
        35, (("level", 31), ("condition.fortified", 4)), (("gear.magic_armor", 2),)
    )


def test_section_5_healing_potion_doses_are_carried_over():
    block = stat_block(infantry(gear=(GearChoice("healing_potions", doses=3),)))
    assert block.potion_doses == 3


# §9 conditions ------------------------------------------------------------------------------


def test_section_9_circumstance_penalties_take_the_worst_not_the_sum():
    """§9: weary 1 and outflanked (-2) are both circumstance penalties to AC: only -2 counts."""
    block = stat_block(infantry(5, conditions={"weary": 1, "outflanked": 1}))
    assert block.ac.value == 20
    assert block.ac.breakdown == (("level", 22), ("condition.outflanked", -2))
    assert block.ac.ignored == (("condition.weary", -1),)


@pytest.mark.parametrize(
    ("conditions", "morale"),
    [
        ({"shaken": 1}, 14),
        ({"routed": 1}, 13),
        ({"shaken": 1, "routed": 1}, 13),
        ({"shaken": 3, "routed": 1}, 12),
    ],
)
def test_section_9_shaken_and_routed_penalise_morale_without_stacking(conditions, morale):
    """§9: shaken = circumstance penalty equal to its value; routed -2 circumstance; level 5
    infantry Morale is +15 (high)."""
    assert stat_block(infantry(5, conditions=conditions)).morale.value == morale


def test_section_9_weary_and_mired_on_maneuver_and_a_concealed_bonus_still_applies():
    """§9: weary 2 and mired 1 are circumstance penalties (worst: -2); concealed is a +2
    circumstance bonus, which counts beside the penalty. Level 5 infantry Maneuver +9."""
    block = stat_block(infantry(5, conditions={"weary": 2, "mired": 1, "concealed": 1}))
    assert block.maneuver == Stat(
        9,
        (("level", 9), ("condition.weary", -2), ("condition.concealed", 2)),
        (("condition.mired", -1),),
    )
    assert any(s.stat == "attacks_against" and s.value == -2 for s in block.situational)


def test_section_9_mired_4_pins_and_pinned_is_outflanked():
    """§9: at mired 4 the army is pinned; a pinned army is outflanked (-2 circumstance AC)."""
    block = stat_block(infantry(5, conditions={"mired": 4}))
    assert dict(block.conditions) == {"mired": 4, "pinned": 1, "outflanked": 1}
    assert block.ac.value == 20
    assert block.maneuver.value == 5


def test_section_9_shaken_4_routs():
    block = stat_block(infantry(5, conditions={"shaken": 4}))
    assert "routed" in dict(block.conditions)
    assert block.morale.value == 11  # 15 - 4 (worse than routed's -2)


def test_section_4_2_and_9_weary_on_activity_and_deploy_checks():
    """§9 weary: -value to Army activity checks, double on Deploy Army; §4.2 mired too (worst
    circumstance penalty counts)."""
    block = stat_block(infantry(5, conditions={"weary": 2, "mired": 3}))
    assert block.activity_check == Stat(-2, (("condition.weary", -2),))
    assert block.deploy_check.value == -4
    assert stat_block(infantry(5, conditions={"weary": 1, "mired": 3})).deploy_check.value == -3


# §6 tactics ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "hp", "rt"), [(0, 4, 2), (1, 5, 2), (2, 6, 3), (3, 7, 3)])
def test_section_6_1_toughened_soldiers_adds_1_hp_each(count, hp, rt):
    """§6.1 Toughened Soldiers: max HP +1 per copy; RT = max HP // 2 (house default)."""
    block = stat_block(infantry(5, tactics=("toughened_soldiers",) * count or ("darkvision",)))
    assert block.max_hp.value == hp
    assert block.rout_threshold.value == rt
    assert house_value("basic.rout_threshold_divisor") == 2


@pytest.mark.parametrize(("toughened", "rt"), [(0, 1), (1, 2), (4, 2), (5, 3)])
def test_section_6_1_hold_the_line_rt_is_a_quarter_of_max_hp_rounded_up(toughened, rt):
    """§6.1 Hold the Line: RT = ceil(max HP / 4): 4 -> 1, 5 -> 2, 8 -> 2, 9 -> 3."""
    tactics = ("hold_the_line",) + ("toughened_soldiers",) * toughened
    block = stat_block(infantry(12, tactics=tactics))
    assert block.rout_threshold == Stat(rt, (("tactic.hold_the_line", rt),))
    assert any(s.when == "resist_rout" and s.value == 1 for s in block.situational)


def test_section_6_1_increased_ammunition_adds_2_shots_each():
    """§6.1: +2 ranged Strikes per copy; siege at level 10: 5 + 2 + 2 = 9 shots, ranged +23."""
    spec = new_basic_spec(SIE, 10, ("increased_ammunition", "increased_ammunition"))
    block = stat_block(spec)
    assert block.shots == Stat(9, (("base", 5), ("tactic.increased_ammunition", 4)))
    assert block.ranged.value == 23


@pytest.mark.parametrize(("level", "melee", "ranged"), [(5, 13, 16), (9, 20, 22), (15, 30, 31)])
def test_section_6_1_sharpshooter_by_level(level, melee, ranged):
    """§6.1 Sharpshooter: +1 status ranged; melee -2, -1 from level 9, none from level 15
    (attack: 15 at 5, 21 at 9, 30 at 15)."""
    spec = ArmySpec(SKI, level, tactics=("sharpshooter",), gear=(GearChoice("additional_weapon"),))
    block = stat_block(spec)
    assert (block.melee.value, block.ranged.value) == (melee, ranged)
    assert ("tactic.sharpshooter", 1) in block.ranged.breakdown


def test_section_6_1_bloodied_but_unbroken_applies_only_at_or_below_rt():
    """§6.1: while HP <= RT, +1 status to AC, Maneuver, Morale and attacks (+2 at level 10)."""
    healthy = stat_block(infantry(5, tactics=("bloodied_but_unbroken",), current_hp=3))
    bloodied = stat_block(infantry(5, tactics=("bloodied_but_unbroken",), current_hp=2))
    veteran = stat_block(infantry(10, tactics=("bloodied_but_unbroken",), current_hp=1))
    assert healthy.ac.value == 22
    assert any(s.source == "tactic.bloodied_but_unbroken" for s in healthy.situational)
    assert bloodied.ac == Stat(23, (("level", 22), ("tactic.bloodied_but_unbroken", 1)))
    assert (bloodied.maneuver.value, bloodied.morale.value, bloodied.melee.value) == (10, 16, 16)
    assert veteran.ac.value == 32


def test_section_2_overrun_is_situational_and_cavalry_experts_improve_it():
    """§2/§6.1: Overrun +1 status vs infantry/skirmishers, -1 vs area/mental; Cavalry Experts
    make it +2 and from level 12 drop the penalty."""
    plain = stat_block(new_basic_spec(CAV, 3))
    expert = stat_block(new_basic_spec(CAV, 12, ("cavalry_experts",)))
    assert plain.melee.value == 12  # not added to the stat itself
    assert [(s.stat, s.value) for s in plain.situational] == [
        ("attack", 1),
        ("maneuver", -1),
        ("morale", -1),
    ]
    assert [(s.stat, s.value) for s in expert.situational] == [("attack", 2)]


def test_section_8_2_tactics_unlock_war_actions():
    block = stat_block(infantry(5, tactics=("flexible_tactics", "merciless")))
    assert block.war_actions == (
        "advance",
        "battle",
        "disengage",
        "guard",
        "rally",
        "retreat",
        "dirty_fighting",
        "feint",
        "counterattack",
        "false_retreat",
        "all_out_assault",
    )


# §3 specialized and custom armies ------------------------------------------------------------


def test_section_3_4_narlmarch_hunters_sharpshooter_on_top_of_base_attack():
    """§3.4 implementation note: table 17, Sharpshooter -2/+1 -> melee +15, ranged +18; two
    Increased Ammunition shots -> 7."""
    block = stat_block(new_specialized_spec("narlmarch_hunters"))
    assert block.melee == Stat(15, (("level", 17), ("tactic.sharpshooter", -2)))
    assert block.ranged == Stat(18, (("level", 17), ("tactic.sharpshooter", 1)))
    assert block.shots.value == 7


def test_section_3_4_catspaw_marauders_magic_longbows():
    """§3.4 implementation note: table 24, Sharpshooter -1/+1, magic longbows +1 -> 23/26."""
    block = stat_block(new_specialized_spec("catspaw_marauders"))
    assert (block.melee.value, block.ranged.value) == (23, 26)
    assert block.ranged.breakdown == (
        ("level", 24),
        ("gear.magic_weapons", 1),
        ("tactic.sharpshooter", 1),
    )


def test_section_3_4_pitax_war_machines_effective_hp_8_and_7_shots():
    """§3.4 notes: HP 6 + Toughened Soldiers ×2 = 8, RT 4 printed, 7 shots."""
    block = stat_block(new_specialized_spec("pitax_war_machines"))
    assert block.max_hp == Stat(8, (("specialized", 6), ("tactic.toughened_soldiers", 2)))
    assert block.rout_threshold.value == 4
    assert block.shots.value == 7
    assert block.ranged.value == 29


def test_section_3_4_tatzlford_town_guard_hp_5_rt_2():
    """§3.4 notes: Tatzlford effective max HP 5; Hold the Line RT = ceil(5/4) = 2."""
    block = stat_block(new_specialized_spec("tatzlford_town_guard"))
    assert (block.max_hp.value, block.rout_threshold.value) == (5, 2)


def test_section_6_2_nomen_scouts_brave_and_self_sufficient():
    """§3.4/§6.2: Nomen Scouts have no RT (Brave) and Consumption -1 (Self-Sufficient)."""
    block = stat_block(new_specialized_spec("nomen_scouts"))
    assert block.rout_threshold is None
    assert block.consumption == Stat(-1, (("tactic.self_sufficient", -1),))
    assert "trample" in block.war_actions


@pytest.mark.parametrize("key", sorted(SPECIALIZED_ARMIES))
def test_section_3_4_specialized_armies_at_minimum_level_keep_printed_defences(key):
    """§3.3: at minimum level a specialized army has its printed Scouting, DC, AC and saves."""
    army = SPECIALIZED_ARMIES[key]
    block = stat_block(new_specialized_spec(key))
    printed = army.stats
    assert block.scouting.value == printed.scouting
    assert (block.recruitment_dc.value if block.recruitment_dc else None) == printed.recruitment_dc
    assert (block.ac.value, block.maneuver.value, block.morale.value) == (
        printed.ac,
        printed.maneuver,
        printed.morale,
    )


def test_section_3_3_specialized_army_levels_with_the_table_plus_its_adjustments():
    """§3.3: Tiger Lord Berserkers (12) at level 14: AC 36 + (32-33) = 35, Maneuver low
    22 + 0, Morale high 28 + 0, melee 29 + (28-26) = 31, Rec DC 32 + (32-30) = 34."""
    block = stat_block(new_specialized_spec("tiger_lord_berserkers", 14))
    assert block.ac == Stat(35, (("level", 36), ("specialized", -1)))
    assert (block.maneuver.value, block.morale.value) == (22, 28)
    assert block.melee == Stat(31, (("level", 29), ("specialized", 2)))
    assert block.recruitment_dc.value == 34
    assert block.max_hp.value == 6


def test_section_3_4_custom_stat_block_replaces_the_printed_one():
    """§3.4: every specialized stat block must be editable by the GM (KMT Greengripe AC 23)."""
    printed = SPECIALIZED_ARMIES["greengripe_bombardiers"].stats
    custom = PrintedStats(**{**_fields(printed), "ac": 23})
    spec = ArmySpec(
        SIE,
        8,
        specialized="greengripe_bombardiers",
        tactics=SPECIALIZED_ARMIES["greengripe_bombardiers"].tactics,
        custom=custom,
    )
    block = stat_block(spec)
    assert block.ac == Stat(25, (("level", 27), ("custom", -2)))


def _fields(stats: PrintedStats) -> dict:
    return {name: getattr(stats, name) for name in PrintedStats.__slots__}


# Invariants and errors -----------------------------------------------------------------------


def test_every_breakdown_sums_to_its_value_across_levels_and_armies():
    specs = [new_basic_spec(t, level) for t in ArmyType for level in range(1, 21)]
    specs += [
        new_specialized_spec(k, level)
        for k, a in SPECIALIZED_ARMIES.items()
        for level in range(a.level, 21)
    ]
    for spec in specs:
        block = stat_block(spec)
        for stat in (
            block.ac,
            block.maneuver,
            block.morale,
            block.scouting,
            block.melee,
            block.ranged,
            block.max_hp,
            block.shots,
            block.rout_threshold,
        ):
            if stat is not None:
                assert sum(v for _, v in stat.breakdown) == stat.value


def test_a_stat_whose_breakdown_does_not_add_up_is_refused():
    with pytest.raises(ValueError, match="does not add up"):
        Stat(22, (("level", 21),))


def test_combine_keeps_the_best_bonus_and_worst_penalty_of_each_type():
    stat = combine(
        [
            Modifier("level", 10),
            Modifier("a", 1, BonusType.STATUS),
            Modifier("b", 2, BonusType.STATUS),
            Modifier("c", -1, BonusType.STATUS),
            Modifier("d", -3, BonusType.STATUS),
            Modifier("e", 1),
            Modifier("f", 1),
        ]
    )
    assert stat == Stat(
        11, (("level", 10), ("b", 2), ("d", -3), ("e", 1), ("f", 1)), (("a", 1), ("c", -1))
    )


def test_unknown_keys_are_errors():
    with pytest.raises(ValueError, match="Unknown tactic"):
        stat_block(infantry(tactics=("teleport",)))
    with pytest.raises(ValueError, match="1-20"):
        stat_block(infantry(21))


def test_stat_block_and_spec_serialise_to_json_and_back():
    """Battle snapshots store specs and stat blocks as JSON (DESIGN.md: state is plain data)."""
    custom = PrintedStats(4, 11, 19, 1, 21, 8, 14, 5, 2, 14, None, free_tactics=("darkvision",))
    specs = [
        new_specialized_spec("catspaw_marauders", 12),
        infantry(5, gear=(ARMOR, GearChoice("healing_potions", doses=2)), conditions={"weary": 1}),
        ArmySpec(INF, 6, tactics=("darkvision", "toughened_soldiers"), custom=custom, current_hp=3),
    ]
    for spec in specs:
        data = json.loads(json.dumps(spec_to_dict(spec)))
        assert spec_from_dict(data) == spec
        block = json.loads(json.dumps(stat_block(spec).to_dict()))
        assert block["ac"]["value"] == stat_block(spec).ac.value
