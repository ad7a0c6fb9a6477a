"""Events: what an activity or a kingdom turn changed, as codes with params (never prose).

A log page renders each event from its code (translated on the Django side) and its params.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Event":
        return cls(str(data["code"]), dict(data.get("params", {})))
