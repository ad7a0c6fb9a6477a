"""Casualties per unit (gurps §B.8, §B.8.2).

The 3e Casualty Table's base percentages are a [gap]: the GM enters each unit's casualty %
(`gm_casualties`), or the battle uses the clearly labelled HOUSE DEFAULT (not a 3e rule):
the 4e Combat Results Table percentage for the 3e margin (loser / winner), then the 3e row
shifts as 5 % per row [inferred] (armour down 4/2/1 rows, a rout up 1d rows, the GM's intensity up N
rows), clamped to 0..100 %. Casualties are men, rounded up (§B.8.2), never above the unit.
"""

import math
from typing import Any

from warfare.engine.systems.gurps3e.forces import Unit
from warfare.engine.systems.gurps3e.house_rules import house_value

HOUSE, GM = "house", "gm"
ARMOUR_ROWS = ("heavy", "medium", "light")
# 4e CRT margin bands (upper bound, house key) used by the house default.
CRT_BANDS = ((0, "tie"), (3, "1_3"), (6, "4_6"), (9, "7_9"), (14, "10_14"), (19, "15_19"))


def crt_band(margin: int) -> str:
    for upper, band in CRT_BANDS:
        if margin <= upper:
            return band
    return "20_plus"


def base_percent(margin: int, loser: bool) -> int:
    """House default: the 4e CRT % for the margin, the loser's or the winner's (§B.8)."""
    return house_value(f"casualties.crt.{crt_band(margin)}.{'loser' if loser else 'winner'}")


def armour_rows(armour: str) -> int:
    """§B.8.2: heavy 4 rows down, medium 2, light (and spearmen) 1, none 0."""
    return house_value(f"casualties.rows.{armour}") if armour in ARMOUR_ROWS else 0


def house_percent(
    margin: int, loser: bool, unit: Unit, rout_rows: int = 0, intensity: int = 0
) -> tuple[int, tuple[tuple[str, int], ...]]:
    """House default casualty % of one unit, with its breakdown (% per term), in 0..100."""
    per_row = house_value("casualties.percent_per_row")
    terms = [("crt_base", base_percent(margin, loser))]
    rows = armour_rows(unit.armour)
    if rows:
        terms.append((f"armour.{unit.armour}", rows * per_row))
    if rout_rows:
        terms.append(("rout", rout_rows * per_row))
    if intensity:
        terms.append(("intensity", intensity * per_row))
    return max(0, min(100, sum(value for _, value in terms))), tuple(terms)


def men_lost(unit: Unit, percent: int) -> int:
    """§B.8.2: casualties round up: `percent` of the men the unit had that day."""
    return min(unit.men, math.ceil(unit.men * percent / 100))


def casualty_record(unit: Unit, percent: int, terms: Any) -> dict[str, Any]:
    lost = men_lost(unit, percent)
    return {
        "unit": unit.key,
        "percent": percent,
        "breakdown": [list(term) for term in terms],
        "men_before": unit.men,
        "men_lost": lost,
        "men_after": unit.men - lost,
    }
