"""Checks: roll, compare, get a degree of success.

PF2e (reference pf2e §0.1): d20 + modifier vs DC, four degrees, natural 20/1 shift one step.
`Degree` is shared by all systems (GURPS success rolls also end in critical success, success,
failure or critical failure); a GURPS 3d6 `success_roll` can sit beside `check` and return its
own result type.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Protocol

from warfare.engine.dice import Dice


class Degree(IntEnum):
    CRIT_FAILURE = 0
    FAILURE = 1
    SUCCESS = 2
    CRIT_SUCCESS = 3

    @property
    def code(self) -> str:
        """Message code for events and templates, e.g. 'critical_success'."""
        return _CODES[self]

    @property
    def succeeded(self) -> bool:
        return self >= Degree.SUCCESS


_CODES = {
    Degree.CRIT_FAILURE: "critical_failure",
    Degree.FAILURE: "failure",
    Degree.SUCCESS: "success",
    Degree.CRIT_SUCCESS: "critical_success",
}


def improve(degree: Degree, steps: int = 1) -> Degree:
    """One (or `steps`) degrees better, never above critical success."""
    return Degree(max(Degree.CRIT_FAILURE, min(Degree.CRIT_SUCCESS, degree + steps)))


def worsen(degree: Degree, steps: int = 1) -> Degree:
    """One (or `steps`) degrees worse, never below critical failure."""
    return improve(degree, -steps)


# --- PF2e: d20 checks -------------------------------------------------------------------------


def degree_of_success(total: int, dc: int, natural: int | None = None) -> Degree:
    """PF2e degree (§0.1): ±10 around the DC, then a natural 20 improves / a natural 1 worsens.

    `natural` is the d20's face; pass None when no d20 was rolled (no shift).
    """
    if total >= dc + 10:
        degree = Degree.CRIT_SUCCESS
    elif total >= dc:
        degree = Degree.SUCCESS
    elif total <= dc - 10:
        degree = Degree.CRIT_FAILURE
    else:
        degree = Degree.FAILURE
    if natural == 20:
        return improve(degree)
    if natural == 1:
        return worsen(degree)
    return degree


class HasBreakdown(Protocol):
    """A modifier that can explain itself, such as a stat block's `Stat`."""

    @property
    def value(self) -> int: ...

    @property
    def breakdown(self) -> tuple[tuple[str, int], ...]: ...


@dataclass(frozen=True, slots=True)
class CheckResult:
    die: int
    modifier: int
    total: int
    dc: int
    degree: Degree
    purpose: str = ""
    breakdown: tuple[tuple[str, int], ...] = ()
    """Where the modifier came from, as (term code, value) pairs."""

    @property
    def succeeded(self) -> bool:
        return self.degree.succeeded

    def to_dict(self) -> dict[str, Any]:
        return {
            "die": self.die,
            "modifier": self.modifier,
            "total": self.total,
            "dc": self.dc,
            "degree": self.degree.code,
            "purpose": self.purpose,
            "breakdown": [list(term) for term in self.breakdown],
        }


def check(
    dice: Dice,
    modifier: int | HasBreakdown,
    dc: int,
    *,
    purpose: str,
    breakdown: Sequence[tuple[str, int]] = (),
) -> CheckResult:
    """Roll d20 + modifier against `dc` (§0.1). A `Stat` brings its own breakdown."""
    if not isinstance(modifier, int):
        breakdown = modifier.breakdown
        modifier = modifier.value
    die, total, degree = roll_d20(dice, modifier, dc, purpose=purpose)
    return CheckResult(
        die=die,
        modifier=modifier,
        total=total,
        dc=dc,
        degree=degree,
        purpose=purpose,
        breakdown=tuple((str(code), int(value)) for code, value in breakdown),
    )


def roll_d20(dice: Dice, modifier: int, dc: int, *, purpose: str) -> tuple[int, int, Degree]:
    """`check`'s roll alone: (the d20, the total, the degree) of d20 + `modifier` vs `dc`."""
    die = dice.d20(purpose=purpose)
    total = die + modifier
    return die, total, degree_of_success(total, dc, die)


def flat_check(dice: Dice, dc: int, *, purpose: str = "flat_check") -> CheckResult:
    """A bare d20 vs `dc` (§0.1: e.g. DC 11 for shaken, DC 16 for a damaged defeated army).

    A flat check only succeeds (d20 >= DC) or fails, as in PF2e core.
    """
    die = dice.d20(purpose=purpose)
    degree = Degree.SUCCESS if die >= dc else Degree.FAILURE
    return CheckResult(die=die, modifier=0, total=die, dc=dc, degree=degree, purpose=purpose)


# --- GURPS (3e and 4e): 3d6 success rolls and Quick Contests (gurps §0.2) ---------------------


def gurps_degree(roll: int, skill: int) -> Degree:
    """The outcome of a 3d6 success roll of `roll` against effective `skill` (gurps §0.2).

    3-4 always critically succeed, 5 at skill 15+, 6 at skill 16+; 18 always critically
    fails, 17 at skill 15 or less (an ordinary failure at 16+), and so does any roll of skill
    + 10 or more; 17 and 18 always fail, 3 and 4 always succeed."""
    if roll <= 4 or (roll == 5 and skill >= 15) or (roll == 6 and skill >= 16):
        return Degree.CRIT_SUCCESS
    if roll == 18 or (roll == 17 and skill <= 15) or roll >= skill + 10:
        return Degree.CRIT_FAILURE
    if roll >= 17 or roll > skill:
        return Degree.FAILURE
    return Degree.SUCCESS


@dataclass(frozen=True, slots=True)
class SuccessRoll:
    """A 3d6 roll against effective skill: `margin` is skill - roll (signed, gurps §0.2)."""

    dice: tuple[int, int, int]
    roll: int
    skill: int
    degree: Degree
    purpose: str = ""
    breakdown: tuple[tuple[str, int], ...] = ()
    """Where the effective skill came from, as (term code, value) pairs."""
    typed: int = 0
    """How many of the three dice were rolled at the table and typed in (source "typed")."""

    @property
    def margin(self) -> int:
        return self.skill - self.roll

    @property
    def succeeded(self) -> bool:
        return self.degree.succeeded

    def to_dict(self) -> dict[str, Any]:
        return {
            "dice": list(self.dice),
            "roll": self.roll,
            "skill": self.skill,
            "margin": self.margin,
            "degree": self.degree.code,
            "purpose": self.purpose,
            "breakdown": [list(term) for term in self.breakdown],
            **({"typed": self.typed} if self.typed else {}),
        }


def success_roll(
    dice: Dice, skill: int, *, purpose: str, breakdown: Sequence[tuple[str, int]] = ()
) -> SuccessRoll:
    """Roll 3d6 against effective `skill` (gurps §0.2); `typed` counts the dice whose source
    in the dice's log is "typed" (rolled at the table)."""
    before = len(dice.log)
    faces = (
        dice.roll(6, purpose=purpose),
        dice.roll(6, purpose=purpose),
        dice.roll(6, purpose=purpose),
    )
    roll = sum(faces)
    return SuccessRoll(
        dice=faces,
        roll=roll,
        skill=skill,
        degree=gurps_degree(roll, skill),
        purpose=purpose,
        breakdown=tuple((str(code), int(value)) for code, value in breakdown),
        typed=sum(1 for rolled in dice.log[before:] if rolled.source == "typed"),
    )


@dataclass(frozen=True, slots=True)
class QuickContest:
    """Both sides rolled (gurps §0.2): the higher signed margin wins; equal margins tie.

    `winner` is 0 (first roll), 1 (second) or None (tie); `margin_of_victory` >= 0."""

    first: SuccessRoll
    second: SuccessRoll

    @property
    def winner(self) -> int | None:
        if self.first.margin == self.second.margin:
            return None
        return 0 if self.first.margin > self.second.margin else 1

    @property
    def margin_of_victory(self) -> int:
        return abs(self.first.margin - self.second.margin)

    def to_dict(self) -> dict[str, Any]:
        return {
            "first": self.first.to_dict(),
            "second": self.second.to_dict(),
            "winner": self.winner,
            "margin_of_victory": self.margin_of_victory,
        }


def quick_contest(first: SuccessRoll, second: SuccessRoll) -> QuickContest:
    """Compare two rolls as a Quick Contest (gurps §0.2)."""
    return QuickContest(first, second)
