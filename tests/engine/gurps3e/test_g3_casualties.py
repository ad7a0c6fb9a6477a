"""Casualties (gurps §B.8: house default from the 4e table, NOT a 3e rule; §B.8.2 rows)."""

import pytest

from tests.engine.gurps3e.helpers import unit
from warfare.engine.systems.gurps3e.casualties import house_percent, men_lost


@pytest.mark.parametrize(
    ("margin", "loser", "winner"),
    [(0, 10, 10), (1, 15, 10), (3, 15, 10), (4, 20, 10), (6, 20, 10), (7, 25, 5), (9, 25, 5),
     (10, 30, 5), (14, 30, 5), (15, 35, 0), (19, 35, 0), (20, 40, 0), (25, 40, 0)],
)  # fmt: skip
def test_house_default_base_is_the_4e_table(margin, loser, winner):
    """gurps §B.8 house default: the 4e CRT (§A.6.4) % for the 3e margin."""
    assert house_percent(margin, True, unit())[0] == loser
    assert house_percent(margin, False, unit())[0] == winner


@pytest.mark.parametrize(("armour", "percent"), [("heavy", 20), ("medium", 30), ("light", 35),
                                                 ("none", 40)])  # fmt: skip
def test_armour_moves_rows_down(armour, percent):
    """gurps §B.8.2: heavy 4 rows down, medium 2, light/spearmen 1; 5 % a row [inferred]."""
    assert house_percent(20, True, unit(armour=armour))[0] == percent


def test_rout_and_intensity_move_rows_up_and_the_result_stays_within_0_100():
    """gurps §B.8.2: a rout moves up 1d rows, a very intense battle up N rows."""
    value, terms = house_percent(5, True, unit(armour="medium"), rout_rows=3, intensity=2)
    assert value == 35  # 20 - 10 + 15 + 10
    assert terms == (("crt_base", 20), ("armour.medium", -10), ("rout", 15), ("intensity", 10))
    assert house_percent(20, True, unit(), rout_rows=6, intensity=10)[0] == 100
    assert house_percent(15, False, unit(armour="heavy"))[0] == 0


def test_casualties_round_up_and_never_exceed_the_unit():
    """gurps §B.8.2: round all casualties up."""
    assert men_lost(unit(men=101), 15) == 16
    assert men_lost(unit(men=7), 100) == 7
    assert men_lost(unit(men=7), 0) == 0
