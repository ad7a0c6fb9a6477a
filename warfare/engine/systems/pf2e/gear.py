"""Army gear (§5): 4 items, 11 purchasable variants (magic weapons are bought per weapon)."""

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

MAX_POTION_DOSES = 3  # §5 Healing Potions


class Weapon(StrEnum):
    MELEE = "melee"
    RANGED = "ranged"


class GearSource(StrEnum):
    PURCHASED = "purchased"
    """Bought or crafted with Outfit Army (Trade): kingdom level and Magic rank limits apply."""
    SPOILS = "spoils"
    """Distributed from battle spoils (Warfare): no RP, no kingdom-level or Magic limit."""
    PRINTED = "printed"
    """Part of a printed stat block (a specialized army's magic weapons)."""


@dataclass(frozen=True, slots=True)
class GearTier:
    tier: int
    name_en: str
    name_ru: str
    level: int
    price: int
    """RP; for Healing Potions, per dose."""
    bonus: int = 0
    """Item bonus (magic armor to AC, magic weapons to Strikes with that weapon)."""


@dataclass(frozen=True, slots=True)
class Gear:
    key: str
    name_en: str
    name_ru: str
    traits: tuple[str, ...]
    tiers: tuple[GearTier, ...]
    effect: str
    per_weapon: bool = False
    """Bought separately for the melee and the ranged weapon (Magic Weapons)."""
    per_dose: bool = False

    @property
    def magical(self) -> bool:
        """Magic gear: buying it needs Magic expert (§4.6)."""
        return "magical" in self.traits

    def tier(self, tier: int) -> GearTier:
        for entry in self.tiers:
            if entry.tier == tier:
                return entry
        raise ValueError(f"{self.key} has no tier {tier}.")


GEAR: dict[str, Gear] = {
    gear.key: gear
    for gear in (
        Gear(
            "additional_weapon", "Additional Weapon", "Дополнительное оружие", ("army",),
            (GearTier(1, "Additional Weapon", "Дополнительное оружие", 1, 10),),
            "An army with only a melee or only a ranged Strike gains the other, at the level "
            "table's attack (a ranged one with the normal 5 shots).",
        ),
        Gear(
            "healing_potions", "Healing Potions", "Зелья исцеления",
            ("army", "consumable", "healing", "magical", "necromancy", "potion"),
            (GearTier(1, "Healing Potions", "Зелья исцеления", 1, 15),),
            "As part of any maneuver war action, spend 1 dose to regain 1 HP. At most 3 doses; "
            "they do not refill after an encounter.",
            per_dose=True,
        ),
        Gear(
            "magic_armor", "Magic Armor", "Магическая броня",
            ("army", "abjuration", "magical"),
            (
                GearTier(1, "Magic Armor", "Магическая броня", 5, 25, 1),
                GearTier(2, "Greater Magic Armor", "Улучшенная магическая броня", 11, 50, 2),
                GearTier(3, "Major Magic Armor", "Высшая магическая броня", 18, 75, 3),
            ),
            "Item bonus to AC.",
        ),
        Gear(
            "magic_weapons", "Magic Weapons", "Магическое оружие",
            ("army", "evocation", "magical"),
            (
                GearTier(1, "Magic Weapons", "Магическое оружие", 2, 20, 1),
                GearTier(2, "Greater Magic Weapons", "Улучшенное магическое оружие", 10, 40, 2),
                GearTier(3, "Major Magic Weapons", "Высшее магическое оружие", 16, 60, 3),
            ),
            "Item bonus to Strikes with one weapon (melee or ranged, chosen at purchase); "
            "can be bought once per weapon.",
            per_weapon=True,
        ),
    )
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class GearChoice:
    """One piece of gear an army has: which item, tier, weapon (magic weapons) and doses."""

    key: str
    tier: int = 1
    weapon: Weapon | None = None
    doses: int = 0
    source: GearSource = GearSource.PURCHASED

    @property
    def slot(self) -> tuple[str, Weapon | None]:
        """Gear of the same slot replaces each other (§5): one armor, one magic melee weapon…"""
        return (self.key, self.weapon)


@dataclass(frozen=True, slots=True)
class GearVariant:
    """Something a kingdom can buy: an item at a tier (and for magic weapons, a weapon)."""

    gear: Gear
    tier: GearTier
    weapon: Weapon | None = None

    @property
    def key(self) -> str:
        parts = [self.gear.key, str(self.tier.tier)]
        if self.weapon:
            parts.append(self.weapon.value)
        return ":".join(parts)


def purchasable_variants() -> Iterator[GearVariant]:
    """The 11 purchasable variants of §13 (1 + 1 + 3 armor tiers + 3 weapon tiers × 2)."""
    for gear in GEAR.values():
        for tier in gear.tiers:
            if gear.per_weapon:
                for weapon in Weapon:
                    yield GearVariant(gear, tier, weapon)
            else:
                yield GearVariant(gear, tier)
