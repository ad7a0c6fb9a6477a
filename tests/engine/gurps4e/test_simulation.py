"""The GURPS 4e forecast's lean play-out (`gurps4e/battle/simulation.py`, issue 14) reaches
the very state the forecast's generic loop reaches (`awaiting`, `suggest`, `apply` with
`SimulationDice`: every command checked, every die logged, every event made), from the
start of the demo battle and of random battles (PCs, PC commanders, recon, sieges), and
from random states of random legal play; and the forecast uses it.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.gurps4e.test_properties import _legal_command, setups
from tests.engine.lean_checks import both, demo_setup, generic
from warfare.engine.battle import forecast
from warfare.engine.battle.protocol import Rejected, command_dice
from warfare.engine.systems.gurps4e.battle import SYSTEM
from warfare.engine.systems.gurps4e.battle.simulation import play_out

FULL = generic(SYSTEM)
DEMO = demo_setup("gurps4e")


def _both(state, seed, max_rounds=forecast.MAX_ROUNDS):
    return both(SYSTEM, state, seed, max_rounds)


def test_the_lean_play_out_reaches_the_full_engines_last_state_for_many_seeds():
    """The demo battle (two forces, a PC on each side) from 60 seeds: the same last state."""
    for seed in range(60):
        start = SYSTEM.start(DEMO, seed)
        lean, full = _both(start, forecast.simulation_seed(seed, 1))
        assert lean == full, seed
        assert lean.to_dict() == full.to_dict()
        assert lean.finished or lean.round - start.round >= forecast.MAX_ROUNDS


def test_the_lean_play_out_stops_after_max_rounds_as_the_forecast_does():
    for seed in range(5):
        lean, full = _both(SYSTEM.start(DEMO, seed), seed, max_rounds=2)
        assert lean == full and lean.round <= 3


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), seed=st.integers(0, 2**32), data=st.data())
def test_from_random_states_the_lean_play_out_is_the_full_engines(setup, seed, data):
    """From the start of a random battle or after random legal commands (a choice half
    made, a Parley to answer, a change after the reveal, a pursuit to choose, GM commands):
    the same last state with the same dice."""
    state = SYSTEM.start(setup, seed)
    for index in range(data.draw(st.integers(0, 12))):
        command = _legal_command(data.draw, state)
        if command is None:
            break
        result = SYSTEM.apply(state, command, command_dice(seed, index, command.typed_dice))
        assert not isinstance(result, Rejected)
        state = result[0]
    lean, full = _both(state, seed)
    assert lean == full
    assert lean.to_dict() == full.to_dict()


def test_the_forecast_plays_with_the_lean_play_out_and_gives_the_full_engines_odds():
    assert SYSTEM.play_out is play_out
    lean = forecast.forecast(SYSTEM, setup=DEMO, simulations=30, seed=4)
    full = forecast.forecast(FULL, setup=DEMO, simulations=30, seed=4)
    assert lean.to_dict() == full.to_dict()
