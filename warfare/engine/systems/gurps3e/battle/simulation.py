"""The GURPS 3e forecast's lean play-out (the protocol's optional `play_out`, issue 14).

`play_out(state, rng, max_rounds)` plays a battle to its end with every PC, commander and
GM step auto-played, exactly as the forecast's generic loop does (`forecast._play_out`: the
policy's command for the first awaited actor, `apply` with dice drawn from `rng`), and
returns the same last state, with less work per command:

* a PC's Risk comes from the policy without the buttons `legal_actions` builds (their
  Survival and Glory previews, `policy.choose_risk`), and every command goes to the
  engine's step (`_record_choice`, `_resolve_day`, `_finish_day`) without `apply`'s check
  of it (`_problems`, which lists the actor's buttons again): the policy proposes only
  legal commands (the hypothesis test of `test_g3_policy` holds every suggestion to
  `apply`'s check, and `test_g3_simulation` holds this loop to the generic one);
* its dice (`dice.LeanDice`) draw what `SimulationDice` draws, without a log;
* who acts next and the end of the battle are read from the state (`phase`, `day`, the
  choices still open) rather than through `awaiting`, `outcome` (which writes out every
  force and character) and `clock`.
"""

import random
from operator import attrgetter
from typing import Any

from warfare.engine.battle.lean import NOBODY, play
from warfare.engine.battle.protocol import Command
from warfare.engine.systems.gurps3e.battle import policy
from warfare.engine.systems.gurps3e.battle.engine import (
    COMMIT,
    _finish_day,
    _record_choice,
    _resolve_day,
    _resolves,
)
from warfare.engine.systems.gurps3e.battle.state import CASUALTIES, CHOICES, ENDED, BattleState
from warfare.engine.systems.gurps3e.characters import FIT

GM = object()
"""`_first_actor`'s answer when the GM is awaited (casualties to enter)."""


def _first_actor(state: BattleState) -> Any:
    """`awaiting(state)[0].actor` (`GM` for the GM, None: nobody is awaited): the fit PCs
    without a Risk, then the commanders who have not committed."""
    if state.phase == CASUALTIES:
        return GM
    if state.phase != CHOICES:
        return None
    for character in state.characters:
        if character.status == FIT and character.key not in state.risks:
            return character.key
    for key in state.sides:
        if key not in state.committed:
            return key
    return None


def step(state: BattleState, actor: Any, dice: Any) -> BattleState:
    """`apply(state, suggest(state, actor), dice)[0]` for an awaited `actor` (`GM`: the GM)."""
    events: list[Any] = []
    if actor is GM:
        command = policy.suggest(state, None)
        return _finish_day(state, dict(command.params["units"]), dice, events)
    is_side = actor in state.sides
    command = Command(actor, COMMIT) if is_side else policy.choose_risk(state, actor)
    resolves = _resolves(state, command)
    state = _record_choice(state, command, events)
    return _resolve_day(state, dice, events) if resolves else state


def play_out(state: BattleState, rng: random.Random, max_rounds: int) -> BattleState:
    """The last state of the battle played on from `state` by the policies (see the module
    docstring), stopping `max_rounds` days after the first as the forecast does."""
    return play(state, rng, max_rounds, clock=attrgetter("day"), next_actor=_next_actor, step=step)


def _next_actor(state: BattleState) -> Any:
    actor = None if state.phase == ENDED else _first_actor(state)
    return NOBODY if actor is None else actor
