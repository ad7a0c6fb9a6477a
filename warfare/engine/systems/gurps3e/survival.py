"""The Survival roll and the TL damage table (gurps §B.5).

Roll 3d6 against Combat Skill + Risk; the margin picks unhurt, 1 hit, 2 hits or a damage
column A-D; the column and the battle TL pick the dice, the number of hits and the divisor of
DR. Damage comes off HT after DR (plus Toughness); at each full -HT the character rolls HT or
dies, at -5 x HT he is dead (3e Basic Set).
"""

from dataclasses import dataclass
from typing import Any

from warfare.engine.checks import Degree, SuccessRoll, success_roll
from warfare.engine.dice import DiceExpr
from warfare.engine.systems.gurps3e.characters import DEAD, Character, status_for
from warfare.engine.systems.gurps3e.house_rules import house_value

UNHURT, ONE_HIT, TWO_HITS = "unhurt", "one_hit", "two_hits"
COLUMNS = ("A", "B", "C", "D")
# Survival results from best to worst (Luck keeps the best of its rolls).
SEVERITY = (UNHURT, ONE_HIT, TWO_HITS, *COLUMNS)
# Flat damage of the results that need no dice (§B.5: "1 hit", "2 hits").
FLAT_HITS = {UNHURT: 0, ONE_HIT: 1, TWO_HITS: 2}
# Hits per column (§B.5: B and C "2 x", D "3 x").
HITS = {"A": 1, "B": 2, "C": 2, "D": 3}
MAX_TL = 16


def table_margin(roll: SuccessRoll) -> int:
    """The signed margin the §B.5/§B.6 tables read: skill - roll, except that a roll that
    fails although within skill (17 at skill 17+) reads as missed by 1 [house]."""
    if not roll.succeeded and roll.margin >= 0:
        return house_value("roll.automatic_failure_margin")
    return roll.margin


def survival_result(roll: SuccessRoll) -> str:
    """§B.5: made by 5+ unhurt (critical success too [house]); by 1-4 one hit; exactly two
    hits; missed by 1-2 column A, 3-4 B, 5-6 C, 7+ or critical failure D."""
    if roll.degree is Degree.CRIT_SUCCESS and house_value("survival.critical_success_unhurt"):
        return UNHURT
    if roll.degree is Degree.CRIT_FAILURE:
        return "D"
    margin = table_margin(roll)
    if margin >= 5:
        return UNHURT
    if margin >= 1:
        return ONE_HIT
    if margin == 0:
        return TWO_HITS
    if margin >= -2:
        return "A"
    if margin >= -4:
        return "B"
    if margin >= -6:
        return "C"
    return "D"


def _divide(value: int, by: int) -> int:
    """Divide rounding down, or up when the house says so (§B.5 fractions [inferred])."""
    return value // by if house_value("damage.round_fractions_down") else -(-value // by)


@dataclass(frozen=True, slots=True)
class DamageSpec:
    """One damage table cell: `hits` separate hits of `dice`d+`adds`, DR divided by
    `dr_divisor`."""

    hits: int
    dice: int
    adds: int
    dr_divisor: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "hits": self.hits,
            "dice": self.dice,
            "adds": self.adds,
            "dr_divisor": self.dr_divisor,
        }


def damage_spec(tl: int, column: str) -> DamageSpec:
    """The damage table of §B.5 for battle `tl` (0..16) and `column` A-D."""
    if not 0 <= tl <= MAX_TL:
        raise ValueError(f"battle TL must be 0..{MAX_TL}, not {tl}")
    heavy = column in ("C", "D")
    hits = HITS[column]
    if tl <= 3:
        return DamageSpec(hits, 2 if heavy else 1, 2, 1)
    if tl <= 7:
        return DamageSpec(hits, tl if heavy else _divide(tl, 2), 0, 1)
    if tl <= 9:
        return DamageSpec(hits, tl + 3 if heavy else tl - 3, 0, 1)
    divisor = 2 if tl <= 13 else 5 if tl == 14 else 10
    return DamageSpec(hits, 2 * tl if heavy else tl, 0, divisor)


def effective_dr(character: Character, divisor: int) -> int:
    """DR against one hit: DR plus Toughness [house], divided by the TL column's divisor."""
    dr = character.dr + (character.toughness if house_value("toughness.adds_to_dr") else 0)
    return _divide(dr, divisor)


def roll_damage(dice: Any, spec: DamageSpec, dr: int) -> tuple[int, list[dict[str, Any]]]:
    """Roll a column's hits: each hit's damage is its dice minus DR, never below 0 [B].

    With `damage.separate_hits` off, one roll minus DR is multiplied by the hit count.
    Returns (total damage, one dict per roll)."""
    expr = DiceExpr(spec.dice, 6, spec.adds)
    separate = house_value("damage.separate_hits")
    rolls = []
    total = 0
    for _ in range(spec.hits if separate else 1):
        roll = dice.roll_expr(expr, purpose="damage")
        damage = max(0, roll.total - dr) * (1 if separate else spec.hits)
        total += damage
        rolls.append({"roll": roll.to_dict(), "dr": dr, "damage": damage})
    return total, rolls


def take_damage(
    dice: Any, character: Character, damage: int
) -> tuple[int, str, list[dict[str, Any]]]:
    """HT after `damage` and the new status, with the HT rolls to stay alive at each full
    -HT crossed (3e Basic Set [unverified]); a failed one kills. Returns (ht, status, rolls)."""
    before, after = character.ht, character.ht - damage
    rolls: list[dict[str, Any]] = []
    status = status_for(after, character.ht_max)
    if character.status == DEAD:
        return after, DEAD, rolls
    multiple = house_value("death.multiple_of_ht")
    for k in range(1, multiple):
        threshold = -k * character.ht_max
        if after <= threshold < before and status != DEAD:
            roll = success_roll(dice, character.ht_max, purpose="death_check")
            rolls.append({"threshold": threshold, "roll": roll.to_dict()})
            if not roll.succeeded:
                status = DEAD
    return after, status, rolls
