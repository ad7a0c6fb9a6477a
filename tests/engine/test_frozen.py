"""`warfare.engine.frozen` (issue 13): the fast `replace` gives what `dataclasses.replace`
gives, and the per-state caches never hand a result to another state."""

import dataclasses
from dataclasses import dataclass, field

import pytest

from warfare.engine.frozen import per_fields, per_setup, per_state, replace, replace_normalised


@dataclass(frozen=True)
class Plain:
    a: int
    b: tuple[int, ...] = ()
    c: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Normalised:
    a: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "a", tuple(sorted(self.a)))


@dataclass(frozen=True, slots=True)
class Slotted:
    a: int
    b: int = 0


@dataclass(frozen=True, slots=True)
class PartlyNormalised:
    a: tuple[int, ...]
    b: int = 0
    calls = [0]

    def __post_init__(self) -> None:
        self.calls[0] += 1
        object.__setattr__(self, "a", tuple(sorted(self.a)))

    post_init_fields = frozenset({"a"})


def test_replace_is_dataclasses_replace():
    plain = Plain(1, (2,), {"x": 1})
    assert replace(plain, a=5) == dataclasses.replace(plain, a=5)
    assert replace(plain, a=5).b is plain.b
    assert replace(Normalised((3, 1)), a=(9, 2)).a == (2, 9)  # __init__ and __post_init__ ran
    assert replace(Slotted(1), b=4) == Slotted(1, 4)
    slotted = replace(Slotted(1, 2), a=3)  # slots: each field set on a new instance
    assert slotted == Slotted(3, 2) and type(slotted) is Slotted
    with pytest.raises(dataclasses.FrozenInstanceError):
        slotted.b = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        replace(Slotted(1), nonsense=1)
    with pytest.raises(TypeError):
        replace(plain, nonsense=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        replace(plain, a=2).a = 3  # type: ignore[misc]


def test_a_change_beside_the_normalised_fields_skips_post_init_and_gives_the_same():
    """`post_init_fields`: a change of another field copies the normalised ones as they
    are (what `__post_init__` would make of them again); a change of one of them still runs
    `__post_init__`."""
    one = PartlyNormalised((3, 1))
    before = PartlyNormalised.calls[0]
    other = replace(one, b=7)
    assert PartlyNormalised.calls[0] == before  # the fast path
    assert other == dataclasses.replace(one, b=7) == PartlyNormalised((1, 3), 7)
    assert type(other) is PartlyNormalised
    assert replace(one, a=(9, 2)).a == (2, 9)  # __post_init__ ran
    assert PartlyNormalised.calls[0] > before


def test_per_state_keeps_results_in_the_state_only():
    calls = []

    @per_state()
    def double(state, n):
        calls.append((state.a, n))
        return state.a * n

    state = Plain(3)
    assert double(state, 2) == double(state, 2) == 6
    assert calls == [(3, 2)]
    moved = replace(state, a=4)
    assert double(moved, 2) == 8  # the new state does not see the old state's memo
    same = replace(state, b=(1,))
    assert double(same, 2) == 6 and len(calls) == 3
    assert same == Plain(3, (1,))  # equality ignores the memo
    assert double(Slotted(5), 2) == 10 and double(Slotted(5), 2) == 10  # slots: by identity


def test_per_fields_reuses_a_result_while_those_fields_are_the_same_objects():
    calls = []

    @per_fields("b")
    def size(state):
        calls.append(state.b)
        return len(state.b)

    state = Plain(1, (1, 2, 3))
    assert size(state) == 3
    assert size(replace(state, a=9)) == 3  # `a` changed, `b` is the same tuple
    assert calls == [(1, 2, 3)]
    assert size(replace(state, b=(1,))) == 1
    assert len(calls) == 2


def test_per_setup_shares_a_result_between_equal_set_ups_only():
    """A forecast starts hundreds of battles from one set-up: an equal set-up (another
    object) gets the result worked out once; a set-up that differs in a value, an order or
    only a type (a tuple for a list, True or "1" for 1) gets its own; one that holds
    anything but plain data is worked out every time."""
    calls = []

    @per_setup()
    def prepared(setup):
        calls.append(setup)
        return len(calls)

    first = prepared({"sides": [1, 2], "terrain": "plains"})
    assert prepared({"sides": [1, 2], "terrain": "plains"}) == first
    assert len(calls) == 1
    others = [{"sides": (1, 2), "terrain": "plains"}, {"sides": [True, 2], "terrain": "plains"},
              {"sides": ["1", 2], "terrain": "plains"}, {"sides": [2, 1], "terrain": "plains"},
              {"terrain": "plains", "sides": [1, 2]}]  # fmt: skip
    assert len({prepared(setup) for setup in others}) == len(others) and len(calls) == 6

    class Custom(dict):
        pass

    prepared({"sides": Custom()})
    prepared({"sides": Custom()})
    assert len(calls) == 8


def test_per_setup_shares_a_result_with_a_copy_that_shares_its_parts():
    """A set-up whose parts are shared (the same army twice, a shallow copy of it) is still
    the same set-up: the key must not depend on how often an object is referenced (marshal's
    back-references from format 3 on do)."""
    calls = []

    @per_setup()
    def prepared(setup):
        calls.append(setup)
        return len(calls)

    army = {"name": "orcs", "stands": [1, 2]}
    setup = {"sides": [army, army], "terrain": "plains"}
    first = prepared(setup)
    assert prepared(dict(setup)) == first
    assert prepared({"sides": [dict(army), dict(army)], "terrain": "plains"}) == first
    assert len(calls) == 1


def test_replace_normalised_is_the_copy_post_init_would_make():
    """A change given in the normal form (issue 14: a spec's conditions as its sorted pairs)
    gives the object `dataclasses.replace` gives, with or without slots, without
    `__post_init__`; a field it does not know still raises as `dataclasses.replace` does."""
    from warfare.engine.systems.pf2e.activities.state import set_conditions
    from warfare.engine.systems.pf2e.armies import new_basic_spec
    from warfare.engine.systems.pf2e.tables import ArmyType

    spec = new_basic_spec(ArmyType.INFANTRY, 3, ("toughened_soldiers",))
    pairs = (("mired", 2), ("shaken", 1))
    made = replace_normalised(spec, conditions=pairs)
    assert made == dataclasses.replace(spec, conditions={"shaken": 1, "mired": 2})
    assert type(made.conditions) is tuple and made.tactics == spec.tactics
    assert replace_normalised(Normalised((1, 2)), a=(3, 4)) == Normalised((4, 3))
    with pytest.raises(TypeError):
        replace_normalised(Slotted(1), nope=2)
    from warfare.engine.systems.pf2e.activities.state import ArmyState

    army = ArmyState("a", spec, 4, "h1")
    changed = set_conditions(army, {"shaken": 2, "weary": 0, "mired": True})
    assert changed.spec == dataclasses.replace(spec, conditions={"shaken": 2, "mired": 1})
