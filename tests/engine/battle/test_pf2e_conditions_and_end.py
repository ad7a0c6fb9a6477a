"""Damage and conditions in battle (pf2e §0.3, §9), end-of-round rout checks (§7.3 step 3),
victory and defeat (§7.3 step 5, §7.6), XP, GM corrections."""

import pytest

from tests.engine.battle.helpers import (
    SIE,
    army,
    begin,
    codes,
    conditions,
    event,
    options,
    rejected,
    run,
)
from warfare.engine.systems.pf2e.battle import SYSTEM
from warfare.engine.systems.pf2e.battle.rules import effective_block


def fight(ours, theirs, engage=()):
    order = [e["army"]["key"] for e in ours] + [e["army"]["key"] for e in theirs]
    state = begin(ours, theirs, order=order)
    if engage:
        state, _, _ = run(state, "gm_correction", army=order[0], engage=list(engage))
    return state


# --- damage and conditions (§0.3, §9)--------------------------------------------------------------


@pytest.mark.parametrize(("flat", "shaken"), [(10, 2), (11, 1)])
def test_shaken_army_makes_a_dc_11_flat_check_when_damaged(flat, shaken):
    """§9 Shaken: whenever it takes damage, DC 11 flat check or shaken +1."""
    state = fight([army("a1")], [army("b1", conditions={"shaken": 1}), army("b2")], ["b1"])
    state, events, dice = run(state, "battle", [7, flat], target="b1", weapon="melee")
    check = event(events, "battle.shaken_flat_check").params["check"]
    assert (check["die"], check["dc"], check["stat"]) == (flat, 11, "flat")
    assert conditions(state, "b1")["shaken"] == shaken
    assert [roll.purpose for roll in dice.log] == ["battle", "shaken_damaged"]


def test_shaken_4_routs():
    """§9 Shaken: at shaken 4 the army is routed."""
    state = fight([army("a1")], [army("b1", conditions={"shaken": 3}), army("b2")], ["b1"])
    state, events, _ = run(state, "battle", [7, 2], target="b1", weapon="melee")
    assert conditions(state, "b1") == {"shaken": 4, "routed": 1}
    assert state.army("b1").routed and "army.routed_gained" in codes(events)


def test_mired_4_pins():
    """§9 Mired 4 -> pinned: no maneuver war actions; pinned -> outflanked (-2 AC)."""
    state = fight([army("a1", conditions={"mired": 4})], [army("b1")])
    assert rejected(state, "advance", target="b1") == ["battle.pinned"]
    keys = {spec.key for spec in SYSTEM.legal_actions(state, "a1")}
    assert keys == {"retreat", "end_turn"}  # Rally: nothing to rally from (§8.1)
    assert effective_block(state, "a1").ac.value == 19 - 2


def test_zero_hp_defeats_and_further_damage_needs_a_dc_16_flat_check():
    """§0.3: HP never below 0; at 0 defeated. §9 Defeated: damaged again -> DC 16 flat
    check or destroyed. A just-defeated army makes no shaken check."""
    theirs = [army("b1", hp=1, conditions={"shaken": 1}), army("b2")]
    state = fight([army("a1")], theirs, ["b1"])
    state, events, _ = run(state, "battle", [17], target="b1", weapon="melee")  # crit: 2
    assert state.army("b1").hp == 0 and state.army("b1").defeated
    assert event(events, "battle.damaged").params == {
        "army": "b1", "by": 1, "now": 0, "reason": "battle",
    }  # fmt: skip
    assert "battle.shaken_flat_check" not in codes(events)
    assert {"target": "b1", "weapon": "melee"} in options(state, "battle")
    survived, events, _ = run(state, "battle", [17, 16], target="b1", weapon="melee")
    assert event(events, "battle.defeated_flat_check").params["check"]["dc"] == 16
    assert not survived.army("b1").destroyed
    destroyed, events, _ = run(state, "battle", [17, 15], target="b1", weapon="melee")
    assert destroyed.army("b1").destroyed and destroyed.engaged_with("a1") == ()
    assert "battle.destroyed" in codes(events)


def test_defeated_army_skips_its_turn():
    state = fight([army("a1"), army("a2", hp=0 + 1)], [army("b1")])
    state, _, _ = run(state, "gm_correction", army="a2", hp=0)
    state, events, _ = run(state, "end_turn")
    assert state.current == "b1"
    assert "battle.turn_skipped" in codes(events)


# --- rout checks (§7.3 step 3)---------------------------------------------------------------------


def end_round(state, dice):
    """End every remaining turn of the round; the last one rolls the rout checks."""
    while state.turn < len(state.order) - 1:
        state, _, _ = run(state, "end_turn")
    return run(state, "end_turn", dice)


@pytest.mark.parametrize(
    ("die", "degree", "shaken", "routed", "exempt"),
    [(20, "critical_success", 0, False, True), (16, "success", 0, False, False),
     (15, "failure", 1, False, False), (6, "critical_failure", 0, True, False)],
)  # fmt: skip
def test_rout_check_at_end_of_round(die, degree, shaken, routed, exempt):
    """HP 2 <= RT 2: Morale +12 vs the highest enemy Morale DC (siege level 7: 18 + 10 =
    28, not the infantry's 22). CS no more rout checks; S nothing; F shaken +1; CF routed."""
    state = fight([army("a1", hp=2), army("a2")], [army("b1"), army("s1", SIE, 7)])
    state, events, _ = end_round(state, [die])
    check = event(events, "battle.rout_check").params["check"]
    assert (check["modifier"], check["dc"], check["degree"], check["against"]) == (
        12, 28, degree, "s1",
    )  # fmt: skip
    assert conditions(state, "a1").get("shaken", 0) == shaken
    assert state.army("a1").routed is routed
    assert state.army("a1").rout_exempt is exempt
    assert state.round == 2
    if exempt:
        state, events, _ = end_round(state, [])
        assert "battle.rout_check" not in codes(events)


def test_rout_check_bonuses_do_not_stack():
    """§6.1 Hold the Line (+1 status vs rout, RT = 1/4 max HP rounded up) and §7.7 PCs
    alongside (+1 status): both status bonuses, only one counts."""
    ours = [army("a1", hp=1, tactics=("hold_the_line",), pcs=True), army("a2")]
    state = fight(ours, [army("b1")])
    assert effective_block(state, "a1").rout_threshold.value == 1
    state, events, _ = end_round(state, [10])
    check = event(events, "battle.rout_check").params["check"]
    assert check["modifier"] == 13


def test_armies_above_rt_make_no_rout_check():
    state, events, _ = end_round(fight([army("a1", hp=3)], [army("b1")]), [])
    assert "battle.rout_check" not in codes(events)
    assert codes(events)[-2:] == ["battle.round_started", "battle.turn_started"]


# --- victory and defeat (§7.3 step 5, §7.6)--------------------------------------------------------


def test_victory_when_every_enemy_army_is_defeated():
    """All armies of a side defeated: the other side wins and those armies are destroyed
    (§9 Defeated). Kingdom XP per defeated enemy army (§7.6: level 3 vs kingdom 3: 40)."""
    state = fight([army("a1")], [army("b1", hp=1)], ["b1"])
    state, events, _ = run(state, "battle", [7], target="b1", weapon="melee")
    assert state.finished and state.winner == "k"
    assert state.army("b1").destroyed
    assert "battle.finished" in codes(events)
    result = SYSTEM.outcome(state)
    assert result.winner == "k" and result.losers == ("e",)
    checks = result.details["kingdom_checks"]
    assert (checks["k"]["result"], checks["k"]["skill"]) == ("victory", "warfare")
    assert (checks["e"]["result"], checks["e"]["skill"]) == ("defeat", "defense")
    assert checks["k"]["effects"]["critical_success"][0] == {
        "code": "damaged_armies_regain_hp", "hp": 1,
    }  # fmt: skip
    assert checks["e"]["effects"]["critical_failure"][1] == {"code": "unrest_roll", "dice": "1d4"}
    assert result.details["xp"]["k"] == {
        "kingdom_level": 3, "armies": [{"army": "b1", "level": 3, "xp": 40}], "total": 40,
    }  # fmt: skip
    assert result.details["xp"]["e"]["total"] == 0
    assert rejected(state, "end_turn", actor="a1") == ["battle.finished"]


def test_victory_when_the_enemy_is_routed_and_routed_becomes_shaken():
    """§7.3 step 5: routed counts as beaten; routed ends with the encounter, shaken +1.
    Shots refill after the encounter (§1.1)."""
    ours = [army("s1", SIE, 7)]
    state = fight(ours, [army("b1", conditions={"shaken": 3})])
    state, events, _ = run(state, "battle", [10, 5], target="b1", weapon="ranged")
    assert state.finished and state.winner == "k"
    assert conditions(state, "b1") == {"shaken": 5}
    assert not state.army("b1").destroyed
    assert state.army("s1").shots == 5
    assert SYSTEM.outcome(state).details["xp"]["k"]["armies"] == []


def test_outcome_is_none_while_the_battle_runs():
    assert SYSTEM.outcome(fight([army("a1")], [army("b1")])) is None


def test_higher_level_enemy_gives_more_xp():
    """§7.6: XP by (army level - kingdom level): +2 -> 80."""
    state = fight([army("a1", level=5)], [army("b1", level=5, hp=1)], ["b1"])
    state, _, _ = run(state, "battle", [7], target="b1", weapon="melee")
    assert SYSTEM.outcome(state).details["xp"]["k"]["total"] == 80


# --- GM corrections--------------------------------------------------------------------------------


def test_gm_correction_is_an_event():
    state = fight([army("a1")], [army("b1"), army("b2")])
    state, events, _ = run(
        state, "gm_correction", army="b1", hp=2, conditions={"weary": 1}, position="distant"
    )
    params = event(events, "battle.gm_correction").params
    assert params["before"]["hp"] == 4 and params["after"]["hp"] == 2
    assert params["after"]["conditions"] == {"weary": 1}
    assert state.army("b1").position == "distant"
    assert rejected(state, "gm_correction", army="b1", hp=9) == ["battle.gm.bad_hp"]
    assert rejected(state, "gm_correction", army="zz", hp=1) == ["battle.gm.unknown_army"]
    assert rejected(state, "gm_correction", army="b1", conditions={"fear": 1}) == [
        "battle.gm.unknown_condition"
    ]
    assert rejected(state, "gm_correction", army="b1") == ["battle.gm.nothing_to_change"]


def test_gm_can_end_the_battle():
    state = fight([army("a1")], [army("b1")])
    state, events, _ = run(state, "gm_correction", army="b1", hp=0)
    assert state.finished and state.winner == "k"
