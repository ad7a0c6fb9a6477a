"""Fast helpers for the engines' frozen dataclasses (issue 13: the engines stop redoing work).

* `replace(obj, **changes)`: `dataclasses.replace` with the same result, several times
  faster for the plain frozen dataclasses the battle states are made of: instead of calling
  `__init__` field by field, it copies the instance's `__dict__` and sets the changes. A
  class with a `__post_init__` (which may normalise what it is given), `__slots__`, or a
  field not set by `__init__` goes through `dataclasses.replace` unchanged, and so does a
  change naming something that is not a field (it raises the same error).
* `per_state(function)`: remembers the last results of a function of an (immutable) state
  and a few hashable arguments, for as long as the very same state object is asked again:
  what one command or one policy decision reads many times is worked out once. Keyed by
  identity and holding the state, so a new state never sees an old state's result.
"""

import dataclasses
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

T = TypeVar("T")
_GENERIC = None
_PLANS: dict[type, frozenset[str] | None] = {}


def _plan(cls: type) -> frozenset[str] | None:
    """The init field names of `cls` if the fast path is exact for it, else None."""
    if not dataclasses.is_dataclass(cls) or "__slots__" in cls.__dict__:
        return _GENERIC
    if getattr(cls, "__post_init__", None) is not None:
        return _GENERIC
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
    return _GENERIC if init_vars else frozenset(names)


def replace(obj: T, /, **changes: Any) -> T:
    """`dataclasses.replace(obj, **changes)`, fast for plain frozen dataclasses."""
    cls = obj.__class__
    try:
        names = _PLANS[cls]
    except KeyError:
        names = _PLANS[cls] = _plan(cls)
    if names is None or not names.issuperset(changes):
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    new = object.__new__(cls)
    values = obj.__dict__.copy()
    values.update(changes)
    object.__setattr__(new, "__dict__", values)
    return new


def per_state(size: int = 64) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Decorator: cache `function(state, *args, **kwargs)` for the same state object."""

    def decorate(function: Callable[..., T]) -> Callable[..., T]:
        cache: dict[Any, tuple[Any, T]] = {}

        @wraps(function)
        def cached(state: Any, *args: Any, **kwargs: Any) -> T:
            key = (id(state), args, tuple(kwargs.items()) if kwargs else ())
            hit = cache.get(key)
            if hit is not None and hit[0] is state:
                return hit[1]
            value = function(state, *args, **kwargs)
            if len(cache) >= size:
                cache.clear()
            cache[key] = (state, value)
            return value

        cached.cache_clear = cache.clear  # type: ignore[attr-defined]
        return cached

    return decorate
