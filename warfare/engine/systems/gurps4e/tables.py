"""The printed tables of GURPS Mass Combat 4e as seed A gives them (reference gurps Part A).

Numbers a source other than the seed supplies live in `house_rules` (tag and section each) or,
for the battle strategies, in `strategies`.
"""

from fractions import Fraction

# §A.2.2 special classes; T (Transport) has no superiority.
CLASSES = ("Air", "Arm", "Art", "C3I", "Cav", "F", "Eng", "Nav", "Rec", "T")
SUPERIORITY_CLASSES = ("Air", "Arm", "Art", "C3I", "Cav", "F", "Eng", "Nav", "Rec")
LAND_CLASSES = ("Air", "Arm", "Art", "C3I", "Cav", "F")
"""Superiority classes that always apply in a land battle; Eng, Nav, Rec only if the GM says."""

# §A.3.1 type of campaign (battle type).
BATTLE_TYPES = ("land", "naval", "air", "amphibious")

# §A.4.4 Terrain Rating (Класс Ландшафта).
TERRAIN_RATING = {
    "arctic": 6,
    "desert": 7,
    "hills": 6,
    "islands": 6,
    "jungle": 3,
    "mountains": 4,
    "ocean": 8,
    "plains": 8,
    "rural": 6,
    "swamp": 4,
    "urban": 6,
    "woodlands": 5,
}

# §A.4.3 reconnaissance condition modifiers (the Rec-element ones are in house_rules).
RECON_FLYING = -1
RECON_MARCH = (0, -1, -2)
RECON_LAX_SECURITY = -5
RECON_RELATIONS_MOBILE = {"good": 1, "neutral": 0, "hostile": -1}
RECON_RELATIONS_CAMP = {"good": 2, "neutral": 0, "hostile": -2}
RECON_ROAD = {"none": 0, "road": -1, "strict": -3}
RECON_FASTER = 1
RECON_FASTER_RATIO = Fraction(3, 2)
RECON_TERRAIN_FEATURE = {"none": 0, "some": 1, "all": 4}
RECON_ENTRENCHED = 3

# §A.5.2 relative TS: (ratio at least, bonus to the larger force), highest first.
RELATIVE_TS = (
    (Fraction(50), 20),
    (Fraction(30), 18),
    (Fraction(20), 16),
    (Fraction(15), 14),
    (Fraction(10), 12),
    (Fraction(7), 10),
    (Fraction(5), 8),
    (Fraction(3), 6),
    (Fraction(2), 4),
    (Fraction(3, 2), 2),
)

# §A.5.3 class superiority: (ratio at least, bonus), highest first; one side only: +3.
SUPERIORITY = ((Fraction(5), 3), (Fraction(3), 2), (Fraction(2), 1))
SUPERIORITY_ONLY_SIDE = 3
ONE_PERCENT = Fraction(1, 100)

# §A.5.2 every full 5 % of casualties gives -1 to the BSM.
CASUALTIES_PER_BSM_POINT = 5

# §A.5.4 Defense Bonus: plains +1, otherwise 1d/2, plus terrain extras.
DB_PLAINS = 1
DB_TERRAIN_EXTRA = {"hills": 1, "mountains": 2, "urban": 2}

# §A.6.1 round length in minutes by the number of elements of the smaller force.
ROUND_LENGTH = ((10_000, 240), (1_000, 120), (100, 60), (10, 30), (1, 15))

# §A.6.2 Risk and significant actions.
RISK_RANGE = (-3, 3)
SIGNIFICANT_ACTION_BASE = 5
SIGNIFICANT_ACTION_EFFECT = {
    "critical_success": 2,
    "success": 1,
    "failure": 0,
    "critical_failure": -1,
}

# §A.6.4 Combat Results Table: (lowest margin, loser %, winner %, PB change).
CRT = (
    (0, 10, 10, 0),
    (1, 15, 10, 1),
    (4, 20, 10, 2),
    (7, 25, 5, 2),
    (10, 30, 5, 3),
    (15, 35, 0, 3),
    (20, 40, 0, 4),
)

# §A.6.5 Misfortunes of War: (casualties at least, chance), highest first.
MISFORTUNE_CHANCE = ((40, 9), (30, 8), (20, 7), (10, 6), (5, 5))
MISFORTUNE_DAMAGE = "2d6-1"
MISFORTUNE_CRITICAL_DAMAGE = "6d6"

# §A.7.1 pursuit.
PURSUIT_CASUALTIES = 5
PURSUIT_SUPERIORITY_CASUALTIES = 5
PURSUIT_PURSUE_MAX = 3  # 1d: 1-3 pursue, 4-6 hold the field
PURSUIT_LOGISTICS_PER_PIP = 5
HOLD_FIELD_RECOVERY = 5

# §A.7.4 loot.
LOOT_SHARE = Fraction(1, 5)
LOOT_BASE_MINUTES = 30


def terrain_rating(terrain: str) -> int:
    """§A.4.4: the Terrain Rating of `terrain` (KeyError if unknown)."""
    return TERRAIN_RATING[terrain]


def crt_row(margin: int) -> tuple[int, int, int]:
    """§A.6.4: (loser casualties %, winner casualties %, PB change) for a margin of victory."""
    row = CRT[0]
    for entry in CRT:
        if margin >= entry[0]:
            row = entry
    return row[1], row[2], row[3]


def round_length(smaller_force_elements: int) -> int:
    """§A.6.1: minutes per round from the number of elements of the smaller force."""
    for at_least, minutes in ROUND_LENGTH:
        if smaller_force_elements >= at_least:
            return minutes
    return ROUND_LENGTH[-1][1]


def casualty_penalty(casualties: int) -> int:
    """§A.5.2: -1 per full 5 % of cumulative casualties (15 % -> -3)."""
    return -(max(0, casualties) // CASUALTIES_PER_BSM_POINT)
