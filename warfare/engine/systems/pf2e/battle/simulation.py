"""The Pathfinder forecast's lean play-out (the protocol's optional `play_out`, issue 14).

`play_out(state, rng, max_rounds)` plays a battle to its end with every army auto-played,
exactly as the forecast's generic loop does (`forecast._play_out`: the policy's command for
the army awaited, `apply` with dice drawn from `rng`), and returns the same last state, with
less work per command:

* the policy's war action or end of turn is run (`engine._run`'s work) without being
  checked again (`apply`'s `_action_problems`): the policy proposes only legal commands
  (`test_pf2e_policy` holds every suggestion to `apply`'s check, and `test_pf2e_simulation`
  holds this loop to the generic one);
* its events are not made (`rules.QUIET`: the sites that make most of them skip it, the
  rest is dropped), nor the records of its checks (`rules.Rolled` builds one when read);
* its dice (`LeanDice`) draw what `SimulationDice` draws through `apply`'s `_ResumeDice`,
  one `rng.random()` per die in the same order, without a log of `Roll`s (nobody reads it:
  no events are stored, no die was typed in);
* a command that stops to offer a reaction (possible only while an army's side does not
  react automatically), an answer to one and a starting position go through `apply`
  itself, with the generator put back where it was before the lean try (the pending
  reaction records the command's rolls);
* the army awaited is read from the state (`awaiting`'s actor) and the end of the battle
  from `finished` (`outcome`);
* when every side reacts automatically, one `Ctx` serves the whole battle (reset as a new
  one would be) and the sequence number is set in the command's new state instead of
  copying it once more;
* the cyclic garbage collector waits until the battle is over (as in D&D 5e's).
"""

import random
from typing import Any

from warfare.engine.battle.autoplay import PolicyError
from warfare.engine.battle.lean import NOBODY, play
from warfare.engine.battle.protocol import Command, Rejected
from warfare.engine.dice import LeanDice, SeededDice
from warfare.engine.frozen import replace
from warfare.engine.systems.pf2e.battle.actions import Ctx
from warfare.engine.systems.pf2e.battle.engine import (
    END_TURN,
    _end_turn,
    _war_action,
    apply,
)
from warfare.engine.systems.pf2e.battle.policy import suggest, turn_command
from warfare.engine.systems.pf2e.battle.reactions import Decider, Offered
from warfare.engine.systems.pf2e.battle.rules import QUIET, REACTIONS
from warfare.engine.systems.pf2e.battle.state import BattleState


class _Dice(SeededDice):
    """`forecast.SimulationDice` (not imported: the engine does not import the forecast)."""

    def __init__(self, rng: random.Random) -> None:
        self.log = []
        self.seed = None
        self._rng = rng


def _full(state: BattleState, command: Command, rng: random.Random) -> BattleState:
    result = apply(state, command, _Dice(rng))
    if isinstance(result, Rejected):
        raise PolicyError(command, result.problems)
    return result[0]


def _lean(state: BattleState, command: Command, dice: LeanDice) -> BattleState:
    """`apply(state, command, dice)[0]` for the policy's war action or end of turn when no
    reaction is offered on the way (else `Offered` is raised)."""
    ctx = Ctx(dice, QUIET)
    token = REACTIONS.set(Decider(()))
    try:
        if command.kind == END_TURN:
            new = _end_turn(state, ctx)
        else:
            new = _war_action(state, command, ctx)
    finally:
        REACTIONS.reset(token)
    return replace(new, sequence=state.sequence + 1)


def play_out(state: BattleState, rng: random.Random, max_rounds: int) -> BattleState:
    """The last state of the battle played on from `state` by the policy (see the module
    docstring), stopping `max_rounds` rounds after the first as the forecast does."""
    if not all(entry.auto_reactions for entry in state.armies):
        return play(state, rng, max_rounds, next_actor=_next_actor, step=_step)
    # Every side reacts automatically (a set-up flag no command changes): no reaction is
    # ever offered, so one decider (its answers never read) serves every command.
    token = REACTIONS.set(Decider(()))
    try:
        return play(state, rng, max_rounds, next_actor=_next_actor, step=_step_automatic)
    finally:
        REACTIONS.reset(token)


def _next_actor(state: BattleState) -> Any:
    if state.finished:
        return NOBODY
    if state.pending is None and not state.positions:  # `to_act` is `current` (inline)
        order, turn = state.order, state.turn
        return order[turn] if turn < len(order) else NOBODY
    actor = state.to_act
    return NOBODY if actor is None else actor


def _step_automatic(state: BattleState, actor: str, dice: LeanDice) -> BattleState:
    """`_step` when every side reacts automatically (the decider is set by `play_out`)."""
    if state.pending is not None or state.positions:
        return _full(state, suggest(state, actor), dice.rng)
    command = turn_command(state, actor)  # `suggest`'s answer (`actor` is the army awaited)
    ctx = _CTX[0]
    if ctx is None or ctx.dice is not dice:
        ctx = _CTX[0] = Ctx(dice, QUIET)  # one for the battle: it keeps no events
    else:  # as a new one: no All-Out Assault bonus carried, no Morale successes
        ctx.aoa_bonus = None
        if ctx.morale_successes:
            ctx.morale_successes = []
    if command.kind == END_TURN:  # the next turn's actions set in its own copy (`lean`)
        new = _end_turn(state, ctx, lean=True)
    else:  # its actions taken off in its own last copy (`lean`)
        new = _war_action(state, command, ctx, lean=True)
    if new is state:  # (never: a war action returns a new state, an end of turn moves the turn)
        return replace(new, sequence=state.sequence + 1)
    # `replace(new, sequence=…)` without a second copy: `new` is this command's own copy (an
    # end of turn or a war action makes new states, it never hands out a kept one), nobody
    # has seen it yet, and nothing kept for it reads the sequence.
    object.__setattr__(new, "sequence", state.sequence + 1)
    return new


_CTX: list[Ctx | None] = [None]
"""The `Ctx` of the battle being played (its dice, no events)."""


def _step(state: BattleState, actor: str, dice: LeanDice) -> BattleState:
    command = suggest(state, actor)
    if state.pending is not None or state.positions:
        return _full(state, command, dice.rng)
    before = dice.rng.getstate()
    try:
        return _lean(state, command, dice)
    except Offered:
        dice.rng.setstate(before)
        return _full(state, command, dice.rng)
