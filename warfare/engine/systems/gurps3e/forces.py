"""Units and forces of GURPS 3e mass combat (gurps §B.2 step 1, §B.3a, §B.8.5, §B.10).

A unit (10-500 men) has a per-man TS by troop type, GM-entered because the troop-type table
is a [gap] (the article's two halfling examples are in the house table as `troop_ts.<type>`).
A race modifies it (§B.3a: ½ x (ST mod + HT mod + extra HP), Super Strength 10 per level;
never below 1; the article's examples are in the house table as `race_ts.<race>`), then
missile-weapon and armour bonuses are added. Unit TS = men x per-man TS; force TS = the sum
over its units.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from warfare.engine.frozen import replace
from warfare.engine.systems.gurps3e.characters import int_field
from warfare.engine.systems.gurps3e.house_rules import house_value

ATTACKER, DEFENDER = "attacker", "defender"
# §B.8.2 armour classes: "light" also covers spearmen.
ARMOUR = ("heavy", "medium", "light", "none")
QUALITIES = ("green", "average", "seasoned", "veteran", "elite")

Term = tuple[str, int]


def racial_ts_modifier(st_mod: int, ht_mod: int, extra_hp: int, super_strength: int = 0) -> int:
    """§B.3a: ½ x (ST modifier + HT modifier + extra hit points), each Super Strength level
    counting 10 toward ST; the half rounds toward zero [house]."""
    total = st_mod + super_strength * house_value("race.super_strength_per_level") + ht_mod
    total += extra_hp
    if house_value("race.half_rounds_toward_zero"):
        return int(total / 2)
    return total // 2


def known(prefix: str, code: str) -> bool:
    """Whether the house table has `<prefix>.<code>` (a race or a troop type, §B.3a)."""
    try:
        house_value(f"{prefix}.{code}")
    except KeyError:
        return False
    return True


def unit_racial(data: Mapping[str, Any]) -> int:
    """A unit's racial TS modifier from its setup: `racial` as given, else its `race` code
    (house table), else its `race_stats` {st, ht, hp, super_strength} (§B.3a), else 0."""
    if data.get("racial") is not None:
        return int(data["racial"])
    if data.get("race") is not None:
        return house_value(f"race_ts.{data['race']}")
    stats = data.get("race_stats")
    if stats:
        return racial_ts_modifier(
            int(stats.get("st", 0)),
            int(stats.get("ht", 0)),
            int(stats.get("hp", 0)),
            int(stats.get("super_strength", 0)),
        )
    return 0


def man_ts(base: int, racial: int = 0, equipment: int = 0) -> int:
    """§B.3a: a man's TS: base (troop type) + racial modifier, not below 1 by a racial
    penalty, then + missile-weapon and armour bonuses."""
    with_race = base + racial
    if racial < 0:
        with_race = max(with_race, house_value("race.minimum_ts"))
    return with_race + equipment


def experience_after_replacements(groups: Sequence[tuple[int, int]]) -> int:
    """§B.8.5: a unit's battles of experience after taking replacements: the men-weighted
    average of (men, battles) groups, rounded down (recruits at their band's lower bound).
    87 veterans of 10 battles + 11 recruits of 1 -> 8."""
    men = sum(count for count, _ in groups)
    if men <= 0:
        return 0
    return sum(count * battles for count, battles in groups) // men


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit (§B.10 Unit3e). `ts_per_man` is the troop type's (GM-entered) base TS (from
    the house table for a known `troop_type` when not given); `racial` (see `unit_racial`)
    and `equipment` as in `man_ts`. `morale` is its Base Morale (from Troop Quality:
    Veteran 15, others GM-entered); `men_start` its strength when the battle began."""

    key: str
    troop_type: str
    men: int
    men_start: int
    ts_per_man: int
    racial: int = 0
    equipment: int = 0
    armour: str = "none"
    quality: str = "average"
    morale: int = 10
    routed: bool = False
    retreated: bool = False
    battles: int = 0

    @property
    def ts(self) -> int:
        return self.men * man_ts(self.ts_per_man, self.racial, self.equipment)

    @property
    def on_field(self) -> bool:
        return self.men > 0 and not self.routed and not self.retreated

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "troop_type": self.troop_type,
            "men": self.men,
            "men_start": self.men_start,
            "ts_per_man": self.ts_per_man,
            "racial": self.racial,
            "equipment": self.equipment,
            "armour": self.armour,
            "quality": self.quality,
            "morale": self.morale,
            "routed": self.routed,
            "retreated": self.retreated,
            "battles": self.battles,
            "ts": self.ts,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Unit":
        quality = str(data.get("quality", "average"))
        morale = data.get("morale")
        if morale is None:
            morale = house_value("quality.veteran_morale") if quality == "veteran" else 10
        men = int(data["men"])
        troop_type = str(data.get("troop_type", ""))
        ts_per_man = data.get("ts_per_man")
        if ts_per_man is None:
            ts_per_man = house_value(f"troop_ts.{troop_type}")
        return cls(
            key=str(data["key"]),
            troop_type=troop_type,
            men=men,
            men_start=int_field(data, "men_start", men),
            ts_per_man=int(ts_per_man),
            racial=unit_racial(data),
            equipment=int_field(data, "equipment", 0),
            armour=str(data.get("armour", "none")),
            quality=quality,
            morale=int(morale),
            routed=bool(data.get("routed", False)),
            retreated=bool(data.get("retreated", False)),
            battles=int_field(data, "battles", 0),
        )


@dataclass(frozen=True, slots=True)
class DefensiveItem:
    """A defensive-position item (§B.7.2) chosen by the GM; `value` only for the items whose
    size the GM sets (higher ground, narrow passage)."""

    code: str
    value: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "value": self.value}


@dataclass(frozen=True, slots=True)
class Force:
    """One side (§B.10 Force3e): `key` "a"/"b", `role` attacker/defender, TL, the
    commander's Strategy skill, units,
    defensive items (defender only), GM modifiers (catastrophe, other), Morale modifier codes
    (§B.8.3), the next-day Morale penalty carried from the last result, and its fate;
    `commander_lost` (its army commander died or was captured) lowers Morale until it wins
    a clear victory (§B.8.3), and is carried to the next battle."""

    key: str
    role: str
    tl: int
    strategy: int
    units: tuple[Unit, ...]
    defensive: tuple[DefensiveItem, ...] = ()
    catastrophe: int = 0
    other: int = 0
    morale_modifiers: tuple[str, ...] = ()
    next_day_morale: int = 0
    retreated: bool = False
    commander_captured: bool = False
    commander_lost: bool = False
    name: str = ""

    @property
    def ts(self) -> int:
        """Force TS: the sum of its units' TS (men left x per-man TS)."""
        return sum([unit.ts for unit in self.units])

    @property
    def men(self) -> int:
        return sum([unit.men for unit in self.units])

    def unit(self, key: str) -> Unit:
        return next(unit for unit in self.units if unit.key == key)

    def with_unit(self, unit: Unit) -> "Force":
        units = tuple(unit if old.key == unit.key else old for old in self.units)
        return replace(self, units=units)

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "role": self.role,
            "tl": self.tl,
            "strategy": self.strategy,
            "units": [unit.to_dict() for unit in self.units],
            "defensive": [item.to_dict() for item in self.defensive],
            "catastrophe": self.catastrophe,
            "other": self.other,
            "morale_modifiers": list(self.morale_modifiers),
            "next_day_morale": self.next_day_morale,
            "retreated": self.retreated,
            "commander_captured": self.commander_captured,
            "commander_lost": self.commander_lost,
            "ts": self.ts,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Force":
        return cls(
            key=str(data["key"]),
            name=str(data.get("name", "")),
            role=str(data["role"]),
            tl=int(data["tl"]),
            strategy=int(data["strategy"]),
            units=tuple(Unit.from_dict(unit) for unit in data.get("units") or ()),
            defensive=tuple(
                DefensiveItem(str(item["code"]), item.get("value"))
                for item in data.get("defensive") or ()
            ),
            catastrophe=int(data.get("catastrophe", 0)),
            other=int(data.get("other", 0)),
            morale_modifiers=tuple(str(code) for code in data.get("morale_modifiers") or ()),
            next_day_morale=int(data.get("next_day_morale", 0)),
            retreated=bool(data.get("retreated", False)),
            commander_captured=bool(data.get("commander_captured", False)),
            commander_lost=bool(data.get("commander_lost", False)),
        )
