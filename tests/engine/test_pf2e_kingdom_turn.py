"""Kingdom-turn army upkeep (pf2e §10.2 Consumption, §9 decay and Efficient, §4.4 garrison,
§7.8 narrative war), levelling (§3.2), gear transfer (§5) and state storage."""

import json

import pytest

from warfare.engine.dice import ScriptedDice
from warfare.engine.problems import codes
from warfare.engine.systems.pf2e.activities import (
    ArmyState,
    KingdomState,
    army_consumption,
    follow_kingdom_level,
    mark_fought,
    start_kingdom_turn,
    transfer_gear,
)
from warfare.engine.systems.pf2e.armies import ArmySpec, new_specialized_spec
from warfare.engine.systems.pf2e.gear import GearChoice, Weapon
from warfare.engine.systems.pf2e.house_rules import house_value
from warfare.engine.systems.pf2e.tables import ArmyType

INF, CAV = ArmyType.INFANTRY, ArmyType.CAVALRY


def realm(**kw) -> KingdomState:
    return KingdomState(**{"level": 3, "control_dc": 16, "rp": 20, "food": 10, "turn": 5, **kw})


def army(key="a1", type_=INF, conditions=None, tactics=None, hex_="A1", **kw) -> ArmyState:
    default = ("overrun",) if type_ is CAV else ("darkvision",)
    spec = ArmySpec(
        type_,
        kw.pop("level", 3),
        tactics=tactics or default,
        conditions=conditions or {},
        gear=kw.pop("gear", ()),
    )
    return ArmyState(key, spec, kw.pop("hp", 4), hex_, **kw)


def turn(kingdom, armies, dice=(), **kw):
    outcome = start_kingdom_turn(kingdom, armies, dice=ScriptedDice(dice), **kw)
    assert not isinstance(outcome, list), outcome
    return outcome


def codes_of(outcome):
    return [event.code for event in outcome.events]


# §10.2 Pay Consumption --------------------------------------------------------------------------


def test_section_10_2_consumption_paid_with_food():
    """§1.3: infantry 1 + cavalry 2, plus 2 from settlements = 5 Food: 10 -> 5."""
    outcome = turn(realm(), [army(), army("c1", CAV)], other_consumption=2)
    assert outcome.consumption["total"] == 5
    assert outcome.kingdom.food == 5
    assert outcome.kingdom.turn == 6
    assert [a.condition("weary") for a in outcome.armies] == [0, 0]


def test_section_10_2_shortfall_paid_with_5_rp_per_point():
    """3 Food for 5 points: 2 unpaid points x 5 RP = 10 RP (20 -> 10)."""
    outcome = turn(realm(food=3), [army(), army("c1", CAV)], other_consumption=2, pay_with="rp")
    assert (outcome.kingdom.food, outcome.kingdom.rp) == (0, 10)
    assert outcome.consumption["unpaid"] == 0


def test_section_10_2_not_enough_rp_or_food_is_a_problem():
    armies = [army(), army("c1", CAV)]
    poor = start_kingdom_turn(realm(food=0, rp=14), armies, dice=ScriptedDice([]), pay_with="rp")
    assert codes(poor) == ["kingdom.not_enough_rp"]
    assert poor[0].params == {"needed": 15, "rp": 14}
    hungry = start_kingdom_turn(realm(food=2), armies, dice=ScriptedDice([]))
    assert codes(hungry) == ["kingdom.not_enough_food"]


def test_section_10_2_unpaid_consumption_unrest_1d4_and_armies_weary_and_shaken():
    outcome = turn(realm(food=0, unrest=1), [army(), army("c1", CAV)], [3], pay_with="unrest")
    assert outcome.kingdom.unrest == 4
    assert [(a.condition("weary"), a.condition("shaken")) for a in outcome.armies] == [
        (1, 1),
        (1, 1),
    ]
    assert outcome.consumption["unpaid"] == 3


def test_section_10_2_army_reaching_weary_4_is_disbanded_with_unrest_and_a_ruin():
    """Weary 3 + 1 = 4 -> disbanded; Unrest +1d4 (unpaid: 2) +1d4 (disband: 4); +1 Strife."""
    worn = army(conditions={"weary": 3}, activities_this_turn=1)
    fresh = army("b2", activities_this_turn=1)
    outcome = turn(realm(food=0), [worn, fresh], [2, 4], pay_with="unrest", ruin_choice="strife")
    disbanded, kept = outcome.armies
    assert disbanded.status == "disbanded" and kept.status == "active"
    assert outcome.kingdom.unrest == 6
    assert outcome.kingdom.ruins["strife"] == 1
    assert {"code": "army.disbanded", "params": {"army": "a1", "forced": True}} in [
        event.to_dict() for event in outcome.events
    ]


def test_section_10_2_forced_disband_penalty_is_per_army_by_house_default():
    armies = [
        army(conditions={"shaken": 3}, activities_this_turn=1),
        army("b2", conditions={"weary": 5}, activities_this_turn=1),
    ]
    assert house_value("consumption.forced_disband_penalty_per_army") == 1
    outcome = turn(
        realm(food=0),
        armies,
        [1, 2, 3],
        pay_with="unrest",
        ruin_choice={"a1": "crime", "b2": "decay"},
    )
    assert [a.status for a in outcome.armies] == ["disbanded", "disbanded"]
    assert outcome.kingdom.unrest == 6
    assert (outcome.kingdom.ruins["crime"], outcome.kingdom.ruins["decay"]) == (1, 1)


def test_section_10_2_a_forced_disband_needs_the_players_ruin_choice_before_rolling():
    dice = ScriptedDice([2, 4])
    problems = start_kingdom_turn(
        realm(food=0),
        [army(conditions={"weary": 3}, activities_this_turn=1)],
        dice=dice,
        pay_with="unrest",
    )
    assert codes(problems) == ["kingdom.ruin_choice_required"]
    assert dice.log == []


def test_section_10_2_first_turn_skips_consumption():
    outcome = turn(realm(food=0), [army()], skip_consumption=True)
    assert outcome.kingdom.food == 0 and outcome.consumption["total"] == 0


# §10.2 consumption modifiers --------------------------------------------------------------------


def test_section_4_4_garrison_critical_success_cuts_consumption_by_2_minimum_1():
    cavalry = army(
        "c1",
        CAV,
        garrison="until_deployed",
        garrison_consumption_cut=True,
        conditions={"fortified": 1},
    )
    assert army_consumption(cavalry).value == 1
    assert army_consumption(army("c1", CAV)).value == 2
    assert (
        army_consumption(army(garrison="until_deployed", garrison_consumption_cut=True)).value == 1
    )


def test_section_6_1_live_off_the_land_outside_settlements():
    forager = army(tactics=("live_off_the_land",), hex_="W4")
    assert army_consumption(forager, settlement_hexes={"A1"}).value == 0
    assert army_consumption(forager, settlement_hexes={"W4"}).value == 1


def test_section_6_2_self_sufficient_reduces_consumption_unless_defeated():
    nomen = ArmyState("n1", new_specialized_spec("nomen_scouts"), 4, "A1")
    assert army_consumption(nomen).value == -1
    beaten = ArmyState("n1", new_specialized_spec("nomen_scouts"), 0, "A1")
    assert army_consumption(beaten).value == 0
    outcome = turn(realm(level=8), [nomen, army()], other_consumption=3)
    assert outcome.consumption["total"] == 3  # 3 + 1 - 1


def test_disbanded_armies_consume_nothing():
    assert army_consumption(army(status="disbanded")).value == 0


# §9 idle decay, Efficient; §4.4 garrison until next turn --------------------------------------


def test_section_9_idle_army_loses_1_weary_and_1_shaken():
    idle = army(conditions={"weary": 2, "shaken": 1})
    busy = army("b2", conditions={"weary": 2, "shaken": 1}, activities_this_turn=1)
    fought = mark_fought(army("c3", conditions={"weary": 2, "shaken": 1}))
    outcome = turn(realm(), [idle, busy, fought])
    assert [(a.condition("weary"), a.condition("shaken")) for a in outcome.armies] == [
        (1, 0),
        (2, 1),
        (2, 1),
    ]
    assert all(a.activities_this_turn == 0 and not a.fought_this_turn for a in outcome.armies)


def test_section_9_unused_efficient_ends_and_reduces_a_condition_by_1():
    subject = army(conditions={"efficient": 1, "weary": 1, "shaken": 3}, activities_this_turn=1)
    chosen = turn(realm(), [subject], efficient_reductions={"a1": "weary"}).armies[0]
    default = turn(realm(), [subject]).armies[0]
    assert chosen.spec.condition_values == {"shaken": 3}
    assert default.spec.condition_values == {"weary": 1, "shaken": 2}


def test_section_4_4_fortified_until_next_turn_ends_until_deployed_stays():
    short = army(conditions={"fortified": 1}, garrison="until_next_turn", activities_this_turn=1)
    long = army(
        "b2", conditions={"fortified": 1}, garrison="until_deployed", activities_this_turn=1
    )
    outcome = turn(realm(), [short, long])
    assert [a.condition("fortified") for a in outcome.armies] == [0, 1]
    assert [a.garrison for a in outcome.armies] == [None, "until_deployed"]


def test_section_4_1_recruit_block_lifts_next_turn():
    outcome = turn(realm(recruit_blocked_until_turn=6), [])
    assert outcome.kingdom.recruit_blocked_until_turn is None


# §7.8 narrative warfare ---------------------------------------------------------------------------


def test_section_7_8_narrative_war_unrest_1d6_and_a_ruin():
    outcome = turn(
        realm(at_war=True, narrative_warfare=True, unrest=2), [], [5], ruin_choice="corruption"
    )
    assert outcome.kingdom.unrest == 7
    assert outcome.kingdom.ruins["corruption"] == 1
    peace = turn(realm(narrative_warfare=True), [])
    assert peace.kingdom.unrest == 0
    battles = turn(realm(at_war=True), [])
    assert battles.kingdom.unrest == 0


def test_bad_turn_input_is_a_problem():
    assert codes(start_kingdom_turn(realm(), [], dice=ScriptedDice([]), pay_with="gold")) == [
        "kingdom.bad_pay_with"
    ]
    assert codes(start_kingdom_turn(realm(), [], dice=ScriptedDice([]), ruin_choice="gloom")) == [
        "kingdom.unknown_ruin"
    ]


# §3.2 level-up; §5 transfer -------------------------------------------------------------------


def test_section_3_2_army_follows_the_kingdom_level_new_slot_stays_empty():
    """Level 4 (§1.2): AC 21, Morale (high) +14, max tactics 2."""
    levelled = follow_kingdom_level(army(), 4)
    block = levelled.block()
    assert (block.ac.value, block.morale.value, block.max_tactics.value) == (21, 14, 2)
    assert levelled.spec.tactics == ("darkvision",)
    assert codes(follow_kingdom_level(army(), 21)) == ["army.level_out_of_range"]
    assert codes(follow_kingdom_level(army("c1", CAV), 2)) == ["army.level_below_minimum"]


def test_section_5_gear_transfer_in_the_same_hex_to_a_high_enough_army():
    armor = GearChoice("magic_armor", 1)
    giver = army(level=5, gear=(armor,))
    taker = army("b2", level=5)
    moved_from, moved_to = transfer_gear(giver, taker, "magic_armor")
    assert moved_from.spec.gear == () and moved_to.spec.gear == (armor,)
    assert moved_to.block().ac.value == 23  # §1.2 level 5 AC 22 + 1 item
    assert codes(transfer_gear(giver, army("b2", level=4), "magic_armor")) == [
        "gear.level_too_high"
    ]
    assert codes(transfer_gear(giver, army("b2", level=5, hex_="Z1"), "magic_armor")) == [
        "gear.not_same_hex"
    ]
    assert codes(transfer_gear(giver, taker, "magic_weapons:melee")) == ["gear.not_carried"]


def test_section_5_potions_merge_up_to_3_doses():
    giver = army(gear=(GearChoice("healing_potions", doses=2),), potion_doses=2)
    taker = army("b2", gear=(GearChoice("healing_potions", doses=1),), potion_doses=1)
    _, received = transfer_gear(giver, taker, "healing_potions")
    assert received.potion_doses == 3
    too_many = army("b2", gear=(GearChoice("healing_potions", doses=2),), potion_doses=2)
    assert codes(transfer_gear(giver, too_many, "healing_potions")) == ["gear.bad_doses"]


# storage --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "state",
    [
        army(
            conditions={"weary": 2},
            gear=(GearChoice("magic_weapons", 1, Weapon.MELEE),),
            timers={"no_garrison_until_turn:A1": 9},
            garrison="until_deployed",
        ),
        realm(ruins={"strife": 2}, item_bonuses={"train_army": 2}, at_war=True),
    ],
)
def test_states_round_trip_through_json(state):
    data = json.loads(json.dumps(state.to_dict()))
    assert type(state).from_dict(data) == state


def test_turn_outcome_is_json_ready():
    outcome = turn(realm(food=0), [army()], [2], pay_with="unrest")
    json.dumps(outcome.to_dict())
