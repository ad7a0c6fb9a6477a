"""The engines stop redoing work (issue 13), with the same results: a Pathfinder army's stat
block is derived once per army state and reused (a board render and a replay asked for it
40-48 times), and never served for a changed army (a condition, HP, gear, an effect or the
terrain); D&D 5e `apply` checks the one command it is given instead of listing every legal
option of every piece (movement path-finding, twice per action; see also
`dnd5e/test_dnd5e_apply_checks.py`)."""

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import warfare.engine.systems.dnd5e.battle.actions as dnd_actions
from tests.engine.battle.helpers import RANGED_WEAPON, army, begin
from tests.engine.battle.test_pf2e_properties import _legal_command as pf2e_command
from tests.engine.battle.test_pf2e_properties import battles as pf2e_battles
from tests.engine.dnd5e.helpers import begin as dnd_begin
from tests.engine.dnd5e.helpers import setup as dnd_setup
from tests.engine.dnd5e.helpers import unit
from warfare.engine.battle.protocol import Command, Rejected, command_dice
from warfare.engine.frozen import replace
from warfare.engine.systems.dnd5e.battle import SYSTEM as DND5E
from warfare.engine.systems.pf2e import armies
from warfare.engine.systems.pf2e.battle import SYSTEM as PF2E
from warfare.engine.systems.pf2e.battle.actions import strike_dc, strike_modifier, weapon_stat
from warfare.engine.systems.pf2e.battle.rules import conditions_of, effective_block, own_effects
from warfare.engine.systems.pf2e.battle.state import Effect


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


# --- a cached stat block is never served for a changed army (issue 13) ----------------------


def _fresh_block(state, key, **kwargs):
    """The block worked out from scratch: no cache of `rules`, `armies` or `conditions`."""
    entry = state.army(key)
    conditions = conditions_of(state, key, **kwargs)
    spec = replace(entry.army.spec, conditions=tuple(sorted(conditions.items())),
                   current_hp=entry.army.hp)  # fmt: skip
    return armies._stat_block(spec)


def _pf2e_start():
    return begin([army("a1"), army("a2", "cavalry")], [army("b1"), army("b2")],
                 order=["a1", "a2", "b1", "b2"])  # fmt: skip


def test_a_condition_hp_or_gear_change_changes_the_cached_block():
    """§9 shaken: −1 per value to Morale (status); §0.3 HP; §5 gear (Additional Weapon gives
    a ranged Strike): the block served after each change is the one derived afresh, never the one
    cached for the state before."""
    state = _pf2e_start()
    before = effective_block(state, "a1")
    assert before == _fresh_block(state, "a1")
    shaken, _ = PF2E.apply(state, Command(None, "gm_correction",
                                          {"army": "a1", "conditions": {"shaken": 2}}),
                           command_dice(1, 0))  # fmt: skip
    after = effective_block(shaken, "a1")
    assert dict(after.conditions)["shaken"] == 2
    assert after.morale.value == before.morale.value - 2
    assert after == _fresh_block(shaken, "a1")
    assert effective_block(state, "a1") is before  # the old state keeps its own block
    hurt, _ = PF2E.apply(state, Command(None, "gm_correction", {"army": "a1", "hp": 1}),
                         command_dice(1, 0))  # fmt: skip
    assert hurt.army("a1").hp == 1 and effective_block(hurt, "a1") == _fresh_block(hurt, "a1")
    entry = state.army("a1")
    assert before.ranged is None
    armed_spec = replace(entry.army.spec, gear=RANGED_WEAPON)
    armed = state.with_army(entry.with_army(dataclasses.replace(entry.army, spec=armed_spec)))
    assert effective_block(armed, "a1").ranged is not None
    assert effective_block(armed, "a1") == _fresh_block(armed, "a1")
    assert effective_block(state, "a1").ranged is None


def test_an_effect_or_the_terrain_changes_the_cached_block():
    """A temporary effect (outflanked: −2 circumstance to AC, §9) and darkness on a distant
    army (concealed, §7.4) are merged into the block: a state with them is served its own."""
    state = _pf2e_start()
    before = effective_block(state, "b1")
    flanked = replace(state, effects=(Effect("x", "b1", "outflanked", owner="b1"),))
    assert dict(effective_block(flanked, "b1").conditions)["outflanked"] == 1
    assert effective_block(flanked, "b1").ac.value == before.ac.value - 2
    assert effective_block(flanked, "b1") == _fresh_block(flanked, "b1")
    far = state.with_army(replace(state.army("b1"), position="distant"))
    dark = replace(far, terrain=("darkness",))
    assert "concealed" not in dict(effective_block(far, "b1").conditions)
    assert "concealed" in dict(effective_block(dark, "b1").conditions)
    assert effective_block(dark, "b1", viewer="a1") == _fresh_block(dark, "b1", viewer="a1")
    assert effective_block(state, "b1") is before


def test_a_block_carried_by_an_entry_is_not_served_to_an_entry_made_from_it():
    """An army's entry carries its block, and `frozen.replace` copies it to the entries made
    from it: a new position, `ArmyState` or own effect is served its own block (§7.4: distant
    in dim light, concealed; §5 gear; §9 outflanked), another army's effect not."""
    state = replace(_pf2e_start(), terrain=("dim_light",))
    near = effective_block(state, "b1")
    assert "concealed" not in dict(near.conditions)
    far = state.with_army(replace(state.army("b1"), position="distant"))
    assert "concealed" in dict(effective_block(far, "b1").conditions)
    assert effective_block(far, "b1") == _fresh_block(far, "b1")
    entry = state.army("b1")
    armed_spec = replace(entry.army.spec, gear=RANGED_WEAPON)
    armed = state.with_army(replace(entry, army=dataclasses.replace(entry.army, spec=armed_spec)))
    assert near.ranged is None and effective_block(armed, "b1").ranged is not None
    flanked = replace(state, effects=(Effect("x", "b1", "outflanked", owner="b1"),))
    assert dict(effective_block(flanked, "b1").conditions)["outflanked"] == 1
    other = replace(state, effects=(Effect("x", "a1", "outflanked", owner="a1"),))
    assert effective_block(other, "b1") is near
    assert effective_block(state, "b1") is near


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), battle=pf2e_battles(), seed=st.integers(0, 2**31))
def test_every_cached_block_of_random_play_is_the_fresh_one(data, battle, seed):
    """Random legal play (the engine property test's set-ups and commands, GM corrections
    included): at every state, every army's block (as itself, against and seen by each
    other army) equals the block derived afresh."""
    for state in _random_play(data, PF2E.start(battle, seed), seed):
        for entry in state.armies:
            assert effective_block(state, entry.key) == _fresh_block(state, entry.key)
            for other in state.armies:
                seen = {"attacker": other.key, "viewer": other.key}
                assert effective_block(state, entry.key, **seen) == _fresh_block(
                    state, entry.key, **seen
                )


def _random_play(data, state, seed: int):
    """The states of up to 30 random legal commands from `state` (the engine property
    test's commands, GM corrections included), `state` first, until the battle ends."""
    for index in range(data.draw(st.integers(1, 30))):
        yield state
        if state.finished:
            return
        command = pf2e_command(data.draw, state)
        result = PF2E.apply(state, command, command_dice(seed, index, command.typed_dice))
        assert not isinstance(result, Rejected), (command, result.problems)
        state, _ = result


def _strikes(state):
    """Every Strike's (attacker, weapon, params) the state could be asked for: each army
    with that weapon against every other army, with and without an All-Out Assault bonus."""
    for entry in state.armies:
        block = effective_block(state, entry.key)
        for weapon in ("melee", "ranged"):
            if weapon_stat(block, weapon) is None:
                continue
            for other in state.armies:
                if other.key != entry.key:
                    yield entry.key, weapon, {"target": other.key}
            for fort in state.fortifications:
                yield entry.key, weapon, {"fortification": fort.key}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), battle=pf2e_battles(), seed=st.integers(0, 2**31))
def test_every_kept_strike_of_random_play_is_the_fresh_one(data, battle, seed):
    """Random legal play: at every state, the kept modifier and AC of every Strike (each
    army's weapons against every other army and fortification) equal the ones worked out
    afresh for that state: what they are kept per (`actions._per_strike`) names all they
    read (the armies' state and position, the attacks for MAP, their own effects…)."""
    for state in _random_play(data, PF2E.start(battle, seed), seed):
        for actor, weapon, params in _strikes(state):
            for bonus in (None, ("nobody", 2)):
                extra = {} if "fortification" in params else {"aoa_bonus": bonus}
                kept = strike_modifier(state, actor, weapon, **params, **extra)
                assert kept == strike_modifier.__wrapped__(state, actor, weapon, **params, **extra)
            kept_dc = strike_dc(state, actor, weapon, **params)
            assert kept_dc == strike_dc.__wrapped__(state, actor, weapon, **params)


def test_own_effects_are_the_effects_on_that_army_in_their_order():
    state = _pf2e_start()
    first, other, second = (Effect("x", "b1", "outflanked"), Effect("y", "a1", "mired"),
                            Effect("z", "b1", "guarded", against="a1"))  # fmt: skip
    mixed = replace(state, effects=(first, other, second))
    assert own_effects(mixed, "b1") == (first, second)
    assert own_effects(mixed, "a1") == (other,)
    assert own_effects(mixed, "a2") == () and own_effects(state, "b1") == ()
