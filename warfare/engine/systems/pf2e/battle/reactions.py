"""Reactions (§0.5, §6.2, §8.2): Counterattack, False Retreat, Revel in Battle and Accustomed
to Panic, used automatically or offered to their controller when triggered.

Each side has the setup flag `"auto_reactions"` (default true). When a reaction triggers for
an army of an automatic side, the engine uses it at once. Otherwise it is OFFERED: the command
being applied stops at the trigger (`Offered`), the state records the pending reaction
(`state.Pending`) and the engine waits for "use_reaction" or "decline_reaction" from that army
(`engine.apply`). The answer resumes the interrupted command exactly as the automatic path
would have gone on: the command is run again from the state before it, with the dice it
already rolled replayed and every answer given so far, so the reaction and the rest of the
command roll from the answer's own dice and a replay of the stored commands stays exact.
A `Decider` (one per command, found through `rules.REACTIONS`) gives each trigger its answer.

* 1 reaction per round per army (§0.5 [inferred]); it comes back at the start of the army's
  own turn (the PF2e default the reference infers it from).
* Only armies whose stat block lists the reaction (Flexible Tactics, or a unique tactic
  granting it, §6.2) react; defeated armies and armies off the field never do.
* "no_maneuver_reactions" (Covering Fire, §8.2) blocks reactions triggered by maneuver war
  actions (Counterattack); "no_reactions" (False Retreat critical success, §8.2) blocks all.
* A reaction that could change nothing is not offered: Revel in Battle at full HP.

Events: `battle.counterattack` / `battle.false_retreat` (army = the reacting army, target,
trigger, degree, check), `battle.revel_in_battle` (army, trigger), `battle.accustomed_to_panic`
(army, trigger, shaken = the increase prevented), `battle.reaction_blocked` (army, reaction,
reason, trigger), `battle.reaction_offered` (army, reaction, trigger, by, target),
`battle.reaction_declined` (army, reaction, trigger), `battle.action_interrupted` (the
triggering army can no longer act after the reactions).
"""

from collections.abc import Iterator
from contextlib import contextmanager

from warfare.engine.battle.protocol import CheckPreview
from warfare.engine.dice import Dice
from warfare.engine.frozen import replace
from warfare.engine.systems.pf2e.activities.events import Event
from warfare.engine.systems.pf2e.battle.actions import (
    MELEE,
    _effect,
    _enemy_problems,
    _preview,
    strike_dc,
    strike_modifier,
)
from warfare.engine.systems.pf2e.battle.rules import (
    CF,
    CS,
    HIT_DAMAGE,
    REACTIONS,
    S,
    add_army_condition,
    add_effect,
    damage,
    effective_block,
    heal_army,
    morale,
    morale_dc,
    reduce_army_condition,
    roll_check,
    strike_riders,
)
from warfare.engine.systems.pf2e.battle.state import BattleState, Pending

COUNTERATTACK, FALSE_RETREAT = "counterattack", "false_retreat"
REVEL_IN_BATTLE, ACCUSTOMED_TO_PANIC = "revel_in_battle", "accustomed_to_panic"
NO_REACTIONS, NO_MANEUVER_REACTIONS = "no_reactions", "no_maneuver_reactions"


class Offered(Exception):
    """A reaction triggered for an army whose side does not react automatically: the command
    stops here. `state` is the state at the trigger (what the board shows meanwhile)."""

    def __init__(
        self, state: BattleState, army: str, reaction: str, trigger: str, by: str | None,
        target: str | None,
    ) -> None:  # fmt: skip
        super().__init__(reaction)
        self.state, self.army, self.reaction = state, army, reaction
        self.trigger, self.by, self.target = trigger, by, target


class Decider:
    """Whether each reaction triggered during one command is used: a blocked one never, an
    automatic side's always, otherwise the next of `answers` (given by the controller), and
    when none is left the command stops to offer it (`Offered`)."""

    def __init__(self, answers: tuple[bool, ...] = ()) -> None:
        self.answers = answers
        self.given = 0
        self.answered = False
        """The reaction last decided was used by the answer being applied (the last one)."""

    def decide(
        self, state: BattleState, key: str, reaction: str, events: list[Event], *,
        trigger: str, by: str | None = None, target: str | None = None,
        by_maneuver: bool = False,
    ) -> bool:  # fmt: skip
        reason = _blocked_reason(state, key, by_maneuver)
        self.answered = False
        if reason is not None:
            _blocked(events, key, reaction, reason, trigger)
            return False
        if state.army(key).auto_reactions:
            return True
        if self.given == len(self.answers):
            raise Offered(state, key, reaction, trigger, by, target)
        answer = self.answers[self.given]
        self.given += 1
        self.answered = self.given == len(self.answers)
        if not answer:
            events.append(
                Event("battle.reaction_declined", {"army": key, "reaction": reaction,
                                                   "trigger": trigger})
            )  # fmt: skip
        return answer

    def shaken_would_increase(
        self, state: BattleState, key: str, by: int, events: list[Event], reason: str
    ) -> BattleState | None:
        return accustomed_to_panic(state, key, by, reason, events, self)

    def melee_critical_hit(
        self, state: BattleState, key: str, trigger: str, events: list[Event]
    ) -> BattleState:
        return revel_in_battle(state, key, trigger, events, self)


@contextmanager
def _reaction_rolls(dice: Dice, decider: Decider) -> Iterator[None]:
    """The rolls of a reaction just decided: from the dice typed in with the answer that uses
    it, when that answer is the command being applied, else from the server's; never from
    those typed in for the triggering command's own rolls (the engine's `_ResumeDice`; plain
    dice, as in tests, roll as they are)."""
    scope = getattr(dice, "reaction", None)
    if scope is None:
        yield
        return
    with scope(decider.answered):
        yield


def _decider() -> Decider:
    """The decider of the command being applied (`engine.apply` sets it)."""
    decider = REACTIONS.get()
    return decider if decider is not None else Decider()


def _blocked_reason(state: BattleState, key: str, by_maneuver: bool) -> str | None:
    """Why army `key` cannot take a reaction now (None: it can)."""
    if state.army(key).reaction_used:
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


def preview(state: BattleState, pending: Pending) -> tuple[CheckPreview, ...]:
    """The check the offered reaction will roll (none for Revel in Battle and Accustomed to
    Panic), as the board shows it beside "use"."""
    key, target = pending.army, pending.target
    if pending.reaction == COUNTERATTACK and target is not None:
        clean = state.with_army(replace(state.army(key), attacks=()))
        modifier = strike_modifier(clean, key, MELEE, target=target)
        return (_preview(MELEE, modifier, strike_dc(state, key, MELEE, target=target), target),)
    if pending.reaction == FALSE_RETREAT and target is not None:
        return (_preview("morale", morale(state, key), morale_dc(state, target), target),)
    return ()


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
        decider = _decider()
        if not decider.decide(state, key, COUNTERATTACK, events, trigger=action, by=actor,
                              target=actor, by_maneuver=True):  # fmt: skip
            continue
        with _reaction_rolls(dice, decider):
            state = _counterattack(state, key, actor, action, dice, events)
    return state


def _counterattack(
    state: BattleState, key: str, actor: str, action: str, dice: Dice, events: list[Event]
) -> BattleState:
    """Army `key`'s Counterattack on `actor` (see `counterattacks`)."""
    state = _use_reaction(state, key)
    # No MAP: the modifier is computed as if it were the army's first attack.
    clean = state.with_army(replace(state.army(key), attacks=()))
    modifier = strike_modifier(clean, key, MELEE, target=actor)
    dc = strike_dc(state, key, MELEE, target=actor)
    rolled = roll_check(dice, MELEE, modifier, dc, purpose=COUNTERATTACK, against=actor)
    events.append(
        Event("battle.counterattack", {"army": key, "target": actor, "trigger": action,
                                       "degree": rolled.degree.code, "check": rolled.record})
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
    target = _false_retreat_target(state, key, against)
    if target is None:
        return state
    decider = _decider()
    if not decider.decide(state, key, FALSE_RETREAT, events, trigger=trigger, by=key,
                          target=target):  # fmt: skip
        return state
    state = _use_reaction(state, key)
    with _reaction_rolls(dice, decider):
        rolled = roll_check(
            dice, "morale", morale(state, key), morale_dc(state, target),
            purpose=FALSE_RETREAT, against=target,
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


# --- §6.2 unique reactions -----------------------------------------------------------------------


def revel_in_battle(
    state: BattleState, key: str, trigger: str, events: list[Event], decider: Decider
) -> BattleState:
    """§6.2 Revel in Battle (Tiger Lord Berserkers), trigger: the army scores a critical hit
    with a melee Strike: it regains 1 HP (not offered at full HP: it would change nothing)."""
    entry = state.army(key)
    if not _may_react(state, key, REVEL_IN_BATTLE) or entry.hp >= entry.army.max_hp:
        return state
    if not decider.decide(state, key, REVEL_IN_BATTLE, events, trigger=trigger, by=key):
        return state
    state = _use_reaction(state, key)
    events.append(Event("battle.revel_in_battle", {"army": key, "trigger": trigger}))
    return heal_army(state, key, 1, events, REVEL_IN_BATTLE)


def accustomed_to_panic(
    state: BattleState, key: str, by: int, trigger: str, events: list[Event], decider: Decider
) -> BattleState | None:
    """§6.2 Accustomed to Panic (Sootscale Warriors), trigger: its shaken value would increase
    while it is not routed: instead of shaken increasing (by `by`), weary is reduced by 1.
    The state after it, or None when it is not used (shaken then increases as usual)."""
    if not _may_react(state, key, ACCUSTOMED_TO_PANIC) or state.army(key).routed:
        return None
    if not decider.decide(state, key, ACCUSTOMED_TO_PANIC, events, trigger=trigger):
        return None
    state = _use_reaction(state, key)
    events.append(
        Event("battle.accustomed_to_panic", {"army": key, "trigger": trigger, "shaken": by})
    )
    if state.army(key).army.spec.condition_values.get("weary"):
        state = reduce_army_condition(state, key, "weary", 1, events, ACCUSTOMED_TO_PANIC)
    return state
