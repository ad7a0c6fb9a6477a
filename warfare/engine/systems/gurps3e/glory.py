"""The Glory roll, reputation and promotion (gurps §B.6).

Roll 3d6 against Combat Skill - Risk, even for the dead. The row gives a reputation change
(with its duration dice), whether high command rolls a reaction (promotion, or possible
demotion), and a Strategy modifier for the character's side if he commands a unit (or, one
point larger in size, the army). Margins of 10+ without a critical read as the 7+ row, and
several unit commanders' modifiers add up [inferred, gurps §B.6.1, Gaps 11].
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from warfare.engine.checks import Degree, SuccessRoll
from warfare.engine.systems.gurps3e.characters import (
    ARMY_COMMANDER,
    UNIT_COMMANDER,
    Reputation,
)
from warfare.engine.systems.gurps3e.house_rules import house_value
from warfare.engine.systems.gurps3e.survival import table_margin

CRITICAL_SUCCESS, MADE_7, MADE_4_6, MADE_0_3 = "critical_success", "made_7", "made_4_6", "made_0_3"
MISSED_1_3, MISSED_4_6, MISSED_7 = "missed_1_3", "missed_4_6", "missed_7"
PROMOTION, REVIEW = "promotion", "review"


@dataclass(frozen=True, slots=True)
class GloryRow:
    """One row of §B.6.1: `reputation` for `duration` months ("1d", or "1d-2" minimum 1),
    `permanent` reputation, the high-command reaction it calls for (`PROMOTION`, `REVIEW`
    for possible demotion, or None), the unit commander's Strategy modifier, and whether a
    survivor is publicly called a coward."""

    reputation: int
    duration: str | None
    permanent: int
    reaction: str | None
    strategy: int
    coward_charge: bool = False


GLORY_TABLE: Mapping[str, GloryRow] = {
    CRITICAL_SUCCESS: GloryRow(2, "1d", 1, PROMOTION, 2),
    MADE_7: GloryRow(1, "1d-2", 0, PROMOTION, 1),
    MADE_4_6: GloryRow(0, None, 0, PROMOTION, 1),
    MADE_0_3: GloryRow(0, None, 0, None, 0),
    MISSED_1_3: GloryRow(0, None, 0, None, 0),
    MISSED_4_6: GloryRow(-1, "1d-2", 0, REVIEW, -1),
    MISSED_7: GloryRow(-2, "1d", 0, REVIEW, -3, coward_charge=True),
}


def glory_row(roll: SuccessRoll) -> str:
    """§B.6.1: the row of a Glory roll by its degree and margin."""
    if roll.degree is Degree.CRIT_SUCCESS:
        return CRITICAL_SUCCESS
    if roll.degree is Degree.CRIT_FAILURE:
        return MISSED_7
    margin = table_margin(roll)
    if margin >= 7:
        return MADE_7
    if margin >= 4:
        return MADE_4_6
    if margin >= 0:
        return MADE_0_3
    if margin >= -3:
        return MISSED_1_3
    if margin >= -6:
        return MISSED_4_6
    return MISSED_7


def strategy_modifier(row: str, role: str) -> int:
    """§B.6.1: the Strategy modifier a commander's Glory gives his side: the table's for a
    unit commander; for the army commander one point larger in size [house]; 0 for others."""
    value = GLORY_TABLE[row].strategy
    if role == UNIT_COMMANDER:
        return value
    if role == ARMY_COMMANDER and value > 0:
        return value + house_value("glory.army_commander.bonus_extra")
    if role == ARMY_COMMANDER and value < 0:
        return value - house_value("glory.army_commander.penalty_extra")
    return 0


def reputation_gained(dice: Any, row: str, month: int) -> list[tuple[Reputation, dict]]:
    """§B.6.1: the reputation entries a row gives in campaign `month`, each with the roll of
    its duration (1d, or 1d-2 minimum 1) as a dict (None for a permanent entry)."""
    spec = GLORY_TABLE[row]
    entries: list[tuple[Reputation, dict]] = []
    if spec.reputation and spec.duration:
        roll = dice.roll_expr(spec.duration.replace("1d", "1d6"), purpose="reputation_months")
        months = max(1, roll.total)
        entries.append(
            (
                Reputation(spec.reputation, month + months),
                {"roll": roll.to_dict(), "months": months},
            )
        )
    if spec.permanent:
        entries.append((Reputation(spec.permanent, None), {"roll": None, "months": None}))
    return entries


def reaction_band(total: int) -> str:
    """A reaction roll's band (gurps §0.2)."""
    for upper, band in ((0, "disastrous"), (3, "very_bad"), (6, "bad"), (9, "poor"),
                        (12, "neutral"), (15, "good"), (18, "very_good")):  # fmt: skip
        if total <= upper:
            return band
    return "excellent"


def reaction_effects(kind: str, total: int) -> tuple[str, ...]:
    """§B.6.2: what high command's reaction (3d6 + new reputation) means. After a promotion
    row: Good+ looks favourably, Very Good+ promotes one rank, Excellent also offers an elite
    unit; after a poor row: Bad or worse means possible demotion."""
    if kind == REVIEW:
        return ("possible_demotion",) if total <= 6 else ()
    effects: list[str] = []
    if total >= 13:
        effects.append("favour")
    if total >= 16:
        effects.append("promotion")
    if total >= 19:
        effects.append("elite_offer")
    return tuple(effects)
