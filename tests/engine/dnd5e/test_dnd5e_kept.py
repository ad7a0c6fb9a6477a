"""What the D&D 5e engine and policy keep from one state to the next (issue 14: a forecast
plays hundreds of battles from one set-up) is what they would work out afresh.

Kept across states: a piece's destinations and the policy's best square per (piece, square,
move left, retreat, layout), attack profiles per (layout, options, configurations, hidden
pieces, joined solos), the goals' distance fields, the set-up built once per set-up, and the
board's results (squares, occupancy, isolation, targets) handed on from a state to the next
one when a piece changed only what the board does not read (a stand's or solo's HP, a
unit's flags, an engine's HP, an objective square's HP short of 0), or nothing but the turn
changed. From random reachable states (the engine property test's set-ups, random legal
commands) every kept answer equals the one worked out with nothing kept.
"""

import json
from dataclasses import fields, replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import warfare.engine.systems.dnd5e.battle.actions as actions
import warfare.engine.systems.dnd5e.battle.policy as policy
import warfare.engine.systems.dnd5e.rules as rules
from tests.engine.dnd5e.helpers import setup, unit
from tests.engine.dnd5e.test_dnd5e_policy import random_play
from tests.engine.dnd5e.test_dnd5e_properties import battles
from warfare.engine.events import plain
from warfare.engine.systems.dnd5e import state as dnd_state
from warfare.engine.systems.dnd5e.battle import SYSTEM, board
from warfare.engine.systems.dnd5e.battle.engine import _pending, _prepared
from warfare.engine.systems.dnd5e.state import BattleState, board_memo


def _fresh(state: BattleState) -> BattleState:
    """The same state with nothing remembered: rebuilt from its plain data (not the state
    or the creatures read before from the same JSON)."""
    dnd_state._READ.clear()
    dnd_state._CREATURES.clear()
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
    for objective in state.objectives:
        if objective.type == "protection":
            found[("protection", objective.key)] = rules.protection_holds(state, objective)
    found["pending"] = _pending(state)
    found["suggestion"] = SYSTEM.suggest(state, actor)
    found["board"] = board(state)
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


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battle=battles(), data=st.data())
def test_a_state_writes_the_plain_data_of_each_field_and_reads_back_once(battle, data):
    """`to_dict` is `plain` of each field in order, a copy of its own each time (the parts
    written once per object too); reading a snapshot's JSON again gives the state read
    before, other JSON a state of its own, equal to reading it afresh."""
    for _position, state in random_play(battle, data, most=12):
        written = state.to_dict()
        expected = {f.name: plain(getattr(state, f.name)) for f in fields(state)}
        assert json.dumps(written) == json.dumps(expected)  # the same keys in the same order
        again = state.to_dict()
        assert again == written and again["opening"] is not written["opening"]
        again["creatures"].clear()
        assert state.to_dict() == written  # what a caller does to its copy stays there
        stored = json.loads(json.dumps(written))
        read = BattleState.from_dict(stored)
        assert read == state
        assert BattleState.from_dict(json.loads(json.dumps(written))) is read
        assert read == _fresh(state) and _fresh(state) is not read


def test_a_stat_block_is_read_once_for_the_same_json():
    setup_, seed = next_setup()
    data = SYSTEM.start(setup_, seed).to_dict()
    first = BattleState.from_dict(data)
    hurt = json.loads(json.dumps(data))
    hurt["stands"][0]["hp"] -= 1
    second = BattleState.from_dict(hurt)
    assert second is not first and second.stands[0].hp == first.stands[0].hp - 1
    assert second.creatures is first.creatures  # the same JSON of the creatures
    assert second == _fresh(second) and _fresh(second).creatures is not first.creatures


def next_setup():
    data = setup(
        [unit("a1", "orc", [(1, 1), (1, 2)]), unit("a2", "scout", [(0, 5)], kind="skirmisher")],
        [unit("b1", "goblin", [(9, 1), (9, 2)], kind="skirmisher"), unit("b2", "orc", [(10, 5)])],
    )
    return data, 7


def _board_answers(state: BattleState) -> dict:
    """What the board keeps (`board_memo`), read from this state."""
    found: dict = {"occupancy": dict(rules.occupancy(state))}
    for key in (*(s.key for s in state.stands), *(s.key for s in state.solos),
                *(e.key for e in state.engines)):  # fmt: skip
        found[("board", key)] = (rules.squares(state, key), rules.is_isolated(state, key))
    for side in state.sides:
        found[("targets", side)] = actions.targets(state, side)
        found[("distances", side)] = policy._distances(state, side)
    for objective in state.objectives:
        if objective.type == "protection":
            found[("protection", objective.key)] = rules.protection_holds(state, objective)
    found["pending"] = _pending(state)
    for each in (None, *state.sides):  # what `put` hands on from the pieces before
        found[("field", each)] = rules.field_stands(state, each)
    for each in state.units:
        found[("stands of", each.key)] = state.stands_of(each.key)
    return found


def test_put_hands_the_board_on_only_when_the_piece_keeps_its_place():
    """A solo's HP, a unit's flags, an engine's HP, an objective square's HP short of 0 keep
    the board (`state._same_place`, `_live_squares`); a dead solo, a destroyed engine, a
    square at 0 HP, a new configuration do not, and every answer is the fresh one."""
    data = setup(
        [unit("a1", "orc", [(1, 1), (1, 2)])],
        [unit("b1", "goblin", [(9, 1), (9, 2)])],
        a_solos=[{"key": "hero", "creature": "knight", "pos": [3, 3]}],
        objectives=[{"key": "tower", "type": "destruction", "side": "a",
                     "squares": [{"x": 8, "y": 3, "hp": 20, "vp": 3}]}],
        engines=[{"key": "bal", "kind": "ballista", "side": "b", "pos": [10, 6], "crew": "b1"}],
    )  # fmt: skip
    state = SYSTEM.start(data, 3)
    _board_answers(state)  # worked out, to be handed on or not
    place = board_memo(state)
    hero, a1, bal = state.solo("hero"), state.unit("a1"), state.engine("bal")
    tower = state.objectives[0]
    square = tower.squares[0]
    kept = [
        replace(hero, hp=hero.hp - 5),
        replace(a1, broken=True, prepared=2, morale_checked=True),
        replace(bal, hp=bal.hp - 1, loaded=1),
        replace(tower, squares=(replace(square, hp=5),)),
    ]
    changed = [
        replace(hero, hp=0, dead=True),
        replace(a1, configuration="defend"),
        replace(bal, hp=0, destroyed=True),
        replace(tower, squares=(replace(square, hp=0),)),
    ]
    for item in kept + changed:
        new = state.put(item)
        assert (board_memo(new) is place) == any(item is k for k in kept), item
        assert _board_answers(new) == _board_answers(_fresh(new)), item
        assert new.find(getattr(item, "key", "")) in (item, None)


def test_the_same_board_reached_again_shares_what_was_worked_out_for_it():
    """A board reached again (a stand moved away and back, the same move made again, in this
    battle or another one from the set-up) finds what was worked out for it
    (`state._shared_place`, `state._STEPS`: the same `board_memo`), a different one does
    not, and every answer is the fresh one."""
    setup_, seed = next_setup()
    state = SYSTEM.start(setup_, seed)
    stand = state.stands[0]
    place = board_memo(state)
    _board_answers(state)
    away = state.put(replace(stand, pos=(3, 1)))
    back = away.put(replace(away.stand(stand.key), pos=stand.pos, hp=stand.hp - 1))
    _board_answers(away)
    gone = away.put(replace(away.stands[-1], gone="fled", pos=None))
    assert _board_answers(gone) == _board_answers(_fresh(gone))
    assert back.stands is not state.stands and back.stand(stand.key).hp == stand.hp - 1
    assert board_memo(away) is not place
    again = state.put(replace(stand, pos=(3, 1), hp=1))  # the same move from the same board
    assert board_memo(again) is board_memo(away)  # (`state._STEPS`)
    assert _board_answers(again) == _board_answers(_fresh(again))
    assert board_memo(back) is place
    assert _board_answers(back) == _board_answers(_fresh(back))
    other = SYSTEM.start(setup_, seed + 1)  # its own initiative, the same board
    hurt = other.put(replace(other.stands[1], hp=1))
    assert board_memo(hurt) is place
    assert _board_answers(hurt) == _board_answers(_fresh(hurt))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battle=battles(), data=st.data())
def test_the_kept_attack_choices_mark_the_destruction_squares(battle, data):
    """`_best_attack` weighs a choice as a Destruction square by the flag kept with it (not
    asking the target's key again): the flag is set exactly for the squares' keys."""
    for _position, state in random_play(battle, data):
        actor = state.current
        if actor is None:
            continue
        for piece in actions.attackers(state, actor):
            aimed = actions.targets(state, state.side_of(piece.key))
            for target, _form, _damage, square in policy._attack_choices(state, piece, aimed):
                assert square == target.startswith("sq:")
