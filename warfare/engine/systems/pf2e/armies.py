"""An army's derived statistics: `stat_block(ArmySpec) -> StatBlock`.

Basic armies: level table (§1.2) + type rules (§1.3). Specialized armies and GM custom blocks:
printed values moved with the level table (§3.3). Then gear (item bonuses), tactics and
conditions (§9) by PF2e stacking rules (see `modifiers`). Modifiers that depend on the
situation (Overrun vs infantry, Hold the Line vs rout…) are listed in `situational`, not added.
"""

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from math import ceil
from typing import Any

from warfare.engine.systems.pf2e.conditions import CONDITIONS, implied_conditions
from warfare.engine.systems.pf2e.gear import GEAR, GearChoice, GearSource, Weapon
from warfare.engine.systems.pf2e.house_rules import house_value
from warfare.engine.systems.pf2e.modifiers import BonusType, Modifier, Stat, combine
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES, PrintedStats
from warfare.engine.systems.pf2e.tables import (
    BASE_SHOTS,
    SHOTS_PER_INCREASED_AMMUNITION,
    TYPE_RULES,
    ArmyType,
    LevelRow,
    Save,
    level_row,
)
from warfare.engine.systems.pf2e.tactics import BASIC_WAR_ACTIONS, MANDATORY_TACTIC, TACTICS

ITEM, STATUS, CIRCUMSTANCE = BonusType.ITEM, BonusType.STATUS, BonusType.CIRCUMSTANCE


@dataclass(frozen=True, slots=True)
class ArmySpec:
    """What an army is: the input of `stat_block` and `validate_army`.

    `tactics` may repeat a key (Toughened Soldiers ×2). `conditions` maps a condition key to
    its value (1 for conditions without a value). `custom` replaces the printed stat block
    (a GM's own army, or a corrected specialized one). `current_hp` is optional; when given,
    HP-dependent effects (Bloodied but Unbroken) are applied.
    """

    type: ArmyType
    level: int
    specialized: str | None = None
    gear: tuple[GearChoice, ...] = ()
    tactics: tuple[str, ...] = ()
    conditions: tuple[tuple[str, int], ...] | Mapping[str, int] = ()
    custom: PrintedStats | None = None
    current_hp: int | None = None

    def __post_init__(self) -> None:
        conditions = (
            self.conditions.items() if isinstance(self.conditions, Mapping) else self.conditions
        )
        object.__setattr__(self, "type", ArmyType(self.type))
        object.__setattr__(self, "gear", tuple(self.gear))
        object.__setattr__(self, "tactics", tuple(self.tactics))
        object.__setattr__(
            self, "conditions", tuple(sorted((str(k), int(v)) for k, v in conditions))
        )

    post_init_fields = frozenset({"type", "gear", "tactics", "conditions"})
    """What `__post_init__` normalises (idempotently): `frozen.replace` copies a spec with
    another level or current HP without it."""

    @property
    def condition_values(self) -> dict[str, int]:
        return dict(self.conditions)  # type: ignore[arg-type]

    @property
    def printed(self) -> PrintedStats | None:
        """The printed stat block this army derives from (None: a basic army)."""
        if self.custom is not None:
            return self.custom
        if self.specialized is not None:
            return SPECIALIZED_ARMIES[self.specialized].stats
        return None

    @property
    def is_basic(self) -> bool:
        return self.specialized is None and self.custom is None


def new_basic_spec(army_type: ArmyType, level: int, tactics: tuple[str, ...] = ()) -> ArmySpec:
    """A freshly recruited basic army: its mandatory tactic first (§2), then `tactics`."""
    mandatory = MANDATORY_TACTIC.get(ArmyType(army_type))
    first = (mandatory,) if mandatory else ()
    return ArmySpec(army_type, level, tactics=first + tuple(tactics))


def new_specialized_spec(key: str, level: int | None = None) -> ArmySpec:
    """A specialized army as printed, at `level` (default: its minimum level)."""
    army = SPECIALIZED_ARMIES[key]
    return ArmySpec(
        army.type,
        army.level if level is None else level,
        specialized=key,
        gear=army.gear,
        tactics=army.tactics,
    )


@dataclass(frozen=True, slots=True)
class Situational:
    """A modifier that applies only in some situations (e.g. 'attack +1 status vs infantry')."""

    stat: str
    value: int
    type: BonusType
    when: str
    source: str


@dataclass(frozen=True, slots=True)
class StatBlock:
    type: ArmyType
    level: int
    scouting: Stat
    recruitment_dc: Stat | None
    consumption: Stat | None
    ac: Stat
    maneuver: Stat
    morale: Stat
    melee: Stat | None
    ranged: Stat | None
    max_hp: Stat
    rout_threshold: Stat | None
    max_tactics: Stat
    shots: Stat
    potion_doses: int
    activity_check: Stat
    """Modifier to this army's Army activity checks (weary, §9)."""
    deploy_check: Stat
    """Modifier to its Deploy Army checks (double weary, mired; §4.2, §9)."""
    conditions: tuple[tuple[str, int], ...]
    """Conditions in force, including implied ones (pinned -> outflanked…)."""
    war_actions: tuple[str, ...]
    situational: tuple[Situational, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (a battle snapshot or an API response)."""
        data: dict[str, Any] = {"type": self.type.value, "level": self.level}
        for name in (
            "scouting", "recruitment_dc", "consumption", "ac", "maneuver", "morale", "melee",
            "ranged", "max_hp", "rout_threshold", "max_tactics", "shots", "activity_check",
            "deploy_check",
        ):  # fmt: skip
            stat = getattr(self, name)
            data[name] = stat.to_dict() if stat is not None else None
        data["potion_doses"] = self.potion_doses
        data["conditions"] = dict(self.conditions)
        data["war_actions"] = list(self.war_actions)
        data["situational"] = [
            {"stat": s.stat, "value": s.value, "type": s.type.value, "when": s.when,
             "source": s.source}
            for s in self.situational
        ]  # fmt: skip
        return data


def _check_keys(spec: ArmySpec) -> None:
    if spec.specialized is not None and spec.specialized not in SPECIALIZED_ARMIES:
        raise ValueError(f"Unknown specialized army {spec.specialized!r}.")
    for key in spec.tactics:
        if key not in TACTICS:
            raise ValueError(f"Unknown tactic {key!r}.")
    for choice in spec.gear:
        if choice.key not in GEAR:
            raise ValueError(f"Unknown gear {choice.key!r}.")
    for key, _ in spec.conditions:
        if key not in CONDITIONS:
            raise ValueError(f"Unknown condition {key!r}.")


def _save_columns(spec: ArmySpec) -> dict[Save, str]:
    """Which level-table column ('high_save'/'low_save') each save follows, by army type."""
    high = TYPE_RULES[spec.type].high_save
    return {save: "high_save" if save is high else "low_save" for save in Save}


def _printed_save_column(printed: int, base: LevelRow, default: str) -> str:
    """The column a printed save follows: the nearer one (ties: the type's default)."""
    high, low = abs(printed - base.high_save), abs(printed - base.low_save)
    if high == low:
        return default
    return "high_save" if high < low else "low_save"


def native_weapons(spec: ArmySpec) -> set[Weapon]:
    """The Strikes an army has by its type (§1.3) or its printed stat block."""
    printed = spec.printed
    if printed is None:
        rules = TYPE_RULES[spec.type]
        return {weapon for weapon in Weapon if getattr(rules, weapon.value)}
    return {weapon for weapon in Weapon if getattr(printed, weapon.value) is not None}


def army_weapons(spec: ArmySpec) -> set[Weapon]:
    """The Strikes an army has, counting Additional Weapon (§5)."""
    weapons = native_weapons(spec)
    if any(choice.key == "additional_weapon" for choice in spec.gear) and len(weapons) == 1:
        weapons = set(Weapon)
    return weapons


def _base_modifiers(spec: ArmySpec, row: LevelRow) -> dict[str, list[Modifier]]:
    """Level table + type adjustments (basic) or printed adjustments (specialized/custom)."""
    printed = spec.printed
    columns = _save_columns(spec)
    mods: dict[str, list[Modifier]] = {}
    if printed is None:
        rules = TYPE_RULES[spec.type]
        mods["scouting"] = [Modifier("level", row.scouting)]
        mods["recruitment_dc"] = [Modifier("level", row.standard_dc)]
        mods["ac"] = [Modifier("level", row.ac), Modifier("type", rules.ac_adjustment)]
        for save in Save:
            mods[save.value] = [
                Modifier("level", getattr(row, columns[save])),
                Modifier("type", rules.save_adjustment),
            ]
        if rules.melee:
            mods["melee"] = [Modifier("level", row.attack)]
        if rules.ranged:
            mods["ranged"] = [Modifier("level", row.attack)]
            if spec.type is ArmyType.SIEGE:
                adjustment = house_value("siege_engines.ranged_adjustment")
                mods["ranged"].append(Modifier("house.siege_engines_ranged", adjustment))
        return mods

    base = level_row(printed.level)
    label = "custom" if spec.custom is not None else "specialized"

    def moved(stat: str, value: int, column: str | None = None) -> list[Modifier]:
        column = column or stat
        return [
            Modifier("level", getattr(row, column)),
            Modifier(label, value - getattr(base, column)),
        ]

    mods["scouting"] = moved("scouting", printed.scouting)
    if printed.recruitment_dc is not None:
        mods["recruitment_dc"] = moved("standard_dc", printed.recruitment_dc)
    mods["ac"] = moved("ac", printed.ac)
    for save, value in ((Save.MANEUVER, printed.maneuver), (Save.MORALE, printed.morale)):
        column = _printed_save_column(value, base, columns[save])
        mods[save.value] = moved(save.value, value, column)
    if printed.melee is not None:
        mods["melee"] = moved("melee", printed.melee, "attack")
    if printed.ranged is not None:
        mods["ranged"] = moved("ranged", printed.ranged, "attack")
    return mods


def _sharpshooter_melee(level: int) -> int:
    """§6.1 Sharpshooter: -2 status to melee, -1 from level 9, none from level 15."""
    if level >= 15:
        return 0
    return -1 if level >= 9 else -2


def _step_bonus(level: int) -> int:
    """+1, +2 at level 9, +3 at level 17 (Defensive Tactics, Focused Devotion)."""
    return 1 + (level >= 9) + (level >= 17)


def stat_block(spec: ArmySpec) -> StatBlock:
    """Derive every statistic of `spec`, each with a breakdown that sums to its value.

    Cached per spec (issue 13: a board render or a replay asks for the same army's block
    dozens of times): a spec and its block are both immutable, so equal specs share one
    block. A spec holding something unhashable is worked out without the cache."""
    try:
        return _cached_block(spec)
    except TypeError:
        return _stat_block(spec)


@lru_cache(maxsize=8192)
def _cached_block(spec: ArmySpec) -> StatBlock:
    return _stat_block(spec)


def _stat_block(spec: ArmySpec) -> StatBlock:
    _check_keys(spec)
    row = level_row(spec.level)
    if spec.custom is not None:
        level_row(spec.custom.level)
    printed = spec.printed
    known = Counter(spec.tactics)
    conditions = implied_conditions(spec.condition_values)
    mods = _base_modifiers(spec, row)
    situational: list[Situational] = []

    def situation(stat: str, value: int, kind: BonusType, when: str, source: str) -> None:
        situational.append(Situational(stat, value, kind, when, source))

    # Additional Weapon (§5): the missing Strike at the level table's attack.
    weapons = army_weapons(spec)
    for weapon in weapons:
        if weapon.value not in mods:
            mods[weapon.value] = [Modifier("level", row.attack)]
    potion_doses = _gear_modifiers(spec, weapons, mods)
    printed_label = ("custom" if spec.custom else "specialized") if printed else "type"
    max_hp, rout_threshold = _hp_and_rout_threshold(spec, printed, printed_label, known)
    _fixed_tactics(spec, known, rout_threshold, mods, situation)
    _condition_modifiers(conditions, mods, situation)
    _situational_tactics(spec, known, situation)
    weary, mired = conditions.get("weary", 0), conditions.get("mired", 0)
    return StatBlock(
        type=spec.type,
        level=spec.level,
        scouting=combine(mods["scouting"]),
        recruitment_dc=combine(mods["recruitment_dc"]) if "recruitment_dc" in mods else None,
        consumption=_consumption(spec, printed, printed_label, known),
        ac=combine(mods["ac"]),
        maneuver=combine(mods["maneuver"]),
        morale=combine(mods["morale"]),
        melee=combine(mods["melee"]) if "melee" in mods else None,
        ranged=combine(mods["ranged"]) if "ranged" in mods else None,
        max_hp=max_hp,
        rout_threshold=rout_threshold,
        max_tactics=Stat(row.max_tactics, (("level", row.max_tactics),)),
        shots=_shots(printed, known, mods),
        potion_doses=potion_doses,
        activity_check=combine([Modifier("condition.weary", -weary, CIRCUMSTANCE)]),
        deploy_check=combine(
            [
                Modifier("condition.weary", -2 * weary, CIRCUMSTANCE),
                Modifier("condition.mired", -mired, CIRCUMSTANCE),
            ]
        ),
        conditions=tuple(sorted(conditions.items())),
        war_actions=_war_actions(known),
        situational=tuple(situational),
    )


def _gear_modifiers(spec: ArmySpec, weapons, mods: dict[str, list[Modifier]]) -> int:
    """Gear (§5): item bonuses added to `mods`; the healing potion doses."""
    potion_doses = 0
    for choice in spec.gear:
        gear = GEAR[choice.key]
        bonus = gear.tier(choice.tier).bonus
        if choice.key == "magic_armor":
            mods["ac"].append(Modifier("gear.magic_armor", bonus, ITEM))
        elif choice.key == "magic_weapons":
            targets = [choice.weapon] if choice.weapon else list(weapons)
            if len(targets) == 1 and targets[0].value in mods:
                mods[targets[0].value].append(Modifier("gear.magic_weapons", bonus, ITEM))
        elif choice.key == "healing_potions":
            potion_doses += choice.doses
    return potion_doses


def _hp_and_rout_threshold(
    spec: ArmySpec, printed, printed_label: str, known: Counter[str]
) -> tuple[Stat, Stat | None]:
    """Hit points and Rout Threshold (§1.3, §6.1)."""
    toughened = known["toughened_soldiers"]
    hp_base = printed.hp if printed else TYPE_RULES[spec.type].hp
    max_hp = combine(
        [Modifier(printed_label, hp_base), Modifier("tactic.toughened_soldiers", toughened)]
    )
    rout_threshold: Stat | None
    if known["brave"] or (printed is not None and printed.rt is None):
        rout_threshold = None
    elif known["hold_the_line"]:
        rt = ceil(max_hp.value / 4)
        rout_threshold = Stat(rt, (("tactic.hold_the_line", rt),))
    elif printed is not None and printed.rt is not None:
        rout_threshold = Stat(printed.rt, ((printed_label, printed.rt),))
    else:
        rt = max_hp.value // house_value("basic.rout_threshold_divisor")
        rout_threshold = Stat(rt, (("max_hp_share", rt),))
    return max_hp, rout_threshold


def _fixed_tactics(
    spec: ArmySpec,
    known: Counter[str],
    rout_threshold: Stat | None,
    mods: dict[str, list[Modifier]],
    situation,
) -> None:
    """Tactics with a fixed effect on the stat block (Sharpshooter, Bloodied but Unbroken)."""
    if known["sharpshooter"]:
        if "ranged" in mods:
            mods["ranged"].append(Modifier("tactic.sharpshooter", 1, STATUS))
        if "melee" in mods:
            mods["melee"].append(
                Modifier("tactic.sharpshooter", _sharpshooter_melee(spec.level), STATUS)
            )
    if known["bloodied_but_unbroken"]:
        bonus = 2 if spec.level >= 10 else 1
        stats = ("ac", "maneuver", "morale", "melee", "ranged")
        bloodied = (
            spec.current_hp is not None
            and rout_threshold is not None
            and spec.current_hp <= rout_threshold.value
        )
        for stat in stats:
            if stat not in mods:
                continue
            if bloodied:
                mods[stat].append(Modifier("tactic.bloodied_but_unbroken", bonus, STATUS))
            else:
                situation(stat, bonus, STATUS, "hp_at_or_below_rt", "tactic.bloodied_but_unbroken")


def _condition_modifiers(
    conditions: dict[str, int], mods: dict[str, list[Modifier]], situation
) -> None:
    """Conditions (§9): circumstance penalties equal to the value; fortified +4 item AC."""
    weary, mired = conditions.get("weary", 0), conditions.get("mired", 0)
    shaken = conditions.get("shaken", 0)
    if weary:
        mods["ac"].append(Modifier("condition.weary", -weary, CIRCUMSTANCE))
        mods["maneuver"].append(Modifier("condition.weary", -weary, CIRCUMSTANCE))
    if mired:
        mods["maneuver"].append(Modifier("condition.mired", -mired, CIRCUMSTANCE))
    if "concealed" in conditions:
        mods["maneuver"].append(Modifier("condition.concealed", 2, CIRCUMSTANCE))
        situation("attacks_against", -2, CIRCUMSTANCE, "always", "condition.concealed")
    if "outflanked" in conditions:
        mods["ac"].append(Modifier("condition.outflanked", -2, CIRCUMSTANCE))
    if shaken:
        mods["morale"].append(Modifier("condition.shaken", -shaken, CIRCUMSTANCE))
    if "routed" in conditions:
        mods["morale"].append(Modifier("condition.routed", -2, CIRCUMSTANCE))
    if "fortified" in conditions:
        mods["ac"].append(Modifier("condition.fortified", 4, ITEM))
        situation("morale", 4, ITEM, "rally", "condition.fortified")


def _shots(printed, known: Counter[str], mods: dict[str, list[Modifier]]) -> Stat:
    """Shots (§1.1, §6.1): none without a ranged Strike."""
    if "ranged" not in mods:
        return Stat(0)
    return combine(
        [
            Modifier("base", printed.shots if printed else BASE_SHOTS),
            Modifier(
                "tactic.increased_ammunition",
                SHOTS_PER_INCREASED_AMMUNITION * known["increased_ammunition"],
            ),
        ]
    )


def _consumption(spec: ArmySpec, printed, printed_label: str, known: Counter[str]) -> Stat | None:
    """Consumption (§1.3, §10.2)."""
    if known["self_sufficient"]:
        return Stat(-1, (("tactic.self_sufficient", -1),))
    if printed is not None:
        if printed.consumption is None:
            return None
        return Stat(printed.consumption, ((printed_label, printed.consumption),))
    value = TYPE_RULES[spec.type].consumption
    return Stat(value, (("type", value),))


def _war_actions(known: Counter[str]) -> tuple[str, ...]:
    """The basic war actions, then those the known tactics grant (in the tactics' order)."""
    war_actions = list(BASIC_WAR_ACTIONS)
    for key in known:
        for action in TACTICS[key].grants:
            if action not in war_actions:
                war_actions.append(action)
    return tuple(war_actions)


def _situational_tactics(spec: ArmySpec, known: Counter[str], situation) -> None:
    """Tactic modifiers that only apply in some situations (§6.1, §6.2)."""
    level = spec.level
    if known["overrun"]:
        experts = bool(known["cavalry_experts"])
        bonus = 2 if experts else 1
        situation("attack", bonus, STATUS, "vs_infantry_or_skirmisher", "tactic.overrun")
        if not (experts and level >= 12):
            situation("maneuver", -1, STATUS, "vs_area_or_mental", "tactic.overrun")
            situation("morale", -1, STATUS, "vs_area_or_mental", "tactic.overrun")
    table = (
        ("ambush", "attack", 2, STATUS, "first_attack_after_ambush"),
        ("defensive_tactics", "maneuver", _step_bonus(level), STATUS, "guard"),
        ("focused_devotion", "morale", _step_bonus(level), STATUS, "rally"),
        ("hold_the_line", "morale", 1, STATUS, "resist_rout"),
        ("keen_eyed", "scouting", 2, STATUS, "initiative"),
        ("merciless", "maneuver_dc", 2, STATUS, "enemy_disengages"),
        ("reckless_flankers", "attack", 1, CIRCUMSTANCE, "reckless_flanking"),
        ("reckless_flankers", "ac", -2, CIRCUMSTANCE, "reckless_flanking"),
        ("brave", "morale", 2, CIRCUMSTANCE, "resist_rout_other_sources"),
        ("swamp_dwellers", "scouting", 2, CIRCUMSTANCE, "swamp_or_water"),
        ("amphibious", "maneuver", 2, CIRCUMSTANCE, "swamp_or_water"),
        ("swamp_charge", "melee", 1, CIRCUMSTANCE, "first_turn_after_swamp_charge"),
        ("water_retreat", "maneuver", 4, CIRCUMSTANCE, "disengage_with_water"),
        ("water_stride", "scouting", 4, CIRCUMSTANCE, "initiative_swamp_or_water"),
        ("unpredictable_movement", "ranged_attacks_against", -2, CIRCUMSTANCE, "always"),
    )
    for tactic, stat, value, kind, when in table:
        if known[tactic]:
            situation(stat, value, kind, when, f"tactic.{tactic}")


def spec_to_dict(spec: ArmySpec) -> dict[str, Any]:
    """`spec` as plain JSON-ready data (battle setups, stored snapshots)."""
    return {
        "type": spec.type.value,
        "level": spec.level,
        "specialized": spec.specialized,
        "gear": [
            {
                "key": choice.key,
                "tier": choice.tier,
                "weapon": choice.weapon.value if choice.weapon else None,
                "doses": choice.doses,
                "source": choice.source.value,
            }
            for choice in spec.gear
        ],
        "tactics": list(spec.tactics),
        "conditions": dict(spec.conditions),
        "custom": (
            {name: getattr(spec.custom, name) for name in PrintedStats.__slots__}
            if spec.custom is not None
            else None
        ),
        "current_hp": spec.current_hp,
    }


def spec_from_dict(data: Mapping[str, Any]) -> ArmySpec:
    """The inverse of `spec_to_dict`."""
    data = {**_SPEC_DEFAULTS, **data}  # (a key older data lacks: its default)
    custom = data["custom"]
    if custom is not None:
        custom = PrintedStats(**{**custom, "free_tactics": tuple(custom.get("free_tactics", ()))})
    return ArmySpec(
        type=ArmyType(data["type"]),
        level=data["level"],
        specialized=data["specialized"],
        gear=tuple(
            GearChoice(
                key=item["key"],
                tier=item.get("tier", 1),
                weapon=Weapon(item["weapon"]) if item.get("weapon") else None,
                doses=item.get("doses", 0),
                source=GearSource(item.get("source", GearSource.PURCHASED)),
            )
            for item in data["gear"]
        ),
        tactics=tuple(data["tactics"]),
        conditions=data["conditions"],
        custom=custom,
        current_hp=data["current_hp"],
    )


_SPEC_DEFAULTS: dict[str, Any] = {"custom": None, "specialized": None, "gear": (),
                                  "tactics": (), "conditions": {}, "current_hp": None}  # fmt: skip
"""`spec_from_dict`'s values for the keys older data lacks (one merge, not a look-up per
key: a board reads every army's spec of its snapshot on every request)."""
