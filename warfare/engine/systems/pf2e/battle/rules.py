"""Shared battle rules: effective stat blocks, situational modifiers, recorded checks, damage
and conditions (§0, §7, §9).

Every derived number comes from `stat_block` (via `effective_block`, which merges the army's
temporary effects and the terrain's concealment into its conditions); the battle only adds
situational modifiers (MAP, distance, wind, Guard, PCs alongside…) with PF2e stacking
(`extend`).
"""

from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

from warfare.engine.checks import Degree, flat_check, improve, roll_d20
from warfare.engine.dice import Dice
from warfare.engine.frozen import replace
from warfare.engine.systems.pf2e.activities.events import Event
from warfare.engine.systems.pf2e.activities.state import (
    DESTROYED,
    add_condition,
    heal,
    reduce_condition,
    remove_condition,
)
from warfare.engine.systems.pf2e.armies import ArmySpec, StatBlock, stat_block
from warfare.engine.systems.pf2e.battle.state import (
    DISTANT,
    ENCOUNTER,
    NEXT_STRIKE,
    BattleState,
    Effect,
)
from warfare.engine.systems.pf2e.conditions import CONDITIONS, SHAKEN_ROUTS_AT
from warfare.engine.systems.pf2e.house_rules import house_value
from warfare.engine.systems.pf2e.modifiers import BonusType, Modifier, Stat, combine

ITEM, STATUS, CIRCUMSTANCE = BonusType.ITEM, BonusType.STATUS, BonusType.CIRCUMSTANCE
UNTYPED = BonusType.UNTYPED
CS, S, F, CF = Degree.CRIT_SUCCESS, Degree.SUCCESS, Degree.FAILURE, Degree.CRIT_FAILURE

ACTIONS_PER_TURN = 3  # §0.5
MAX_ENGAGEMENTS = 4  # §7.2
MAP_PENALTIES = (0, -5, -10)  # §0.4
PRESSURE_PENALTIES = (0, -4, -8)  # §0.4 Keep up the Pressure, same target
DISTANT_RANGED_PENALTY = -5  # §7.2
DISTANT_RANGED_PENALTY_WIND = -10  # §7.4: doubled in wind
HIT_DAMAGE, CRIT_DAMAGE = 1, 2  # §0.3
SHAKEN_FLAT_DC = 11  # §9 Shaken
DEFEATED_FLAT_DC = 16  # §9 Defeated
PCS_MORALE_BONUS = 1  # §7.7 (status)
GUARD_AC_BONUS = 2  # §8.1 Guard (item)
BATTLEFIELD_MEDICINE_DC = 25  # §8.2
DC_BASE = 10  # §0.2: DC = modifier + 10

# §7.5: kind -> (AC, HP, max armies inside).
FORTIFICATIONS: dict[str, tuple[int, int, int]] = {
    "castle": (30, 8, 6),
    "keep": (25, 5, 4),
    "tower": (20, 2, 1),
    "trench": (15, 1, 1),
    "wall_stone": (20, 3, 2),
    "wall_wooden": (15, 2, 2),
}

# §7.4 battlefield features (plus "swamp" and "water", which some tactics read).
WIND = {"strong_wind": -1, "windstorm": -2}
CONCEALING_ALL = ("darkness", "heavy_fog")
CONCEALING_DISTANT = ("dim_light", "light_fog_or_rain")
TERRAIN = (
    "strong_wind", "windstorm", "difficult_terrain", "darkness", "heavy_fog", "dim_light",
    "light_fog_or_rain", "swamp", "water",
)  # fmt: skip
SCOUTING_PENALTY = {"darkness": -4, "heavy_fog": -4, "dim_light": -2, "light_fog_or_rain": -2}
MANEUVER_TERRAIN = {"difficult_terrain": -2, "dim_light": 1, "light_fog_or_rain": 1}
# Which vision tactic lets an army ignore a feature (§7.4; KMT: none for fog and rain).
IGNORED_BY = {
    "darkness": ("darkvision",),
    "dim_light": ("darkvision", "low_light_vision"),
    "difficult_terrain": ("flight",),
}
# §6.2 Swamp Dwellers, Amphibious, Water Stride: swamp / water is not difficult terrain for them.
SWAMP_TACTICS = ("swamp_dwellers", "amphibious", "water_stride")
# §6.2 Primal Magic, Primal Storm: the target is treated as in strong wind and rain.
PRIMAL_STORM_FEATURES = ("strong_wind", "light_fog_or_rain")
SENSORY_ASSAULT_PENALTY = -2  # §6.2 Primal Magic, Sensory Assault (circumstance)
ADAPTABILITY_BONUS = 2  # §6.2 Battlefield Adaptability: Advance and Disengage (circumstance)
CHORUS_MORALE_PENALTY = -2  # §6.2 Chorus of Croaks: enemies engaged with it (status)
WYVERN_VENOM_MAX_WEARY = 4  # §6.2 Wyvern Venom: past weary 4 it deals 1 damage instead

# --- effective statistics ----------------------------------------------------------------------


def knows(state: BattleState, key: str, tactic: str) -> bool:
    return tactic in state.army(key).army.spec.tactics


def has_effect(state: BattleState, key: str, condition: str) -> bool:
    """Army `key` has a temporary effect of this kind now (e.g. "primal_storm")."""
    effects = state.effects
    if not effects:
        return False
    global _EFFECT_PAIRS
    last = _EFFECT_PAIRS
    if last[0] is not effects:
        last = _EFFECT_PAIRS = (effects, frozenset((e.army, e.condition) for e in effects))
    return (key, condition) in last[1]


def own_effects(state: BattleState, key: str) -> tuple[Effect, ...]:
    """The temporary effects on army `key` (`Effect.army`), in their order: all that its
    stat block and its Strikes read of the effects (`conditions_of`, `has_effect` ask only
    an army's own)."""
    effects = state.effects
    if not effects:
        return ()
    global _OWN_EFFECTS
    last = _OWN_EFFECTS
    if last[0] is not effects:
        grouped: dict[str, list[Effect]] = {}
        for effect in effects:
            grouped.setdefault(effect.army, []).append(effect)
        last = _OWN_EFFECTS = (effects, {k: tuple(v) for k, v in grouped.items()})
    return last[1].get(key, ())


_OWN_EFFECTS: tuple[Any, dict[str, tuple[Effect, ...]]] = ((), {})
"""`own_effects` per army of the last effects tuple it read, with that tuple (held, as
`_EFFECT_PAIRS`)."""


_EFFECT_PAIRS: tuple[Any, frozenset[tuple[str, str]]] = ((), frozenset())
"""`has_effect`'s (army, condition) pairs of the last effects tuple it read, with that
tuple (held, so the identity check cannot match another tuple): the effects change seldom,
and every stat block, Strike and Maneuver asks several times. One assignment of a pair,
so a thread sees a pair that belongs together."""


def ignores(state: BattleState, key: str, feature: str) -> bool:
    """Army `key` ignores terrain `feature`: its vision or Flight (§7.4, §6.2), Battlefield
    Adaptability's "ignores_difficult_terrain" effect, or a swamp tactic when the difficult
    terrain is swamp or water (house default)."""
    if any(knows(state, key, tactic) for tactic in IGNORED_BY.get(feature, ())):
        return True
    if feature != "difficult_terrain":
        return False
    if has_effect(state, key, "ignores_difficult_terrain"):
        return True
    return (
        bool(house_value("battle.swamp_tactics_ignore_difficult_terrain"))
        and ("swamp" in state.terrain or "water" in state.terrain)
        and any(knows(state, key, tactic) for tactic in SWAMP_TACTICS)
    )


def features_of(state: BattleState, key: str) -> tuple[str, ...]:
    """The battlefield features army `key` is in: the terrain, plus strong wind and rain
    while Primal Storm lasts on it (§6.2 Primal Magic)."""
    if not has_effect(state, key, "primal_storm"):
        return state.terrain
    return state.terrain + tuple(f for f in PRIMAL_STORM_FEATURES if f not in state.terrain)


def concealing_features(state: BattleState, key: str) -> tuple[str, ...]:
    """The terrain features that conceal army `key` (§7.4)."""
    entry = state.army(key)
    features = features_of(state, key)
    found = [f for f in features if f in CONCEALING_ALL]
    if entry.position == DISTANT:
        found += [f for f in features if f in CONCEALING_DISTANT]
    return tuple(found)


def undetected_by(state: BattleState, key: str, viewer: str) -> bool:
    """§7.4 darkness / heavy fog: distant armies are undetected (untargetable [inferred])."""
    if not house_value("battle.undetected_untargetable"):
        return False
    if state.army(key).position != DISTANT:
        return False
    return any(f in CONCEALING_ALL and not ignores(state, viewer, f) for f in state.terrain)


def conditions_of(
    state: BattleState,
    key: str,
    *,
    attacker: str | None = None,
    viewer: str | None = None,
    weapon: str | None = None,
) -> dict[str, int]:
    """Army `key`'s lasting conditions + its temporary effects (those `against` another army
    only when that army is `attacker`; "next_strike" ones only for a melee Strike or when no
    weapon is named) + terrain concealment (only the features `viewer` does not ignore; all
    when no viewer). Battlefield Adaptability's "mired_suppressed" makes its mired count as
    0 (§6.2)."""
    entry = state.army(key)
    if not state.effects and not state.terrain:  # only the lasting ones (the common case)
        return dict(entry.army.spec.conditions)  # type: ignore[arg-type]
    conditions = dict(entry.army.spec.condition_values)
    for effect in state.effects:
        if effect.army != key or effect.condition not in CONDITIONS:
            continue
        if effect.against is not None and effect.against != attacker:
            continue
        if effect.boundary == NEXT_STRIKE and weapon not in (None, "melee"):
            continue
        if CONDITIONS[effect.condition].valued:
            conditions[effect.condition] = max(conditions.get(effect.condition, 0), effect.value)
        else:
            conditions[effect.condition] = 1
    if has_effect(state, key, "mired_suppressed"):
        conditions.pop("mired", None)
    features = concealing_features(state, key)
    if viewer is not None:
        features = tuple(f for f in features if not ignores(state, viewer, f))
    if features:
        conditions["concealed"] = 1
    return conditions


def effective_block(
    state: BattleState, key: str, *, attacker: str | None = None, viewer: str | None = None
) -> StatBlock:
    """Army `key`'s stat block now (current HP, lasting + temporary conditions, terrain).

    It reads only the army's `ArmyState` (its spec and HP) and position (and the viewer's
    `ArmyState`, whose tactics may ignore terrain), the effects (without an attacker or a
    viewer: only its own, `own_effects`) and the terrain (`conditions_of`), and is
    cached for as long as those are the very same objects (without an attacker or a viewer:
    the very same spec at the same HP): a command or a render asks it
    many times, and a command leaves the `ArmyState`s it does not hurt or condition as they
    were (a Strike counted for MAP, a reaction used, shots spent change only the entry).

    The usual question (no attacker, no viewer) is first answered from the block the army's
    entry carries (`_carried`), which costs a few identity checks instead of a key."""
    entry = state.army(key)
    army, effects, terrain = entry.army, state.effects, state.terrain
    if attacker is None and viewer is None:  # the usual question: one key shape, no viewer
        carried = entry.__dict__.get(_CARRIED)
        same = (
            carried is not None
            and carried[0] is army
            and carried[3] is terrain
            and carried[1] == entry.position
        )
        if same and carried[2] is effects:
            return carried[5]
        # Without an attacker or a viewer it reads only the army's own effects (by value:
        # they outlast many effects tuples, each new effect on another army makes one).
        own = own_effects(state, key) if effects else ()
        if same and carried[4] == own:
            block = carried[5]
            entry.__dict__[_CARRIED] = (army, entry.position, effects, terrain, own, block)
            return block
        # Of the `ArmyState` the block reads only the spec and the HP (`conditions_of`,
        # `block_with`): a Strike's new `ArmyState` at an HP seen before finds its block.
        cache_key: tuple[Any, ...] = (key, id(army.spec), army.hp, entry.position, own,
                                      id(terrain))  # fmt: skip
        seen = None
    else:
        seen = state.army(viewer).army if viewer is not None else None
        cache_key = (key, attacker, viewer, id(army), entry.position, id(seen), id(effects),
                     id(terrain))  # fmt: skip
    hit = _BLOCKS.get(cache_key)
    # The cache holds the parts it was keyed by, so no other object can have their ids
    # while the entry is there: the same ids are the very same objects.
    if hit is not None:
        block = hit[4]
    else:
        parts = (army.spec if seen is None and attacker is None else army, seen, effects, terrain)
        conditions = conditions_of(state, key, attacker=attacker, viewer=viewer)
        block = block_with(army.spec, conditions, army.hp)
        if len(_BLOCKS) >= BLOCKS_CACHED:
            _BLOCKS.clear()
        _BLOCKS[cache_key] = (*parts, block)
    if attacker is None and viewer is None:
        entry.__dict__[_CARRIED] = (army, entry.position, effects, terrain, own, block)
    return block


_CARRIED = "_effective_block"
"""The key in a `BattleArmy`'s `__dict__` (outside its fields: equality, `to_dict` and
`dataclasses` never read it) of its last usual block: (its `ArmyState`, its position, the
effects tuple, the terrain tuple, its own effects, the block). `frozen.replace` copies it to
the entries made from this one, so it is used only while the `ArmyState` and the terrain are
the very same objects (held here) and the position and own effects equal: what the block
reads (the effects tuple's identity spares working out the own effects again)."""


BLOCKS_CACHED = 16384
_BLOCKS: dict[tuple[Any, ...], tuple[Any, ...]] = {}
effective_block.cache_clear = _BLOCKS.clear  # type: ignore[attr-defined]


def block_with(spec: ArmySpec, conditions: Mapping[str, int], hp: int) -> StatBlock:
    """The stat block of `spec` with these conditions at `hp` (cached: equal inputs, one
    block)."""
    try:
        return _block_with(spec, tuple(sorted(conditions.items())), hp)
    except TypeError:  # something unhashable in the spec: no cache
        return stat_block(replace(spec, conditions=conditions, current_hp=hp))


@lru_cache(maxsize=8192)
def _block_with(spec: ArmySpec, conditions: tuple[tuple[str, int], ...], hp: int) -> StatBlock:
    return stat_block(replace(spec, conditions=conditions, current_hp=hp))


def condition_value(state: BattleState, key: str, condition: str) -> int:
    """Effective value of `condition` (lasting, implied or temporary) for army `key`."""
    return dict(effective_block(state, key).conditions).get(condition, 0)


def _term_type(code: str) -> BonusType:
    """The bonus type of a stat block breakdown term (see `armies.stat_block`)."""
    if code in ("condition.fortified",) or code.startswith("gear."):
        return ITEM
    if code.startswith("condition."):
        return CIRCUMSTANCE
    if code in ("tactic.sharpshooter", "tactic.bloodied_but_unbroken"):
        return STATUS
    return UNTYPED


def extend(stat: Stat, extra: Iterable[Modifier]) -> Stat:
    """`stat` plus situational modifiers, by PF2e stacking (a +1 status from PCs does not
    stack with Bloodied but Unbroken's +1 status, and so on).

    Cached on the values (a stat and its modifiers are immutable, and a battle sees only a
    few dozen distinct pairs: the same MAP, Guard or terrain terms on the same blocks)."""
    extra = tuple(m for m in extra if m.value)
    if not extra:
        return stat
    try:
        return _extended(stat, extra)
    except TypeError:  # pragma: no cover - something unhashable in a breakdown
        return _extend(stat, extra)


@lru_cache(maxsize=4096)
def _extended(stat: Stat, extra: tuple[Modifier, ...]) -> Stat:
    return _extend(stat, extra)


def _extend(stat: Stat, extra: tuple[Modifier, ...]) -> Stat:
    base = [Modifier(code, value, _term_type(code)) for code, value in stat.breakdown]
    result = combine([*base, *extra])
    return Stat(result.value, result.breakdown, stat.ignored + result.ignored)


def situational(block: StatBlock, stats: Iterable[str], whens: Iterable[str]) -> list[Modifier]:
    """The stat block's situational modifiers for these stats in these situations."""
    stats, whens = set(stats), set(whens)
    return [
        Modifier(s.source, s.value, s.type)
        for s in block.situational
        if s.stat in stats and s.when in whens
    ]


@lru_cache(maxsize=1024)
def as_dc(stat: Stat) -> Stat:
    """The DC matching a modifier (§0.2): +10, with the 10 in the breakdown (cached: a stat
    is immutable)."""
    return Stat(stat.value + DC_BASE, (("dc_base", DC_BASE), *stat.breakdown), stat.ignored)


def maneuver(state: BattleState, key: str, whens: Iterable[str] = ()) -> Stat:
    """Army `key`'s Maneuver modifier for a check now (terrain, situational tactics,
    Primal Magic's Sensory Assault)."""
    block = effective_block(state, key)
    if not state.terrain and not (state.effects and own_effects(state, key)):
        # No terrain, no effect on it: only the block's situational terms count.
        return _of_block(block, _MANEUVER, tuple(whens))
    return _maneuver(state, key, block, whens)


def _maneuver(state: BattleState, key: str, block: StatBlock, whens: Iterable[str]) -> Stat:
    """`maneuver` worked out in full (`block`: the army's `effective_block`)."""
    features = features_of(state, key)
    extra = [
        Modifier(f"terrain.{f}", value, CIRCUMSTANCE)
        for f, value in MANEUVER_TERRAIN.items()
        if f in features and not ignores(state, key, f)
    ]
    if has_effect(state, key, "sensory_assault"):
        extra.append(Modifier("primal_magic.sensory_assault", SENSORY_ASSAULT_PENALTY,
                              CIRCUMSTANCE))  # fmt: skip
    whens = set(whens)
    if "swamp" in state.terrain or "water" in state.terrain:
        whens.add("swamp_or_water")
    return extend(block.maneuver, extra + situational(block, ["maneuver"], whens))


def maneuver_dc(state: BattleState, key: str, whens: Iterable[str] = ()) -> Stat:
    """Army `key`'s Maneuver DC (Merciless adds +2 status when enemies Disengage)."""
    return _of_block(effective_block(state, key), _MANEUVER_DC, tuple(whens))


_MANEUVER, _MANEUVER_DC, _MORALE_DC = "maneuver", "maneuver_dc", "morale_dc"


def _of_block(block: StatBlock, stat: str, whens: tuple[str, ...]) -> Stat:
    """The Maneuver modifier (`_MANEUVER`: no terrain, no effect on the army) or DC of a
    stat block with its situational terms for `whens`, or its Morale DC: what `maneuver`,
    `maneuver_dc` and `morale_dc` then read is the block alone, so each is worked out once
    per block (kept with it)."""
    key = (id(block), stat, whens)
    hit = _OF_BLOCK.get(key)
    # The cache holds the block it was keyed by, so no other block can have its id.
    if hit is not None:
        return hit[1]
    if stat == _MANEUVER:
        value = extend(block.maneuver, situational(block, ["maneuver"], whens))
    elif stat == _MORALE_DC:
        value = as_dc(block.morale)
    else:
        value = as_dc(extend(block.maneuver, situational(block, ["maneuver_dc"], whens)))
    if len(_OF_BLOCK) >= BLOCKS_CACHED:
        _OF_BLOCK.clear()
    _OF_BLOCK[key] = (block, value)
    return value


_OF_BLOCK: dict[tuple[Any, ...], tuple[StatBlock, Stat]] = {}


def morale(state: BattleState, key: str, whens: Iterable[str] = ()) -> Stat:
    """Army `key`'s Morale modifier for a check (PCs alongside +1 status, §7.7; -2 status
    while engaged with an army that has Chorus of Croaks, §6.2)."""
    block = effective_block(state, key)
    extra = situational(block, ["morale"], whens)
    if state.army(key).pcs:
        extra.append(Modifier("pcs_alongside", PCS_MORALE_BONUS, STATUS))
    if any(knows(state, other, "chorus_of_croaks") for other in state.engaged_with(key)):
        extra.append(Modifier("tactic.chorus_of_croaks", CHORUS_MORALE_PENALTY, STATUS))
    return extend(block.morale, extra)


def morale_dc(state: BattleState, key: str) -> Stat:
    return _of_block(effective_block(state, key), _MORALE_DC, ())


# --- events nobody reads -----------------------------------------------------------------------


class QuietEvents(list):
    """The events of a simulated command, which nobody reads (a forecast's lean play-out,
    `simulation`): the sites that make most of a command's events skip making them when
    they are given `QUIET` (`events is QUIET`), and what the others append is dropped."""

    def append(self, event: Any) -> None:
        pass

    def __iadd__(self, events: Any) -> "QuietEvents":
        return self


QUIET = QuietEvents()
"""The one `QuietEvents` (the hot sites compare with it)."""


# --- checks ------------------------------------------------------------------------------------


class Rolled:
    """A check rolled: its `degree`, and the `record` a log shows (everything about the
    roll), built the first time it is read (a simulated command, whose events are never
    made, never reads it)."""

    __slots__ = ("_parts", "_record", "degree")

    def __init__(self, degree: Degree, parts: tuple[Any, ...]) -> None:
        self.degree = degree
        self._parts = parts
        self._record: dict[str, Any] | None = None

    @property
    def record(self) -> dict[str, Any]:
        if self._record is None:
            self._record = _record(*self._parts)
        return self._record


def _record(
    stat: str, purpose: str, against: str | None, die: int, source: str, modifier: int,
    modifier_breakdown: tuple, dc: int, dc_breakdown: tuple, total: int, rolled: Degree,
    adjustments: list, degree: Degree,
) -> dict[str, Any]:  # fmt: skip
    return {
        "stat": stat,
        "purpose": purpose,
        "against": against,
        "die": die,
        "source": source,
        "modifier": modifier,
        "modifier_breakdown": [list(t) for t in modifier_breakdown],
        "dc": dc,
        "dc_breakdown": [list(t) for t in dc_breakdown],
        "total": total,
        "rolled": rolled.code,
        "adjustments": [list(t) for t in adjustments],
        "degree": degree.code,
    }


def roll_check(
    dice: Dice,
    stat: str,
    modifier: Stat,
    dc: Stat,
    *,
    purpose: str,
    against: str | None = None,
    improvements: Iterable[tuple[str, int]] = (),
) -> Rolled:
    """Roll d20 + `modifier` vs `dc` (§0.1) and record everything a log shows.

    `improvements`: (code, steps) applied after the natural 20/1 (e.g. Flight, §0.1).
    """
    die, total, rolled = roll_d20(dice, modifier.value, dc.value, purpose=purpose)
    degree = rolled
    adjustments = [(code, steps) for code, steps in improvements if steps] if improvements else []
    for _, steps in adjustments:
        degree = improve(degree, steps)
    source = dice.log[-1].source if dice.log else "seeded"
    return Rolled(
        degree,
        (stat, purpose, against, die, source, modifier.value, modifier.breakdown, dc.value,
         dc.breakdown, total, rolled, adjustments, degree),
    )  # fmt: skip


def roll_flat(dice: Dice, dc: int, *, purpose: str) -> Rolled:
    """A flat check (§0.1): bare d20 vs `dc`, success or failure."""
    result = flat_check(dice, dc, purpose=purpose)
    source = dice.log[-1].source if dice.log else "seeded"
    return Rolled(
        result.degree,
        ("flat", purpose, None, result.die, source, 0, (), dc, (("flat", dc),), result.total,
         result.degree, [], result.degree),
    )  # fmt: skip


# --- conditions and damage ---------------------------------------------------------------------


REACTIONS: ContextVar[Any] = ContextVar("pf2e_battle_reactions", default=None)
"""The `reactions.Decider` of the command being applied (set by `engine.apply`; None outside
it, where no reaction triggers). Read where a reaction triggers deep inside a rule: Accustomed
to Panic when shaken would increase (here), Revel in Battle on a melee critical hit
(`actions.roll_strike`)."""


def _shaken_reaction(
    state: BattleState, key: str, by: int, events: list[Event], reason: str
) -> BattleState | None:
    """The state after Accustomed to Panic replaced a shaken increase (None: not used)."""
    decider = REACTIONS.get()
    if decider is None or by <= 0:
        return None
    return decider.shaken_would_increase(state, key, by, events, reason)


def add_army_condition(
    state: BattleState, key: str, condition: str, by: int, events: list[Event], reason: str
) -> BattleState:
    """A lasting condition +`by` (§9); shaken reaching 4 makes the army routed."""
    if condition == "shaken":
        replaced = _shaken_reaction(state, key, by, events, reason)
        if replaced is not None:
            return replaced
    entry = state.army(key)
    if condition == "routed":
        return route(state, key, events, reason)
    army = add_condition(entry.army, condition, by, events, reason)
    state = state.with_army(entry.with_army(army))
    if condition == "shaken" and army.spec.condition_values.get("shaken", 0) >= SHAKEN_ROUTS_AT:
        state = route(state, key, events, "shaken_4")
    if condition == "mired" and "pinned" in army.conditions:
        events.append(Event("battle.pinned", {"army": key, "reason": "mired_4"}))
    return state


def reduce_army_condition(
    state: BattleState, key: str, condition: str, by: int, events: list[Event], reason: str
) -> BattleState:
    entry = state.army(key)
    army = reduce_condition(entry.army, condition, by, events, reason)
    return state.with_army(entry.with_army(army))


def remove_army_condition(
    state: BattleState, key: str, condition: str, events: list[Event], reason: str
) -> BattleState:
    entry = state.army(key)
    army = remove_condition(entry.army, condition, events, reason)
    return state.with_army(entry.with_army(army))


def route(state: BattleState, key: str, events: list[Event], reason: str) -> BattleState:
    """The army becomes routed (§9): it must Retreat; remembered for the encounter's end."""
    entry = state.army(key)
    if "routed" not in entry.army.spec.condition_values:
        army = add_condition(entry.army, "routed", 1, events, reason)
        entry = entry.with_army(army)
    return state.with_army(replace(entry, was_routed=True))


def add_effect(state: BattleState, effect: Effect, events: list[Event]) -> BattleState:
    if effect.condition == "shaken":
        replaced = _shaken_reaction(state, effect.army, effect.value, events, effect.code)
        if replaced is not None:
            return replaced
    if events is not QUIET:
        events.append(Event("battle.effect_started", effect.to_dict()))
    return replace(state, effects=(*state.effects, effect))


def end_effects(
    state: BattleState, keep: "Iterable[Effect]", ended: "Iterable[Effect]", events: list[Event]
) -> BattleState:
    if events is QUIET:
        return replace(state, effects=tuple(keep))
    logged: list[dict] = []
    for effect in ended:
        if effect.to_dict() not in logged:  # two Guards vs the same army end as one line
            logged.append(effect.to_dict())
            events.append(Event("battle.effect_ended", effect.to_dict()))
    return replace(state, effects=tuple(keep))


def heal_army(
    state: BattleState, key: str, by: int, events: list[Event], reason: str
) -> BattleState:
    entry = state.army(key)
    army = heal(entry.army, by, events, reason)
    return state.with_army(entry.with_army(army))


def destroy(state: BattleState, key: str, events: list[Event], reason: str) -> BattleState:
    """The army is destroyed (§9), unless it has Regeneration (§6.2: it cannot be destroyed
    normally; it stays defeated)."""
    entry = state.army(key)
    if entry.destroyed:
        return state
    if knows(state, key, "regeneration"):
        params = {"army": key, "cause": reason, "reason": "regeneration"}
        events.append(Event("battle.destruction_prevented", params))
        return state
    events.append(Event("battle.destroyed", {"army": key, "reason": reason}))
    state = state.with_army(entry.with_army(replace(entry.army, status=DESTROYED)))
    state = state.disengage_all(key)
    return replace(state, effects=tuple(e for e in state.effects if e.army != key))


def damage(
    state: BattleState,
    key: str,
    amount: int,
    dice: Dice,
    events: list[Event],
    reason: str,
) -> BattleState:
    """`amount` damage to army `key` (§0.3, §9).

    Already defeated: DC 16 flat check or destroyed. Otherwise HP drops (never below 0); at 0
    it is defeated; if it is still standing and shaken, a DC 11 flat check or shaken +1 (a
    just-defeated army makes no shaken check: the defeated check replaces it).
    """
    entry = state.army(key)
    if amount <= 0 or not entry.present:
        return state
    if entry.defeated:
        flat = roll_flat(dice, DEFEATED_FLAT_DC, purpose="defeated_damaged")
        if events is not QUIET:
            events.append(
                Event("battle.defeated_flat_check", {"army": key, "reason": reason,
                                                     "check": flat.record})
            )  # fmt: skip
        if not flat.degree.succeeded:
            state = destroy(state, key, events, "defeated_flat_check")
        return state
    now = max(0, entry.hp - amount)
    if events is not QUIET:
        events.append(
            Event("battle.damaged", {"army": key, "by": entry.hp - now, "now": now,
                                     "reason": reason})
        )  # fmt: skip
    state = state.with_army(replace(entry, army=replace(entry.army, hp=now), took_damage=True))
    if now == 0:
        if events is not QUIET:
            events.append(Event("battle.defeated", {"army": key, "reason": reason}))
        return explosive_defeat(state, key, dice, events)
    shaken = dict(effective_block(state, key).conditions).get("shaken", 0)
    if shaken:
        flat = roll_flat(dice, SHAKEN_FLAT_DC, purpose="shaken_damaged")
        if events is not QUIET:
            events.append(
                Event("battle.shaken_flat_check", {"army": key, "reason": reason,
                                                   "check": flat.record})
            )  # fmt: skip
        if not flat.degree.succeeded:
            state = add_army_condition(state, key, "shaken", 1, events, "shaken_flat_check")
    return state


def explosive_defeat(state: BattleState, key: str, dice: Dice, events: list[Event]):
    """§6.2 Explosive Defeat (Greengripe Bombardiers): when army `key` is defeated, each army
    engaged with it makes a Maneuver check vs its Maneuver DC: failure 1 damage, critical
    failure 2."""
    if not knows(state, key, "explosive_defeat"):
        return state
    for other in state.engaged_with(key):
        if not state.army(other).present:
            continue
        rolled = roll_check(dice, "maneuver", maneuver(state, other), maneuver_dc(state, key),
                            purpose="explosive_defeat", against=key)  # fmt: skip
        events.append(Event("battle.explosive_defeat", {"army": other, "by": key,
                                                        "degree": rolled.degree.code,
                                                        "check": rolled.record}))  # fmt: skip
        amount = {F: 1, CF: 2}.get(rolled.degree, 0)
        state = damage(state, other, amount, dice, events, "explosive_defeat")
    return state


def strike_riders(
    state: BattleState,
    actor: str,
    target: str,
    *,
    weapon: str,
    critical: bool,
    damaged: bool,
    dice: Dice,
    events: list[Event],
) -> BattleState:
    """What `actor`'s Strike on army `target` adds after its damage (§6.2): Supernatural
    Attacks (a critical hit: weary +1); Wyvern Venom (a melee Strike that damaged it: weary
    +1, or 1 damage if that would take weary past 4)."""
    entry = state.army(target)
    if not entry.present:
        return state
    if critical and knows(state, actor, "supernatural_attacks"):
        state = add_army_condition(state, target, "weary", 1, events, "supernatural_attacks")
    if damaged and weapon == "melee" and knows(state, actor, "wyvern_venom"):
        weary = state.army(target).army.spec.condition_values.get("weary", 0)
        if weary >= WYVERN_VENOM_MAX_WEARY:
            state = damage(state, target, 1, dice, events, "wyvern_venom")
        else:
            state = add_army_condition(state, target, "weary", 1, events, "wyvern_venom")
    return state


def encounter_effect(code: str, army: str, condition: str, value: int = 1, **kw: Any) -> Effect:
    return Effect(code, army, condition, value, boundary=ENCOUNTER, **kw)
