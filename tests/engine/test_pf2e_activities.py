"""Army activities (pf2e §4.1-§4.9, §9 Efficient): plan, roll with scripted dice, apply.

The standard kingdom: level 3, Control DC 16 (§10.4 base DC at level 3, size 1-9 hexes), every
skill used at +7 trained unless a test says otherwise; turn 5; 50 RP.
"""

import json
from dataclasses import replace

import pytest

from warfare.engine.checks import Degree
from warfare.engine.dice import ScriptedDice
from warfare.engine.problems import codes
from warfare.engine.systems.pf2e.activities import (
    ActivityPlan,
    ArmyState,
    KingdomState,
    item_bonuses_from_structures,
    plan_activity,
    receive_gear,
    resolve_activity,
)
from warfare.engine.systems.pf2e.armies import ArmySpec, new_basic_spec, new_specialized_spec
from warfare.engine.systems.pf2e.gear import GearChoice, GearSource, Weapon
from warfare.engine.systems.pf2e.house_rules import house_value
from warfare.engine.systems.pf2e.kingdom import control_dc, default_skills
from warfare.engine.systems.pf2e.tables import ArmyType

INF, CAV, SIE = ArmyType.INFANTRY, ArmyType.CAVALRY, ArmyType.SIEGE
CS, S, F, CF = Degree.CRIT_SUCCESS, Degree.SUCCESS, Degree.FAILURE, Degree.CRIT_FAILURE


def kingdom(level=3, ranks=None, modifier=7, **kw) -> KingdomState:
    skills = default_skills()
    for name in skills:
        skills[name] = {"modifier": modifier, "rank": "trained"}
    for name, rank in (ranks or {}).items():
        skills[name]["rank"] = rank
    defaults = {"rp": 50, "food": 10, "turn": 5}
    return KingdomState(
        level=level, control_dc=control_dc(level, 1).total, skills=skills, **{**defaults, **kw}
    )


def army(
    key="a1", type_=INF, level=3, hp=None, hex_="A1", conditions=None, tactics=None, **kw
) -> ArmyState:
    spec = ArmySpec(
        type_,
        level,
        tactics=tactics if tactics is not None else ("darkvision",),
        conditions=conditions or {},
        gear=kw.pop("gear", ()),
    )
    return ArmyState(key, spec, 4 if hp is None else hp, hex_, **kw)


def run(activity, subject, realm, dice, *, skill=None, typed_die=None, **options):
    plan = plan_activity(activity, subject, realm, skill=skill, options=options)
    assert isinstance(plan, ActivityPlan), plan
    outcome = resolve_activity(plan, subject, realm, ScriptedDice(dice), typed_die=typed_die)
    assert not isinstance(outcome, list), outcome
    return outcome


def event_codes(outcome):
    return [event.code for event in outcome.events]


def test_standard_kingdom_has_control_dc_16():
    """§10.4: base Control DC at kingdom level 3 is 16."""
    assert kingdom().control_dc == 16


# §4 one activity per army per turn; §9 Efficient ------------------------------------------------


def test_section_4_a_basic_check_at_control_dc_16_with_warfare_7_and_a_natural_9_succeeds():
    """§0.1/§4.8: Warfare +7, natural 9 -> 16 vs Control DC 16 -> success."""
    outcome = run(
        "train_army", army(level=4), kingdom(), [9], skill="warfare", tactic="hold_the_line"
    )
    assert (outcome.check.die, outcome.check.total, outcome.check.dc.value) == (9, 16, 16)
    assert outcome.degree is S
    assert outcome.army.activities_this_turn == 1


def test_section_4_an_army_takes_one_activity_per_turn():
    acted = army(level=4, activities_this_turn=1)
    problems = plan_activity("train_army", acted, kingdom(), options={"tactic": "hold_the_line"})
    assert codes(problems) == ["activity.already_acted"]


def test_section_9_efficient_army_takes_a_second_activity_at_minus_5_and_spends_efficient():
    """§9: second activity at -5 (7 - 5 = 2); efficient is used; a critical success on it does
    not grant efficient again."""
    eager = army(level=4, conditions={"efficient": 1}, activities_this_turn=1)
    plan = plan_activity("train_army", eager, kingdom(), options={"tactic": "hold_the_line"})
    assert plan.second_activity
    assert plan.modifier.value == 2
    assert ("efficient.second_activity", -5) in plan.modifier.breakdown
    outcome = resolve_activity(plan, eager, kingdom(), ScriptedDice([20]))  # 22 vs 16, nat 20
    assert outcome.degree is CS
    assert outcome.army.condition("efficient") == 0
    assert "army.efficient_withheld" in event_codes(outcome)
    assert outcome.army.activities_this_turn == 2
    third = plan_activity("train_army", outcome.army, kingdom(), options={"tactic": "keen_eyed"})
    assert codes(third) == ["activity.already_acted"]


def test_section_9_first_activity_of_an_efficient_army_has_no_penalty():
    plan = plan_activity(
        "train_army",
        army(level=4, conditions={"efficient": 1}),
        kingdom(),
        options={"tactic": "hold_the_line"},
    )
    assert not plan.second_activity and plan.modifier.value == 7


def test_section_9_weary_penalises_army_activity_checks():
    """§4/§9: weary 2 -> -2 circumstance on Army activity checks: 7 - 2 = 5."""
    plan = plan_activity(
        "garrison_army", army(conditions={"weary": 2}), kingdom(), options={"location": "refuge"}
    )
    assert plan.modifier.value == 5
    assert ("condition.weary", -2) in plan.modifier.breakdown


def test_section_4_9_structure_item_bonus_is_added_to_the_check():
    """§4.9: a Castle gives +2 item to Garrison Army: 7 + 2 = 9."""
    bonuses = item_bonuses_from_structures(["barracks", "castle"])
    plan = plan_activity(
        "garrison_army", army(), kingdom(item_bonuses=bonuses), options={"location": "refuge"}
    )
    assert plan.modifier.value == 9
    assert ("structure.item_bonus", 2) in plan.modifier.breakdown


def test_section_4_9_item_bonuses_do_not_stack_highest_counts():
    bonuses = item_bonuses_from_structures(["barracks", "keep", "castle", "military_academy"])
    assert bonuses == {
        "garrison_army": 2,
        "recover_army": 2,
        "recruit_army": 2,
        "deploy_army": 1,
        "train_army": 2,
    }
    assert item_bonuses_from_structures(["palace", "smithy", "garrison"]) == {
        "garrison_army": 3,
        "recover_army": 3,
        "recruit_army": 3,
        "outfit_army": 1,
        "train_army": 1,
    }
    assert codes(item_bonuses_from_structures(["moat"])) == ["structure.unknown"]


def test_typed_die_is_used_and_logged_as_typed():
    dice = ScriptedDice([])
    plan = plan_activity("garrison_army", army(), kingdom(), options={"location": "refuge"})
    outcome = resolve_activity(plan, army(), kingdom(), dice, typed_die=9)
    assert (outcome.check.die, outcome.check.source, outcome.degree) == (9, "typed", S)
    assert [(roll.results, roll.source) for roll in dice.log] == [((9,), "typed")]


@pytest.mark.parametrize("value", [0, 21, "x"])
def test_a_typed_die_outside_1_to_20_is_a_problem(value):
    plan = plan_activity("garrison_army", army(), kingdom(), options={"location": "refuge"})
    problems = resolve_activity(plan, army(), kingdom(), ScriptedDice([]), typed_die=value)
    assert codes(problems)[0] in {"dice.out_of_range", "dice.not_a_number"}


def test_unknown_activity_and_missing_army_are_problems():
    assert codes(plan_activity("raid", army(), kingdom())) == ["activity.unknown"]
    assert codes(plan_activity("train_army", None, kingdom())) == ["activity.army_required"]


def test_resolve_refuses_a_plan_for_another_army():
    plan = plan_activity("garrison_army", army(), kingdom(), options={"location": "refuge"})
    other = army(key="b2")
    assert codes(resolve_activity(plan, other, kingdom(), ScriptedDice([10]))) == [
        "activity.wrong_army"
    ]


def test_plans_and_outcomes_are_json_ready_and_round_trip():
    plan = plan_activity(
        "deploy_army", army(), kingdom(), options={"destination": "B2", "hexes": 3, "road": True}
    )
    assert ActivityPlan.from_dict(json.loads(json.dumps(plan.to_dict()))) == plan
    outcome = resolve_activity(plan, army(), kingdom(), ScriptedDice([9]))
    json.dumps(outcome.to_dict())


# §4.1 Recruit Army ----------------------------------------------------------------------------


def recruit(dice, realm=None, **options):
    options = {
        "army_type": "infantry",
        "hex": "H1",
        "key": "new",
        "tactics": ["darkvision"],
        **options,
    }
    return run("recruit_army", None, realm or kingdom(), dice, **options)


def test_section_4_1_recruit_dc_is_the_armys_recruitment_dc():
    """§4.1/§1.2: a level-3 basic army's Recruitment DC is the Standard DC 18."""
    plan = plan_activity(
        "recruit_army",
        None,
        kingdom(),
        options={"army_type": "infantry", "hex": "H1", "tactics": ["darkvision"]},
    )
    assert (plan.skill, plan.modifier.value, plan.dc.value) == ("warfare", 7, 18)


def test_section_4_1_recruit_critical_success_recruits_an_efficient_army():
    """Natural 20: 27 vs 18 is a success, improved to critical success."""
    outcome = recruit([20])
    assert outcome.degree is CS
    new = outcome.army
    assert (new.key, new.hex, new.spec.level, new.hp) == ("new", "H1", 3, 4)
    assert new.condition("efficient") == 1


def test_section_4_1_recruit_success_recruits_at_kingdom_level():
    outcome = recruit([11])  # 18 vs 18
    assert outcome.degree is S
    assert outcome.army.spec.level == 3 and outcome.army.condition("efficient") == 0
    assert "army.recruited" in event_codes(outcome)


def test_section_4_1_recruit_failure_recruits_nothing():
    outcome = recruit([10])  # 17 vs 18
    assert outcome.degree is F and outcome.army is None
    assert outcome.kingdom.unrest == 0


def test_section_4_1_recruit_critical_failure_unrest_and_no_recruiting_until_next_turn():
    outcome = recruit([1])  # 8 vs 18
    assert outcome.degree is CF and outcome.army is None
    assert outcome.kingdom.unrest == 1
    assert outcome.kingdom.recruit_blocked_until_turn == 6
    again = plan_activity(
        "recruit_army", None, outcome.kingdom, options={"army_type": "infantry", "hex": "H1"}
    )
    assert codes(again) == ["recruit.blocked"]


def test_section_3_1_cavalry_comes_with_overrun_and_cannot_be_recruited_below_level_3():
    outcome = recruit([11], army_type="cavalry", tactics=[])
    assert outcome.army.spec.tactics == ("overrun",)
    problems = plan_activity(
        "recruit_army", None, kingdom(level=2), options={"army_type": "cavalry", "hex": "H1"}
    )
    assert "army.kingdom_level_too_low" in codes(problems)


def test_section_3_3_specialized_army_uses_statecraft_vs_its_recruitment_dc():
    """§3.4: Sootscale Warriors, Recruitment DC 20, Statecraft."""
    plan = plan_activity(
        "recruit_army", None, kingdom(), options={"specialized": "sootscale_warriors", "hex": "H1"}
    )
    assert (plan.skill, plan.dc.value) == ("statecraft", 20)
    wrong = plan_activity(
        "recruit_army",
        None,
        kingdom(),
        skill="warfare",
        options={"specialized": "sootscale_warriors", "hex": "H1"},
    )
    assert codes(wrong) == ["activity.skill_not_allowed"]
    assert new_specialized_spec("sootscale_warriors", 3).tactics == plan_recruit_tactics(plan)


def plan_recruit_tactics(plan):
    return tuple(plan.options["spec"]["tactics"])


# §4.2 Deploy Army -----------------------------------------------------------------------------


def deploy(dice, subject=None, realm=None, *, skill=None, **options):
    options = {"destination": "B2", "hexes": 5, **options}
    return run("deploy_army", subject or army(), realm or kingdom(), dice, skill=skill, **options)


def test_section_4_2_deploy_critical_success_arrives_efficient():
    outcome = deploy([19])  # 26 vs 16
    assert outcome.degree is CS
    assert outcome.army.hex == "B2" and outcome.army.condition("efficient") == 1


def test_section_4_2_deploy_success_arrives():
    outcome = deploy([9])  # 16 vs 16
    assert outcome.degree is S
    assert outcome.army.hex == "B2" and outcome.army.condition("weary") == 0


def test_section_4_2_deploy_failure_weary_and_dc_6_flat_check_for_hp():
    """Failure: arrives, weary +1, DC 6 flat check; a 5 fails -> HP 4 -> 3."""
    outcome = deploy([5, 5])  # 12 vs 16
    assert outcome.degree is F
    assert outcome.army.hex == "B2"
    assert outcome.army.condition("weary") == 1
    assert outcome.army.hp == 3
    passed = deploy([5, 6])
    assert passed.army.hp == 4


def test_section_4_2_deploy_critical_failure_lost_unrest_1d4_and_dc_11_flat_check():
    """Natural 1: 8 vs 16 is a failure, worsened to critical failure."""
    outcome = deploy([1, 3, 10])  # unrest d4 = 3, flat 10 < 11
    assert outcome.degree is CF
    assert outcome.army.hex == "A1"
    assert outcome.army.condition("lost") == 1
    assert outcome.kingdom.unrest == 3
    assert outcome.army.hp == 3
    kept = deploy([1, 4, 11])
    assert (kept.kingdom.unrest, kept.army.hp) == (4, 4)


def test_section_4_2_road_improves_the_result_one_degree_after_the_natural_die():
    """Exploration with a road: 12 (failure) -> success; natural 1 (crit failure) -> failure."""
    outcome = deploy([5], road=True)
    assert outcome.check.rolled is F and outcome.degree is S
    assert outcome.check.adjustments == (("deploy.road", 1),)
    worst = deploy([1, 6], road=True)
    assert worst.check.rolled is CF and worst.degree is F


def test_section_4_2_deploy_border_dc():
    """+5 crossing your border (21), +10 crossing an enemy border (26)."""
    own = plan_activity(
        "deploy_army", army(), kingdom(), options={"destination": "B2", "hexes": 3, "border": "own"}
    )
    enemy = plan_activity(
        "deploy_army",
        army(),
        kingdom(),
        options={"destination": "B2", "hexes": 3, "border": "enemy"},
    )
    assert own.dc.value == 21 and ("deploy.own_border", 5) in own.dc.breakdown
    assert enemy.dc.value == 26 and ("deploy.enemy_border", 10) in enemy.dc.breakdown
    assert house_value("deploy_army.border_dc_all_skills") == 1


def test_section_4_2_deploy_doubles_weary_and_applies_mired():
    """Weary 2 -> -4 on Deploy (7 - 4 = 3); mired 2 -> -2 (5). Both circumstance: the worse
    counts (§9 with PF2e stacking, as in the stat block)."""
    weary = plan_activity(
        "deploy_army",
        army(conditions={"weary": 2}),
        kingdom(),
        options={"destination": "B2", "hexes": 3},
    )
    mired = plan_activity(
        "deploy_army",
        army(conditions={"mired": 2}),
        kingdom(),
        options={"destination": "B2", "hexes": 3},
    )
    both = plan_activity(
        "deploy_army",
        army(conditions={"weary": 1, "mired": 3}),
        kingdom(),
        options={"destination": "B2", "hexes": 3},
    )
    assert weary.modifier.value == 3 and ("condition.weary", -4) in weary.modifier.breakdown
    assert mired.modifier.value == 5 and ("condition.mired", -2) in mired.modifier.breakdown
    assert both.modifier.value == 4


def test_section_4_2_forced_march_plus_4_and_weary():
    """+4 circumstance: 7 + 4 = 11. Success: weary +1. Failure: weary +2 (forced march) and +1
    (failure) = 3."""
    fine = deploy([5], forced_march=True)  # 16 vs 16
    assert fine.check.modifier.value == 11
    assert fine.degree is S and fine.army.condition("weary") == 1
    tired = deploy([2, 6], forced_march=True)  # 13 vs 16
    assert tired.degree is F and tired.army.condition("weary") == 3


def test_section_4_2_distance_limits_and_two_hex_costs():
    ok = plan_activity(
        "deploy_army",
        army(),
        kingdom(),
        options={"destination": "B2", "hexes": 18, "two_hex_costs": 2},
    )
    far = plan_activity(
        "deploy_army",
        army(),
        kingdom(),
        options={"destination": "B2", "hexes": 19, "two_hex_costs": 2},
    )
    assert isinstance(ok, ActivityPlan) and ok.options["distance"] == 20
    assert codes(far) == ["deploy.too_far"]
    assert far[0].params == {"skill": "exploration", "distance": 21, "max": 20}


def test_section_4_2_magic_needs_master_and_reaches_30_hexes():
    options = {"destination": "Z9", "hexes": 30}
    expert = plan_activity(
        "deploy_army", army(), kingdom(ranks={"magic": "expert"}), skill="magic", options=options
    )
    master = plan_activity(
        "deploy_army", army(), kingdom(ranks={"magic": "master"}), skill="magic", options=options
    )
    assert codes(expert) == ["activity.skill_rank_too_low"]
    assert isinstance(master, ActivityPlan)
    too_far = plan_activity(
        "deploy_army",
        army(),
        kingdom(ranks={"magic": "master"}),
        skill="magic",
        options={"destination": "Z9", "hexes": 31},
    )
    assert codes(too_far) == ["deploy.too_far"]


def test_section_4_2_boating_needs_a_water_route():
    problems = plan_activity(
        "deploy_army", army(), kingdom(), skill="boating", options={"destination": "B2", "hexes": 5}
    )
    assert codes(problems) == ["deploy.needs_water_route"]


def test_section_4_2_pinned_cannot_deploy_defeated_only_one_hex():
    pinned = plan_activity(
        "deploy_army",
        army(conditions={"mired": 4}),
        kingdom(),
        options={"destination": "B2", "hexes": 1},
    )
    assert codes(pinned) == ["deploy.pinned"]
    beaten = army(hp=0, conditions={"defeated": 1})
    assert codes(
        plan_activity("deploy_army", beaten, kingdom(), options={"destination": "B2", "hexes": 2})
    ) == ["deploy.defeated_one_hex"]
    assert isinstance(
        plan_activity("deploy_army", beaten, kingdom(), options={"destination": "B2", "hexes": 1}),
        ActivityPlan,
    )


def test_section_4_2_deploy_ends_a_garrison():
    garrisoned = army(conditions={"fortified": 1}, garrison="until_deployed")
    outcome = deploy([9], garrisoned)
    assert outcome.army.garrison is None and outcome.army.condition("fortified") == 0


# §4.3 Disband Army ----------------------------------------------------------------------------


def test_section_4_3_disband_no_check_no_unrest_gear_handed_over():
    weapons = GearChoice("magic_weapons", 1, Weapon.MELEE)
    leaving = army(gear=(weapons,))
    staying = army(key="b2")
    outcome = run("disband_army", leaving, kingdom(), [], transfer_to=staying)
    assert outcome.check is None and outcome.degree is None
    assert outcome.army.status == "disbanded"
    assert outcome.kingdom.unrest == 0
    assert outcome.transferred_gear == (weapons,) and outcome.transfer_to == "b2"
    received = receive_gear(staying, outcome.transferred_gear)
    assert received.spec.gear == (weapons,)
    assert received.block().melee.value == 13  # §1.2 level 3 attack 12 + 1 item


def test_section_5_disband_gear_only_to_an_army_in_the_same_hex():
    leaving = army(gear=(GearChoice("magic_weapons", 1, Weapon.MELEE),))
    elsewhere = army(key="b2", hex_="Q7")
    problems = plan_activity("disband_army", leaving, kingdom(), options={"transfer_to": elsewhere})
    assert codes(problems) == ["gear.not_same_hex"]


# §4.4 Garrison Army ---------------------------------------------------------------------------


def garrison(dice, subject=None, **options):
    options = {"location": "settlement", **options}
    return run("garrison_army", subject or army(), kingdom(), dice, **options)


def test_section_4_4_garrison_critical_success_fortified_until_deployed_consumption_cut():
    outcome = garrison([19])  # 26 vs 16
    assert outcome.degree is CS
    assert outcome.check.skill == "politics"
    new = outcome.army
    assert (new.condition("fortified"), new.garrison, new.garrison_consumption_cut) == (
        1,
        "until_deployed",
        True,
    )


def test_section_4_4_garrison_success_fortified_until_deployed():
    outcome = garrison([9])
    assert outcome.degree is S
    assert (outcome.army.garrison, outcome.army.garrison_consumption_cut) == (
        "until_deployed",
        False,
    )


def test_section_4_4_garrison_failure_fortified_until_next_turn():
    outcome = garrison([5])  # 12 vs 16
    assert outcome.degree is F
    assert outcome.army.condition("fortified") == 1
    assert outcome.army.garrison == "until_next_turn"


def test_section_4_4_garrison_critical_failure_unrest_and_4_turn_lockout():
    outcome = garrison([1])  # 8 vs 16 -> natural 1
    assert outcome.degree is CF
    assert outcome.army.condition("fortified") == 0
    assert outcome.kingdom.unrest == 1
    assert outcome.army.timer_values == {"no_garrison_until_turn:A1": 10}
    for turn in (6, 9):
        locked = plan_activity(
            "garrison_army",
            replace_turns(outcome.army),
            kingdom(turn=turn),
            options={"location": "settlement"},
        )
        assert codes(locked) == ["garrison.locked"]
    assert isinstance(
        plan_activity(
            "garrison_army",
            replace_turns(outcome.army),
            kingdom(turn=10),
            options={"location": "settlement"},
        ),
        ActivityPlan,
    )


def replace_turns(subject):
    """The same army in a later turn (its activity counter reset)."""
    return replace(subject, activities_this_turn=0)


def test_section_4_4_garrison_skill_by_location_and_dc_outside_the_kingdom():
    refuge = plan_activity("garrison_army", army(), kingdom(), options={"location": "refuge"})
    site = plan_activity("garrison_army", army(), kingdom(), options={"location": "work_site"})
    assert (refuge.skill, site.skill) == ("defense", "engineering")
    wrong = plan_activity(
        "garrison_army", army(), kingdom(), skill="politics", options={"location": "refuge"}
    )
    assert codes(wrong) == ["activity.skill_not_allowed"]
    outside = plan_activity(
        "garrison_army", army(), kingdom(), options={"location": "refuge", "territory": "outside"}
    )
    enemy = plan_activity(
        "garrison_army", army(), kingdom(), options={"location": "refuge", "territory": "enemy"}
    )
    assert (outside.dc.value, enemy.dc.value) == (21, 26)
    assert codes(plan_activity("garrison_army", army(), kingdom(), options={})) == [
        "garrison.location_required"
    ]


# §4.5 Offensive Gambit ------------------------------------------------------------------------


def gambit(dice, **options):
    options = {
        "enemy_armies": ["e1", "e2"],
        "own_armies": ["a1", "a2"],
        "enemy_scouting_dc": 19,
        **options,
    }
    return run("offensive_gambit", army(), kingdom(), dice, **options)


def test_section_4_5_gambit_critical_success_plus_2_initiative_and_one_enemy_shaken_1():
    outcome = gambit([20], shaken_target="e2")  # 27 vs 19, natural 20
    assert outcome.degree is CS
    assert outcome.initiative_modifiers == {"a1": 2, "a2": 2}
    assert outcome.enemy_effects == ({"army": "e2", "condition": "shaken", "value": 1},)
    assert "war.encounter_pending" in event_codes(outcome)


def test_section_4_5_gambit_success_plus_2_initiative():
    outcome = gambit([12])  # 19 vs 19
    assert outcome.degree is S
    assert outcome.initiative_modifiers == {"a1": 2, "a2": 2}
    assert outcome.enemy_effects == ()


def test_section_4_5_gambit_failure_no_advantage():
    outcome = gambit([5])  # 12 vs 19
    assert outcome.degree is F
    assert outcome.initiative_modifiers == {} and outcome.enemy_effects == ()


def test_section_4_5_gambit_critical_failure_enemies_plus_4_initiative():
    outcome = gambit([1])  # 8 vs 19
    assert outcome.degree is CF
    assert outcome.initiative_modifiers == {"e1": 4, "e2": 4}


def test_section_4_5_gambit_without_a_check_just_starts_the_fight():
    dice = ScriptedDice([])
    plan = plan_activity("offensive_gambit", army(), kingdom(), options={"enemy_armies": ["e1"]})
    assert plan.needs_check is False
    outcome = resolve_activity(plan, army(), kingdom(), dice)
    assert dice.log == [] and outcome.initiative_modifiers == {}
    assert "war.encounter_pending" in event_codes(outcome)


def test_section_4_5_gambit_needs_an_enemy_in_the_hex_and_uses_intrigue_or_warfare():
    assert codes(plan_activity("offensive_gambit", army(), kingdom(), options={})) == [
        "gambit.no_enemy_in_hex"
    ]
    wrong = plan_activity(
        "offensive_gambit",
        army(),
        kingdom(),
        skill="trade",
        options={"enemy_armies": ["e1"], "enemy_scouting_dc": 19},
    )
    assert codes(wrong) == ["activity.skill_not_allowed"]


# §4.6 Outfit Army -----------------------------------------------------------------------------

WEAPONS = {"key": "magic_weapons", "tier": 1, "weapon": "melee"}


def outfit(dice, subject=None, realm=None, **options):
    options = {"gear": WEAPONS, **options}
    return run(
        "outfit_army",
        subject or army(),
        realm or kingdom(ranks={"magic": "expert"}),
        dice,
        **options,
    )


def test_section_4_6_outfit_critical_success_outfitted_and_efficient_rp_paid():
    """§5: Magic Weapons cost 20 RP: 50 -> 30."""
    outcome = outfit([19])
    assert outcome.degree is CS
    assert outcome.kingdom.rp == 30
    assert outcome.army.spec.gear == (GearChoice("magic_weapons", 1, Weapon.MELEE),)
    assert outcome.army.condition("efficient") == 1


def test_section_4_6_outfit_success_outfitted():
    outcome = outfit([9])
    assert outcome.degree is S and outcome.kingdom.rp == 30 and len(outcome.army.spec.gear) == 1


def test_section_4_6_outfit_failure_refunds_the_rp():
    outcome = outfit([5])
    assert outcome.degree is F
    assert outcome.kingdom.rp == 50 and outcome.army.spec.gear == ()
    assert [code for code in event_codes(outcome) if code.startswith("kingdom.rp")] == [
        "kingdom.rp_spent",
        "kingdom.rp_refunded",
    ]


def test_section_4_6_outfit_critical_failure_keeps_the_rp():
    outcome = outfit([1])
    assert outcome.degree is CF
    assert outcome.kingdom.rp == 30 and outcome.army.spec.gear == ()


def test_section_4_6_outfit_needs_enough_rp_and_magic_expert():
    poor = plan_activity(
        "outfit_army", army(), kingdom(rp=19, ranks={"magic": "expert"}), options={"gear": WEAPONS}
    )
    assert codes(poor) == ["kingdom.not_enough_rp"]
    assert poor[0].params == {"needed": 20, "rp": 19}
    untrained = plan_activity(
        "outfit_army", army(), kingdom(ranks={"magic": "trained"}), options={"gear": WEAPONS}
    )
    assert codes(untrained) == ["gear.needs_magic_expert"]


def test_section_4_6_siege_engines_cannot_be_outfitted():
    siege = army(type_=SIE, level=7, tactics=("engines_of_war",), hp=6)
    problems = plan_activity(
        "outfit_army",
        siege,
        kingdom(level=7, ranks={"magic": "expert"}),
        options={"gear": {"key": "additional_weapon"}},
    )
    assert "gear.engines_of_war" in codes(problems)


def test_section_4_6_battle_spoils_use_warfare_cost_nothing_and_respect_enemy_level():
    spoils = plan_activity(
        "outfit_army",
        army(),
        kingdom(ranks={"magic": "untrained"}),
        options={"gear": WEAPONS, "source": "spoils", "spoils_level": 2},
    )
    assert (spoils.skill, spoils.cost_rp) == ("warfare", 0)
    outcome = resolve_activity(spoils, army(), kingdom(), ScriptedDice([9]))
    assert outcome.kingdom.rp == 50
    assert outcome.army.spec.gear[0].source is GearSource.SPOILS
    low = plan_activity(
        "outfit_army",
        army(),
        kingdom(),
        options={"gear": WEAPONS, "source": "spoils", "spoils_level": 1},
    )
    assert codes(low) == ["outfit.above_spoils_level"]


def test_section_5_upgrading_deducts_the_old_price():
    """Greater Magic Weapons (40 RP) over Magic Weapons (20 RP) costs 20 RP. Level 10:
    Control DC 27 (§10.4); natural 20 -> 27 success -> critical success."""
    veteran = army(level=10, gear=(GearChoice("magic_weapons", 1, Weapon.MELEE),))
    realm = kingdom(level=10, ranks={"magic": "expert"})
    plan = plan_activity(
        "outfit_army", veteran, realm, options={"gear": {"key": "magic_weapons", "tier": 2}}
    )
    assert plan.cost_rp == 20
    outcome = resolve_activity(plan, veteran, realm, ScriptedDice([20]))
    assert outcome.degree is CS and outcome.kingdom.rp == 30
    assert outcome.army.spec.gear == (GearChoice("magic_weapons", 2, Weapon.MELEE),)
    assert "army.gear_replaced" in event_codes(outcome)


def test_section_5_healing_potions_15_rp_per_dose_at_most_3():
    plan = plan_activity(
        "outfit_army",
        army(),
        kingdom(ranks={"magic": "expert"}),
        options={"gear": {"key": "healing_potions", "doses": 2}},
    )
    assert plan.cost_rp == 30
    outcome = resolve_activity(plan, army(), kingdom(), ScriptedDice([9]))
    assert outcome.army.potion_doses == 2
    more = plan_activity(
        "outfit_army",
        replace_turns(outcome.army),
        kingdom(ranks={"magic": "expert"}),
        options={"gear": {"key": "healing_potions", "doses": 2}},
    )
    assert codes(more) == ["gear.bad_doses"]


# §4.7 Recover Army ----------------------------------------------------------------------------


def recover(dice, subject, affliction, realm=None, skill=None, **options):
    return run(
        "recover_army",
        subject,
        realm or kingdom(),
        dice,
        skill=skill,
        affliction=affliction,
        **options,
    )


@pytest.mark.parametrize(
    ("die", "degree", "hp", "unrest"), [(19, CS, 4, 0), (9, S, 3, 0), (5, F, 2, 0), (1, CF, 2, 1)]
)
def test_section_4_7_recover_damaged(die, degree, hp, unrest):
    """Damaged HP 2/4 with Defense: crit +2, success +1, failure nothing, crit fail Unrest +1."""
    outcome = recover([die], army(hp=2), "damaged")
    assert outcome.check.skill == "defense"
    assert (outcome.degree, outcome.army.hp, outcome.kingdom.unrest) == (degree, hp, unrest)


@pytest.mark.parametrize(
    ("die", "degree", "weary"), [(19, CS, 1), (9, S, 2), (5, F, 3), (1, CF, 3)]
)
def test_section_4_7_recover_weary_by_2_or_1(die, degree, weary):
    """Weary 3 with Defense +10: 10 - 3 = 7 vs 16; crit -2, success -1."""
    outcome = recover([die], army(conditions={"weary": 3}), "weary", kingdom(modifier=10))
    assert outcome.check.modifier.value == 7  # 10 - weary 3
    assert (outcome.degree, outcome.army.condition("weary")) == (degree, weary)


def test_section_4_7_recover_defeated_dc_plus_5_one_hp_or_destroyed():
    """DC 16 + 5 = 21; Warfare (expert) +7: 14 -> 21 success -> 1 HP, no longer defeated."""
    beaten = army(hp=0, conditions={"defeated": 1})
    realm = kingdom(ranks={"warfare": "expert"})
    plan = plan_activity(
        "recover_army", beaten, realm, skill="warfare", options={"affliction": "defeated"}
    )
    assert plan.dc.value == 21 and ("recover.defeated", 5) in plan.dc.breakdown
    outcome = resolve_activity(plan, beaten, realm, ScriptedDice([14]))
    assert outcome.degree is S and outcome.army.hp == 1 and not outcome.army.defeated
    best = resolve_activity(plan, beaten, realm, ScriptedDice([20]))
    assert (
        best.degree is CS
        and best.army.hp == house_value("recover_army.defeated_hp_critical_success") == 1
    )
    lost = resolve_activity(plan, beaten, realm, ScriptedDice([1]))
    assert lost.degree is CF and lost.army.status == "destroyed" and lost.kingdom.unrest == 1


def test_section_9_a_destroyed_armys_gear_is_destroyed():
    """§4.7 critical failure on a defeated army: destroyed; §5 "A destroyed army's gear is
    destroyed", §9 Destroyed "all its gear is destroyed": no Magic Armor, potion doses or
    conditions stay with it."""
    armour = GearChoice("magic_armor", 1)
    beaten = army(hp=0, conditions={"defeated": 1, "weary": 1}, gear=(armour,), potion_doses=2)
    realm = kingdom(ranks={"warfare": "expert"})
    plan = plan_activity(
        "recover_army", beaten, realm, skill="warfare", options={"affliction": "defeated"}
    )
    lost = resolve_activity(plan, beaten, realm, ScriptedDice([1])).army
    assert (lost.status, lost.spec.gear, lost.potion_doses, lost.spec.conditions) == (
        "destroyed", (), 0, ()
    )  # fmt: skip


def test_section_4_7_recover_skill_table_proficiency_gates():
    """Defeated: Politics (master) or Warfare (expert). Lost: Wilderness (expert)."""
    beaten = army(hp=0, conditions={"defeated": 1})
    for skill, rank, ok in [
        ("politics", "expert", False),
        ("politics", "master", True),
        ("warfare", "trained", False),
        ("warfare", "expert", True),
    ]:
        plan = plan_activity(
            "recover_army",
            beaten,
            kingdom(ranks={skill: rank}),
            skill=skill,
            options={"affliction": "defeated"},
        )
        assert isinstance(plan, ActivityPlan) is ok, (skill, rank)
    lost = army(conditions={"lost": 1})
    wild = plan_activity(
        "recover_army", lost, kingdom(), skill="wilderness", options={"affliction": "lost"}
    )
    assert codes(wild) == ["activity.skill_rank_too_low"]
    wrong = plan_activity(
        "recover_army", lost, kingdom(), skill="defense", options={"affliction": "lost"}
    )
    assert codes(wrong) == ["activity.skill_not_allowed"]


def test_section_4_7_recover_lost_shaken_mired_pinned():
    found = recover([9], army(conditions={"lost": 1}), "lost", new_hex="C3")
    assert found.army.condition("lost") == 0 and found.army.hex == "C3"
    calm = recover([19], army(conditions={"shaken": 3}), "shaken")
    assert calm.check.skill == "arts" and calm.army.condition("shaken") == 1
    freed = recover([9], army(conditions={"mired": 2}), "mired")
    assert freed.check.skill == "engineering" and freed.army.condition("mired") == 1
    unpinned = recover([9], army(conditions={"pinned": 1}), "pinned")
    assert unpinned.army.condition("pinned") == 0


def test_section_4_7_recover_needs_the_affliction():
    problems = plan_activity("recover_army", army(), kingdom(), options={"affliction": "shaken"})
    assert codes(problems) == ["recover.not_afflicted"]


def test_section_9_lost_army_may_only_recover_defeated_only_deploy_disband_recover():
    lost = army(conditions={"lost": 1})
    assert codes(
        plan_activity("garrison_army", lost, kingdom(), options={"location": "refuge"})
    ) == ["army.lost_only_recover"]
    beaten = army(hp=0, conditions={"defeated": 1})
    assert codes(
        plan_activity("train_army", beaten, kingdom(), options={"tactic": "keen_eyed"})
    ) == ["army.defeated_limited"]
    assert isinstance(plan_activity("disband_army", beaten, kingdom()), ActivityPlan)


# §4.8 Train Army ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree", "learned", "efficient", "weary"),
    [(19, CS, True, 1, 0), (9, S, True, 0, 0), (5, F, False, 0, 0), (1, CF, False, 0, 1)],
)
def test_section_4_8_train(die, degree, learned, efficient, weary):
    outcome = run(
        "train_army", army(level=4), kingdom(), [die], skill="scholarship", tactic="hold_the_line"
    )
    assert outcome.degree is degree
    assert ("hold_the_line" in outcome.army.spec.tactics) is learned
    assert outcome.army.condition("efficient") == efficient
    assert outcome.army.condition("weary") == weary


def test_section_4_8_at_max_tactics_the_new_one_replaces_a_chosen_one():
    """Level 3: max 1 tactic (§1.2)."""
    full = army(level=3)
    assert codes(
        plan_activity("train_army", full, kingdom(), options={"tactic": "hold_the_line"})
    ) == ["train.replace_required"]
    outcome = run("train_army", full, kingdom(), [9], tactic="hold_the_line", replace="darkvision")
    assert outcome.army.spec.tactics == ("hold_the_line",)


def test_section_4_8_mandatory_and_ineligible_tactics():
    cavalry = army(type_=CAV, tactics=("overrun",))
    problems = plan_activity(
        "train_army", cavalry, kingdom(), options={"tactic": "hold_the_line", "replace": "overrun"}
    )
    assert "tactic.cannot_replace_mandatory" in codes(problems)
    too_high = plan_activity(
        "train_army", army(level=4), kingdom(), options={"tactic": "merciless"}
    )
    assert codes(too_high) == ["tactic.level_too_high"]


def test_section_4_8_train_dc_is_control_dc_by_house_default():
    plan = plan_activity("train_army", army(level=4), kingdom(), options={"tactic": "keen_eyed"})
    assert house_value("train_army.dc_adjustment") == 0
    assert plan.dc.value == 16


def test_new_basic_spec_is_what_recruit_builds():
    """§2: a cavalry's first tactic is Overrun."""
    assert new_basic_spec(CAV, 3).tactics == ("overrun",)


def test_bad_options_are_problems_not_exceptions():
    bad_hexes = plan_activity(
        "deploy_army", army(), kingdom(), options={"destination": "B2", "hexes": "far"}
    )
    bad_tactics = plan_activity(
        "recruit_army",
        None,
        kingdom(),
        options={"army_type": "infantry", "hex": "H1", "tactics": 5},
    )
    bad_gear = plan_activity("outfit_army", army(), kingdom(), options={"gear": {"tier": 1}})
    assert codes(bad_hexes) == codes(bad_tactics) == codes(bad_gear) == ["activity.bad_options"]
    assert codes(
        plan_activity(
            "recruit_army", None, kingdom(), options={"army_type": "dragons", "hex": "H1"}
        )
    ) == ["army.unknown_type"]


def test_section_9_a_defeated_army_that_takes_damage_attempts_dc_16_or_is_destroyed():
    """§4.2 failure (12 vs 16): DC 6 flat check fails (5) -> 1 damage to a defeated army ->
    DC 16 flat check: 15 fails -> destroyed; 16 passes -> still defeated at 0 HP."""
    beaten = army(hp=0, conditions={"defeated": 1})
    gone = deploy([5, 5, 15], beaten, hexes=1)
    assert gone.army.status == "destroyed"
    survived = deploy([5, 5, 16], beaten, hexes=1)
    assert survived.army.status == "active" and survived.army.hp == 0
    assert survived.army.hex == "B2"


def test_recruit_plan_can_defer_the_starting_tactic_to_after_the_check():
    """§3.1: the Recruit Army check (step 2) comes before choosing starting tactics (step 4)."""
    from warfare.engine.systems.pf2e.activities import KingdomState, plan_activity

    kingdom = KingdomState(level=3, control_dc=16)
    options = {"army_type": "infantry", "hex": "C7"}
    refused = plan_activity("recruit_army", None, kingdom, options=options)
    assert [problem.code for problem in refused] == ["tactic.none_known"]
    plan = plan_activity("recruit_army", None, kingdom, options={**options, "deferred": True})
    assert plan.dc.value == 18  # §1.2: Standard DC at level 3
    assert plan.skill == "warfare"
