"""Dice: seeded and replayable, scripted for tests, typed in from real dice; every roll logged."""

import random

import pytest

from warfare.engine.battle import forecast
from warfare.engine.dice import (
    BadExpression,
    DiceExhausted,
    DiceExpr,
    DieOutOfRange,
    LeanDice,
    Roll,
    ScriptedDice,
    SeededDice,
    TypedDice,
    parse_expr,
    typed_value_problem,
)


def test_same_seed_gives_the_same_sequence_twice():
    first = SeededDice(42)
    second = SeededDice(42)
    assert [first.d20() for _ in range(50)] == [second.d20() for _ in range(50)]


def test_a_different_seed_gives_a_different_sequence():
    assert _d20s(42, 20) != _d20s(43, 20)


def _d20s(seed: int, count: int) -> list[int]:
    dice = SeededDice(seed)
    return [dice.d20() for _ in range(count)]


def test_seeded_sequence_is_pinned_to_rng_random():
    """Golden values: a change of algorithm would silently change every stored battle."""
    assert _d20s(42, 10) == [13, 1, 6, 5, 15, 14, 18, 2, 9, 1]
    rng = random.Random(42)  # noqa: S311 - the documented derivation, for comparison
    assert _d20s(42, 5) == [int(rng.random() * 20) + 1 for _ in range(5)]


def test_seeded_dice_stay_in_range_and_hit_every_face():
    dice = SeededDice(1)
    results = {dice.roll(6) for _ in range(600)}
    assert results == {1, 2, 3, 4, 5, 6}


def test_every_roll_is_logged_with_purpose_and_source():
    dice = SeededDice(5)
    value = dice.d20(purpose="initiative")
    roll = dice.roll_expr("2d6+1", purpose="damage")
    assert dice.log[0] == Roll("1d20", 20, (value,), 0, "initiative", "seeded")
    assert dice.log[1] is roll
    assert roll.expression == "2d6+1"
    assert roll.total == sum(roll.results) + 1
    assert roll.to_dict()["total"] == roll.total


def test_roll_expr_sums_dice_and_modifier():
    dice = ScriptedDice([4, 5])
    roll = dice.roll_expr("2d6+3")
    assert roll.results == (4, 5)
    assert roll.total == 12
    assert dice.log == [Roll("2d6+3", 6, (4, 5), 3, "", "scripted")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d20", DiceExpr(1, 20)),
        ("1D4", DiceExpr(1, 4)),
        ("3d6-2", DiceExpr(3, 6, -2)),
        (" 2 d 6 + 1 ", DiceExpr(2, 6, 1)),
        ("100d1000+1000", DiceExpr(100, 1000, 1000)),
    ],
)
def test_parse_expr_accepts_nds_plus_m(text, expected):
    assert parse_expr(text) == expected


@pytest.mark.parametrize(
    "text",
    ["", "d", "20", "0d6", "101d6", "1d1", "1d1001", "2d6+", "abc", "1d6+1001", "2d6*2", "-1d6"],
)
def test_parse_expr_rejects_bad_notation_and_limits(text):
    with pytest.raises(ValueError, match=r"."):
        parse_expr(text)


def test_bad_sides_are_rejected_before_rolling():
    dice = SeededDice(1)
    with pytest.raises(BadExpression):
        dice.roll(1)
    assert dice.log == []


def test_scripted_dice_fail_loudly_when_exhausted():
    dice = ScriptedDice([3])
    dice.d20()
    with pytest.raises(DiceExhausted, match="ran out after 1 dice"):
        dice.d20()


def test_scripted_value_that_the_die_cannot_show_is_an_error():
    dice = ScriptedDice([7])
    with pytest.raises(DieOutOfRange) as raised:
        dice.roll(6)
    assert raised.value.problem.code == "dice.out_of_range"
    assert raised.value.params == {"value": 7, "sides": 6}


def test_typed_dice_are_logged_as_typed():
    dice = TypedDice([17])
    assert dice.d20(purpose="rally") == 17
    assert dice.log[0].source == "typed"
    assert dice.remaining == ()


@pytest.mark.parametrize(
    ("value", "code"),
    [
        (17, None),
        ("20", None),
        (" 1 ", None),
        (0, "dice.out_of_range"),
        ("21", "dice.out_of_range"),
        ("x", "dice.not_a_number"),
        (True, "dice.not_a_number"),
        (2.5, "dice.not_a_number"),
    ],
)
def test_typed_value_is_a_whole_number_from_one_to_sides(value, code):
    problem = typed_value_problem(value, 20)
    assert (problem.code if problem else None) == code


def test_typed_dice_running_out_inside_an_expression_are_completed_by_the_server():
    """A 2d6 damage roll with one die typed at the table: the typed 6 and one seeded die;
    the log keeps each part with its source, the roll returned has both dice."""
    from warfare.engine.battle.protocol import CommandDice

    dice = CommandDice(11, [6])
    roll = dice.roll_expr("2d6+3", purpose="damage")
    assert roll.results[0] == 6 and len(roll.results) == 2
    assert roll.total == sum(roll.results) + 3
    assert [(r.expression, r.source) for r in dice.log] == [("1d6", "typed"), ("1d6+3", "seeded")]
    assert dice.typed_remaining == ()
    whole = CommandDice(11, [2, 3]).roll_expr("2d6")
    assert (whole.results, whole.source) == ((2, 3), "typed")


def test_the_lean_dice_draw_what_the_simulation_dice_draw():
    """A forecast's lean play-outs (`LeanDice`) draw the dice of its logged simulations
    (`forecast.SimulationDice`): one `random()` per die, in the same order, without a log."""
    lean, full = LeanDice(random.Random(3)), forecast.SimulationDice(random.Random(3))
    for expression in ("1d20", "2d6+3", "1d12-1", "3d6", "6d6"):
        assert lean.d20() == full.d20()
        assert lean.roll(8) == full.roll(8)
        one, other = lean.roll_expr(expression), full.roll_expr(expression)
        assert (one.results, one.total, one.expression) == (
            other.results,
            other.total,
            other.expression,
        )
    assert len(full.log) == 15
    assert [roll.source for roll in lean.log] == ["seeded"]  # one fixed die, not the draws
