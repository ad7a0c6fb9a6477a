"""Typed bonuses and penalties, and the `Stat` they add up to.

PF2e stacking: untyped modifiers all add; of each type (item, status, circumstance) only the
highest bonus and the worst penalty count. `Stat.breakdown` lists the terms that counted, so it
always sums to the value ("AC 22 = 22 level + 1 magic armor - 1 weary"); `ignored` lists the
ones that did not, for display.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

Term = tuple[str, int]


class BonusType(StrEnum):
    UNTYPED = "untyped"
    ITEM = "item"
    STATUS = "status"
    CIRCUMSTANCE = "circumstance"


@dataclass(frozen=True, slots=True)
class Modifier:
    code: str
    value: int
    type: BonusType = BonusType.UNTYPED


@dataclass(frozen=True, slots=True)
class Stat:
    value: int
    breakdown: tuple[Term, ...] = ()
    ignored: tuple[Term, ...] = ()

    def __post_init__(self) -> None:
        if sum(value for _, value in self.breakdown) != self.value:
            raise ValueError(f"Breakdown {self.breakdown} does not add up to {self.value}.")

    @property
    def dc(self) -> int:
        """The matching DC (§0.2): the modifier + 10."""
        return self.value + 10

    def to_dict(self) -> dict[str, object]:
        return {
            "value": self.value,
            "breakdown": [list(term) for term in self.breakdown],
            "ignored": [list(term) for term in self.ignored],
        }


def combine(modifiers: Iterable[Modifier]) -> Stat:
    """Add modifiers by PF2e stacking rules (see the module docstring); keeps input order."""
    modifiers = list(modifiers)
    counted: set[int] = set()
    for index, modifier in enumerate(modifiers):
        if modifier.type is BonusType.UNTYPED:
            counted.add(index)
    for bonus_type in (BonusType.ITEM, BonusType.STATUS, BonusType.CIRCUMSTANCE):
        typed = [(i, m) for i, m in enumerate(modifiers) if m.type is bonus_type]
        bonuses = [(i, m) for i, m in typed if m.value > 0]
        penalties = [(i, m) for i, m in typed if m.value < 0]
        if bonuses:
            counted.add(max(bonuses, key=lambda pair: (pair[1].value, -pair[0]))[0])
        if penalties:
            counted.add(min(penalties, key=lambda pair: (pair[1].value, pair[0]))[0])
    breakdown = tuple(
        (m.code, m.value) for i, m in enumerate(modifiers) if i in counted and m.value
    )
    ignored = tuple(
        (m.code, m.value) for i, m in enumerate(modifiers) if i not in counted and m.value
    )
    return Stat(sum(value for _, value in breakdown), breakdown, ignored)
