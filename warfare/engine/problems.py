"""Validation problems as message codes with parameters, never prose.

The engine says *what* is wrong (`tactic.level_too_high` with the tactic and levels); the
Django side turns the code into a translated sentence.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Problem:
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


def codes(problems: list[Problem]) -> list[str]:
    """Just the codes, in order (handy in tests and logs)."""
    return [problem.code for problem in problems]
