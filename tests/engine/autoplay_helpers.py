"""Checks shared by the auto-play policy tests of every rule system (issue 14): the policy's
suggestion for every actor the board waits for is accepted by `apply`, and auto-play from a
state ends the battle within a bound and replays to the same state."""

from warfare.engine.battle.autoplay import play_out
from warfare.engine.battle.protocol import Rejected, command_dice, replay


def assert_suggestions_accepted(system, state, seed=0, position=0):
    """`suggest` for each awaited actor gives a command `apply` accepts (protocol)."""
    waiting = system.awaiting(state)
    if system.outcome(state) is None:
        assert waiting, "a running battle waits for somebody"
    for entry in waiting:
        command = system.suggest(state, entry.actor)
        result = system.apply(state, command, command_dice(seed, position, None))
        assert not isinstance(result, Rejected), (entry, command, result.problems)


def assert_autoplay_ends_and_replays(system, setup, seed, commands, state, max_rounds):
    """From `state` (after `commands`), auto-play both sides to the end: the battle ends
    within `max_rounds` more rounds, and setup + seed + every command replays to it."""
    start_round = system.clock(state)[0]
    final, played = play_out(
        system, state, lambda p: command_dice(seed, p), position=len(commands),
        max_rounds=max_rounds,
    )  # fmt: skip
    assert system.outcome(final) is not None, f"not over after {max_rounds} rounds"
    assert system.clock(final)[0] - start_round <= max_rounds
    replayed, _ = replay(system, setup, seed, [*commands, *played])
    assert replayed.to_dict() == final.to_dict()
    return final, played
