"""Reactions used automatically (pf2e §0.5, §8.2): Counterattack and False Retreat.

Numbers (§1.2): level 5 infantry a1 with Flexible Tactics: AC 22, melee +15, Maneuver +9
(DC 19), Morale +15 (DC 25), 4 HP. Level 3 infantry b1: AC 19, melee +12, Maneuver +6
(DC 16), Morale +12 (DC 22), 4 HP, RT 2. Level 5 skirmisher b2 with Sharpshooter and a
ranged weapon: ranged +16 (+1 status Sharpshooter included).
"""

from dataclasses import replace

import pytest

from tests.engine.battle.helpers import (
    RANGED_WEAPON,
    SKI,
    army,
    begin,
    codes,
    conditions,
    effects_on,
    event,
    rejected,
    run,
    setup,
)
from warfare.engine.battle.protocol import Command, SetupError, command_dice, replay
from warfare.engine.systems.pf2e.battle import SYSTEM
from warfare.engine.systems.pf2e.battle.state import Effect

FLEX = ("flexible_tactics",)


def a1(**kw):
    return army("a1", level=5, tactics=FLEX, **kw)


def engaged_battle(ours, theirs, order, pairs=(("a1", "b1"),)):
    state = begin(ours, theirs, order=order)
    for a, b in pairs:
        state, _, _ = run(state, "gm_correction", army=a, engage=[b])
    return state


def _reaction_events(events, code):
    return [e for e in events if e.code == code]


# --- Counterattack (§8.2) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree", "hp", "shaken"),
    [
        (14, "critical_success", 3, 1),  # 14 + 15 = 29 >= AC 19 + 10: 1 damage, shaken +1
        (4, "success", 3, 0),  # 19 >= 19: 1 damage
        (3, "failure", 4, 0),  # 18 < 19
        (1, "critical_failure", 4, 0),  # 16 < 19, natural 1
    ],
)
def test_counterattack_when_an_engaged_enemy_attempts_a_maneuver(die, degree, hp, shaken):
    """§8.2 Counterattack: trigger = an army engaged with you attempts a maneuver war action
    (here Guard, §8.1); melee Strike +15 vs the triggering army's AC 19, before its check."""
    state = engaged_battle([a1()], [army("b1")], ["b1", "a1"])
    # Counterattack die, then b1's Guard: +6 vs a1's Maneuver DC 19, die 10 -> 16 failure.
    state, events, _ = run(state, "guard", [die, 10], target="a1")
    order = codes(events)
    assert order.index("battle.counterattack") < order.index("battle.guard")
    counter = event(events, "battle.counterattack").params
    assert counter["army"] == "a1" and counter["target"] == "b1"
    assert counter["trigger"] == "guard" and counter["degree"] == degree
    assert counter["check"]["modifier"] == 15 and counter["check"]["dc"] == 19
    assert state.army("b1").hp == hp
    assert conditions(state, "b1").get("shaken", 0) == shaken
    assert state.army("a1").reaction_used


def test_counterattack_ignores_and_does_not_count_toward_map():
    """§0.4: Counterattack does not count toward MAP and ignores MAP."""
    state = engaged_battle([a1()], [army("b1")], ["b1", "a1"])
    state = state.with_army(replace(state.army("a1"), attacks=("b1", "b1")))
    state, events, _ = run(state, "guard", [4, 10], target="a1")
    check = event(events, "battle.counterattack").params["check"]
    assert check["modifier"] == 15
    assert "map" not in [code for code, _ in check["modifier_breakdown"]]
    assert state.army("a1").attacks == ("b1", "b1")


def test_no_counterattack_without_the_tactic_or_engagement_or_for_non_maneuvers():
    """Only armies knowing Flexible Tactics react; only engaged ones; only to maneuvers."""
    state = engaged_battle([army("a1", level=5)], [army("b1")], ["b1", "a1"])
    _, events, _ = run(state, "guard", [10], target="a1")
    assert "battle.counterattack" not in codes(events)
    state = begin([a1()], [army("b1")], order=["b1", "a1"])
    _, events, _ = run(state, "guard", [10], target="a1")
    assert "battle.counterattack" not in codes(events)
    state = engaged_battle([a1()], [army("b1")], ["b1", "a1"])
    _, events, _ = run(state, "battle", [10], target="a1", weapon="melee")  # attack trait
    assert "battle.counterattack" not in codes(events)


def test_counterattack_once_per_round_and_back_at_the_start_of_its_turn():
    """§0.5: 1 reaction per round; the second Guard is not answered; after a1's own turn
    starts it may react again."""
    state = engaged_battle([a1()], [army("b1")], ["b1", "a1"])
    state, events, _ = run(state, "guard", [3, 10], target="a1")  # counter misses: 18 < 19
    assert len(_reaction_events(events, "battle.counterattack")) == 1
    state, events, _ = run(state, "guard", [10], target="a1")
    assert "battle.counterattack" not in codes(events)
    blocked = event(events, "battle.reaction_blocked").params
    assert blocked == {"army": "a1", "reaction": "counterattack", "reason": "reaction_used",
                       "trigger": "guard"}  # fmt: skip
    state, _, _ = run(state, "end_turn")
    assert not state.army("a1").reaction_used  # a1's turn started
    state, _, _ = run(state, "end_turn")  # end of round 1: no one at or below RT
    assert state.round == 2 and state.current == "b1"
    state, events, _ = run(state, "guard", [3, 10], target="a1")
    assert len(_reaction_events(events, "battle.counterattack")) == 1


def test_each_engaged_reactor_counterattacks_in_key_order():
    state = engaged_battle(
        [a1(), army("a2", level=5, tactics=FLEX)], [army("b1")], ["b1", "a1", "a2"],
        pairs=(("a1", "b1"), ("a2", "b1")),
    )  # fmt: skip
    state, events, _ = run(state, "guard", [4, 4, 10], target="a1")
    assert [e.params["army"] for e in _reaction_events(events, "battle.counterattack")] == [
        "a1", "a2",
    ]  # fmt: skip
    assert state.army("b1").hp == 2


def test_counterattack_that_defeats_the_triggering_army_interrupts_its_action():
    state = engaged_battle([a1()], [army("b1", hp=1)], ["b1", "a1"])
    state, events, _ = run(state, "disengage", [4], actor="b1")
    assert state.army("b1").defeated
    assert event(events, "battle.action_interrupted").params["action"] == "disengage"
    assert "battle.disengage" not in codes(events)
    assert state.finished and state.winner == "k"  # §7.3 step 5: its side is beaten


def test_covering_fire_blocks_counterattack():
    """§8.2 Covering Fire (S/CS): the target can't take reactions triggered by maneuver war
    actions until the start of the shooter's next turn."""
    theirs = [army("b2", SKI, 5, ("sharpshooter",), gear=RANGED_WEAPON), army("b1")]
    state = engaged_battle([a1()], theirs, ["b2", "b1", "a1"])
    state, events, _ = run(state, "covering_fire", [20], target="a1", weapon="ranged")
    assert effects_on(state, "a1", "no_maneuver_reactions")
    state, _, _ = run(state, "end_turn")
    state, events, _ = run(state, "guard", [10], target="a1")
    assert "battle.counterattack" not in codes(events)
    blocked = event(events, "battle.reaction_blocked").params
    assert blocked["reason"] == "no_maneuver_reactions"
    assert not state.army("a1").reaction_used


def test_auto_reactions_off_for_a_side():
    """Setup flag per side (default true); off: the reaction is offered to its controller
    (tests/engine/battle/test_pf2e_reaction_offers.py) instead of taken."""
    data = setup([a1()], [army("b1")], initiative={"b1": 20, "a1": 1})
    data["sides"][0]["auto_reactions"] = False
    state = SYSTEM.start(data, 7)
    assert state.current == "b1" and not state.army("a1").auto_reactions
    assert state.army("b1").auto_reactions
    state, _, _ = run(state, "gm_correction", army="a1", engage=["b1"])
    state, events, _ = run(state, "guard", [], target="a1")
    assert "battle.counterattack" not in codes(events)
    assert event(events, "battle.reaction_offered").params["army"] == "a1"
    assert state.pending is not None


def test_bad_auto_reactions_flag_is_a_setup_problem():
    data = setup([a1()], [army("b1")])
    data["sides"][1]["auto_reactions"] = "yes"
    with pytest.raises(SetupError) as error:
        SYSTEM.start(data, 7)
    assert "battle.setup.bad_auto_reactions" in [p.code for p in error.value.problems]


def test_reactions_are_not_offered_as_turn_actions():
    state = begin([a1()], [army("b1")], order=["a1", "b1"])
    keys = {spec.key for spec in SYSTEM.legal_actions(state, "a1")}
    assert "counterattack" not in keys and "false_retreat" not in keys
    assert rejected(state, "counterattack", target="b1") == ["battle.unknown_action"]


# --- False Retreat (§8.2) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree"),
    [
        (17, "critical_success"),  # 17 + 15 = 32 >= DC 22 + 10
        (7, "success"),  # 22 >= 22
        (6, "failure"),  # 21 < 22
        (1, "critical_failure"),  # 16 < 22, natural 1
    ],
)
def test_false_retreat_after_a_successful_morale_check(die, degree):
    """§8.2 False Retreat: trigger = your army succeeds at a Morale check (Rally: +15 vs
    b1's Morale DC 22, die 10 -> 25 success); Morale +15 vs the target's Morale DC 22.
    CS target outflanked and no reactions until the start of your next turn; S target
    outflanked until the start of ITS next turn; F nothing; CF you are outflanked until the
    start of your next turn."""
    state = begin([a1()], [army("b1")], order=["a1", "b1"])
    state, events, _ = run(state, "rally", [10, die], target="b1")
    retreat = event(events, "battle.false_retreat").params
    assert retreat["army"] == "a1" and retreat["target"] == "b1" and retreat["trigger"] == "rally"
    assert retreat["degree"] == degree
    assert retreat["check"]["modifier"] == 15 and retreat["check"]["dc"] == 22
    on_b1 = {(e.condition, e.owner) for e in effects_on(state, "b1")}
    on_a1 = {(e.condition, e.owner) for e in effects_on(state, "a1")}
    expected_b1 = {
        "critical_success": {("outflanked", "a1"), ("no_reactions", "a1")},
        "success": {("outflanked", "b1")},
    }.get(degree, set())
    assert on_b1 == expected_b1
    assert on_a1 == ({("outflanked", "a1")} if degree == "critical_failure" else set())
    assert state.army("a1").reaction_used


def test_no_false_retreat_after_a_failed_morale_check_or_without_the_tactic():
    state = begin([a1()], [army("b1")], order=["a1", "b1"])
    _, events, _ = run(state, "rally", [6], target="b1")  # 21 < 22
    assert "battle.false_retreat" not in codes(events)
    state = begin([army("a1", level=5)], [army("b1")], order=["a1", "b1"])
    _, events, _ = run(state, "rally", [10], target="b1")
    assert "battle.false_retreat" not in codes(events)


def test_false_retreat_once_per_round():
    state = begin([a1()], [army("b1")], order=["a1", "b1"])
    state, _, _ = run(state, "rally", [10, 6], target="b1")  # false retreat fails
    state = replace(state, actions_left=3)
    _, events, _ = run(state, "rally", [10], target="b1")
    assert "battle.false_retreat" not in codes(events)
    assert event(events, "battle.reaction_blocked").params["reason"] == "reaction_used"


def test_false_retreat_critical_success_blocks_the_targets_counterattack():
    """§8.2 False Retreat CS: the target cannot take reactions until the start of your next
    turn, so its Counterattack (it knows Flexible Tactics) is blocked."""
    theirs = [army("b1", level=5, tactics=FLEX)]
    state = engaged_battle([a1()], theirs, ["a1", "b1"])
    # Rally +15 vs Morale DC 25: die 10 -> 25 success; False Retreat die 20 -> 35 CS.
    state, _, _ = run(state, "rally", [10, 20], target="b1")
    assert effects_on(state, "b1", "no_reactions")
    state, events, _ = run(state, "guard", [10], target="b1")  # a1's maneuver, engaged
    assert "battle.counterattack" not in codes(events)
    assert event(events, "battle.reaction_blocked").params == {
        "army": "b1", "reaction": "counterattack", "reason": "no_reactions", "trigger": "guard",
    }  # fmt: skip


def test_covering_fire_does_not_block_false_retreat():
    """Covering Fire only blocks reactions triggered by maneuver war actions (§8.2); False
    Retreat is triggered by a Morale check."""
    state = begin([a1()], [army("b1")], order=["a1", "b1"])
    state, _, _ = run(state, "gm_correction", army="a1", conditions={"shaken": 1})
    effect = Effect("covering_fire", "a1", "no_maneuver_reactions", 1, "b1", None,
                    "turn_start", "b1", 1)  # fmt: skip
    state = replace(state, effects=(*state.effects, effect))
    # Rally: +15 -1 shaken = +14 vs 22, die 10 -> 24 success; False Retreat +15 (no longer
    # shaken) vs 22, die 6 -> 21 failure.
    _, events, _ = run(state, "rally", [10, 6], target="b1")
    assert event(events, "battle.false_retreat").params["degree"] == "failure"


# --- replay -----------------------------------------------------------------------------------


def test_reactions_replay_identically():
    """A battle is setup + seed + commands: reactions roll from the command's dice."""
    data = setup([a1()], [army("b1", level=5, tactics=FLEX)], initiative={"b1": 20, "a1": 1})
    commands = [
        Command(None, "gm_correction", {"army": "a1", "engage": ["b1"]}),
        Command("b1", "guard", {"target": "a1"}),
        Command("b1", "rally", {"target": "a1"}),
        Command("b1", "end_turn", {}),
        Command("a1", "guard", {"target": "b1"}),
        Command("a1", "rally", {"target": "b1"}),
    ]
    seed = 11
    state = SYSTEM.start(data, seed)
    all_events = []
    for index, command in enumerate(commands):
        if state.finished:
            break
        result = SYSTEM.apply(state, command, command_dice(seed, index, command.typed_dice))
        state, events = result
        all_events += [e.to_dict() for e in events]
    assert any(e["code"] == "battle.counterattack" for e in all_events)
    first, events_first = replay(SYSTEM, data, seed, commands)
    second, events_second = replay(SYSTEM, data, seed, commands)
    assert first.to_dict() == second.to_dict() == state.to_dict()
    assert [e.to_dict() for e in events_first] == [e.to_dict() for e in events_second]


def test_false_retreat_after_a_successful_rout_check():
    """§7.3 step 3: a rout check is a Morale check (+15 vs b1's Morale DC 22, die 10 -> 25
    success), so it triggers False Retreat (die 7 -> 22 success: b1 outflanked until the
    start of its next turn)."""
    state = begin([a1(hp=2)], [army("b1")], order=["a1", "b1"])
    state, _, _ = run(state, "end_turn")
    state, events, _ = run(state, "end_turn", [10, 7])
    assert event(events, "battle.rout_check").params["degree"] == "success"
    retreat = event(events, "battle.false_retreat").params
    assert (retreat["trigger"], retreat["target"], retreat["degree"]) == (
        "rout_check", "b1", "success",
    )  # fmt: skip
    assert [(e.condition, e.owner) for e in effects_on(state, "b1")] == [("outflanked", "b1")]
