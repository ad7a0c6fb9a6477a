"""The engines stop redoing work (issue 13), with the same results: a Pathfinder army's stat
block is derived once per army state and reused (a board render and a replay asked for it
40-48 times), and D&D 5e `apply` checks the one command it is given instead of listing every
legal option of every piece (movement path-finding, twice per action)."""

from dataclasses import replace

import warfare.engine.systems.dnd5e.battle.actions as dnd_actions
from tests.engine.battle.helpers import army, begin
from tests.engine.dnd5e.helpers import begin as dnd_begin
from tests.engine.dnd5e.helpers import setup as dnd_setup
from tests.engine.dnd5e.helpers import unit
from warfare.engine.battle.protocol import Command, command_dice
from warfare.engine.systems.dnd5e.battle import SYSTEM as DND5E
from warfare.engine.systems.pf2e import armies
from warfare.engine.systems.pf2e.battle import SYSTEM as PF2E
from warfare.engine.systems.pf2e.battle.rules import effective_block


def test_equal_army_specs_share_one_stat_block():
    spec = army("a1")["army"]["spec"]
    first = armies.stat_block(armies.spec_from_dict(spec))
    again = armies.stat_block(armies.spec_from_dict(spec))
    assert first is again
    assert first == armies._stat_block(armies.spec_from_dict(spec))


def test_listing_the_actions_again_derives_no_stat_block():
    """The same state asked twice (two viewers, a render then a check) reuses its blocks."""
    state = begin([army("a1"), army("a2", "cavalry")], [army("b1"), army("b2")],
                  order=["a1", "a2", "b1", "b2"])  # fmt: skip
    specs_seen = []
    original = armies._stat_block

    def counting(spec):
        specs_seen.append(spec)
        return original(spec)

    armies._stat_block = counting
    try:
        armies._cached_block.cache_clear()
        PF2E.legal_actions(state, "a1")
        first = len(specs_seen)
        PF2E.legal_actions(state, "a1")
        assert len(specs_seen) == first
        assert effective_block(state, "b1") is effective_block(state, "b1")
    finally:
        armies._stat_block = original
    assert first <= 8, "one block per army state, not dozens"


def _counting_reachable(monkeypatch):
    calls = []
    original = dnd_actions.reachable

    def counting(*args, **kwargs):
        calls.append(args[1])
        return original(*args, **kwargs)

    monkeypatch.setattr(dnd_actions, "reachable", counting)
    return calls


def test_a_move_finds_the_paths_of_the_moving_stand_only_once(monkeypatch):
    data = dnd_setup([unit("a1", "orc", [(1, 1), (1, 3), (1, 5)])], [unit("b1", "orc", [(9, 3)])])
    state = dnd_begin(data, order=["a1", "b1"])
    calls = _counting_reachable(monkeypatch)
    command = Command("a1", "move", {"piece": "a1.2", "x": 3, "y": 3})
    moved, _ = DND5E.apply(state, command, command_dice(1, 0))
    assert moved.stand("a1.2").pos == (3, 3)
    assert calls == [(1, 3)], "one search, for the stand that moves"


def test_an_attack_lists_no_moves(monkeypatch):
    data = dnd_setup([unit("a1", "orc", [(7, 1), (7, 3), (7, 5)])], [unit("b1", "orc", [(8, 3)])])
    state = dnd_begin(data, order=["a1", "b1"])
    calls = _counting_reachable(monkeypatch)
    command = Command("a1", "attack", {"piece": "a1.2", "attack": "greataxe", "target": "b1.1"})
    after, events = DND5E.apply(state, command, command_dice(1, 0))
    assert [e.code for e in events][:2] == ["dnd5e.action", "dnd5e.attack"]
    assert calls == []


def test_a_move_or_attack_is_accepted_exactly_when_it_is_listed():
    """The direct check gives the answer listing every option gave (`legal_actions`)."""
    data = dnd_setup([unit("a1", "orc", [(5, 1), (5, 3)]), unit("a2", "scout", [(1, 5)],
                                                                 kind="skirmisher")],
                     [unit("b1", "orc", [(7, 3)])],
                     squares=[{"x": 6, "y": 1, "terrain": "forest"}])  # fmt: skip
    state = dnd_begin(data, order=["a1", "a2", "b1"])
    listed = {spec.key: [dict(o.params) for o in spec.options]
              for spec in DND5E.legal_actions(state, "a1")}  # fmt: skip
    tried = [{"piece": p, "x": x, "y": y} for p in ("a1.1", "a1.2", "a2.1", "b1.1")
             for x in range(4, 9) for y in range(0, 5)]  # fmt: skip
    tried += [{"piece": "a1.1", "x": 6.0, "y": 1}, {"piece": "a1.1", "x": [6], "y": 1},
              {"piece": "a1.1", "x": 6, "y": 1, "extra": 1}]  # fmt: skip
    for params in tried:
        accepted = not hasattr(DND5E.apply(state, Command("a1", "move", params),
                                           command_dice(1, 0)), "problems")  # fmt: skip
        assert accepted == any(
            set(params) <= set(o) and all(params.get(k) == v for k, v in o.items())
            for o in listed["move"]
        ), params
    for target in ("b1.1", "a1.2", "zz"):
        for piece in ("a1.1", "a1.2"):
            for attack in ("greataxe", "javelin", "bite"):
                params = {"piece": piece, "attack": attack, "target": target}
                accepted = not hasattr(DND5E.apply(replace(state), Command("a1", "attack", params),
                                                   command_dice(1, 0)), "problems")  # fmt: skip
                assert accepted == (params in listed["attack"]), params
