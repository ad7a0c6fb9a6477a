"""The Pathfinder forecast's lean play-out (`pf2e/battle/simulation.py`, issue 14) reaches the
very state the forecast's generic loop reaches (`awaiting`, `suggest`, `apply` with
`SimulationDice`: every command checked, every die logged, every event made), from the
start of the bench battle and of random set-ups (reactions offered or automatic, starting
positions to choose, terrain, a fortification) and from states of random legal play, and
the forecast uses it.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.scenarios import pf2e_three_vs_three
from tests.engine.battle.test_pf2e_properties import _legal_command, battles
from tests.engine.lean_checks import both, generic
from warfare.engine.battle import forecast
from warfare.engine.battle.protocol import Rejected, command_dice
from warfare.engine.systems.pf2e.battle import SYSTEM
from warfare.engine.systems.pf2e.battle.policy import suggest
from warfare.engine.systems.pf2e.battle.rules import QUIET
from warfare.engine.systems.pf2e.battle.simulation import play_out

FULL = generic(SYSTEM)


def _both(state, seed, max_rounds=forecast.MAX_ROUNDS):
    return both(SYSTEM, state, seed, max_rounds)


def test_the_lean_play_out_reaches_the_full_engines_last_state_for_many_seeds():
    data = pf2e_three_vs_three()
    for seed in range(40):
        start = SYSTEM.start(data, seed)
        lean, full = _both(start, forecast.simulation_seed(seed, 1))
        assert lean == full, seed
        assert lean.to_dict() == full.to_dict()
        assert lean.finished or lean.round - start.round >= forecast.MAX_ROUNDS


def test_the_lean_play_out_stops_after_max_rounds_as_the_forecast_does():
    data = pf2e_three_vs_three()
    for seed in range(5):
        lean, full = _both(SYSTEM.start(data, seed), seed, max_rounds=2)
        assert lean == full and lean.round <= 3
        assert not lean.finished or lean.round <= 2


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), battle=battles(), seed=st.integers(0, 2**31), play=st.integers(0, 2**31))
def test_from_random_set_ups_and_states_the_lean_play_out_is_the_full_engines(
    data, battle, seed, play
):
    """From the start or a state of random legal play (a reaction offered, a start to
    choose, a turn half done), the same last state with the same dice."""
    state = SYSTEM.start(battle, seed)
    for index in range(data.draw(st.integers(0, 12))):
        if state.finished:
            break
        command = _legal_command(data.draw, state)
        result = SYSTEM.apply(state, command, command_dice(seed, index, command.typed_dice))
        assert not isinstance(result, Rejected), (command, result.problems)
        state = result[0]
    lean, full = _both(state, play, max_rounds=20)
    assert lean == full
    assert lean.to_dict() == full.to_dict()


def test_the_forecast_plays_with_the_lean_play_out_and_gives_the_full_engines_odds():
    data = pf2e_three_vs_three()
    assert SYSTEM.play_out is play_out
    lean = forecast.forecast(SYSTEM, setup=data, simulations=12, seed=4)
    full = forecast.forecast(FULL, setup=data, simulations=12, seed=4)
    assert lean.to_dict() == full.to_dict()


def test_a_simulated_battle_makes_no_events_and_a_played_one_the_same_as_before():
    """The lean play-out's commands make no events (`rules.QUIET` stays empty); `apply`
    still logs every check with its record (`rules.Rolled` builds it when the event is)."""
    data = pf2e_three_vs_three()
    state = SYSTEM.start(data, 3)
    lean, full = _both(state, 5)
    assert lean == full and len(QUIET) == 0
    command = suggest(state, state.to_act)
    result = SYSTEM.apply(state, command, command_dice(3, 0))
    assert not isinstance(result, Rejected)
    checks = [e.params["check"] for e in result[1] if "check" in e.params]
    assert checks, command
    for check in checks:
        assert {"die", "modifier", "dc", "total", "degree", "modifier_breakdown"} <= set(check)
        assert check["total"] == check["die"] + check["modifier"]
