"""Kingdom-side numbers that warfare uses (reference §10).

The GM types a kingdom's skill modifiers and proficiency ranks in from the kingdom sheet; this
module knows which skills warfare needs, validates them and derives the Control DC.
"""

from dataclasses import dataclass
from enum import StrEnum

from warfare.engine.house import HouseDefault, Tag, table_lookup

MIN_LEVEL = 1
MAX_LEVEL = 20


class Proficiency(StrEnum):
    UNTRAINED = "untrained"
    TRAINED = "trained"
    EXPERT = "expert"
    MASTER = "master"
    LEGENDARY = "legendary"


PROFICIENCY_ORDER = tuple(Proficiency)

# §10.4: the kingdom skills that warfare uses, in the reference's order.
WARFARE_SKILLS = (
    "warfare",
    "statecraft",
    "intrigue",
    "exploration",
    "boating",
    "magic",
    "defense",
    "politics",
    "engineering",
    "trade",
    "scholarship",
    "folklore",
    "wilderness",
    "arts",
)

RUINS = ("corruption", "crime", "decay", "strife")

# §10.4: base Control DC by kingdom level (KMT's implementation of the Kingmaker table).
BASE_CONTROL_DC = {
    1: 14, 2: 15, 3: 16, 4: 18, 5: 20, 6: 22, 7: 23, 8: 24, 9: 26, 10: 27,
    11: 28, 12: 30, 13: 31, 14: 32, 15: 34, 16: 35, 17: 36, 18: 38, 19: 39, 20: 40,
}  # fmt: skip

# §10.4: Control DC modifier by kingdom size in hexes, as (smallest size, modifier).
SIZE_MODIFIERS = ((100, 4), (50, 3), (25, 2), (10, 1), (0, 0))

# The house defaults of this rule system's kingdom side (see warfare.engine.house).
HOUSE_DEFAULTS = (
    HouseDefault(
        key="ruin_threshold",
        value=10,
        tag=Tag.GAP,
        source="pf2e §10.3",
        note="Starting Ruin threshold. The warfare appendix names the four Ruins but not their "
        "thresholds; 10 is the kingdom rules' usual start. Correct it per kingdom.",
    ),
)

DEFAULT_RUIN_THRESHOLD = table_lookup(HOUSE_DEFAULTS, "ruin_threshold").value


def size_modifier(size_hexes: int) -> int:
    """Control DC modifier for a kingdom of `size_hexes` hexes (§10.4)."""
    if size_hexes < 0:
        raise ValueError("A kingdom's size cannot be negative.")
    for smallest, modifier in SIZE_MODIFIERS:
        if size_hexes >= smallest:
            return modifier
    raise AssertionError("unreachable: the last row starts at 0")


@dataclass(frozen=True, slots=True)
class ControlDC:
    total: int
    base: int
    size: int
    ruler_vacant: int

    def breakdown(self) -> list[tuple[str, int]]:
        """(term, value) pairs that add up to the total, for 'DC 21 = 20 level + 1 size'."""
        parts = [("level", self.base), ("size", self.size)]
        if self.ruler_vacant:
            parts.append(("ruler_vacant", self.ruler_vacant))
        return parts


def control_dc(level: int, size_hexes: int, *, ruler_vacant: bool = False) -> ControlDC:
    """Kingdom Control DC (§10.4): base by level + size modifier (+2 if the Ruler is vacant)."""
    if not MIN_LEVEL <= level <= MAX_LEVEL:
        raise ValueError(f"Kingdom level must be {MIN_LEVEL}-{MAX_LEVEL}, got {level}.")
    base = BASE_CONTROL_DC[level]
    size = size_modifier(size_hexes)
    vacant = 2 if ruler_vacant else 0
    return ControlDC(total=base + size + vacant, base=base, size=size, ruler_vacant=vacant)


def at_least(rank: str, minimum: Proficiency) -> bool:
    """True when proficiency `rank` is `minimum` or better (e.g. Magic expert for magic gear)."""
    return PROFICIENCY_ORDER.index(Proficiency(rank)) >= PROFICIENCY_ORDER.index(minimum)


def default_skills() -> dict[str, dict[str, int | str]]:
    """Every warfare skill at +0, untrained: what a new kingdom starts with."""
    return {skill: {"modifier": 0, "rank": Proficiency.UNTRAINED.value} for skill in WARFARE_SKILLS}


def validate_skills(skills: object) -> list[str]:
    """Problems with a kingdom's skill table, as message codes for the caller to translate.

    Valid: a mapping of exactly the warfare skills to {"modifier": int in -10..60,
    "rank": a proficiency}.
    """
    if not isinstance(skills, dict):
        return ["skills.not_a_mapping"]
    problems = []
    unknown = set(skills) - set(WARFARE_SKILLS)
    problems.extend(f"skills.unknown:{name}" for name in sorted(unknown))
    for name in WARFARE_SKILLS:
        entry = skills.get(name)
        if not isinstance(entry, dict):
            problems.append(f"skills.missing:{name}")
            continue
        modifier = entry.get("modifier")
        if not isinstance(modifier, int) or isinstance(modifier, bool) or not -10 <= modifier <= 60:
            problems.append(f"skills.bad_modifier:{name}")
        if entry.get("rank") not in {p.value for p in Proficiency}:
            problems.append(f"skills.bad_rank:{name}")
    return problems
