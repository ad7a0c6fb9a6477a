"""The GURPS 3e forecast's lean play-out (`gurps3e/battle/simulation.py`, issue 14) reaches
the very state the forecast's generic loop reaches (`awaiting`, `suggest`, `apply` with
`SimulationDice`: every command checked, every die logged, every event made), from the
start of the demo battle and of random battles (PCs with limits and Luck, defensive
positions, GM-entered casualties, extended battles), and from random states of random legal
play; and the forecast uses it.
"""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.gurps3e.test_g3_properties import _next_command, setups
from tests.engine.lean_checks import both, demo_setup, generic
from warfare.engine.battle import forecast
from warfare.engine.battle.protocol import Rejected, command_dice
from warfare.engine.systems.gurps3e.battle import SYSTEM
from warfare.engine.systems.gurps3e.battle.simulation import play_out

FULL = generic(SYSTEM)
DEMO = demo_setup("gurps3e")


def _both(state, seed, max_rounds=forecast.MAX_ROUNDS):
    return both(SYSTEM, state, seed, max_rounds)


def test_the_lean_play_out_reaches_the_full_engines_last_state_for_many_seeds():
    for seed in range(60):
        start = SYSTEM.start(DEMO, seed)
        lean, full = _both(start, forecast.simulation_seed(seed, 1))
        assert lean == full, seed
        assert lean.to_dict() == full.to_dict()
        assert SYSTEM.outcome(lean) is not None


def test_the_lean_play_out_stops_after_max_rounds_as_the_forecast_does():
    data = {**DEMO, "days": 5}
    for seed in range(5):
        lean, full = _both(SYSTEM.start(data, seed), seed, max_rounds=1)
        assert lean == full and lean.day <= 2


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=setups(), seed=st.integers(0, 2**32), script=st.data())
def test_from_random_states_the_lean_play_out_is_the_full_engines(data, seed, script):
    """From the start of a random battle or after random legal commands (Risks half
    chosen, a commander committed, casualties to enter, GM modifiers): the same last state
    with the same dice."""
    state = SYSTEM.start(data, seed)
    for index in range(script.draw(st.integers(0, 10))):
        command = _next_command(script.draw, state)
        if command is None:
            break
        result = SYSTEM.apply(state, command, command_dice(seed, index))
        assert not isinstance(result, Rejected)
        state = result[0]
    lean, full = _both(state, seed)
    assert lean == full
    assert lean.to_dict() == full.to_dict()


def test_start_is_worked_out_once_per_set_up_and_still_checks_it():
    first, second = SYSTEM.start(DEMO, 1), SYSTEM.start(json.loads(json.dumps(DEMO)), 2)
    assert first == second and first.to_dict() == second.to_dict()


def test_the_forecast_plays_with_the_lean_play_out_and_gives_the_full_engines_odds():
    assert SYSTEM.play_out is play_out
    lean = forecast.forecast(SYSTEM, setup=DEMO, simulations=40, seed=4)
    full = forecast.forecast(FULL, setup=DEMO, simulations=40, seed=4)
    assert lean.to_dict() == full.to_dict()
