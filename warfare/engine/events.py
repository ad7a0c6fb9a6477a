"""Events: what a command, an activity or a kingdom turn did, as codes with params (never
prose). Every rule system uses this one class; the Django layer renders each event from its
code (translated) and its params.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: The values `plain` gives back as they are, by exact type (a subclass may have `to_dict`).
_LEAVES = frozenset({str, int, float, bool, type(None)})


def plain(value: Any) -> Any:
    """Dataclasses (with `to_dict`), tuples, sets and mappings as JSON-ready dicts and lists,
    so a stored event compares equal to the one replay rebuilds. Leaves, dicts, lists and
    tuples are told by their exact type first (a state's events are walked on every save
    and view of it: the `to_dict` and ABC checks took most of the walk)."""
    kind = value.__class__
    if kind in _LEAVES:
        return value
    if kind is dict:
        return {k if k.__class__ is str else str(k): v if v.__class__ in _LEAVES else plain(v)
                for k, v in value.items()}  # fmt: skip
    if kind is list or kind is tuple:  # (a leaf taken as it is, without a call of its own)
        return [v if v.__class__ in _LEAVES else plain(v) for v in value]
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        return [plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Event:
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": plain(self.params)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Event":
        return cls(str(data["code"]), dict(data.get("params") or {}))
