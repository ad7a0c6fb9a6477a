"""War actions (§8): the 6 basic actions (§8.1), the 9 tactical actions taken on an army's
own turn (§8.2; Counterattack and False Retreat are reactions, in `reactions`) and the
army-specific actions of §6.2: Reactive Rally, Trample, Trampling Charge, Furious Charge,
Swift Recovery, Battlefield Adaptability and Primal Magic.

Each `WarAction` lists its candidate params (`candidates`), checks a params dict
(`validate` -> problems), previews its checks (`preview`) and resolves it (`resolve`, with the
command's dice and an event list). `legal_actions` (in `engine`) offers exactly the candidates
that validate, so every button the board shows is accepted by `apply`.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from warfare.engine.battle.protocol import CheckPreview
from warfare.engine.checks import Degree, degree_of_success
from warfare.engine.dice import Dice
from warfare.engine.frozen import replace
from warfare.engine.problems import Problem
from warfare.engine.systems.pf2e.activities.events import Event
from warfare.engine.systems.pf2e.armies import StatBlock
from warfare.engine.systems.pf2e.battle.rules import (
    ADAPTABILITY_BONUS,
    BATTLEFIELD_MEDICINE_DC,
    CF,
    CIRCUMSTANCE,
    CRIT_DAMAGE,
    CS,
    DISTANT_RANGED_PENALTY,
    DISTANT_RANGED_PENALTY_WIND,
    HIT_DAMAGE,
    ITEM,
    MAP_PENALTIES,
    MAX_ENGAGEMENTS,
    PRESSURE_PENALTIES,
    QUIET,
    REACTIONS,
    SENSORY_ASSAULT_PENALTY,
    STATUS,
    WIND,
    Rolled,
    S,
    add_army_condition,
    add_effect,
    as_dc,
    block_with,
    condition_value,
    conditions_of,
    damage,
    effective_block,
    end_effects,
    extend,
    features_of,
    has_effect,
    heal_army,
    ignores,
    knows,
    maneuver,
    maneuver_dc,
    morale,
    morale_dc,
    own_effects,
    reduce_army_condition,
    remove_army_condition,
    roll_check,
    route,
    situational,
    strike_riders,
    undetected_by,
)
from warfare.engine.systems.pf2e.battle.state import (
    DISTANT,
    ENCOUNTER,
    FLED,
    NEAR,
    NEXT_STRIKE,
    TURN_END,
    TURN_START,
    BattleState,
    Effect,
)
from warfare.engine.systems.pf2e.house_rules import house_value
from warfare.engine.systems.pf2e.modifiers import Modifier, Stat
from warfare.engine.systems.pf2e.tables import ArmyType

Params = Mapping[str, Any]
MELEE, RANGED = "melee", "ranged"
ATTACK, MANEUVER, MORALE = "attack", "maneuver", "morale"
# Maneuver war actions that do not trigger Counterattack (§6.2 Trampling Charge).
NO_COUNTERATTACK = ("trampling_charge",)
# Effects that give the army holding them a bonus to its attacks `against` one army.
ATTACK_BONUS_TYPES = {"ambush": STATUS, "swamp_charge": CIRCUMSTANCE}


@dataclass
class Ctx:
    """Scratch data of one command (never stored): its dice, its events, and the All-Out
    Assault bonus carried from the previous action (§8.2), the Morale successes that trigger
    False Retreat (`reactions`)."""

    dice: Dice
    events: list[Event] = field(default_factory=list)
    aoa_bonus: tuple[str, int] | None = None
    morale_successes: list[tuple[str, str | None, str]] = field(default_factory=list)
    """(army, against, action) of each successful Morale check: False Retreat triggers."""


@dataclass(frozen=True)
class WarAction:
    key: str
    cost: int
    traits: tuple[str, ...]
    candidates: Callable[[BattleState, str], list[dict[str, Any]]]
    validate: Callable[[BattleState, str, Params], list[Problem]]
    preview: Callable[[BattleState, str, Params], tuple[CheckPreview, ...]]
    resolve: Callable[[BattleState, str, Params, Ctx], BattleState]
    optional_params: tuple[str, ...] = ()


def _p(code: str, **params: Any) -> Problem:
    return Problem(f"battle.{code}", params)


def _preview(stat: str, modifier: Stat, dc: Stat | None, against: str | None) -> CheckPreview:
    return CheckPreview(
        stat=stat,
        modifier=modifier.value,
        modifier_breakdown=modifier.breakdown,
        dc=dc.value if dc is not None else None,
        dc_breakdown=dc.breakdown if dc is not None else (),
        against=against,
    )


# --- targets -------------------------------------------------------------------------------------


def _enemy_problems(state: BattleState, actor: str, target: Any) -> list[Problem]:
    if not isinstance(target, str):
        return [_p("unknown_target", target=target)]
    try:
        entry = state.army(target)  # (`has_army` and `army` in one look-up)
    except KeyError:
        return [_p("unknown_target", target=target)]
    if entry.side == state.army(actor).side:
        return [_p("target_not_enemy", target=target)]
    if not entry.present:
        return [_p("target_gone", target=target)]
    if entry.position == DISTANT and undetected_by(state, target, actor):  # (only a distant one)
        return [_p("target_undetected", target=target)]
    return []


def _ally_problems(state: BattleState, actor: str, target: Any) -> list[Problem]:
    if not isinstance(target, str) or not state.has_army(target):
        return [_p("unknown_target", target=target)]
    entry = state.army(target)
    if entry.side != state.army(actor).side:
        return [_p("target_not_ally", target=target)]
    if not entry.present:
        return [_p("target_gone", target=target)]
    return []


def _enemy_keys(state: BattleState, actor: str) -> list[str]:
    return [e.key for e in state.enemies(actor) if e.present]


def _fortified(army: Any) -> bool:
    """Whether the army's lasting conditions (`condition_values`) hold fortified, read from
    the spec's pairs without making the dict (every Advance check and engagement asks)."""
    for condition, _ in army.spec.conditions:  # noqa: SIM110 - no generator per call
        if condition == "fortified":
            return True
    return False


def _can_engage(state: BattleState, a: str, b: str) -> bool:
    """Both below 4 engagements and neither fortified (§7.2, §9 Fortified)."""
    for key in (a, b):
        if _fortified(state.army(key).army):
            return False
    return (
        len(state.engaged_with(a)) < MAX_ENGAGEMENTS
        and len(state.engaged_with(b)) < MAX_ENGAGEMENTS
    )


def engage(state: BattleState, a: str, b: str, events: list[Event], reason: str) -> BattleState:
    """Engage `a` with `b` if the rules allow; both lose distant."""
    if state.is_engaged(a, b):
        return state
    if not _can_engage(state, a, b):
        events.append(Event("battle.engagement_refused", {"army": a, "target": b}))
        return state
    for key in (a, b):
        if state.army(key).position == DISTANT:
            state = state.with_army(replace(state.army(key), position=NEAR))
    if events is not QUIET:
        events.append(Event("battle.engaged", {"army": a, "target": b, "reason": reason}))
    return state.engage(a, b)


# --- Strikes (§0.3, §0.4, §8.1 Battle) ------------------------------------------------------------


def _attack_stat(state: BattleState, actor: str, weapon: str) -> Stat | None:
    return weapon_stat(effective_block(state, actor), weapon)


def weapon_stat(block: StatBlock, weapon: str) -> Stat | None:
    """The attack modifier of a block's `weapon` (None: it has no such Strike)."""
    return block.melee if weapon == MELEE else block.ranged


def _per_strike(*, attacks: bool = False, fortifications: bool = False, aoa: bool = False):
    """Decorator of `strike_modifier` and `strike_dc`: each result kept while what it reads
    of the state is the very same: of the attacker's and the target's `ArmyState` only its
    spec (the very same object: tactics, lasting conditions) and HP (all that their stat
    blocks and conditions read), their positions, their own effects (`own_effects`: by
    value; a Strike reads no other army's) and the terrain (and, with `attacks`, the
    attacker's attacks this turn; with `fortifications`, the fortifications). A command
    changes few of these (a Strike that misses none but the attacks), and a forecast's
    battles start from the same specs, so the same Strike is worked out once for many
    states, also at an HP an army passes through again in a later battle; the policy weighs
    a Strike, then the engine rolls it. The wrapper takes the keyword arguments by name
    (`aoa`: the function has `aoa_bonus`), so a call builds no dict of them."""

    def decorate(function):
        cache: dict[tuple[Any, ...], tuple[tuple[Any, ...], Stat]] = {}

        @wraps(function)
        def cached(
            state: BattleState,
            actor: str,
            weapon: str,
            *,
            target: str | None = None,
            fortification: str | None = None,
            aoa_bonus: tuple[str, int] | None = None,
        ) -> Stat:
            entry = state.army(actor)
            aimed = state.army(target) if target is not None else None
            held = (
                entry.army.spec,
                aimed.army.spec if aimed is not None else None,
                state.terrain,
                state.fortifications if fortifications else None,
            )
            effects = state.effects
            key = (
                actor, weapon, target, fortification, aoa_bonus, entry.position, entry.army.hp,
                entry.attacks if attacks else None,
                aimed.position if aimed is not None else None,
                aimed.army.hp if aimed is not None else None,
                own_effects(state, actor) if effects else (),
                own_effects(state, target) if target is not None and effects else (),
                *map(id, held),
            )  # fmt: skip
            # The cache holds the parts it was keyed by, so no other object can have their
            # ids while the entry is there: the same ids are the very same objects.
            hit = cache.get(key)
            if hit is not None:
                return hit[1]
            if aoa:
                value = function(state, actor, weapon, target=target,
                                 fortification=fortification, aoa_bonus=aoa_bonus)  # fmt: skip
            else:
                if aoa_bonus is not None:
                    raise TypeError(f"{function.__name__}() takes no aoa_bonus")
                value = function(state, actor, weapon, target=target, fortification=fortification)
            if len(cache) >= STRIKES_CACHED:
                cache.clear()
            cache[key] = (held, value)
            return value

        cached.cache_clear = cache.clear  # type: ignore[attr-defined]
        return cached

    return decorate


STRIKES_CACHED = 16384


@_per_strike(attacks=True, aoa=True)
def strike_modifier(
    state: BattleState,
    actor: str,
    weapon: str,
    *,
    target: str | None = None,
    fortification: str | None = None,
    aoa_bonus: tuple[str, int] | None = None,
) -> Stat:
    """Attack modifier of a Strike now: MAP (Keep up the Pressure), distance, wind (Primal
    Storm's too), concealment, tactics' situational bonuses, Ambush / Swamp Charge, All-Out
    Assault, Sensory Assault. Kept while what it reads is the same (`_per_strike`)."""
    entry = state.army(actor)
    block = effective_block(state, actor)
    stat = weapon_stat(block, weapon)
    assert stat is not None
    extra: list[Modifier] = []
    count = min(len(entry.attacks), 2)
    aim = target or f"fortification:{fortification}"
    if (
        count
        and knows(state, actor, "keep_up_the_pressure")
        and all(previous == aim for previous in entry.attacks)
    ):
        extra.append(Modifier("map.keep_up_the_pressure", PRESSURE_PENALTIES[count]))
    elif count:
        extra.append(Modifier("map", MAP_PENALTIES[count]))
    wind = [f for f in features_of(state, actor) if f in WIND]
    if has_effect(state, actor, "sensory_assault"):
        extra.append(Modifier("primal_magic.sensory_assault", SENSORY_ASSAULT_PENALTY,
                              CIRCUMSTANCE))  # fmt: skip
    if weapon == RANGED:
        extra += [Modifier(f"terrain.{f}", WIND[f], CIRCUMSTANCE) for f in wind]
    if target is not None:
        target_entry = state.army(target)
        target_block = effective_block(state, target)
        whens = []
        if target_block.type in (ArmyType.INFANTRY, ArmyType.SKIRMISHER):
            whens.append("vs_infantry_or_skirmisher")
        extra += situational(block, ["attack", weapon], whens)
        if weapon == RANGED:
            if target_entry.position == DISTANT:
                penalty = DISTANT_RANGED_PENALTY_WIND if wind else DISTANT_RANGED_PENALTY
                extra.append(Modifier("target_distant", penalty))
            extra += situational(target_block, ["ranged_attacks_against"], ["always"])
        if "concealed" in conditions_of(state, target, attacker=actor, viewer=actor):
            extra.append(Modifier("target_concealed", -2, CIRCUMSTANCE))
        for effect in state.effects:
            if (
                effect.army == actor
                and effect.condition == "attack_bonus"
                and effect.against == target
            ):
                kind = ATTACK_BONUS_TYPES.get(effect.code, CIRCUMSTANCE)
                extra.append(Modifier(f"tactic.{effect.code}", effect.value, kind))
        if aoa_bonus is not None and aoa_bonus[0] != target:
            extra.append(Modifier("all_out_assault", aoa_bonus[1], CIRCUMSTANCE))
    return extend(stat, extra)


@_per_strike(fortifications=True)
def strike_dc(
    state: BattleState,
    actor: str,
    weapon: str,
    *,
    target: str | None = None,
    fortification: str | None = None,
) -> Stat:
    """The AC a Strike is rolled against: the army's AC now (outflanked, weary, fortified +4
    item, Guard +2 item: item bonuses do not stack) or the fortification's AC (§7.5)."""
    if fortification is not None:
        fort = state.fortification(fortification)
        return Stat(fort.ac, ((f"fortification.{fort.kind}", fort.ac),))
    assert target is not None
    conditions = conditions_of(state, target, attacker=actor, viewer=actor, weapon=weapon)
    entry = state.army(target)
    block = block_with(entry.army.spec, conditions, entry.hp)
    guard = [
        e.value
        for e in state.effects
        if e.army == target and e.condition == "guarded" and e.against in (None, actor)
    ]
    extra = [Modifier("guard", max(guard), ITEM)] if guard else []
    return extend(block.ac, extra)


@_per_strike(attacks=True, fortifications=True, aoa=True)
def strike_check(
    state: BattleState,
    actor: str,
    weapon: str,
    *,
    target: str | None = None,
    fortification: str | None = None,
    aoa_bonus: tuple[str, int] | None = None,
) -> tuple[Stat, Stat]:
    """(`strike_modifier`, `strike_dc`) of a Strike, as `roll_strike` rolls it and the
    policy weighs it: kept as one pair while what either reads is the same (`_per_strike`
    with both's parts), so a Strike rolled costs one look-up instead of two."""
    modifier = strike_modifier(state, actor, weapon, target=target, fortification=fortification,
                               aoa_bonus=aoa_bonus)  # fmt: skip
    return modifier, strike_dc(state, actor, weapon, target=target, fortification=fortification)


def _record_attack(
    state: BattleState, actor: str, aim: str, weapon: str, shots: int
) -> BattleState:
    entry = state.army(actor)
    if weapon == RANGED:
        entry = replace(entry, attacks=(*entry.attacks, aim), shots=entry.shots - shots)
    else:
        entry = replace(entry, attacks=(*entry.attacks, aim))
    state = state.with_army(entry)
    if not state.effects:
        return state
    # One-shot effects tied to this target end with the Strike.
    used = [
        e
        for e in state.effects
        if (e.army == actor and e.condition == "attack_bonus" and e.against == aim)
        or (e.army == aim and e.boundary == NEXT_STRIKE and e.against == actor and weapon == MELEE)
    ]
    if used:
        keep = [e for e in state.effects if not any(e is u for u in used)]
        state = end_effects(state, keep, used, [])
    return state


def roll_strike(
    state: BattleState,
    actor: str,
    params: Params,
    ctx: Ctx,
    *,
    purpose: str,
    shots: int = 1,
) -> tuple[BattleState, Degree, Rolled]:
    """Roll a Strike (params: target or fortification, weapon) and count it for MAP: the
    new state, the degree, the check (its `record` for the event)."""
    weapon = params.get("weapon", MELEE)
    target, fortification = params.get("target"), params.get("fortification")
    modifier, dc = strike_check(
        state, actor, weapon, target=target, fortification=fortification, aoa_bonus=ctx.aoa_bonus
    )
    aim = target or f"fortification:{fortification}"
    rolled = roll_check(ctx.dice, weapon, modifier, dc, purpose=purpose, against=aim)
    state = _record_attack(state, actor, aim, weapon, shots)
    decider = REACTIONS.get()
    if weapon == MELEE and rolled.degree is CS and decider is not None:
        state = decider.melee_critical_hit(state, actor, purpose, ctx.events)  # §6.2 Revel
    return state, rolled.degree, rolled


def hit(
    state: BattleState,
    actor: str,
    target: str,
    weapon: str,
    amount: int,
    degree: Degree,
    ctx: Ctx,
    reason: str,
    params: Params,
) -> BattleState:
    """Deal a Strike's damage with the ranged riders of §6.1: Flaming Shot (+1 damage on a
    failed Maneuver check vs the attack DC) and Explosive Shot (a critical hit on a
    non-distant army: 1 damage to another non-distant enemy, `params["explosive_target"]`);
    then the riders of §6.2 (`rules.strike_riders`)."""
    if weapon == RANGED and amount > 0 and knows(state, actor, "flaming_shot"):
        ranged = effective_block(state, actor).ranged
        assert ranged is not None
        rolled = roll_check(
            ctx.dice,
            "maneuver",
            maneuver(state, target),
            as_dc(ranged),
            purpose="flaming_shot",
            against=actor,
        )
        ctx.events.append(
            Event("battle.flaming_shot", {"army": target, "by": actor, "check": rolled.record})
        )
        if not rolled.degree.succeeded:
            amount += 1
    aimed = state.army(target)
    target_was_distant = aimed.position == DISTANT
    hp_before = aimed.army.hp  # (`hp` inline, as below)
    state = damage(state, target, amount, ctx.dice, ctx.events, reason)
    damaged = state.army(target).army.hp < hp_before
    if weapon == RANGED and degree is CS and not target_was_distant:
        other = params.get("explosive_target")
        if (
            knows(state, actor, "explosive_shot")
            and isinstance(other, str)
            and other != target
            and not _enemy_problems(state, actor, other)
            and state.army(other).position != DISTANT
        ):
            state = damage(state, other, 1, ctx.dice, ctx.events, "explosive_shot")
    return strike_riders(state, actor, target, weapon=weapon, critical=degree is CS,
                         damaged=damaged, dice=ctx.dice, events=ctx.events)  # fmt: skip


def _strike_candidates(
    state: BattleState, actor: str, *, shots: int = 1, ranged_vs_fortification: bool = False
) -> list[dict[str, Any]]:
    block = effective_block(state, actor)
    found: list[dict[str, Any]] = []
    if block.melee is not None:
        found += [{"target": key, "weapon": MELEE} for key in state.engaged_with(actor)]
    if block.ranged is not None and state.army(actor).shots >= shots:
        found += [{"target": key, "weapon": RANGED} for key in _enemy_keys(state, actor)]
        if ranged_vs_fortification:
            found += [
                {"fortification": f.key, "weapon": RANGED}
                for f in state.fortifications
                if f.side != state.army(actor).side
            ]
    return found


def _strike_problems(
    state: BattleState, actor: str, params: Params, *, shots: int = 1, allow_fortification: bool
) -> list[Problem]:
    weapon = params.get("weapon", MELEE)
    if weapon not in (MELEE, RANGED):
        return [_p("unknown_weapon", weapon=weapon)]
    if _attack_stat(state, actor, weapon) is None:
        return [_p("no_weapon", weapon=weapon)]
    if weapon == RANGED and state.army(actor).shots < shots:
        return [_p("no_shots", shots=state.army(actor).shots, needed=shots)]
    fortification = params.get("fortification")
    if fortification is not None:
        if not allow_fortification:
            return [_p("invalid_target", target=fortification)]
        if weapon != RANGED:
            return [_p("fortification_needs_ranged")]
        if not any(f.key == fortification for f in state.fortifications):
            return [_p("unknown_target", target=fortification)]
        fort = state.fortification(fortification)
        if fort.side == state.army(actor).side:
            return [_p("target_not_enemy", target=fortification)]
        if fort.destroyed:
            return [_p("target_gone", target=fortification)]
        if state.army(actor).army.spec.type is not ArmyType.SIEGE:
            return [_p("cannot_damage_fortification")]
        return []
    target = params.get("target")
    problems = _enemy_problems(state, actor, target)
    if problems:
        return problems
    if weapon == MELEE and not state.is_engaged(actor, target):
        return [_p("not_engaged_with_target", target=target)]
    if (
        weapon == RANGED
        and knows(state, actor, "engines_of_war")
        and not knows(state, actor, "burning_weaponry")
        and state.engaged_with(target)
    ):
        return [_p("target_engaged", target=target)]
    return []


def _battle_preview(state: BattleState, actor: str, params: Params) -> tuple[CheckPreview, ...]:
    if "shed_nets" in params:
        scouts = params["shed_nets"]
        return (_preview("maneuver", maneuver(state, actor), maneuver_dc(state, scouts), scouts),)
    return _strike_preview(state, actor, params)


def _strike_preview(state: BattleState, actor: str, params: Params) -> tuple[CheckPreview, ...]:
    weapon = params.get("weapon", MELEE)
    target, fortification = params.get("target"), params.get("fortification")
    aoa = state.army(actor).next_attack_bonus
    modifier = strike_modifier(
        state, actor, weapon, target=target, fortification=fortification, aoa_bonus=aoa
    )
    dc = strike_dc(state, actor, weapon, target=target, fortification=fortification)
    return (_preview(weapon, modifier, dc, target or fortification),)


# --- fortifications (§7.5) ----------------------------------------------------------------------


def damage_fortification(
    state: BattleState, key: str, amount: int, events: list[Event], reason: str
) -> BattleState:
    """Only siege can do this (§7.5). At 0 HP the armies inside lose fortified and get
    shaken +1."""
    fort = state.fortification(key)
    if fort.destroyed or amount <= 0:
        return state
    now = max(0, fort.hp - amount)
    events.append(
        Event("battle.fortification_damaged", {"fortification": key, "by": fort.hp - now,
                                                "now": now, "reason": reason})
    )  # fmt: skip
    state = state.with_fortification(replace(fort, hp=now))
    if now == 0:
        events.append(Event("battle.fortification_destroyed", {"fortification": key}))
        for entry in state.inside(key):
            state = remove_army_condition(state, entry.key, "fortified", events, "fortification")
            state = state.with_army(replace(state.army(entry.key), fortification=None))
            state = add_army_condition(state, entry.key, "shaken", 1, events, "fortification")
    return state


# --- maneuver helpers------------------------------------------------------------------------------


def begin_maneuver(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """Every maneuver war action: a fortified army loses fortified and leaves its
    fortification (§0.5, §7.5); a healing potion may be drunk (+1 HP, §5, §8.2 notes)."""
    entry = state.army(actor)
    if _fortified(entry.army):
        state = remove_army_condition(state, actor, "fortified", ctx.events, "maneuver_action")
        state = state.with_army(replace(state.army(actor), fortification=None))
    if params.get("potion"):
        entry = state.army(actor)
        army = replace(entry.army, potion_doses=entry.army.potion_doses - 1)
        state = state.with_army(entry.with_army(army))
        ctx.events.append(
            Event("battle.potion_used", {"army": actor, "doses_left": army.potion_doses})
        )
        state = heal_army(state, actor, 1, ctx.events, "healing_potion")
    return state


def _potion_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    if params.get("potion") and state.army(actor).army.potion_doses < 1:
        return [_p("no_potion")]
    return []


def _effect(
    code: str,
    army: str,
    condition: str,
    owner: str,
    *,
    value: int = 1,
    by: str | None = None,
    against: str | None = None,
    boundary: str = TURN_START,
    remaining: int = 1,
) -> Effect:
    return Effect(code, army, condition, value, by, against, boundary, owner, remaining)


def _event(ctx: Ctx, key: str, actor: str, degree: Degree, rolled: Any, **extra: Any):
    """The event of a war action's check (`rolled`: its `Rolled`, or the record itself)."""
    if ctx.events is QUIET:
        return
    record = rolled.record if isinstance(rolled, Rolled) else rolled
    ctx.events.append(
        Event(f"battle.{key}", {"army": actor, "degree": degree.code, "check": record, **extra})
    )


# --- §8.1 Advance----------------------------------------------------------------------------------


def _advance_candidates(state: BattleState, actor: str) -> list[dict[str, Any]]:
    return [{"target": key} for key in _enemy_keys(state, actor)]


def _advance_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    target = params.get("target")
    problems = _enemy_problems(state, actor, target) or _potion_problems(state, actor, params)
    if problems:
        return problems
    engaged = state.engaged_with(actor)
    if target in engaged:  # (`is_engaged`: the same pairs)
        return [_p("already_engaged", target=target)]
    aimed = state.army(target)
    if _fortified(aimed.army):
        return [_p("target_fortified", target=target)]
    # `_can_engage_after_maneuver` but its fortified check, made just above.
    if aimed.position != DISTANT and not (
        len(engaged) < MAX_ENGAGEMENTS and len(state.engaged_with(target)) < MAX_ENGAGEMENTS
    ):
        return [_p("engagement_limit", target=target)]
    return []


def _can_engage_after_maneuver(state: BattleState, actor: str, target: str) -> bool:
    """Engagement possible once `actor` has used a maneuver action (it loses fortified)."""
    return (
        not _fortified(state.army(target).army)
        and len(state.engaged_with(actor)) < MAX_ENGAGEMENTS
        and len(state.engaged_with(target)) < MAX_ENGAGEMENTS
    )


def _adaptability(state: BattleState, actor: str) -> list[Modifier]:
    """§6.2 Battlefield Adaptability: +2 circumstance to Maneuver checks to Advance and
    Disengage while its effect lasts."""
    if not has_effect(state, actor, "advance_disengage_bonus"):
        return []
    return [Modifier("tactic.battlefield_adaptability", ADAPTABILITY_BONUS, CIRCUMSTANCE)]


def _advance_check(state: BattleState, actor: str, target: str) -> tuple[Stat, Stat]:
    modifier = extend(maneuver(state, actor), _adaptability(state, actor))
    if knows(state, target, "flight") and not knows(state, actor, "flight"):
        modifier = extend(modifier, [Modifier("tactic.flight", -2, CIRCUMSTANCE)])
    return modifier, maneuver_dc(state, target)


def _advance_preview(state: BattleState, actor: str, params: Params) -> tuple[CheckPreview, ...]:
    modifier, dc = _advance_check(state, actor, params["target"])
    return (_preview("maneuver", modifier, dc, params["target"]),)


def _advance(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§8.1 Advance: Maneuver vs the target's Maneuver DC."""
    target = params["target"]
    state = begin_maneuver(state, actor, params, ctx)
    modifier, dc = _advance_check(state, actor, target)
    rolled = roll_check(ctx.dice, "maneuver", modifier, dc, purpose="advance", against=target)
    if ctx.events is not QUIET:  # (`_event` makes none then: not even its arguments)
        _event(ctx, "advance", actor, rolled.degree, rolled, target=target)
    distant = state.army(target).position == DISTANT
    if rolled.degree is CS or (rolled.degree is S and not distant):
        state = engage(state, actor, target, ctx.events, "advance")
    elif rolled.degree is S:
        state = state.with_army(replace(state.army(target), position=NEAR))
        ctx.events.append(Event("battle.lost_distant", {"army": target, "reason": "advance"}))
    elif rolled.degree is CF:
        effect = _effect("advance.critical_failure", actor, "mired", actor)
        state = add_effect(state, effect, ctx.events)
    return state


# --- §8.1 Battle-----------------------------------------------------------------------------------


def _battle_candidates(state: BattleState, actor: str) -> list[dict[str, Any]]:
    shed = [{"shed_nets": e.by} for e in _nets_on(state, actor)]
    return _strike_candidates(state, actor, ranged_vs_fortification=True) + shed


def _battle_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    if "shed_nets" in params:
        by = params["shed_nets"]
        if not any(e.by == by for e in _nets_on(state, actor)):
            return [_p("not_netted", target=by)]
        return []
    if not isinstance(params.get("net", True), bool):
        return [_p("bad_param", param="net", value=params.get("net"))]
    return _strike_problems(state, actor, params, allow_fortification=True)


def _battle(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§8.1 Battle: a Strike; hit 1 damage, critical hit 2 (to an army or, for siege, to a
    fortification). Hurl Nets (§6.2): a melee Strike of the Tok-Nikrat Scouts is a net
    Strike (`net`, default true), and a netted army may spend Battle to shed the nets
    (`shed_nets`: the Scouts' key)."""
    if "shed_nets" in params:
        return _shed_nets(state, actor, params["shed_nets"], ctx)
    weapon = params.get("weapon", MELEE)
    state, degree, record = roll_strike(state, actor, params, ctx, purpose="battle")
    target, fortification = params.get("target"), params.get("fortification")
    net = _net_strike(state, actor, params)
    if ctx.events is not QUIET:  # (`_event` makes none then: not even its arguments)
        extra = {"net": True} if net else {}
        _event(ctx, "battle", actor, degree, record, target=target or fortification,
               weapon=weapon, **extra)  # fmt: skip
    if net:
        return _net_hit(state, actor, target, degree, ctx)
    amount = {CS: CRIT_DAMAGE, S: HIT_DAMAGE}.get(degree, 0)
    if not amount:
        return state
    if fortification is not None:
        return damage_fortification(state, fortification, amount, ctx.events, "battle")
    if degree is CS and knows(state, actor, "burning_weaponry"):
        amount += _burning_weaponry(state, actor, target, ctx)
    return hit(state, actor, target, weapon, amount, degree, ctx, "battle", params)


# --- §6.2 Hurl Nets (Tok-Nikrat Scouts) --------------------------------------------------------


def _net_strike(state: BattleState, actor: str, params: Params) -> bool:
    """A melee Battle Strike on an army by an army with Hurl Nets is a net Strike, unless
    `params["net"]` is false (§6.2; the Scouts' melee Strike is printed "(nets)", §3.4). Only
    engaged armies can be Struck in melee, so a distant army is never netted."""
    return (
        knows(state, actor, "hurl_nets")
        and params.get("weapon", MELEE) == MELEE
        and params.get("target") is not None
        and params.get("net", True) is True
    )


def _nets_on(state: BattleState, key: str) -> list[Effect]:
    """The "netted" bookkeeping effects on army `key`: value = the mired its nets gave, by = the
    netting army (it lasts the encounter)."""
    return [e for e in state.effects if e.army == key and e.condition == "netted" and e.value > 0]


def _set_net(state: BattleState, target: str, by: str, value: int) -> BattleState:
    others = [
        e
        for e in state.effects
        if not (e.army == target and e.condition == "netted" and e.by == by)
    ]
    if value > 0:
        others.append(Effect("hurl_nets", target, "netted", value, by, None, ENCOUNTER, by, 1))
    return replace(state, effects=tuple(others))


def _net_value(state: BattleState, target: str, by: str) -> int:
    return sum(e.value for e in _nets_on(state, target) if e.by == by)


def _net_hit(state: BattleState, actor: str, target: str, degree: Degree, ctx: Ctx):
    """§6.2 Hurl Nets: a hit deals no damage; the target's mired +1 (+2 on a critical hit)."""
    value = {CS: 2, S: 1}.get(degree, 0)
    if not value or not state.army(target).present:
        return state
    state = add_army_condition(state, target, "mired", value, ctx.events, "hurl_nets")
    return _set_net(state, target, actor, _net_value(state, target, actor) + value)


def _shed_nets(state: BattleState, actor: str, scouts: str, ctx: Ctx) -> BattleState:
    """§6.2 Hurl Nets: a netted army uses Battle to shed the nets, a check vs the Scouts'
    Maneuver DC (its Maneuver check [inferred]: the text names only the DC): critical success
    the net mired -2, success -1 (never more than the nets gave), critical failure +1."""
    rolled = roll_check(ctx.dice, "maneuver", maneuver(state, actor), maneuver_dc(state, scouts),
                        purpose="shed_nets", against=scouts)  # fmt: skip
    _event(ctx, "shed_nets", actor, rolled.degree, rolled, target=scouts)
    net = _net_value(state, actor, scouts)
    if rolled.degree in (CS, S):
        by = min(net, 2 if rolled.degree is CS else 1)
        state = reduce_army_condition(state, actor, "mired", by, ctx.events, "shed_nets")
        return _set_net(state, actor, scouts, net - by)
    if rolled.degree is CF:
        state = add_army_condition(state, actor, "mired", 1, ctx.events, "shed_nets")
        return _set_net(state, actor, scouts, net + 1)
    return state


def _burning_weaponry(state: BattleState, actor: str, target: str, ctx: Ctx) -> int:
    """§6.2 Burning Weaponry: after a critical Battle Strike on an army, the target makes a
    Maneuver check vs the Bombardiers' Maneuver DC; on a failure it takes 1 more damage."""
    rolled = roll_check(ctx.dice, "maneuver", maneuver(state, target), maneuver_dc(state, actor),
                        purpose="burning_weaponry", against=actor)  # fmt: skip
    ctx.events.append(
        Event("battle.burning_weaponry", {"army": target, "by": actor,
                                          "degree": rolled.degree.code, "check": rolled.record})
    )  # fmt: skip
    return 0 if rolled.degree.succeeded else 1


# --- §8.1 Disengage--------------------------------------------------------------------------------


def _disengage_candidates(state: BattleState, actor: str) -> list[dict[str, Any]]:
    return [{}]


def _disengage_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    if not state.engaged_with(actor):
        return [_p("not_engaged")]
    if state.army(actor).disengage_blocked:
        return [_p("disengage_blocked")]
    order = params.get("order")
    if order is not None and (
        not isinstance(order, list | tuple) or sorted(order) != list(state.engaged_with(actor))
    ):
        return [_p("bad_disengage_order", order=order)]
    return _potion_problems(state, actor, params)


def _disengage_checks(state: BattleState, actor: str, target: str) -> tuple[Stat, Stat, list]:
    whens = ["disengage_with_water"] if "water" in state.terrain else []
    modifier = extend(maneuver(state, actor, whens), _adaptability(state, actor))
    dc = maneuver_dc(state, target, ["enemy_disengages"])
    improvements = []
    if knows(state, actor, "accustomed_to_panic"):
        improvements.append(("tactic.accustomed_to_panic", 1))
    if knows(state, actor, "flight") and not knows(state, target, "flight"):
        improvements.append(("tactic.flight", 1))
    return modifier, dc, improvements


def _disengage_preview(state: BattleState, actor: str, params: Params) -> tuple[CheckPreview, ...]:
    previews = []
    for target in params.get("order") or state.engaged_with(actor):
        modifier, dc, _ = _disengage_checks(state, actor, target)
        previews.append(_preview("maneuver", modifier, dc, target))
    return tuple(previews)


def _disengage(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§8.1 Disengage: one Maneuver check per engaged army, in order."""
    state = begin_maneuver(state, actor, params, ctx)
    order = list(params.get("order") or state.engaged_with(actor))
    for index, target in enumerate(order):
        if not state.is_engaged(actor, target):
            continue
        modifier, dc, improvements = _disengage_checks(state, actor, target)
        rolled = roll_check(
            ctx.dice, "maneuver", modifier, dc, purpose="disengage", against=target,
            improvements=improvements,
        )  # fmt: skip
        _event(ctx, "disengage", actor, rolled.degree, rolled, target=target)
        if rolled.degree.succeeded:
            state = state.disengage(actor, target)
            ctx.events.append(Event("battle.disengaged", {"army": actor, "target": target}))
        if rolled.degree is CS:
            for rest in order[index + 1 :]:
                if state.is_engaged(actor, rest):
                    state = state.disengage(actor, rest)
                    ctx.events.append(Event("battle.disengaged", {"army": actor, "target": rest}))
            break
        if rolled.degree is CF:
            state = state.with_army(replace(state.army(actor), disengage_blocked=True))
            ctx.events.append(Event("battle.disengage_blocked", {"army": actor}))
            break
    return state


# --- §8.1 Guard------------------------------------------------------------------------------------


def _enemy_target_candidates(state: BattleState, actor: str) -> list[dict[str, Any]]:
    return [{"target": key} for key in _enemy_keys(state, actor)]


def _guard_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    return _enemy_problems(state, actor, params.get("target")) or _potion_problems(
        state, actor, params
    )


def _guard_preview(state: BattleState, actor: str, params: Params) -> tuple[CheckPreview, ...]:
    target = params["target"]
    return (_preview("maneuver", maneuver(state, actor, ["guard"]), maneuver_dc(state, target),
                     target),)  # fmt: skip


def _guard(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§8.1 Guard: +2 item AC vs all (critical success) or the target's (success) attacks
    until the start of your next turn; critical failure mired 1."""
    target = params["target"]
    state = begin_maneuver(state, actor, params, ctx)
    modifier, dc = maneuver(state, actor, ["guard"]), maneuver_dc(state, target)
    rolled = roll_check(ctx.dice, "maneuver", modifier, dc, purpose="guard", against=target)
    _event(ctx, "guard", actor, rolled.degree, rolled, target=target)
    if rolled.degree is CS:
        effect = _effect("guard.critical_success", actor, "guarded", actor, value=2)
        state = add_effect(state, effect, ctx.events)
    elif rolled.degree is S:
        effect = _effect("guard.success", actor, "guarded", actor, value=2, against=target)
        state = add_effect(state, effect, ctx.events)
    elif rolled.degree is CF:
        if house_value("guard.critical_failure_mired_lasting"):
            state = add_army_condition(state, actor, "mired", 1, ctx.events, "guard")
        else:
            effect = _effect("guard.critical_failure", actor, "mired", actor)
            state = add_effect(state, effect, ctx.events)
    return state


# --- §8.1 Rally, §6.2 Reactive Rally---------------------------------------------------------------


def _rally_candidates(state: BattleState, actor: str) -> list[dict[str, Any]]:
    """Rally is offered only where it can do something: §8.1 it lowers the army's shaken
    (a routed army must Retreat instead), or its success triggers False Retreat (§8.2).
    Taken all the same, it is still accepted (replays of older battles)."""
    shaken = state.army(actor).army.conditions.get("shaken", 0) > 0
    if not shaken and "false_retreat" not in effective_block(state, actor).war_actions:
        return []
    return _enemy_target_candidates(state, actor)


def _rally_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    return _enemy_problems(state, actor, params.get("target"))


def _rally_check(state: BattleState, actor: str, target: str) -> tuple[Stat, Stat]:
    return morale(state, actor, ["rally"]), morale_dc(state, target)


def _rally_preview(state: BattleState, actor: str, params: Params) -> tuple[CheckPreview, ...]:
    modifier, dc = _rally_check(state, actor, params["target"])
    return (_preview("morale", modifier, dc, params["target"]),)


def _rally(state: BattleState, actor: str, params: Params, ctx: Ctx, key: str = "rally"):
    """§8.1 Rally: Morale vs a chosen enemy's Morale DC. CS: not routed, shaken -2;
    S: shaken -1; F: nothing; CF: shaken +1."""
    target = params["target"]
    modifier, dc = _rally_check(state, actor, target)
    rolled = roll_check(ctx.dice, "morale", modifier, dc, purpose=key, against=target)
    _event(ctx, key, actor, rolled.degree, rolled, target=target)
    if rolled.degree.succeeded:
        ctx.morale_successes.append((actor, target, key))
    if rolled.degree is CS:
        state = remove_army_condition(state, actor, "routed", ctx.events, key)
        state = reduce_army_condition(state, actor, "shaken", 2, ctx.events, key)
    elif rolled.degree is S:
        state = reduce_army_condition(state, actor, "shaken", 1, ctx.events, key)
    elif rolled.degree is CF:
        state = add_army_condition(state, actor, "shaken", 1, ctx.events, key)
    return state


def _reactive_rally_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    if not state.army(actor).routed:
        return [_p("not_routed")]
    return _rally_problems(state, actor, params)


def _reactive_rally(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    return _rally(state, actor, params, ctx, "reactive_rally")


# --- §8.1 Retreat----------------------------------------------------------------------------------


def _retreat_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    if state.engaged_with(actor):
        return [_p("engaged")]
    return []


def _no_preview(state: BattleState, actor: str, params: Params) -> tuple[CheckPreview, ...]:
    return ()


def _retreat(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§8.1 Retreat: distant -> flees (leaves, routed); otherwise becomes distant."""
    entry = state.army(actor)
    if entry.position == DISTANT:
        ctx.events.append(Event("battle.retreat", {"army": actor, "result": "fled"}))
        state = state.with_army(replace(entry, position=FLED, fortification=None))
        return route(state, actor, ctx.events, "retreat")
    ctx.events.append(Event("battle.retreat", {"army": actor, "result": "distant"}))
    return state.with_army(replace(entry, position=DISTANT))


# --- §8.2 All-Out Assault--------------------------------------------------------------------------


def _melee_candidates(state: BattleState, actor: str) -> list[dict[str, Any]]:
    if effective_block(state, actor).melee is None:
        return []
    return [{"target": key, "weapon": MELEE} for key in state.engaged_with(actor)]


def _melee_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    if params.get("weapon", MELEE) != MELEE:
        return [_p("melee_only")]
    return _strike_problems(state, actor, params, allow_fortification=False)


def _all_out_assault(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§8.2 All-Out Assault: CS 3 damage (+1 circumstance to a next attack on another army
    this turn), S 2, F 1, CF none and outflanked until the start of your next turn."""
    target = params["target"]
    state, degree, record = roll_strike(state, actor, params, ctx, purpose="all_out_assault")
    _event(ctx, "all_out_assault", actor, degree, record, target=target)
    amount = {CS: 3, S: 2, Degree.FAILURE: 1}.get(degree, 0)
    hp_before = state.army(target).hp
    state = hit(state, actor, target, MELEE, amount, degree, ctx, "all_out_assault", params)
    if state.army(target).hp < hp_before and knows(state, actor, "brutal_assault"):
        state = _brutal_assault(state, actor, target, ctx)
    if degree is CS:
        state = state.with_army(replace(state.army(actor), next_attack_bonus=(target, 1)))
    elif degree is CF:
        effect = _effect("all_out_assault.critical_failure", actor, "outflanked", actor, by=target)
        state = add_effect(state, effect, ctx.events)
    return state


BRUTAL_ASSAULT_DC = 24  # §6.2 Brutal Assault (Troll Marauders)


def _brutal_assault(state: BattleState, actor: str, target: str, ctx: Ctx) -> BattleState:
    """§6.2 Brutal Assault: an army damaged by the trolls' All-Out Assault attempts a DC 24
    Morale check; failure: it becomes shaken 1, critical failure shaken 2 (raised to that
    value, as PF2e "becomes shaken 1"; a higher shaken stays)."""
    entry = state.army(target)
    if not entry.present:
        return state
    dc = Stat(BRUTAL_ASSAULT_DC, (("brutal_assault", BRUTAL_ASSAULT_DC),))
    rolled = roll_check(ctx.dice, "morale", morale(state, target), dc, purpose="brutal_assault",
                        against=actor)  # fmt: skip
    ctx.events.append(
        Event("battle.brutal_assault", {"army": target, "by": actor,
                                        "degree": rolled.degree.code, "check": rolled.record})
    )  # fmt: skip
    if rolled.degree.succeeded:
        ctx.morale_successes.append((target, actor, "brutal_assault"))
        return state
    value = 2 if rolled.degree is CF else 1
    shaken = state.army(target).army.spec.condition_values.get("shaken", 0)
    if shaken < value:
        state = add_army_condition(state, target, "shaken", value - shaken, ctx.events,
                                   "brutal_assault")  # fmt: skip
    return state


# --- §8.2 Battlefield Medicine---------------------------------------------------------------------


def _medicine_candidates(state: BattleState, actor: str) -> list[dict[str, Any]]:
    return [{"target": e.key} for e in state.allies(actor) if e.present and not e.treated]


def _medicine_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    target = params.get("target")
    problems = _ally_problems(state, actor, target)
    if problems:
        return problems
    if state.army(target).treated:
        return [_p("already_treated", target=target)]
    return []


def _medicine_preview(state: BattleState, actor: str, params: Params) -> tuple[CheckPreview, ...]:
    scouting = effective_block(state, actor).scouting
    dc = Stat(BATTLEFIELD_MEDICINE_DC, (("battlefield_medicine", BATTLEFIELD_MEDICINE_DC),))
    return (_preview("scouting", scouting, dc, None),)


def _battlefield_medicine(state: BattleState, actor: str, params: Params, ctx: Ctx):
    """§8.2 Battlefield Medicine: Scouting vs DC 25; CS +2 HP, S +1 HP, CF weary +1."""
    target = params["target"]
    (preview,) = _medicine_preview(state, actor, params)
    scouting = effective_block(state, actor).scouting
    dc = Stat(preview.dc, preview.dc_breakdown)
    rolled = roll_check(ctx.dice, "scouting", scouting, dc, purpose="battlefield_medicine")
    _event(ctx, "battlefield_medicine", actor, rolled.degree, rolled, target=target)
    state = state.with_army(replace(state.army(target), treated=True))
    if rolled.degree is CS:
        state = heal_army(state, target, 2, ctx.events, "battlefield_medicine")
    elif rolled.degree is S:
        state = heal_army(state, target, 1, ctx.events, "battlefield_medicine")
    elif rolled.degree is CF:
        state = add_army_condition(state, target, "weary", 1, ctx.events, "battlefield_medicine")
    return state


# --- §8.2 Covering Fire----------------------------------------------------------------------------


def _covering_shots() -> int:
    return house_value("covering_fire.shots")


def _covering_candidates(state: BattleState, actor: str) -> list[dict[str, Any]]:
    if effective_block(state, actor).ranged is None:
        return []
    if state.army(actor).shots < _covering_shots():
        return []
    return [{"target": key, "weapon": RANGED} for key in _enemy_keys(state, actor)]


def _covering_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    if params.get("weapon", RANGED) != RANGED:
        return [_p("ranged_only")]
    params = {**params, "weapon": RANGED}
    return _strike_problems(
        state, actor, params, shots=_covering_shots(), allow_fortification=False
    )


def _covering_fire(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§8.2 Covering Fire: CS 2 damage, S 1 damage, both: the target cannot take reactions
    triggered by maneuver actions until the start of your next turn; F 1 damage; CF none."""
    params = {**params, "weapon": RANGED}
    target = params["target"]
    state, degree, record = roll_strike(
        state, actor, params, ctx, purpose="covering_fire", shots=_covering_shots()
    )
    _event(ctx, "covering_fire", actor, degree, record, target=target)
    amount = {CS: 2, S: 1, Degree.FAILURE: 1}.get(degree, 0)
    state = hit(state, actor, target, RANGED, amount, degree, ctx, "covering_fire", params)
    if degree in (CS, S) and state.army(target).present:
        effect = _effect("covering_fire", target, "no_maneuver_reactions", actor, by=actor)
        state = add_effect(state, effect, ctx.events)
    return state


# --- §8.2 Defensive Stance-------------------------------------------------------------------------


def _outflanked(state: BattleState, key: str) -> bool:
    return "outflanked" in conditions_of(state, key)


def _stance_candidates(state: BattleState, actor: str) -> list[dict[str, Any]]:
    allies = [e.key for e in state.allies(actor) if e.present and _outflanked(state, e.key)]
    return [
        {"ally": ally, "target": enemy} for ally in allies for enemy in _enemy_keys(state, actor)
    ]


def _stance_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    ally = params.get("ally")
    problems = _ally_problems(state, actor, ally) or _enemy_problems(
        state, actor, params.get("target")
    )
    if problems:
        return problems
    if not _outflanked(state, ally):
        return [_p("not_outflanked", target=ally)]
    return _potion_problems(state, actor, params)


def _stance_preview(state: BattleState, actor: str, params: Params) -> tuple[CheckPreview, ...]:
    target = params["target"]
    return (_preview("maneuver", maneuver(state, actor), maneuver_dc(state, target), target),)


def _defensive_stance(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§8.2 Defensive Stance: CS the ally is no longer outflanked by any army; S no longer
    by the target; CF your army becomes outflanked by the target."""
    ally, target = params["ally"], params["target"]
    state = begin_maneuver(state, actor, params, ctx)
    modifier, dc = maneuver(state, actor), maneuver_dc(state, target)
    rolled = roll_check(ctx.dice, "maneuver", modifier, dc, purpose="defensive_stance",
                        against=target)  # fmt: skip
    _event(ctx, "defensive_stance", actor, rolled.degree, rolled, target=target, ally=ally)
    if rolled.degree in (CS, S):
        ended = [
            e
            for e in state.effects
            if e.army == ally
            and e.condition == "outflanked"
            and (rolled.degree is CS or e.by == target)
        ]
        keep = [e for e in state.effects if not any(e is x for x in ended)]
        state = end_effects(state, keep, ended, ctx.events)
        if rolled.degree is CS:
            state = remove_army_condition(state, ally, "outflanked", ctx.events, "defensive_stance")
    elif rolled.degree is CF:
        lasting = not house_value("defensive_stance.critical_failure_until_next_turn")
        effect = _effect(
            "defensive_stance.critical_failure", actor, "outflanked", actor, by=target,
            boundary=ENCOUNTER if lasting else TURN_START,
        )  # fmt: skip
        state = add_effect(state, effect, ctx.events)
    return state


# --- §8.2 Dirty Fighting---------------------------------------------------------------------------


def _dirty_candidates(state: BattleState, actor: str) -> list[dict[str, Any]]:
    return [
        params
        for params in _strike_candidates(state, actor)
        if "target" in params
        and "outflanked"
        in conditions_of(state, params["target"], attacker=actor, weapon=params["weapon"])
        and state.army(params["target"]).position != DISTANT
    ]


def _dirty_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    problems = _strike_problems(state, actor, params, allow_fortification=False)
    if problems:
        return problems
    target = params["target"]
    weapon = params.get("weapon", MELEE)
    if "outflanked" not in conditions_of(state, target, attacker=actor, weapon=weapon):
        return [_p("not_outflanked", target=target)]
    if state.army(target).position == DISTANT:
        return [_p("target_distant", target=target)]
    return []


def _dirty_fighting(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§8.2 Dirty Fighting: CS weary 2, S weary 1 (until the start of your next turn);
    CF no damage and the target's weary -1. Whether a hit also deals the Strike's normal
    damage is a house default (§15 item 10)."""
    target, weapon = params["target"], params.get("weapon", MELEE)
    state, degree, record = roll_strike(state, actor, params, ctx, purpose="dirty_fighting")
    _event(ctx, "dirty_fighting", actor, degree, record, target=target, weapon=weapon)
    if degree in (CS, S):
        if house_value("dirty_fighting.strike_damage"):
            amount = CRIT_DAMAGE if degree is CS else HIT_DAMAGE
            state = hit(state, actor, target, weapon, amount, degree, ctx, "dirty_fighting", params)
        if state.army(target).present:
            value = 2 if degree is CS else 1
            effect = _effect("dirty_fighting", target, "weary", actor, value=value, by=actor)
            state = add_effect(state, effect, ctx.events)
    elif degree is CF:
        state = reduce_army_condition(state, target, "weary", 1, ctx.events, "dirty_fighting")
    return state


# --- §8.2 Feint------------------------------------------------------------------------------------


def _feint_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    return _enemy_problems(state, actor, params.get("target")) or _potion_problems(
        state, actor, params
    )


def _feint_traits() -> tuple[str, ...]:
    return (ATTACK,) if house_value("feint.attack_trait") else (MANEUVER,)


def _feint(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§8.2 Feint: Maneuver vs the target's Maneuver DC. CS target outflanked until the end of
    your turn; S only against your next melee Strike this turn; CF you are outflanked by the
    target until the end of your next turn."""
    target = params["target"]
    if MANEUVER in _feint_traits():
        state = begin_maneuver(state, actor, params, ctx)
    else:
        state = _record_attack(state, actor, target, MELEE, 0)
    modifier, dc = maneuver(state, actor), maneuver_dc(state, target)
    rolled = roll_check(ctx.dice, "maneuver", modifier, dc, purpose="feint", against=target)
    _event(ctx, "feint", actor, rolled.degree, rolled, target=target)
    if rolled.degree is CS:
        effect = _effect("feint.critical_success", target, "outflanked", actor, by=actor,
                         boundary=TURN_END)  # fmt: skip
        state = add_effect(state, effect, ctx.events)
    elif rolled.degree is S:
        effect = _effect("feint.success", target, "outflanked", actor, by=actor, against=actor,
                         boundary=NEXT_STRIKE)  # fmt: skip
        state = add_effect(state, effect, ctx.events)
    elif rolled.degree is CF:
        effect = _effect("feint.critical_failure", actor, "outflanked", actor, by=target,
                         boundary=TURN_END, remaining=2)  # fmt: skip
        state = add_effect(state, effect, ctx.events)
    return state


# --- §8.2 Outflank---------------------------------------------------------------------------------


def _outflank_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    if state.engaged_with(actor):
        return [_p("engaged")]
    return _enemy_problems(state, actor, params.get("target")) or _potion_problems(
        state, actor, params
    )


def _outflank(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§8.2 Outflank: CS target outflanked until the start of your next turn, engaging is
    your choice (params["engage"], default yes); S outflanked and engaged; CF you are
    outflanked until the start of your next turn."""
    target = params["target"]
    state = begin_maneuver(state, actor, params, ctx)
    modifier, dc = maneuver(state, actor), maneuver_dc(state, target)
    rolled = roll_check(ctx.dice, "maneuver", modifier, dc, purpose="outflank", against=target)
    _event(ctx, "outflank", actor, rolled.degree, rolled, target=target)
    if rolled.degree in (CS, S):
        effect = _effect(f"outflank.{rolled.degree.code}", target, "outflanked", actor, by=actor)
        state = add_effect(state, effect, ctx.events)
        if rolled.degree is S or params.get("engage", True):
            state = engage(state, actor, target, ctx.events, "outflank")
    elif rolled.degree is CF:
        effect = _effect("outflank.critical_failure", actor, "outflanked", actor, by=target)
        state = add_effect(state, effect, ctx.events)
    return state


# --- §8.2 Overwhelming Bombardment-----------------------------------------------------------------

BOMBARDMENT_SHOTS = 2  # §8.2


def _bombard_candidates(state: BattleState, actor: str) -> list[dict[str, Any]]:
    if effective_block(state, actor).ranged is None or state.army(actor).shots < 2:
        return []
    side = state.army(actor).side
    return [
        {"fortification": f.key, "weapon": RANGED}
        for f in state.fortifications
        if f.side != side and not f.destroyed
    ]


def _bombard_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    if params.get("fortification") is None:
        return [_p("fortification_required")]
    params = {**params, "weapon": RANGED}
    problems = _strike_problems(
        state, actor, params, shots=BOMBARDMENT_SHOTS, allow_fortification=True
    )
    if problems:
        return problems
    inside = {e.key for e in state.inside(params["fortification"])}
    chosen = params.get("armies") or []
    if not isinstance(chosen, list | tuple) or len(chosen) > 2 or not set(chosen) <= inside:
        return [_p("bad_bombardment_armies", armies=chosen)]
    extra = params.get("extra", "fortification")
    if extra != "fortification" and extra not in inside:
        return [_p("bad_bombardment_extra", extra=extra)]
    return []


def _overwhelming_bombardment(state: BattleState, actor: str, params: Params, ctx: Ctx):
    """§8.2 Overwhelming Bombardment (2 shots): CS 2 damage to the fortification and 1 to up
    to 2 armies inside; S 1 to the fortification + 1 more to it or to one army inside; F 1
    to the fortification; CF no damage and you are outflanked until the start of your next
    turn."""
    params = {**params, "weapon": RANGED}
    fort = params["fortification"]
    inside = [e.key for e in state.inside(fort)]
    state, degree, record = roll_strike(
        state, actor, params, ctx, purpose="overwhelming_bombardment", shots=BOMBARDMENT_SHOTS
    )
    _event(ctx, "overwhelming_bombardment", actor, degree, record, target=fort)
    reason = "overwhelming_bombardment"
    if degree is CS:
        chosen = list(params.get("armies") or inside[:2])
        state = damage_fortification(state, fort, 2, ctx.events, reason)
        for key in chosen:
            state = damage(state, key, 1, ctx.dice, ctx.events, reason)
    elif degree is S:
        extra = params.get("extra", "fortification")
        if extra == "fortification":
            state = damage_fortification(state, fort, 2, ctx.events, reason)
        else:
            state = damage_fortification(state, fort, 1, ctx.events, reason)
            state = damage(state, extra, 1, ctx.dice, ctx.events, reason)
    elif degree is Degree.FAILURE:
        state = damage_fortification(state, fort, 1, ctx.events, reason)
    else:
        effect = _effect("overwhelming_bombardment.critical_failure", actor, "outflanked", actor)
        state = add_effect(state, effect, ctx.events)
    return state


# --- §8.2 Taunt------------------------------------------------------------------------------------


FRIGHTENING_FOE_BONUS = 2  # §6.2 Frightening Foe: Taunt after Regeneration this turn (status)


def _morale_preview(state: BattleState, actor: str, params: Params) -> tuple[CheckPreview, ...]:
    target = params["target"]
    return (_preview("morale", morale(state, actor), morale_dc(state, target), target),)


def _taunt_check(state: BattleState, actor: str, target: str) -> tuple[Stat, Stat]:
    """Taunt's Morale vs the target's Morale DC; Frightening Foe (§6.2) +2 status if the
    army's Regeneration healed it this turn."""
    modifier = morale(state, actor)
    if knows(state, actor, "frightening_foe") and has_effect(state, actor, "regenerated"):
        bonus = Modifier("tactic.frightening_foe", FRIGHTENING_FOE_BONUS, STATUS)
        modifier = extend(modifier, [bonus])
    return modifier, morale_dc(state, target)


def _taunt_preview(state: BattleState, actor: str, params: Params) -> tuple[CheckPreview, ...]:
    modifier, dc = _taunt_check(state, actor, params["target"])
    return (_preview("morale", modifier, dc, params["target"]),)


def _taunt(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§8.2 Taunt: CS target shaken 2, S shaken 1 (until the start of your next turn);
    CF the target's shaken -1. Chorus of Croaks with Focused Devotion (§6.2): a critical
    failure becomes a failure."""
    target = params["target"]
    modifier, dc = _taunt_check(state, actor, target)
    rolled = roll_check(ctx.dice, "morale", modifier, dc, purpose="taunt", against=target)
    degree, record = rolled.degree, rolled.record
    if (
        degree is CF
        and knows(state, actor, "chorus_of_croaks")
        and knows(state, actor, "focused_devotion")
    ):
        degree = Degree.FAILURE
        adjustments = [*record["adjustments"], ["tactic.chorus_of_croaks", 1]]
        record = {**record, "adjustments": adjustments, "degree": degree.code}
    _event(ctx, "taunt", actor, degree, record, target=target)
    if degree.succeeded:
        ctx.morale_successes.append((actor, target, "taunt"))
    if degree in (CS, S):
        value = 2 if degree is CS else 1
        effect = _effect("taunt", target, "shaken", actor, value=value, by=actor)
        state = add_effect(state, effect, ctx.events)
    elif degree is CF:
        state = reduce_army_condition(state, target, "shaken", 1, ctx.events, "taunt")
    return state


# --- §6.2 army-specific actions: Trample, Trampling Charge ------------------------------------


def _trample(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§6.2 Trample (Nomen Scouts, 3 actions): melee Strike vs an engaged enemy's AC at +20
    (the Nomen's melee modifier, §3.4; a Strike, so MAP applies and it counts, §0.4). Hit 1
    damage, critical hit 2, and the Nomen automatically stop being engaged with it; a miss
    does nothing."""
    target = params["target"]
    state, degree, record = roll_strike(state, actor, params, ctx, purpose="trample")
    _event(ctx, "trample", actor, degree, record, target=target)
    amount = {CS: CRIT_DAMAGE, S: HIT_DAMAGE}.get(degree, 0)
    if not amount:
        return state
    state = hit(state, actor, target, MELEE, amount, degree, ctx, "trample", params)
    if state.is_engaged(actor, target):
        state = state.disengage(actor, target)
        ctx.events.append(
            Event("battle.disengaged", {"army": actor, "target": target, "reason": "trample"})
        )
    return state


def _trampling_candidates(state: BattleState, actor: str) -> list[dict[str, Any]]:
    return [{"target": key} for key in _enemy_keys(state, actor)]


def _trampling_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    """§6.2 Trampling Charge: the target is a non-engaged army (engaged with no army) and,
    as it may end engaged with the Riders, not fortified (§9 Fortified [inferred])."""
    target = params.get("target")
    problems = _enemy_problems(state, actor, target)
    if problems:
        return problems
    if state.engaged_with(target):
        return [_p("target_engaged", target=target)]
    if _fortified(state.army(target).army):
        return [_p("target_fortified", target=target)]
    return []


def _trampling_charge(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§6.2 Trampling Charge (Tusker Riders, 3 actions; does not trigger Counterattack):
    Maneuver vs the target's Maneuver DC. CS 2 damage and the target's shaken +1; S 1 damage;
    F 1 damage and the Riders become engaged with it; CF engaged with it and the Riders are
    outflanked until the start of their next turn (§6.2 discrepancy: outflanked used)."""
    target = params["target"]
    state = begin_maneuver(state, actor, {}, ctx)
    modifier, dc = maneuver(state, actor), maneuver_dc(state, target)
    rolled = roll_check(ctx.dice, "maneuver", modifier, dc, purpose="trampling_charge",
                        against=target)  # fmt: skip
    _event(ctx, "trampling_charge", actor, rolled.degree, rolled, target=target)
    reason = "trampling_charge"
    amount = {CS: 2, S: 1, Degree.FAILURE: 1}.get(rolled.degree, 0)
    state = damage(state, target, amount, ctx.dice, ctx.events, reason)
    if rolled.degree is CS and state.army(target).present and not state.army(target).defeated:
        state = add_army_condition(state, target, "shaken", 1, ctx.events, reason)
    if rolled.degree in (Degree.FAILURE, CF) and state.army(target).present:
        state = engage(state, actor, target, ctx.events, reason)
    if rolled.degree is CF:
        effect = _effect("trampling_charge.critical_failure", actor, "outflanked", actor,
                         by=target)  # fmt: skip
        state = add_effect(state, effect, ctx.events)
    return state


# --- §6.2 army-specific actions: Furious Charge, Swift Recovery, Battlefield Adaptability,
# Primal Magic ---------------------------------------------------------------------------------


def _spend(state: BattleState, actor: str, key: str) -> BattleState:
    """Mark a once-per-encounter action as used (§6.2 Furious Charge, Swift Recovery)."""
    entry = state.army(actor)
    return state.with_army(replace(entry, spent=(*entry.spent, key)))


def _once_problems(state: BattleState, actor: str, key: str) -> list[Problem]:
    if key in state.army(actor).spent:
        return [_p("once_per_encounter", action=key)]
    return []


def _furious_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    strike = params.get("strike", True)
    if not isinstance(strike, bool):
        return [_p("bad_param", param="strike", value=strike)]
    return _once_problems(state, actor, "furious_charge") or _advance_problems(state, actor, params)


def _reaction_blocked(state: BattleState, actor: str) -> str | None:
    """Why `actor` cannot react now (§0.5: its one reaction used; False Retreat's
    "no_reactions"), or None."""
    if state.army(actor).reaction_used:
        return "reaction_used"
    if has_effect(state, actor, "no_reactions"):
        return "no_reactions"
    return None


def _furious_charge(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§6.2 Furious Charge (Tiger Lord Berserkers, 1 action, once per war encounter): an
    Advance (§8.1, with all its rules); if it engages the target, a melee Strike vs that
    army "as a reaction" (hit 1 damage, critical hit 2).

    The Strike is the `strike` param, on by default (the board always makes it; the API may
    decline it, e.g. to keep the reaction for Counterattack). By house default it uses the
    army's one reaction of the round (§0.5): no Strike when that is used or blocked. Made on
    the army's own turn, it takes and counts toward MAP (§0.4; PF2e applies MAP during your
    turn, reactions included)."""
    target = params["target"]
    state = _spend(state, actor, "furious_charge")
    state = _advance(state, actor, params, ctx)
    entry = state.army(actor)
    if (
        not params.get("strike", True)
        or not state.is_engaged(actor, target)
        or effective_block(state, actor).melee is None
    ):
        return state
    if house_value("furious_charge.strike_uses_reaction"):
        reason = _reaction_blocked(state, actor)
        if reason is not None:
            ctx.events.append(
                Event("battle.reaction_blocked", {"army": actor, "reaction": "furious_charge",
                                                  "reason": reason, "trigger": "furious_charge"})
            )  # fmt: skip
            return state
        state = state.with_army(replace(entry, reaction_used=True))
    strike = {"target": target, "weapon": MELEE}
    state, degree, record = roll_strike(state, actor, strike, ctx, purpose="furious_charge")
    _event(ctx, "furious_charge", actor, degree, record, target=target, weapon=MELEE)
    amount = {CS: CRIT_DAMAGE, S: HIT_DAMAGE}.get(degree, 0)
    if amount:
        state = hit(state, actor, target, MELEE, amount, degree, ctx, "furious_charge", strike)
    return state


def _furious_candidates(state: BattleState, actor: str) -> list[dict[str, Any]]:
    if "furious_charge" in state.army(actor).spent:
        return []
    return _advance_candidates(state, actor)


SWIFT_RECOVERY = {"hp": 2, "weary": 2}  # §6.2 Swift Recovery: regain 2 HP or weary -2


def _swift_candidates(state: BattleState, actor: str) -> list[dict[str, Any]]:
    return [{"choice": choice} for choice in SWIFT_RECOVERY]


def _swift_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    choice = params.get("choice")
    if choice not in SWIFT_RECOVERY:
        return [_p("bad_choice", choice=choice)]
    problems = _once_problems(state, actor, "swift_recovery")
    if problems:
        return problems
    entry = state.army(actor)
    if choice == "hp" and entry.hp >= entry.army.max_hp:
        return [_p("nothing_to_recover", choice=choice)]
    if choice == "weary" and not entry.army.spec.condition_values.get("weary"):
        return [_p("nothing_to_recover", choice=choice)]
    return []


def _swift_recovery(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§6.2 Swift Recovery (First World Army, 2 actions, once per battle): regain 2 HP
    (`choice` "hp") or reduce its (lasting) weary by 2 (`choice` "weary")."""
    choice = params["choice"]
    state = _spend(state, actor, "swift_recovery")
    ctx.events.append(Event("battle.swift_recovery_used", {"army": actor, "choice": choice}))
    if choice == "hp":
        return heal_army(state, actor, SWIFT_RECOVERY["hp"], ctx.events, "swift_recovery")
    return reduce_army_condition(
        state, actor, "weary", SWIFT_RECOVERY["weary"], ctx.events, "swift_recovery"
    )


# §6.2 Battlefield Adaptability: choice -> the effect it gives until the start of its next turn.
ADAPTABILITY_EFFECTS = {
    "ignore_difficult_terrain": "ignores_difficult_terrain",
    "mired": "mired_suppressed",
    "concealed": "concealed",
    "advance_disengage": "advance_disengage_bonus",
}


def _adaptability_candidates(state: BattleState, actor: str) -> list[dict[str, Any]]:
    return [{"choice": choice} for choice in ADAPTABILITY_EFFECTS]


def _adaptability_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    """Each choice only when it changes something: difficult terrain it does not already
    ignore, some mired, not yet concealed, not yet +2."""
    choice = params.get("choice")
    if choice not in ADAPTABILITY_EFFECTS:
        return [_p("bad_choice", choice=choice)]
    useless = {
        "ignore_difficult_terrain": "difficult_terrain" not in state.terrain
        or ignores(state, actor, "difficult_terrain"),
        "mired": not condition_value(state, actor, "mired"),
        "concealed": "concealed" in conditions_of(state, actor),
        "advance_disengage": has_effect(state, actor, "advance_disengage_bonus"),
    }
    return [_p("no_effect", choice=choice)] if useless[choice] else []


def _battlefield_adaptability(state: BattleState, actor: str, params: Params, ctx: Ctx):
    """§6.2 Battlefield Adaptability (First World Army, 1 action): until the start of its
    next turn, one `choice`: ignore ground-based difficult terrain; mired reduced to 0 (by
    house default it counts as 0 until then, else it ends for good); concealed (§9: +2
    circumstance Maneuver, attacks on it -2); or +2 circumstance to Maneuver checks to Advance
    and Disengage."""
    choice = params["choice"]
    ctx.events.append(Event("battle.adaptability_chosen", {"army": actor, "choice": choice}))
    if choice == "mired" and house_value("battlefield_adaptability.mired_removed"):
        ended = [e for e in state.effects if e.army == actor and e.condition == "mired"]
        keep = [e for e in state.effects if not any(e is x for x in ended)]
        state = end_effects(state, keep, ended, ctx.events)
        return remove_army_condition(state, actor, "mired", ctx.events, "battlefield_adaptability")
    value = ADAPTABILITY_BONUS if choice == "advance_disengage" else 1
    effect = _effect(f"battlefield_adaptability.{choice}", actor, ADAPTABILITY_EFFECTS[choice],
                     actor, value=value)  # fmt: skip
    return add_effect(state, effect, ctx.events)


# §6.2 Primal Magic: the d10 table (lowest roll of each row, row).
PRIMAL_MAGIC_TABLE = (
    (1, "entangling_vines"),
    (3, "horrific_visions"),
    (5, "primal_storm"),
    (7, "sensory_assault"),
    (9, "overwhelming_magic"),
)
OVERWHELMING_PENALTY = -4  # §6.2 Overwhelming Magic: the Morale check took -4 circumstance


def primal_magic_row(roll: int) -> str:
    """The §6.2 Primal Magic row of a d10 result."""
    return [row for low, row in PRIMAL_MAGIC_TABLE if roll >= low][-1]


def _primal_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    if state.engaged_with(actor):
        return [_p("engaged")]
    return _enemy_problems(state, actor, params.get("target"))


def _primal_magic(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§6.2 Primal Magic (First World Army, 2 actions, not engaged): Morale vs the target's
    Morale DC; on a success roll a d10 (the effect is stronger on a critical success):
    1-2 Entangling Vines, mired +1 (+2); 3-4 Horrific Visions, shaken +1 (+2); 5-6 Primal
    Storm, 1 damage (2) and the target is in strong wind and rain until the end of its next
    turn; 7-8 Sensory Assault, -2 circumstance to its attacks and Maneuver checks until the
    end of its next turn; 9-10 Overwhelming Magic: the Morale check is taken again with -4
    circumstance (same die, so the degree may drop, even to no effect at all), and if it
    still succeeds two more d10s are rolled (a 9-10 among them rerolled by house default)
    and both rows apply at the new degree."""
    target = params["target"]
    modifier, dc = morale(state, actor), morale_dc(state, target)
    rolled = roll_check(ctx.dice, "morale", modifier, dc, purpose="primal_magic", against=target)
    _event(ctx, "primal_magic", actor, rolled.degree, rolled, target=target)
    degree = rolled.degree
    if not degree.succeeded:
        return state
    roll = ctx.dice.roll(10, purpose="primal_magic")
    rows = [(roll, primal_magic_row(roll))]
    if rows[0][1] == "overwhelming_magic":
        lowered = extend(modifier, [Modifier("primal_magic.overwhelming_magic",
                                             OVERWHELMING_PENALTY, CIRCUMSTANCE)])  # fmt: skip
        die = rolled.record["die"]
        degree = degree_of_success(die + lowered.value, dc.value, die)
        record = {**rolled.record, "modifier": lowered.value, "total": die + lowered.value,
                  "modifier_breakdown": [list(t) for t in lowered.breakdown],
                  "rolled": degree.code, "degree": degree.code}  # fmt: skip
        ctx.events.append(
            Event("battle.overwhelming_magic", {"army": actor, "target": target, "roll": roll,
                                                "check": record, "degree": degree.code,
                                                "total": record["total"], "dc": dc.value})
        )  # fmt: skip
        if not degree.succeeded:
            return state
        rows = []
        while len(rows) < 2:
            extra = ctx.dice.roll(10, purpose="primal_magic")
            row = primal_magic_row(extra)
            if row != "overwhelming_magic":
                rows.append((extra, row))
            elif not house_value("primal_magic.reroll_overwhelming"):
                rows.append((extra, "none"))
    ctx.morale_successes.append((actor, target, "primal_magic"))
    for roll, row in rows:
        state = _primal_effect(state, actor, target, roll, row, degree is CS, ctx)
    return state


def _primal_effect(
    state: BattleState, actor: str, target: str, roll: int, row: str, critical: bool, ctx: Ctx
) -> BattleState:
    """One Primal Magic row on `target` (see `_primal_magic`)."""
    ctx.events.append(
        Event("battle.primal_magic_effect", {"army": target, "by": actor, "roll": roll,
                                             "effect": row, "critical": critical})
    )  # fmt: skip
    entry = state.army(target)
    if not entry.present:
        return state
    value = 2 if critical else 1
    reason = f"primal_magic.{row}"
    if row == "entangling_vines":
        return add_army_condition(state, target, "mired", value, ctx.events, reason)
    if row == "horrific_visions":
        return add_army_condition(state, target, "shaken", value, ctx.events, reason)
    if row == "primal_storm":
        state = damage(state, target, value, ctx.dice, ctx.events, reason)
        entry = state.army(target)
        if not entry.present or entry.defeated:
            return state
        effect = _effect(reason, target, "primal_storm", target, by=actor, boundary=TURN_END)
        return add_effect(state, effect, ctx.events)
    if row == "sensory_assault":
        effect = _effect(reason, target, "sensory_assault", target,
                         value=-SENSORY_ASSAULT_PENALTY, by=actor, boundary=TURN_END)  # fmt: skip
        return add_effect(state, effect, ctx.events)
    return state


def _maneuver_preview(state: BattleState, actor: str, params: Params) -> tuple[CheckPreview, ...]:
    target = params["target"]
    return (_preview("maneuver", maneuver(state, actor), maneuver_dc(state, target), target),)


def _simple_problems(state: BattleState, actor: str, params: Params) -> list[Problem]:
    return []


def _no_candidates_but_self(state: BattleState, actor: str) -> list[dict[str, Any]]:
    return [{}]


WAR_ACTIONS: dict[str, WarAction] = {
    action.key: action
    for action in (
        WarAction("advance", 1, (MANEUVER,), _advance_candidates, _advance_problems,
                  _advance_preview, _advance, ("potion",)),
        WarAction("battle", 1, (ATTACK,), _battle_candidates, _battle_problems,
                  _battle_preview, _battle, ("explosive_target", "net")),
        WarAction("disengage", 2, (MANEUVER,), _disengage_candidates, _disengage_problems,
                  _disengage_preview, _disengage, ("order", "potion")),
        WarAction("guard", 1, (MANEUVER,), _enemy_target_candidates, _guard_problems,
                  _guard_preview, _guard, ("potion",)),
        WarAction("rally", 2, (MORALE,), _rally_candidates, _rally_problems,
                  _rally_preview, _rally),
        WarAction("retreat", 3, (), _no_candidates_but_self, _retreat_problems, _no_preview,
                  _retreat),
        WarAction("all_out_assault", 2, (ATTACK,), _melee_candidates, _melee_problems,
                  _strike_preview, _all_out_assault),
        WarAction("battlefield_medicine", 3, (), _medicine_candidates, _medicine_problems,
                  _medicine_preview, _battlefield_medicine),
        WarAction("covering_fire", 2, (ATTACK,), _covering_candidates, _covering_problems,
                  _strike_preview, _covering_fire, ("explosive_target",)),
        WarAction("defensive_stance", 2, (MANEUVER,), _stance_candidates, _stance_problems,
                  _stance_preview, _defensive_stance, ("potion",)),
        WarAction("dirty_fighting", 1, (ATTACK,), _dirty_candidates, _dirty_problems,
                  _strike_preview, _dirty_fighting, ("explosive_target",)),
        WarAction("feint", 1, (MANEUVER,), _enemy_target_candidates, _feint_problems,
                  _maneuver_preview, _feint, ("potion",)),
        WarAction("outflank", 2, (MANEUVER,), _enemy_target_candidates, _outflank_problems,
                  _maneuver_preview, _outflank, ("engage", "potion")),
        WarAction("overwhelming_bombardment", 2, (ATTACK,), _bombard_candidates,
                  _bombard_problems, _strike_preview, _overwhelming_bombardment,
                  ("armies", "extra")),
        WarAction("taunt", 1, (MORALE,), _enemy_target_candidates, _rally_problems,
                  _taunt_preview, _taunt),
        WarAction("reactive_rally", 3, (MORALE,), _enemy_target_candidates,
                  _reactive_rally_problems, _rally_preview, _reactive_rally),
        WarAction("trample", 3, (ATTACK,), _melee_candidates, _melee_problems,
                  _strike_preview, _trample),
        WarAction("trampling_charge", 3, (MANEUVER,), _trampling_candidates,
                  _trampling_problems, _maneuver_preview, _trampling_charge),
        WarAction("furious_charge", 1, (MANEUVER,), _furious_candidates, _furious_problems,
                  _advance_preview, _furious_charge, ("strike", "potion")),
        WarAction("swift_recovery", 2, (), _swift_candidates, _swift_problems, _no_preview,
                  _swift_recovery),
        WarAction("battlefield_adaptability", 1, (), _adaptability_candidates,
                  _adaptability_problems, _no_preview, _battlefield_adaptability),
        WarAction("primal_magic", 2, (), _enemy_target_candidates, _primal_problems,
                  _morale_preview, _primal_magic),
    )
}  # fmt: skip


def traits_of(key: str) -> tuple[str, ...]:
    if key == "feint":
        return _feint_traits()
    return WAR_ACTIONS[key].traits


def retreat_cost() -> int:
    return house_value("battle.retreat_cost")


def cost_of(key: str) -> int:
    if key == "retreat":
        return retreat_cost()
    return WAR_ACTIONS[key].cost
