"""Army-specific actions of unique tactics (pf2e §6.2): Trample (Nomen Scouts) and Trampling
Charge (Tusker Riders), at all four degrees, offered only to armies with the tactic.

Numbers: Nomen Scouts (§3.4, level 8): melee +20. Tusker Riders (§3.4, level 14): Maneuver
+22. Basic infantry (§1.2): level 8 AC 27, Maneuver +13 (DC 23); level 14 Maneuver +22
(DC 32); level 5 with Flexible Tactics: melee +15; all 4 HP.
"""

import pytest

from tests.engine.battle.helpers import (
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
from warfare.engine.systems.pf2e.activities.state import new_army_state
from warfare.engine.systems.pf2e.armies import new_specialized_spec
from warfare.engine.systems.pf2e.battle import SYSTEM


def specialized(key, kind):
    return {"army": new_army_state(key, new_specialized_spec(kind), "A1").to_dict()}


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
