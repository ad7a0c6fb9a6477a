"""Resolving a planned Army activity: roll, find the degree, apply §4.1-§4.8.

`resolve_activity(plan, army, kingdom, dice, typed_die=None)` returns an `ActivityOutcome`
(new army, new kingdom, events, the check as data, and what a battle setup or another army
must pick up) or a list of `Problem`s. Every die goes through `dice` and lands in `dice.log`;
a die the player rolled at the table is passed as `typed_die` and logged with source "typed".
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from warfare.engine.checks import Degree, check, flat_check, improve
from warfare.engine.dice import Dice, TypedDice, typed_value_problem
from warfare.engine.problems import Problem
from warfare.engine.systems.pf2e.activities.events import Event
from warfare.engine.systems.pf2e.activities.plan import (
    ACTIVITIES,
    ActivityPlan,
    _may_act,
    gear_from_dict,
    slot_key,
)
from warfare.engine.systems.pf2e.activities.state import (
    DISBANDED,
    NO_GARRISON_TIMER,
    UNTIL_DEPLOYED,
    UNTIL_NEXT_TURN,
    ArmyState,
    KingdomState,
    add_condition,
    destroyed_army,
    end_garrison,
    heal,
    new_army_state,
    reduce_condition,
    remove_condition,
)
from warfare.engine.systems.pf2e.activities.structures import (
    DEPLOY,
    DISBAND,
    GAMBIT,
    GARRISON,
    OUTFIT,
    RECOVER,
    RECRUIT,
    TRAIN,
)
from warfare.engine.systems.pf2e.armies import spec_from_dict
from warfare.engine.systems.pf2e.gear import GearChoice
from warfare.engine.systems.pf2e.house_rules import house_value
from warfare.engine.systems.pf2e.modifiers import Stat

CS, S, F, CF = Degree.CRIT_SUCCESS, Degree.SUCCESS, Degree.FAILURE, Degree.CRIT_FAILURE

DEPLOY_FAILURE_FLAT_DC = 6  # §4.2
DEPLOY_CRIT_FAILURE_FLAT_DC = 11  # §4.2
DEFEATED_DAMAGE_FLAT_DC = 16  # §9 Defeated
GARRISON_LOCKOUT_TURNS = 4  # §4.4
GAMBIT_INITIATIVE = 2  # §4.5
GAMBIT_ENEMY_INITIATIVE = 4  # §4.5
Term = tuple[str, int]


@dataclass(frozen=True)
class ActivityCheck:
    """The rolled check, as a log shows it."""

    skill: str | None
    die: int
    source: str
    """"seeded", "scripted" or "typed"."""
    modifier: Stat
    dc: Stat
    total: int
    rolled: Degree
    """Degree from the total and the natural 20/1."""
    adjustments: tuple[Term, ...]
    """Improvements applied after that (e.g. ("deploy.road", 1))."""
    degree: Degree

    def to_dict(self) -> dict[str, Any]:
        return {
            "skill": self.skill,
            "die": self.die,
            "source": self.source,
            "modifier": self.modifier.to_dict(),
            "dc": self.dc.to_dict(),
            "total": self.total,
            "rolled": self.rolled.code,
            "adjustments": [list(term) for term in self.adjustments],
            "degree": self.degree.code,
        }


@dataclass(frozen=True)
class ActivityOutcome:
    """What one activity did.

    `army`: the acting army afterwards (Recruit Army: the new army, or None if none was
    recruited). `initiative_modifiers` / `enemy_effects`: Offensive Gambit results the battle
    setup reads ({army key: circumstance bonus}; [{"army", "condition", "value"}]).
    `transferred_gear` / `transfer_to`: gear a disbanded army hands to another army (add it
    with `upkeep.receive_gear`).
    """

    activity: str
    army: ArmyState | None
    kingdom: KingdomState
    events: tuple[Event, ...]
    check: ActivityCheck | None
    degree: Degree | None
    initiative_modifiers: Mapping[Any, int] = field(default_factory=dict)
    enemy_effects: tuple[Mapping[str, Any], ...] = ()
    transferred_gear: tuple[GearChoice, ...] = ()
    transfer_to: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "activity": self.activity,
            "army": self.army.to_dict() if self.army else None,
            "kingdom": self.kingdom.to_dict(),
            "events": [event.to_dict() for event in self.events],
            "check": self.check.to_dict() if self.check else None,
            "degree": self.degree.code if self.degree is not None else None,
            "initiative_modifiers": [
                [key, value] for key, value in self.initiative_modifiers.items()
            ],
            "enemy_effects": [dict(effect) for effect in self.enemy_effects],
            "transferred_gear": [
                {
                    "key": c.key,
                    "tier": c.tier,
                    "weapon": c.weapon.value if c.weapon else None,
                    "doses": c.doses,
                    "source": c.source.value,
                }
                for c in self.transferred_gear
            ],
            "transfer_to": self.transfer_to,
        }


@dataclass
class _Work:
    """Mutable scratch state while one activity is applied (never leaves this module)."""

    plan: ActivityPlan
    army: ArmyState | None
    kingdom: KingdomState
    dice: Dice
    degree: Degree | None
    events: list[Event] = field(default_factory=list)
    initiative: dict[Any, int] = field(default_factory=dict)
    enemy_effects: list[dict[str, Any]] = field(default_factory=list)
    transferred: tuple[GearChoice, ...] = ()
    transfer_to: Any = None

    @property
    def reason(self) -> str:
        degree = self.degree.code if self.degree is not None else "no_check"
        return f"{self.plan.activity}.{degree}"


def resolve_activity(
    plan: ActivityPlan,
    army: ArmyState | None,
    kingdom: KingdomState,
    dice: Dice,
    *,
    typed_die: int | str | None = None,
) -> ActivityOutcome | list[Problem]:
    """Roll `plan`'s check (or use `typed_die`) and apply its degree of success (§4)."""
    if plan.activity not in ACTIVITIES:
        return [Problem("activity.unknown", {"activity": plan.activity})]
    if plan.activity != RECRUIT:
        if army is None or army.key != plan.army:
            return [Problem("activity.wrong_army", {"expected": plan.army})]
        problems = _may_act(plan.activity, army, plan.options)
        if problems:
            return problems
    if plan.cost_rp > kingdom.rp:
        return [Problem("kingdom.not_enough_rp", {"needed": plan.cost_rp, "rp": kingdom.rp})]
    if typed_die is not None:
        if not plan.needs_check:
            return [Problem("activity.no_check", {"activity": plan.activity})]
        problem = typed_value_problem(typed_die, 20)
        if problem is not None:
            return [problem]

    rolled = _roll(plan, dice, typed_die) if plan.needs_check else None
    work = _Work(plan, army, kingdom, dice, rolled.degree if rolled else None)
    work.events.append(
        Event(
            "activity.resolved",
            {
                "activity": plan.activity,
                "army": plan.army,
                "skill": plan.skill,
                "degree": work.degree.code if work.degree is not None else None,
                "second_activity": plan.second_activity,
            },
        )
    )
    if work.army is not None:
        work.army = replace(work.army, activities_this_turn=work.army.activities_this_turn + 1)
        if plan.second_activity:
            work.army = remove_condition(work.army, "efficient", work.events, "second_activity")
    _APPLY[plan.activity](work)
    return ActivityOutcome(
        activity=plan.activity,
        army=work.army,
        kingdom=work.kingdom,
        events=tuple(work.events),
        check=rolled,
        degree=work.degree,
        initiative_modifiers=dict(work.initiative),
        enemy_effects=tuple(work.enemy_effects),
        transferred_gear=work.transferred,
        transfer_to=work.transfer_to,
    )


def _roll(plan: ActivityPlan, dice: Dice, typed_die: int | str | None) -> ActivityCheck:
    assert plan.modifier is not None and plan.dc is not None
    purpose = f"activity.{plan.activity}"
    if typed_die is not None:
        typed = TypedDice([int(str(typed_die).strip())])
        result = check(typed, plan.modifier, plan.dc.value, purpose=purpose)
        dice.log.extend(typed.log)
    else:
        result = check(dice, plan.modifier, plan.dc.value, purpose=purpose)
    degree = result.degree
    for _code, steps in plan.improve:
        degree = improve(degree, steps)
    return ActivityCheck(
        skill=plan.skill,
        die=result.die,
        source=dice.log[-1].source,
        modifier=plan.modifier,
        dc=plan.dc,
        total=result.total,
        rolled=result.degree,
        adjustments=plan.improve,
        degree=degree,
    )


# --- shared effects -----------------------------------------------------------------------------


def change_unrest(
    kingdom: KingdomState,
    by: int,
    events: list[Event],
    reason: str,
    roll: list[int] | None = None,
) -> KingdomState:
    now = max(0, kingdom.unrest + by)
    params: dict[str, Any] = {"by": by, "now": now, "reason": reason}
    if roll is not None:
        params["roll"] = roll
    events.append(Event("kingdom.unrest", params))
    return replace(kingdom, unrest=now)


def roll_unrest(
    kingdom: KingdomState, expression: str, dice: Dice, events: list[Event], reason: str
) -> KingdomState:
    """Unrest +NdS, rolled with `dice` (e.g. +1d4 on Deploy Army crit failure)."""
    roll = dice.roll_expr(expression, purpose=f"unrest.{reason}")
    return change_unrest(kingdom, roll.total, events, reason, list(roll.results))


def add_ruin(kingdom: KingdomState, ruin: str, events: list[Event], reason: str) -> KingdomState:
    ruins = dict(kingdom.ruins)
    ruins[ruin] = ruins.get(ruin, 0) + 1
    events.append(
        Event("kingdom.ruin", {"ruin": ruin, "by": 1, "now": ruins[ruin], "reason": reason})
    )
    return replace(kingdom, ruins=ruins)


def _gain_efficient(work: _Work) -> None:
    """Critical success grants efficient, except on the efficient second activity (§9)."""
    assert work.army is not None
    if work.plan.second_activity:
        work.events.append(Event("army.efficient_withheld", {"army": work.army.key}))
        return
    work.army = add_condition(work.army, "efficient", 1, work.events, work.reason)


def _flat(work: _Work, dc: int, purpose: str) -> bool:
    assert work.army is not None
    result = flat_check(work.dice, dc, purpose=purpose)
    work.events.append(
        Event(
            "army.flat_check",
            {
                "army": work.army.key,
                "dc": dc,
                "die": result.die,
                "passed": result.succeeded,
                "purpose": purpose,
            },
        )
    )
    return result.succeeded


def _lose_hp(work: _Work, by: int) -> None:
    """HP -`by`; at 0 the army is defeated; a defeated army that takes damage attempts a
    DC 16 flat check or is destroyed (§9)."""
    army = work.army
    assert army is not None
    if army.defeated:
        if not _flat(work, DEFEATED_DAMAGE_FLAT_DC, "defeated_damaged"):
            _destroy(work)
        return
    now = max(0, army.hp - by)
    work.events.append(
        Event(
            "army.hp_lost",
            {"army": army.key, "by": army.hp - now, "now": now, "reason": work.reason},
        )
    )
    army = replace(army, hp=now)
    if now == 0:
        army = add_condition(army, "defeated", 1, work.events, work.reason)
    work.army = army


def _destroy(work: _Work) -> None:
    assert work.army is not None
    work.events.append(Event("army.destroyed", {"army": work.army.key, "reason": work.reason}))
    work.army = destroyed_army(work.army)


# --- 4.1 Recruit Army ---------------------------------------------------------------------------


def _recruit(work: _Work) -> None:
    options = work.plan.options
    if work.degree in (CS, S):
        spec = spec_from_dict(options["spec"])
        army = new_army_state(options.get("key"), spec, options["hex"])
        work.events.append(
            Event(
                "army.recruited",
                {
                    "army": army.key,
                    "type": spec.type.value,
                    "specialized": spec.specialized,
                    "level": spec.level,
                    "hex": army.hex,
                    "tactics": list(spec.tactics),
                },
            )
        )
        work.army = army
        if work.degree is CS:
            _gain_efficient(work)
        return
    work.army = None
    if work.degree is CF:
        work.kingdom = change_unrest(work.kingdom, 1, work.events, work.reason)
        until = work.kingdom.turn + 1
        work.kingdom = replace(work.kingdom, recruit_blocked_until_turn=until)
        work.events.append(Event("kingdom.recruit_blocked", {"until_turn": until}))


# --- 4.2 Deploy Army ----------------------------------------------------------------------------


def _deploy(work: _Work) -> None:
    assert work.army is not None
    options, degree = work.plan.options, work.degree
    work.army = end_garrison(work.army, work.events)
    if options.get("forced_march"):
        weary = 1 if degree in (CS, S) else 2
        work.army = add_condition(
            work.army, "weary", weary, work.events, "deploy_army.forced_march"
        )
    if degree is CF:
        work.army = add_condition(work.army, "lost", 1, work.events, work.reason)
        work.kingdom = roll_unrest(work.kingdom, "1d4", work.dice, work.events, work.reason)
        if not _flat(work, DEPLOY_CRIT_FAILURE_FLAT_DC, "deploy_army.critical_failure"):
            _lose_hp(work, 1)
        return
    origin = work.army.hex
    work.army = replace(work.army, hex=options["destination"])
    work.events.append(
        Event("army.moved", {"army": work.army.key, "from": origin, "to": options["destination"]})
    )
    if degree is CS:
        _gain_efficient(work)
    elif degree is F:
        work.army = add_condition(work.army, "weary", 1, work.events, work.reason)
        if not _flat(work, DEPLOY_FAILURE_FLAT_DC, "deploy_army.failure"):
            _lose_hp(work, 1)


# --- 4.3 Disband Army ---------------------------------------------------------------------------


def _disband(work: _Work) -> None:
    assert work.army is not None
    army = work.army
    gear = tuple(gear_from_dict(item) for item in work.plan.options.get("gear", ()))
    recipient = work.plan.options.get("transfer_to")
    kept = tuple(c for c in army.spec.gear if slot_key(c) not in {slot_key(g) for g in gear})
    if gear:
        for choice in gear:
            work.events.append(
                Event(
                    "army.gear_transferred",
                    {"from": army.key, "to": recipient, "gear": slot_key(choice)},
                )
            )
        work.transferred, work.transfer_to = gear, recipient
    if kept:
        work.events.append(
            Event("army.gear_lost", {"army": army.key, "gear": [slot_key(c) for c in kept]})
        )
    army = end_garrison(army, work.events)
    work.army = replace(army, status=DISBANDED, spec=replace(army.spec, gear=()), potion_doses=0)
    work.events.append(Event("army.disbanded", {"army": army.key, "forced": False}))


# --- 4.4 Garrison Army --------------------------------------------------------------------------


def _garrison(work: _Work) -> None:
    assert work.army is not None
    degree, army = work.degree, work.army
    if degree is CF:
        army = end_garrison(army, work.events)
        until = work.kingdom.turn + GARRISON_LOCKOUT_TURNS + 1
        timers = army.timer_values
        timers[NO_GARRISON_TIMER + army.hex] = until
        work.army = replace(army, timers=timers)
        work.events.append(
            Event("army.garrison_locked", {"army": army.key, "hex": army.hex, "until_turn": until})
        )
        work.kingdom = change_unrest(work.kingdom, 1, work.events, work.reason)
        return
    until = UNTIL_NEXT_TURN if degree is F else UNTIL_DEPLOYED
    cut = degree is CS
    army = add_condition(army, "fortified", 1, work.events, work.reason)
    work.army = replace(army, garrison=until, garrison_consumption_cut=cut)
    work.events.append(
        Event("army.garrisoned", {"army": army.key, "until": until, "consumption_cut": cut})
    )


# --- 4.5 Offensive Gambit -----------------------------------------------------------------------


def _gambit(work: _Work) -> None:
    options, degree = work.plan.options, work.degree
    if degree in (CS, S):
        for key in options["own_armies"]:
            work.initiative[key] = GAMBIT_INITIATIVE
    if degree is CF:
        for key in options["enemy_armies"]:
            work.initiative[key] = GAMBIT_ENEMY_INITIATIVE
    if degree is CS:
        work.enemy_effects.append(
            {"army": options["shaken_target"], "condition": "shaken", "value": 1}
        )
        work.events.append(
            Event("gambit.enemy_shaken", {"army": options["shaken_target"], "value": 1})
        )
    for key, bonus in work.initiative.items():
        work.events.append(Event("gambit.initiative", {"army": key, "bonus": bonus}))
    work.events.append(
        Event(
            "war.encounter_pending",
            {
                "hex": options["hex"],
                "armies": list(options["own_armies"]),
                "enemies": list(options["enemy_armies"]),
            },
        )
    )


# --- 4.6 Outfit Army ----------------------------------------------------------------------------


def _outfit(work: _Work) -> None:
    assert work.army is not None
    options, degree, cost = work.plan.options, work.degree, work.plan.cost_rp
    kingdom = work.kingdom
    if cost:
        kingdom = replace(kingdom, rp=kingdom.rp - cost)
        work.events.append(
            Event("kingdom.rp_spent", {"by": cost, "now": kingdom.rp, "reason": "outfit_army"})
        )
    if degree is F and cost:
        kingdom = replace(kingdom, rp=kingdom.rp + cost)
        work.events.append(
            Event("kingdom.rp_refunded", {"by": cost, "now": kingdom.rp, "reason": work.reason})
        )
    work.kingdom = kingdom
    if degree not in (CS, S):
        return
    army = work.army
    new = gear_from_dict(options["gear"])
    old = gear_from_dict(options["replaces"]) if options.get("replaces") else None
    gear = [c for c in army.spec.gear if old is None or slot_key(c) != slot_key(old)]
    gear.append(new)
    params = {
        "army": army.key,
        "gear": slot_key(new),
        "tier": new.tier,
        "doses": new.doses,
        "source": new.source.value,
    }
    if old is not None and new.key != "healing_potions":
        work.events.append(Event("army.gear_replaced", {**params, "old_tier": old.tier}))
    else:
        work.events.append(Event("army.gear_added", params))
    doses = new.doses if new.key == "healing_potions" else army.potion_doses
    work.army = replace(army, spec=replace(army.spec, gear=tuple(gear)), potion_doses=doses)
    if degree is CS:
        _gain_efficient(work)


# --- 4.7 Recover Army ---------------------------------------------------------------------------


def _recover(work: _Work) -> None:
    assert work.army is not None
    options, degree = work.plan.options, work.degree
    affliction = options["affliction"]
    if degree is CF:
        work.kingdom = change_unrest(work.kingdom, 1, work.events, work.reason)
        if affliction == "defeated":
            _destroy(work)
        return
    if degree is F:
        work.events.append(
            Event("activity.no_effect", {"activity": RECOVER, "army": work.army.key})
        )
        return
    steps = 2 if degree is CS else 1
    army = work.army
    if affliction == "damaged":
        army = heal(army, steps, work.events, work.reason)
    elif affliction == "defeated":
        hp = (
            house_value("recover_army.defeated_hp_critical_success")
            if degree is CS
            else house_value("recover_army.defeated_hp_success")
        )
        army = heal(army, hp - army.hp, work.events, work.reason)
    elif affliction == "lost":
        army = remove_condition(army, "lost", work.events, work.reason)
        new_hex = options.get("new_hex")
        if new_hex:
            work.events.append(
                Event("army.moved", {"army": army.key, "from": army.hex, "to": new_hex})
            )
            army = replace(army, hex=new_hex)
    elif affliction == "pinned":
        army = remove_condition(army, "pinned", work.events, work.reason)
    else:
        army = reduce_condition(army, affliction, steps, work.events, work.reason)
    work.army = army


# --- 4.8 Train Army -----------------------------------------------------------------------------


def _train(work: _Work) -> None:
    assert work.army is not None
    options, degree, army = work.plan.options, work.degree, work.army
    if degree is CF:
        work.army = add_condition(army, "weary", 1, work.events, work.reason)
        return
    if degree is F:
        work.events.append(Event("activity.no_effect", {"activity": TRAIN, "army": army.key}))
        return
    tactics = list(army.spec.tactics)
    if options.get("replace"):
        tactics.remove(options["replace"])
    tactics.append(options["tactic"])
    work.army = replace(army, spec=replace(army.spec, tactics=tuple(tactics)))
    work.events.append(
        Event(
            "army.tactic_learned",
            {"army": army.key, "tactic": options["tactic"], "replaced": options.get("replace")},
        )
    )
    if degree is CS:
        _gain_efficient(work)


_APPLY = {
    RECRUIT: _recruit,
    DEPLOY: _deploy,
    DISBAND: _disband,
    GARRISON: _garrison,
    GAMBIT: _gambit,
    OUTFIT: _outfit,
    RECOVER: _recover,
    TRAIN: _train,
}
