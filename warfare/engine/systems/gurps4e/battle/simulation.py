"""The GURPS Mass Combat 4e forecast's lean play-out (the protocol's optional `play_out`,
issue 14).

`play_out(state, rng, max_rounds)` plays a battle to its end with every commander and PC
auto-played, exactly as the forecast's generic loop does (`forecast._play_out`: the
policy's command for the first awaited actor, `apply` with dice drawn from `rng`), and
returns the same last state, with less work per command:

* a commander's strategy (and its one-time change after the reveal) goes from the policy
  (`policy.strategy_choice`, `policy.strategy_change`) straight to the engine's step
  (`engine.choose_strategy`, `engine.change_strategy`) without a `Command` or its check
  against the strategies allowed (`_strategy_problems`): the policy chooses among those
  only (the hypothesis test of `test_policy` holds every suggestion to `apply`'s check, and
  `test_simulation` holds this loop to the generic one); the other commands (a PC's Risk,
  a Parley's answer, pursuit…) go through the engine's handler for their kind, as `apply`
  sends them;
* its dice (`dice.LeanDice`) draw what `SimulationDice` draws, one `rng.random()` per die
  in the same order, without a log of `Roll`s (nobody reads it: the events are thrown
  away, no die was typed in);
* who acts next and the end of the battle are read from the state (`finished`, `round`, the
  choices still open) rather than through `awaiting`, `outcome` and `clock`;
* the cyclic garbage collector waits until the battle is over (as in D&D 5e's play-out).
"""

import random
from typing import Any

from warfare.engine.battle.lean import NOBODY, play
from warfare.engine.systems.gurps4e.battle import policy
from warfare.engine.systems.gurps4e.battle.engine import (
    _HANDLERS,
    _needs_pc_choice,
    _side_index,
    awaiting,
    change_strategy,
    choose_strategy,
)
from warfare.engine.systems.gurps4e.battle.state import CHANGE, CHOOSING, SIDE_KEYS, BattleState


def step(state: BattleState, actor: str, dice: Any) -> BattleState:
    """`apply(state, suggest(state, actor), dice)[0]` for an awaited `actor`."""
    events: list[Any] = []
    index = _side_index(actor)
    if index is not None and state.phase == CHOOSING:
        strategy, desperate, risk = policy.strategy_choice(state, index)
        choice = policy.side_choice(strategy, desperate, risk)
        return choose_strategy(state, index, choice, dice, events)
    if index is not None and state.phase == CHANGE:
        change = policy.strategy_change(state, index)
        choice = policy.side_choice(*change) if change is not None else None
        return change_strategy(state, index, choice, dice, events)
    command = policy.choose(state, actor)
    result = _HANDLERS[command.kind](state, command, dice, events)
    if isinstance(result, list):
        raise ValueError(f"gurps4e: the policy's {command.kind} was rejected: {result}")
    return result


def play_out(state: BattleState, rng: random.Random, max_rounds: int) -> BattleState:
    """The last state of the battle played on from `state` by the policies (see the module
    docstring), stopping `max_rounds` rounds after the first as the forecast does."""
    return play(state, rng, max_rounds, next_actor=_next_actor, step=step)


def _next_actor(state: BattleState) -> Any:
    actor = None if state.finished else _first_actor(state)
    return NOBODY if actor is None else actor


def _first_actor(state: BattleState) -> str | None:
    """`awaiting(state)[0].actor` (None: nobody is awaited), read directly while the round's
    choices are open: the sides without a strategy, then the PCs without a choice."""
    if state.phase != CHOOSING or state.finished:
        waiting = awaiting(state)
        return str(waiting[0].actor) if waiting else None
    for index in (0, 1):
        if state.choices[index] is None and not state.sides[index].left:
            return SIDE_KEYS[index]
    for pc in state.pcs:
        if pc.key not in state.pc_choices and _needs_pc_choice(state, pc):
            return pc.key
    return None
