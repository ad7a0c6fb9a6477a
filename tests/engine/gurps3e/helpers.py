"""Builders for GURPS 3e tests: success rolls with a chosen 3d6 total, units, forces,
characters and battle setups, and a `run` that fails loudly on a rejection."""

from warfare.engine.battle.protocol import Command, Rejected
from warfare.engine.checks import SuccessRoll, gurps_degree
from warfare.engine.dice import ScriptedDice
from warfare.engine.house import HouseDefault
from warfare.engine.systems.gurps3e import house_rules
from warfare.engine.systems.gurps3e.battle import SYSTEM
from warfare.engine.systems.gurps3e.characters import Character
from warfare.engine.systems.gurps3e.forces import Force, Unit


def rolled(total: int, skill: int) -> SuccessRoll:
    """A 3d6 success roll of `total` against `skill` (the faces do not matter)."""
    return SuccessRoll((1, 1, total - 2), total, skill, gurps_degree(total, skill))


def faces(total: int) -> list[int]:
    """Three d6 faces summing to `total` (3..18)."""
    first = min(6, total - 2)
    second = min(6, total - first - 1)
    return [first, second, total - first - second]


def unit(key="u1", men=100, ts_per_man=2, **fields) -> Unit:
    return Unit.from_dict({"key": key, "men": men, "ts_per_man": ts_per_man, **fields})


def force(key="a", role="attacker", tl=3, strategy=12, units=None, **fields) -> Force:
    units = units if units is not None else [{"key": f"{key}1", "men": 100, "ts_per_man": 2}]
    return Force.from_dict(
        {"key": key, "role": role, "tl": tl, "strategy": strategy, "units": units, **fields}
    )


def character(key="p1", side="a", ht=12, **fields) -> Character:
    return Character.from_dict({"key": key, "side": side, "ht": ht, **fields})


def side(key, role, *, tl=3, strategy=12, units=None, **fields) -> dict:
    units = units if units is not None else [{"key": f"{key}1", "men": 100, "ts_per_man": 2}]
    return {"key": key, "role": role, "tl": tl, "strategy": strategy, "units": units, **fields}


def setup(a=None, b=None, pcs=(), **fields) -> dict:
    """A setup of two sides; a field given as None is left out."""
    fields = {k: v for k, v in fields.items() if v is not None}
    return {
        "sides": [a or side("a", "attacker"), b or side("b", "defender")],
        "pcs": list(pcs),
        **fields,
    }


def run(state, actor, kind, params=None, dice=(), typed=None):
    """Apply one command with scripted dice; fail the test on a rejection."""
    result = SYSTEM.apply(state, Command(actor, kind, params or {}, typed), ScriptedDice(dice))
    assert not isinstance(result, Rejected), result
    return result


def set_house(monkeypatch, key, value):
    """Replace one house default for a test (what a GM correcting the table does)."""
    table = tuple(
        HouseDefault(e.key, value, e.tag, e.source, e.note) if e.key == key else e
        for e in house_rules.HOUSE_DEFAULTS
    )
    monkeypatch.setattr(house_rules, "HOUSE_DEFAULTS", table)
