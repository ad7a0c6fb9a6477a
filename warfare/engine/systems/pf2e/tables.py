"""The numbers of PF2e warfare armies: level table (§1.2), army types (§1.3), the four basic
armies as printed (§2) and kingdom XP for defeated armies (§7.6)."""

from dataclasses import dataclass
from enum import StrEnum

MIN_LEVEL = 1
MAX_LEVEL = 20
BASE_SHOTS = 5  # §1.1: ranged Strikes per war encounter
SHOTS_PER_INCREASED_AMMUNITION = 2  # §6.1
MAX_ENGAGED_WITH = 4  # §7.2


class ArmyType(StrEnum):
    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    SKIRMISHER = "skirmisher"
    SIEGE = "siege"


class Save(StrEnum):
    MANEUVER = "maneuver"
    MORALE = "morale"


@dataclass(frozen=True, slots=True)
class LevelRow:
    """One row of 'Basic Armies by Level' (§1.2)."""

    level: int
    scouting: int
    standard_dc: int
    ac: int
    high_save: int
    low_save: int
    attack: int
    max_tactics: int


# §1.2: level, Scouting, Standard DC, AC, high save, low save, attack, max tactics.
_LEVEL_ROWS = (
    (1, 7, 15, 16, 10, 4, 9, 1),
    (2, 8, 16, 18, 11, 5, 11, 1),
    (3, 9, 18, 19, 12, 6, 12, 1),
    (4, 11, 19, 21, 14, 8, 14, 2),
    (5, 12, 20, 22, 15, 9, 15, 2),
    (6, 14, 22, 24, 17, 11, 17, 2),
    (7, 15, 23, 25, 18, 12, 18, 2),
    (8, 16, 24, 27, 19, 13, 20, 3),
    (9, 18, 26, 28, 21, 15, 21, 3),
    (10, 19, 27, 30, 22, 16, 23, 3),
    (11, 21, 28, 31, 24, 18, 24, 3),
    (12, 22, 30, 33, 25, 19, 26, 4),
    (13, 23, 31, 34, 26, 20, 27, 4),
    (14, 25, 32, 36, 28, 22, 29, 4),
    (15, 26, 34, 37, 29, 23, 30, 4),
    (16, 28, 35, 39, 30, 25, 32, 5),
    (17, 29, 36, 40, 32, 26, 33, 5),
    (18, 30, 38, 42, 33, 27, 35, 5),
    (19, 32, 39, 43, 35, 29, 36, 5),
    (20, 33, 40, 45, 36, 30, 38, 6),
)

LEVELS: dict[int, LevelRow] = {row[0]: LevelRow(*row) for row in _LEVEL_ROWS}


def level_row(level: int) -> LevelRow:
    """The §1.2 row for `level` (ValueError outside 1-20)."""
    try:
        return LEVELS[level]
    except (KeyError, TypeError):
        raise ValueError(f"Army level must be {MIN_LEVEL}-{MAX_LEVEL}, got {level!r}.") from None


@dataclass(frozen=True, slots=True)
class TypeRules:
    """Per-type rules (§1.3): which save is high, type adjustments, HP/RT, weapons."""

    type: ArmyType
    name_ru: str
    min_level: int
    high_save: Save
    ac_adjustment: int
    save_adjustment: int
    """Added to both saves (skirmishers: +2)."""
    hp: int
    rt: int
    consumption: int
    melee: bool
    ranged: bool


TYPE_RULES: dict[ArmyType, TypeRules] = {
    rules.type: rules
    for rules in (
        TypeRules(ArmyType.INFANTRY, "Пехота", 1, Save.MORALE, 0, 0, 4, 2, 1, True, False),
        TypeRules(ArmyType.CAVALRY, "Кавалерия", 3, Save.MANEUVER, 0, 0, 4, 2, 2, True, False),
        TypeRules(ArmyType.SKIRMISHER, "Разведчики", 5, Save.MANEUVER, -2, 2, 4, 2, 1, True, False),
        TypeRules(ArmyType.SIEGE, "Осадные войска", 7, Save.MORALE, 0, 0, 6, 3, 1, False, True),
    )
}


@dataclass(frozen=True, slots=True)
class BasicArmy:
    """A basic army's stat block as printed at its minimum level (§2)."""

    key: str
    name_en: str
    name_ru: str
    type: ArmyType
    level: int
    scouting: int
    recruitment_dc: int
    consumption: int
    ac: int
    maneuver: int
    morale: int
    hp: int
    rt: int
    melee: int | None
    ranged: int | None
    mandatory_tactic: str | None


BASIC_ARMIES: dict[ArmyType, BasicArmy] = {
    army.type: army
    for army in (
        BasicArmy(
            "infantry", "Infantry", "Пехота", ArmyType.INFANTRY,
            1, 7, 15, 1, 16, 4, 10, 4, 2, 9, None, None,
        ),
        BasicArmy(
            "cavalry", "Cavalry", "Кавалерия", ArmyType.CAVALRY,
            3, 9, 18, 2, 19, 12, 6, 4, 2, 12, None, "overrun",
        ),
        BasicArmy(
            "skirmishers", "Skirmishers", "Разведчики", ArmyType.SKIRMISHER,
            5, 12, 20, 1, 20, 17, 11, 4, 2, 15, None, None,
        ),
        # Ranged +15 as the AP prints it; the engine derives +18 (house default, §15 item 6).
        BasicArmy(
            "siege_engines", "Siege Engines", "Осадные войска", ArmyType.SIEGE,
            7, 15, 23, 1, 25, 12, 18, 6, 3, None, 15, "engines_of_war",
        ),
    )
}  # fmt: skip
