"""The GURPS Mass Combat 4e auto-play policy (issue 14; `gurps4e/battle/policy.py`).

Property: from random reachable states (random forces, PCs, recon or set-piece battles,
random legal commands), every awaited commander's and PC's suggestion is accepted by `apply`,
and auto-play from there ends the battle within a bounded number of rounds and replays to the
same state. Then the choices the policy documents, on exact states.
"""

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.autoplay_helpers import (
    assert_autoplay_ends_and_replays,
    assert_suggestions_accepted,
)
from tests.engine.gurps4e.helpers import force_data, row
from tests.engine.gurps4e.test_properties import _legal_command, setups
from warfare.engine.battle.protocol import Command, Rejected, command_dice
from warfare.engine.systems.gurps4e.battle import SYSTEM, policy


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.integers(0, 2**32), st.data())
def test_suggestions_are_legal_and_autoplay_ends_and_replays(setup, seed, data):
    state = SYSTEM.start(setup, seed)
    commands = []
    for _ in range(data.draw(st.integers(0, 20))):
        if state.finished:
            break
        assert_suggestions_accepted(SYSTEM, state, seed, len(commands))
        command = _legal_command(data.draw, state)
        if command is None:
            break
        result = SYSTEM.apply(state, command, command_dice(seed, len(commands), command.typed_dice))
        assert not isinstance(result, Rejected), (command, result.problems)
        state, _ = result
        commands.append(command)
    assert_autoplay_ends_and_replays(SYSTEM, setup, seed, commands, state, max_rounds=40)


def _setup(a_rows, b_rows, **extra):
    return {
        "terrain": "plains", "kind": "pitched", "initiative": "a",
        "sides": {"a": {"force": force_data(*a_rows), "pcs": []},
                  "b": {"force": force_data(*b_rows), "pcs": []}},
        **extra,
    }  # fmt: skip


def test_the_strategy_chosen_has_the_best_expected_value_against_the_enemys_options():
    """§A.6.4: the chosen strategy maximises the average expected value of the round over the
    enemy's fighting strategies, computed from the exact 3d6 contest odds."""
    state = SYSTEM.start(_setup([row("hi", 4, 8)], [row("hi", 4, 8)]), 1)
    command = SYSTEM.suggest(state, "a")
    assert command.kind == "choose_strategy"
    skills = policy._Skills(state)
    own = [o for o in policy._options(state, 0) if o[0] not in ("full_retreat", "rally")]
    theirs = policy._enemy_options(state, 0)

    def mean(option):
        return sum(skills.value(0, option, other, 0) for other in theirs) / len(theirs)

    best = max(mean(o) for o in own)
    chosen = (command.params["strategy"], command.params["desperate"])
    assert abs(mean(chosen) - best) < 1e-9
    assert chosen[0] != "parley"


def test_a_much_stronger_force_chooses_an_attack_strategy():
    """Relative TS (§A.5.2) in the BSM: the stronger side picks an Attack-group strategy."""
    state = SYSTEM.start(_setup([row("hi", 4, 12)], [row("hi", 4, 2)]), 1)
    strong = SYSTEM.suggest(state, "a").params["strategy"]
    assert strong in ("attack", "all_out_attack", "deliberate_attack", "indirect_attack")


def test_a_confused_force_rallies_and_one_far_behind_retreats():
    """§A.6.3: a confused force may only Rally or take Full Retreat: it Rallies; a force
    with casualties ≥ 50 % and 30 points above the enemy's takes Full Retreat."""
    state = SYSTEM.start(_setup([row("hi", 4, 8)], [row("hi", 4, 8)]), 1)
    confused = state.with_side(0, replace(state.sides[0], confused=True))
    assert SYSTEM.suggest(confused, "a").params["strategy"] == "rally"
    behind = state.with_side(0, replace(state.sides[0], casualties=60))
    assert SYSTEM.suggest(behind, "a").params["strategy"] == "full_retreat"


def test_the_secret_choice_of_the_enemy_is_not_read():
    """The other side's pending strategy is secret (engine docstring): the suggestion is the
    same whatever it chose."""
    state = SYSTEM.start(_setup([row("hi", 4, 8)], [row("hi", 4, 8)]), 1)
    first = SYSTEM.suggest(state, "a")
    for strategy in ("all_out_attack", "defense", "full_retreat"):
        after, _ = SYSTEM.apply(state, Command("b", "choose_strategy", {"strategy": strategy}),
                                command_dice(1, 0))  # fmt: skip
        assert SYSTEM.suggest(after, "a") == first


def test_a_pc_chooses_a_risk_in_range():
    """§A.6.2: a PC's suggestion is a Risk choice or a significant action within -3..+3."""
    data = _setup([row("hi", 4, 8)], [row("hi", 4, 8)])
    data["sides"]["a"]["pcs"] = [{"key": "ann", "hp": 12, "element": "hi", "skill_15": True,
                                  "commands_element": True}]  # fmt: skip
    state = SYSTEM.start(data, 1)
    assert {w.actor for w in SYSTEM.awaiting(state)} == {"a", "b", "ann"}
    command = SYSTEM.suggest(state, "ann")
    assert command.kind in ("choose_risk", "significant_action")
    assert -3 <= command.params["risk"] <= 3
