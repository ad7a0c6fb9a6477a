"""What every rule system's lean play-out for the forecast shares (the protocol's optional
`play_out`; each system's `battle/simulation.py` gives `play` its three functions).
"""

import gc
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from operator import attrgetter
from typing import Any

from warfare.engine.battle.autoplay import MAX_COMMANDS
from warfare.engine.dice import LeanDice

NOBODY = object()
"""What a play-out's `next_actor` answers once the battle is over or waits for nobody (None
is an actor: the GM)."""


def play(
    state: Any,
    rng: random.Random,
    max_rounds: int,
    *,
    clock: Callable[[Any], int] = attrgetter("round"),
    next_actor: Callable[[Any], Any],
    step: Callable[[Any, Any, LeanDice], Any],
) -> Any:
    """The last state of a battle played on from `state` by a system's policies with dice
    drawn from `rng` (`LeanDice`), as the forecast's own loop plays it (`forecast._play_out`):
    stopping `max_rounds` rounds after the first (`clock`: the state's round by default, the
    day for GURPS 3e),
    when `next_actor` answers `NOBODY`, or after `autoplay.MAX_COMMANDS` commands (a guard
    against a policy that never ends a turn); `step(state, actor, dice)` is the state after
    the actor's policy command."""
    with collector_paused():
        first = clock(state)
        dice = LeanDice(rng)
        for _ in range(MAX_COMMANDS):
            if clock(state) - first >= max_rounds:
                break
            actor = next_actor(state)
            if actor is NOBODY:
                break
            state = step(state, actor, dice)
        return state


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector waits while a simulated battle is played: a simulation
    makes no reference cycles (a forecast's collections found nothing to free), yet its
    thousands of short-lived states would set off collections that walk the engines' caches
    (a tenth of the time). Afterwards what the battle left alive goes to the oldest
    generation unexamined (`freeze` empties the young generations, `unfreeze` hands them all
    to the oldest), so the collection the counts then call for walks nothing either."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.freeze()
            gc.unfreeze()
            gc.enable()
