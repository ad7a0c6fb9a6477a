"""Structures that grant item bonuses to Army activities (§4.9), from KMT structure data.

The GM enters which structures the kingdom has; `item_bonuses_from_structures` turns them into
the `KingdomState.item_bonuses` table. Item bonuses do not stack: the highest counts.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from warfare.engine.problems import Problem

RECRUIT, DEPLOY, DISBAND, GARRISON = "recruit_army", "deploy_army", "disband_army", "garrison_army"
GAMBIT, OUTFIT, RECOVER, TRAIN = "offensive_gambit", "outfit_army", "recover_army", "train_army"


@dataclass(frozen=True, slots=True)
class Structure:
    key: str
    name_en: str
    level: int
    bonus: int
    """Item bonus."""
    activities: tuple[str, ...]


STRUCTURES: dict[str, Structure] = {
    structure.key: structure
    for structure in (
        Structure("barracks", "Barracks", 3, 1, (GARRISON, RECOVER, RECRUIT)),
        Structure("keep", "Keep", 3, 1, (DEPLOY, GARRISON, TRAIN)),
        Structure("garrison", "Garrison", 5, 1, (OUTFIT, TRAIN)),
        Structure("smithy", "Smithy", 3, 1, (OUTFIT,)),
        Structure("castle", "Castle", 9, 2, (GARRISON, RECOVER, RECRUIT)),
        Structure("military_academy", "Military Academy", 12, 2, (TRAIN,)),
        Structure("palace", "Palace", 15, 3, (GARRISON, RECOVER, RECRUIT)),
    )
}


def item_bonuses_from_structures(structure_keys: Iterable[str]) -> dict[str, int] | list[Problem]:
    """{activity key: highest item bonus} for a kingdom with these structures (§4.9).

    Unknown keys -> `structure.unknown` problems.
    """
    keys = list(structure_keys)
    unknown = [key for key in keys if key not in STRUCTURES]
    if unknown:
        return [Problem("structure.unknown", {"structure": key}) for key in unknown]
    bonuses: dict[str, int] = {}
    for key in keys:
        structure = STRUCTURES[key]
        for activity in structure.activities:
            bonuses[activity] = max(bonuses.get(activity, 0), structure.bonus)
    return bonuses
