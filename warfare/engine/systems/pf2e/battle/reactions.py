"""Reactions used automatically when triggered (§0.5, §8.2): Counterattack and False Retreat.

The issue allows a reaction to be "used automatically if the controller chose so": each side
has the setup flag `"auto_reactions"` (default true). Offering the reaction to the controller
(a prompt in the middle of another army's action) is NOT built: with the flag off the
reaction is simply not taken (logged as `battle.reaction_blocked`, reason
"auto_reactions_off").

* 1 reaction per round per army (§0.5 [inferred]); it comes back at the start of the army's
  own turn (the PF2e default the reference infers it from).
* Only armies whose stat block lists the reaction (Flexible Tactics, or a unique tactic
  granting it, §6.2) react; defeated armies and armies off the field never do.
* "no_maneuver_reactions" (Covering Fire, §8.2) blocks reactions triggered by maneuver war
  actions (Counterattack); "no_reactions" (False Retreat critical success, §8.2) blocks all.

Events: `battle.counterattack` / `battle.false_retreat` (army = the reacting army, target,
trigger, degree, check), `battle.reaction_blocked` (army, reaction, reason),
`battle.action_interrupted` (the triggering army can no longer act after the reactions).
"""

from dataclasses import replace

from warfare.engine.dice import Dice
from warfare.engine.systems.pf2e.activities.events import Event
from warfare.engine.systems.pf2e.battle.actions import (
    MELEE,
    _effect,
    _enemy_problems,
    strike_dc,
    strike_modifier,
)
from warfare.engine.systems.pf2e.battle.rules import (
    CF,
    CS,
    HIT_DAMAGE,
    S,
    add_army_condition,
    add_effect,
    damage,
    effective_block,
    morale,
    morale_dc,
    roll_check,
    strike_riders,
)
from warfare.engine.systems.pf2e.battle.state import BattleState

COUNTERATTACK, FALSE_RETREAT = "counterattack", "false_retreat"
NO_REACTIONS, NO_MANEUVER_REACTIONS = "no_reactions", "no_maneuver_reactions"


def _blocked_reason(state: BattleState, key: str, reaction: str, by_maneuver: bool) -> str | None:
    """Why army `key` cannot take `reaction` now (None: it can)."""
    entry = state.army(key)
    if not entry.auto_reactions:
        return "auto_reactions_off"
    if entry.reaction_used:
        return "reaction_used"
    blocking = {NO_REACTIONS, NO_MANEUVER_REACTIONS} if by_maneuver else {NO_REACTIONS}
    for effect in state.effects:
        if effect.army == key and effect.condition in blocking:
            return effect.condition
    return None


def _may_react(state: BattleState, key: str, reaction: str) -> bool:
    entry = state.army(key)
    if not entry.present or entry.defeated:
        return False
    return reaction in effective_block(state, key).war_actions


def _use_reaction(state: BattleState, key: str) -> BattleState:
    return state.with_army(replace(state.army(key), reaction_used=True))


def _blocked(events: list[Event], key: str, reaction: str, reason: str, trigger: str) -> None:
    events.append(
        Event("battle.reaction_blocked", {"army": key, "reaction": reaction, "reason": reason,
                                          "trigger": trigger})
    )  # fmt: skip


# --- Counterattack -------------------------------------------------------------------------------


def counterattacks(
    state: BattleState, actor: str, action: str, dice: Dice, events: list[Event]
) -> BattleState:
    """§8.2 Counterattack, trigger: an army engaged with you attempts a maneuver war action.

    Each engaged enemy that may react (in key order) makes a melee Strike vs the triggering
    army's AC; no MAP, and it does not count toward MAP (§0.4). CS 1 damage and the target's
    shaken +1; S 1 damage; F / CF nothing. Stops once the triggering army is down."""
    for key in state.engaged_with(actor):
        entry = state.army(actor)
        if not entry.present or entry.defeated:
            break
        if not _may_react(state, key, COUNTERATTACK):
            continue
        if effective_block(state, key).melee is None:
            continue
        reason = _blocked_reason(state, key, COUNTERATTACK, by_maneuver=True)
        if reason is not None:
            _blocked(events, key, COUNTERATTACK, reason, action)
            continue
        state = _use_reaction(state, key)
        # No MAP: the modifier is computed as if it were the army's first attack.
        clean = state.with_army(replace(state.army(key), attacks=()))
        modifier = strike_modifier(clean, key, MELEE, target=actor)
        dc = strike_dc(state, key, MELEE, target=actor)
        rolled = roll_check(dice, MELEE, modifier, dc, purpose=COUNTERATTACK, against=actor)
        events.append(
            Event("battle.counterattack", {"army": key, "target": actor, "trigger": action,
                                           "degree": rolled.degree.code,
                                           "check": rolled.record})
        )  # fmt: skip
        if rolled.degree in (CS, S):
            state = damage(state, actor, HIT_DAMAGE, dice, events, COUNTERATTACK)
            if rolled.degree is CS and state.army(actor).present:
                state = add_army_condition(state, actor, "shaken", 1, events, COUNTERATTACK)
            critical = rolled.degree is CS
            state = strike_riders(
                state, key, actor, weapon=MELEE, critical=critical, damaged=True, dice=dice,
                events=events,
            )  # fmt: skip
    return state


def can_continue(state: BattleState, actor: str) -> bool:
    """The triggering army can still act after the reactions (present, not defeated)."""
    entry = state.army(actor)
    return entry.present and not entry.defeated


# --- False Retreat -------------------------------------------------------------------------------


def _false_retreat_target(state: BattleState, key: str, against: str | None) -> str | None:
    """The target chosen automatically: the enemy the triggering Morale check was against,
    else the first present enemy in initiative order."""
    if against is not None and not _enemy_problems(state, key, against):
        return against
    for other in state.order:
        if state.army(other).side != state.army(key).side and not _enemy_problems(
            state, key, other
        ):
            return other
    return None


def false_retreat(
    state: BattleState,
    key: str,
    against: str | None,
    trigger: str,
    dice: Dice,
    events: list[Event],
) -> BattleState:
    """§8.2 False Retreat, trigger: your army succeeds at a Morale check (success or critical
    success). Morale vs the target's Morale DC. CS target outflanked and cannot take
    reactions until the start of your next turn; S target outflanked until the start of its
    next turn; F nothing; CF your army outflanked until the start of your next turn."""
    if not _may_react(state, key, FALSE_RETREAT):
        return state
    reason = _blocked_reason(state, key, FALSE_RETREAT, by_maneuver=False)
    if reason is not None:
        _blocked(events, key, FALSE_RETREAT, reason, trigger)
        return state
    target = _false_retreat_target(state, key, against)
    if target is None:
        return state
    state = _use_reaction(state, key)
    rolled = roll_check(
        dice, "morale", morale(state, key), morale_dc(state, target), purpose=FALSE_RETREAT,
        against=target,
    )  # fmt: skip
    events.append(
        Event("battle.false_retreat", {"army": key, "target": target, "trigger": trigger,
                                       "degree": rolled.degree.code, "check": rolled.record})
    )  # fmt: skip
    if rolled.degree is CS:
        for condition in ("outflanked", NO_REACTIONS):
            effect = _effect(f"false_retreat.{condition}", target, condition, key, by=key)
            state = add_effect(state, effect, events)
    elif rolled.degree is S:
        effect = _effect("false_retreat.success", target, "outflanked", target, by=key)
        state = add_effect(state, effect, events)
    elif rolled.degree is CF:
        effect = _effect("false_retreat.critical_failure", key, "outflanked", key, by=target)
        state = add_effect(state, effect, events)
    return state


def after_morale_checks(
    state: BattleState, successes: list[tuple[str, str | None, str]], dice: Dice,
    events: list[Event],
) -> BattleState:  # fmt: skip
    """False Retreat for each (army, against, trigger) that succeeded at a Morale check."""
    for key, against, trigger in successes:
        state = false_retreat(state, key, against, trigger, dice, events)
    return state
