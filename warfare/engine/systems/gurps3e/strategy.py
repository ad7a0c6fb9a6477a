"""Strategy modifiers of GURPS 3e mass combat (gurps §B.7, all cumulative) and each
commander's effective Strategy for the final Quick Contest (§B.8).

Every function returns its value with a breakdown of (code, value) terms so the board can
show the working.
"""

from collections.abc import Mapping, Sequence
from fractions import Fraction

from warfare.engine.systems.gurps3e.forces import DEFENDER, DefensiveItem, Force
from warfare.engine.systems.gurps3e.house_rules import house_value

Term = tuple[str, int]

# §B.7.1: (upper bound of the ratio larger TS / smaller TS, bonus); above 10: +8.
TS_RATIO_TABLE: tuple[tuple[Fraction, int], ...] = (
    (Fraction(6, 5), 0),
    (Fraction(7, 5), 1),
    (Fraction(17, 10), 2),
    (Fraction(2), 3),
    (Fraction(3), 4),
    (Fraction(5), 5),
    (Fraction(7), 6),
    (Fraction(10), 7),
)
TS_RATIO_ABOVE_10 = 8

# §B.7.2: code -> (modifier to the defender, asterisked, GM-set range or None).
DEFENSIVE_ITEMS: Mapping[str, tuple[int, bool, tuple[int, int] | None]] = {
    "higher_ground": (-3, False, (-99, -3)),  # attacker attacks from higher ground: -3 or worse
    "emerges_from_cover": (-1, False, None),
    "gentle_slope": (1, False, None),
    "steep_slope": (2, False, None),
    "steep_slope_difficult_footing": (3, False, None),
    "narrow_passage": (2, True, (2, 8)),  # gorge, pass, ford, bridge: +2 to +8 by narrowness
    "fieldworks": (3, True, None),  # palisade, breastwork, trenches, rampart, unfordable river
    "manor_town_fort": (4, True, None),  # manor, unwalled town or fort
    "walled_town": (6, True, None),
    "castle": (8, True, None),
}


def ts_ratio_bonus(larger: int, smaller: int, tl_gap: int = 0) -> int:
    """§B.7.1: the bonus of the larger force for TS ratio `larger / smaller`.

    Each band includes its upper bound [house]. Above 10:1 the bonus is +8, unless the
    larger force's TL exceeds the enemy's by more than 2: then each further 10:1 adds +1,
    max(8, 7 + floor(ratio / 10)) [inferred from the seed's 30:1 -> +10]."""
    if smaller <= 0 or larger < smaller:
        raise ValueError("need larger >= smaller > 0")
    ratio = Fraction(larger, smaller)
    inclusive = house_value("ts_ratio.upper_bound_inclusive")
    for bound, bonus in TS_RATIO_TABLE:
        if ratio <= bound if inclusive else ratio < bound:
            return bonus
    if tl_gap > house_value("ts_ratio.tl_superiority_gap"):
        steps = ratio // 10
        return max(TS_RATIO_ABOVE_10, house_value("ts_ratio.tl_superiority_base") + steps)
    return TS_RATIO_ABOVE_10


def tl_difference_bonus(own_tl: int, enemy_tl: int) -> int:
    """§B.7.3: the more advanced army rolls Strategy at +(TL difference + 2); TL5 vs TL3 ->
    +4; the less advanced army gets nothing."""
    difference = own_tl - enemy_tl
    return difference + house_value("strategy.tl_difference_extra") if difference > 0 else 0


def defensive_position(items: Sequence[DefensiveItem]) -> tuple[int, tuple[Term, ...]]:
    """§B.7.2: the defender's modifier for its position, all items combined; of the
    asterisked items only the highest counts [house `defensive.asterisk_highest_only`].
    Items with a GM-set size use their `value` (default: the table's)."""
    plain: list[Term] = []
    starred: list[Term] = []
    for item in items:
        default, asterisk, _ = DEFENSIVE_ITEMS[item.code]
        value = item.value if item.value is not None else default
        (starred if asterisk else plain).append((f"defensive.{item.code}", value))
    if starred and house_value("defensive.asterisk_highest_only"):
        starred = [max(starred, key=lambda term: term[1])]
    terms = (*plain, *starred)
    return sum(value for _, value in terms), terms


def defensive_item_problem(item: DefensiveItem) -> str | None:
    """None if the item is known and its GM-set size in range, else a problem code."""
    if item.code not in DEFENSIVE_ITEMS:
        return "unknown_defensive_item"
    _, _, bounds = DEFENSIVE_ITEMS[item.code]
    if item.value is None:
        return None
    if bounds is None:
        return "defensive_item_has_no_value"
    if isinstance(item.value, bool) or not isinstance(item.value, int):
        return "bad_defensive_value"
    return None if bounds[0] <= item.value <= bounds[1] else "bad_defensive_value"


def strategy_terms(
    force: Force, enemy: Force, glory: Sequence[Term] = (), leader_down: bool = False
) -> tuple[int, tuple[Term, ...]]:
    """A commander's effective Strategy for the Quick Contest (§B.7, §B.8) with its
    breakdown: skill, TS ratio (larger force only), TL difference (more advanced only),
    defensive position (defender only), Glory modifiers of its commanders (§B.6.1), a
    leader knocked out ("as for Catastrophes" [house]), GM catastrophe and other modifiers."""
    terms: list[Term] = [("strategy", force.strategy)]
    own, theirs = force.ts, enemy.ts
    lifted = False
    if own >= theirs and theirs > 0:
        bonus = ts_ratio_bonus(own, theirs, force.tl - enemy.tl)
        lifted = bonus > TS_RATIO_ABOVE_10
        if bonus:
            terms.append(("ts_ratio", bonus))
    tl_bonus = tl_difference_bonus(force.tl, enemy.tl)
    if tl_bonus and (not lifted or house_value("strategy.tl_difference_stacks")):
        terms.append(("tl_difference", tl_bonus))
    if force.role == DEFENDER:
        terms.extend(defensive_position(force.defensive)[1])
    terms.extend(term for term in glory if term[1])
    if leader_down:
        terms.append(("leader_down", house_value("strategy.leader_down")))
    if force.catastrophe:
        terms.append(("catastrophe", force.catastrophe))
    if force.other:
        terms.append(("other", force.other))
    return sum(value for _, value in terms), tuple(terms)
