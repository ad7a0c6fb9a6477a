"""The battle result by margin and role (gurps §B.8.1), Morale rolls (§B.8.3)."""

import pytest

from tests.engine.gurps3e.helpers import force, set_house, unit
from warfare.engine.dice import ScriptedDice
from warfare.engine.systems.gurps3e.results import half_made, morale_rolls, result


@pytest.mark.parametrize(
    ("margin", "category", "test", "morale", "retreats", "captured", "next_day"),
    [
        (1, "no_clear_winner", "none", 0, False, False, 0),
        (3, "no_clear_winner", "none", 0, False, False, 0),
        (4, "minor_victory", "none", 0, False, False, -2),
        (7, "minor_victory", "none", 0, False, False, -2),
        (8, "significant_victory", "half_hold", 0, False, False, 0),
        (12, "significant_victory", "half_hold", 0, False, False, 0),
        (13, "great_victory", "none", 0, True, False, 0),
        (16, "great_victory", "none", 0, True, False, 0),
        (17, "overwhelming_victory", "none", 0, True, True, 0),
        (30, "overwhelming_victory", "none", 0, True, True, 0),
    ],
)
def test_attacker_won(margin, category, test, morale, retreats, captured, next_day):
    """gurps §B.8.1 Attacker won: 1-3 no clear winner (Defender no Morale penalty); 4-7
    minor, Defender -2 Morale next day; 8-12 significant, Defender holds if half make Morale;
    13-16 great, every Defender unit retreats; 17+ also the enemy commander is captured."""
    spec = result(margin, "attacker")
    assert (spec.category, spec.loser_test, spec.loser_morale, spec.loser_retreats,
            spec.commander_captured, spec.loser_next_day_morale) == (
        category, test, morale, retreats, captured, next_day)  # fmt: skip
    assert spec.winner_takes_position == retreats


@pytest.mark.parametrize(
    ("margin", "category", "test", "morale"),
    [
        (1, "no_clear_winner", "none", 0),  # [gap] default
        (3, "no_clear_winner", "none", 0),
        (4, "minor_victory", "half_hold", 0),
        (7, "minor_victory", "half_hold", 0),
        (8, "significant_victory", "half_hold", -2),
        (12, "significant_victory", "half_hold", -2),
        (13, "great_victory", "per_unit_rout", 0),
        (16, "great_victory", "per_unit_rout", 0),
        (17, "overwhelming_victory", "per_unit_rout", -2),
    ],
)
def test_defender_won(margin, category, test, morale):
    """gurps §B.8.1 Defender won: 4-7 minor, the Attacker holds if half its troops make
    Morale, else retreats in good order; 8-12 the same at -2; 13-16 each Attacker unit that
    makes Morale retreats in good order, the others rout; 17+ the same at -2."""
    spec = result(margin, "defender")
    assert (spec.category, spec.loser_test, spec.loser_morale) == (category, test, morale)
    assert not spec.loser_retreats and not spec.commander_captured


def test_tie():
    """gurps §B.8.1 [gap]: a tie: both hold, no Morale effects [inferred]."""
    spec = result(0, None)
    assert (spec.category, spec.loser_test, spec.loser_next_day_morale) == ("tie", "none", 0)


def test_morale_rolls_use_unit_morale_force_modifiers_and_penalties():
    """gurps §B.8.3: 3d6 vs Morale; +2 defending the homeland; the result's -2."""
    army = force(units=[{"key": "x", "men": 10, "ts_per_man": 1, "morale": 11}],
                 morale_modifiers=["homeland"])  # fmt: skip
    ((_, roll, made),) = morale_rolls(ScriptedDice([5, 5, 1]), army, [("result", -2)])
    assert roll["skill"] == 11
    assert roll["breakdown"] == [["morale", 11], ["morale.homeland", 2], ["result", -2]]
    assert made


def test_half_of_the_troops_counts_men(monkeypatch):
    """gurps §B.8.1: "at least half of its troops" by men [inferred], or by units."""
    big, small, other = unit("a", men=100), unit("b", men=99), unit("c", men=1)
    assert half_made([(big, {}, True), (small, {}, False)])
    assert not half_made([(small, {}, True), (big, {}, False)])
    assert not half_made([(small, {}, True), (big, {}, False), (other, {}, False)])
    set_house(monkeypatch, "result.half_by_men", 0)
    assert half_made([(small, {}, True), (big, {}, False)])
