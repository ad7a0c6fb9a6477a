"""D&D 5e `apply` checks the one command it is given (issue 13: it used to list every legal
option of every piece, movement path-finding twice per action): it must accept exactly the
commands `legal_actions` lists, no more, no fewer.

Property: from random reachable states (the engine property test's set-ups: regiments and
skirmishers, solos joined and alone, terrain, a siege engine and objectives; random legal
commands), every listed option of every awaited actor is accepted, and a command built from
the pieces, squares, attacks and targets of the state (a listed option's params with one of
them changed) is accepted exactly when it equals a listed option."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.dnd5e.test_dnd5e_policy import random_play
from tests.engine.dnd5e.test_dnd5e_properties import _actors, battles
from warfare.engine.battle.protocol import Command, Rejected, command_dice
from warfare.engine.systems.dnd5e.battle import SYSTEM


def _accepted(state, command) -> bool:
    return not isinstance(SYSTEM.apply(state, command, command_dice(3, 0)), Rejected)


def _variants(state, options):
    """Params near the listed ones: each listed option with one value swapped for another
    value of that name seen in any option, a neighbouring square, or every square's x/y."""
    values: dict[str, set] = {}
    for params in options:
        for name, value in params.items():
            if isinstance(value, str | int):
                values.setdefault(name, set()).add(value)
    values.setdefault("x", set()).update(range(-1, state.grid.width + 1))
    values.setdefault("y", set()).update(range(-1, state.grid.height + 1))
    found = []
    for params in options:
        for name in params:
            for value in sorted(values.get(name, ()), key=str):
                if value != params[name]:
                    found.append({**params, name: value})
    return found


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battle=battles(), data=st.data())
def test_apply_accepts_exactly_the_listed_options(battle, data):
    for _, state in random_play(battle, data):
        for actor in _actors(state):
            for spec in SYSTEM.legal_actions(state, actor):
                options = [dict(option.params) for option in spec.options]
                for params in options:
                    assert _accepted(state, Command(actor, spec.key, params)), (spec.key, params)
                variants = _variants(state, options)
                if not variants:
                    continue
                tried = data.draw(st.lists(st.sampled_from(variants), max_size=12))
                for params in tried:
                    command = Command(actor, spec.key, params)
                    assert _accepted(state, command) == (params in options), (spec.key, params)
