"""Property tests of the dnd5e battle engine (DESIGN.md: a battle is setup + seed + commands).

Random sequences of LEGAL commands (drawn from `legal_actions`, with GM awards now and then)
must: replay to the identical state; never put two pieces on one square; never give a stand
negative (or more than max) HP; stay JSON-serialisable.
"""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.dnd5e.helpers import setup, unit
from warfare.engine.battle.protocol import Command, Rejected, command_dice, replay
from warfare.engine.systems.dnd5e.battle import SYSTEM
from warfare.engine.systems.dnd5e.rules import squares

A_POOL = (
    lambda: unit("a1", "orc", [(1, 1), (1, 2), (1, 3)]),
    lambda: unit("a1", "scout", [(1, 1), (2, 2)], kind="skirmisher"),
    lambda: unit("a1", "ogre", [(0, 1), (2, 1)], configuration="aid"),
)
B_POOL = (
    lambda: unit("b1", "hobgoblin", [(6, 1), (6, 2), (6, 3)], configuration="defend"),
    lambda: unit("b1", "goblin", [(7, 1), (6, 3)], kind="skirmisher"),
    lambda: unit("b1", "mage", [(7, 2)]),
)
TERRAIN = [{"x": 4, "y": 2, "terrain": "forest"}, {"x": 3, "y": 0, "terrain": "road"},
           {"x": 4, "y": 4, "elevation": 1}, {"x": 3, "y": 4, "terrain": "water_deep"}]  # fmt: skip


@st.composite
def battles(draw):
    data = setup(
        [draw(st.sampled_from(A_POOL))(), unit("a2", "guard", [(1, 5), (2, 5)])],
        [draw(st.sampled_from(B_POOL))(), unit("b2", "goblin", [(7, 5)], kind="skirmisher")],
        a_solos=[{"key": "sir", "creature": "knight", "pc": True, "joined": "a2.1",
                  "commander": True}],
        b_solos=[{"key": "wiz", "creature": "mage", "pos": [8, 0]}],
        width=9, height=7, squares=TERRAIN,
        objectives=[{"key": "tower", "type": "destruction", "side": "a",
                     "squares": [{"x": 5, "y": 6, "hp": 20, "vp": 3}]},
                    {"key": "hold", "type": "protection", "side": "b", "paired": "tower"},
                    {"key": "flag", "type": "custom", "side": "b", "vp": 2}],
        engines=[{"key": "bal", "kind": "ballista", "side": "b", "pos": [7, 3], "crew": "b1"}],
    )  # fmt: skip
    return data, draw(st.integers(0, 2**16))


def _actors(state):
    if state.phase == "casualties":
        return list(state.pending)
    if state.turn is None:
        return []
    joined = [
        s.key for s in state.solos if s.joined and state.stand(s.joined).unit == state.current
    ]
    return [state.current, *joined]


def _check(state):
    seen = {}
    for piece in [*state.stands, *state.solos]:
        if getattr(piece, "hp", 0) < 0:
            raise AssertionError(piece)
        if piece.pos is None or piece.gone or getattr(piece, "joined", None):
            continue
        if getattr(piece, "dead", False):
            continue
        for square in squares(state, piece.key):
            assert square not in seen, (piece.key, seen[square])
            seen[square] = piece.key
    for stand in state.stands:
        assert 0 <= stand.hp <= stand.max_hp
    assert SYSTEM.state_from_dict(json.loads(json.dumps(state.to_dict()))) == state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battle=battles(), data=st.data())
def test_random_legal_play_keeps_the_invariants_and_replays(battle, data):
    """Replay gives the same state; no two pieces share a square; stand HP stays in 0..max
    (dnd5e §6.1); a random legal command is never rejected."""
    setup_, seed = battle
    state = SYSTEM.start(setup_, seed)
    commands = []
    for _ in range(45):
        if SYSTEM.outcome(state) is not None:
            break
        if state.phase == "draw":
            command = Command(None, "declare_draw", {})
        elif data.draw(st.integers(0, 25)) == 0:
            command = Command(None, "award", {"objective": "flag"})
        else:
            actor = data.draw(st.sampled_from(_actors(state)))
            specs = SYSTEM.legal_actions(state, actor)
            if not specs:
                actor = _actors(state)[0]
                specs = SYSTEM.legal_actions(state, actor)
            spec = data.draw(st.sampled_from(specs))
            option = data.draw(st.sampled_from(spec.options))
            command = Command(actor, spec.key, option.params)
        result = SYSTEM.apply(state, command, command_dice(seed, len(commands)))
        if isinstance(result, Rejected):
            assert command.kind == "award", result.problems  # awarded twice
            continue
        state, _ = result
        commands.append(command)
        _check(state)
    replayed, _ = replay(SYSTEM, setup_, seed, commands)
    assert replayed == state


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 40),
    st.text(max_size=6),
    st.lists(st.text(max_size=4), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers()),
)
KINDS = ("move", "attack", "aid", "configure", "dash", "retreat", "hide", "cast", "join",
         "leave", "switch", "take_command", "step_down", "prepare", "incite", "siege",
         "end_turn", "place", "slide_in", "rejoin", "done", "begin", "award", "declare_draw",
         "extra_round", "gm_correction", "nonsense")  # fmt: skip
PARAM_NAMES = ("piece", "x", "y", "target", "attack", "stand", "helps", "configuration",
               "spell", "direction", "also", "overflow", "stands", "engine", "step", "offer",
               "solo", "objective", "hp", "conditions")  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battle=battles(), data=st.data())
def test_bad_input_is_rejected_never_raised(battle, data):
    """apply returns Rejected(problems) for any illegal command (protocol): junk kinds,
    actors and params, or a legal option with one param spoiled."""
    setup_, seed = battle
    state = SYSTEM.start(setup_, seed)
    actor = data.draw(st.sampled_from([None, "a1", "b1", "sir", "wiz", "zz", state.current]))
    specs = SYSTEM.legal_actions(state, state.current)
    if data.draw(st.booleans()) and specs:
        spec = data.draw(st.sampled_from(specs))
        params = dict(data.draw(st.sampled_from(spec.options)).params)
        params[data.draw(st.sampled_from(PARAM_NAMES))] = data.draw(JUNK)
        kind = spec.key
    else:
        kind = data.draw(st.sampled_from(KINDS))
        names = data.draw(st.lists(st.sampled_from(PARAM_NAMES), max_size=4))
        params = {name: data.draw(JUNK) for name in names}
    result = SYSTEM.apply(state, Command(actor, kind, params), command_dice(seed, 0))
    if not isinstance(result, Rejected):
        _check(result[0])


@settings(max_examples=60, deadline=None)
@given(hp=st.integers(10, 100), hits=st.lists(st.integers(0, 60), max_size=8))
def test_a_destruction_square_is_destroyed_exactly_once(hp, hits):
    """dnd5e §7.1: whatever hits land on an objective square, it is destroyed (logged) once
    when its HP first reach 0, and never again; its HP never go below 0."""
    from warfare.engine.dice import ScriptedDice
    from warfare.engine.systems.dnd5e.battle.actions import Ctx, apply_damage

    objective = {"key": "gate", "type": "destruction", "side": "a",
                 "squares": [{"x": 4, "y": 3, "hp": hp, "vp": 1}]}  # fmt: skip
    state = SYSTEM.start(setup([unit("a1", "orc", [(1, 1)])], [unit("b1", "orc", [(8, 6)])],
                               objectives=[objective]), 1)  # fmt: skip
    ctx = Ctx(ScriptedDice(()))
    for amount in hits:
        state = apply_damage(state, "sq:4:3", amount, False, "slashing", ctx)
        assert state.objectives[0].squares[0].hp >= 0
    destroyed = [e for e in ctx.events if e.code == "dnd5e.objective_destroyed"]
    assert len(destroyed) == (1 if sum(hits) >= hp else 0)
