"""Creature stat blocks (dnd5e §4.1) and a starting library of SRD 5.1 creatures.

A stand uses the statistics of ONE creature of its type (hit points not ×10, §4.1); a solo uses
its full stat block. Everything here is plain data that serialises to JSON, so a GM can enter a
stat block once and reuse it (`Creature.from_dict` / `to_dict`).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from warfare.engine.systems.dnd5e.house_rules import house_value

SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")
"""Size categories in order (§2)."""

ABILITIES = ("str", "dex", "con", "int", "wis", "cha")


def size_rank(size: str) -> int:
    return SIZES.index(size)


def footprint(size: str) -> int:
    """§4.1: the side, in 20-ft squares, of the space a stand or solo of `size` takes."""
    return max(1, size_rank(size) - 1)


def speed_squares(feet: int) -> int:
    """§4.1: speed in squares = feet ÷ 5, rounded down [inferred] (hobgoblin 30 ft → 6)."""
    return feet // house_value("speed.feet_per_square")


def range_squares(feet: int) -> int:
    """§5.4 [inferred]: max(1, floor((ft + 10) / 20)); 30 → 2, 60 → 3, 120 → 6, 150 → 8."""
    return max(1, (feet + house_value("range.half_square_ft")) // 20)


@dataclass(frozen=True)
class Attack:
    """One attack of a stat block. `count`: how many times the Attack action makes it
    (Multiattack); `reach_ft` for melee, `range_ft`/`long_ft` for ranged (both may be set:
    a javelin is melee or thrown)."""

    key: str
    to_hit: int
    damage: str
    damage_type: str = ""
    reach_ft: int | None = 5
    range_ft: int | None = None
    long_ft: int | None = None
    count: int = 1

    @property
    def melee(self) -> bool:
        return self.reach_ft is not None

    @property
    def ranged(self) -> bool:
        return self.range_ft is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "to_hit": self.to_hit,
            "damage": self.damage,
            "damage_type": self.damage_type,
            "reach_ft": self.reach_ft,
            "range_ft": self.range_ft,
            "long_ft": self.long_ft,
            "count": self.count,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Attack":
        return cls(
            key=str(data["key"]),
            to_hit=int(data["to_hit"]),
            damage=str(data["damage"]),
            damage_type=str(data.get("damage_type", "")),
            reach_ft=_opt_int(data.get("reach_ft", 5)),
            range_ft=_opt_int(data.get("range_ft")),
            long_ft=_opt_int(data.get("long_ft")),
            count=int(data.get("count", 1)),
        )


@dataclass(frozen=True)
class Spell:
    """A damaging spell of a stat block (§5.5). Either an attack (`attack_bonus`) or a save
    (`save` ability + `dc`); `area` = (shape, size_ft) with shape sphere/cube/cylinder/cone/
    line, or None for a targeted spell hitting up to `targets` creatures; `uses` per battle
    (None: at will, e.g. a cantrip)."""

    key: str
    range_ft: int
    damage: str
    damage_type: str = ""
    attack_bonus: int | None = None
    save: str | None = None
    dc: int | None = None
    half_on_save: bool = True
    area: tuple[str, int] | None = None
    targets: int = 1
    uses: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "range_ft": self.range_ft,
            "damage": self.damage,
            "damage_type": self.damage_type,
            "attack_bonus": self.attack_bonus,
            "save": self.save,
            "dc": self.dc,
            "half_on_save": self.half_on_save,
            "area": list(self.area) if self.area else None,
            "targets": self.targets,
            "uses": self.uses,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Spell":
        area = data.get("area")
        return cls(
            key=str(data["key"]),
            range_ft=int(data["range_ft"]),
            damage=str(data["damage"]),
            damage_type=str(data.get("damage_type", "")),
            attack_bonus=_opt_int(data.get("attack_bonus")),
            save=data.get("save"),
            dc=_opt_int(data.get("dc")),
            half_on_save=bool(data.get("half_on_save", True)),
            area=(str(area[0]), int(area[1])) if area else None,
            targets=int(data.get("targets", 1)),
            uses=_opt_int(data.get("uses")),
        )


@dataclass(frozen=True)
class Creature:
    """A 5e stat block, as much as mass combat needs (§4.1 "derived stand stat block").

    `abilities`: modifiers by ability key; `saves`: save bonuses where they differ from the
    modifier (proficiency); `speeds` in feet by mode (walk, fly, swim, climb); `stealth` and
    `passive_perception` default to Dex and 10 + Wis."""

    key: str
    name: str
    size: str
    ac: int
    hp: int
    speeds: Mapping[str, int]
    abilities: Mapping[str, int]
    attacks: tuple[Attack, ...] = ()
    saves: Mapping[str, int] = field(default_factory=dict)
    spells: tuple[Spell, ...] = ()
    stealth: int | None = None
    passive_perception: int | None = None
    immunities: tuple[str, ...] = ()

    def mod(self, ability: str) -> int:
        return int(self.abilities.get(ability, 0))

    def save(self, ability: str) -> int:
        return int(self.saves.get(ability, self.mod(ability)))

    @property
    def stealth_bonus(self) -> int:
        return self.stealth if self.stealth is not None else self.mod("dex")

    @property
    def perception(self) -> int:
        return (
            self.passive_perception if self.passive_perception is not None else 10 + self.mod("wis")
        )

    @property
    def reach_bonus_attack(self) -> bool:
        """§5.4: a melee attack with reach 10 ft or more gives one bonus attack."""
        return any((a.reach_ft or 0) >= 10 for a in self.attacks)

    def attack(self, key: str) -> Attack | None:
        for attack in self.attacks:  # the first of the key (a loop: no generator to close)
            if attack.key == key:
                return attack
        return None

    def spell(self, key: str) -> Spell | None:
        return next((s for s in self.spells if s.key == key), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "size": self.size,
            "ac": self.ac,
            "hp": self.hp,
            "speeds": dict(self.speeds),
            "abilities": dict(self.abilities),
            "attacks": [a.to_dict() for a in self.attacks],
            "saves": dict(self.saves),
            "spells": [s.to_dict() for s in self.spells],
            "stealth": self.stealth,
            "passive_perception": self.passive_perception,
            "immunities": list(self.immunities),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Creature":
        size = str(data.get("size", "medium"))
        if size not in SIZES:
            raise ValueError(size)
        return cls(
            key=str(data["key"]),
            name=str(data.get("name", data["key"])),
            size=size,
            ac=int(data["ac"]),
            hp=int(data["hp"]),
            speeds={str(k): int(v) for k, v in dict(data.get("speeds") or {}).items()},
            abilities={str(k): int(v) for k, v in dict(data.get("abilities") or {}).items()},
            attacks=tuple(Attack.from_dict(a) for a in data.get("attacks") or ()),
            saves={str(k): int(v) for k, v in dict(data.get("saves") or {}).items()},
            spells=tuple(Spell.from_dict(s) for s in data.get("spells") or ()),
            stealth=_opt_int(data.get("stealth")),
            passive_perception=_opt_int(data.get("passive_perception")),
            immunities=tuple(str(i) for i in data.get("immunities") or ()),
        )


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _abilities(s: int, d: int, c: int, i: int, w: int, ch: int) -> dict[str, int]:
    return dict(zip(ABILITIES, (s, d, c, i, w, ch), strict=True))


LIBRARY: dict[str, Creature] = {
    c.key: c
    for c in (
        Creature(
            "guard", "Guard", "medium", 16, 11, {"walk": 30}, _abilities(1, 1, 1, 0, 0, 0),
            (Attack("spear", 3, "1d6+1", "piercing", 5, 20, 60),),
            passive_perception=12,
        ),
        Creature(
            "scout", "Scout (archer)", "medium", 13, 16, {"walk": 30},
            _abilities(0, 2, 1, 0, 1, 0),
            (
                Attack("shortsword", 4, "1d6+2", "piercing", 5, count=2),
                Attack("longbow", 4, "1d8+2", "piercing", None, 150, 600, count=2),
            ),
            stealth=6, passive_perception=15,
        ),
        Creature(
            "orc", "Orc", "medium", 13, 15, {"walk": 30}, _abilities(3, 1, 3, -2, 0, 0),
            (
                Attack("greataxe", 5, "1d12+3", "slashing"),
                Attack("javelin", 5, "1d6+3", "piercing", 5, 30, 120),
            ),
        ),
        Creature(
            "goblin", "Goblin", "small", 15, 7, {"walk": 30}, _abilities(-1, 2, 0, 0, -1, -1),
            (
                Attack("scimitar", 4, "1d6+2", "slashing"),
                Attack("shortbow", 4, "1d6+2", "piercing", None, 80, 320),
            ),
            stealth=6, passive_perception=9,
        ),
        Creature(
            "hobgoblin", "Hobgoblin", "medium", 18, 11, {"walk": 30},
            _abilities(1, 1, 1, 0, 0, -1),
            (
                Attack("longsword", 3, "1d8+1", "slashing"),
                Attack("longbow", 3, "1d8+1", "piercing", None, 150, 600),
            ),
        ),
        Creature(
            "knight", "Knight", "medium", 18, 52, {"walk": 30}, _abilities(3, 0, 2, 0, 0, 2),
            (
                Attack("greatsword", 5, "2d6+3", "slashing", count=2),
                Attack("heavy_crossbow", 2, "1d10", "piercing", None, 100, 400),
            ),
            saves={"con": 4, "wis": 2},
        ),
        Creature(
            "ogre", "Ogre", "large", 11, 59, {"walk": 40}, _abilities(4, -1, 3, -3, -2, -2),
            (
                Attack("greatclub", 6, "2d8+4", "bludgeoning"),
                Attack("javelin", 6, "2d6+4", "piercing", 5, 30, 120),
            ),
            passive_perception=8,
        ),
        Creature(
            "hill_giant", "Hill Giant", "huge", 13, 105, {"walk": 40},
            _abilities(5, -1, 4, -3, -1, -2),
            (
                Attack("greatclub", 8, "3d8+5", "bludgeoning", 10, count=2),
                Attack("rock", 8, "3d10+5", "bludgeoning", None, 60, 240),
            ),
            stealth=-1, passive_perception=12,
        ),
        Creature(
            "mage", "Mage", "medium", 12, 40, {"walk": 30}, _abilities(-1, 2, 0, 3, 1, 0),
            (Attack("dagger", 5, "1d4+2", "piercing", 5, 20, 60),),
            saves={"int": 6, "wis": 4},
            spells=(
                Spell("fire_bolt", 120, "2d10", "fire", attack_bonus=6),
                Spell("fireball", 150, "8d6", "fire", save="dex", dc=14,
                      area=("sphere", 20), uses=3),
            ),
            passive_perception=11,
        ),
    )
}  # fmt: skip
"""SRD 5.1 stat blocks (guard, scout, orc, goblin, hobgoblin, knight, ogre, hill giant, mage)."""
