from fractions import Fraction

import pytest

from warfare.engine.systems.gurps4e.tech_level import ts_at_tl


@pytest.mark.parametrize(("tl", "expected"), [(2, 1), (3, 2), (4, 4), (5, 8), (None, 1)])
def test_starred_ts_doubles_per_tl_above_the_listed_one(tl, expected):
    """gurps §A.2.1: Light Artillery TS (1) at TL2, (2) at TL3, (4) at TL4, (8) at TL5."""
    assert ts_at_tl(1, 2, tl, doubles=True) == expected


def test_unstarred_ts_keeps_its_value_at_any_tl():
    """gurps §A.2.1: only entries marked * double; Heavy Infantry TS 4 stays 4."""
    assert ts_at_tl(4, 2, 5, doubles=False) == 4
    assert ts_at_tl(Fraction(3, 2), 3, 1, doubles=True) == Fraction(3, 2)
