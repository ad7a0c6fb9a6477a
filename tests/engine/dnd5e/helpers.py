"""Builders for dnd5e battle tests: setups, a started battle with a chosen turn order, and
`run`, which applies one command with scripted dice and fails loudly on a rejection."""

from dataclasses import replace

from warfare.engine.battle.protocol import Command, Rejected
from warfare.engine.dice import ScriptedDice
from warfare.engine.systems.dnd5e.battle import SYSTEM
from warfare.engine.systems.dnd5e.battle.engine import _start_of_turn
from warfare.engine.systems.dnd5e.state import Turn


def unit(key, creature="orc", positions=(), kind="regiment", configuration="march", **extra):
    return {
        "key": key,
        "kind": kind,
        "configuration": configuration,
        "creature": creature,
        "stands": len(positions),
        "positions": [list(p) for p in positions],
        **extra,
    }


def setup(a_units, b_units, *, a_solos=(), b_solos=(), width=12, height=8, squares=(),
          objectives=(), engines=(), options=None, initiative=None):  # fmt: skip
    data = {
        "grid": {"width": width, "height": height, "squares": list(squares)},
        "sides": [
            {"key": "a", "units": list(a_units), "solos": list(a_solos)},
            {"key": "b", "units": list(b_units), "solos": list(b_solos)},
        ],
        "objectives": list(objectives),
        "engines": list(engines),
    }
    if options:
        data["options"] = options
    if initiative:
        data["initiative_dice"] = initiative
    return data


def begin(data, order=None):
    """A started battle; `order` (actor keys) replaces the rolled initiative order and the
    first of them has the turn."""
    state = SYSTEM.start(data, 7)
    if order is not None:
        state = replace(state, order=tuple(order), turn_index=0, turn=Turn(order[0]))
        state = _start_of_turn(state, order[0], [], ScriptedDice(()))
    return state


CURRENT = object()


def run(state, kind, dice=(), actor=CURRENT, **params):
    """Apply one command with these die results (actor: the current one by default, None
    for the GM); return (state, events)."""
    command = Command(state.current if actor is CURRENT else actor, kind, params)
    result = SYSTEM.apply(state, command, ScriptedDice(dice))
    assert not isinstance(result, Rejected), result.problems
    return result


def codes(events):
    return [e.code for e in events]
