"""The D&D 5e forecast's lean play-out (the protocol's optional `play_out`, issue 14).

`play_out(state, rng, max_rounds)` plays a battle to its end with every unit, solo and GM
step auto-played, exactly as the forecast's generic loop does (`forecast._play_out`: the
policy's command for the first awaited actor, `apply` with dice drawn from `rng`), and
returns the same last state, with less work per command:

* the policy's command is resolved without being checked against the listed options
  (`apply`'s `_kind` / `_listed_option`): the policy proposes only legal commands (the
  hypothesis test of `test_dnd5e_policy` holds every suggestion to `apply`'s check, and
  `test_dnd5e_simulation` holds this loop to the generic one);
* its dice (`LeanDice`) draw what `SimulationDice` draws, one `rng.random()` per die in the
  same order, without a log of `Roll`s (nobody reads it: no events are stored, no die was
  typed in);
* who acts next is read from the state (`awaiting`'s first actor) without building the
  `Waiting` tuples, and the end of the battle from its phase (`outcome`);
* no events are made: the command's `Ctx` (one for the battle) has the `actions.QUIET` sink,
  which keeps nothing, and the hot sites (an attack's rolls, damage to a stand, a move, the
  action, a turn's end and start, the end of the round) do not build them;
* the sequence number is set in the command's new state instead of copying it once more;
* the cyclic garbage collector waits until the battle is over (see `play_out`).
"""

import random
from typing import Any

from warfare.engine.battle.lean import NOBODY, play
from warfare.engine.battle.protocol import Command
from warfare.engine.frozen import replace
from warfare.engine.systems.dnd5e.battle.actions import QUIET, Ctx
from warfare.engine.systems.dnd5e.battle.engine import _dispatch, _gm, awaiting
from warfare.engine.systems.dnd5e.battle.policy import suggest
from warfare.engine.systems.dnd5e.state import ENDED, ROUND, BattleState


def _actor(state: BattleState) -> tuple[bool, str | None]:
    """(anybody awaited, the first awaited actor): `awaiting(state)[0]`, the acting unit or
    solo read directly in a round."""
    if state.phase == ROUND and state.turn is not None:
        return True, state.turn.actor
    waiting = awaiting(state)
    return (True, waiting[0].actor) if waiting else (False, None)


def apply_suggested(state: BattleState, command: Command, dice: Any) -> BattleState:
    """`apply(state, command, dice)[0]` for a command of the policy (legal by construction)."""
    if command.actor is None:
        result = _gm(state, command, dice)
        if not isinstance(result, tuple):
            raise ValueError(f"dnd5e: the GM's {command.kind} was rejected")
        return result[0]
    params = dict(command.params)
    ctx = _CTX[0]
    if ctx is None or ctx.dice is not dice:
        ctx = _CTX[0] = Ctx(dice, QUIET)  # one for the battle: it keeps no events
    new = _dispatch(state, str(command.actor), command.kind, params, ctx)
    if new is state:
        return replace(new, sequence=new.sequence + 1)
    # `replace(new, sequence=…)` without a second copy: `new` is this command's own copy
    # (the resolutions make new states, they never hand out a kept one), nobody has seen it
    # yet, and nothing kept for it reads the sequence.
    object.__setattr__(new, "sequence", new.sequence + 1)
    return new


_CTX: list[Ctx | None] = [None]
"""The `Ctx` of the battle being played (its dice, no events)."""


def play_out(state: BattleState, rng: random.Random, max_rounds: int) -> BattleState:
    """The last state of the battle played on from `state` by the policies (see the module
    docstring), stopping `max_rounds` rounds after the first as the forecast does."""
    return play(state, rng, max_rounds, next_actor=_next_actor, step=_step)


def _next_actor(state: BattleState) -> Any:
    if state.phase == ENDED and state.result is not None:
        return NOBODY
    anybody, actor = _actor(state)
    return actor if anybody else NOBODY


def _step(state: BattleState, actor: str | None, dice: Any) -> BattleState:
    return apply_suggested(state, suggest(state, actor), dice)
