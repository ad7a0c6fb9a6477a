"""The D&D 5e forecast's lean play-out (`dnd5e/battle/simulation.py`, issue 14) reaches the
very state the forecast's generic loop reaches (`awaiting`, `suggest`, `apply` with
`SimulationDice`: every command checked, every die logged, every event made), from the
start of many battles and from random states of random legal play, and the forecast uses it.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.dnd5e.helpers import setup, unit
from tests.engine.dnd5e.test_dnd5e_policy import random_play
from tests.engine.dnd5e.test_dnd5e_properties import battles
from tests.engine.lean_checks import both, generic
from warfare.engine.battle import forecast
from warfare.engine.dice import LeanDice
from warfare.engine.systems.dnd5e.battle import SYSTEM, policy
from warfare.engine.systems.dnd5e.battle.policy import suggest
from warfare.engine.systems.dnd5e.battle.simulation import _actor, apply_suggested, play_out

FULL = generic(SYSTEM)


def _both(state, seed, max_rounds=forecast.MAX_ROUNDS):
    return both(SYSTEM, state, seed, max_rounds)


def _mixed():
    """Regiments and skirmishers of several creatures, a joined commander, a spellcaster
    alone, a siege engine, objectives of every kind, and deployment to do (units without
    positions place themselves in their side's zone)."""
    data = setup(
        [unit("a1", "orc", [(1, 1), (1, 2), (2, 1)]),
         unit("a2", "scout", [(0, 5), (1, 6)], kind="skirmisher"),
         {**unit("a3", "guard"), "stands": 2}],
        [unit("b1", "goblin", [(9, 1), (9, 2)], kind="skirmisher"),
         unit("b2", "hobgoblin", [(10, 5), (10, 6), (9, 5)])],
        a_solos=[{"key": "sir", "creature": "knight", "pc": True, "joined": "a1.1",
                  "commander": True}],
        b_solos=[{"key": "wiz", "creature": "mage", "pos": [11, 7]}],
        objectives=[{"key": "tower", "type": "destruction", "side": "a",
                     "squares": [{"x": 8, "y": 3, "hp": 20, "vp": 3}]},
                    {"key": "hold", "type": "protection", "side": "b", "paired": "tower"},
                    {"key": "kill", "type": "attrition", "side": "a", "vp": 2}],
        engines=[{"key": "bal", "kind": "ballista", "side": "b", "pos": [10, 2],
                  "crew": "b2"}],
    )  # fmt: skip
    data["sides"][0]["zone"], data["sides"][1]["zone"] = [0, 0, 2, 7], [9, 0, 11, 7]
    return data


def test_the_lean_play_out_reaches_the_full_engines_last_state_for_many_seeds():
    data = _mixed()
    for seed in range(40):
        start = SYSTEM.start(data, seed)
        lean, full = _both(start, forecast.simulation_seed(seed, 1))
        assert lean == full, seed
        assert lean.to_dict() == full.to_dict()
        assert SYSTEM.outcome(lean) is not None or lean.round - start.round >= 50


def test_the_lean_play_out_stops_after_max_rounds_as_the_forecast_does():
    data = _mixed()
    for seed in range(5):
        lean, full = _both(SYSTEM.start(data, seed), seed, max_rounds=2)
        assert lean == full and lean.round <= 2


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battle=battles(), data=st.data(), seed=st.integers(0, 2**32))
def test_from_random_states_the_lean_play_out_is_the_full_engines(battle, data, seed):
    """From any state of random legal play (a turn half done, casualties to answer, a
    spellcaster, a crew at its engine), the same last state with the same dice."""
    states = [state for _, state in random_play(battle, data)]
    if not states:
        return
    state = states[-1]
    lean, full = _both(state, seed)
    assert lean == full
    assert lean.to_dict() == full.to_dict()


def test_the_forecast_plays_with_the_lean_play_out_and_gives_the_full_engines_odds():
    data = _mixed()
    assert SYSTEM.play_out is play_out
    lean = forecast.forecast(SYSTEM, setup=data, simulations=12, seed=4)
    full = forecast.forecast(FULL, setup=data, simulations=12, seed=4)
    assert lean.to_dict() == full.to_dict()


def _forget_the_policys_choices():
    for kept in (policy._ATTACKS, policy._CHOSEN, policy._UNIT_MOVES, policy._DASHES,
                 policy._IN_REACH, policy._MOVES, policy._FIELDS):  # fmt: skip
        kept.clear()


def _commands(state, seed, forget):
    """The policy's commands playing the battle on (lean), forgetting what it kept before
    each one if `forget`."""
    dice, commands = LeanDice(random.Random(seed)), []
    for _ in range(400):
        if state.phase == "ended" or SYSTEM.outcome(state) is not None:
            break
        anybody, actor = _actor(state)
        if not anybody:
            break
        if forget:
            _forget_the_policys_choices()
        command = suggest(state, actor)
        commands.append(command)
        state = apply_suggested(state, command, dice)
    return commands, state


def test_the_choices_the_policy_keeps_between_commands_and_battles_change_none():
    """Its choices kept per what they read (`_ATTACKS`, `_CHOSEN`, `_UNIT_MOVES`, `_DASHES`,
    `_IN_REACH`: warm from many battles of the same set-up) give the commands it works out
    afresh for every state."""
    data = _mixed()
    forecast.forecast(SYSTEM, setup=data, simulations=20, seed=9)  # warm
    for seed in range(12):
        start = SYSTEM.start(data, seed)
        warm, last = _commands(start, seed, forget=False)
        cold, cold_last = _commands(start, seed, forget=True)
        assert warm == cold, seed
        assert last == cold_last
        assert len(warm) > 20
