"""Events: what a command, an activity or a kingdom turn did, as codes with params (never
prose). Every rule system uses this one class; the Django layer renders each event from its
code (translated) and its params.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: Values `plain` gives back as they are (by exact type: the leaves of nearly every event's
#: params, taken without a call of their own; a state's `to_dict` turns dozens of them).
_AS_IS = frozenset({str, int, float, bool, type(None)})


def plain(value: Any) -> Any:
    """Dataclasses (with `to_dict`), tuples, sets and mappings as JSON-ready dicts and lists,
    so a stored event compares equal to the one replay rebuilds."""
    kind = type(value)
    if kind in _AS_IS:
        return value
    if kind is dict:
        return {str(k): v if type(v) in _AS_IS else plain(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [v if type(v) in _AS_IS else plain(v) for v in value]
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
