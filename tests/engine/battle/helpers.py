"""Builders for battle tests: armies, setups, a started battle in a chosen order, and a
`run` that applies one command with scripted dice and fails loudly on a rejection."""

from dataclasses import replace

from warfare.engine.battle.protocol import Command, Rejected
from warfare.engine.dice import ScriptedDice
from warfare.engine.systems.pf2e.activities.state import new_army_state
from warfare.engine.systems.pf2e.armies import new_basic_spec
from warfare.engine.systems.pf2e.battle import SYSTEM
from warfare.engine.systems.pf2e.gear import GearChoice
from warfare.engine.systems.pf2e.tables import ArmyType

INF, CAV, SKI, SIE = ArmyType.INFANTRY, ArmyType.CAVALRY, ArmyType.SKIRMISHER, ArmyType.SIEGE
RANGED_WEAPON = (GearChoice("additional_weapon"),)


def army(key, type_=INF, level=3, tactics=(), *, hp=None, conditions=None, gear=(), potions=0,
         **entry):  # fmt: skip
    """A setup entry for one basic army (level-table numbers, §1.2/§1.3)."""
    spec = new_basic_spec(type_, level, tuple(tactics))
    spec = replace(spec, gear=tuple(gear), conditions=conditions or {})
    state = new_army_state(key, spec, "A1")
    if hp is not None:
        state = replace(state, hp=hp)
    state = replace(state, potion_doses=potions)
    return {"army": state.to_dict(), **entry}


def setup(ours, theirs, *, terrain=(), fortifications=(), initiative=None, levels=(3, 3)):
    data = {
        "sides": [
            {"key": "k", "pcs_side": True, "kingdom_level": levels[0], "armies": list(ours)},
            {"key": "e", "kingdom_level": levels[1], "armies": list(theirs)},
        ],
        "terrain": list(terrain),
        "fortifications": list(fortifications),
    }
    if initiative:
        data["initiative_dice"] = dict(initiative)
    return data


def begin(ours, theirs, order=None, **kw):
    """A started battle; `order` (army keys) replaces the rolled initiative order."""
    state = SYSTEM.start(setup(ours, theirs, **kw), 7)
    if order is not None:
        state = replace(state, order=tuple(order), turn=0, actions_left=3)
    return state


def run(state, kind, dice=(), actor=None, **params):
    """Apply one command with these die results; return (state, events, dice)."""
    command = Command(actor if actor is not None else state.current, kind, params)
    if kind == "gm_correction":
        command = Command(None, kind, params)
    scripted = ScriptedDice(dice)
    result = SYSTEM.apply(state, command, scripted)
    assert not isinstance(result, Rejected), result.problems
    new_state, events = result
    assert scripted.remaining == (), f"unused dice {scripted.remaining}"
    return new_state, events, scripted


def rejected(state, kind, actor=None, **params):
    """The problem codes `apply` gives for this command (it must be rejected)."""
    command = Command(actor if actor is not None else state.current, kind, params)
    if kind == "gm_correction":
        command = Command(None, kind, params)
    result = SYSTEM.apply(state, command, ScriptedDice([]))
    assert isinstance(result, Rejected), "the command was accepted"
    return [problem.code for problem in result.problems]


def codes(events):
    return [event.code for event in events]


def event(events, code):
    found = [e for e in events if e.code == code]
    assert found, f"no {code} in {codes(events)}"
    return found[0]


def engaged(state, a, b):
    return state.is_engaged(a, b)


def conditions(state, key):
    return dict(state.army(key).army.spec.condition_values)


def effects_on(state, key, condition=None):
    return [e for e in state.effects if e.army == key and condition in (None, e.condition)]


def options(state, key):
    """{action key: [params...]} of the legal actions for the army whose turn it is."""
    return {
        spec.key: [dict(o.params) for o in spec.options]
        for spec in SYSTEM.legal_actions(state, state.current)
        if spec.key == key
    }.get(key, [])
