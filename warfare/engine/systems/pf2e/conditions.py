"""The 14 army conditions (§9), and which ones imply others."""

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

MIRED_PINS_AT = 4  # §9 Mired: at mired 4 the army becomes pinned
SHAKEN_ROUTS_AT = 4  # §9 Shaken: at shaken 4 the army is routed


@dataclass(frozen=True, slots=True)
class Condition:
    key: str
    name_en: str
    name_ru: str
    valued: bool
    effect: str


CONDITIONS: dict[str, Condition] = {
    condition.key: condition
    for condition in (
        Condition(
            "concealed", "Concealed", "Плохо видимо", False,
            "+2 circumstance to its Maneuver checks; attacks against it take -2 circumstance.",
        ),
        Condition(
            "defeated", "Defeated", "Разгромлено", False,
            "At 0 HP; no war actions; DC 16 flat check when damaged or destroyed.",
        ),
        Condition(
            "destroyed", "Destroyed", "Уничтожено", False,
            "Gone for good, with all its gear.",
        ),
        Condition(
            "distant", "Distant", "На отдалении", False,
            "Ranged Strikes against it take -5 (doubled in wind); it can flee with Retreat.",
        ),
        Condition(
            "efficient", "Efficient", "Эффективно", False,
            "May take a second Army activity at -5 (cannot grant efficient again).",
        ),
        Condition(
            "engaged", "Engaged", "Вовлечено в бой", False,
            "In melee with up to 4 armies; leaving by a maneuver action provokes reactions.",
        ),
        Condition(
            "fortified", "Fortified", "Защищено", False,
            "Cannot engage or be engaged; +4 item bonus to AC and to Morale checks to Rally.",
        ),
        Condition(
            "lost", "Lost", "Потеряно", False,
            "No Army activity except Recover Army.",
        ),
        Condition(
            "mired", "Mired", "Завязло", True,
            "Circumstance penalty = value to maneuver actions/checks and Deploy Army; "
            "pinned at 4.",
        ),
        Condition(
            "outflanked", "Outflanked", "Окружено", False,
            "-2 circumstance to AC.",
        ),
        Condition(
            "pinned", "Pinned", "Взято в котёл", False,
            "Outflanked; no maneuver war actions; cannot be deployed.",
        ),
        Condition(
            "routed", "Routed", "Обращено в бегство", False,
            "Must Retreat; -2 circumstance to Morale checks.",
        ),
        Condition(
            "shaken", "Shaken", "Потрясено", True,
            "Circumstance penalty = value to Morale checks; DC 11 flat check when damaged or "
            "shaken +1; routed at 4.",
        ),
        Condition(
            "weary", "Weary", "Измотано", True,
            "Circumstance penalty = value to AC, Maneuver checks and Army activity checks "
            "(double on Deploy Army).",
        ),
    )
}  # fmt: skip


@lru_cache(maxsize=4096)
def implied_by(pairs: tuple[tuple[str, int], ...]) -> Mapping[str, int]:
    """`implied_conditions` of an `ArmySpec.conditions` tuple, read-only and cached (an army
    asks whether it is defeated or routed many times a command)."""
    return MappingProxyType(implied_conditions(dict(pairs)))


def implied_conditions(conditions: Mapping[str, int]) -> dict[str, int]:
    """`conditions` plus what they imply (§9): mired 4 -> pinned, shaken 4 -> routed,
    pinned -> outflanked. Non-valued conditions have value 1."""
    result = {key: value for key, value in conditions.items() if value}
    if result.get("mired", 0) >= MIRED_PINS_AT:
        result.setdefault("pinned", 1)
    if result.get("shaken", 0) >= SHAKEN_ROUTS_AT:
        result.setdefault("routed", 1)
    if "pinned" in result:
        result.setdefault("outflanked", 1)
    return result
