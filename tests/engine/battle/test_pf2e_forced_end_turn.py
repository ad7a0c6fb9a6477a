"""The end of a turn the board takes by itself (issue 14 "Fewer clicks"): an army has three
actions a turn (pf2e §0.5); once they are spent, or it can no longer act, "end_turn" is the
only command anybody could send for it, so the engine names it (`forced`) and the battle
service applies it as an ordinary command. Never while a reaction waits for its answer."""

from dataclasses import replace

from tests.engine.battle.helpers import army, begin, codes, run, setup
from warfare.engine.battle.protocol import Command, command_dice, forced_commands, replay
from warfare.engine.systems.pf2e.battle import SYSTEM
from warfare.engine.systems.pf2e.battle.engine import forced

SEED = 7


def _guard(state, index):
    """§8.1 Guard (1 action) against the enemy, with the dice of command `index`."""
    enemy = next(e.key for e in state.enemies(state.current))
    command = Command(state.current, "guard", {"target": enemy})
    state, _events = SYSTEM.apply(state, command, command_dice(SEED, index))
    return state, command


def test_nothing_is_forced_while_the_army_has_actions_left():
    """§0.5: three actions a turn; the end of the turn is forced after the third."""
    state = begin([army("a1")], [army("b1")], order=["a1", "b1"])
    for index, left in enumerate((3, 2, 1)):
        assert state.actions_left == left and forced(state) is None
        state, _command = _guard(state, index)
    assert state.actions_left == 0 and state.current == "a1"
    assert forced(state) == Command("a1", "end_turn")


def test_the_forced_end_of_turn_is_an_ordinary_command_that_replays():
    """After the third action the turn passes on (`forced_commands`, with the dice of the
    next position); the commands as stored (three actions and the end of turn) replay to
    the same state."""
    data = setup([army("a1")], [army("b1")])
    state = SYSTEM.start(data, SEED)
    first = state.current
    commands = []
    for index in range(3):
        state, command = _guard(state, index)
        commands.append(command)
    steps = list(forced_commands(SYSTEM, state, SEED, len(commands)))
    assert [command for command, _state, _events in steps] == [Command(first, "end_turn")]
    _command, after, events = steps[0]
    assert "battle.turn_ended" in codes(events) and after.current != first
    assert forced(after) is None  # the next army has its three actions
    replayed, _events = replay(SYSTEM, data, SEED, [*commands, Command(first, "end_turn")])
    assert replayed == after


def test_nothing_is_forced_while_a_reaction_waits():
    """§8.2 Counterattack offered to a side that is asked: the acting army's last action is
    spent, but the reacting army answers first."""
    state = begin([army("a1", level=5, tactics=("flexible_tactics",))], [army("b1")],
                  order=["b1", "a1"])  # fmt: skip
    state, _, _ = run(state, "gm_correction", army="a1", engage=["b1"])
    state = state.with_army(replace(state.army("a1"), auto_reactions=False))
    state = replace(state, actions_left=1)
    state, events, _ = run(state, "guard", [], target="a1")
    assert codes(events)[-1] == "battle.reaction_offered"
    assert state.actions_left == 0 and state.pending is not None
    assert forced(state) is None


def test_an_army_that_can_no_longer_act_ends_its_turn():
    """An army defeated in its own turn (here set to HP 0 by the GM) has nothing left to do;
    its side still has another army, so the battle goes on."""
    state = begin([army("a1"), army("a2")], [army("b1")], order=["a1", "a2", "b1"])
    assert forced(state) is None
    state, _, _ = run(state, "gm_correction", army="a1", hp=0)
    assert not state.finished and state.current == "a1"
    assert forced(state) == Command("a1", "end_turn")


def test_the_gurps_systems_force_nothing():
    from warfare.engine.battle.registry import get_battle_system

    for key in ("gurps4e", "gurps3e"):
        assert get_battle_system(key).forced(object()) is None
