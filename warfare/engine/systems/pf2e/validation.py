"""Is this army legal? Problems as codes with params (`warfare.engine.problems.Problem`).

Covers recruiting limits (§3.1, §3.3), tactics (§2, §4.8, §6), gear (§4.6, §5) and condition
values (§9). `kingdom_level` / `magic_rank` None skip the kingdom-side checks (e.g. a GM's
enemy army).
"""

from collections import Counter
from collections.abc import Collection, Iterable

from warfare.engine.problems import Problem
from warfare.engine.systems.pf2e.armies import (
    ArmySpec,
    army_weapons,
    native_weapons,
    stat_block,
)
from warfare.engine.systems.pf2e.conditions import CONDITIONS
from warfare.engine.systems.pf2e.gear import GEAR, MAX_POTION_DOSES, GearSource, Weapon
from warfare.engine.systems.pf2e.kingdom import Proficiency, at_least
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES
from warfare.engine.systems.pf2e.tables import (
    MAX_LEVEL,
    MIN_LEVEL,
    TYPE_RULES,
    ArmyType,
    level_row,
)
from warfare.engine.systems.pf2e.tactics import MANDATORY_TACTIC, TACTICS, Tactic


def validate_army(
    spec: ArmySpec,
    *,
    kingdom_level: int | None,
    magic_rank: str | None,
    faction_specialized_keys: Collection[str] = (),
) -> list[Problem]:
    """Every problem with `spec` for a kingdom of `kingdom_level` whose Magic rank is
    `magic_rank`. `faction_specialized_keys`: specialized armies the faction already has
    (other than this one)."""
    if not MIN_LEVEL <= spec.level <= MAX_LEVEL:
        return [Problem("army.level_out_of_range", {"level": spec.level})]
    if spec.specialized is not None and spec.specialized not in SPECIALIZED_ARMIES:
        return [Problem("army.unknown_specialized", {"army": spec.specialized})]
    if spec.custom is not None and not MIN_LEVEL <= spec.custom.level <= MAX_LEVEL:
        return [Problem("army.custom_level_out_of_range", {"level": spec.custom.level})]
    problems = _army_problems(spec, kingdom_level, faction_specialized_keys)
    problems += validate_tactics(spec)
    problems += validate_gear(spec, kingdom_level=kingdom_level, magic_rank=magic_rank)
    problems += _condition_problems(spec)
    if not problems and spec.current_hp is not None:
        max_hp = stat_block(spec).max_hp.value
        if not 0 <= spec.current_hp <= max_hp:
            problems.append(
                Problem("army.hp_out_of_range", {"hp": spec.current_hp, "max_hp": max_hp})
            )
    return problems


def _army_problems(
    spec: ArmySpec, kingdom_level: int | None, faction_keys: Collection[str]
) -> list[Problem]:
    problems = []
    if spec.specialized is not None:
        army = SPECIALIZED_ARMIES[spec.specialized]
        name, minimum = army.key, army.level
        if spec.type != army.type:
            problems.append(
                Problem(
                    "army.type_mismatch",
                    {"army": name, "expected": army.type.value, "type": spec.type.value},
                )
            )
        if spec.specialized in faction_keys:
            problems.append(Problem("army.specialized_already_in_faction", {"army": name}))
    else:
        name, minimum = spec.type.value, TYPE_RULES[spec.type].min_level
    if spec.custom is None and spec.level < minimum:
        problems.append(
            Problem(
                "army.level_below_minimum", {"army": name, "minimum": minimum, "level": spec.level}
            )
        )
    if spec.custom is None and kingdom_level is not None and kingdom_level < minimum:
        problems.append(
            Problem(
                "army.kingdom_level_too_low",
                {"army": name, "minimum": minimum, "kingdom_level": kingdom_level},
            )
        )
    return problems


def _free_tactics(spec: ArmySpec) -> tuple[str, ...]:
    printed = spec.printed
    return printed.free_tactics if printed is not None else ()


def counted_tactics(spec: ArmySpec) -> int:
    """How many known tactics count toward max tactics (§3.3: free Darkvision does not)."""
    known = Counter(spec.tactics)
    for key in _free_tactics(spec):
        if known[key]:
            known[key] -= 1
    return sum(known.values())


def _tactic_problem(spec: ArmySpec, tactic: Tactic) -> Problem | None:
    """Why `spec` cannot know `tactic` (level, type, someone else's unique tactic), or None."""
    if tactic.unique:
        if tactic.unique_to != spec.specialized:
            return Problem(
                "tactic.unique_to_other_army", {"tactic": tactic.key, "army": tactic.unique_to}
            )
        return None
    if tactic.level > spec.level:
        return Problem(
            "tactic.level_too_high",
            {"tactic": tactic.key, "level": tactic.level, "army_level": spec.level},
        )
    if spec.type not in tactic.types:
        return Problem("tactic.wrong_type", {"tactic": tactic.key, "type": spec.type.value})
    return None


def validate_tactics(spec: ArmySpec) -> list[Problem]:
    """Tactic eligibility, duplicates, max tactics, mandatory and unique tactics present."""
    problems: list[Problem] = []
    known = Counter(spec.tactics)
    if not known:
        problems.append(Problem("tactic.none_known", {}))
    for key, count in known.items():
        tactic = TACTICS.get(key)
        if tactic is None:
            problems.append(Problem("tactic.unknown", {"tactic": key}))
            continue
        problem = _tactic_problem(spec, tactic)
        if problem is not None:
            problems.append(problem)
        if count > 1 and not tactic.repeatable:
            problems.append(Problem("tactic.duplicate", {"tactic": key, "count": count}))
    if MIN_LEVEL <= spec.level <= MAX_LEVEL:
        maximum = level_row(spec.level).max_tactics
        count = counted_tactics(spec)
        if count > maximum:
            problems.append(Problem("tactic.too_many", {"count": count, "max": maximum}))
    mandatory = MANDATORY_TACTIC.get(spec.type)
    if spec.is_basic and mandatory and mandatory not in known:
        problems.append(Problem("tactic.mandatory_missing", {"tactic": mandatory}))
    if spec.specialized is not None:
        for key in SPECIALIZED_ARMIES[spec.specialized].tactics:
            if TACTICS[key].unique and key not in known:
                problems.append(Problem("tactic.unique_missing", {"tactic": key}))
    return problems


def validate_tactic_change(
    old_tactics: Iterable[str],
    new_tactics: Iterable[str],
    *,
    army_type: ArmyType,
    level: int,
    specialized: str | None = None,
) -> list[Problem]:
    """Train Army (§4.8): unique and mandatory tactics cannot be replaced; the new list must
    itself be valid."""
    old, new = Counter(old_tactics), Counter(new_tactics)
    spec = ArmySpec(army_type, level, specialized=specialized, tactics=tuple(new.elements()))
    problems = []
    for key in (old - new).elements():
        tactic = TACTICS.get(key)
        if tactic is None:
            continue
        if tactic.unique:
            problems.append(Problem("tactic.cannot_replace_unique", {"tactic": key}))
        elif spec.is_basic and MANDATORY_TACTIC.get(spec.type) == key:
            problems.append(Problem("tactic.cannot_replace_mandatory", {"tactic": key}))
    return problems + validate_tactics(spec)


def replaceable_tactics(spec: ArmySpec) -> list[str]:
    """Known tactics Train Army may replace (§4.8): not a unique tactic, not the mandatory
    Overrun / Engines of War of a basic army [inferred], not a free tactic (§3.3: it takes no
    slot, so replacing it frees none)."""
    keep = set(_free_tactics(spec))
    if spec.is_basic and spec.type in MANDATORY_TACTIC:
        keep.add(MANDATORY_TACTIC[spec.type])
    return [
        key
        for key in dict.fromkeys(spec.tactics)
        if key not in keep and (key not in TACTICS or not TACTICS[key].unique)
    ]


def learnable_tactics(spec: ArmySpec) -> list[Tactic]:
    """Tactics Train Army can teach `spec` now (ignoring max tactics, §4.8)."""
    known = set(spec.tactics)
    return [
        tactic
        for tactic in TACTICS.values()
        if not tactic.unique
        and (tactic.repeatable or tactic.key not in known)
        and _tactic_problem(spec, tactic) is None
    ]


def validate_gear(
    spec: ArmySpec, *, kingdom_level: int | None, magic_rank: str | None
) -> list[Problem]:
    """Gear rules (§4.6, §5): levels, Magic expert, Engines of War, one per slot, weapons."""
    problems: list[Problem] = []
    if spec.gear and (
        "engines_of_war" in spec.tactics or (spec.is_basic and spec.type is ArmyType.SIEGE)
    ):
        problems.append(Problem("gear.engines_of_war", {}))
    weapons = army_weapons(spec)
    native = native_weapons(spec)
    slots: Counter[tuple[str, Weapon | None]] = Counter()
    for choice in spec.gear:
        gear = GEAR.get(choice.key)
        if gear is None:
            problems.append(Problem("gear.unknown", {"gear": choice.key}))
            continue
        try:
            tier = gear.tier(choice.tier)
        except ValueError:
            problems.append(Problem("gear.bad_tier", {"gear": choice.key, "tier": choice.tier}))
            continue
        params = {"gear": choice.key, "tier": choice.tier}
        if tier.level > spec.level:
            problems.append(
                Problem(
                    "gear.level_too_high", {**params, "level": tier.level, "army_level": spec.level}
                )
            )
        if choice.source is GearSource.PURCHASED:
            if kingdom_level is not None and tier.level > kingdom_level:
                problems.append(
                    Problem(
                        "gear.above_kingdom_level",
                        {**params, "level": tier.level, "kingdom_level": kingdom_level},
                    )
                )
            if (
                gear.magical
                and magic_rank is not None
                and not at_least(magic_rank, Proficiency.EXPERT)
            ):
                problems.append(Problem("gear.needs_magic_expert", params))
        weapon = choice.weapon
        if gear.per_weapon:
            if weapon is None and len(weapons) == 1:
                weapon = next(iter(weapons))
            if weapon is None:
                problems.append(Problem("gear.weapon_required", params))
            elif weapon not in weapons:
                problems.append(Problem("gear.no_such_weapon", {**params, "weapon": weapon.value}))
        elif weapon is not None:
            problems.append(Problem("gear.weapon_not_applicable", params))
        if choice.key == "additional_weapon" and len(native) != 1:
            problems.append(Problem("gear.already_has_both_weapons", params))
        if gear.per_dose and not 1 <= choice.doses <= MAX_POTION_DOSES:
            problems.append(
                Problem(
                    "gear.bad_doses", {**params, "doses": choice.doses, "max": MAX_POTION_DOSES}
                )
            )
        slots[(choice.key, weapon)] += 1
    for (key, weapon), count in slots.items():
        if count > 1:
            problems.append(
                Problem("gear.duplicate", {"gear": key, "weapon": weapon.value if weapon else None})
            )
    return problems


def _condition_problems(spec: ArmySpec) -> list[Problem]:
    problems = []
    for key, value in spec.conditions:
        condition = CONDITIONS.get(key)
        if condition is None:
            problems.append(Problem("condition.unknown", {"condition": key}))
        elif (condition.valued and value < 1) or (not condition.valued and value != 1):
            problems.append(Problem("condition.bad_value", {"condition": key, "value": value}))
    return problems
