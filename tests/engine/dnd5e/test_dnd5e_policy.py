"""The D&D 5e auto-play policy (issue 14; `dnd5e/battle/policy.py`).

Property: from random reachable states (the engine property test's set-ups: regiments and
skirmishers, solos joined and alone, terrain, a siege engine and objectives; random legal
commands), the suggestion for every awaited unit, solo or the GM is accepted by `apply`, and
auto-play from there ends the battle within a bounded number of rounds and replays to the
same state. Then deployment, movement toward the enemy, unit integrity and attacks, on exact
states.
"""

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.autoplay_helpers import (
    assert_autoplay_ends_and_replays,
    assert_suggestions_accepted,
)
from tests.engine.dnd5e.helpers import begin, setup, unit
from tests.engine.dnd5e.test_dnd5e_properties import _actors, battles
from warfare.engine.battle.protocol import Command, Rejected, command_dice, replay
from warfare.engine.systems.dnd5e.battle import SYSTEM, policy
from warfare.engine.systems.dnd5e.rules import is_isolated, squares


def _random_command(draw, state):
    if state.phase == "draw":
        return Command(None, "declare_draw", {})
    actors = [a for a in _actors(state) if SYSTEM.legal_actions(state, a)]
    if not actors:
        return None
    actor = draw(st.sampled_from(actors))
    spec = draw(st.sampled_from(SYSTEM.legal_actions(state, actor)))
    return Command(actor, spec.key, draw(st.sampled_from(spec.options)).params)


def random_play(battle, data, most=25):
    """The states of a battle played on with random legal commands (at most `most`, drawn by
    Hypothesis), each as (position, state) before its command; stops at the outcome."""
    setup_, seed = battle
    state = SYSTEM.start(setup_, seed)
    for position in range(data.draw(st.integers(1, most))):
        if SYSTEM.outcome(state) is not None:
            return
        yield position, state
        command = _random_command(data.draw, state)
        if command is None:
            return
        result = SYSTEM.apply(state, command, command_dice(seed, position))
        assert not isinstance(result, Rejected), (command, result.problems)
        state, _ = result


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battle=battles(), data=st.data())
def test_suggestions_are_legal_and_autoplay_ends_and_replays(battle, data):
    setup_, seed = battle
    state = SYSTEM.start(setup_, seed)
    commands = []
    for _ in range(data.draw(st.integers(0, 30))):
        if SYSTEM.outcome(state) is not None:
            break
        assert_suggestions_accepted(SYSTEM, state, seed, len(commands))
        command = _random_command(data.draw, state)
        if command is None:
            break
        result = SYSTEM.apply(state, command, command_dice(seed, len(commands)))
        assert not isinstance(result, Rejected), (command, result.problems)
        state, _ = result
        commands.append(command)
    assert_autoplay_ends_and_replays(SYSTEM, setup_, seed, commands, state, max_rounds=40)


def test_deployment_places_every_piece_in_its_zone_then_the_gm_begins():
    """§5.1: pieces go to their side's zone, nearest the enemy; then "begin"."""
    data = setup([unit("a1", "orc", ())], [unit("b1", "orc", ())])
    data["sides"][0]["units"][0]["stands"] = 2
    data["sides"][1]["units"][0]["stands"] = 1
    data["sides"][0]["zone"], data["sides"][1]["zone"] = [0, 0, 2, 7], [9, 0, 11, 7]
    state = SYSTEM.start(data, 1)
    assert state.phase == "deploy"
    position = 0
    while state.phase == "deploy":
        waiting = SYSTEM.awaiting(state)
        command = SYSTEM.suggest(state, waiting[0].actor)
        state, _ = SYSTEM.apply(state, command, command_dice(1, position))
        position += 1
    assert state.phase == "round"
    a_stands = [s for s in state.stands if s.unit == "a1"]
    assert all(s.pos[0] == 2 for s in a_stands)  # the front of the zone, x0..x2
    assert not any(is_isolated(state, s.key) for s in a_stands)  # next to each other
    assert state.stand("b1.1").pos[0] == 9


def test_a_stand_moves_toward_the_nearest_enemy_and_then_attacks():
    """§5.3 move, §5.4 attack: the orc stands close in; adjacent, they attack."""
    data = setup([unit("a1", "orc", [(1, 3), (1, 4)])], [unit("b1", "orc", [(8, 3)])])
    state = begin(data, order=["a1", "b1"])
    command = SYSTEM.suggest(state, "a1")
    assert command.kind == "move"
    after, _ = SYSTEM.apply(state, command, command_dice(1, 0))
    moved = after.stand(command.params["piece"])
    before = state.stand(command.params["piece"])
    enemy = squares(state, "b1.1")
    distance = min(abs(x - ex) + abs(y - ey) for x, y in squares(after, moved.key)
                   for ex, ey in enemy)  # fmt: skip
    assert distance < abs(before.pos[0] - 8) + abs(before.pos[1] - 3)
    near = begin(setup([unit("a1", "orc", [(7, 3)])], [unit("b1", "orc", [(8, 3)])]),
                 order=["a1", "b1"])  # fmt: skip
    attack = SYSTEM.suggest(near, "a1")
    assert attack == Command("a1", "attack", {"piece": "a1.1", "attack": "greataxe",
                                              "target": "b1.1"})  # fmt: skip


def test_a_regiment_stand_keeps_next_to_its_unit():
    """§4.6: a regiment stand does not move off alone when it can stay next to the unit."""
    data = setup([unit("a1", "orc", [(1, 3), (1, 4), (1, 5)])], [unit("b1", "orc", [(10, 0)])])
    state = begin(data, order=["a1", "b1"])
    position = 0
    while True:
        command = SYSTEM.suggest(state, "a1")
        if command.kind != "move":
            break
        state, _ = SYSTEM.apply(state, command, command_dice(1, position))
        position += 1
    assert not any(is_isolated(state, s.key) for s in state.stands_of("a1"))


def _stalemate():
    """(setup, seed, commands, state) of a stalemate Hypothesis found (`stalemate.json`):
    the hobgoblins stand in Defend and never strike, the guards hit them only on a 20 with
    disadvantage."""
    data = json.loads((Path(__file__).parent / "stalemate.json").read_text())
    commands = [Command.from_dict(command) for command in data["commands"]]
    state, _events = replay(SYSTEM, data["setup"], data["seed"], commands)
    return data["setup"], data["seed"], commands, state


def test_a_battle_neither_side_can_win_is_called_off_and_ends():
    """From `STALEMATE_ROUND` on every unit Retreats (the policy module): auto-play ends."""
    final, _played = assert_autoplay_ends_and_replays(SYSTEM, *_stalemate(), max_rounds=40)
    assert final.round >= policy.STALEMATE_ROUND  # called off, not won by a lucky 20


def test_without_the_rule_the_stalemate_goes_on(monkeypatch):
    monkeypatch.setattr(policy, "STALEMATE_ROUND", 1_000)
    with pytest.raises(AssertionError, match="not over after 40 rounds"):
        assert_autoplay_ends_and_replays(SYSTEM, *_stalemate(), max_rounds=40)
