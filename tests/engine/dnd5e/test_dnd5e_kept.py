"""What the D&D 5e engine and policy keep from one state to the next (issue 14: a forecast
plays hundreds of battles from one set-up) is what they would work out afresh.

Kept across states: a piece's destinations and the policy's best square per (piece, square,
move left, retreat, layout), attack profiles per (layout, options, configurations, hidden
pieces, joined solos), the goals' distance fields, the set-up built once per set-up, and the
board's results (squares, occupancy, isolation, targets) handed on from a state to the next
one when a hit changed only a stand's HP, or nothing but the turn changed. From random
reachable states (the engine property test's set-ups, random legal commands) every kept
answer equals the one worked out with nothing kept.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import warfare.engine.systems.dnd5e.battle.actions as actions
import warfare.engine.systems.dnd5e.battle.policy as policy
import warfare.engine.systems.dnd5e.rules as rules
from tests.engine.dnd5e.helpers import setup, unit
from tests.engine.dnd5e.test_dnd5e_policy import random_play
from tests.engine.dnd5e.test_dnd5e_properties import battles
from warfare.engine.systems.dnd5e.battle import SYSTEM
from warfare.engine.systems.dnd5e.battle.engine import _prepared
from warfare.engine.systems.dnd5e.state import BattleState


def _fresh(state: BattleState) -> BattleState:
    """The same state with nothing remembered: rebuilt from its plain data."""
    return BattleState.from_dict(state.to_dict())


def _answers(state: BattleState) -> dict:
    """Every kept answer for this state: destinations of each mover, the attack profile of
    each listed attack, the policy's best square and distances, and its suggestion."""
    found: dict = {}
    actor = state.current
    if actor is None:
        return found
    side = state.side_of(actor)
    found["distances"] = policy._distances(state, side)
    found["occupancy"] = dict(rules.occupancy(state))
    for key in (*(s.key for s in state.stands), *(s.key for s in state.solos)):
        found[("board", key)] = (rules.squares(state, key), rules.is_isolated(state, key))
    for each in state.sides:
        found[("targets", each)] = actions.targets(state, each)
        found[("field", each)] = rules.field_stands(state, each)
    for piece in actions.movers(state, actor):
        found[("moves", piece.key)] = dict(actions.destinations(state, piece))
        reach, _ = policy._reach(state, piece)
        found[("best", piece.key)] = policy._best_square(state, piece, reach, side)
    for params, checks in actions.attack_options(state, actor):
        found[("attack", *params.values())] = checks
    found["suggestion"] = SYSTEM.suggest(state, actor)
    return found


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battle=battles(), data=st.data())
def test_every_kept_answer_of_random_play_is_the_fresh_one(battle, data):
    for position, state in random_play(battle, data):
        kept = _answers(state)
        assert kept == _answers(state)  # asked again: the kept answers
        assert kept == _answers(_fresh(state)), position


def test_a_cleared_cache_gives_the_same_answers():
    """Nothing kept (every cache emptied) gives what the kept answers gave."""
    setup_, seed = next_setup()
    state = SYSTEM.start(setup_, seed)
    kept = _answers(state)
    for cache in (actions._ROUTES, policy._MOVES, policy._FIELDS, rules._PROFILES,
                  rules._LAYOUTS, rules._PROFILE_NUMBERS):  # fmt: skip
        cache.clear()
    _prepared.cache_clear()
    again = SYSTEM.start(setup_, seed)
    assert again == state
    assert _answers(again) == kept


def test_a_set_up_is_built_once_and_each_start_rolls_its_own_initiative():
    """`start` shares the built pieces of an equal set-up; the initiative still comes from
    each battle's seed (§5.2)."""
    setup_, _ = next_setup()
    first, second = SYSTEM.start(setup_, 1), SYSTEM.start(dict(setup_), 2)
    assert first.stands is second.stands
    assert first.order != second.order or first.initiative != second.initiative
    assert first.initiative == SYSTEM.start(setup_, 1).initiative


def next_setup():
    data = setup(
        [unit("a1", "orc", [(1, 1), (1, 2)]), unit("a2", "scout", [(0, 5)], kind="skirmisher")],
        [unit("b1", "goblin", [(9, 1), (9, 2)], kind="skirmisher"), unit("b2", "orc", [(10, 5)])],
    )
    return data, 7
