"""Tactical war actions (pf2e §8.2) at all four degrees, offered only with the granting
tactic (§6.1). Level 5 infantry (§1.2): AC 22, Maneuver +9 (DC 19), Morale +15, attack +15,
Scouting +12; level 3 infantry: Maneuver +6 (DC 16), Morale +12 (DC 22), AC 19."""

from dataclasses import replace

import pytest

from tests.engine.battle.helpers import (
    CAV,
    RANGED_WEAPON,
    SIE,
    army,
    begin,
    codes,
    conditions,
    effects_on,
    event,
    options,
    rejected,
    run,
)
from warfare.engine.systems.pf2e.battle import SYSTEM
from warfare.engine.systems.pf2e.battle.actions import strike_dc, strike_modifier
from warfare.engine.systems.pf2e.battle.rules import effective_block
from warfare.engine.systems.pf2e.battle.state import Effect
from warfare.engine.systems.pf2e.house_rules import house_value


def battle(ours, theirs=None, engage=(), **kw):
    theirs = theirs or [army("b1", level=5), army("b2", level=5)]
    order = [e["army"]["key"] for e in ours] + [e["army"]["key"] for e in theirs]
    state = begin(ours, theirs, order=order, **kw)
    if engage:
        state, _, _ = run(state, "gm_correction", army=order[0], engage=list(engage))
    return state


def outflanked_by(state, key, by):
    effect = Effect("test", key, "outflanked", 1, by, None, "encounter", by, 1)
    return replace(state, effects=(*state.effects, effect))


def check_of(events, code):
    check = event(events, code).params["check"]
    return check["modifier"], check["dc"], check["degree"]


def test_tactical_actions_need_their_tactic():
    """§8.2: offered only when the army knows the granting tactic."""
    state = battle([army("a1", level=5, conditions={"shaken": 1})], engage=["b1"])
    keys = {spec.key for spec in SYSTEM.legal_actions(state, "a1")}
    assert keys == {"advance", "battle", "disengage", "guard", "rally", "end_turn"}
    assert rejected(state, "all_out_assault", target="b1") == ["battle.action_not_known"]


# --- All-Out Assault (Merciless) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree", "hp"),
    [(17, "critical_success", 1), (7, "success", 2), (6, "failure", 3),
     (1, "critical_failure", 4)],
)  # fmt: skip
def test_all_out_assault_degrees(die, degree, hp):
    """Melee +15 vs AC 22: CS 3 damage, S 2, F 1, CF none and outflanked (2 actions)."""
    state = battle([army("a1", level=5, tactics=("merciless",))], engage=["b1"])
    state, events, _ = run(state, "all_out_assault", [die], target="b1", weapon="melee")
    assert check_of(events, "battle.all_out_assault") == (15, 22, degree)
    assert state.army("b1").hp == hp
    assert state.actions_left == 1
    outflanked = effects_on(state, "a1", "outflanked")
    assert len(outflanked) == (1 if degree == "critical_failure" else 0)


def test_all_out_assault_critical_success_helps_the_next_attack_on_another_army():
    """§8.2 CS: +1 circumstance if the next war action this turn attacks a different army."""
    state = battle([army("a1", level=5, tactics=("merciless",))], engage=["b1", "b2"])
    state, _, _ = run(state, "all_out_assault", [17], target="b1", weapon="melee")
    assert (
        strike_modifier(
            state, "a1", "melee", target="b2", aoa_bonus=state.army("a1").next_attack_bonus
        ).value
        == 15 - 5 + 1
    )
    state, events, _ = run(state, "battle", [2], target="b2", weapon="melee")
    assert ["all_out_assault", 1] in event(events, "battle.battle").params["check"][
        "modifier_breakdown"
    ]


# --- Battlefield Medicine (Field Triage) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree", "hp", "weary"),
    [(20, "critical_success", 3, 0), (11, "success", 2, 0), (10, "failure", 1, 0),
     (1, "critical_failure", 1, 1)],
)  # fmt: skip
def test_battlefield_medicine_degrees(die, degree, hp, weary):
    """Scouting +14 (level 6) vs DC 25: CS +2 HP, S +1 HP, F nothing, CF weary +1."""
    ours = [army("a1", level=6, tactics=("field_triage",)), army("a2", hp=1)]
    state, events, _ = run(battle(ours), "battlefield_medicine", [die], target="a2")
    assert check_of(events, "battle.battlefield_medicine") == (14, 25, degree)
    assert state.army("a2").hp == hp
    assert conditions(state, "a2").get("weary", 0) == weary
    assert state.actions_left == 0


def test_battlefield_medicine_once_per_army_per_encounter():
    ours = [army("a1", level=6, tactics=("field_triage",)), army("a2", hp=1)]
    state, _, _ = run(battle(ours), "battlefield_medicine", [11], target="a2")
    state = replace(state, actions_left=3)
    assert rejected(state, "battlefield_medicine", target="a2") == ["battle.already_treated"]
    assert {"target": "a2"} not in options(state, "battlefield_medicine")


# --- Covering Fire (Sharpshooter) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree", "hp", "covered"),
    [(16, "critical_success", 2, True), (6, "success", 3, True), (5, "failure", 3, False),
     (1, "critical_failure", 4, False)],
)  # fmt: skip
def test_covering_fire_degrees(die, degree, hp, covered):
    """Ranged +15 +1 status (Sharpshooter) vs AC 22: CS 2 damage, S 1, both block the
    target's maneuver-triggered reactions; F 1 damage; CF nothing. Uses a shot."""
    ours = [army("a1", level=5, tactics=("sharpshooter",), gear=RANGED_WEAPON)]
    state, events, _ = run(battle(ours), "covering_fire", [die], target="b1")
    assert check_of(events, "battle.covering_fire") == (16, 22, degree)
    assert state.army("b1").hp == hp
    assert bool(effects_on(state, "b1", "no_maneuver_reactions")) is covered
    assert state.army("a1").shots == 5 - house_value("covering_fire.shots")


# --- Defensive Stance (Defensive Tactics)----------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree", "left_by", "actor_outflanked"),
    [(20, "critical_success", [], False), (10, "success", ["b2"], False),
     (9, "failure", ["b1", "b2"], False), (1, "critical_failure", ["b1", "b2"], True)],
)  # fmt: skip
def test_defensive_stance_degrees(die, degree, left_by, actor_outflanked):
    """Maneuver +6 vs b1's Maneuver DC 16. CS: the ally is no longer outflanked by any army;
    S: no longer by b1; CF: your army becomes outflanked by b1."""
    ours = [army("a1", tactics=("defensive_tactics",)), army("a2")]
    state = battle(ours, [army("b1"), army("b2")])
    state = outflanked_by(outflanked_by(state, "a2", "b1"), "a2", "b2")
    assert {"ally": "a2", "target": "b1"} in options(state, "defensive_stance")
    state, events, _ = run(state, "defensive_stance", [die], ally="a2", target="b1")
    assert check_of(events, "battle.defensive_stance") == (6, 16, degree)
    assert sorted(e.by for e in effects_on(state, "a2", "outflanked")) == left_by
    assert bool(effects_on(state, "a1", "outflanked")) is actor_outflanked


def test_defensive_stance_needs_an_outflanked_ally():
    state = battle([army("a1", tactics=("defensive_tactics",)), army("a2")])
    assert rejected(state, "defensive_stance", ally="a2", target="b1") == ["battle.not_outflanked"]


# --- Dirty Fighting (Flexible Tactics)-------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree", "weary_effect", "lasting_weary", "hp"),
    [(15, "critical_success", 2, 1, 2), (5, "success", 1, 1, 3), (4, "failure", 0, 1, 4),
     (1, "critical_failure", 0, 0, 4)],
)  # fmt: skip
def test_dirty_fighting_degrees(die, degree, weary_effect, lasting_weary, hp):
    """Melee +15 vs AC 22 - 2 (outflanked; weary 1 does not stack, both circumstance) = 20.
    CS weary 2, S weary 1 until the start of your next turn; CF the target's weary -1.
    A hit also deals Strike damage by house default (§15 item 10)."""
    assert house_value("dirty_fighting.strike_damage") == 1
    theirs = [army("b1", level=5, conditions={"weary": 1}), army("b2", level=5)]
    state = battle([army("a1", level=5, tactics=("flexible_tactics",))], theirs, engage=["b1"])
    assert rejected(state, "dirty_fighting", target="b1", weapon="melee") == [
        "battle.not_outflanked"
    ]
    state = outflanked_by(state, "b1", "a1")
    state, events, _ = run(state, "dirty_fighting", [die], target="b1", weapon="melee")
    assert check_of(events, "battle.dirty_fighting") == (15, 20, degree)
    assert [e.value for e in effects_on(state, "b1", "weary")] == (
        [weary_effect] if weary_effect else []
    )
    assert conditions(state, "b1").get("weary", 0) == lasting_weary
    assert state.army("b1").hp == hp


# --- Feint (Flexible Tactics)----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree"),
    [(20, "critical_success"), (10, "success"), (9, "failure"), (1, "critical_failure")],
)
def test_feint_degrees(die, degree):
    """Maneuver +9 vs Maneuver DC 19 (maneuver trait by house default, §15 item 8)."""
    ours = [army("a1", level=5, tactics=("flexible_tactics",)), army("a2", level=5)]
    state = battle(ours, engage=["b1"])
    state, events, _ = run(state, "feint", [die], target="b1")
    assert check_of(events, "battle.feint") == (9, 19, degree)
    if degree == "critical_success":  # outflanked until the end of your turn, vs everyone
        assert strike_dc(state, "a2", "melee", target="b1").value == 20
        state, _, _ = run(state, "end_turn")
        assert strike_dc(state, "a2", "melee", target="b1").value == 22
    elif degree == "success":  # only against your next melee Strike on it this turn
        assert strike_dc(state, "a1", "melee", target="b1").value == 20
        assert strike_dc(state, "a2", "melee", target="b1").value == 22
        assert strike_dc(state, "a1", "ranged", target="b1").value == 22
        state, _, _ = run(state, "battle", [2], target="b1", weapon="melee")
        assert strike_dc(state, "a1", "melee", target="b1").value == 22
    elif degree == "failure":
        assert state.effects == ()
    else:  # you are outflanked by the target until the end of your next turn
        assert strike_dc(state, "b1", "melee", target="a1").value == 20
        for _ in range(4):
            state, _, _ = run(state, "end_turn")
        assert state.current == "a1" and effects_on(state, "a1", "outflanked")
        for _ in range(4):
            state, _, _ = run(state, "end_turn")
        assert not effects_on(state, "a1", "outflanked")


# --- Outflank (Reckless Flankers) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree", "target_outflanked", "engaged", "self_outflanked"),
    [(14, "critical_success", True, True, False), (4, "success", True, True, False),
     (3, "failure", False, False, False), (1, "critical_failure", False, False, True)],
)  # fmt: skip
def test_outflank_degrees(die, degree, target_outflanked, engaged, self_outflanked):
    """Cavalry level 5 Maneuver +15 vs Maneuver DC 19."""
    state = battle([army("c1", CAV, 5, ("reckless_flankers",))])
    state, events, _ = run(state, "outflank", [die], target="b1")
    assert check_of(events, "battle.outflank") == (15, 19, degree)
    assert bool(effects_on(state, "b1", "outflanked")) is target_outflanked
    assert state.is_engaged("c1", "b1") is engaged
    assert bool(effects_on(state, "c1", "outflanked")) is self_outflanked


def test_outflank_critical_success_may_stay_unengaged_and_needs_not_engaged():
    state = battle([army("c1", CAV, 5, ("reckless_flankers",))])
    after, _, _ = run(state, "outflank", [14], target="b1", engage=False)
    assert not after.is_engaged("c1", "b1") and effects_on(after, "b1", "outflanked")
    state, _, _ = run(state, "gm_correction", army="c1", engage=["b2"])
    assert rejected(state, "outflank", target="b1") == ["battle.engaged"]


# --- Overwhelming Bombardment (Explosive Shot)-----------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree", "extra", "fort_hp", "hps"),
    [(16, "critical_success", None, 6, (3, 3)), (6, "success", None, 6, (4, 4)),
     (6, "success", "b1", 7, (3, 4)), (2, "failure", None, 7, (4, 4)),
     (1, "critical_failure", None, 8, (4, 4))],
)  # fmt: skip
def test_overwhelming_bombardment_degrees(die, degree, extra, fort_hp, hps):
    """Siege level 11 ranged +24 vs a castle's AC 30 (§7.5: AC 30, 8 HP), 2 shots."""
    castle = {"key": "c", "kind": "castle", "side": "e"}
    theirs = [army("b1", fortification="c", garrisoned=True),
              army("b2", fortification="c", garrisoned=True)]  # fmt: skip
    state = battle([army("s1", SIE, 11, ("explosive_shot",))], theirs, fortifications=[castle])
    params = {"fortification": "c"} | ({"extra": extra} if extra else {})
    state, events, _ = run(state, "overwhelming_bombardment", [die], **params)
    assert check_of(events, "battle.overwhelming_bombardment") == (24, 30, degree)
    assert state.fortification("c").hp == fort_hp
    assert (state.army("b1").hp, state.army("b2").hp) == hps
    assert state.army("s1").shots == 3
    assert bool(effects_on(state, "s1", "outflanked")) is (degree == "critical_failure")


# --- Taunt (Focused Devotion)----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree", "shaken_effect", "lasting"),
    [(20, "critical_success", 2, 1), (9, "success", 1, 1), (8, "failure", 0, 1),
     (1, "critical_failure", 0, 0)],
)  # fmt: skip
def test_taunt_degrees(die, degree, shaken_effect, lasting):
    """Morale +12 vs b1's Morale DC 22 - 1 (b1 starts shaken 1) = 21: 20 -> 32 CS, target
    shaken 2 and 9 -> 21 S, shaken 1, until the start of your next turn; 8 -> 20 F;
    1 -> 13 CF, the target's shaken -1."""
    ours = [army("a1", tactics=("focused_devotion",)), army("a2")]
    theirs = [army("b1", conditions={"shaken": 1}), army("b2")]
    state, events, _ = run(battle(ours, theirs), "taunt", [die], target="b1")
    modifier, dc, rolled = check_of(events, "battle.taunt")
    assert (modifier, dc) == (12, 21)
    assert rolled == degree
    assert [e.value for e in effects_on(state, "b1", "shaken")] == (
        [shaken_effect] if shaken_effect else []
    )
    assert conditions(state, "b1").get("shaken", 0) == lasting
    if shaken_effect:
        assert effective_block(state, "b1").morale.value == 12 - max(1, shaken_effect)
        for _ in range(4):
            state, _, _ = run(state, "end_turn")
        assert effects_on(state, "b1", "shaken") == []


def test_tactical_action_events_are_logged_with_the_action():
    state = battle([army("a1", tactics=("focused_devotion",))])
    _, events, _ = run(state, "taunt", [10], target="b1")
    assert codes(events)[:2] == ["battle.action", "battle.taunt"]
    assert event(events, "battle.action").params == {
        "army": "a1", "action": "taunt", "cost": 1, "params": {"target": "b1"},
        "actions_left": 2,
    }  # fmt: skip
