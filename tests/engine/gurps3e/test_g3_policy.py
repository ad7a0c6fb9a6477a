"""The GURPS 3e auto-play policy (issue 14; `gurps3e/battle/policy.py`).

Property: from random reachable states (random forces, defensive positions, PCs with
limits, house or GM-entered casualties, extended battles; random legal commands), every
awaited PC's, commander's and the GM's suggestion is accepted by `apply`, and auto-play from
there ends the battle (within its days) and replays to the same state. Then the Risk choice,
on exact characters.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.autoplay_helpers import (
    assert_autoplay_ends_and_replays,
    assert_suggestions_accepted,
)
from tests.engine.gurps3e.helpers import setup, side
from tests.engine.gurps3e.test_g3_properties import _next_command, setups
from warfare.engine.battle.protocol import Rejected, command_dice
from warfare.engine.systems.gurps3e.battle import SYSTEM, policy


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=setups(), seed=st.integers(0, 2**32), script=st.data())
def test_suggestions_are_legal_and_autoplay_ends_and_replays(data, seed, script):
    state = SYSTEM.start(data, seed)
    commands = []
    for _ in range(script.draw(st.integers(0, 12))):
        if SYSTEM.outcome(state) is not None:
            break
        assert_suggestions_accepted(SYSTEM, state, seed, len(commands))
        command = _next_command(script.draw, state)
        result = SYSTEM.apply(state, command, command_dice(seed, len(commands)))
        assert not isinstance(result, Rejected), (command, result.problems)
        state, _ = result
        commands.append(command)
    final, _ = assert_autoplay_ends_and_replays(SYSTEM, data, seed, commands, state, 10)
    assert final.day <= data["days"]


def _battle(*pcs):
    return SYSTEM.start(setup(side("a", "attacker"), side("b", "defender"), pcs=list(pcs)), 1)


def test_commanders_commit_and_pcs_choose_a_risk_within_their_limits():
    """§B.4: a berserk character may not choose above 0, a coward not below -1."""
    state = _battle(
        {"key": "bers", "side": "a", "ht": 12, "tactics": 12, "weapon_skill": 12,
         "limits": ["berserk"]},
        {"key": "cow", "side": "b", "ht": 12, "tactics": 12, "weapon_skill": 12,
         "limits": ["coward"], "luck": 1},
    )  # fmt: skip
    assert SYSTEM.suggest(state, "a").kind == "commit"
    berserk, coward = SYSTEM.suggest(state, "bers"), SYSTEM.suggest(state, "cow")
    assert berserk.kind == coward.kind == "choose_risk"
    assert berserk.params["risk"] <= 0
    assert coward.params["risk"] >= -1
    assert coward.params["use_luck"] is True and "use_luck" not in berserk.params


def test_the_risk_chosen_has_the_best_expected_value():
    """The Risk maximises Glory's Strategy modifier and reputation minus the Survival
    roll's expected damage (§B.5, §B.6.1), worked out from the 3d6 odds."""
    state = _battle({"key": "lord", "side": "a", "ht": 12, "tactics": 14, "weapon_skill": 14,
                     "role": "army_commander"})  # fmt: skip
    chosen = SYSTEM.suggest(state, "lord").params["risk"]
    options = list(range(-6, 7))
    assert chosen == policy._risk(state, "lord", options)
    character = state.character("lord")
    skill = 14

    def value(risk):
        return policy._glory_value(skill - risk, character.role) - policy._harm(
            character, skill + risk, 3
        )

    assert value(chosen) == max(value(r) for r in options)


def test_the_gm_enters_house_casualties_when_the_battle_asks_for_them():
    """§B.8: with GM-entered casualties, the GM's suggestion fills every unit that fought."""
    data = setup(side("a", "attacker"), side("b", "defender"), casualties="gm")
    state = SYSTEM.start(data, 1)
    for actor in ("a", "b"):
        state, _ = SYSTEM.apply(state, SYSTEM.suggest(state, actor), command_dice(1, 0))
    assert state.phase == "casualties"
    assert [w.actor for w in SYSTEM.awaiting(state)] == [None]
    command = SYSTEM.suggest(state, None)
    assert command.kind == "gm_casualties"
    assert set(command.params["units"]) == set(state.pending["fought"])
