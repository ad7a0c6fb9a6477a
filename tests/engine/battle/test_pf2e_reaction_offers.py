"""Reactions offered to their controller (pf2e §0.5, §6.2, §8.2; issue #4): a side that does not
react automatically is asked; the interrupted command resumes after the answer exactly as the
automatic path would have gone on.

Numbers (§1.2): level 5 infantry a1 with Flexible Tactics: AC 22, melee +15, Morale +15
(DC 25), 4 HP. Level 3 infantry b1: AC 19, Maneuver +6 (DC 16), Morale +12 (DC 22), 4 HP.
§3.4: Tiger Lord Berserkers (level 12) melee +28, 6 HP; Sootscale Warriors (level 3)
Morale +5, 4 HP.
"""

from dataclasses import replace

import pytest

from tests.engine.battle.helpers import (
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
from warfare.engine.battle.protocol import Command, command_dice, replay, undo
from warfare.engine.systems.pf2e.activities.state import new_army_state
from warfare.engine.systems.pf2e.armies import new_specialized_spec
from warfare.engine.systems.pf2e.battle import SYSTEM
from warfare.engine.systems.pf2e.battle.reactions import Decider, accustomed_to_panic
from warfare.engine.systems.pf2e.battle.state import BattleState, Effect

FLEX = ("flexible_tactics",)


def a1(**kw):
    return army("a1", level=5, tactics=FLEX, **kw)


def asked(state, *keys):
    """The same state with these armies' side asking instead of reacting automatically."""
    for key in keys:
        state = state.with_army(replace(state.army(key), auto_reactions=False))
    return state


def engaged_battle(ours, theirs, order, pairs=(("a1", "b1"),)):
    state = begin(ours, theirs, order=order)
    for a, b in pairs:
        state, _, _ = run(state, "gm_correction", army=a, engage=[b])
    return state


def specialized(key, kind, hp=None, conditions=None):
    army_state = new_army_state(key, new_specialized_spec(kind), "A1")
    if conditions:
        army_state = replace(army_state, spec=replace(army_state.spec, conditions=conditions))
    if hp is not None:
        army_state = replace(army_state, hp=hp)
    return {"army": army_state.to_dict()}


def keys(state, actor):
    return [spec.key for spec in SYSTEM.legal_actions(state, actor)]


def comparable(state: BattleState) -> dict:
    """A state without what differs between the automatic and the offered path."""
    data = state.to_dict()
    data.pop("sequence")
    for entry in data["armies"]:
        entry.pop("auto_reactions")
    return data


# --- Counterattack offered (§8.2, §0.5) -------------------------------------------------------


def test_counterattack_is_offered_and_the_maneuver_waits():
    """§8.2 Counterattack triggers when an engaged enemy attempts a maneuver (Guard): a1's
    side asks, so b1's Guard stops before its check; a1 may only use or decline, with the
    check shown (melee +15 vs b1's AC 19); everything else is refused meanwhile."""
    state = asked(engaged_battle([a1()], [army("b1")], ["b1", "a1"]), "a1")
    state, events, _ = run(state, "guard", [], target="a1")
    assert codes(events) == ["battle.action", "battle.reaction_offered"]
    assert event(events, "battle.reaction_offered").params == {
        "army": "a1", "reaction": "counterattack", "trigger": "guard", "by": "b1",
        "target": "b1",
    }  # fmt: skip
    pending = state.pending
    assert (pending.army, pending.reaction, pending.by, pending.target) == (
        "a1", "counterattack", "b1", "b1",
    )  # fmt: skip
    assert state.actions_left == 2 and state.current == "b1" and state.to_act == "a1"
    specs = SYSTEM.legal_actions(state, "a1")
    assert [spec.key for spec in specs] == ["use_reaction", "decline_reaction"]
    (check,) = specs[0].options[0].checks
    assert (check.stat, check.modifier, check.dc, check.against) == ("melee", 15, 19, "b1")
    assert specs[1].options[0].checks == ()
    assert keys(state, "b1") == []
    assert rejected(state, "end_turn", actor="b1") == ["battle.reaction_pending"]
    assert rejected(state, "guard", actor="a1", target="b1") == ["battle.reaction_pending"]
    assert rejected(state, "use_reaction", actor="b1") == ["battle.not_your_reaction"]
    assert rejected(state, "gm_correction", army="a1", hp=1) == ["battle.reaction_pending"]
    assert BattleState.from_dict(state.to_dict()) == state


def test_no_answer_without_an_offer():
    state = begin([a1()], [army("b1")], order=["a1", "b1"])
    assert rejected(state, "use_reaction") == ["battle.no_reaction_pending"]
    assert rejected(state, "decline_reaction") == ["battle.no_reaction_pending"]


@pytest.mark.parametrize(
    ("die", "degree", "hp", "shaken"),
    [
        (14, "critical_success", 3, 1),  # 14 + 15 = 29 >= AC 19 + 10: 1 damage, shaken +1
        (4, "success", 3, 0),  # 19 >= 19: 1 damage
        (3, "failure", 4, 0),  # 18 < 19
    ],
)
def test_used_counterattack_then_the_maneuver_resumes_as_if_automatic(die, degree, hp, shaken):
    """Using the offered Counterattack gives exactly the automatic path: the Strike rolls from
    the answer's dice, then b1's Guard resolves (+6 vs a1's Maneuver DC 19: die 10 -> 16
    failure)."""
    automatic = engaged_battle([a1()], [army("b1")], ["b1", "a1"])
    auto_state, auto_events, _ = run(automatic, "guard", [die, 10], target="a1")
    state = asked(automatic, "a1")
    state, offered, _ = run(state, "guard", [], target="a1")
    state, answered, _ = run(state, "use_reaction", [die, 10], actor="a1")
    assert state.pending is None
    assert comparable(state) == comparable(auto_state)
    assert [e.to_dict() for e in offered[:-1] + answered] == [e.to_dict() for e in auto_events]
    assert event(answered, "battle.counterattack").params["degree"] == degree
    assert codes(answered).index("battle.counterattack") < codes(answered).index("battle.guard")
    assert state.army("b1").hp == hp
    assert conditions(state, "b1").get("shaken", 0) == shaken
    assert state.army("a1").reaction_used and state.sequence == automatic.sequence + 2
    assert keys(state, "b1")  # b1 goes on with its turn


def test_declined_counterattack_lets_the_maneuver_go_on():
    """Declining: no Strike, the reaction stays available, the Guard rolls the answer's die."""
    state = asked(engaged_battle([a1()], [army("b1")], ["b1", "a1"]), "a1")
    state, _, _ = run(state, "guard", [], target="a1")
    state, events, _ = run(state, "decline_reaction", [10], actor="a1")
    assert codes(events)[:2] == ["battle.reaction_declined", "battle.guard"]
    assert event(events, "battle.reaction_declined").params == {
        "army": "a1", "reaction": "counterattack", "trigger": "guard",
    }  # fmt: skip
    assert not state.army("a1").reaction_used and state.army("b1").hp == 4
    # Declined, so still there this round: the next maneuver offers it again.
    state, events, _ = run(state, "guard", [], target="a1")
    assert state.pending is not None and state.pending.reaction == "counterattack"


def test_counterattack_that_downs_the_actor_interrupts_the_maneuver():
    """A used Counterattack that leaves the triggering army defeated ends its action."""
    state = begin([a1()], [army("b1", hp=1), army("b2")], order=["b1", "a1", "b2"])
    state, _, _ = run(state, "gm_correction", army="a1", engage=["b1"])
    state, _, _ = run(asked(state, "a1"), "guard", [], target="a1")
    state, events, _ = run(state, "use_reaction", [4], actor="a1")  # 19 >= 19: 1 damage
    assert "battle.guard" not in codes(events)
    assert event(events, "battle.action_interrupted").params["action"] == "guard"
    assert state.army("b1").defeated


def test_two_reactors_are_asked_one_after_the_other():
    """Each engaged reactor in key order; the second is asked after the first answered."""
    state = engaged_battle(
        [a1(), army("a2", level=5, tactics=FLEX)], [army("b1")], ["b1", "a1", "a2"],
        pairs=(("a1", "b1"), ("a2", "b1")),
    )  # fmt: skip
    automatic, auto_events, _ = run(state, "guard", [4, 4, 10], target="a1")
    state = asked(state, "a1", "a2")
    state, first, _ = run(state, "guard", [], target="a1")
    assert state.pending.army == "a1"
    state, second, _ = run(state, "use_reaction", [4], actor="a1")
    assert state.pending.army == "a2" and codes(second)[-1] == "battle.reaction_offered"
    state, third, _ = run(state, "use_reaction", [4, 10], actor="a2")
    assert state.army("b1").hp == 2 and state.pending is None
    assert comparable(state) == comparable(automatic)
    shown = [e.to_dict() for e in first[:-1] + second[:-1] + third]
    assert shown == [e.to_dict() for e in auto_events]


def test_one_reaction_per_round_is_not_offered_twice():
    """§0.5: after using its reaction a1 is not asked again this round (blocked instead)."""
    state = asked(engaged_battle([a1()], [army("b1")], ["b1", "a1"]), "a1")
    state, _, _ = run(state, "guard", [], target="a1")
    state, _, _ = run(state, "use_reaction", [3, 10], actor="a1")  # 18 < 19: miss
    state, events, _ = run(state, "guard", [10], target="a1")
    assert state.pending is None
    assert event(events, "battle.reaction_blocked").params["reason"] == "reaction_used"


def test_covering_fire_and_false_retreat_block_the_offer():
    """§8.2 Covering Fire ("no_maneuver_reactions") and a False Retreat critical success
    ("no_reactions") keep the reaction from being offered at all."""
    for condition in ("no_maneuver_reactions", "no_reactions"):
        state = asked(engaged_battle([a1()], [army("b1")], ["b1", "a1"]), "a1")
        effect = Effect("x", "a1", condition, 1, "b1", None, "turn_start", "b1", 1)
        state = replace(state, effects=(effect,))
        state, events, _ = run(state, "guard", [10], target="a1")
        assert state.pending is None and "battle.reaction_offered" not in codes(events)
        assert event(events, "battle.reaction_blocked").params["reason"] == condition


# --- False Retreat offered (§8.2) ---------------------------------------------------------------


def test_false_retreat_offered_after_a_successful_rally():
    """§8.2 False Retreat: trigger = the army succeeds at a Morale check (Rally +15 vs b1's
    Morale DC 22, die 10 -> 25 success); offered with Morale +15 vs DC 22; used with die 7
    -> 22 success: b1 outflanked until the start of its next turn."""
    state = asked(begin([a1()], [army("b1")], order=["a1", "b1"]), "a1")
    state, events, _ = run(state, "rally", [10], target="b1")
    assert event(events, "battle.rally").params["degree"] == "success"
    assert state.pending.reaction == "false_retreat" and state.pending.target == "b1"
    (check,) = SYSTEM.legal_actions(state, "a1")[0].options[0].checks
    assert (check.stat, check.modifier, check.dc) == ("morale", 15, 22)
    state, events, _ = run(state, "use_reaction", [7])
    assert event(events, "battle.false_retreat").params["degree"] == "success"
    assert effects_on(state, "b1", "outflanked")
    assert state.current == "a1" and state.actions_left == 3 - 2  # Rally: 2 actions


def test_false_retreat_offered_at_the_end_of_the_round():
    """§7.3 step 3: a1 at 1 HP (at or below its RT) makes a rout check, a Morale check (+15
    vs b1's DC 22, die 10 -> 25 success), which triggers False Retreat while the round ends:
    nobody's turn meanwhile; after the answer round 2 starts."""
    state = asked(begin([a1(hp=1)], [army("b1")], order=["a1", "b1"]), "a1")
    state, _, _ = run(state, "end_turn")
    state, events, _ = run(state, "end_turn", [10])
    assert event(events, "battle.rout_check").params["degree"] == "success"
    assert state.pending.reaction == "false_retreat" and state.pending.trigger == "rout_check"
    assert state.current is None and state.to_act == "a1" and state.round == 1
    state, events, _ = run(state, "decline_reaction", actor="a1")
    assert codes(events)[0] == "battle.reaction_declined"
    assert state.round == 2 and state.current == "a1"


# --- §6.2 Revel in Battle -------------------------------------------------------------------------


def test_revel_in_battle_offered_on_a_melee_critical_hit():
    """§6.2 Revel in Battle (Tiger Lord Berserkers): trigger = a critical hit with a melee
    Strike (+28 vs b1's AC 19, die 10 -> 38 >= 29); regains 1 HP (4 -> 5 of 6). The Strike's
    2 damage (§8.1) is dealt after the answer."""
    ours = [specialized("t1", "tiger_lord_berserkers", hp=4)]
    state = begin(ours, [army("b1")], order=["t1", "b1"])
    state, _, _ = run(state, "gm_correction", army="t1", engage=["b1"])
    automatic, auto_events, _ = run(state, "battle", [10], target="b1", weapon="melee")
    assert event(auto_events, "battle.revel_in_battle").params == {
        "army": "t1",
        "trigger": "battle",
    }
    assert automatic.army("t1").hp == 5
    state = asked(state, "t1")
    state, offered, _ = run(state, "battle", [10], target="b1", weapon="melee")
    assert state.pending.reaction == "revel_in_battle" and state.army("b1").hp == 4
    assert SYSTEM.legal_actions(state, "t1")[0].options[0].checks == ()
    state, answered, _ = run(state, "use_reaction")
    assert state.army("t1").hp == 5 and state.army("b1").hp == 2
    assert comparable(state) == comparable(automatic)
    assert [e.to_dict() for e in offered[:-1] + answered] == [e.to_dict() for e in auto_events]


def test_revel_in_battle_not_offered_at_full_hp_nor_on_a_plain_hit():
    ours = [specialized("t1", "tiger_lord_berserkers")]
    state = begin(ours, [army("b1")], order=["t1", "b1"])
    state, _, _ = run(state, "gm_correction", army="t1", engage=["b1"])
    state = asked(state, "t1")
    after, events, _ = run(state, "battle", [10], target="b1", weapon="melee")  # crit, full HP
    assert after.pending is None and "battle.revel_in_battle" not in codes(events)
    state = state.with_army(state.army("t1").with_army(replace(state.army("t1").army, hp=4)))
    after, events, _ = run(state, "battle", [1], target="b1", weapon="melee")  # 29: hit only
    assert after.pending is None and "battle.revel_in_battle" not in codes(events)


# --- §6.2 Accustomed to Panic ---------------------------------------------------------------------


def test_accustomed_to_panic_replaces_a_shaken_increase():
    """§6.2 Accustomed to Panic (Sootscale Warriors): trigger = its shaken value would
    increase while not routed (a Rally critical failure: die 1, Morale +5 vs DC 22):
    instead of shaken +1, weary 1 -> 0."""
    ours = [specialized("s1", "sootscale_warriors", conditions={"weary": 1})]
    start = begin(ours, [army("b1")], order=["s1", "b1"])
    automatic, auto_events, _ = run(start, "rally", [1], target="b1")
    assert event(auto_events, "battle.rally").params["degree"] == "critical_failure"
    assert event(auto_events, "battle.accustomed_to_panic").params == {
        "army": "s1", "trigger": "rally", "shaken": 1,
    }  # fmt: skip
    assert conditions(automatic, "s1") == {}
    state, _, _ = run(asked(start, "s1"), "rally", [1], target="b1")
    assert state.pending.reaction == "accustomed_to_panic"
    assert conditions(state, "s1") == {"weary": 1}
    used, _, _ = run(state, "use_reaction")
    assert comparable(used) == comparable(automatic)
    declined, events, _ = run(state, "decline_reaction")
    assert conditions(declined, "s1") == {"weary": 1, "shaken": 1}
    assert not declined.army("s1").reaction_used


def test_accustomed_to_panic_not_while_routed():
    """§6.2: "while not routed": a routed Sootscale army's shaken increases as usual."""
    ours = [specialized("s1", "sootscale_warriors", conditions={"routed": 1, "weary": 1})]
    state = asked(begin(ours, [army("b1")], order=["b1", "s1"]), "s1")
    events = []
    assert accustomed_to_panic(state, "s1", 1, "taunt", events, Decider()) is None
    assert events == []


# --- replay and undo ------------------------------------------------------------------------------


def test_answers_replay_and_undo_exactly():
    """A battle is setup + seed + commands; each answer is a command with its own dice."""
    data = setup([a1()], [army("b1", level=5, tactics=FLEX)], initiative={"b1": 20, "a1": 1})
    data["sides"][0]["auto_reactions"] = False
    commands = [
        Command(None, "gm_correction", {"army": "a1", "engage": ["b1"]}),
        Command("b1", "guard", {"target": "a1"}),
        Command("a1", "use_reaction", {}),
        Command("b1", "guard", {"target": "a1"}),
        Command("b1", "end_turn", {}),
    ]
    seed = 11
    state = SYSTEM.start(data, seed)
    for index, command in enumerate(commands):
        result = SYSTEM.apply(state, command, command_dice(seed, index, command.typed_dice))
        state, _ = result
    replayed, events = replay(SYSTEM, data, seed, commands)
    assert replayed.to_dict() == state.to_dict()
    assert "battle.counterattack" in codes(events)
    back, _, remaining = undo(SYSTEM, data, seed, commands[:3])
    assert back.pending is not None and back.pending.army == "a1"
    assert replay(SYSTEM, data, seed, remaining)[0] == back


def test_typed_dice_of_the_interrupted_action_wait_for_it():
    """A d20 typed in for b1's Guard is kept for the Guard while a1 is asked; the die typed
    in with the answer rolls the Counterattack (14 + 15 = 29 vs AC 19: critical hit), then
    the Guard uses its own typed 10 (+6 = 16 vs a1's Maneuver DC 19: failure)."""
    seed = 5
    state = asked(engaged_battle([a1()], [army("b1")], ["b1", "a1"]), "a1")
    guard = Command("b1", "guard", {"target": "a1"}, (10,))
    state, _ = SYSTEM.apply(state, guard, command_dice(seed, 0, guard.typed_dice))
    assert state.pending.typed == (10,)
    answer = Command("a1", "use_reaction", {}, (14,))
    state, events = SYSTEM.apply(state, answer, command_dice(seed, 1, answer.typed_dice))
    counter = event(events, "battle.counterattack").params["check"]
    guarded = event(events, "battle.guard").params["check"]
    assert (counter["die"], counter["degree"]) == (14, "critical_success")
    assert (guarded["die"], guarded["total"], guarded["degree"]) == (10, 16, "failure")


@pytest.mark.parametrize("ask", [True, False])
def test_a_die_typed_for_the_action_never_rolls_the_reaction_it_triggers(ask):
    """pf2e §0.5, §8.2 with typed_dice_by_roll (every battle set up since): the 10 typed in
    for b1's Guard is the Guard's die whether a1's Counterattack is asked and answered with
    no die typed, or used automatically: the Counterattack rolls the server's die."""
    seed = 5
    state = replace(engaged_battle([a1()], [army("b1")], ["b1", "a1"]), typed_dice_by_roll=True)
    state = asked(state, "a1") if ask else state
    guard = Command("b1", "guard", {"target": "a1"}, (10,))
    state, events = SYSTEM.apply(state, guard, command_dice(seed, 0, guard.typed_dice))
    if ask:
        assert state.pending.typed == (10,)
        answer = Command("a1", "use_reaction", {})
        state, events = SYSTEM.apply(state, answer, command_dice(seed, 1))
    counter = event(events, "battle.counterattack").params["check"]
    guarded = event(events, "battle.guard").params["check"]
    assert counter["source"] == "seeded"
    assert (guarded["die"], guarded["source"], guarded["total"]) == (10, "typed", 16)
    assert SYSTEM.state_from_dict(state.to_dict()) == state


def test_older_battles_keep_rolling_typed_dice_in_order():
    """Without the flag (battles set up before it) the typed die goes to the first roll, the
    automatic Counterattack, so their stored commands replay to the same boards."""
    state = engaged_battle([a1()], [army("b1")], ["b1", "a1"])
    guard = Command("b1", "guard", {"target": "a1"}, (10,))
    state, events = SYSTEM.apply(state, guard, command_dice(5, 0, guard.typed_dice))
    counter = event(events, "battle.counterattack").params["check"]
    assert (counter["die"], counter["source"]) == (10, "typed")
    assert "typed_dice_by_roll" not in state.to_dict()
