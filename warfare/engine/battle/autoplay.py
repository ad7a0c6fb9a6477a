"""Auto-play: a battle played on by the systems' policies, as ordinary commands.

`autoplay(system, state, dice_for_position, position=…, until=…, sides=…)` yields one
`Step` per command: the command the policy chose (`system.suggest`) for an actor the board
waits for (`system.awaiting`), the state after it and its events. Nothing else happens: a
caller stores each step's command like one a person sent, so the log shows every die, undo
takes the commands back one at a time and replay gives the same state.

Dice: `dice_for_position(position)` must give the dice of the command at that position of
the battle's command list, exactly as for a command sent by hand, i.e. for a stored battle
``lambda position: command_dice(seed, position)`` with `position` starting at the number of
live commands (`replay` then gives the same states). A forecast passes its own dice.

How far it goes (`until`):

* ``"turn"``: while the clock (`system.clock`: round and turn) has not moved: the acting
  army or unit's turn, or in a system whose sides choose together (GURPS) the round's
  choices of the sides played for;
* ``"round"``: while the round (the day for GURPS 3e) has not changed;
* ``"battle"``: until the battle is over, or `max_rounds` rounds after the first.

`sides`: the side keys it plays for (None: every side and the GM's steps, such as beginning a
deployed D&D 5e battle or entering GURPS 3e casualties, which it plays only then). It stops
as soon as the board waits only for actors it does not play for (a player's army, a
reaction their side answers), so "resolve the battle for one side" hands back to the other
side whenever it has to act. `max_commands` guards against a policy that never ends a turn.
"""

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import Any

from warfare.engine.battle.protocol import BattleSystem, Command, Rejected

UNTIL = ("turn", "round", "battle")
MAX_ROUNDS = 100
MAX_COMMANDS = 20_000


class PolicyError(RuntimeError):
    """A policy suggested a command its own engine rejected (a bug in the policy)."""

    def __init__(self, command: Command, problems: Any) -> None:
        codes = ", ".join(problem.code for problem in problems)
        super().__init__(f"{command.kind} for {command.actor!r} rejected: {codes}")
        self.command = command
        self.problems = tuple(problems)


@dataclass(frozen=True)
class Step:
    """One auto-played command: its `position` in the battle's command list, the `command`
    (store it like any other), the `state` after it and its `events`."""

    position: int
    command: Command
    state: Any
    events: list[Any]


def autoplay(
    system: BattleSystem,
    state: Any,
    dice_for_position: Callable[[int], Any],
    *,
    position: int = 0,
    until: str = "battle",
    sides: Collection[str] | None = None,
    plays: Callable[[Any], bool] | None = None,
    max_rounds: int = MAX_ROUNDS,
    max_commands: int = MAX_COMMANDS,
) -> Iterator[Step]:
    """Yield the policy's commands one by one from `state` (see the module docstring).

    `position`: the position of the next command (the number of live commands of a stored
    battle). `plays(waiting)`: whether it plays for that awaited actor, in place of `sides`
    (a player's auto-play plays only the actors they command). Raises `PolicyError` if the
    engine rejects a suggestion."""
    if until not in UNTIL:
        raise ValueError(f"until must be one of {UNTIL}, not {until!r}")
    if plays is None:
        plays = lambda waiting: _plays(waiting, sides)  # noqa: E731
    start = system.clock(state)
    for _ in range(max_commands):
        if system.outcome(state) is not None:
            return
        clock = system.clock(state)
        if until == "turn" and clock != start:
            return
        if until == "round" and clock[0] != start[0]:
            return
        if clock[0] - start[0] >= max_rounds:
            return
        actor = next((w.actor for w in system.awaiting(state) if plays(w)), _NOBODY)
        if actor is _NOBODY:
            return
        command = system.suggest(state, actor)
        result = system.apply(state, command, dice_for_position(position))
        if isinstance(result, Rejected):
            raise PolicyError(command, result.problems)
        state, events = result
        yield Step(position, command, state, events)
        position += 1


_NOBODY: Any = object()


def _plays(waiting: Any, sides: Collection[str] | None) -> bool:
    if sides is None:
        return True
    return waiting.actor is not None and waiting.side in sides


def play_out(
    system: BattleSystem,
    state: Any,
    dice_for_position: Callable[[int], Any],
    *,
    position: int = 0,
    until: str = "battle",
    sides: Collection[str] | None = None,
    max_rounds: int = MAX_ROUNDS,
) -> tuple[Any, list[Command]]:
    """Run `autoplay` to its end: (the last state, the commands played)."""
    commands = []
    for step in autoplay(
        system, state, dice_for_position, position=position, until=until, sides=sides,
        max_rounds=max_rounds,
    ):  # fmt: skip
        state = step.state
        commands.append(step.command)
    return state, commands
