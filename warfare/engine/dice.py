"""Dice: an injected roller that records every roll.

Game code never uses the `random` module's global generator (ruff bans it). It takes a `Dice`
and calls `roll`, `d20` or `roll_expr`; every roll lands in `dice.log` as a `Roll`, so a battle
event can store the dice it used. Implementations:

- `SeededDice(seed)`: a battle's dice, replayable from the seed. Built on a private
  `random.Random` and only its `random()` method: the one output Python promises to keep the
  same for the same seed across versions (`randint` and friends carry no such promise).
- `ScriptedDice(values)`: fixed results for tests; fails loudly when a value is missing or
  impossible.
- `TypedDice(values)`: results a player rolled on a real die and typed in (validated 1..sides).
"""

import random
import re
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Protocol

from warfare.engine.problems import Problem

MAX_COUNT = 100
MIN_SIDES = 2
MAX_SIDES = 1000
MAX_MODIFIER = 1000

_EXPR = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")


class DiceError(ValueError):
    """Bad dice notation or an impossible die result."""

    code = "dice.error"

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message)
        self.params = params

    @property
    def problem(self) -> Problem:
        return Problem(self.code, self.params)


class BadExpression(DiceError):
    code = "dice.bad_expression"


class DieOutOfRange(DiceError):
    code = "dice.out_of_range"


class DiceExhausted(RuntimeError):
    """A ScriptedDice/TypedDice was asked for more rolls than it was given."""

    code = "dice.exhausted"


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """NdS+M: `count` dice with `sides` sides plus a flat `modifier`."""

    count: int
    sides: int
    modifier: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_COUNT:
            raise BadExpression(f"Roll 1 to {MAX_COUNT} dice, not {self.count}.", count=self.count)
        _check_sides(self.sides)
        if abs(self.modifier) > MAX_MODIFIER:
            raise BadExpression(
                f"A modifier must be within ±{MAX_MODIFIER}.", modifier=self.modifier
            )

    def __str__(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.modifier:
            text += f"{self.modifier:+d}"
        return text


def _check_sides(sides: int) -> None:
    if isinstance(sides, bool) or not isinstance(sides, int):
        raise BadExpression(f"A die needs a whole number of sides, not {sides!r}.", sides=sides)
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise BadExpression(
            f"A die has {MIN_SIDES} to {MAX_SIDES} sides, not {sides}.", sides=sides
        )


def parse_expr(text: str) -> DiceExpr:
    """Parse 'NdS', 'dS', 'NdS+M' or 'NdS-M' (spaces and a capital D allowed)."""
    match = _EXPR.match(text) if isinstance(text, str) else None
    if match is None:
        raise BadExpression(f"Not dice notation (expected e.g. 2d6+1): {text!r}.", text=text)
    count_text, sides_text, sign, modifier_text = match.groups()
    modifier = int(modifier_text) if modifier_text else 0
    return DiceExpr(
        count=int(count_text) if count_text else 1,
        sides=int(sides_text),
        modifier=-modifier if sign == "-" else modifier,
    )


@dataclass(frozen=True, slots=True)
class Roll:
    """One recorded roll: what was rolled, each die's result, and why."""

    expression: str
    sides: int
    results: tuple[int, ...]
    modifier: int = 0
    purpose: str = ""
    source: str = "seeded"

    @property
    def total(self) -> int:
        return sum(self.results) + self.modifier

    def to_dict(self) -> dict[str, Any]:
        return {
            "expression": self.expression,
            "sides": self.sides,
            "results": list(self.results),
            "modifier": self.modifier,
            "total": self.total,
            "purpose": self.purpose,
            "source": self.source,
        }


class Dice(Protocol):
    log: list[Roll]

    def roll(self, sides: int, *, purpose: str = "") -> int: ...

    def d20(self, *, purpose: str = "") -> int: ...

    def roll_expr(self, expression: str | DiceExpr, *, purpose: str = "") -> Roll: ...


class _RecordingDice:
    """Shared roll/log logic; subclasses only say how one die is drawn."""

    source: ClassVar[str] = ""

    def __init__(self) -> None:
        self.log: list[Roll] = []

    def _draw(self, sides: int) -> int:
        raise NotImplementedError

    def roll(self, sides: int, *, purpose: str = "") -> int:
        """Roll one die with `sides` sides and record it."""
        _check_sides(sides)
        value = self._draw(sides)
        self.log.append(Roll(f"1d{sides}", sides, (value,), 0, purpose, self.source))
        return value

    def d20(self, *, purpose: str = "") -> int:
        return self.roll(20, purpose=purpose)

    def roll_expr(self, expression: str | DiceExpr, *, purpose: str = "") -> Roll:
        """Roll NdS+M (a string or a parsed `DiceExpr`) and record it as one `Roll`."""
        expr = parse_expr(expression) if isinstance(expression, str) else expression
        results = tuple(self._draw(expr.sides) for _ in range(expr.count))
        roll = Roll(str(expr), expr.sides, results, expr.modifier, purpose, self.source)
        self.log.append(roll)
        return roll


class SeededDice(_RecordingDice):
    """Pseudo-random dice from a private generator: the same seed gives the same rolls."""

    source = "seeded"

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed
        # Not for security: game dice must be reproducible from the stored seed.
        self._rng = random.Random(seed)  # noqa: S311

    def _draw(self, sides: int) -> int:
        return int(self._rng.random() * sides) + 1


class LeanDice:
    """The dice of a simulated battle (a forecast's lean play-out): each die drawn from the
    simulation's generator as `SeededDice` draws it (`int(random() * sides) + 1`, one draw
    per die in the same order), without a log of `Roll`s. `log` always shows one seeded
    die, so what reads the source of the last die rolled or counts the typed ones (a GURPS
    success roll, §A.7.1 pursuit) sees seeded dice, as in a logged simulation."""

    log: tuple[Roll, ...] = ()

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng  # for a play-out that puts draws back (Pathfinder's offered reaction)
        self._random = rng.random

    def roll(self, sides: int, *, purpose: str = "") -> int:
        return int(self._random() * sides) + 1

    def d20(self, *, purpose: str = "") -> int:
        return int(self._random() * 20) + 1

    def roll_expr(self, expression: str | DiceExpr, *, purpose: str = "") -> Roll:
        if isinstance(expression, str):
            expr, text = _parsed(expression)
        else:
            expr, text = expression, str(expression)
        draw, sides = self._random, expr.sides
        results = tuple(int(draw() * sides) + 1 for _ in range(expr.count))
        return Roll(text, sides, results, expr.modifier, purpose, SeededDice.source)


@lru_cache(maxsize=256)
def _parsed(expression: str) -> tuple[DiceExpr, str]:
    """The parsed expression and how a `Roll` writes it (`str`), once per expression."""
    expr = parse_expr(expression)
    return expr, str(expr)


class ScriptedDice(_RecordingDice):
    """Dice that return the given values in order (tests, replays of recorded rolls)."""

    source = "scripted"

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__()
        self._values = deque(values)

    @property
    def remaining(self) -> tuple[int, ...]:
        return tuple(self._values)

    def _draw(self, sides: int) -> int:
        if not self._values:
            raise DiceExhausted(
                f"{type(self).__name__} ran out after {self._rolled()} dice "
                f"(a d{sides} was needed)."
            )
        value = self._values.popleft()
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            raise DieOutOfRange(
                f"{value!r} cannot be rolled on a d{sides}.", value=value, sides=sides
            )
        return value

    def _rolled(self) -> int:
        return sum(len(roll.results) for roll in self.log)


class TypedDice(ScriptedDice):
    """Results rolled on physical dice and typed in; logged with source 'typed'."""

    source = "typed"


def typed_value_problem(value: object, sides: int) -> Problem | None:
    """Check one typed-in die result before using it: None if it is a whole number 1..sides."""
    _check_sides(sides)
    if isinstance(value, str):
        text = value.strip()
        if not text.lstrip("-").isdigit():
            return Problem("dice.not_a_number", {"value": value, "sides": sides})
        value = int(text)
    if isinstance(value, bool) or not isinstance(value, int):
        return Problem("dice.not_a_number", {"value": value, "sides": sides})
    if not 1 <= value <= sides:
        return Problem("dice.out_of_range", {"value": value, "sides": sides})
    return None


LeanDice.log = (Roll("1d6", 6, (1,), 0, "", SeededDice.source),)
