"""Strategy modifiers (gurps §B.7): TS ratio with the TL extension, defensive position,
TL difference, and a commander's effective Strategy."""

import pytest

from tests.engine.gurps3e.helpers import force, set_house
from warfare.engine.systems.gurps3e.forces import DefensiveItem
from warfare.engine.systems.gurps3e.strategy import (
    defensive_item_problem,
    defensive_position,
    strategy_terms,
    tl_difference_bonus,
    ts_ratio_bonus,
)


@pytest.mark.parametrize(
    ("larger", "bonus"),
    [
        (100, 0),
        (120, 0),
        (121, 1),
        (140, 1),
        (141, 2),
        (170, 2),
        (171, 3),
        (200, 3),
        (201, 4),
        (300, 4),
        (301, 5),
        (500, 5),
        (501, 6),
        (700, 6),
        (701, 7),
        (1000, 7),
        (1001, 8),
        (5000, 8),
    ],
)
def test_ts_ratio_table(larger, bonus):
    """gurps §B.7.1: <=1.2 none, >1.2-1.4 +1, >1.4-1.7 +2, >1.7-2 +3, >2-3 +4, >3-5 +5,
    >5-7 +6, >7-10 +7, >10 +8 (upper bounds inclusive [inferred])."""
    assert ts_ratio_bonus(larger, 100) == bonus


def test_boundaries_go_to_the_higher_band_when_house_says_so(monkeypatch):
    """gurps §B.7.1 [inferred]: which band owns a shared boundary is a house default."""
    set_house(monkeypatch, "ts_ratio.upper_bound_inclusive", 0)
    assert ts_ratio_bonus(140, 100) == 2
    assert ts_ratio_bonus(120, 100) == 1


@pytest.mark.parametrize(
    ("ratio", "tl_gap", "bonus"),
    [
        (30, 3, 10),  # the seed's TL6 vs TL3 feudal army at 30:1
        (30, 2, 8),  # TL gap of 2 is not "more than 2"
        (19, 3, 8),
        (20, 3, 9),
        (40, 4, 11),
    ],
)
def test_tl_superiority_lifts_the_10_to_1_cap(ratio, tl_gap, bonus):
    """gurps §B.7.1: TL more than 2 higher: each further 10:1 adds +1 (30:1 -> +10)."""
    assert ts_ratio_bonus(ratio * 100, 100, tl_gap) == bonus


@pytest.mark.parametrize(("own", "enemy", "bonus"), [(5, 3, 4), (6, 3, 5), (4, 3, 3), (3, 3, 0),
                                                     (3, 5, 0)])  # fmt: skip
def test_tl_difference_bonus(own, enemy, bonus):
    """gurps §B.7.3: the more advanced army gets +(TL difference + 2): TL5 vs TL3 -> +4."""
    assert tl_difference_bonus(own, enemy) == bonus


@pytest.mark.parametrize(
    ("items", "total"),
    [
        ([("higher_ground", None)], -3),
        ([("higher_ground", -5)], -5),
        ([("emerges_from_cover", None)], -1),
        ([("gentle_slope", None)], 1),
        ([("steep_slope", None)], 2),
        ([("steep_slope_difficult_footing", None)], 3),
        ([("narrow_passage", None)], 2),
        ([("narrow_passage", 8)], 8),
        ([("fieldworks", None)], 3),
        ([("manor_town_fort", None)], 4),
        ([("walled_town", None)], 6),
        ([("castle", None)], 8),
        ([("castle", None), ("steep_slope", None), ("emerges_from_cover", None)], 9),
        ([("castle", None), ("fieldworks", None)], 8),  # asterisked: highest only [inferred]
        ([("fieldworks", None), ("narrow_passage", 5), ("gentle_slope", None)], 6),
    ],
)
def test_defensive_position(items, total):
    """gurps §B.7.2: higher ground -3 or worse, emerging from cover -1, slopes +1/+2/+3,
    narrow passage +2..+8*, fieldworks +3*, manor/unwalled town/fort +4*, walled town +6*,
    castle +8*; all combine."""
    value, terms = defensive_position([DefensiveItem(code, v) for code, v in items])
    assert value == total
    assert sum(v for _, v in terms) == total


def test_all_asterisked_items_add_when_house_says_so(monkeypatch):
    """gurps §B.7.2 [gap]: the asterisk rule is a house default."""
    set_house(monkeypatch, "defensive.asterisk_highest_only", 0)
    items = [DefensiveItem("castle"), DefensiveItem("fieldworks")]
    assert defensive_position(items)[0] == 11


@pytest.mark.parametrize(
    ("code", "value", "problem"),
    [
        ("narrow_passage", 2, None),
        ("narrow_passage", 8, None),
        ("narrow_passage", 9, "bad_defensive_value"),
        ("narrow_passage", 1, "bad_defensive_value"),
        ("higher_ground", -3, None),
        ("higher_ground", -2, "bad_defensive_value"),
        ("castle", 3, "defensive_item_has_no_value"),
        ("moat", None, "unknown_defensive_item"),
    ],
)
def test_defensive_item_values(code, value, problem):
    """gurps §B.7.2: the GM sizes narrow passages (+2..+8) and higher ground (-3 or worse)."""
    assert defensive_item_problem(DefensiveItem(code, value)) == problem


def test_strategy_terms_of_both_commanders():
    """gurps §B.7, §B.8: the larger force gets the TS bonus, the more advanced one the TL
    bonus, the defender its position; Glory and GM modifiers add."""
    attacker = force("a", "attacker", tl=5, strategy=13,
                     units=[{"key": "a1", "men": 300, "ts_per_man": 1}], other=-1)  # fmt: skip
    defender = force("b", "defender", tl=3, strategy=12,
                     units=[{"key": "b1", "men": 100, "ts_per_man": 1}],
                     defensive=[{"code": "walled_town"}], catastrophe=-2)  # fmt: skip
    skill, terms = strategy_terms(attacker, defender, [("glory.p1", 2)], leader_down=True)
    assert terms == (("strategy", 13), ("ts_ratio", 4), ("tl_difference", 4),
                     ("glory.p1", 2), ("leader_down", -1), ("other", -1))  # fmt: skip
    assert skill == 21
    skill, terms = strategy_terms(defender, attacker)
    assert terms == (("strategy", 12), ("defensive.walled_town", 6), ("catastrophe", -2))
    assert skill == 16


def test_tl_difference_and_lifted_cap(monkeypatch):
    """gurps §B.7.3 [inferred]: both apply by default; a house switch drops the TL bonus
    when the cap is lifted."""
    big = force("a", tl=6, units=[{"key": "a1", "men": 3000, "ts_per_man": 1}])
    small = force("b", "defender", tl=3, units=[{"key": "b1", "men": 100, "ts_per_man": 1}])
    assert dict(strategy_terms(big, small)[1]) == {"strategy": 12, "ts_ratio": 10,
                                                   "tl_difference": 5}  # fmt: skip
    set_house(monkeypatch, "strategy.tl_difference_stacks", 0)
    assert "tl_difference" not in dict(strategy_terms(big, small)[1])
