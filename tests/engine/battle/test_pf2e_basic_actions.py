"""Basic war actions (pf2e §8.1) at all four degrees, with scripted dice and level-table
numbers (§1.2): a level 3 infantry has Maneuver +6 (DC 16), Morale +12 (DC 22), AC 19,
melee +12, 4 HP, RT 2; a level 7 siege engine ranged +18, AC 25, 6 HP, 5 shots."""

from dataclasses import replace

import pytest

from tests.engine.battle.helpers import (
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
from warfare.engine.systems.pf2e.battle.rules import effective_block, maneuver


def duel(ours=None, theirs=None, **kw):
    """a1 (and a2) vs b1 (and b2), a1 acting first."""
    ours = ours or [army("a1"), army("a2")]
    theirs = theirs or [army("b1"), army("b2")]
    order = [e["army"]["key"] for e in ours] + [e["army"]["key"] for e in theirs]
    return begin(ours, theirs, order=order, **kw)


def engaged_duel(**kw):
    state = duel(**kw)
    state, _, _ = run(state, "gm_correction", army="a1", engage=["b1"])
    return state


# --- Advance (§8.1) ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree", "engaged_after"),
    [(20, "critical_success", True), (10, "success", True), (9, "failure", False),
     (1, "critical_failure", False)],
)  # fmt: skip
def test_advance_degrees(die, degree, engaged_after):
    """Maneuver +6 vs Maneuver DC 16: 20 -> 26 CS, 10 -> 16 S, 9 -> 15 F, 1 -> nat 1 CF."""
    state, events, _ = run(duel(), "advance", [die], target="b1")
    check = event(events, "battle.advance").params["check"]
    assert (check["modifier"], check["dc"], check["total"], check["degree"]) == (
        6, 16, die + 6, degree,
    )  # fmt: skip
    assert check["source"] == "scripted"
    assert state.is_engaged("a1", "b1") is engaged_after
    assert state.actions_left == 2
    mired = effects_on(state, "a1", "mired")
    assert [e.value for e in mired] == ([1] if degree == "critical_failure" else [])


def test_advance_critical_failure_mires_until_the_start_of_its_next_turn():
    """§8.1 Advance CF: mired 1 until the start of its next turn (-1 circumstance Maneuver)."""
    state, _, _ = run(duel(), "advance", [1], target="b1")
    assert maneuver(state, "a1").value == 6 - 1
    for _ in range(4):  # a1, a2, b1, b2 end their turns; the round ends (nobody at RT)
        state, _, _ = run(state, "end_turn")
    assert state.current == "a1" and state.round == 2
    assert effects_on(state, "a1") == []
    assert maneuver(state, "a1").value == 6


def test_advance_on_a_distant_army():
    """§8.1: success removes distant; critical success engages even a distant army."""
    state = duel()
    state, _, _ = run(state, "gm_correction", army="b1", position="distant")
    after, events, _ = run(state, "advance", [10], target="b1")
    assert after.army("b1").position == "near" and not after.is_engaged("a1", "b1")
    assert "battle.lost_distant" in codes(events)
    after, _, _ = run(state, "advance", [20], target="b1")
    assert after.army("b1").position == "near" and after.is_engaged("a1", "b1")


def test_advance_needs_a_target_not_engaged_with_you():
    state = engaged_duel()
    assert rejected(state, "advance", target="b1") == ["battle.already_engaged"]
    assert {"target": "b1"} not in options(state, "advance")


def test_engagement_is_capped_at_four():
    """§7.2: an army may be engaged with up to 4 other armies."""
    theirs = [army(f"b{i}") for i in range(1, 6)]
    state = duel(theirs=theirs)
    state, _, _ = run(state, "gm_correction", army="a1", engage=["b1", "b2", "b3", "b4"])
    assert rejected(state, "advance", target="b5") == ["battle.engagement_limit"]
    assert rejected(state, "gm_correction", army="a1", engage=["b5"]) == [
        "battle.gm.engagement_limit"
    ]


# --- Battle (§8.1), MAP (§0.4), shots, distance, fortifications (§7.5) -------------------------


@pytest.mark.parametrize(
    ("die", "degree", "hp"),
    [(17, "critical_success", 2), (7, "success", 3), (6, "failure", 4),
     (1, "critical_failure", 4)],
)  # fmt: skip
def test_battle_melee_degrees(die, degree, hp):
    """Melee +12 vs AC 19: 17 -> 29 CS 2 damage; 7 -> 19 S 1 damage; 6 -> 18 F; 1 CF (§0.3)."""
    state, events, _ = run(engaged_duel(), "battle", [die], target="b1", weapon="melee")
    check = event(events, "battle.battle").params["check"]
    assert (check["modifier"], check["dc"], check["degree"]) == (12, 19, degree)
    assert state.army("b1").hp == hp


def test_melee_needs_engagement():
    """§7.2: melee Strikes only against an engaged army."""
    assert rejected(duel(), "battle", target="b1", weapon="melee") == [
        "battle.not_engaged_with_target"
    ]
    assert options(duel(), "battle") == []


def test_multiple_attack_penalty():
    """§0.4: -5 on the 2nd Strike, -10 on the 3rd in the turn."""
    state = engaged_duel()
    state, _, _ = run(state, "battle", [2], target="b1", weapon="melee")
    assert strike_modifier(state, "a1", "melee", target="b1").value == 12 - 5
    state, events, _ = run(state, "battle", [2], target="b1", weapon="melee")
    assert event(events, "battle.battle").params["check"]["modifier_breakdown"] == [
        ["level", 12], ["map", -5],
    ]  # fmt: skip
    assert strike_modifier(state, "a1", "melee", target="b1").value == 12 - 10
    assert rejected(state, "end_turn", actor="b1") == ["battle.not_your_turn"]


def test_keep_up_the_pressure_against_the_same_target():
    """§0.4 / §6.1 Keep up the Pressure: -4 / -8 against the same target, -5 otherwise."""
    state = duel(ours=[army("a1", tactics=("keep_up_the_pressure",)), army("a2")])
    state, _, _ = run(state, "gm_correction", army="a1", engage=["b1", "b2"])
    state, _, _ = run(state, "battle", [2], target="b1", weapon="melee")
    assert strike_modifier(state, "a1", "melee", target="b1").value == 12 - 4
    assert strike_modifier(state, "a1", "melee", target="b2").value == 12 - 5
    state, _, _ = run(state, "battle", [2], target="b1", weapon="melee")
    assert strike_modifier(state, "a1", "melee", target="b1").value == 12 - 8


def test_map_resets_on_the_next_turn():
    state = engaged_duel()
    state, _, _ = run(state, "battle", [2], target="b1", weapon="melee")
    for _ in range(4):
        state, _, _ = run(state, "end_turn")
    assert strike_modifier(state, "a1", "melee", target="b1").value == 12


def test_ranged_strikes_use_shots():
    """§1.1: 5 shots per encounter; none left -> no ranged Strike."""
    state = duel(ours=[army("s1", SIE, 7), army("a2")])
    state, _, _ = run(state, "battle", [2], target="b1", weapon="ranged")
    assert state.army("s1").shots == 4
    state, _, _ = run(state, "gm_correction", army="s1", shots=0)
    assert rejected(state, "battle", target="b1", weapon="ranged") == ["battle.no_shots"]
    assert options(state, "battle") == []


@pytest.mark.parametrize(
    ("terrain", "expected"),
    [((), -5), (("strong_wind",), -11), (("windstorm",), -12)],
)
def test_ranged_against_a_distant_army(terrain, expected):
    """§7.2 distant -5; §7.4 wind doubles it to -10 and stacks with the wind penalty."""
    state = duel(ours=[army("s1", SIE, 7), army("a2")], terrain=terrain)
    state, _, _ = run(state, "gm_correction", army="b1", position="distant")
    assert strike_modifier(state, "s1", "ranged", target="b1").value == 18 + expected


def test_fortified_army_ac_and_guard_do_not_stack():
    """§9 Fortified: +4 item AC; Guard's +2 item AC does not stack with it (PF2e)."""
    keep = {"key": "keep", "kind": "keep", "side": "e"}
    theirs = [army("b1", fortification="keep", garrisoned=True), army("b2")]
    state = duel(ours=[army("s1", SIE, 7), army("a2")], theirs=theirs, fortifications=[keep])
    assert strike_dc(state, "s1", "ranged", target="b1").value == 19 + 4
    assert rejected(state, "advance", target="b1", actor="s1") == ["battle.target_fortified"]


def test_siege_damages_a_fortification_and_its_fall_shakes_the_armies_inside():
    """§7.5: only siege damages a fortification (Battle, ranged vs its AC); destroyed: the
    armies inside lose fortified and get shaken +1."""
    trench = {"key": "t", "kind": "trench", "side": "e"}
    theirs = [army("b1", fortification="t", garrisoned=True), army("b2")]
    state = duel(ours=[army("s1", SIE, 7), army("a1")], theirs=theirs, fortifications=[trench])
    assert {"fortification": "t", "weapon": "ranged"} in options(state, "battle")
    state, events, _ = run(state, "battle", [2], fortification="t", weapon="ranged")
    check = event(events, "battle.battle").params["check"]
    assert (check["modifier"], check["dc"], check["degree"]) == (18, 15, "success")
    assert state.fortification("t").hp == 0
    assert "battle.fortification_destroyed" in codes(events)
    assert conditions(state, "b1") == {"shaken": 1}
    assert state.army("b1").fortification is None
    state, _, _ = run(state, "end_turn")
    assert rejected(state, "battle", fortification="t", weapon="ranged") == ["battle.no_weapon"]


def test_only_siege_can_damage_fortifications():
    keep = {"key": "keep", "kind": "keep", "side": "e"}
    theirs = [army("b1", fortification="keep", garrisoned=True)]
    ours = [army("a1", gear=RANGED_WEAPON)]
    state = duel(ours=ours, theirs=theirs, fortifications=[keep])
    assert rejected(state, "battle", fortification="keep", weapon="ranged") == [
        "battle.cannot_damage_fortification"
    ]


# --- Disengage (§8.1)------------------------------------------------------------------------------


def two_engaged():
    state = duel()
    state, _, _ = run(state, "gm_correction", army="a1", engage=["b1", "b2"])
    return state


def test_disengage_critical_success_frees_from_all():
    """§8.1 Disengage CS: no longer engaged with that army and all not yet rolled."""
    state, events, _ = run(two_engaged(), "disengage", [20])
    assert state.engaged_with("a1") == ()
    assert state.actions_left == 1
    assert codes(events).count("battle.disengage") == 1


def test_disengage_success_then_failure():
    """S: free of that army; F: stays engaged with the next one."""
    state, events, _ = run(two_engaged(), "disengage", [10, 9])
    assert state.engaged_with("a1") == ("b2",)
    assert [e.params["degree"] for e in events if e.code == "battle.disengage"] == [
        "success", "failure",
    ]  # fmt: skip


def test_disengage_critical_failure_blocks_the_rest_of_the_turn():
    """CF: stays engaged, cannot try to disengage from still-engaged armies this turn."""
    state, _, _ = run(two_engaged(), "disengage", [1])
    assert state.engaged_with("a1") == ("b1", "b2")
    assert state.army("a1").disengage_blocked
    state = replace(state, actions_left=3)
    assert rejected(state, "disengage") == ["battle.disengage_blocked"]


def test_merciless_raises_the_disengage_dc():
    """§6.1 Merciless: +2 status to its Maneuver DC when enemies Disengage from it."""
    theirs = [army("b1", level=5, tactics=("merciless",)), army("b2")]
    ours = [army("a1", level=5), army("a2")]
    state = duel(ours=ours, theirs=theirs)
    state, _, _ = run(state, "gm_correction", army="a1", engage=["b1"])
    spec = next(s for s in SYSTEM.legal_actions(state, "a1") if s.key == "disengage")
    check = spec.options[0].checks[0]
    assert check.dc == 10 + 9 + 2
    assert ["tactic.merciless", 2] in [list(t) for t in check.dc_breakdown]


# --- Guard (§8.1) ---------------------------------------------------------------------------------


def test_guard_degrees():
    """CS +2 item AC vs all attacks, S vs the target's, until the start of your next turn;
    CF mired 1 (no duration given: lasting by house default)."""
    state, _, _ = run(duel(), "guard", [20], target="b1")
    assert strike_dc(state, "b2", "melee", target="a1").value == 21
    state, _, _ = run(duel(), "guard", [10], target="b1")
    assert strike_dc(state, "b1", "melee", target="a1").value == 21
    assert strike_dc(state, "b2", "melee", target="a1").value == 19
    state, _, _ = run(duel(), "guard", [9], target="b1")
    assert effects_on(state, "a1") == []
    state, _, _ = run(duel(), "guard", [1], target="b1")
    assert conditions(state, "a1") == {"mired": 1}


def test_defensive_tactics_helps_guard():
    """§6.1 Defensive Tactics: +1 status to Maneuver checks to Guard."""
    state = duel(ours=[army("a1", tactics=("defensive_tactics",)), army("a2")])
    state, events, _ = run(state, "guard", [10], target="b1")
    check = event(events, "battle.guard").params["check"]
    assert check["modifier"] == 7
    assert ["tactic.defensive_tactics", 1] in check["modifier_breakdown"]


# --- Rally (§8.1) ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree", "shaken"),
    [(20, "critical_success", 0), (12, "success", 1), (11, "failure", 2),
     (1, "critical_failure", 3)],
)  # fmt: skip
def test_rally_degrees(die, degree, shaken):
    """Morale +12 - 2 (shaken 2) = +10 vs b1's Morale DC 22: 20 -> 30 S, nat 20 -> CS
    (shaken -2); 12 -> 22 S (shaken -1); 11 -> 21 F; 1 -> 11 CF (shaken +1)."""
    state = duel(ours=[army("a1", conditions={"shaken": 2}), army("a2")])
    state, events, _ = run(state, "rally", [die], target="b1")
    check = event(events, "battle.rally").params["check"]
    assert (check["modifier"], check["dc"], check["degree"]) == (10, 22, degree)
    assert conditions(state, "a1").get("shaken", 0) == shaken
    assert state.actions_left == 1


def test_rally_is_offered_only_where_it_can_do_something():
    """§8.1 Rally lowers shaken; without shaken only a success's False Retreat (§8.2, Flexible
    Tactics) could come of it. Not offered otherwise, yet still accepted if sent."""
    state = duel(ours=[army("a1"), army("a2")])
    assert options(state, "rally") == []
    shaken = duel(ours=[army("a1", conditions={"shaken": 1}), army("a2")])
    assert {"target": "b1"} in options(shaken, "rally")
    flexible = duel(ours=[army("a1", tactics=("flexible_tactics",)), army("a2")])
    assert {"target": "b1"} in options(flexible, "rally")
    state, events, _ = run(state, "rally", [12], target="b1")
    assert event(events, "battle.rally").params["check"]["degree"] == "success"


def test_rally_critical_success_ends_routed_for_reactive_rally():
    """§8.1 Rally CS: if routed, no longer routed (reachable through Reactive Rally, §6.2)."""
    from warfare.engine.systems.pf2e.activities.state import new_army_state
    from warfare.engine.systems.pf2e.armies import new_specialized_spec

    spec = new_specialized_spec("tiger_lord_berserkers")
    spec = replace(spec, conditions={"routed": 1})
    berserkers = {"army": new_army_state("t1", spec, "A1").to_dict()}
    state = duel(ours=[berserkers, army("a2")])
    assert {"target": "b1"} in options(state, "reactive_rally")
    state, events, _ = run(state, "reactive_rally", [20], target="b1")
    assert not state.army("t1").routed
    assert "army.routed_removed" in codes(events)


def test_rally_with_pcs_alongside_and_fortified():
    """§7.7 PCs alongside: +1 status to Morale checks; §9 Fortified: +4 item to Rally."""
    keep = {"key": "keep", "kind": "keep", "side": "k"}
    ours = [army("a1", pcs=True, fortification="keep", garrisoned=True), army("a2")]
    state = duel(ours=ours, fortifications=[keep])
    state, events, _ = run(state, "rally", [5], target="b1")
    breakdown = dict(
        map(tuple, event(events, "battle.rally").params["check"]["modifier_breakdown"])
    )
    assert breakdown == {"level": 12, "condition.fortified": 4, "pcs_alongside": 1}


# --- Retreat (§8.1)--------------------------------------------------------------------------------


def test_retreat_goes_distant_then_flees_routed():
    """§8.1 Retreat (3 actions): near -> distant; distant -> flees and is routed."""
    state, events, _ = run(duel(), "retreat")
    assert state.army("a1").position == "distant"
    assert state.actions_left == 0
    state = replace(state, actions_left=3)
    state, events, _ = run(state, "retreat")
    assert state.army("a1").position == "fled"
    assert state.army("a1").routed
    assert not state.army("a1").present


def test_retreat_needs_not_engaged_and_three_actions():
    assert rejected(engaged_duel(), "retreat") == ["battle.engaged"]
    state, _, _ = run(duel(), "guard", [5], target="b1")
    assert rejected(state, "retreat") == ["battle.not_enough_actions"]


def test_routed_army_must_retreat():
    """§9 Routed: must use Retreat on its turn (engaged: it may Disengage first, §15.11)."""
    state = duel(ours=[army("a1", conditions={"routed": 1}), army("a2")])
    keys = {spec.key for spec in SYSTEM.legal_actions(state, "a1")}
    assert keys == {"retreat", "end_turn"}
    assert rejected(state, "guard", target="b1") == ["battle.routed_must_retreat"]
    state, _, _ = run(state, "gm_correction", army="a1", engage=["b1"])
    assert rejected(state, "guard", target="b1") == ["battle.routed_must_retreat"]
    state, _, _ = run(state, "disengage", [10])
    assert state.engaged_with("a1") == ()


def test_healing_potion_with_a_maneuver_action():
    """§5 / §8.2 notes: one dose as part of a maneuver war action, +1 HP."""
    state = duel(ours=[army("a1", hp=2, potions=1), army("a2")])
    state, events, _ = run(state, "guard", [5], target="b1", potion=True)
    assert state.army("a1").hp == 3
    assert state.army("a1").army.potion_doses == 0
    assert rejected(state, "guard", target="b1", potion=True) == ["battle.no_potion"]
    assert effective_block(state, "a1").max_hp.value == 4
