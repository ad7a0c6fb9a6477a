"""The Pathfinder engine's shortcuts for the forecast (issue 14) give what the full rules
give, at every state of random legal play (terrain, effects, fortifications, reactions):
the stat block kept per spec and HP (`rules.effective_block`), the Maneuver modifier and
DC kept per stat block (`rules._of_block`), a Strike's modifier and AC kept as one pair
(`actions.strike_check`), the engagements kept per tuple by value
(`state.engaged_with`), the policy's shortened Advance check (`policy._may_advance` with
the target's `_advance_problems`) and its order of the armies to Advance on (no AC read
when distance and HP tell them apart, `policy._advance`)."""

from itertools import product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.scenarios import pf2e_three_vs_three
from tests.engine.battle.helpers import INF, army, begin, run
from tests.engine.battle.test_pf2e_properties import _legal_command, battles
from warfare.engine.battle.protocol import Command, CommandDice, Rejected, command_dice, derive_seed
from warfare.engine.dice import SeededDice
from warfare.engine.systems.pf2e.battle import SYSTEM
from warfare.engine.systems.pf2e.battle.actions import (
    _advance_problems,
    strike_check,
    strike_dc,
    strike_modifier,
)
from warfare.engine.systems.pf2e.battle.engine import _initiative, cost_of
from warfare.engine.systems.pf2e.battle.policy import (
    STRIKES,
    _advance,
    _best_strike,
    _expected_damage,
    _legal,
    _may_advance,
    _weakness,
)
from warfare.engine.systems.pf2e.battle.rules import (
    _maneuver,
    as_dc,
    block_with,
    conditions_of,
    effective_block,
    extend,
    maneuver,
    maneuver_dc,
    morale_dc,
    situational,
)

WHENS = ((), ("guard",), ("enemy_disengages",))


def _check(state):
    for entry in state.armies:
        key = entry.key
        block = effective_block(state, key)
        assert block == block_with(entry.army.spec, conditions_of(state, key), entry.hp)
        for whens in WHENS:
            assert maneuver(state, key, whens) == _maneuver(state, key, block, whens)
            full_dc = as_dc(extend(block.maneuver, situational(block, ["maneuver_dc"], whens)))
            assert maneuver_dc(state, key, whens) == full_dc
    for entry in state.armies:
        block = effective_block(state, entry.key)
        weapons = [w for w, stat in (("melee", block.melee), ("ranged", block.ranged)) if stat]
        for enemy, weapon in product(state.enemies(entry.key), weapons):
            aim = {"target": enemy.key, "fortification": None}
            kept = strike_check(state, entry.key, weapon, **aim, aoa_bonus=entry.next_attack_bonus)
            modifier = strike_modifier(
                state, entry.key, weapon, **aim, aoa_bonus=entry.next_attack_bonus
            )
            assert kept == (modifier, strike_dc(state, entry.key, weapon, **aim))
        assert morale_dc(state, entry.key) == as_dc(block.morale)
    for entry in state.armies:
        block = effective_block(state, entry.key)
        if state.current != entry.key or state.actions_left < 1 or entry.routed:
            continue
        # As `turn_command` asks: melee at the armies it is engaged with, ranged at any.
        asked = [("ranged", [e.key for e in state.enemies(entry.key)])]
        if block.melee is not None:
            asked.append(("melee", list(state.engaged_with(entry.key))))
        for weapon, aimed in asked:
            kept = _best_strike(state, entry.key, block, aimed, weapon)
            assert kept == _generic_best_strike(state, entry.key, block, aimed, weapon)
    for entry in state.armies:  # (kept per engagements tuple by value)
        key = entry.key
        found = sorted(b if a == key else a for a, b in state.engagements if key in (a, b))
        assert state.engaged_with(key) == tuple(found)
    actor = state.current
    if actor is None or state.pending or state.positions or state.actions_left < 1:
        return
    if state.army(actor).routed:
        return
    block = effective_block(state, actor)
    enemies = [e for e in state.enemies(actor) if e.present]
    assert _advance(state, actor, enemies, block) == _generic_advance(state, actor, enemies, block)
    for enemy in state.enemies(actor):
        params = {"target": enemy.key}
        short = _may_advance(state, effective_block(state, actor)) and not _advance_problems(
            state, actor, params
        )
        assert short == _legal(state, Command(actor, "advance", params)), params


def _generic_advance(state, actor, enemies, block):
    """`policy._advance` with every candidate sorted by its whole key (the AC read)."""
    candidates = sorted(
        (e for e in enemies if not e.out_of_fight),
        key=lambda e: (e.position == "distant", _weakness(state, e.key)),
    )
    if not candidates or not _may_advance(state, block):
        return None
    for enemy in candidates:
        if not _advance_problems(state, actor, {"target": enemy.key}):
            return Command(actor, "advance", {"target": enemy.key})
    return None


def _generic_best_strike(state, actor, block, targets, weapon):
    """`policy._best_strike` without its shortcut for a lone melee Battle Strike."""
    kinds = [
        kind
        for kind in STRIKES
        if kind in block.war_actions
        and cost_of(kind) <= state.actions_left
        and (kind == "battle" or weapon == "melee")
    ]
    if len(targets) > 1:
        targets = sorted(targets, key=lambda key: _weakness(state, key))
    for target in targets:
        commands = [Command(actor, kind, {"target": target, "weapon": weapon}) for kind in kinds]
        legal = [command for command in commands if _legal(state, command)]
        if len(legal) == 1:
            return (0.0, legal[0])
        if legal:
            return max(
                ((_expected_damage(state, actor, c.kind, c.params), c) for c in legal),
                key=lambda pair: pair[0],
            )
    return None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), battle=battles(), seed=st.integers(0, 2**31))
def test_the_shortcuts_answer_as_the_full_rules(data, battle, seed):
    state = SYSTEM.start(battle, seed)
    for index in range(data.draw(st.integers(1, 30))):
        _check(state)
        if state.finished:
            return
        command = _legal_command(data.draw, state)
        result = SYSTEM.apply(state, command, command_dice(seed, index, command.typed_dice))
        assert not isinstance(result, Rejected), (command, result.problems)
        state, _ = result
    _check(state)


def test_the_bench_battle_states_too():
    """Every state the policy plays through in a few bench battles (no terrain: the kept
    Maneuver terms and the shortened Advance check at work)."""
    for seed in range(3):
        state = SYSTEM.start(pf2e_three_vs_three(), seed)
        for index in range(300):
            _check(state)
            if state.finished:
                break
            command = SYSTEM.suggest(state, state.to_act)
            state, _ = SYSTEM.apply(state, command, SeededDice(seed * 1000 + index))


def test_a_block_kept_per_spec_and_hp_follows_the_hp_and_maneuver_its_terms():
    """Bloodied but Unbroken reads the HP (+1 status at or below the RT): the same spec
    at another HP gets another block, and back at the first HP the first one; Defensive
    Tactics' Guard term counts in the kept Maneuver modifier."""
    state = begin(
        [army("a", INF, tactics=("bloodied_but_unbroken", "defensive_tactics"))], [army("b")]
    )
    fresh = effective_block(state, "a")
    hurt, _, _ = run(state, "gm_correction", army="a", hp=1)
    assert hurt.army("a").army.spec is state.army("a").army.spec
    bloodied = effective_block(hurt, "a")
    assert bloodied.ac.value == fresh.ac.value + 1
    assert bloodied == block_with(hurt.army("a").army.spec, conditions_of(hurt, "a"), 1)
    healed, _, _ = run(hurt, "gm_correction", army="a", hp=state.army("a").hp)
    assert effective_block(healed, "a") == fresh
    guard = maneuver(state, "a", ["guard"])
    assert guard.value > maneuver(state, "a").value
    assert guard == _maneuver(state, "a", fresh, ["guard"])


def test_a_seeded_initiative_die_is_the_command_dice_one():
    """`engine._initiative` draws a seeded die itself (`LeanDice`) as `CommandDice` would."""
    state = SYSTEM.start(pf2e_three_vs_three(), 3)
    for seed in range(20):
        for entry in state.armies:
            rolled = _initiative(state, entry.key, seed, None)
            dice = CommandDice(derive_seed(seed, f"start:{entry.key}"))
            assert (rolled.die, rolled.source) == (dice.d20(), dice.log[-1].source)
            assert _initiative(state, entry.key, seed, 17).die == 17
