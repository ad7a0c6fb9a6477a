"""After the battle (§A.7): pursuit, recovered casualties, new TS, loot."""

from collections.abc import Mapping
from fractions import Fraction
from math import floor
from typing import Any

from warfare.engine.checks import success_roll
from warfare.engine.dice import Dice
from warfare.engine.systems.gurps4e.house_rules import house_value
from warfare.engine.systems.gurps4e.tables import (
    HOLD_FIELD_RECOVERY,
    LOOT_BASE_MINUTES,
    LOOT_SHARE,
    PURSUIT_CASUALTIES,
    PURSUIT_LOGISTICS_PER_PIP,
    PURSUIT_PURSUE_MAX,
    PURSUIT_SUPERIORITY_CASUALTIES,
)

PURSUE, HOLD = "pursue", "hold"


def pursuit_roll(dice: Dice, leadership: int) -> dict[str, Any]:
    """§A.7.1: the victor's commander rolls Leadership; success -> he chooses; failure -> 1d:
    1-3 pursue, 4-6 hold the field."""
    breakdown = [("leadership", leadership)]
    roll = success_roll(dice, leadership, purpose="pursuit", breakdown=breakdown)
    result: dict[str, Any] = {"roll": roll.to_dict(), "chooses": roll.succeeded}
    if not roll.succeeded:
        die = dice.roll(6, purpose="pursuit_reaction")
        result["die"] = die
        result["choice"] = PURSUE if die <= PURSUIT_PURSUE_MAX else HOLD
    return result


def pursuit_effects(
    dice: Dice,
    choice: str,
    pursuer_superiority: Mapping[str, int],
    overrides: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """§A.7.1: Pursue -> the retreating force +5 % casualties, +5 % more for Air and for
    Cavalry superiority [impl: both], and 1d × 5 % of its logistics; Hold -> the victor's
    casualties −5 %. Returns {"retreating": %, "logistics": %, "logistics_die", "victor": −%,
    "terms": [...]} ("logistics_typed": True when that die was typed in from the table)."""
    if choice == HOLD:
        return {"retreating": 0, "logistics": 0, "victor": -HOLD_FIELD_RECOVERY,
                "terms": [["pursuit.hold", -HOLD_FIELD_RECOVERY]]}  # fmt: skip
    terms = [["pursuit.base", PURSUIT_CASUALTIES]]
    both = house_value("pursuit.air_and_cavalry_add", overrides)
    for cls in ("Air", "Cav"):
        if pursuer_superiority.get(cls, 0) > 0 and (both or len(terms) == 1):
            terms.append([f"pursuit.superiority.{cls}", PURSUIT_SUPERIORITY_CASUALTIES])
    die = dice.roll(6, purpose="pursuit_logistics")
    typed = dice.log[-1].source == "typed"
    return {
        "retreating": sum(v for _, v in terms),
        "logistics": die * PURSUIT_LOGISTICS_PER_PIP,
        "logistics_die": die,
        **({"logistics_typed": True} if typed else {}),
        "victor": 0,
        "terms": terms,
    }


def recovered_winner(casualties: int) -> int:
    """§A.7.2 [impl]: a winner's final casualties: half, to the lower 5 % (35 % -> 15 %)."""
    return (casualties // 10) * 5


def final_casualties(casualties: int, role: str) -> int:
    """§A.7.2: "winner" (and both sides in a mutual destruction) recovers half; "loser"
    recovers nothing."""
    return recovered_winner(casualties) if role == "winner" else casualties


def new_ts(old_ts: Fraction, final: int) -> int:
    """§A.7.3 [impl]: old TS × (1 − final casualties), rounded down (75.5 at 15 % -> 64)."""
    return floor(Fraction(old_ts) * (100 - final) / 100)


def loot_minutes(elements: int) -> int:
    """§A.7.4: 30 minutes for 1-9 elements on the field, doubling for each ×10 [inferred]."""
    minutes, limit = LOOT_BASE_MINUTES, 10
    while elements >= limit:
        minutes, limit = minutes * 2, limit * 10
    return minutes


def loot_value(raise_cost: int, final: int) -> int:
    """§A.7.4: 1/5 × the raise cost of the force that suffered the losses × its casualty
    fraction (rounded down to whole money)."""
    return floor(LOOT_SHARE * raise_cost * Fraction(final, 100))
