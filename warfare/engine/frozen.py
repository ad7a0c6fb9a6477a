"""Fast helpers for the engines' frozen dataclasses (issue 13: the engines stop redoing work).

* `replace(obj, **changes)`: `dataclasses.replace` with the same result, several times
  faster for the plain frozen dataclasses the battle states are made of: instead of calling
  `__init__` field by field, it copies the instance's `__dict__` and sets the changes (a
  class with `__slots__`: it sets each field of a new instance). A class with a
  `__post_init__` (which may normalise what it is given) or a field not set by `__init__`
  goes through `dataclasses.replace` unchanged, and so does a change naming something that
  is not a field (it raises the same error); a class whose `__post_init__` only normalises
  some fields, idempotently, may name them in `post_init_fields` (a frozenset): a change
  that leaves them alone takes the fast path too (the normalised values are copied as
  they are, which is what `__post_init__` would make of them again).
* `per_fields(*names)`: the same for a function that reads only some fields of the state,
  for as long as those fields are the very same objects (see below).
* `per_state(function)`: remembers the results of a function of an (immutable) state and
  a few hashable arguments for that very state object: what one command or one policy
  decision reads many times is worked out once. The results are kept in the state object
  itself, so a new state (even an equal one) never sees an old state's result (except the
  entries its class's `memo_kept` hands on, see `replace`).
"""

import dataclasses
import marshal
from collections.abc import Callable
from functools import wraps
from operator import attrgetter
from typing import Any, TypeVar

T = TypeVar("T")
MEMO = "_per_state_memo"
_GENERIC = None
_PLANS: dict[type, frozenset[str] | None] = {}


def _plan(cls: type) -> frozenset[str] | None:
    """The field names `cls`'s changes may name for the fast path to be exact, else None
    (all its init fields; without those its `__post_init__` normalises)."""
    if not dataclasses.is_dataclass(cls):
        return _GENERIC
    normalised: frozenset[str] = frozenset()
    if getattr(cls, "__post_init__", None) is not None:
        declared = getattr(cls, "post_init_fields", None)
        if not isinstance(declared, frozenset):
            return _GENERIC
        normalised = declared
    names = set()
    for f in dataclasses.fields(cls):
        if not f.init:
            return _GENERIC
        names.add(f.name)
    init_vars = [
        name
        for name, value in getattr(cls, "__dataclass_fields__", {}).items()
        if value._field_type is not dataclasses._FIELD  # type: ignore[attr-defined]
    ]
    if init_vars or not normalised <= names:
        return _GENERIC
    return frozenset(names - normalised)


def replace(obj: T, /, **changes: Any) -> T:
    """`dataclasses.replace(obj, **changes)`, fast for plain frozen dataclasses."""
    cls = obj.__class__
    try:
        names = _DICT_PLANS[cls]
    except KeyError:
        names = _DICT_PLANS[cls] = _dict_plan(cls)
    if names is None or not names.issuperset(changes):
        return _replace_other(obj, cls, changes)
    values = obj.__dict__.copy()
    if MEMO in values:  # what `per_state` remembered belongs to the old state ...
        memo = values.pop(MEMO)
        try:
            kept = _KEEPERS[cls]
        except KeyError:
            kept = _KEEPERS[cls] = getattr(cls, "memo_kept", None)
        if kept is not None:  # ... but for what the class says the changes leave valid
            found = kept(memo, changes)
            if found:
                values[MEMO] = found
    values.update(changes)
    new = object.__new__(cls)
    object.__setattr__(new, "__dict__", values)
    return new


_DICT_PLANS: dict[type, frozenset[str] | None] = {}
"""`replace`'s first look-up: per class the fields a change may name for the copy of its
`__dict__` (`_plan`'s), None for a class that takes another way (`_replace_other`: slots, or
`dataclasses.replace`)."""


def _dict_plan(cls: type) -> frozenset[str] | None:
    try:
        names = _PLANS[cls]
    except KeyError:
        names = _PLANS[cls] = _plan(cls)
    return None if names is None or "__slots__" in cls.__dict__ else names


def _replace_other(obj: T, cls: type, changes: dict[str, Any]) -> T:
    """`replace` for a class with `__slots__` (or a change it cannot make fast)."""
    try:
        names = _PLANS[cls]
    except KeyError:
        names = _PLANS[cls] = _plan(cls)
    if names is None or not names.issuperset(changes):
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    return _replace_slotted(obj, cls, changes)


def replace_normalised(obj: T, /, **changes: Any) -> T:
    """`replace` for changes already in the form the class's `__post_init__` gives its
    `post_init_fields` (say a spec's conditions as the sorted tuple of pairs it makes of a
    dict): the copy is made without `__post_init__`, as `replace` makes one for the other
    fields. The caller answers for the form (an equal object either way)."""
    cls = obj.__class__
    try:
        names = _PLANS[cls]
    except KeyError:
        names = _PLANS[cls] = _plan(cls)
    declared = getattr(cls, "post_init_fields", frozenset())
    if names is None or not (names | declared).issuperset(changes):
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    if "__slots__" in cls.__dict__:
        return _replace_slotted(obj, cls, changes)
    values = obj.__dict__.copy()
    values.pop(MEMO, None)
    values.update(changes)
    new = object.__new__(cls)
    object.__setattr__(new, "__dict__", values)
    return new


def _replace_slotted(obj: T, cls: type, changes: dict[str, Any]) -> T:
    """`replace` for a dataclass with `__slots__` (no `__dict__` to copy): each field of a
    new instance set from the changes or the instance, through the slots' own setters (as a
    frozen dataclass's `__init__` sets them, past its `__setattr__`)."""
    try:
        places, read, setters = _SLOTTED[cls]
    except KeyError:
        fields = tuple(sorted(f.name for f in dataclasses.fields(cls)))  # type: ignore[arg-type]
        read = attrgetter(*fields) if len(fields) > 1 else (lambda o: (getattr(o, fields[0]),))
        setters = tuple(_slot_setter(cls, name) for name in fields)
        places = {name: i for i, name in enumerate(fields)}
        _SLOTTED[cls] = (places, read, setters)
    values = list(read(obj))
    for name, value in changes.items():  # (the changed fields only: no look-up per field)
        values[places[name]] = value
    new = object.__new__(cls)
    for value, setter in zip(values, setters, strict=True):
        setter(new, value)
    return new


def _slot_setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """How to set field `name` of a new instance: its slot's `__set__`, or, for a field kept
    elsewhere (a base class without slots), `object.__setattr__`."""
    for klass in cls.__mro__:
        slot = klass.__dict__.get(name)
        if slot is not None and type(slot).__name__ == "member_descriptor":
            return slot.__set__
    return lambda instance, value: object.__setattr__(instance, name, value)


_SLOTTED: dict[type, tuple[dict[str, int], Callable[[Any], tuple[Any, ...]], tuple]] = {}
"""`_replace_slotted`'s plan per class: each field's place (in sorted order), a reader of
all the fields' values in that order, and their setters."""


_KEEPERS: dict[type, Callable[[dict, dict], dict | None] | None] = {}
"""Per class its `memo_kept(memo, changes)` (None: it has none): an optional static method
of a state class giving the entries of an instance's memo (`state_memo`) that stay valid
for a copy with those field changes (e.g. results of its pieces when only the turn
changed); `replace` starts the copy's memo with them."""


def per_state(size: int = 64) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorator: cache `function(state, *args, **kwargs)` for the same state object.

    The results live in the state itself (a private `__dict__` entry that `replace` does not
    copy and that equality, `to_dict` and `dataclasses` never read), so they go when the
    state goes; a state without a `__dict__` (slots) uses a small cache of the last `size`
    states, keyed by identity."""

    def decorate(function: Callable[..., T]) -> Callable[..., T]:
        cache: dict[Any, tuple[Any, T]] = {}
        name = function.__qualname__

        @wraps(function)
        def cached(state: Any, *args: Any, **kwargs: Any) -> T:
            key = (name, args, tuple(kwargs.items())) if kwargs else (name, args)
            try:
                memo = state.__dict__[MEMO]
            except KeyError:
                memo = {}
                object.__setattr__(state, MEMO, memo)
            except AttributeError:
                return _by_identity(cache, size, function, state, args, kwargs)
            try:
                return memo[key]
            except KeyError:
                value = memo[key] = function(state, *args, **kwargs)
                return value

        cached.cache_clear = cache.clear  # type: ignore[attr-defined]
        return cached

    return decorate


def state_memo(state: Any) -> dict[Any, Any]:
    """The dict `per_state` keeps in this state object (created empty if there is none): for
    a result of the state computed by hand under a key of one's own (a tuple starting with
    a name of one's own). AttributeError for a state without a `__dict__`."""
    try:
        return state.__dict__[MEMO]
    except KeyError:
        memo: dict[Any, Any] = {}
        object.__setattr__(state, MEMO, memo)
        return memo


def _by_identity(cache: dict, size: int, function: Callable[..., T], state: Any, args, kwargs):
    key = (id(state), args, tuple(kwargs.items()) if kwargs else ())
    hit = cache.get(key)
    if hit is not None and hit[0] is state:
        return hit[1]
    value = function(state, *args, **kwargs)
    if len(cache) >= size:
        cache.clear()
    cache[key] = (state, value)
    return value


def per_fields(*names: str, size: int = 1024) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorator: cache `function(state, *args)` while the state's fields `names` are the
    very same objects: for a function that reads only those parts of the state (say the
    armies and the effects), a new state that changed something else (the actions left,
    the turn) reuses the result. Keyed by the identity of those parts, holding them."""

    parts_of = attrgetter(*names) if len(names) > 1 else (lambda s: (getattr(s, names[0]),))

    def decorate(function: Callable[..., T]) -> Callable[..., T]:
        cache: dict[Any, tuple[tuple[Any, ...], T]] = {}

        @wraps(function)
        def cached(state: Any, *args: Any, **kwargs: Any) -> T:
            parts = parts_of(state)
            key = (*map(id, parts), args, tuple(kwargs.items()) if kwargs else ())
            hit = cache.get(key)
            # The same ids with the parts held by the cache: the very same objects (equal
            # parts would give the same result anyway: the function reads nothing else).
            if hit is not None and hit[0] == parts:
                return hit[1]
            value = function(state, *args, **kwargs)
            if len(cache) >= size:
                cache.clear()
            cache[key] = (parts, value)
            return value

        cached.cache_clear = cache.clear  # type: ignore[attr-defined]
        return cached

    return decorate


_MARSHAL_VERSION = 2
"""The last marshal format without back-references (see `per_setup`)."""


def per_setup(size: int = 32) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorator: cache `function(setup)` of a plain-data set-up on its `marshal` bytes.

    For the part of a rule system's `start` that does not depend on the seed (validating the
    set-up, building the forces): a forecast starts hundreds of battles from one set-up. The
    result is shared by every call with an equal set-up, so it must be immutable (frozen
    states, tuples) or never changed by its callers, and must not hold the set-up's own
    (mutable) parts. The key is the set-up written by `marshal` (in C: walking a set-up and
    writing its `repr` in Python was a tenth of a GURPS battle's simulation): the bytes give
    back the very value, so equal bytes are an equal set-up (the same types: a tuple is not a
    list, 1 is not "1" nor True) in the same order. A set-up holding anything marshal cannot
    write (an object of a class of one's own, a dict or list subclass) is not cached; a set-up
    must not hold a bytearray or a memoryview (written like bytes; JSON has none). Version 2
    of the format: from version 3 on, marshal marks objects it meets more than once by their
    reference counts, so a copy of a set-up (`dict(setup)`) would write other bytes."""

    def decorate(function: Callable[..., T]) -> Callable[..., T]:
        cache: dict[bytes, T] = {}

        @wraps(function)
        def cached(setup: Any) -> T:
            try:
                key = marshal.dumps(setup, _MARSHAL_VERSION)
            except ValueError:
                return function(setup)
            try:
                return cache[key]
            except KeyError:
                pass
            value = function(setup)
            if len(cache) >= size:
                cache.clear()
            cache[key] = value
            return value

        cached.cache_clear = cache.clear  # type: ignore[attr-defined]
        return cached

    return decorate
