"""The shared battle protocol (DESIGN.md "Rule-system protocol"): commands as data, dice
derived from the seed and the command index, replay and undo, the registry."""

import hashlib
import json

import pytest

from tests.engine.battle.helpers import army, setup
from warfare.engine.battle.protocol import (
    Command,
    ReplayError,
    SetupError,
    command_dice,
    derive_seed,
    replay,
    start_dice,
    undo,
)
from warfare.engine.battle.registry import BATTLE_SYSTEMS, get_battle_system
from warfare.engine.dice import DieOutOfRange
from warfare.engine.systems.pf2e.battle import SYSTEM


def test_registry_has_every_rule_system():
    from warfare.engine.systems.dnd5e.battle import SYSTEM as DND5E
    from warfare.engine.systems.gurps3e.battle import SYSTEM as GURPS3E
    from warfare.engine.systems.gurps4e.battle import SYSTEM as GURPS4E

    assert get_battle_system("pf2e") is SYSTEM
    assert get_battle_system("gurps4e") is GURPS4E
    assert get_battle_system("gurps3e") is GURPS3E
    assert get_battle_system("dnd5e") is DND5E
    # The project's four; the test settings add the toy system (tests/toysystem) beside them.
    assert set(BATTLE_SYSTEMS) - {"toy"} == {"pf2e", "gurps4e", "gurps3e", "dnd5e"}
    with pytest.raises(KeyError):
        get_battle_system("no-such-system")


def test_command_round_trips_through_json():
    command = Command("a1", "battle", {"target": "b1", "weapon": "melee"}, (17,))
    data = json.loads(json.dumps(command.to_dict()))
    assert Command.from_dict(data) == command
    assert Command.from_dict({"actor": None, "kind": "end_turn"}).typed_dice is None


def test_seed_derivation_is_sha256_of_seed_and_index():
    expected = int(hashlib.sha256(b"42:3").hexdigest()[:15], 16)
    assert derive_seed(42, 3) == expected
    three, again, four = command_dice(42, 3), command_dice(42, 3), command_dice(42, 4)
    rolls = [three.d20() for _ in range(8)]
    assert rolls == [again.d20() for _ in range(8)]
    assert rolls != [four.d20() for _ in range(8)]
    assert start_dice(42).log == []


def test_typed_dice_come_first_then_seeded():
    dice = command_dice(5, 0, [17])
    assert dice.d20(purpose="a") == 17
    second = dice.d20(purpose="b")
    assert [roll.source for roll in dice.log] == ["typed", "seeded"]
    assert second == command_dice(5, 0).d20()  # the seeded stream is unchanged by typed dice
    with pytest.raises(DieOutOfRange):
        command_dice(5, 0, [21]).d20()


def _battle():
    data = setup([army("a1"), army("a2")], [army("b1"), army("b2")])
    state = SYSTEM.start(data, 99)
    commands = []
    for _ in range(12):
        spec = next(s for s in SYSTEM.legal_actions(state, state.current) if s.key != "rally")
        command = spec.commands(state.current)[0]
        state, _ = SYSTEM.apply(state, command, command_dice(99, len(commands)))
        commands.append(command)
        if state.finished:
            break
    return data, state, commands


def test_replay_gives_the_same_state_and_undo_drops_the_last_command():
    data, state, commands = _battle()
    again, events = replay(SYSTEM, data, 99, commands)
    assert again.to_dict() == state.to_dict()
    assert events[0].code == "battle.started"
    json.dumps([event.to_dict() for event in events])
    before, _ = replay(SYSTEM, data, 99, commands[:-1])
    undone, _, remaining = undo(SYSTEM, data, 99, commands)
    assert undone.to_dict() == before.to_dict()
    assert remaining == commands[:-1]
    # The snapshot is plain JSON and loads back to the same state.
    snapshot = json.loads(json.dumps(state.to_dict()))
    assert SYSTEM.state_from_dict(snapshot) == state


def test_replay_of_a_bad_log_raises():
    data, _, commands = _battle()
    with pytest.raises(ReplayError) as error:
        replay(SYSTEM, data, 99, [Command("nobody", "advance", {"target": "b1"}), *commands])
    assert error.value.index == 0
    assert error.value.problems[0].code == "battle.not_your_turn"


def test_bad_setup_raises_with_problems():
    with pytest.raises(SetupError) as error:
        SYSTEM.start({"sides": []}, 1)
    assert [p.code for p in error.value.problems] == ["battle.setup.two_sides_needed"]
