"""Army-specific actions of unique tactics (pf2e §6.2): Trample (Nomen Scouts), Trampling
Charge (Tusker Riders), Furious Charge (Tiger Lord Berserkers), Swift Recovery, Battlefield
Adaptability, Primal Magic and Supernatural Attacks (First World Army), at all four degrees
where a check is rolled, offered only to armies with the tactic.

Numbers: Nomen Scouts (§3.4, level 8): melee +20. Tusker Riders (§3.4, level 14): Maneuver
+22. Tiger Lord Berserkers (§3.4, level 12): Maneuver +19, melee +28, AC 32, 6 HP. First
World Army (§3.4, level 16): Maneuver +30 (DC 40), Morale +25, melee +33 (house default),
AC 38, 6 HP. Basic infantry (§1.2): level 8 AC 27, Maneuver +13 (DC 23); level 12 AC 33,
Maneuver +19 (DC 29), Morale +25 (DC 35), attack +26; level 14 Maneuver +22 (DC 32); level 5
with Flexible Tactics: melee +15; all 4 HP.
"""

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.battle.helpers import (
    RANGED_WEAPON,
    army,
    begin,
    codes,
    conditions,
    effects_on,
    event,
    options,
    rejected,
    run,
    setup,
)
from tests.engine.battle.test_pf2e_properties import _check_invariants, _legal_command
from warfare.engine.battle.protocol import Rejected, command_dice, replay
from warfare.engine.systems.pf2e.activities.state import new_army_state
from warfare.engine.systems.pf2e.armies import new_specialized_spec
from warfare.engine.systems.pf2e.battle import SYSTEM
from warfare.engine.systems.pf2e.battle import actions as battle_actions
from warfare.engine.systems.pf2e.battle.actions import strike_modifier
from warfare.engine.systems.pf2e.battle.rules import maneuver, morale


def specialized(key, kind, *, hp=None, conditions=None):
    state = new_army_state(key, new_specialized_spec(kind), "A1")
    if conditions:
        state = replace(state, spec=replace(state.spec, conditions=conditions))
    if hp is not None:
        state = replace(state, hp=hp)
    return {"army": state.to_dict()}


def battle(ours, theirs, engage=()):
    order = [e["army"]["key"] for e in ours] + [e["army"]["key"] for e in theirs]
    state = begin(ours, theirs, order=order)
    for a, b in engage:
        state, _, _ = run(state, "gm_correction", army=a, engage=[b])
    return state


# --- Trample (§6.2, Nomen Scouts) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree", "hp", "still_engaged"),
    [
        (17, "critical_success", 2, False),  # 17 + 20 = 37 >= AC 27 + 10: 2 damage
        (7, "success", 3, False),  # 27 >= 27: 1 damage
        (6, "failure", 4, True),  # 26 < 27
        (1, "critical_failure", 4, True),  # 21 < 27, natural 1
    ],
)
def test_trample(die, degree, hp, still_engaged):
    """§6.2 Trample (3 actions): melee Strike at +20 vs an engaged enemy's AC; hit 1 damage
    (crit 2) and the Nomen automatically stop being engaged with it."""
    state = battle([specialized("n1", "nomen_scouts")], [army("b1", level=8)],
                   engage=[("n1", "b1")])  # fmt: skip
    assert options(state, "trample") == [{"target": "b1", "weapon": "melee"}]
    state, events, _ = run(state, "trample", [die], target="b1", weapon="melee")
    check = event(events, "battle.trample").params["check"]
    assert (check["modifier"], check["dc"], check["degree"]) == (20, 27, degree)
    assert state.army("b1").hp == hp
    assert state.is_engaged("n1", "b1") is still_engaged
    assert state.actions_left == 0
    assert state.army("n1").attacks == ("b1",)  # a Strike: counts toward MAP (§0.4)


def test_trample_needs_the_tactic_and_an_engaged_target():
    state = battle([army("a1", level=8)], [army("b1", level=8)], engage=[("a1", "b1")])
    assert options(state, "trample") == []
    assert rejected(state, "trample", target="b1") == ["battle.action_not_known"]
    state = battle([specialized("n1", "nomen_scouts")], [army("b1", level=8)])
    assert options(state, "trample") == []
    assert rejected(state, "trample", target="b1") == ["battle.not_engaged_with_target"]


# --- Trampling Charge (§6.2, Tusker Riders) ---------------------------------------------------


@pytest.mark.parametrize(
    ("die", "degree", "hp", "shaken", "engaged", "outflanked"),
    [
        (20, "critical_success", 2, 1, False, False),  # 20 + 22 = 42 >= DC 32 + 10
        (10, "success", 3, 0, False, False),  # 32 >= 32
        (9, "failure", 3, 0, True, False),  # 31 < 32: 1 damage, engaged
        (1, "critical_failure", 4, 0, True, True),  # 23 < 32, natural 1
    ],
)
def test_trampling_charge(die, degree, hp, shaken, engaged, outflanked):
    """§6.2 Trampling Charge (3 actions): Maneuver vs a non-engaged army's Maneuver DC.
    CS 2 damage and shaken +1; S 1 damage; F 1 damage and the Riders become engaged with it;
    CF engaged and the Riders outflanked until the start of their next turn."""
    state = battle([specialized("t1", "tusker_riders")], [army("b1", level=14)])
    assert options(state, "trampling_charge") == [{"target": "b1"}]
    state, events, _ = run(state, "trampling_charge", [die], target="b1")
    check = event(events, "battle.trampling_charge").params["check"]
    assert (check["modifier"], check["dc"], check["degree"]) == (22, 32, degree)
    assert state.army("b1").hp == hp
    assert conditions(state, "b1").get("shaken", 0) == shaken
    assert state.is_engaged("t1", "b1") is engaged
    assert bool(effects_on(state, "t1", "outflanked")) is outflanked
    assert state.actions_left == 0


def test_trampling_charge_needs_a_non_engaged_target_and_the_tactic():
    state = battle([specialized("t1", "tusker_riders")], [army("b1", level=14)],
                   engage=[("t1", "b1")])  # fmt: skip
    assert options(state, "trampling_charge") == []
    assert rejected(state, "trampling_charge", target="b1") == ["battle.target_engaged"]
    state = battle([army("a1", level=14)], [army("b1", level=14)])
    assert "trampling_charge" not in {s.key for s in SYSTEM.legal_actions(state, "a1")}


def test_trampling_charge_does_not_trigger_counterattack_but_advance_does():
    """§6.2: Trampling Charge does not trigger Counterattack (§8.2), unlike other maneuver
    war actions of an engaged army."""
    theirs = [army("b1", level=14), army("b2", level=5, tactics=("flexible_tactics",))]
    state = battle([specialized("t1", "tusker_riders")], theirs, engage=[("t1", "b2")])
    _, events, _ = run(state, "trampling_charge", [10], target="b1")
    assert "battle.counterattack" not in codes(events)
    assert "battle.reaction_blocked" not in codes(events)
    # Advance: counterattack die (+15 vs the Riders' AC 35: 15 -> 30 failure), then Advance.
    _, events, _ = run(state, "advance", [15, 10], target="b1")
    assert event(events, "battle.counterattack").params["degree"] == "failure"


def keys(state):
    return {spec.key for spec in SYSTEM.legal_actions(state, state.current)}


def terms(stat):
    return dict(stat.breakdown)


def end_turns(state, count):
    for _ in range(count):
        state, _, _ = run(state, "end_turn")
    return state


# --- Furious Charge (§6.2, Tiger Lord Berserkers) ------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "advance", "strike", "hp", "is_engaged"),
    [
        ([20, 15], "critical_success", "critical_success", 2, True),  # 39 vs 29; 43 vs AC 33
        ([10, 5], "success", "success", 3, True),  # 29 >= 29; 33 >= 33: 1 damage
        ([10, 4], "success", "failure", 4, True),  # 32 < 33
        ([10, 1], "success", "critical_failure", 4, True),  # natural 1
        ([9], "failure", None, 4, False),  # 28 < 29: no engagement, no Strike
        ([1], "critical_failure", None, 4, False),  # mired 1, no Strike
    ],
)
def test_furious_charge(dice, advance, strike, hp, is_engaged):
    """§6.2 Furious Charge (1 action, once per war encounter): an Advance (Maneuver +19 vs
    Maneuver DC 29, §8.1); if it engages, a melee Strike (+28 vs AC 33) as a reaction: hit 1
    damage, critical hit 2."""
    state = battle([specialized("t1", "tiger_lord_berserkers")], [army("b1", level=12)])
    assert options(state, "furious_charge") == [{"target": "b1"}]
    state, events, _ = run(state, "furious_charge", dice, target="b1")
    check = event(events, "battle.advance").params["check"]
    assert (check["modifier"], check["dc"], check["degree"]) == (19, 29, advance)
    assert state.is_engaged("t1", "b1") is is_engaged
    assert state.army("b1").hp == hp
    assert state.actions_left == 2
    if strike is None:
        assert "battle.furious_charge" not in codes(events)
        assert state.army("t1").attacks == ()
    else:
        check = event(events, "battle.furious_charge").params["check"]
        assert (check["modifier"], check["dc"], check["degree"]) == (28, 33, strike)
        assert state.army("t1").reaction_used  # "as a reaction" (house default)
    assert bool(effects_on(state, "t1", "mired")) is (advance == "critical_failure")
    # Once per war encounter.
    assert options(state, "furious_charge") == []
    assert rejected(state, "furious_charge", target="b1") == ["battle.once_per_encounter"]


def test_furious_charge_strike_is_a_param_and_takes_the_multiple_attack_penalty():
    """§6.2 Furious Charge: the Strike can be declined (`strike` false); made on its own turn
    it takes MAP (§0.4): after a Battle, +28 - 5 = +23."""
    theirs = [army("b1", level=12), army("b2", level=12)]
    state = battle([specialized("t1", "tiger_lord_berserkers")], theirs, engage=[("t1", "b2")])
    declined, events, _ = run(state, "furious_charge", [10], target="b1", strike=False)
    assert declined.is_engaged("t1", "b1")
    assert "battle.furious_charge" not in codes(events)
    assert not declined.army("t1").reaction_used
    state, _, _ = run(state, "battle", [2], target="b2", weapon="melee")
    state, events, _ = run(state, "furious_charge", [10, 10], target="b1")
    check = event(events, "battle.furious_charge").params["check"]
    assert (check["modifier"], check["total"], check["degree"]) == (23, 33, "success")
    assert rejected(state, "furious_charge", target="b2") == ["battle.once_per_encounter"]


def test_furious_charge_strike_needs_the_reaction(monkeypatch):
    """§6.2 "as a reaction" (§0.5: one per round): with its reaction used there is no Strike,
    unless the house default makes the Strike free."""
    state = battle([specialized("t1", "tiger_lord_berserkers")], [army("b1", level=12)])
    state = state.with_army(replace(state.army("t1"), reaction_used=True))
    after, events, _ = run(state, "furious_charge", [10], target="b1")
    assert event(events, "battle.reaction_blocked").params["reason"] == "reaction_used"
    assert after.army("b1").hp == 4
    real = battle_actions.house_value
    monkeypatch.setattr(
        battle_actions, "house_value",
        lambda key: 0 if key == "furious_charge.strike_uses_reaction" else real(key),
    )  # fmt: skip
    after, events, _ = run(state, "furious_charge", [10, 5], target="b1")
    assert after.army("b1").hp == 3


def test_furious_charge_on_a_distant_army_strikes_only_on_a_critical_success():
    """§8.1 Advance vs a distant army: success only removes distant (no engagement, so no
    Strike); critical success engages (and Furious Charge then strikes)."""
    state = battle([specialized("t1", "tiger_lord_berserkers")], [army("b1", level=12)])
    state = state.with_army(replace(state.army("b1"), position="distant"))
    after, events, _ = run(state, "furious_charge", [10], target="b1")
    assert after.army("b1").position == "near" and not after.is_engaged("t1", "b1")
    after, events, _ = run(state, "furious_charge", [20, 5], target="b1")
    assert after.is_engaged("t1", "b1") and after.army("b1").hp == 3


def test_furious_charge_only_for_armies_with_the_tactic():
    state = battle([army("a1", level=12)], [army("b1", level=12)])
    assert "furious_charge" not in keys(state)
    assert rejected(state, "furious_charge", target="b1") == ["battle.action_not_known"]
    state = battle([specialized("t1", "tiger_lord_berserkers")], [army("b1", level=12)],
                   engage=[("t1", "b1")])  # fmt: skip
    assert rejected(state, "furious_charge", target="b1") == ["battle.already_engaged"]
    spec = next(s for s in SYSTEM.legal_actions(state, "t1") if s.key == "all_out_assault")
    assert spec.cost == 2  # Warmongers (§6.2) still grants All-Out Assault


# --- Swift Recovery (§6.2, First World Army) -----------------------------------------------------


@pytest.mark.parametrize(("choice", "hp", "weary"), [("hp", 6, 3), ("weary", 4, 1)])
def test_swift_recovery(choice, hp, weary):
    """§6.2 Swift Recovery (2 actions, once per battle): regain 2 HP or reduce weary by 2."""
    ours = [specialized("f1", "first_world_army", hp=4, conditions={"weary": 3})]
    state = battle(ours, [army("b1", level=16)])
    assert options(state, "swift_recovery") == [{"choice": "hp"}, {"choice": "weary"}]
    spec = next(s for s in SYSTEM.legal_actions(state, "f1") if s.key == "swift_recovery")
    assert spec.cost == 2
    state, events, _ = run(state, "swift_recovery", choice=choice)
    assert event(events, "battle.swift_recovery_used").params["choice"] == choice
    assert state.army("f1").hp == hp
    assert conditions(state, "f1")["weary"] == weary
    assert state.actions_left == 1
    assert options(state, "swift_recovery") == []
    assert rejected(state, "swift_recovery", choice="hp") == ["battle.not_enough_actions"]
    state = end_turns(state, 2)
    assert options(state, "swift_recovery") == []
    assert rejected(state, "swift_recovery", choice="hp") == ["battle.once_per_encounter"]


def test_swift_recovery_never_above_max_hp_and_only_when_it_helps():
    """§6.2 Swift Recovery: HP up to max HP 6 (§0.3); nothing offered at full HP without weary."""
    state = battle([specialized("f1", "first_world_army", hp=5)], [army("b1", level=16)])
    assert options(state, "swift_recovery") == [{"choice": "hp"}]
    assert rejected(state, "swift_recovery", choice="weary") == ["battle.nothing_to_recover"]
    assert rejected(state, "swift_recovery", choice="morale") == ["battle.bad_choice"]
    state, _, _ = run(state, "swift_recovery", choice="hp")
    assert state.army("f1").hp == 6
    state = battle([specialized("f1", "first_world_army")], [army("b1", level=16)])
    assert "swift_recovery" not in keys(state)
    state = battle([army("a1", level=16)], [army("b1", level=16)], engage=[("a1", "b1")])
    assert rejected(state, "swift_recovery", choice="hp") == ["battle.action_not_known"]


# --- Battlefield Adaptability (§6.2, First World Army) -------------------------------------------


def test_battlefield_adaptability_concealed_until_the_start_of_its_next_turn():
    """§6.2 Battlefield Adaptability (1 action), "become concealed" (§9: +2 circumstance to
    its Maneuver checks, attacks against it -2 circumstance) until the start of its next
    turn."""
    state = battle([specialized("f1", "first_world_army")], [army("b1", level=16)],
                   engage=[("f1", "b1")])  # fmt: skip
    assert {"choice": "concealed"} in options(state, "battlefield_adaptability")
    state, _, _ = run(state, "battlefield_adaptability", choice="concealed")
    assert state.actions_left == 2
    assert maneuver(state, "f1").value == 32
    assert {"choice": "concealed"} not in options(state, "battlefield_adaptability")
    state = end_turns(state, 1)  # b1's turn: its Strike on the First World Army takes -2
    assert strike_modifier(state, "b1", "melee", target="f1").value == 32 - 2
    state = end_turns(state, 1)  # the start of f1's next turn ends it
    assert not effects_on(state, "f1")
    assert maneuver(state, "f1").value == 30


def test_battlefield_adaptability_advance_and_disengage_bonus():
    """§6.2: +2 circumstance to Maneuver checks to Advance and Disengage (not to Guard)."""
    theirs = [army("b1", level=16), army("b2", level=16)]
    state = battle([specialized("f1", "first_world_army")], theirs, engage=[("f1", "b2")])
    state, _, _ = run(state, "battlefield_adaptability", choice="advance_disengage")
    _, events, _ = run(state, "advance", [5], target="b1")
    assert event(events, "battle.advance").params["check"]["modifier"] == 32
    _, events, _ = run(state, "disengage", [5])
    assert event(events, "battle.disengage").params["check"]["modifier"] == 32
    _, events, _ = run(state, "guard", [5], target="b1")
    assert event(events, "battle.guard").params["check"]["modifier"] == 30


def test_battlefield_adaptability_ignores_difficult_terrain():
    """§6.2 / §7.4: difficult terrain gives -2 to Maneuver checks; ignored until the start of
    its next turn. Offered only on difficult terrain."""
    state = battle([specialized("f1", "first_world_army")], [army("b1", level=16)])
    assert {"choice": "ignore_difficult_terrain"} not in options(state, "battlefield_adaptability")
    state = begin([specialized("f1", "first_world_army")], [army("b1", level=16)],
                  order=["f1", "b1"], terrain=["difficult_terrain"])  # fmt: skip
    assert maneuver(state, "f1").value == 28
    state, _, _ = run(state, "battlefield_adaptability", choice="ignore_difficult_terrain")
    assert maneuver(state, "f1").value == 30
    assert maneuver(state, "b1").value == 23  # the enemy still has it: 25 - 2


def test_battlefield_adaptability_mired_counts_as_0_until_its_next_turn(monkeypatch):
    """§6.2 "reduce mired to 0" until the start of its next turn (house default: its mired
    comes back afterwards; the other house value ends it for good)."""
    ours = [specialized("f1", "first_world_army", conditions={"mired": 2})]
    state = battle(ours, [army("b1", level=16)])
    assert maneuver(state, "f1").value == 28
    after, _, _ = run(state, "battlefield_adaptability", choice="mired")
    assert maneuver(after, "f1").value == 30
    assert {"choice": "mired"} not in options(after, "battlefield_adaptability")
    after = end_turns(after, 2)
    assert maneuver(after, "f1").value == 28
    real = battle_actions.house_value
    monkeypatch.setattr(
        battle_actions, "house_value",
        lambda key: 1 if key == "battlefield_adaptability.mired_removed" else real(key),
    )  # fmt: skip
    after, _, _ = run(state, "battlefield_adaptability", choice="mired")
    after = end_turns(after, 2)
    assert conditions(after, "f1").get("mired", 0) == 0
    assert maneuver(after, "f1").value == 30


def test_battlefield_adaptability_choices_are_checked():
    state = battle([specialized("f1", "first_world_army")], [army("b1", level=16)])
    assert options(state, "battlefield_adaptability") == [
        {"choice": "concealed"}, {"choice": "advance_disengage"},
    ]  # fmt: skip
    assert rejected(state, "battlefield_adaptability", choice="mired") == ["battle.no_effect"]
    assert rejected(state, "battlefield_adaptability", choice="fly") == ["battle.bad_choice"]


# --- Primal Magic (§6.2, First World Army) -------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "degree", "mired"),
    [
        ([20, 1], "critical_success", 2),  # 45 >= 35 + 10: Entangling Vines, mired +2
        ([10, 2], "success", 1),  # 35 >= 35: mired +1
        ([9], "failure", 0),  # 34 < 35: no d10
        ([1], "critical_failure", 0),
    ],
)
def test_primal_magic_degrees(dice, degree, mired):
    """§6.2 Primal Magic (2 actions): Morale +25 vs the target's Morale DC 35; on a success a
    d10 (1-2 Entangling Vines: mired +1, +2 on a critical success)."""
    state = battle([specialized("f1", "first_world_army")], [army("b1", level=12)])
    assert options(state, "primal_magic") == [{"target": "b1"}]
    state, events, _ = run(state, "primal_magic", dice, target="b1")
    check = event(events, "battle.primal_magic").params["check"]
    assert (check["modifier"], check["dc"], check["degree"]) == (25, 35, degree)
    assert conditions(state, "b1").get("mired", 0) == mired
    assert state.actions_left == 1


@pytest.mark.parametrize(
    ("check_die", "roll", "row", "shaken", "hp"),
    [
        (10, 3, "horrific_visions", 1, 4),
        (20, 4, "horrific_visions", 2, 4),
        (10, 5, "primal_storm", 0, 3),
        (20, 6, "primal_storm", 0, 2),
        (10, 7, "sensory_assault", 0, 4),
    ],
)
def test_primal_magic_rows(check_die, roll, row, shaken, hp):
    """§6.2 Primal Magic d10: 3-4 Horrific Visions shaken +1 (+2); 5-6 Primal Storm 1 damage
    (2); 7-8 Sensory Assault."""
    state = battle([specialized("f1", "first_world_army")], [army("b1", level=12)])
    state, events, _ = run(state, "primal_magic", [check_die, roll], target="b1")
    assert event(events, "battle.primal_magic_effect").params["effect"] == row
    assert conditions(state, "b1").get("shaken", 0) == shaken
    assert state.army("b1").hp == hp


def test_primal_storm_is_strong_wind_and_rain_until_the_end_of_the_targets_next_turn():
    """§6.2 Primal Storm + §7.4: strong wind (ranged Strikes -1; vs distant -10) and rain
    (+1 Maneuver; distant armies concealed) for the target until the end of its next turn."""
    theirs = [army("b1", level=12, gear=RANGED_WEAPON)]
    state = battle([specialized("f1", "first_world_army")], theirs)
    state, _, _ = run(state, "primal_magic", [10, 5], target="b1")
    state = end_turns(state, 1)
    assert state.current == "b1"
    ranged = terms(strike_modifier(state, "b1", "ranged", target="f1"))
    assert ranged["terrain.strong_wind"] == -1
    assert terms(maneuver(state, "b1"))["terrain.light_fog_or_rain"] == 1
    assert "target_concealed" not in terms(strike_modifier(state, "f1", "ranged", target="b1"))
    far = state.with_army(replace(state.army("b1"), position="distant"))
    assert terms(strike_modifier(far, "f1", "ranged", target="b1"))["target_concealed"] == -2
    distant = state.with_army(replace(state.army("f1"), position="distant"))
    assert terms(strike_modifier(distant, "b1", "ranged", target="f1"))["target_distant"] == -10
    state = end_turns(state, 1)  # the end of b1's turn ends it
    assert not effects_on(state, "b1", "primal_storm")
    assert "terrain.strong_wind" not in terms(strike_modifier(state, "b1", "ranged", target="f1"))


def test_sensory_assault_penalises_attacks_and_maneuver_checks_until_the_end_of_its_turn():
    """§6.2 Sensory Assault: -2 circumstance to all attacks and Maneuver checks (not the
    Maneuver DC) until the end of the target's next turn."""
    state = battle([specialized("f1", "first_world_army")], [army("b1", level=12)],
                   engage=[("f1", "b1")])  # fmt: skip
    state = state.disengage("f1", "b1")
    state, _, _ = run(state, "primal_magic", [10, 8], target="b1")
    state = end_turns(state, 1)
    assert maneuver(state, "b1").value == 19 - 2
    assert strike_modifier(state, "b1", "melee", target="f1").value == 26 - 2
    state = end_turns(state, 1)
    assert maneuver(state, "b1").value == 19


@pytest.mark.parametrize(
    ("dice", "mired", "shaken"),
    [
        ([15, 9, 1, 3], 1, 1),  # Vines + Visions, both at +1 (success)
        ([15, 10, 1, 1], 2, 0),  # the same row twice: mired +1 twice
    ],
)
def test_overwhelming_magic(dice, mired, shaken):
    """§6.2 Overwhelming Magic (d10 9-10): the Morale check took -4 circumstance, so its
    degree is worked out again: +25 vs Morale DC 29 (basic infantry level 8), die 15: 40 is a
    critical success, 36 a success; then two more d10s, both applied at that degree."""
    state = battle([specialized("f1", "first_world_army")], [army("b1", level=8)])
    state, events, _ = run(state, "primal_magic", dice, target="b1")
    assert event(events, "battle.primal_magic").params["degree"] == "critical_success"
    overwhelming = event(events, "battle.overwhelming_magic").params
    assert (overwhelming["check"]["modifier"], overwhelming["check"]["total"]) == (21, 36)
    assert overwhelming["degree"] == "success"
    assert conditions(state, "b1").get("mired", 0) == mired
    assert conditions(state, "b1").get("shaken", 0) == shaken


def test_overwhelming_magic_can_turn_the_check_into_a_failure_and_rerolls_a_second_9():
    """§6.2: die 5, 30 (success vs DC 29) - 4 = 26: a failure, nothing happens. A 9-10 among
    the two extra d10s is rerolled (house default)."""
    state = battle([specialized("f1", "first_world_army")], [army("b1", level=8)])
    after, events, _ = run(state, "primal_magic", [5, 9], target="b1")
    assert event(events, "battle.overwhelming_magic").params["degree"] == "failure"
    assert "battle.primal_magic_effect" not in codes(events)
    assert conditions(after, "b1") == {}
    after, events, _ = run(state, "primal_magic", [15, 10, 9, 3, 10, 4], target="b1")
    rows = [e.params["effect"] for e in events if e.code == "battle.primal_magic_effect"]
    assert rows == ["horrific_visions", "horrific_visions"]
    assert conditions(after, "b1")["shaken"] == 2


def test_overwhelming_magic_penalty_does_not_stack_with_shaken():
    """§6.2's -4 is circumstance: it replaces shaken 2's -2 circumstance (PF2e stacking), so
    the Morale +23 becomes +21, not +19 (die 10: 31 vs DC 29, still a success)."""
    ours = [specialized("f1", "first_world_army", conditions={"shaken": 2})]
    state = battle(ours, [army("b1", level=8)])
    assert morale(state, "f1").value == 23
    _, events, _ = run(state, "primal_magic", [10, 9, 1, 2], target="b1")
    check = event(events, "battle.overwhelming_magic").params["check"]
    assert (check["modifier"], check["total"], check["degree"]) == (21, 31, "success")


def test_primal_magic_needs_the_army_not_engaged():
    state = battle([specialized("f1", "first_world_army")], [army("b1", level=12)],
                   engage=[("f1", "b1")])  # fmt: skip
    assert options(state, "primal_magic") == []
    assert rejected(state, "primal_magic", target="b1") == ["battle.engaged"]
    state = battle([army("a1", level=16)], [army("b1", level=12)])
    assert "primal_magic" not in keys(state)


# --- Supernatural Attacks (§6.2, First World Army) -----------------------------------------------


@pytest.mark.parametrize(("die", "degree", "hp", "weary"), [
    (10, "critical_success", 2, 1),  # 43 >= 33 + 10: 2 damage and weary +1
    (5, "success", 3, 0),  # 38: 1 damage only
])  # fmt: skip
def test_supernatural_attacks_critical_hits_give_weary(die, degree, hp, weary):
    """§6.2 Supernatural Attacks: its critical hits also give the target weary +1."""
    state = battle([specialized("f1", "first_world_army")], [army("b1", level=12)],
                   engage=[("f1", "b1")])  # fmt: skip
    state, events, _ = run(state, "battle", [die], target="b1", weapon="melee")
    assert event(events, "battle.battle").params["degree"] == degree
    assert state.army("b1").hp == hp
    assert conditions(state, "b1").get("weary", 0) == weary


def test_supernatural_attacks_counterattack_critical_hit_gives_weary():
    """§6.2 Supernatural Attacks on a Counterattack (§8.2, granted by Tactical Training):
    +33 vs AC 33, die 10: critical hit, 1 damage, shaken +1 and weary +1."""
    ours = [specialized("f1", "first_world_army")]
    state = begin(ours, [army("b1", level=12)], order=["b1", "f1"])
    state, _, _ = run(state, "gm_correction", army="b1", engage=["f1"])
    state, events, _ = run(state, "disengage", [10, 1])
    assert event(events, "battle.counterattack").params["degree"] == "critical_success"
    assert conditions(state, "b1") == {"shaken": 1, "weary": 1}
    assert state.army("b1").hp == 3


# --- passive unique tactics in battle (§6.2) -----------------------------------------------------
# Numbers (§3.4): M'botuu Frog Riders level 10 Morale +18; Troll Marauders level 8 Morale +19,
# melee +20, 5 HP; Greengripe Bombardiers level 7 Maneuver +12 (DC 22), melee +19, AC 25;
# Wyvern Flight level 12 melee +26; Lizardfolk Defenders level 5 Maneuver +9. Basic infantry
# (§1.2): level 7 AC 25, Maneuver +12, melee +18; level 8 AC 27, Morale +19 (DC 29);
# level 10 Morale +22 (DC 32).


def with_tactics(entry, *extra):
    data = dict(entry["army"])
    data["spec"] = {**data["spec"], "tactics": [*data["spec"]["tactics"], *extra]}
    return {"army": data}


def test_chorus_of_croaks_lowers_the_morale_of_engaged_enemies():
    """§6.2 Chorus of Croaks: every enemy army engaged with the Frog Riders takes -2 status to
    its Morale checks (not to its Morale DC): +22 -> +20."""
    theirs = [army("b1", level=10), army("b2", level=10)]
    state = battle([specialized("m1", "mbotuu_frog_riders")], theirs, engage=[("m1", "b1")])
    assert morale(state, "b1").value == 20
    assert terms(morale(state, "b1"))["tactic.chorus_of_croaks"] == -2
    assert morale(state, "b2").value == 22
    assert battle_actions.morale_dc(state, "b1").value == 32


@pytest.mark.parametrize(("focused", "shaken", "degree"), [
    (True, 1, "failure"),  # Chorus + Focused Devotion: critical failure -> failure
    (False, 0, "critical_failure"),  # a critical failure reduces the target's shaken by 1
])  # fmt: skip
def test_chorus_of_croaks_taunt_critical_failures_become_failures(focused, shaken, degree):
    """§6.2 Chorus of Croaks: may use Taunt (§8.2; +18 vs Morale DC 32, die 2: 20, a critical
    failure); if it also knows Focused Devotion a critical failure becomes a failure."""
    riders = specialized("m1", "mbotuu_frog_riders")
    if focused:
        riders = with_tactics(riders, "focused_devotion")
    state = battle([riders], [army("b1", level=10, conditions={"shaken": 1})])
    state, events, _ = run(state, "taunt", [2], target="b1")
    check = event(events, "battle.taunt").params["check"]
    assert (check["total"], check["rolled"], check["degree"]) == (20, "critical_failure", degree)
    assert conditions(state, "b1").get("shaken", 0) == shaken


def test_frightening_foe_taunts_better_after_regenerating():
    """§6.2 Regeneration (1 HP at the start of its turn) and Frightening Foe (+2 status to
    Taunt if Regeneration was used this turn): +19 -> +21, only in that turn."""
    ours = [specialized("t1", "troll_marauders", hp=3)]
    state = begin(ours, [army("b1", level=8)], order=["b1", "t1"])
    hp = state.army("t1").hp
    state = end_turns(state, 1)
    assert state.current == "t1" and state.army("t1").hp == hp + 1
    (taunt,) = [s for s in SYSTEM.legal_actions(state, "t1") if s.key == "taunt"]
    assert taunt.options[0].checks[0].modifier == 21
    after, events, _ = run(state, "taunt", [8], target="b1")  # 29 >= DC 29
    check = event(events, "battle.taunt").params["check"]
    assert (check["modifier"], check["degree"]) == (21, "success")
    full = begin([specialized("t1", "troll_marauders")], [army("b1", level=8)],
                 order=["b1", "t1"])  # fmt: skip
    full = end_turns(full, 1)
    (taunt,) = [s for s in SYSTEM.legal_actions(full, "t1") if s.key == "taunt"]
    assert taunt.options[0].checks[0].modifier == 19


@pytest.mark.parametrize(("die", "degree", "shaken"), [
    (15, "critical_success", 0),  # 34 vs DC 24
    (5, "success", 0),  # 24
    (4, "failure", 1),  # 23: shaken 1
    (1, "critical_failure", 2),  # natural 1: shaken 2
])  # fmt: skip
def test_brutal_assault(die, degree, shaken):
    """§6.2 Brutal Assault: an army damaged by the trolls' All-Out Assault (+20 vs AC 27, die
    7: a success, 2 damage) attempts a DC 24 Morale check (+19): failure shaken 1, critical
    failure shaken 2."""
    state = battle([specialized("t1", "troll_marauders")], [army("b1", level=8)],
                   engage=[("t1", "b1")])  # fmt: skip
    state, events, _ = run(state, "all_out_assault", [7, die], target="b1", weapon="melee")
    assert state.army("b1").hp == 2
    check = event(events, "battle.brutal_assault").params["check"]
    assert (check["modifier"], check["dc"], check["degree"]) == (19, 24, degree)
    assert conditions(state, "b1").get("shaken", 0) == shaken


def test_brutal_assault_needs_damage():
    """§6.2: no damage (an All-Out Assault critical failure), no Morale check."""
    state = battle([specialized("t1", "troll_marauders")], [army("b1", level=8)],
                   engage=[("t1", "b1")])  # fmt: skip
    state, events, _ = run(state, "all_out_assault", [1], target="b1", weapon="melee")
    assert "battle.brutal_assault" not in codes(events)


def test_regeneration_army_cannot_be_destroyed():
    """§6.2 Regeneration: the trolls cannot be destroyed normally: a failed DC 16 flat check
    while defeated (§9) leaves them defeated, and their turn brings them back to 1 HP."""
    ours = [specialized("t1", "troll_marauders", hp=1), army("a1", level=8)]
    state = begin(ours, [army("b1", level=8)], order=["b1", "t1", "a1"])
    state, _, _ = run(state, "gm_correction", army="b1", engage=["t1"])
    state, events, _ = run(state, "battle", [10], target="t1", weapon="melee")  # 30: 1 damage
    assert state.army("t1").defeated
    # MAP -5: 15 + 15 = 30, a hit; flat check 5 < 16.
    state, events, _ = run(state, "battle", [15, 5], target="t1", weapon="melee")
    assert event(events, "battle.destruction_prevented").params["reason"] == "regeneration"
    assert not state.army("t1").destroyed
    state = end_turns(state, 1)
    assert state.current == "t1" and state.army("t1").hp == 1


@pytest.mark.parametrize(("die", "degree", "hp"), [(10, "success", 2), (9, "failure", 1)])
def test_burning_weaponry(die, degree, hp):
    """§6.2 Burning Weaponry: melee Strikes while engaged (+19 vs AC 25, die 16: 35, a critical
    hit, 2 damage); the target then makes a Maneuver check (+12) vs the Bombardiers' Maneuver
    DC 22: failure 1 more damage."""
    state = battle([specialized("g1", "greengripe_bombardiers")], [army("b1", level=7)],
                   engage=[("g1", "b1")])  # fmt: skip
    state, events, _ = run(state, "battle", [16, die], target="b1", weapon="melee")
    check = event(events, "battle.burning_weaponry").params["check"]
    assert (check["modifier"], check["dc"], check["degree"]) == (12, 22, degree)
    assert state.army("b1").hp == hp
    state = battle([specialized("g1", "greengripe_bombardiers")], [army("b1", level=7)],
                   engage=[("g1", "b1")])  # fmt: skip
    state, events, _ = run(state, "battle", [10], target="b1", weapon="melee")  # 29: a hit
    assert "battle.burning_weaponry" not in codes(events)


def test_explosive_defeat():
    """§6.2 Explosive Defeat: when the Bombardiers are defeated, each army engaged with them
    makes a Maneuver check (+12) vs their Maneuver DC 22: failure 1 damage, critical failure
    2 (+18 vs AC 25, die 10: a hit takes their last HP)."""
    ours = [specialized("g1", "greengripe_bombardiers", hp=1)]
    state = begin(ours, [army("b1", level=7), army("b2", level=7)], order=["b1", "b2", "g1"])
    state, _, _ = run(state, "gm_correction", army="g1", engage=["b1", "b2"])
    state, events, _ = run(state, "battle", [10, 5, 1], target="g1", weapon="melee")
    explosions = [e.params for e in events if e.code == "battle.explosive_defeat"]
    assert [(e["army"], e["degree"]) for e in explosions] == [
        ("b1", "failure"), ("b2", "critical_failure"),
    ]  # fmt: skip
    assert (state.army("b1").hp, state.army("b2").hp) == (3, 2)


@pytest.mark.parametrize(("weary", "die", "hp", "weary_after"), [
    (0, 10, 3, 1),  # +26 vs AC 33: 36, a hit: 1 damage and weary +1
    (4, 10, 2, 4),  # weary 4 (AC 29): weary would pass 4, so 1 damage instead
    (0, 2, 4, 0),  # 28: a miss
])  # fmt: skip
def test_wyvern_venom(weary, die, hp, weary_after):
    """§6.2 Wyvern Venom: an army damaged by the wyverns' melee Strike gets weary +1; if
    weary would exceed 4 it takes 1 damage instead."""
    theirs = [army("b1", level=12, conditions={"weary": weary} if weary else None)]
    state = battle([specialized("w1", "wyvern_flight")], theirs, engage=[("w1", "b1")])
    state, _, _ = run(state, "battle", [die], target="b1", weapon="melee")
    assert state.army("b1").hp == hp
    assert conditions(state, "b1").get("weary", 0) == weary_after


def test_swamp_tactics_ignore_difficult_terrain_that_is_swamp_or_water():
    """§6.2 Swamp Dwellers (Lizardfolk, Maneuver +9): swamp and water are not difficult
    terrain for it, so with swamp on the battlefield its Maneuver loses no 2 (§7.4); without
    swamp the difficult terrain is something else and counts. A basic army always takes it."""
    lizards = [specialized("l1", "lizardfolk_defenders")]
    swamp = begin(lizards, [army("b1", level=5)], terrain=["difficult_terrain", "swamp"])
    assert maneuver(swamp, "l1").value == 9
    assert maneuver(swamp, "b1").value == 9 - 2
    hills = begin(lizards, [army("b1", level=5)], terrain=["difficult_terrain"])
    assert maneuver(hills, "l1").value == 9 - 2


@pytest.mark.parametrize(("die", "degree", "mired"), [
    (17, "critical_success", 2),  # +23 vs AC 30: 40
    (7, "success", 1),  # 30
    (6, "failure", 0),
    (1, "critical_failure", 0),
])  # fmt: skip
def test_hurl_nets(die, degree, mired):
    """§6.2 Hurl Nets (Tok-Nikrat Scouts, melee +23 "(nets)"): a hit with a net Strike deals
    no damage; the target's mired +1 (+2 on a critical hit). Basic infantry level 10: AC 30."""
    state = battle([specialized("n1", "tok_nikrat_scouts")], [army("b1", level=10)],
                   engage=[("n1", "b1")])  # fmt: skip
    state, events, _ = run(state, "battle", [die], target="b1", weapon="melee")
    battle_event = event(events, "battle.battle").params
    assert (battle_event["degree"], battle_event["net"]) == (degree, True)
    assert state.army("b1").hp == 4
    assert conditions(state, "b1").get("mired", 0) == mired


def test_hurl_nets_can_be_an_ordinary_strike():
    """§6.2 Hurl Nets: `net` false makes the Scouts' melee Strike an ordinary one (1 damage)."""
    state = battle([specialized("n1", "tok_nikrat_scouts")], [army("b1", level=10)],
                   engage=[("n1", "b1")])  # fmt: skip
    state, _, _ = run(state, "battle", [7], target="b1", weapon="melee", net=False)
    assert state.army("b1").hp == 3 and "mired" not in conditions(state, "b1")


@pytest.mark.parametrize(("die", "degree", "mired"), [
    (20, "critical_success", 0),  # 34 vs DC 32, a natural 20: net mired -2
    (18, "success", 1),  # 32: -1
    (10, "failure", 2),  # 24
    (8, "critical_failure", 3),  # 22 <= 22: +1
])  # fmt: skip
def test_shedding_nets(die, degree, mired):
    """§6.2 Hurl Nets: the netted army spends Battle on a check vs the Scouts' Maneuver DC
    (+22 + 10 = 32; its Maneuver check [inferred]: +16, mired 2 -> +14): success net mired
    -1, critical success -2, critical failure +1."""
    ours = [specialized("n1", "tok_nikrat_scouts")]
    state = begin(ours, [army("b1", level=10)], order=["n1", "b1"])
    state, _, _ = run(state, "gm_correction", army="n1", engage=["b1"])
    state, _, _ = run(state, "battle", [17], target="b1", weapon="melee")
    state = end_turns(state, 1)
    assert {"shed_nets": "n1"} in options(state, "battle")
    state, events, _ = run(state, "battle", [die], shed_nets="n1")
    check = event(events, "battle.shed_nets").params["check"]
    assert (check["modifier"], check["dc"], check["degree"]) == (14, 32, degree)
    assert conditions(state, "b1").get("mired", 0) == mired
    assert state.army("b1").attacks == ()  # not a Strike: no MAP


def test_shedding_nets_only_what_the_nets_gave():
    """§6.2: only *net* mired can be shed; an army not netted has no such option."""
    ours = [specialized("n1", "tok_nikrat_scouts")]
    theirs = [army("b1", level=10, conditions={"mired": 2})]
    state = begin(ours, theirs, order=["n1", "b1"])
    state, _, _ = run(state, "gm_correction", army="n1", engage=["b1"])
    state, _, _ = run(state, "battle", [7], target="b1", weapon="melee")  # net mired 1: mired 3
    state = end_turns(state, 1)
    state, _, _ = run(state, "battle", [20], shed_nets="n1")
    assert conditions(state, "b1")["mired"] == 2
    assert {"shed_nets": "n1"} not in options(state, "battle")
    assert rejected(state, "battle", shed_nets="n1") == ["battle.not_netted"]


# --- property: specialized armies on the board ----------------------------------------------------

SPECIALIZED_POOL = (
    lambda k: specialized(k, "tiger_lord_berserkers", hp=4),
    lambda k: specialized(k, "first_world_army", hp=3, conditions={"weary": 2, "mired": 1}),
    lambda k: specialized(k, "tok_nikrat_scouts"),
    lambda k: specialized(k, "troll_marauders", hp=2),
    lambda k: specialized(k, "greengripe_bombardiers", hp=2),
    lambda k: with_tactics(specialized(k, "mbotuu_frog_riders"), "focused_devotion"),
    lambda k: specialized(k, "wyvern_flight"),
    lambda k: army(k, level=10, tactics=("flexible_tactics",)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    ours=st.lists(st.integers(0, len(SPECIALIZED_POOL) - 1), min_size=1, max_size=3),
    theirs=st.lists(st.integers(0, len(SPECIALIZED_POOL) - 1), min_size=1, max_size=3),
    terrain=st.sampled_from([(), ("difficult_terrain", "swamp"), ("strong_wind",)]),
    seed=st.integers(0, 2**31),
)
def test_specialized_armies_play_legal_commands_that_replay(data, ours, theirs, terrain, seed):
    """Random legal commands of armies with §6.2 actions and riders (Furious Charge, Swift
    Recovery, Battlefield Adaptability, Primal Magic, nets, venom, explosions, regeneration)
    are accepted, keep the invariants of `test_pf2e_properties` and replay to the same state."""
    setup_data = setup(
        [SPECIALIZED_POOL[i](f"a{n}") for n, i in enumerate(ours)],
        [SPECIALIZED_POOL[i](f"b{n}") for n, i in enumerate(theirs)],
        terrain=terrain,
    )
    state = SYSTEM.start(setup_data, seed)
    commands = []
    for _ in range(data.draw(st.integers(1, 40))):
        if state.finished:
            break
        command = _legal_command(data.draw, state)
        result = SYSTEM.apply(state, command, command_dice(seed, len(commands), command.typed_dice))
        assert not isinstance(result, Rejected), (command, result.problems)
        state, _events = result
        commands.append(command)
        _check_invariants(state)
    replayed, _ = replay(SYSTEM, setup_data, seed, commands)
    assert replayed.to_dict() == state.to_dict()
